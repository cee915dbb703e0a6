// SPDX-License-Identifier: GPL-2.0
/*
 * tlat.c - osn timerlat's numbers and its stop analysis (see tlat.h).
 */
#include <stdint.h>
#include <string.h>

#include "osn/osn_abi.h"
#include "tlat.h"
#include "util.h"

void osn_tlat_add(struct osn_tlat_cpu *c, const struct osn_event *ev,
		  uint64_t bucket, unsigned entries, unsigned unit_ns)
{
	struct osn_tlat_stat *s;
	uint64_t ns = ev->tlat.latency, b;

	if (ev->type != OSN_E_TLAT || ev->tlat.context < 0 ||
	    ev->tlat.context >= OSN_TLAT_NCTX)
		return;
	s = &c->ctx[ev->tlat.context];
	if (!s->count || ns < s->min)
		s->min = ns;
	if (ns > s->max)
		s->max = ns;
	s->cur = ns;
	s->sum += ns;
	s->count++;
	if (!s->buckets || !bucket || !unit_ns)
		return;
	/* rtla's buckets: the latency in whole units over the bucket size */
	b = ns / unit_ns / bucket;
	if (b < entries)
		s->buckets[b]++;
	else
		s->over++;
}

void osn_tlat_merge(struct osn_tlat_stat *dst, const struct osn_tlat_stat *src,
		    unsigned entries)
{
	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	dst->over += src->over;
	for (unsigned b = 0; dst->buckets && src->buckets && b < entries; b++)
		dst->buckets[b] += src->buckets[b];
}

/* The part of [s, s + d] inside [lo, hi]. */
static uint64_t overlap(uint64_t s, uint64_t d, uint64_t lo, uint64_t hi)
{
	uint64_t a = s > lo ? s : lo, e = s + d < hi ? s + d : hi;

	return e > a ? e - a : 0;
}

/* @e's part (a thread running at the expiry apart); NULL: table full. */
static struct osn_part *get_part(struct osn_tlat_aa *aa,
				 const struct osn_event *e, bool blocking)
{
	char name[OSN_NAME_LEN];
	struct osn_part *p;
	int cls, id;

	osn_part_source(e, &cls, name, &id);
	for (size_t i = 0; i < aa->nparts; i++) {
		p = &aa->parts[i];
		if (p->cls == cls && p->id == id &&
		    aa->blocking[i] == blocking && !strcmp(p->name, name))
			return p;
	}
	if (aa->nparts == OSN_TLAT_MAX_PARTS)
		return NULL;
	aa->blocking[aa->nparts] = blocking;
	p = &aa->parts[aa->nparts++];
	p->cls = cls;
	p->id = id;
	memcpy(p->name, name, sizeof(p->name));
	return p;
}

/* @ns of the noise event at index @i of @ring, with its causes. */
static struct osn_part *add_part(struct osn_tlat_aa *aa,
				 const struct osn_ring *ring, size_t i,
				 uint64_t ns)
{
	const struct osn_event *e = osn_ring_at(ring, i);
	struct osn_part *p;

	p = get_part(aa, e, e->type == OSN_E_THREAD &&
		     e->noise.start < aa->expiry);
	if (!p)
		return NULL;
	p->count++;
	p->time += ns;
	osn_part_add_causes(p, ring, 0, i);
	return p;
}

/*
 * timerlat's own callback's cause: the hrtimer cause emitted just before
 * the IRQ sample at @irq_i (an NMI's event may come between), or NULL.
 */
static const struct osn_cause *own_cause(const struct osn_ring *ring,
					 size_t irq_i)
{
	for (size_t k = irq_i; k-- > 0;) {
		const struct osn_event *c = osn_ring_at(ring, k);

		if (c->type == OSN_E_NMI)
			continue;
		if (c->type != OSN_E_CAUSE || c->cause.kind != OSN_CAUSE_HRTIMER ||
		    c->cause.cls != OSN_CLASS_IRQ)
			return NULL;
		return &c->cause;
	}
	return NULL;
}

/* Forget timerlat's own callback among the causes of its interrupt's @p. */
static void drop_own_cause(struct osn_part *p, const struct osn_ring *ring,
			   size_t irq_i)
{
	const struct osn_cause *own = own_cause(ring, irq_i);

	for (size_t i = 0; own && i < p->ncauses; i++) {
		if (p->causes[i].c.kind != own->kind ||
		    p->causes[i].c.function != own->function)
			continue;
		if (--p->causes[i].count)
			return;
		memmove(&p->causes[i], &p->causes[i + 1],
			(p->ncauses - i - 1) * sizeof(p->causes[0]));
		p->ncauses--;
		return;
	}
}

/*
 * The IRQ handler delay of a timer interrupt that began at @start: the
 * time from the expiry, less the noise (but the event at @ti) in it.
 */
static void irq_delay(struct osn_tlat_aa *aa, const struct osn_ring *ring,
		      size_t ti, uint64_t start)
{
	uint64_t noise = 0;

	if (start <= aa->expiry)
		return;
	for (size_t i = 0; i < ring->len; i++) {
		const struct osn_event *x = osn_ring_at(ring, i);

		if (i != ti && osn_event_class(x->type) >= 0)
			noise += overlap(x->noise.start, x->noise.duration,
					 aa->expiry, start);
	}
	aa->irq_delay = start - aa->expiry > noise ? start - aa->expiry - noise : 0;
}

/*
 * An IRQ stop: tracing stopped in timerlat's callback, and its interrupt
 * ends after the stop, without a noise event.  Its start is the one of
 * timerlat's own cause; the callbacks that ran in it before timerlat's
 * (their causes, of the same start) held it until the IRQ sample.
 */
static void running_irq(struct osn_tlat_aa *aa, const struct osn_ring *ring,
			size_t irq_i, uint64_t hi)
{
	const struct osn_cause *own = own_cause(ring, irq_i);
	uint64_t ts = osn_ring_at(ring, irq_i)->ts, held;
	struct osn_part *p;

	if (!own || own->start > ts)
		return;
	aa->have_timer_irq = true;
	irq_delay(aa, ring, SIZE_MAX, own->start);
	held = overlap(own->start, ts - own->start, aa->expiry, hi);
	if (!held || aa->nparts == OSN_TLAT_MAX_PARTS)
		return;
	aa->blocking[aa->nparts] = false;
	p = &aa->parts[aa->nparts++];
	p->cls = OSN_CLASS_IRQ;
	p->id = -1;
	osn_strlcpy(p->name, "(running at the stop)", sizeof(p->name));
	p->count = 1;
	p->time = held;
	for (size_t k = 0; k < irq_i; k++) {
		const struct osn_event *c = osn_ring_at(ring, k);

		if (c->type == OSN_E_CAUSE && &c->cause != own &&
		    c->cause.cls == OSN_CLASS_IRQ && c->cause.start == own->start)
			osn_part_add_cause(p, &c->cause);
	}
}

/*
 * The timer's own interrupt: the first IRQ noise event after the IRQ
 * sample at @irq_i that began before it (interrupts do not nest, and
 * an IRQ's event is written at its end).
 */
static bool find_timer_irq(const struct osn_ring *ring, size_t irq_i,
			   size_t *ti)
{
	const struct osn_event *irq = osn_ring_at(ring, irq_i);

	for (size_t i = irq_i + 1; i < ring->len; i++) {
		const struct osn_event *e = osn_ring_at(ring, i);

		if (e->type == OSN_E_IRQ && e->noise.start <= irq->ts) {
			*ti = i;
			return true;
		}
	}
	return false;
}

/*
 * When the first callback after timerlat's began in the timer's
 * interrupt (its cause, after the IRQ sample at @irq_i in the ring), or
 * 0 when none did.
 */
static uint64_t next_callback(const struct osn_ring *ring, size_t irq_i,
			      size_t ti)
{
	const struct osn_event *e = osn_ring_at(ring, ti);

	for (size_t i = irq_i + 1; i < ti; i++) {
		const struct osn_event *c = osn_ring_at(ring, i);

		if (c->type == OSN_E_CAUSE && c->cause.cls == OSN_CLASS_IRQ &&
		    c->cause.start == e->noise.start)
			return c->ts;
	}
	return 0;
}

/*
 * The timer's interrupt at index @ti, in a window that ends at @hi:
 * timerlat's own time runs from the IRQ sample to the next callback of
 * the interrupt, or its end; the rest is interference (other handlers
 * or callbacks ran before or after it).  What came before the interrupt
 * began, less the noise that ran then, is the IRQ handler delay.
 */
static void timer_irq(struct osn_tlat_aa *aa, const struct osn_ring *ring,
		      size_t irq_i, size_t ti, uint64_t hi)
{
	const struct osn_event *e = osn_ring_at(ring, ti);
	uint64_t ts = osn_ring_at(ring, irq_i)->ts, start = e->noise.start;
	uint64_t in = overlap(start, e->noise.duration, aa->expiry, hi);
	uint64_t before = overlap(start, ts - start, aa->expiry, hi);
	uint64_t next = next_callback(ring, irq_i, ti);
	struct osn_part *p;

	aa->have_timer_irq = true;
	if (next > ts)
		aa->timer_irq_ns = overlap(ts, next - ts, aa->expiry, hi);
	else
		aa->timer_irq_ns = in > before ? in - before : 0;
	aa->timer_irq_ns = aa->timer_irq_ns < in ? aa->timer_irq_ns : in;
	if (in > aa->timer_irq_ns &&
	    (p = add_part(aa, ring, ti, in - aa->timer_irq_ns)))
		drop_own_cause(p, ring, irq_i);
	irq_delay(aa, ring, ti, start);
}

/* The latest activation over a limit: its samples' indexes in @ring. */
static bool find_hit(const struct osn_ring *ring, uint64_t irq_ns,
		     uint64_t thread_ns, struct osn_tlat_aa *aa, size_t *irq_i,
		     size_t *end_i)
{
	for (size_t i = ring->len; i-- > 0;) {
		const struct osn_event *e = osn_ring_at(ring, i);
		bool thr;

		if (e->type != OSN_E_TLAT)
			continue;
		thr = e->tlat.context == OSN_TLAT_CTX_THREAD;
		if (!((thr && thread_ns && e->tlat.latency >= thread_ns) ||
		      (!thr && irq_ns && e->tlat.latency >= irq_ns)))
			continue;
		aa->seqnum = e->tlat.seqnum;
		*end_i = i;
		/* the activation's IRQ sample: this one, or before it */
		for (size_t k = i + 1; k-- > 0;) {
			const struct osn_event *x = osn_ring_at(ring, k);

			if (x->type == OSN_E_TLAT && x->tlat.seqnum == aa->seqnum &&
			    x->tlat.context == OSN_TLAT_CTX_IRQ) {
				*irq_i = k;
				return true;
			}
		}
		*irq_i = i;
		return true;
	}
	return false;
}

int osn_tlat_analyze(const struct osn_ring *ring, int cpu, uint64_t irq_ns,
		     uint64_t thread_ns, struct osn_tlat_aa *aa)
{
	const struct osn_event *irq;
	size_t irq_i, end_i, ti;
	uint64_t hi;

	memset(aa, 0, sizeof(*aa));
	aa->cpu = cpu;
	if (!ring || !find_hit(ring, irq_ns, thread_ns, aa, &irq_i, &end_i))
		return -1;
	/* the thread's sample, if it came (after a stop, it may not) */
	for (size_t i = irq_i; i < ring->len; i++) {
		const struct osn_event *e = osn_ring_at(ring, i);

		if (e->type != OSN_E_TLAT || e->tlat.seqnum != aa->seqnum)
			continue;
		if (e->tlat.context == OSN_TLAT_CTX_IRQ) {
			aa->have_irq = true;
			aa->irq_ns = e->tlat.latency;
		} else if (e->tlat.context == OSN_TLAT_CTX_THREAD) {
			aa->have_thread = true;
			aa->thread_ns = e->tlat.latency;
			end_i = i;
		}
	}
	irq = osn_ring_at(ring, irq_i);
	aa->expiry = irq->ts > irq->tlat.latency ? irq->ts - irq->tlat.latency : 0;
	hi = osn_ring_at(ring, end_i)->ts;
	if (find_timer_irq(ring, irq_i, &ti)) {
		timer_irq(aa, ring, irq_i, ti, hi);
	} else {
		ti = SIZE_MAX;
		running_irq(aa, ring, irq_i, hi);
	}
	/* the other noise that overlapped the window, each with its share */
	for (size_t i = 0; i < ring->len; i++) {
		const struct osn_event *e = osn_ring_at(ring, i);
		uint64_t ns;

		if (i == ti || osn_event_class(e->type) < 0)
			continue;
		ns = overlap(e->noise.start, e->noise.duration, aa->expiry, hi);
		if (ns)
			add_part(aa, ring, i, ns);
	}
	return 0;
}
