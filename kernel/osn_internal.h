/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osn_internal.h - state shared by the files of osn.ko.
 *
 * osn_main.c	  module init/exit, the enable state machine, CPU hotplug
 * osn_params.c	  the knobs (module parameters) and their validation
 * osn_workload.c the per-CPU measuring kthreads
 * osn_probes.c	  tracepoint probes and the NMI handler (noise attribution)
 * osn_trace.c	  the osn:* trace events (CREATE_TRACE_POINTS)
 */
#ifndef _OSN_INTERNAL_H
#define _OSN_INTERNAL_H

#include <linux/types.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <asm/local.h>

#include <osn/osn_abi.h>
#include "osn_compat.h"

/* Option bits of the "options" knob. */
enum osn_option {
	OSN_OPTION_WORKLOAD,
	OSN_OPTION_PANIC_ON_STOP,
	OSN_OPTION_PREEMPT_DISABLE,
	OSN_OPTION_IRQ_DISABLE,
	OSN_OPTION_NR,
};

#define OSN_DEFAULT_OPTIONS	BIT(OSN_OPTION_WORKLOAD)
#define OSN_ATOMIC_OPTIONS	(BIT(OSN_OPTION_PREEMPT_DISABLE) | \
				 BIT(OSN_OPTION_IRQ_DISABLE))

/*
 * A consistent copy of the knobs, taken by the workload at the start of
 * each period and by the start path.  Times are converted to ns here.
 */
struct osn_config {
	u64		period_ns;
	u64		runtime_ns;
	u64		threshold_ns;
	u64		stop_single_ns;		/* 0: off */
	u64		stop_total_ns;		/* 0: off */
	unsigned long	options;
};

/*
 * One noise source being timed on a CPU.  delta_start is where its
 * interference-free duration starts: it is pushed forward by the duration
 * of every source that nests inside it.  Zero when not in progress.
 */
struct osn_source {
	u64		arrival_ns;
	u64		delta_start_ns;
};

/* Per-class totals; the workload reports their change over a period. */
struct osn_class_stat {
	u64		count;
	u64		time_ns;
};

enum osn_class {
	OSN_CLASS_NMI,
	OSN_CLASS_IRQ,
	OSN_CLASS_SOFTIRQ,
	OSN_CLASS_THREAD,
	OSN_CLASS_NR,
};

struct osn_cpu {
	/*
	 * Bumped at every noise-source entry on this CPU: the workload reads
	 * it around each clock read to know how many entries fell between
	 * two reads.  local_t: only this CPU writes it, from any context.
	 */
	local_t			int_counter;
	/* Probes account and emit only while true. */
	bool			sampling;
	/* The workload kthread of this CPU (NULL without OSNOISE_WORKLOAD). */
	struct task_struct	*workload;

	struct osn_source	irq;
	struct osn_source	softirq;
	struct osn_source	thread;

	/* NMI bookkeeping, see osn_probes.c. */
	unsigned int		nmi_seq;	/* NMI whose handlers are summed */
	unsigned int		nmi_done_seq;	/* NMI osn's handler has seen */
	u64			nmi_handlers_ns;
	/* The last NMI, waiting to be emitted (pend_seq 0: none). */
	unsigned int		nmi_pend_seq;
	u64			nmi_pend_start_ns;
	u64			nmi_pend_ns;

	struct osn_class_stat	stat[OSN_CLASS_NR];
};

DECLARE_PER_CPU(struct osn_cpu, osn_cpu_state);

/*
 * Read the clock between two reads of the interference counter, retrying
 * if it moved: the returned count is exactly the number of entries that
 * happened before *time_ns was read.
 */
static __always_inline unsigned long osn_read_guarded(struct osn_cpu *oc,
						      u64 *time_ns)
{
	unsigned long count;

	do {
		count = local_read(&oc->int_counter);
		barrier();
		*time_ns = osn_time_get();
		barrier();
	} while (count != (unsigned long)local_read(&oc->int_counter));

	return count;
}

/* osn_params.c */
void osn_config_snapshot(struct osn_config *cfg);
void osn_config_cpus(struct cpumask *mask);
bool osn_option_set(enum osn_option opt);
bool osn_stop_arm_take(unsigned int reason);
void osn_stop_rearm(void);
int osn_params_validate(void);

/*
 * Deliberate bugs for `make check-mutants` (tests/mutants/run.sh), each
 * compiled in only with -DOSN_MUTANT_<NAME>=1, to prove that the suite
 * catches it.  A normal build has none: OSN_MUTANT() is then 0 and the
 * compiler drops the branch.
 */
#define OSN_MUTANT(name)	IS_ENABLED(OSN_MUTANT_##name)

/* osn_main.c */
void osn_request_restart(void);
extern struct cpumask osn_run_cpus;

/* osn_workload.c */
int osn_workload_fn(void *data);
void osn_stop_tracing(unsigned int reason, u64 value_ns, u64 threshold_ns);

/* osn_probes.c */
int osn_probes_init(void);
int osn_probes_hook(void);
void osn_probes_unhook(void);
void osn_cpu_reset(struct osn_cpu *oc);
void osn_flush_nmi(struct osn_cpu *oc);

/* osn_trace.c: enable/disable of any osn event (TRACE_EVENT_FN). */
int osn_event_reg(void);
void osn_event_unreg(void);

#endif /* _OSN_INTERNAL_H */
