// SPDX-License-Identifier: GPL-2.0
/*
 * tlat.c - osn timerlat's numbers and its stop analysis (see tlat.h).
 */
#include <string.h>

#include "osn/osn_abi.h"
#include "tlat.h"

void osn_tlat_add(struct osn_tlat_cpu *c, const struct osn_event *ev,
		  uint64_t bucket_us, unsigned entries)
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
	if (!s->buckets || !bucket_us)
		return;
	/* rtla's buckets: the latency in whole us over the bucket size */
	b = ns / 1000 / bucket_us;
	if (b < entries)
		s->buckets[b]++;
	else
		s->over++;
}

/* The part of [s, s + d] inside [lo, hi]. */
static uint64_t overlap(uint64_t s, uint64_t d, uint64_t lo, uint64_t hi)
{
	uint64_t a = s > lo ? s : lo, e = s + d < hi ? s + d : hi;

	return e > a ? e - a : 0;
}

/* The culprit of noise @e (osn:noise_cause, same class and start). */
static const struct osn_cause *find_cause(const struct osn_ring *ring,
					  const struct osn_event *e)
{
	int cls = osn_event_class(e->type);

	for (size_t i = 0; i < ring->len; i++) {
		const struct osn_event *c = osn_ring_at(ring, i);

		if (c->type == OSN_E_CAUSE && c->cause.cls == cls &&
		    c->cause.start == e->noise.start)
			return &c->cause;
	}
	return NULL;
}

static void add_part(struct osn_tlat_aa *aa, const struct osn_ring *ring,
		     const struct osn_event *e, uint64_t ns)
{
	const struct osn_cause *cause;
	bool blocking = e->type == OSN_E_THREAD && e->noise.start < aa->expiry;
	struct osn_tlat_part *p;

	for (size_t i = 0; i < aa->nparts; i++) {
		p = &aa->parts[i];
		if (p->type == e->type && p->id == e->noise.id &&
		    p->blocking == blocking && !strcmp(p->name, e->noise.name)) {
			p->ns += ns;
			return;
		}
	}
	if (aa->nparts == OSN_TLAT_MAX_PARTS)
		return;
	p = &aa->parts[aa->nparts++];
	p->type = e->type;
	p->id = e->noise.id;
	memcpy(p->name, e->noise.name, sizeof(p->name));
	p->ns = ns;
	p->blocking = blocking;
	cause = find_cause(ring, e);
	if (cause) {
		p->cause = *cause;
		p->have_cause = true;
	}
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
	uint64_t hi;
	size_t irq_i, end_i;

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
	/* the noise that overlapped the window, each with its share */
	for (size_t i = 0; i < ring->len; i++) {
		const struct osn_event *e = osn_ring_at(ring, i);
		uint64_t ns;

		if (osn_event_class(e->type) < 0)
			continue;
		ns = overlap(e->noise.start, e->noise.duration, aa->expiry, hi);
		if (!ns)
			continue;
		add_part(aa, ring, e, ns);
	}
	return 0;
}
