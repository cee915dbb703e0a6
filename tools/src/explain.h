/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain.h - why did osn stop?  Builds the explanation of the offending
 * noise from the osn events recorded just before osn:stop (pure code).
 *
 * Each noise event (irq/softirq/thread/nmi) carries the interference-free
 * duration of one interference and its start.  A noise sample
 * (sample_threshold) is the gap [start, start + duration] the workload saw;
 * the interferences that started inside it made it up, and what they do
 * not account for is hardware noise (SMI, hypervisor, ...).
 */
#ifndef OSN_EXPLAIN_H
#define OSN_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* A fixed-size ring of the most recent events of one CPU. */
struct osn_ring {
	struct osn_event *ev;
	size_t cap, head, len;		/* head: index of the oldest */
	uint64_t dropped;		/* overwritten events */
};

int osn_ring_init(struct osn_ring *r, size_t cap);
void osn_ring_free(struct osn_ring *r);
void osn_ring_push(struct osn_ring *r, const struct osn_event *ev);
/* i-th oldest event (0 <= i < len). */
const struct osn_event *osn_ring_at(const struct osn_ring *r, size_t i);

struct osn_audit_finding;

#define OSN_EXPLAIN_MAX_PARTS	64

#define OSN_PART_MAX_CAUSES	4

/* One distinct cause of a part (osn:noise_cause), and how often it came. */
struct osn_part_cause {
	struct osn_cause c;		/* c.start: the first one's */
	uint64_t count;
	char function_name[64];		/* c.function's symbol; "": not named */
};

/* One source of interference (all its events in the explained samples). */
struct osn_part {
	int cls;			/* enum osn_class */
	char name[OSN_NAME_LEN];	/* irq desc, softirq name, comm, "nmi" */
	int id;				/* vector or pid; -1 for nmi */
	uint64_t count;
	uint64_t time;			/* ns, interference-free */
	/* What ran in it and who sent it, most frequent first. */
	struct osn_part_cause causes[OSN_PART_MAX_CAUSES];
	size_t ncauses;
	uint64_t other_causes;		/* causes past the table */
	/* --audit: the finding that explains it (advise.h), or NULL */
	const struct osn_audit_finding *finding;
};

/* The part noise event @e belongs to: its class, name and id. */
void osn_part_source(const struct osn_event *e, int *cls, char *name,
		     int *id);
/* Count cause @c in @p's table (a new one past the table: other_causes). */
void osn_part_add_cause(struct osn_part *p, const struct osn_cause *c);
/*
 * Add to @p the causes of the noise event at index @i of @h: the
 * osn:noise_cause events of its class and start at indexes [@lo, @i).
 */
void osn_part_add_causes(struct osn_part *p, const struct osn_ring *h,
			 size_t lo, size_t i);

struct osn_explanation {
	bool have_stop;			/* an osn:stop event was found */
	int cpu;
	int reason;			/* OSN_STOP_SINGLE / OSN_STOP_TOTAL */
	uint64_t value, threshold;	/* ns, from osn:stop */
	uint64_t stop_ts;

	bool have_sample;		/* single: the offending sample found */
	uint64_t start, duration, interference;	/* single: that sample */

	uint64_t nsamples;		/* samples explained */
	uint64_t noise;			/* their total duration, ns */
	struct osn_part parts[OSN_EXPLAIN_MAX_PARTS];
	size_t nparts;			/* sorted by time, descending */
	uint64_t other_count, other_time;	/* sources past the table */
	uint64_t explained;		/* sum of the parts, ns */
	uint64_t hw;			/* unexplained remainder, ns */
	uint64_t hw_samples;		/* samples with a remainder */
	bool truncated;			/* history did not reach back far enough */
};

/*
 * Explain the stop on @stop->cpu from that CPU's history @h (its events
 * in buffer order, the ones recorded before the stop; events after
 * @stop->ts are ignored).  @stop may be NULL when no osn:stop was
 * recorded: then @reason/@threshold_ns say what was armed, and the last
 * sample above @threshold_ns (single) is explained.  Returns 0, or -1
 * when there is nothing to explain.
 */
int osn_explain(const struct osn_ring *h, const struct osn_event *stop,
		int reason, uint64_t threshold_ns,
		struct osn_explanation *out);

#endif
