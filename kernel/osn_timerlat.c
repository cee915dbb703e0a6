// SPDX-License-Identifier: GPL-2.0
/*
 * osn_timerlat.c - the timerlat workload (mode=timerlat): a thread
 * "timerlat/N" per selected CPU, woken every timerlat_period_us by a
 * pinned hard hrtimer, as upstream's timerlat tracer does.
 *
 * Each activation the timer's handler records its IRQ latency (absolute
 * expiry to the handler) and wakes the thread, which records its thread
 * latency (expiry to running).  Both are osn:timerlat_sample events with
 * the activation's seqnum, context 0 (IRQ) and 1 (thread).  Activations
 * missed while the thread could not run are skipped, not queued.
 *
 * The noise probes stay on for the whole run on the CPU (oc->active), so
 * irq_noise and nmi_noise are always reported; softirq and thread noise
 * only between the timer IRQ and the thread's run (oc->tlat_window), each
 * counted from the timer IRQ's start: what delayed the thread, as
 * upstream reports it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>

#include "osn_internal.h"
#include "osn_account.h"
#include "osn_trace.h"

/* One CPU's timerlat state; written by its thread and its timer only. */
struct osn_tlat {
	struct hrtimer		timer;
	struct task_struct	*task;
	/* Absolute expiry of the current activation, CLOCK_MONOTONIC. */
	u64			abs_period_ns;
	/* Activations whose IRQ ran; the thread's last recorded one. */
	unsigned int		seqnum;
	unsigned int		thread_seqnum;
	/* print_stack for this activation (0: off), and the IRQ's stack. */
	u64			print_stack_ns;
	unsigned int		stack_nr;
	unsigned long		stack[OSN_TLAT_STACK_DEPTH];
};

static DEFINE_PER_CPU(struct osn_tlat, osn_tlat_state);

/* A latency on the timer's clock; 0 if the clock read came first. */
static u64 osn_tlat_latency_ns(const struct osn_tlat *tl)
{
	s64 latency_ns = ktime_get_ns() - READ_ONCE(tl->abs_period_ns);

	return latency_ns > 0 ? latency_ns : 0;
}

/*
 * Whether a latency reaches a knob's threshold (0: off) the way upstream
 * compares them: in integer microseconds, floored, latency_us >= value.
 */
static bool osn_tlat_reaches(u64 latency_ns, u64 threshold_ns)
{
	return threshold_ns &&
	       latency_ns / NSEC_PER_USEC >= threshold_ns / NSEC_PER_USEC;
}

/*
 * The stop of @reason: stop_tracing_us for the IRQ latency, _total_ for
 * the thread's, read now so that a knob written during the run applies
 * at once.  Returns the threshold if the latency reaches it, else 0.
 */
static u64 osn_tlat_stop_due(unsigned int reason, u64 latency_ns)
{
	u64 threshold_ns = osn_stop_threshold_ns(reason);

	return osn_tlat_reaches(latency_ns, threshold_ns) ? threshold_ns : 0;
}

static void osn_tlat_stop(unsigned int reason, u64 latency_ns,
			  u64 threshold_ns)
{
	osn_stop_trip(reason, latency_ns, threshold_ns,
		      osn_option_is_set(OSN_OPTION_PANIC_ON_STOP));
}

/* In the timer IRQ, with print_stack on: what the CPU was running. */
static void osn_tlat_save_stack(struct osn_tlat *tl)
{
	tl->stack_nr = 0;
	if (tl->print_stack_ns)
		tl->stack_nr = stack_trace_save(tl->stack,
						OSN_TLAT_STACK_DEPTH, 0);
}

/* Emit the saved stack once (the IRQ's stop, or the late thread). */
static void osn_tlat_emit_stack(struct osn_tlat *tl)
{
	if (!tl->stack_nr)
		return;
	trace_timerlat_stack(tl->stack, tl->stack_nr);
	tl->stack_nr = 0;
}

/*
 * Open the window in which softirq and thread noise count: those in
 * progress now count from the timer IRQ's start on (the part before it
 * did not delay this activation).  A copy an NMI cannot split: retried if
 * one pushed the starts meanwhile.
 */
static void osn_tlat_open_window(struct osn_cpu *oc)
{
	unsigned long count;
	u64 start_ns;

	do {
		count = local_read(&oc->int_counter);
		barrier();
		start_ns = READ_ONCE(oc->irq.delta_start_ns) ?: osn_time_get();
		if (READ_ONCE(oc->softirq.delta_start_ns))
			WRITE_ONCE(oc->softirq.delta_start_ns, start_ns);
		if (READ_ONCE(oc->thread.delta_start_ns))
			WRITE_ONCE(oc->thread.delta_start_ns, start_ns);
		barrier();
	} while (count != local_read(&oc->int_counter));

	WRITE_ONCE(oc->tlat_window, true);
}

/*
 * The timer, in hard IRQ context on its CPU (also on PREEMPT_RT).  A stop
 * on the IRQ latency emits the stack here if print_stack would have
 * shown it (stop_tracing_us <= print_stack), as upstream does: the
 * thread's sample comes after tracing is off.
 */
static enum hrtimer_restart osn_tlat_irq(struct hrtimer *timer)
{
	struct osn_tlat *tl = container_of(timer, struct osn_tlat, timer);
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	u64 latency_ns = osn_tlat_latency_ns(tl);
	u64 stop_ns;

	tl->seqnum++;
	osn_tlat_open_window(oc);
	trace_timerlat_sample(latency_ns, tl->seqnum, OSN_TLAT_CTX_IRQ);
	osn_tlat_save_stack(tl);

	stop_ns = osn_tlat_stop_due(OSN_STOP_SINGLE, latency_ns);
	if (stop_ns) {
		if (stop_ns <= tl->print_stack_ns)
			osn_tlat_emit_stack(tl);
		osn_tlat_stop(OSN_STOP_SINGLE, latency_ns, stop_ns);
	}
	wake_up_process(tl->task);
	return HRTIMER_NORESTART;
}

/*
 * Arm the timer for the next activation after now and sleep until it
 * fires or kthread_stop() wakes the thread; false if told to stop.
 * Activations already past are skipped (upstream): a long stall makes one
 * late sample, not a burst of them.
 */
static bool osn_tlat_sleep(struct osn_tlat *tl, u64 period_ns)
{
	u64 now_ns = ktime_get_ns();
	u64 next_ns = tl->abs_period_ns + period_ns;

	if (now_ns > next_ns)
		next_ns += (div64_u64(now_ns - next_ns, period_ns) + 1) *
			   period_ns;
	WRITE_ONCE(tl->abs_period_ns, next_ns);

	set_current_state(TASK_INTERRUPTIBLE);
	if (kthread_should_stop()) {
		__set_current_state(TASK_RUNNING);
		return false;
	}
	hrtimer_start(&tl->timer, ns_to_ktime(next_ns),
		      HRTIMER_MODE_ABS_PINNED_HARD);
	schedule();
	return !kthread_should_stop();
}

/*
 * The thread runs: its sample if its timer fired since the last one,
 * then the IRQ's stack if the latency reaches print_stack, then the stop.
 */
static void osn_tlat_thread_ran(struct osn_cpu *oc, struct osn_tlat *tl)
{
	u64 latency_ns = osn_tlat_latency_ns(tl);
	unsigned int seqnum = READ_ONCE(tl->seqnum);
	u64 stop_ns;

	/* The window closes: what runs now no longer delays this thread. */
	WRITE_ONCE(oc->tlat_window, false);
	osn_flush_nmi(oc);
	if (seqnum == tl->thread_seqnum)
		return;		/* a wake-up not from the timer */
	tl->thread_seqnum = seqnum;

	trace_timerlat_sample(latency_ns, seqnum, OSN_TLAT_CTX_THREAD);
	if (osn_tlat_reaches(latency_ns, tl->print_stack_ns))
		osn_tlat_emit_stack(tl);
	stop_ns = osn_tlat_stop_due(OSN_STOP_TOTAL, latency_ns);
	if (stop_ns)
		osn_tlat_stop(OSN_STOP_TOTAL, latency_ns, stop_ns);
}

/* SCHED_FIFO at upstream's priority where the kernel lets a module. */
static void osn_tlat_set_prio(void)
{
	int ret = osn_sched_set_fifo(current, OSN_TLAT_PRIO);

	if (ret < 0)
		pr_warn("%s: cannot set SCHED_FIFO %d: %d\n", current->comm,
			OSN_TLAT_PRIO, ret);
	else if (ret != OSN_TLAT_PRIO)
		pr_info_once("timerlat threads run at SCHED_FIFO %d on this kernel, not %d\n",
			     ret, OSN_TLAT_PRIO);
}

/*
 * The thread of one CPU (data: its osn_cpu), bound to it.  It only
 * returns when told to by kthread_stop(), with its timer cancelled.
 */
int osn_timerlat_fn(void *data)
{
	/* Bound to its CPU by its creator: the CPU cannot change. */
	struct osn_tlat *tl = per_cpu_ptr(&osn_tlat_state,
					  raw_smp_processor_id());
	struct osn_cpu *oc = data;
	struct osn_config cfg;

	osn_tlat_set_prio();
	osn_hrtimer_setup(&tl->timer, osn_tlat_irq, CLOCK_MONOTONIC,
			  HRTIMER_MODE_ABS_PINNED_HARD);
	tl->task = current;
	tl->seqnum = 0;
	tl->thread_seqnum = 0;
	tl->stack_nr = 0;
	tl->abs_period_ns = ktime_get_ns();

	/* The probes report this CPU from now on, gated by the window. */
	WRITE_ONCE(oc->tlat_gated, true);
	barrier();
	WRITE_ONCE(oc->active, true);

	for (;;) {
		osn_config_snapshot(&cfg);
		/* Read by the next IRQ: written before the timer is armed. */
		tl->print_stack_ns = cfg.print_stack_ns;
		if (!osn_tlat_sleep(tl, cfg.timerlat_period_ns))
			break;
		osn_tlat_thread_ran(oc, tl);
	}

	/* No handler may run (and wake this task) after it exits. */
	hrtimer_cancel(&tl->timer);
	WRITE_ONCE(oc->active, false);
	return 0;
}
