// SPDX-License-Identifier: GPL-2.0
/*
 * causes.c - osn top --causes (see causes.h).  Pure code.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "causes.h"

int osn_causes_init(struct osn_causes *cs, int nr_cpus)
{
	memset(cs, 0, sizeof(*cs));
	cs->nr_cpus = nr_cpus;
	cs->cpu = calloc(nr_cpus > 0 ? nr_cpus : 1, sizeof(*cs->cpu));
	return cs->cpu ? 0 : -1;
}

void osn_causes_free(struct osn_causes *cs)
{
	for (int i = 0; cs->cpu && i < cs->nr_cpus; i++) {
		free(cs->cpu[i].culprits);
		osn_khist_free(&cs->cpu[i].hist);
	}
	free(cs->cpu);
	cs->cpu = NULL;
}

static void add_pending(struct osn_cpu_causes *cc, const struct osn_cause *c)
{
	if (cc->npending == OSN_CAUSES_PENDING)
		cc->unlinked++;		/* the oldest is overwritten */
	else
		cc->npending++;
	cc->pending[cc->next] = *c;
	cc->next = (cc->next + 1) % OSN_CAUSES_PENDING;
}

static bool same_culprit(const struct osn_cause *a, const struct osn_cause *b)
{
	return a->kind == b->kind && a->function == b->function &&
	       a->origin_cpu == b->origin_cpu &&
	       a->origin_pid == b->origin_pid &&
	       !strcmp(a->origin_comm, b->origin_comm);
}

/*
 * One more noise of @ns for culprit @k: into its histogram, in the bucket
 * that holds @ns (its floor, as the kernel's .buckets and osn hist's own
 * table); those past the last entry all go into one bucket, counted as
 * over, so that a culprit costs at most entries + 1 buckets.
 */
static void hist_add(const struct osn_causes *cs, struct osn_cpu_causes *cc,
		     const struct osn_culprit *k, uint64_t ns)
{
	uint64_t lo, over;

	if (!cs->bucket_ns)
		return;
	over = (uint64_t)cs->entries * cs->bucket_ns;
	lo = ns >= over ? over : ns - ns % cs->bucket_ns;
	if (osn_khist_add(&cc->hist, k->id, lo, 1, ns))
		cc->hist.dropped++;	/* out of memory */
}

static void credit(const struct osn_causes *cs, struct osn_cpu_causes *cc,
		   const struct osn_cause *c, uint64_t ns)
{
	struct osn_culprit *k;

	for (size_t i = 0; i < cc->n; i++) {
		k = &cc->culprits[i];
		if (same_culprit(&k->c, c)) {
			k->count++;
			k->time += ns;
			if (ns < k->min)
				k->min = ns;
			if (ns > k->max)
				k->max = ns;
			hist_add(cs, cc, k, ns);
			return;
		}
	}
	if (cc->n == cc->cap) {
		size_t cap = cc->cap ? 2 * cc->cap : 16;

		k = realloc(cc->culprits, cap * sizeof(*k));
		if (!k)
			return;		/* out of memory: not counted */
		cc->culprits = k;
		cc->cap = cap;
	}
	k = &cc->culprits[cc->n];
	memset(k, 0, sizeof(*k));
	k->c = *c;
	k->count = 1;
	k->time = k->min = k->max = ns;
	k->id = (int)cc->n++;	/* ids stay what they are when sorted */
	hist_add(cs, cc, k, ns);
}

/* @c is the same culprit as one of @done's @n. */
static bool credited(const struct osn_cause *c, const struct osn_cause *done,
		     size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (same_culprit(c, &done[i]))
			return true;
	return false;
}

/*
 * The noise event @ev ended: credit its pending causes, and drop them.
 * A culprit named twice in one noise (the tick's hrtimer run again after
 * a long callback in the same interrupt) takes part in it once.
 */
static void link_noise(const struct osn_causes *cs, struct osn_cpu_causes *cc,
		       const struct osn_event *ev)
{
	struct osn_cause done[OSN_CAUSES_PENDING];
	int cls = osn_event_class(ev->type);
	size_t kept = 0, ndone = 0, first;

	if (!cc->npending)
		return;
	first = (cc->next + OSN_CAUSES_PENDING - cc->npending) % OSN_CAUSES_PENDING;
	for (size_t i = 0; i < cc->npending; i++) {
		struct osn_cause *c = &cc->pending[(first + i) % OSN_CAUSES_PENDING];

		if (c->cls != cls || c->start != ev->noise.start) {
			/* compact, in order */
			cc->pending[(first + kept++) % OSN_CAUSES_PENDING] = *c;
		} else if (!credited(c, done, ndone)) {
			credit(cs, cc, c, ev->noise.duration);
			done[ndone++] = *c;
		}
	}
	cc->npending = kept;
	cc->next = (first + kept) % OSN_CAUSES_PENDING;
}

void osn_causes_event(struct osn_causes *cs, const struct osn_event *ev)
{
	struct osn_cpu_causes *cc;

	if (ev->cpu < 0 || ev->cpu >= cs->nr_cpus)
		return;
	cc = &cs->cpu[ev->cpu];
	switch (ev->type) {
	case OSN_E_CAUSE:
		add_pending(cc, &ev->cause);
		break;
	case OSN_E_IRQ:
	case OSN_E_SOFTIRQ:
	case OSN_E_THREAD:
		link_noise(cs, cc, ev);
		break;
	default:
		break;
	}
}

static int cmp_culprit(const void *a, const void *b)
{
	const struct osn_culprit *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? 1 : -1;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return 0;
}

void osn_causes_sort(struct osn_causes *cs)
{
	for (int i = 0; i < cs->nr_cpus; i++)
		if (cs->cpu[i].n > 1)
			qsort(cs->cpu[i].culprits, cs->cpu[i].n,
			      sizeof(struct osn_culprit), cmp_culprit);
}

void osn_causes_set_hist(struct osn_causes *cs, uint64_t bucket_ns,
			 unsigned entries)
{
	cs->bucket_ns = bucket_ns;
	cs->entries = entries;
	for (int i = 0; i < cs->nr_cpus; i++) {
		cs->cpu[i].hist.bucket_ns = bucket_ns;
		cs->cpu[i].hist.have_sum = true;
	}
}

int osn_causes_hist(const struct osn_causes *cs,
		    const struct osn_cpu_causes *cc, size_t max,
		    struct osn_hist *out)
{
	size_t n = max && cc->n > max ? max : cc->n;
	struct osn_exact *exact = calloc(cc->n ? cc->n : 1, sizeof(*exact));
	int *ids = calloc(n ? n : 1, sizeof(*ids));
	int ret = -1;

	if (!exact || !ids)
		goto out;
	for (size_t k = 0; k < cc->n; k++) {
		const struct osn_culprit *u = &cc->culprits[k];

		exact[u->id] = (struct osn_exact){ u->count, u->time, u->min,
						   u->max };
	}
	for (size_t k = 0; k < n; k++)
		ids[k] = cc->culprits[k].id;
	/* the histogram's key is the culprit id: its "cpu" */
	if (osn_hist_build(out, &cc->hist, cs->entries, ids, n, exact))
		goto out;
	/*
	 * The extremes and the average are known exactly, whatever the
	 * buckets (the over ones are merged into one): the culprit's own.
	 */
	for (size_t k = 0; k < n; k++) {
		const struct osn_culprit *u = &cc->culprits[k];
		struct osn_hist_cpu *hc = &out->cpus[k];

		if (!hc->count)
			continue;
		hc->min = u->min;
		hc->max = u->max;
		hc->avg = (u->time + u->count / 2) / u->count;
		hc->min_exact = hc->max_exact = hc->avg_exact = true;
	}
	ret = 0;
out:
	free(exact);
	free(ids);
	return ret;
}
