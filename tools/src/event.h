/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event.h - the osn trace events as plain C structs.  trace.c decodes the
 * ring buffer records (libtraceevent) into these; everything after that
 * (statistics, explanations) is pure code that the unit tests feed with
 * hand-made events.
 */
#ifndef OSN_EVENT_H
#define OSN_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include <osn/osn_abi.h>	/* enum osn_class */

enum osn_ev_type {
	OSN_E_SAMPLE,		/* osn:sample, one per CPU per period */
	OSN_E_THRESHOLD,	/* osn:sample_threshold */
	OSN_E_IRQ,		/* osn:irq_noise */
	OSN_E_SOFTIRQ,		/* osn:softirq_noise */
	OSN_E_THREAD,		/* osn:thread_noise */
	OSN_E_NMI,		/* osn:nmi_noise */
	OSN_E_STOP,		/* osn:stop */
	OSN_E_CAUSE,		/* osn:noise_cause */
	OSN_E_TLAT,		/* osn:timerlat_sample (mode=timerlat) */
	OSN_E_STACK,		/* osn:timerlat_stack (-s) */
	OSN_E_SWITCH,		/* sched:sched_switch (--dump-tasks) */
	OSN_E_WORK,		/* workqueue:workqueue_execute_start (same) */
	OSN_E_NR
};

#define OSN_NAME_LEN	32

/* What ran in a noise and where it came from (osn:noise_cause). */
struct osn_cause {
	int kind;			/* enum osn_cause_kind */
	int cls;			/* class of the noise it explains */
	uint64_t start;			/* that noise event's start */
	uint64_t function;		/* kernel address, 0: none */
	int origin_cpu, origin_pid;	/* -1: unknown (pid: or an interrupt) */
	char origin_comm[OSN_NAME_LEN];	/* "unknown" when unknown */
};

extern const char * const osn_cause_kind_names[OSN_CAUSE_NR];	/* "wakeup", ... */

struct osn_event {
	enum osn_ev_type type;
	int cpu;
	uint64_t ts;			/* ring-buffer timestamp (ns) */
	union {
		struct {		/* OSN_E_SAMPLE (all ns) */
			uint64_t runtime, noise, max_sample, min_sample;
			uint64_t samples;
			uint64_t count[OSN_CLASS_NR];
			uint64_t time[OSN_CLASS_NR];
			uint64_t self;	/* osn's own work */
		} s;
		struct {		/* OSN_E_THRESHOLD */
			uint64_t start, duration, interference;
		} thr;
		struct {		/* OSN_E_IRQ/SOFTIRQ/THREAD/NMI */
			uint64_t start, duration;
			int id;		/* irq vector, softirq vector, pid */
			char name[OSN_NAME_LEN];	/* irq desc, comm */
		} noise;
		struct {		/* OSN_E_STOP */
			int reason;	/* OSN_STOP_* */
			uint64_t value, threshold;	/* ns */
		} stop;
		struct osn_cause cause;	/* OSN_E_CAUSE */
		struct {		/* OSN_E_TLAT */
			uint64_t latency;	/* ns from the timer's expiry */
			unsigned seqnum;	/* activation, shared by contexts */
			int context;		/* OSN_TLAT_CTX_* */
		} tlat;
		struct {		/* OSN_E_STACK: the timer IRQ's stack */
			unsigned n;		/* frames */
			unsigned size;		/* bytes a frame: 4 or 8 */
			const void *frames;	/* in the record: dispatch only */
		} stack;
		struct {		/* OSN_E_SWITCH: the task switched in */
			int pid;
			char comm[OSN_NAME_LEN];
		} sw;
		struct {		/* OSN_E_WORK: the work item started */
			uint64_t function;	/* kernel address */
		} work;
	};
};

/* Interference class of a noise event, -1 for the others. */
static inline int osn_event_class(enum osn_ev_type t)
{
	switch (t) {
	case OSN_E_IRQ:
		return OSN_CLASS_IRQ;
	case OSN_E_SOFTIRQ:
		return OSN_CLASS_SOFTIRQ;
	case OSN_E_THREAD:
		return OSN_CLASS_THREAD;
	case OSN_E_NMI:
		return OSN_CLASS_NMI;
	default:
		return -1;
	}
}

/*
 * Context for the command alone, no measurement: the timer IRQ's stack
 * (-s), the task on a CPU (--dump-tasks).  Their events go to the
 * command, not to the stop's rings (a stack's frames stay in the record).
 */
static inline bool osn_event_is_context(enum osn_ev_type t)
{
	return t == OSN_E_STACK || t == OSN_E_SWITCH || t == OSN_E_WORK;
}

extern const char * const osn_class_names[OSN_CLASS_NR];	/* "hw", ... */
extern const char * const osn_class_titles[OSN_CLASS_NR];	/* "HW", ... */

#endif
