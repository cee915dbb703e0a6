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
#include "params.h"

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
	unsigned unit_ns;		/* 1000: us; 1: ns (-n) */
	enum osn_layout layout;		/* hist's --layout */
};

/*
 * --dump-tasks: the task on a CPU, as rtla's: the last one switched in
 * (sched:sched_switch), with the function of the work it started if it is
 * a kworker (workqueue:workqueue_execute_start).
 */
struct osn_cpu_task {
	int cpu;
	int pid;			/* -1: no switch seen on the CPU */
	char comm[OSN_NAME_LEN];
	uint64_t work_fn;		/* kernel address, 0: none */
	char work[64];			/* its name, "" until named */
};

/*
 * One osn:timerlat_sample into its CPU's numbers (hist when buckets):
 * @bucket is the bucket size in @unit_ns units (1000: us, 1: ns with -n).
 */
void osn_tlat_add(struct osn_tlat_cpu *c, const struct osn_event *ev,
		  uint64_t bucket, unsigned entries, unsigned unit_ns);

/*
 * @src's samples into @dst, as if @dst had had them too (the ALL of
 * several CPUs): count, sum, over and the @entries buckets (when both
 * have buckets) add up, min and max are the extremes of both.  cur is
 * left alone: no one sample is the current one of several CPUs.
 */
void osn_tlat_merge(struct osn_tlat_stat *dst, const struct osn_tlat_stat *src,
		    unsigned entries);

/* -n: "ns", else "us", the unit of the tables */
static inline const char *osn_tlat_unit(unsigned unit_ns)
{
	return unit_ns == 1 ? "ns" : "us";
}

#define OSN_TLAT_MAX_PARTS	32
#define OSN_FRAME_LEN		64	/* a stack frame's "function+0xoff" */

/*
 * The activation that hit a stop, and what ran between the timer's
 * expiry and its thread (the window).
 *
 * The timer's own interrupt is the IRQ noise the IRQ sample ran in.  What
 * came before its handler began is the IRQ handler delay: its start less
 * the expiry, less the noise that ran in between (what is left: interrupts
 * off, hardware, an emulator).  A handler that began before the expiry
 * was held by other callbacks of the same interrupt (another hrtimer's):
 * its time up to the IRQ sample is interference, its time after it
 * timerlat's own (rtla's "Timerlat IRQ duration").
 */
struct osn_tlat_aa {
	int cpu;
	unsigned seqnum;
	bool have_irq, have_thread;
	uint64_t irq_ns, thread_ns;	/* latencies */
	uint64_t expiry;		/* trace clock */
	bool have_timer_irq;		/* its noise event was read */
	uint64_t irq_delay;		/* before its handler began, ns */
	uint64_t timer_irq_ns;		/* timerlat's own part of it, ns */
	/*
	 * Each interference: .time is its interference-free time inside the
	 * window, .count its noise events, .causes what ran in them and who
	 * sent it (osn:noise_cause).
	 */
	size_t nparts;
	struct osn_part parts[OSN_TLAT_MAX_PARTS];
	/* a thread already running at the expiry: rtla's blocking thread */
	bool blocking[OSN_TLAT_MAX_PARTS];
	/*
	 * -s: the stack the timer's interrupt saved (what it interrupted
	 * under its own frames), named, innermost first; 0 frames without.
	 */
	size_t nframes;
	char frames[OSN_TLAT_STACK_DEPTH][OSN_FRAME_LEN];
};

/*
 * The last activation of @ring's CPU with an IRQ latency >= @irq_ns or a
 * thread latency >= @thread_ns (0: that stop is off): its samples, the
 * timer interrupt's delay, and the irq/softirq/thread/nmi noise that
 * overlapped [expiry, the thread's sample] (or [expiry, the IRQ sample]
 * when the thread never ran), each noise's interference-free duration
 * cut to that window, with its causes.  -1 when the ring holds no such
 * activation.
 */
int osn_tlat_analyze(const struct osn_ring *ring, int cpu, uint64_t irq_ns,
		     uint64_t thread_ns, struct osn_tlat_aa *aa);

#endif
