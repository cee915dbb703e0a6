/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osn_account.h - the accounting of osn.ko (osn_account.c): per-CPU
 * state, the guarded clock reads, noise sources, the pending NMI record,
 * the per-period sums and the stop conditions.
 *
 * Everything per CPU is written only by its own CPU, from any context
 * (thread, softirq, IRQ, NMI).  An NMI can land between any two
 * instructions, so every read of the clock that is compared with or
 * stored into a start time an NMI may push forward is guarded: taken
 * between two reads of the CPU's interference counter, and retried if
 * the counter moved (every source entry and every NMI bumps it).
 */
#ifndef _OSN_ACCOUNT_H
#define _OSN_ACCOUNT_H

#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <asm/local.h>

#include <osn/osn_abi.h>
#include "osn_compat.h"

struct osn_config;

/*
 * One noise source being timed on a CPU.  delta_start is where its
 * interference-free duration starts: it is pushed forward by the duration
 * of every source that nests inside it.  Zero when not in progress.
 */
struct osn_source {
	u64		arrival_ns;
	u64		delta_start_ns;
};

/* Per-class totals; a period reports their change (osn:sample). */
struct osn_class_stat {
	u64		count;
	u64		time_ns;
};

struct osn_cpu {
	/*
	 * Bumped at every noise-source entry and NMI on this CPU: the
	 * workload reads it around each clock read to know how many entries
	 * fell between two reads.  local_t: only this CPU writes it.
	 */
	local_t			int_counter;
	/*
	 * Probes account and emit only while true: the workload's sampling
	 * window, or the whole run on a selected CPU without a workload.
	 */
	bool			active;
	/* The workload kthread of this CPU (NULL without OSNOISE_WORKLOAD). */
	struct task_struct	*workload;

	struct osn_source	irq;
	struct osn_source	softirq;
	struct osn_source	thread;

	/* NMI bookkeeping, see osn_account.c. */
	unsigned int		nmi_seq;	/* NMI whose handlers are summed */
	unsigned int		nmi_done_seq;	/* NMI osn's handler has seen */
	u64			nmi_handlers_ns;
	/* The last NMI, waiting to be emitted (pend_seq 0: none). */
	unsigned int		nmi_pend_seq;
	u64			nmi_pend_start_ns;
	u64			nmi_pend_ns;

	/* By enum osn_class; HW stays 0: no probe sees it (osn_period). */
	struct osn_class_stat	stat[OSN_CLASS_NR];

	/*
	 * mode=timerlat (osn_timerlat.c): tlat_gated says softirq and thread
	 * noise count only while tlat_window is set, from the timer IRQ to
	 * the timerlat thread's run.
	 */
	bool			tlat_gated;
	bool			tlat_window;
};

DECLARE_PER_CPU(struct osn_cpu, osn_cpu_state);

/* What one sampling window measured, before it becomes an osn:sample. */
struct osn_period {
	u64			noise_ns;
	u64			max_sample_ns;
	u64			min_sample_ns;
	u64			samples;
	u64			hw_count;	/* samples no probe explains */
	u64			hw_time_ns;
	u64			loops;
	u64			min_gap_ns;
	u64			self_ns;	/* osn's own work, not in gaps */
	/* The classes' totals at the start of the window. */
	struct osn_class_stat	base[OSN_CLASS_NR];
};

static inline bool osn_cpu_active(struct osn_cpu *oc)
{
	return READ_ONCE(oc->active);
}

/*
 * The guarded clock read: store the clock into *dst_ns with no NMI between
 * the read and the store, and return the interference count it is
 * consistent with: exactly the entries that happened before the read.
 * *dst_ns may be a source's start, which an NMI may push.
 */
static __always_inline unsigned long osn_guarded_stamp(struct osn_cpu *oc,
						       u64 *dst_ns)
{
	unsigned long count;

	do {
		count = local_read(&oc->int_counter);
		barrier();
		WRITE_ONCE(*dst_ns, osn_time_get());
		barrier();
	} while (count != local_read(&oc->int_counter));

	return count;
}

/*
 * Its pair: the clock into *now_ns and the time elapsed since *since_ns,
 * both read with no NMI in between (an NMI pushes *since_ns forward).
 */
static __always_inline s64 osn_guarded_elapsed(struct osn_cpu *oc,
					       const u64 *since_ns, u64 *now_ns)
{
	unsigned long count;
	s64 elapsed;

	do {
		count = local_read(&oc->int_counter);
		barrier();
		*now_ns = osn_time_get();
		elapsed = *now_ns - READ_ONCE(*since_ns);
		barrier();
	} while (count != local_read(&oc->int_counter));

	return elapsed;
}

void osn_cpu_reset(struct osn_cpu *oc);
u64 osn_account_clamp(s64 duration_ns);
void osn_account_report(void);

/* Noise sources (osn_probes.c). */
void osn_source_entry(struct osn_cpu *oc, struct osn_source *src,
		      enum osn_class class);
u64 osn_source_exit(struct osn_cpu *oc, struct osn_source *src,
		    enum osn_class class);
void osn_source_push(struct osn_source *src, u64 duration_ns);
bool osn_thread_switch(struct osn_cpu *oc, bool prev_noise, bool next_noise,
		       u64 *start_ns, u64 *duration_ns);

/* NMIs (osn_probes.c's handler and nmi_handler probe). */
void osn_nmi_begin(struct osn_cpu *oc, unsigned int seq);
void osn_nmi_handler_ran(struct osn_cpu *oc, unsigned int seq, u64 delta_ns);
void osn_flush_nmi(struct osn_cpu *oc);

/* The sampling window (osn_workload.c). */
void osn_period_begin(struct osn_cpu *oc, struct osn_period *p);
void osn_period_sample(const struct osn_config *cfg, struct osn_period *p,
		       u64 start_ns, u64 gap_ns, unsigned long interference);
void osn_period_end(struct osn_cpu *oc, const struct osn_config *cfg,
		    const struct osn_period *p, u64 runtime_ns);

/*
 * osn's own work inside the window (writing an event, reporting an RCU
 * quiescent state) ran from *now_ns on: read the clock again, so that the
 * work does not fall in the next gap (at a threshold below the cost of
 * writing an event, each sample would make the next), and add it to the
 * period's self time.  If an interference entry came meanwhile (@count
 * moved), nothing changes: the next gap keeps the work and what
 * interrupted it, measured as usual.  Returns the interference count that
 * goes with *now_ns.
 */
static __always_inline unsigned long osn_period_self(struct osn_cpu *oc,
						     struct osn_period *p,
						     unsigned long count,
						     u64 *now_ns)
{
	unsigned long count_now;
	u64 t;

	if (OSN_MUTANT(SELF_IN_GAP))	/* mutant: osn's work in the next gap */
		return count;
	count_now = osn_guarded_stamp(oc, &t);
	if (count_now != count || t < *now_ns)
		return count;
	p->self_ns += t - *now_ns;
	*now_ns = t;
	return count_now;
}

/*
 * Whether a softirq or thread noise that ends now is reported.  timerlat
 * reports them only between its timer IRQ and its thread's run, as
 * upstream does: outside that window the source is forgotten.
 */
static inline bool osn_tlat_reports(struct osn_cpu *oc, struct osn_source *src)
{
	if (!READ_ONCE(oc->tlat_gated) || READ_ONCE(oc->tlat_window))
		return true;
	WRITE_ONCE(src->delta_start_ns, 0);
	return false;
}

/* Stop conditions: each fires once per arming. */
void osn_stop_rearm(void);
void osn_stop_trip(unsigned int reason, u64 value_ns, u64 threshold_ns,
		   bool panic_on_stop);

#endif /* _OSN_ACCOUNT_H */
