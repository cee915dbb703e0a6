// SPDX-License-Identifier: GPL-2.0
/*
 * explain.c - explanation of the noise that made osn stop (see explain.h).
 */
#include <stdlib.h>
#include <string.h>

#include "osn/osn_abi.h"
#include "explain.h"
#include "util.h"

int osn_ring_init(struct osn_ring *r, size_t cap)
{
	memset(r, 0, sizeof(*r));
	r->ev = calloc(cap ? cap : 1, sizeof(*r->ev));
	if (!r->ev)
		return -1;
	r->cap = cap ? cap : 1;
	return 0;
}

void osn_ring_free(struct osn_ring *r)
{
	free(r->ev);
	memset(r, 0, sizeof(*r));
}

void osn_ring_push(struct osn_ring *r, const struct osn_event *ev)
{
	if (!r->ev)
		return;
	if (r->len < r->cap) {
		r->ev[(r->head + r->len) % r->cap] = *ev;
		r->len++;
		return;
	}
	r->ev[r->head] = *ev;
	r->head = (r->head + 1) % r->cap;
	r->dropped++;
}

const struct osn_event *osn_ring_at(const struct osn_ring *r, size_t i)
{
	return &r->ev[(r->head + i) % r->cap];
}

static bool is_noise(const struct osn_event *e)
{
	return osn_event_class(e->type) >= 0;
}

static bool same_cause(const struct osn_cause *a, const struct osn_cause *b)
{
	return a->kind == b->kind && a->function == b->function &&
	       a->origin_cpu == b->origin_cpu &&
	       a->origin_pid == b->origin_pid &&
	       !strcmp(a->origin_comm, b->origin_comm);
}

void osn_part_add_cause(struct osn_part *p, const struct osn_cause *c)
{
	for (size_t i = 0; i < p->ncauses; i++) {
		if (same_cause(&p->causes[i].c, c)) {
			p->causes[i].count++;
			/* keep the table sorted by count, descending */
			for (; i > 0 && p->causes[i].count > p->causes[i - 1].count; i--) {
				struct osn_part_cause t = p->causes[i];

				p->causes[i] = p->causes[i - 1];
				p->causes[i - 1] = t;
			}
			return;
		}
	}
	if (p->ncauses == OSN_PART_MAX_CAUSES) {
		p->other_causes++;
		return;
	}
	p->causes[p->ncauses].c = *c;
	p->causes[p->ncauses].count = 1;
	p->ncauses++;
}

/*
 * The causes of the noise event at index @i (same CPU: the ring is the
 * CPU's): osn:noise_cause events of its class and start, emitted while it
 * ran, so after index @lo, the first event after the workload's previous
 * sample or period event (a noise starts after the read before it).  No
 * fixed count of events bounds the look-back: a 300 ms thread noise under
 * TCG holds hundreds of nested IRQs, each with its own cause, between its
 * work item's cause and its own event.
 */
void osn_part_add_causes(struct osn_part *p, const struct osn_ring *h,
			 size_t lo, size_t i)
{
	const struct osn_event *e = osn_ring_at(h, i);
	int cls = osn_event_class(e->type);

	if (!p)
		return;
	for (size_t k = lo; k < i; k++) {	/* in buffer order */
		const struct osn_event *c = osn_ring_at(h, k);

		if (c->type == OSN_E_CAUSE && c->cause.cls == cls &&
		    c->cause.start == e->noise.start)
			osn_part_add_cause(p, &c->cause);
	}
}

void osn_part_source(const struct osn_event *e, int *cls, char *name,
		     int *id)
{
	*cls = osn_event_class(e->type);
	*id = e->noise.id;
	switch (e->type) {
	case OSN_E_SOFTIRQ:
		osn_strlcpy(name, osn_softirq_name(*id), OSN_NAME_LEN);
		break;
	case OSN_E_NMI:
		osn_strlcpy(name, "nmi", OSN_NAME_LEN);
		*id = -1;
		break;
	default:
		osn_strlcpy(name, e->noise.name, OSN_NAME_LEN);
		break;
	}
}

/* Account @e to its part; returns the part (NULL: past the table). */
static struct osn_part *add_part(struct osn_explanation *x,
				 const struct osn_event *e)
{
	char name[OSN_NAME_LEN];
	int cls, id;

	osn_part_source(e, &cls, name, &id);
	x->explained += e->noise.duration;
	for (size_t i = 0; i < x->nparts; i++) {
		struct osn_part *p = &x->parts[i];

		if (p->cls == cls && p->id == id && !strcmp(p->name, name)) {
			p->count++;
			p->time += e->noise.duration;
			return p;
		}
	}
	if (x->nparts == OSN_EXPLAIN_MAX_PARTS) {
		x->other_count++;
		x->other_time += e->noise.duration;
		return NULL;
	}
	x->parts[x->nparts].cls = cls;
	x->parts[x->nparts].id = id;
	osn_strlcpy(x->parts[x->nparts].name, name, OSN_NAME_LEN);
	x->parts[x->nparts].count = 1;
	x->parts[x->nparts].time = e->noise.duration;
	return &x->parts[x->nparts++];
}

static bool in_window(const struct osn_event *e, const struct osn_event *t)
{
	return e->noise.start >= t->thr.start &&
	       e->noise.start <= t->thr.start + t->thr.duration;
}

/* Explain the sample at index @ti of @h; events at index > @limit are not looked at. */
static void explain_sample(const struct osn_ring *h, size_t ti, size_t limit,
			   struct osn_explanation *x)
{
	const struct osn_event *t = osn_ring_at(h, ti);
	uint64_t before = x->explained, mine;
	size_t lo = ti;

	/* backwards: up to the previous sample or period boundary */
	while (lo > 0) {
		const struct osn_event *e = osn_ring_at(h, lo - 1);

		if (e->type == OSN_E_THRESHOLD || e->type == OSN_E_SAMPLE)
			break;
		lo--;
	}
	for (size_t i = ti; i-- > lo;) {
		const struct osn_event *e = osn_ring_at(h, i);

		if (is_noise(e) && in_window(e, t))
			osn_part_add_causes(add_part(x, e), h, lo, i);
	}
	/* forwards, in case an event was emitted after the sample */
	for (size_t i = ti + 1; i <= limit && i < h->len; i++) {
		const struct osn_event *e = osn_ring_at(h, i);

		if (e->type == OSN_E_CAUSE)
			continue;
		if (e->type != OSN_E_IRQ && e->type != OSN_E_SOFTIRQ &&
		    e->type != OSN_E_THREAD && e->type != OSN_E_NMI)
			break;
		if (in_window(e, t))
			osn_part_add_causes(add_part(x, e), h, lo, i);
	}
	mine = x->explained - before;
	x->nsamples++;
	x->noise += t->thr.duration;
	if (mine < t->thr.duration) {
		x->hw += t->thr.duration - mine;
		x->hw_samples++;
	}
}

static int cmp_part(const void *a, const void *b)
{
	const struct osn_part *pa = a, *pb = b;

	if (pa->time != pb->time)
		return pa->time < pb->time ? 1 : -1;
	if (pa->cls != pb->cls)
		return pa->cls - pb->cls;
	return strcmp(pa->name, pb->name);
}

/* -s: the offending sample, the last over the threshold before the stop */
static int explain_single(const struct osn_ring *h, const struct osn_event *stop,
			  size_t limit, struct osn_explanation *x)
{
	size_t i, best = 0;
	bool found = false;

	for (i = limit + 1; i-- > 0;) {
		const struct osn_event *e = osn_ring_at(h, i);

		if (e->type != OSN_E_THRESHOLD)
			continue;
		if (stop && e->thr.duration == stop->stop.value) {
			best = i;
			found = true;
			break;
		}
		if (!found && e->thr.duration > x->threshold) {
			best = i;
			found = true;
			if (!stop)
				break;
		}
	}
	if (!found) {
		x->truncated = h->dropped > 0;
		return -1;
	}
	x->have_sample = true;
	x->start = osn_ring_at(h, best)->thr.start;
	x->duration = osn_ring_at(h, best)->thr.duration;
	x->interference = osn_ring_at(h, best)->thr.interference;
	if (!stop)
		x->value = x->duration;
	explain_sample(h, best, limit, x);
	return 0;
}

/* -S: every sample of the offending period */
static int explain_total(const struct osn_ring *h, const struct osn_event *stop,
			 size_t limit, struct osn_explanation *x)
{
	size_t i, first = 0, last = limit;
	bool found = false;

	/*
	 * The module emits the period's osn:sample before osn:stop:
	 * when the last sample before the stop is the offending
	 * period (its noise is the stop's value, or nothing but the
	 * stop follows it), the period ends there and starts after
	 * the sample before it.
	 */
	for (i = limit + 1; i-- > 0;) {
		const struct osn_event *e = osn_ring_at(h, i);

		if (e->type == OSN_E_THRESHOLD)
			break;
		if (e->type == OSN_E_SAMPLE) {
			if (!stop || e->s.noise == stop->stop.value) {
				last = i;
				limit = i;
			}
			break;
		}
	}
	for (i = last; i-- > 0;) {
		if (osn_ring_at(h, i)->type == OSN_E_SAMPLE) {
			first = i + 1;
			found = true;
			break;
		}
	}
	if (!found && h->dropped)
		x->truncated = true;
	for (i = first; i <= limit; i++)
		if (osn_ring_at(h, i)->type == OSN_E_THRESHOLD)
			explain_sample(h, i, limit, x);
	if (!stop)
		x->value = x->noise;
	return x->nsamples ? 0 : -1;
}

int osn_explain(const struct osn_ring *h, const struct osn_event *stop,
		int reason, uint64_t threshold_ns,
		struct osn_explanation *x)
{
	size_t limit;

	memset(x, 0, sizeof(*x));
	x->cpu = -1;
	x->reason = reason;
	x->threshold = threshold_ns;
	if (stop) {
		x->have_stop = true;
		x->cpu = stop->cpu;
		x->reason = stop->stop.reason;
		x->value = stop->stop.value;
		x->threshold = stop->stop.threshold;
		x->stop_ts = stop->ts;
	}
	if (!h || !h->len)
		return -1;
	if (x->cpu < 0)
		x->cpu = osn_ring_at(h, h->len - 1)->cpu;

	/* the last event recorded before the stop */
	limit = h->len - 1;
	if (stop) {
		while (limit > 0 && osn_ring_at(h, limit)->ts > stop->ts)
			limit--;
		if (osn_ring_at(h, limit)->ts > stop->ts)
			return -1;
		if (osn_ring_at(h, limit)->type == OSN_E_STOP && limit > 0)
			limit--;
	}

	if (x->reason == OSN_STOP_SINGLE ? explain_single(h, stop, limit, x) :
	    explain_total(h, stop, limit, x))
		return -1;
	qsort(x->parts, x->nparts, sizeof(x->parts[0]), cmp_part);
	return 0;
}
