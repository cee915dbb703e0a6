/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * osn_abi.h - the contract between osn.ko and everything that drives it.
 *
 * The CLI (tools/) and the module (kernel/) both include this header.
 * The module's event fields and parameter names are C identifiers in
 * TRACE_EVENT()s and module_param*()s, which a string cannot generate, so
 * the header is checked instead of obeyed there: tests/abi-check.sh (a
 * host test of `make check`) fails unless kernel/osn_trace.h declares
 * exactly the OSN_FIELDS_* below, in order, and kernel/ exactly the
 * parameters below; the guest test engine/10 reads the OSN_FIELDS_* from
 * this file and compares them with the format files of the running
 * module.  Renaming something is then one edit here plus the one the
 * check points to in the module; the CLI follows by recompiling.
 *
 * Units: every time field of every event is in nanoseconds; every knob
 * whose name ends in _us is in microseconds.
 */
#ifndef _OSN_ABI_H
#define _OSN_ABI_H

/* The one version of osn: the module's MODULE_VERSION, osn --version, dkms.conf. */
#define OSN_VERSION		"0.1.0"

#define OSN_MODULE_NAME		"osn"
#define OSN_EVENT_SYSTEM	"osn"
#define OSN_PARAM_DIR		"/sys/module/osn/parameters"
/*
 * Built into a kernel (CONFIG_OSN_TRACER=y), osn is also the ftrace tracer
 * "osn" and tracefs has the knobs (not the read-only reports below) as
 * files in this directory; they share the module parameters' rules.
 */
#define OSN_TRACER_NAME		"osn"
#define OSN_TRACER_DIR		"osn"
/* Read-only: the tracepoints this kernel lacks, comma-separated. */
#define OSN_PARAM_UNMEASURED	"unmeasured"
/* Read-only: negative durations seen since load (always 0, or a bug). */
#define OSN_PARAM_IMPOSSIBLE	"impossible"
/* Read-only: why the last start failed (negative errno), 0 if it worked. */
#define OSN_PARAM_START_ERROR	"start_error"
/* Read-only: "Y" once a run is on (its probes hooked, its threads up). */
#define OSN_PARAM_RUNNING	"running"
/* Read-only: "Y" once the cause probes (osn:noise_cause) are hooked. */
#define OSN_PARAM_CAUSES_LIVE	"causes_live"
/*
 * Read-write: "Y" puts the workload threads to sleep, the run staying on
 * (a tool at the end of its collection, before it takes its events off);
 * "N" wakes them; the end and the start of a run clear it.
 */
#define OSN_PARAM_PAUSED	"paused"
/* Workload kthreads are named like this, one per measured CPU. */
#define OSN_THREAD_PREFIX	"osn/"
/* The same in timerlat mode (upstream's names). */
#define OSN_TLAT_THREAD_PREFIX	"timerlat/"
/*
 * timerlat's user-space mode (mode=timerlat with NO_OSNOISE_WORKLOAD):
 * the device each user-space thread reads, upstream's timerlat_fd
 * (Documentation/engine.md), and the name osn timerlat -u gives its
 * threads (rtla's).
 */
#define OSN_TLAT_DEV_NAME	"osn_timerlat"
#define OSN_TLAT_DEV		"/dev/" OSN_TLAT_DEV_NAME
#define OSN_TLAT_USER_PREFIX	"timerlatu/"

/*
 * tracefs instances the CLI creates (instances/<name>); a leftover one from
 * a killed run is recognised and removed by these names.
 */
#define OSN_INST_TOP		"osn_top"
#define OSN_INST_HIST		"osn_hist"
#define OSN_INST_TRACE		"osn_trace"
#define OSN_INST_STOP		"osn_stop"

/* Events (events/osn/<name>) */
#define OSN_EV_SAMPLE_THRESHOLD	"sample_threshold"
#define OSN_EV_IRQ_NOISE	"irq_noise"
#define OSN_EV_SOFTIRQ_NOISE	"softirq_noise"
#define OSN_EV_THREAD_NOISE	"thread_noise"
#define OSN_EV_NMI_NOISE	"nmi_noise"
#define OSN_EV_SAMPLE		"sample"
#define OSN_EV_STOP		"stop"
#define OSN_EV_NOISE_CAUSE	"noise_cause"
#define OSN_EV_TIMERLAT_SAMPLE	"timerlat_sample"
#define OSN_EV_TIMERLAT_STACK	"timerlat_stack"

/*
 * Fields.
 *  sample_threshold: start, duration, interference
 *  irq_noise:        desc (string), vector, start, duration
 *  softirq_noise:    vector, start, duration
 *  thread_noise:     comm (char[16]), pid, start, duration
 *  nmi_noise:        start, duration
 *  sample:           one per CPU per period (or partial period at stop):
 *                    runtime, noise, max_sample, min_sample, samples,
 *                    hw_count, nmi_count, irq_count, softirq_count,
 *                    thread_count, hw_time, nmi_time, irq_time,
 *                    softirq_time, thread_time, loops, min_gap, self
 *  stop:             reason (OSN_STOP_*), value, threshold
 *  noise_cause:      kind (OSN_CAUSE_*), class (enum osn_class of the
 *                    noise it explains), start (that noise event's start),
 *                    function (kernel address: the timer callback, work
 *                    function or cross-CPU call that ran; 0 for a
 *                    wake-up), origin_cpu, origin_pid (-1: unknown, or an
 *                    interrupt), origin_comm (char[16]: the task that
 *                    woke, queued, armed or sent it; "[irq]"/"[softirq]"
 *                    when that was an interrupt; "unknown")
 * "start" is trace_clock_local() (the buffer's "local" clock; sched_clock
 * based) in ns.  Durations and times are
 * ns.  "samples" counts the noise samples (gaps >= threshold) of the
 * period; "noise" is their sum, max_sample/min_sample their extremes (0
 * when samples == 0).  The *_count fields count interference entries of
 * each class during the period; *_time are the interference-free times
 * of each class.  hw_count/hw_time are the samples with no interference.
 * loops is the number of clock reads of the period and min_gap the
 * smallest gap between two of them (ns): the measuring loop's own cost
 * (runtime / loops) and resolution, which upstream never reports.  self
 * is the time (ns) osn spent on its own work inside the window (writing
 * sample_threshold and nmi_noise events, reporting RCU quiescent states):
 * it is left out of the gaps, so that recording a sample never makes the
 * next one, unless something interrupted that work (then the gap keeps
 * it, and what interrupted it is measured as usual).
 */
/* Each event's fields, in the order of its format file. */
#define OSN_FIELDS_SAMPLE_THRESHOLD	"start duration interference"
#define OSN_FIELDS_IRQ_NOISE		"desc vector start duration"
#define OSN_FIELDS_SOFTIRQ_NOISE	"vector start duration"
#define OSN_FIELDS_THREAD_NOISE		"comm pid start duration"
#define OSN_FIELDS_NMI_NOISE		"start duration"
#define OSN_FIELDS_SAMPLE		"runtime noise max_sample min_sample " \
					"samples hw_count nmi_count irq_count " \
					"softirq_count thread_count hw_time " \
					"nmi_time irq_time softirq_time " \
					"thread_time loops min_gap self"
#define OSN_FIELDS_STOP			"reason value threshold"
#define OSN_FIELDS_NOISE_CAUSE		"origin_comm kind class start " \
					"function origin_cpu origin_pid"
/*
 * timerlat_sample (mode=timerlat): one per activation and context, as
 * upstream's osnoise:timerlat_sample.  timer_latency (ns) is the time from
 * the timer's absolute expiry to the handler (context IRQ) or to the
 * thread running (context THREAD, gross: it includes the IRQ and any
 * softirq or thread that ran first), on CLOCK_MONOTONIC like the timer;
 * the expiry on the trace clock is the event's timestamp minus it.
 * seqnum numbers the activations of a CPU: the IRQ and THREAD samples of
 * one activation share it.
 */
#define OSN_FIELDS_TIMERLAT_SAMPLE	"timer_latency seqnum context"
/*
 * timerlat_stack (print_stack): the kernel stack saved in the timer IRQ
 * of an activation whose thread latency reached print_stack us (emitted
 * right after that thread sample), or whose IRQ latency tripped
 * stop_tracing_us <= print_stack (emitted before the stop): what the CPU
 * was running when the timer fired.  size entries of caller (kernel
 * addresses, innermost first, printed in hex: symbolize with
 * /proc/kallsyms).
 */
#define OSN_FIELDS_TIMERLAT_STACK	"size caller"

#define OSN_F_START		"start"
#define OSN_F_DURATION		"duration"
#define OSN_F_INTERFERENCE	"interference"
#define OSN_F_DESC		"desc"
#define OSN_F_VECTOR		"vector"
#define OSN_F_COMM		"comm"
#define OSN_F_PID		"pid"
#define OSN_F_RUNTIME		"runtime"
#define OSN_F_NOISE		"noise"
#define OSN_F_MAX_SAMPLE	"max_sample"
#define OSN_F_MIN_SAMPLE	"min_sample"
#define OSN_F_SAMPLES		"samples"
#define OSN_F_HW_COUNT		"hw_count"
#define OSN_F_NMI_COUNT		"nmi_count"
#define OSN_F_IRQ_COUNT		"irq_count"
#define OSN_F_SOFTIRQ_COUNT	"softirq_count"
#define OSN_F_THREAD_COUNT	"thread_count"
#define OSN_F_HW_TIME		"hw_time"
#define OSN_F_NMI_TIME		"nmi_time"
#define OSN_F_IRQ_TIME		"irq_time"
#define OSN_F_SOFTIRQ_TIME	"softirq_time"
#define OSN_F_THREAD_TIME	"thread_time"
#define OSN_F_LOOPS		"loops"
#define OSN_F_MIN_GAP		"min_gap"
#define OSN_F_SELF		"self"
#define OSN_F_REASON		"reason"
#define OSN_F_VALUE		"value"
#define OSN_F_THRESHOLD		"threshold"
#define OSN_F_ORIGIN_COMM	"origin_comm"
#define OSN_F_KIND		"kind"
#define OSN_F_CLASS		"class"
#define OSN_F_FUNCTION		"function"
#define OSN_F_ORIGIN_CPU	"origin_cpu"
#define OSN_F_ORIGIN_PID	"origin_pid"
#define OSN_F_TIMER_LATENCY	"timer_latency"
#define OSN_F_SEQNUM		"seqnum"
#define OSN_F_CONTEXT		"context"
#define OSN_F_SIZE		"size"
#define OSN_F_CALLER		"caller"

/*
 * Interference classes, in rtla's column order: the module's per-class
 * statistics and the tool's columns use the same indices.  HW is a gap
 * that no probe explains.
 */
enum osn_class {
	OSN_CLASS_HW,
	OSN_CLASS_NMI,
	OSN_CLASS_IRQ,
	OSN_CLASS_SOFTIRQ,
	OSN_CLASS_THREAD,
	OSN_CLASS_NR
};

/* stop.reason */
#define OSN_STOP_SINGLE		0	/* one sample > stop_tracing_us */
#define OSN_STOP_TOTAL		1	/* a period's noise > stop_tracing_total_us */

/* timerlat_sample.context (upstream's values) */
#define OSN_TLAT_CTX_IRQ	0	/* the timer's hard IRQ handler */
#define OSN_TLAT_CTX_THREAD	1	/* the timerlat thread running */
#define OSN_TLAT_CTX_USER_RET	2	/* a user-space thread back from user */

/*
 * noise_cause.kind: what ran inside the noise, and what its origin is.
 *  WAKEUP   a noise thread was woken: origin is the waker
 *  WORK     a work item ran in a kworker: function, origin the queuer
 *  TIMER    a timer_list callback ran: function, origin the armer
 *  HRTIMER  an hrtimer callback ran: function, origin the armer
 *  IPI      a cross-CPU function call ran: function, origin the sender
 *  TLB      a remote TLB shootdown was served: origin the sender
 *  RESCHED  a reschedule IPI was handled: function the call site that
 *           sent it, origin the sender
 */
enum osn_cause_kind {
	OSN_CAUSE_WAKEUP,
	OSN_CAUSE_WORK,
	OSN_CAUSE_TIMER,
	OSN_CAUSE_HRTIMER,
	OSN_CAUSE_IPI,
	OSN_CAUSE_TLB,
	OSN_CAUSE_RESCHED,
	OSN_CAUSE_NR
};

/* Knobs: module parameters under OSN_PARAM_DIR */
#define OSN_KNOB_CPUS			"cpus"
#define OSN_KNOB_PERIOD_US		"period_us"
#define OSN_KNOB_RUNTIME_US		"runtime_us"
#define OSN_KNOB_THRESHOLD_US		"threshold_us"
#define OSN_KNOB_STOP_TRACING_US	"stop_tracing_us"
#define OSN_KNOB_STOP_TRACING_TOTAL_US	"stop_tracing_total_us"
#define OSN_KNOB_OPTIONS		"options"
#define OSN_KNOB_MODE			"mode"
#define OSN_KNOB_TIMERLAT_PERIOD_US	"timerlat_period_us"
#define OSN_KNOB_PRINT_STACK		"print_stack"

/*
 * mode: the workload a run starts, read when the run starts; a write
 * while a run is active fails with -EBUSY (osnoise and timerlat never run
 * at once, as upstream's tracers exclude each other).
 *  osnoise   the osn/N loops (osn:sample, osn:sample_threshold)
 *  timerlat  the timerlat/N threads (osn:timerlat_sample); stop_tracing_us
 *            applies to the IRQ latency and stop_tracing_total_us to the
 *            thread latency (and the return from user), each as
 *            latency_us >= value (integer us).  With NO_OSNOISE_WORKLOAD
 *            no thread starts: user-space threads read OSN_TLAT_DEV
 */
#define OSN_MODE_OSNOISE		"osnoise"
#define OSN_MODE_TIMERLAT		"timerlat"

/*
 * options: reads as a space-separated list of every option, each as NAME
 * (set) or NO_NAME (clear); a write of NAME sets, NO_NAME clears, and
 * DEFAULTS restores the defaults.  Names follow upstream osnoise.
 */
#define OSN_OPT_WORKLOAD		"OSNOISE_WORKLOAD"
#define OSN_OPT_PANIC_ON_STOP		"PANIC_ON_STOP"
#define OSN_OPT_PREEMPT_DISABLE		"OSNOISE_PREEMPT_DISABLE"
#define OSN_OPT_IRQ_DISABLE		"OSNOISE_IRQ_DISABLE"
#define OSN_OPT_DEFAULTS		"DEFAULTS"

/* Defaults and limits of the knobs (microseconds) */
#define OSN_DEFAULT_PERIOD_US		1000000ULL
#define OSN_DEFAULT_RUNTIME_US		1000000ULL
#define OSN_DEFAULT_THRESHOLD_US	1ULL	/* what threshold_us=0 means */
#define OSN_MIN_RUNTIME_US		100ULL
#define OSN_MAX_PERIOD_US		(60ULL * 1000000ULL)
#define OSN_MAX_THRESHOLD_US		(10ULL * 1000000ULL)
/*
 * With interrupts or preemption disabled for the whole runtime window the
 * kernel's lockup detectors would fire on long windows: cap it.
 */
#define OSN_MAX_ATOMIC_RUNTIME_US	1000000ULL
/* timerlat_period_us; out of range is -EINVAL, as upstream's file. */
#define OSN_DEFAULT_TIMERLAT_PERIOD_US	1000ULL
#define OSN_MIN_TIMERLAT_PERIOD_US	100ULL
#define OSN_MAX_TIMERLAT_PERIOD_US	1000000ULL
/* Deepest stack osn:timerlat_stack carries. */
#define OSN_TLAT_STACK_DEPTH		32
/* SCHED_FIFO priority of the timerlat/N threads (upstream's default). */
#define OSN_TLAT_PRIO			95
/*
 * Longest string the cpus knob accepts, terminator excluded: what one
 * sysfs write carries (a page: 4 KiB on Debian's x86-64 and arm64
 * kernels) less a trailing newline.  Upstream's tracefs file takes any
 * length since 6.16; a module parameter is a sysfs file.
 */
#define OSN_CPUS_MAX_LEN		4094

#endif /* _OSN_ABI_H */
