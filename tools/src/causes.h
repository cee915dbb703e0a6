/* SPDX-License-Identifier: GPL-2.0 */
/*
 * causes.h - osn top --causes: per measured CPU, the origins that stole
 * the most time over the run (pure code).
 *
 * Each osn:noise_cause is linked to the noise event it explains by CPU,
 * class and start; the noise event comes after its causes (they are
 * emitted while it runs).  A cause waits in its CPU's pending ring until
 * that event arrives, which adds the event's interference-free duration
 * to the cause's culprit: the distinct (kind, function, origin task and
 * CPU) that made it.  A noise with several causes (a kworker woken by a
 * task that queued its work) counts for each of them.
 *
 * osn hist --causes also keeps, per culprit, a histogram of the durations
 * of the noises it took part in (osn_causes_set_hist()).  The kernel's
 * hist triggers cannot build it: osn:noise_cause has no duration and a
 * trigger cannot join it to its noise event, so it is built here, from
 * the linked events, in an osn_khist (stats.h) keyed by culprit.
 */
#ifndef OSN_CAUSES_H
#define OSN_CAUSES_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "stats.h"

/* Causes waiting for their noise event, per CPU. */
#define OSN_CAUSES_PENDING	64

struct osn_culprit {
	struct osn_cause c;		/* c.start, c.cls: the first one's */
	uint64_t count;			/* noises it took part in */
	uint64_t time;			/* their interference-free ns */
	uint64_t min, max;		/* the shortest and longest, ns */
	int id;				/* its key in the CPU's hist */
	char function_name[64];		/* c.function's symbol; "": not named */
};

struct osn_cpu_causes {
	struct osn_cause pending[OSN_CAUSES_PENDING];
	size_t npending, next;		/* next: the slot to overwrite */
	struct osn_culprit *culprits;
	size_t n, cap;
	uint64_t unlinked;		/* causes whose noise never came */
	struct osn_khist hist;		/* keys: culprit ids; with bucket_ns */
};

struct osn_causes {
	struct osn_cpu_causes *cpu;	/* indexed by CPU number */
	int nr_cpus;
	uint64_t bucket_ns;		/* per-culprit histograms; 0: none */
	unsigned entries;
};

int osn_causes_init(struct osn_causes *cs, int nr_cpus);
void osn_causes_free(struct osn_causes *cs);
/* Feed one event (causes and noise events; others are ignored). */
void osn_causes_event(struct osn_causes *cs, const struct osn_event *ev);
/* Sort each CPU's culprits by time, descending. */
void osn_causes_sort(struct osn_causes *cs);

/*
 * osn hist --causes: from now on, a histogram per culprit of the
 * durations of its noises, with osn hist's @bucket_ns (-b) and @entries
 * (-E); a duration >= entries * bucket_ns counts as over.
 */
void osn_causes_set_hist(struct osn_causes *cs, uint64_t bucket_ns,
			 unsigned entries);
/*
 * The histograms of @cc's first @max culprits (0: all; after
 * osn_causes_sort(): the top ones by time) as osn hist builds its own:
 * out->cpus[k] is culprits[k]'s column (its .cpu is the culprit's id),
 * with exact count, min, avg and max (no percentiles: not kept).  0, or
 * -1 (out of memory).  osn_hist_free() it.
 */
int osn_causes_hist(const struct osn_causes *cs,
		    const struct osn_cpu_causes *cc, size_t max,
		    struct osn_hist *out);

#endif
