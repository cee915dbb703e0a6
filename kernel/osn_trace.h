/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osn_trace.h - the osn:* trace events.  Names and fields are the ABI of
 * include/osn/osn_abi.h; printed formats follow upstream osnoise's.
 *
 * Every event is a TRACE_EVENT_FN whose reg/unreg callbacks count the
 * osn events enabled anywhere (any instance, perf): the first enable
 * starts the measurement and the last disable stops it (osn_main.c).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM osn

#if !defined(_OSN_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _OSN_TRACE_H

#include <linux/tracepoint.h>
#include <linux/interrupt.h>

#ifndef _OSN_TRACE_ONCE
#define _OSN_TRACE_ONCE

#include <osn/osn_abi.h>
#include "osn_compat.h"
#include "osn_internal.h"	/* osn_event_reg(), osn_event_unreg() */

/* Payload of the per-period osn:sample event. */
struct osn_sample {
	u64	runtime;	/* ns measured in this period */
	u64	noise;		/* ns, sum of the noise samples */
	u64	max_sample;	/* ns, 0 without samples */
	u64	min_sample;	/* ns, 0 without samples */
	u64	samples;	/* gaps >= threshold */
	u64	hw_count;	/* samples with no interference */
	u64	nmi_count;
	u64	irq_count;
	u64	softirq_count;
	u64	thread_count;
	u64	hw_time;	/* ns of the samples with no interference */
	u64	nmi_time;	/* interference-free ns of each class */
	u64	irq_time;
	u64	softirq_time;
	u64	thread_time;
	u64	loops;		/* clock reads of the period */
	u64	min_gap;	/* ns, smallest gap between two reads */
	u64	self;		/* ns osn spent on its own work in the window */
};

/*
 * Where a cause came from (osn:noise_cause, osn_cause.c): the task and CPU
 * that woke, queued, armed or sent what ran in the noise.  NULL: unknown.
 */
struct osn_origin {
	const void	*key;		/* the task, work, timer, hrtimer or csd */
	unsigned long	function;	/* what it will run; for a wake-up the
					 * woken task's pid: a task_struct
					 * reused by a new task is no match
					 */
	u64		stamp_ns;	/* ktime_get_mono_fast_ns() at the record */
	int		cpu;
	pid_t		pid;		/* -1: an interrupt */
	char		comm[TASK_COMM_LEN];
};

/*
 * Probes call trace_<event>() directly: its static branch is the only
 * check needed.  (A copy that read the static key's count first worked
 * around multi-threaded TCG running stale code while a jump label was
 * patched; the VM bench runs single-threaded TCG since, see
 * tests/vm/run-kernel.sh, and real CPUs never needed it.)
 */

/* Availability in percent, integer and 5-decimal parts (upstream's). */
#define osn_avail_int(rt, noise)	((rt) ? ((rt) - (noise)) * 100 / (rt) : 0)
#define osn_avail_frac(rt, noise)	\
	((rt) ? (((rt) - (noise)) * 10000000 / (rt)) % 100000 : 0)
#endif /* _OSN_TRACE_ONCE */

TRACE_DEFINE_ENUM(HI_SOFTIRQ);
TRACE_DEFINE_ENUM(TIMER_SOFTIRQ);
TRACE_DEFINE_ENUM(NET_TX_SOFTIRQ);
TRACE_DEFINE_ENUM(NET_RX_SOFTIRQ);
TRACE_DEFINE_ENUM(BLOCK_SOFTIRQ);
TRACE_DEFINE_ENUM(IRQ_POLL_SOFTIRQ);
TRACE_DEFINE_ENUM(TASKLET_SOFTIRQ);
TRACE_DEFINE_ENUM(SCHED_SOFTIRQ);
TRACE_DEFINE_ENUM(HRTIMER_SOFTIRQ);
TRACE_DEFINE_ENUM(RCU_SOFTIRQ);

#define osn_show_softirq_name(vec)				\
	__print_symbolic(vec,					\
			 { HI_SOFTIRQ,		"HI" },		\
			 { TIMER_SOFTIRQ,	"TIMER" },	\
			 { NET_TX_SOFTIRQ,	"NET_TX" },	\
			 { NET_RX_SOFTIRQ,	"NET_RX" },	\
			 { BLOCK_SOFTIRQ,	"BLOCK" },	\
			 { IRQ_POLL_SOFTIRQ,	"IRQ_POLL" },	\
			 { TASKLET_SOFTIRQ,	"TASKLET" },	\
			 { SCHED_SOFTIRQ,	"SCHED" },	\
			 { HRTIMER_SOFTIRQ,	"HRTIMER" },	\
			 { RCU_SOFTIRQ,		"RCU" })

#define osn_show_class(class)					\
	__print_symbolic(class,					\
			 { OSN_CLASS_NMI,	"nmi" },	\
			 { OSN_CLASS_IRQ,	"irq" },	\
			 { OSN_CLASS_SOFTIRQ,	"softirq" },	\
			 { OSN_CLASS_THREAD,	"thread" })

#define osn_show_cause_kind(kind)				\
	__print_symbolic(kind,					\
			 { OSN_CAUSE_WAKEUP,	"wakeup" },	\
			 { OSN_CAUSE_WORK,	"work" },	\
			 { OSN_CAUSE_TIMER,	"timer" },	\
			 { OSN_CAUSE_HRTIMER,	"hrtimer" },	\
			 { OSN_CAUSE_IPI,	"ipi" },	\
			 { OSN_CAUSE_TLB,	"tlb" },	\
			 { OSN_CAUSE_RESCHED,	"resched" })

#define osn_show_stop_reason(reason)				\
	__print_symbolic(reason,				\
			 { OSN_STOP_SINGLE,	"single" },	\
			 { OSN_STOP_TOTAL,	"total" })

/* One gap >= threshold seen by the workload. */
TRACE_EVENT_FN(sample_threshold,

	TP_PROTO(u64 start, u64 duration, u64 interference),

	TP_ARGS(start, duration, interference),

	TP_STRUCT__entry(
		__field(u64,	start)
		__field(u64,	duration)
		__field(u64,	interference)
	),

	TP_fast_assign(
		__entry->start = start;
		__entry->duration = duration;
		__entry->interference = interference;
	),

	TP_printk("start %llu.%09u duration %llu ns interference %llu",
		  osn_print_secs(__entry->start),
		  osn_print_nsecs(__entry->start),
		  __entry->duration,
		  __entry->interference),

	osn_event_reg, osn_event_unreg
);

/* A hard interrupt: device IRQ handler or x86 system vector. */
TRACE_EVENT_FN(irq_noise,

	TP_PROTO(int vector, const char *desc, u64 start, u64 duration),

	TP_ARGS(vector, desc, start, duration),

	TP_STRUCT__entry(
		__string(desc,	desc)
		__field(int,	vector)
		__field(u64,	start)
		__field(u64,	duration)
	),

	TP_fast_assign(
		osn_assign_str(desc, desc);
		__entry->vector = vector;
		__entry->start = start;
		__entry->duration = duration;
	),

	TP_printk("%s:%d start %llu.%09u duration %llu ns",
		  __get_str(desc),
		  __entry->vector,
		  osn_print_secs(__entry->start),
		  osn_print_nsecs(__entry->start),
		  __entry->duration),

	osn_event_reg, osn_event_unreg
);

TRACE_EVENT_FN(softirq_noise,

	TP_PROTO(int vector, u64 start, u64 duration),

	TP_ARGS(vector, start, duration),

	TP_STRUCT__entry(
		__field(int,	vector)
		__field(u64,	start)
		__field(u64,	duration)
	),

	TP_fast_assign(
		__entry->vector = vector;
		__entry->start = start;
		__entry->duration = duration;
	),

	TP_printk("%8s:%d start %llu.%09u duration %llu ns",
		  osn_show_softirq_name(__entry->vector),
		  __entry->vector,
		  osn_print_secs(__entry->start),
		  osn_print_nsecs(__entry->start),
		  __entry->duration),

	osn_event_reg, osn_event_unreg
);

/* Any task other than the workload that ran while it was switched out. */
TRACE_EVENT_FN(thread_noise,

	TP_PROTO(struct task_struct *t, u64 start, u64 duration),

	TP_ARGS(t, start, duration),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(u64,	start)
		__field(u64,	duration)
	),

	TP_fast_assign(
		memcpy(__entry->comm, t->comm, TASK_COMM_LEN);
		__entry->pid = t->pid;
		__entry->start = start;
		__entry->duration = duration;
	),

	TP_printk("%8s:%d start %llu.%09u duration %llu ns",
		  __entry->comm,
		  __entry->pid,
		  osn_print_secs(__entry->start),
		  osn_print_nsecs(__entry->start),
		  __entry->duration),

	osn_event_reg, osn_event_unreg
);

TRACE_EVENT_FN(nmi_noise,

	TP_PROTO(u64 start, u64 duration),

	TP_ARGS(start, duration),

	TP_STRUCT__entry(
		__field(u64,	start)
		__field(u64,	duration)
	),

	TP_fast_assign(
		__entry->start = start;
		__entry->duration = duration;
	),

	TP_printk("start %llu.%09u duration %llu ns",
		  osn_print_secs(__entry->start),
		  osn_print_nsecs(__entry->start),
		  __entry->duration),

	osn_event_reg, osn_event_unreg
);

/*
 * Per CPU per period summary: upstream's osnoise line (runtime, noise,
 * % available, max single noise, HW NMI IRQ SIRQ THREAD counts), plus
 * min, samples, per-class times and the loop's own cost.
 */
TRACE_EVENT_FN(sample,

	TP_PROTO(const struct osn_sample *s),

	TP_ARGS(s),

	TP_STRUCT__entry(
		__field(u64,	runtime)
		__field(u64,	noise)
		__field(u64,	max_sample)
		__field(u64,	min_sample)
		__field(u64,	samples)
		__field(u64,	hw_count)
		__field(u64,	nmi_count)
		__field(u64,	irq_count)
		__field(u64,	softirq_count)
		__field(u64,	thread_count)
		__field(u64,	hw_time)
		__field(u64,	nmi_time)
		__field(u64,	irq_time)
		__field(u64,	softirq_time)
		__field(u64,	thread_time)
		__field(u64,	loops)
		__field(u64,	min_gap)
		__field(u64,	self)
	),

	TP_fast_assign(
		__entry->runtime = s->runtime;
		__entry->noise = s->noise;
		__entry->max_sample = s->max_sample;
		__entry->min_sample = s->min_sample;
		__entry->samples = s->samples;
		__entry->hw_count = s->hw_count;
		__entry->nmi_count = s->nmi_count;
		__entry->irq_count = s->irq_count;
		__entry->softirq_count = s->softirq_count;
		__entry->thread_count = s->thread_count;
		__entry->hw_time = s->hw_time;
		__entry->nmi_time = s->nmi_time;
		__entry->irq_time = s->irq_time;
		__entry->softirq_time = s->softirq_time;
		__entry->thread_time = s->thread_time;
		__entry->loops = s->loops;
		__entry->min_gap = s->min_gap;
		__entry->self = s->self;
	),

	TP_printk("runtime %llu noise %llu avail %llu.%05llu max %llu min %llu samples %llu HW %llu NMI %llu IRQ %llu SIRQ %llu THREAD %llu hw_time %llu nmi_time %llu irq_time %llu softirq_time %llu thread_time %llu loops %llu min_gap %llu self %llu",
		  __entry->runtime, __entry->noise,
		  osn_avail_int(__entry->runtime, __entry->noise),
		  osn_avail_frac(__entry->runtime, __entry->noise),
		  __entry->max_sample, __entry->min_sample, __entry->samples,
		  __entry->hw_count, __entry->nmi_count, __entry->irq_count,
		  __entry->softirq_count, __entry->thread_count,
		  __entry->hw_time, __entry->nmi_time, __entry->irq_time,
		  __entry->softirq_time, __entry->thread_time,
		  __entry->loops, __entry->min_gap, __entry->self),

	osn_event_reg, osn_event_unreg
);

/* A stop condition hit: tracing_off() follows. */
TRACE_EVENT_FN(stop,

	TP_PROTO(int reason, u64 value, u64 threshold),

	TP_ARGS(reason, value, threshold),

	TP_STRUCT__entry(
		__field(int,	reason)
		__field(u64,	value)
		__field(u64,	threshold)
	),

	TP_fast_assign(
		__entry->reason = reason;
		__entry->value = value;
		__entry->threshold = threshold;
	),

	TP_printk("stop tracing hit: %s noise %llu ns > threshold %llu ns",
		  osn_show_stop_reason(__entry->reason),
		  __entry->value, __entry->threshold),

	osn_event_reg, osn_event_unreg
);

/*
 * One timerlat activation seen from one context (mode=timerlat,
 * osn_timerlat.c): upstream's osnoise:timerlat_sample, same fields, same
 * line.
 */
TRACE_EVENT_FN(timerlat_sample,

	TP_PROTO(u64 timer_latency, unsigned int seqnum, int context),

	TP_ARGS(timer_latency, seqnum, context),

	TP_STRUCT__entry(
		__field(u64,		timer_latency)
		__field(unsigned int,	seqnum)
		__field(int,		context)
	),

	TP_fast_assign(
		__entry->timer_latency = timer_latency;
		__entry->seqnum = seqnum;
		__entry->context = context;
	),

	TP_printk("timer_latency=%llu seqnum=%u context=%d",
		  __entry->timer_latency, __entry->seqnum, __entry->context),

	osn_event_reg, osn_event_unreg
);

/*
 * The timer IRQ's stack of a late activation (print_stack): addresses
 * only, the walk of stack_trace_save(); __print_array() because
 * user-space parsers of the format file know it.
 */
TRACE_EVENT_FN(timerlat_stack,

	TP_PROTO(const unsigned long *caller, unsigned int size),

	TP_ARGS(caller, size),

	TP_STRUCT__entry(
		__field(unsigned int,			size)
		__dynamic_array(unsigned long,	caller,	size)
	),

	TP_fast_assign(
		__entry->size = size;
		memcpy(__get_dynamic_array(caller), caller,
		       size * sizeof(unsigned long));
	),

	TP_printk("size=%u caller=%s", __entry->size,
		  __print_array(__get_dynamic_array(caller), __entry->size,
				sizeof(unsigned long))),

	osn_event_reg, osn_event_unreg
);

/*
 * What ran inside a noise and where it came from: linked to the noise
 * event it explains (irq_noise, softirq_noise, thread_noise) by CPU, class
 * and start.  Its own reg/unreg hook the cause probes (osn_cause.c): they
 * cost nothing while this event is disabled everywhere.
 */
TRACE_EVENT_FN(noise_cause,

	TP_PROTO(int kind, int class, u64 start, unsigned long function,
		 const struct osn_origin *origin),

	TP_ARGS(kind, class, start, function, origin),

	TP_STRUCT__entry(
		__array(char,		origin_comm,	TASK_COMM_LEN)
		__field(int,		kind)
		__field(int,		class)
		__field(u64,		start)
		__field(unsigned long,	function)
		__field(int,		origin_cpu)
		__field(pid_t,		origin_pid)
	),

	TP_fast_assign(
		if (origin) {
			memcpy(__entry->origin_comm, origin->comm,
			       TASK_COMM_LEN);
			__entry->origin_cpu = origin->cpu;
			__entry->origin_pid = origin->pid;
		} else {
			strscpy(__entry->origin_comm, "unknown",
				TASK_COMM_LEN);
			__entry->origin_cpu = -1;
			__entry->origin_pid = -1;
		}
		__entry->kind = kind;
		__entry->class = class;
		__entry->start = start;
		__entry->function = function;
	),

	TP_printk("%s %s start %llu.%09u function %ps origin_cpu %d origin %s:%d",
		  osn_show_cause_kind(__entry->kind),
		  osn_show_class(__entry->class),
		  osn_print_secs(__entry->start),
		  osn_print_nsecs(__entry->start),
		  (void *)__entry->function,
		  __entry->origin_cpu, __entry->origin_comm,
		  __entry->origin_pid),

	osn_cause_reg, osn_cause_unreg
);

#endif /* _OSN_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE osn_trace
#include <trace/define_trace.h>
