/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osn_internal.h - state shared by the files of osn.ko.
 *
 * osn_main.c	  module init/exit, the enable state machine, CPU hotplug
 * osn_params.c	  the knobs (module parameters) and their validation
 * osn_workload.c the per-CPU measuring kthreads (the loop)
 * osn_timerlat.c the per-CPU timerlat kthreads and their hard hrtimers,
 *		  or the user-space threads' /dev/osn_timerlat
 * osn_probes.c	  the tracepoint hook table, thin probes, the NMI handler
 * osn_account.c  the accounting: per-CPU state, sources, NMIs, period
 *		  sums, stop conditions (osn_account.h)
 * osn_cause.c	  the causes: what ran in each noise and who sent it
 *		  (osn:noise_cause), from probes hooked only while that
 *		  event is enabled (osn_cause.h)
 * osn_trace.c	  the osn:* trace events (CREATE_TRACE_POINTS)
 * osn_tracer.c	  built into a kernel only: the ftrace tracer "osn" and
 *		  tracefs osn/ (the one file that differs between the builds)
 *
 * Calls go one way: main -> params, probes, workload, account;
 * probes and workload -> account; params -> account.  A knob write that
 * needs new threads reaches main through the callback it registers with
 * osn_params_init().
 */
#ifndef _OSN_INTERNAL_H
#define _OSN_INTERNAL_H

#include <linux/types.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>

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
	u64		timerlat_period_ns;
	u64		print_stack_ns;		/* 0: off */
	unsigned long	options;
};

/* The workload a run starts (the "mode" knob). */
enum osn_mode {
	OSN_MODE_OSNOISE_RUN,
	OSN_MODE_TIMERLAT_RUN,
};

/* osn_params.c */
void osn_config_snapshot(struct osn_config *cfg);
u64 osn_stop_threshold_ns(unsigned int reason);
void osn_config_cpus(struct cpumask *mask);
bool osn_option_is_set(enum osn_option opt);
int osn_params_validate(void);
/* The mode of the run starting; "mode" refuses writes until released. */
enum osn_mode osn_mode_hold(void);
void osn_mode_release(void);
/* What osn_main.c does when a knob needs new threads. */
typedef void (*osn_restart_t)(void);
void osn_params_init(osn_restart_t restart);
/* Every knob's module parameter, NULL-terminated (tracefs osn/). */
struct kernel_param;
extern const struct kernel_param *const osn_knob_params[];

/* osn_main.c: enable/disable of any osn event (TRACE_EVENT_FN). */
int osn_event_reg(void);
void osn_event_unreg(void);
/* The same for osn:noise_cause, which also hooks the cause probes. */
int osn_cause_reg(void);
void osn_cause_unreg(void);
/* The paused parameter: true while the workload threads are to sleep. */
bool osn_is_paused(void);
/* A workload thread: sleep while paused, until unpaused or kthread_stop(). */
void osn_pause_wait(void);

/* osn_workload.c */
int osn_workload_fn(void *data);

/* osn_timerlat.c: the thread of one CPU in mode=timerlat (data: its osn_cpu). */
int osn_timerlat_fn(void *data);
/* Its user-space mode (NO_OSNOISE_WORKLOAD): /dev/osn_timerlat. */
struct osn_cpu;
int osn_timerlat_user_init(void);
void osn_timerlat_user_exit(void);
void osn_timerlat_user_set_run(bool on);
void osn_timerlat_user_online(struct osn_cpu *oc, unsigned int cpu);
void osn_timerlat_user_offline(unsigned int cpu);

/* osn_probes.c */
int osn_probes_init(void);
int osn_probes_hook(void);
void osn_probes_unhook(void);
int osn_causes_hook(void);
void osn_causes_unhook(void);

/* osn_cause.c */
void osn_cause_init(void);

/*
 * osn_tracer.c, only in a kernel built with CONFIG_OSN_TRACER=y: the
 * per-period line into the tracer's instances, and their stop.  A module
 * has no tracer: nothing to do.
 */
struct osn_sample;
#ifdef OSN_TRACER_BUILTIN	/* kernel/Kbuild: CONFIG_OSN_TRACER=y in tree */
void osn_tracer_sample(const struct osn_sample *s);
void osn_tracer_stop(void);
#else
static inline void osn_tracer_sample(const struct osn_sample *s) { }
static inline void osn_tracer_stop(void) { }
#endif

#endif /* _OSN_INTERNAL_H */
