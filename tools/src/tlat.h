/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlat.h - osn timerlat's numbers (pure): per CPU and context (IRQ,
 * thread, return from user), the exact count/cur/min/avg/max of every osn:timerlat_sample
 * and its histogram; after a stop, what delayed the activation that hit
 * it (rtla's timerlat auto-analysis), from the CPU's recent osn events.
 */
#ifndef OSN_TLAT_H
#define OSN_TLAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "explain.h"

/* The contexts osn timerlat counts: IRQ, thread, return from user. */
#define OSN_TLAT_NCTX	3

/* One context of one CPU, all in ns. */
struct osn_tlat_stat {
	uint64_t count, cur, min, max, sum;
	uint64_t *buckets;		/* hist: -E of them; NULL for top */
	uint64_t over;			/* hist: at or past the last bucket */
};

struct osn_tlat_cpu {
	struct osn_tlat_stat ctx[OSN_TLAT_NCTX];
};

/* What the renderers draw: the measured CPUs' numbers. */
struct osn_tlat_view {
	const struct osn_tlat_cpu *cpu;	/* indexed by cpu number */
	const int *cpus;		/* measured, ascending */
	size_t ncpus;
	uint64_t bucket_us;		/* hist */
	unsigned entries;		/* hist */
	bool irq, thread;		/* the contexts shown (hist) */
	bool user;			/* -u/-U: the return from user too */
	bool with_zeros, no_summary, no_header, no_index;
};

/* One osn:timerlat_sample into its CPU's numbers (hist when buckets). */
void osn_tlat_add(struct osn_tlat_cpu *c, const struct osn_event *ev,
		  uint64_t bucket_us, unsigned entries);

/* One interference in an analysed activation. */
struct osn_tlat_part {
	enum osn_ev_type type;		/* OSN_E_IRQ, _SOFTIRQ, _THREAD, _NMI */
	int id;				/* vector, pid */
	char name[OSN_NAME_LEN];	/* irq desc, comm */
	uint64_t ns;			/* its time inside the window */
	/* a thread already running at the expiry: rtla's blocking thread */
	bool blocking;
	/* its first noise's culprit (osn:noise_cause), if one was read */
	bool have_cause;
	struct osn_cause cause;
};

#define OSN_TLAT_MAX_PARTS	32

/* The activation that hit a stop, and what ran between expiry and thread. */
struct osn_tlat_aa {
	int cpu;
	unsigned seqnum;
	bool have_irq, have_thread;
	uint64_t irq_ns, thread_ns;	/* latencies */
	uint64_t expiry;		/* trace clock */
	size_t nparts;
	struct osn_tlat_part parts[OSN_TLAT_MAX_PARTS];
};

/*
 * The last activation of @ring's CPU with an IRQ latency >= @irq_ns or a
 * thread latency >= @thread_ns (0: that stop is off): its samples, and
 * the irq/softirq/thread/nmi noise that overlapped [expiry, the thread's
 * sample] (or [expiry, the IRQ sample] when the thread never ran), each
 * noise's interference-free duration cut to that window.  -1 when the
 * ring holds no such activation.
 */
int osn_tlat_analyze(const struct osn_ring *ring, int cpu, uint64_t irq_ns,
		     uint64_t thread_ns, struct osn_tlat_aa *aa);

#endif
