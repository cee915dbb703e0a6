// SPDX-License-Identifier: GPL-2.0
/*
 * osn_workload.c - the measuring kthread "osn/N" of each selected CPU.
 *
 * Each period it reads the clock in a tight loop for runtime_us and then
 * sleeps for the rest of the period.  A gap >= threshold between two
 * consecutive reads is a noise sample; the interference counter read with
 * each clock read (osn_guarded_stamp()) says how many IRQs, softirqs,
 * threads and NMIs started inside the gap.  A gap with none is hardware
 * noise.  What the window measured is summed and reported by
 * osn_account.c.
 *
 * The loop never disables interrupts or preemption on its own, except
 * with OSNOISE_IRQ_DISABLE / OSNOISE_PREEMPT_DISABLE, and for the few ns
 * of the momentary RCU quiescent state (see osn_report_rcu_qs()).  What it
 * does besides reading the clock (events, RCU) is left out of the gaps
 * and reported as the period's self time (osn_period_self()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/rcupdate.h>

#include "osn_internal.h"
#include "osn_account.h"

/*
 * How often the loop reports a momentary RCU quiescent state.  RCU starts
 * forcing quiescent states after a few jiffies; once a millisecond keeps
 * it away without paying the cost on every iteration.
 */
#define OSN_RCU_QS_INTERVAL_NS	(1000 * NSEC_PER_USEC)

/*
 * Needed on nohz_full CPUs, where the tick may stop while the loop runs
 * in the kernel: without a quiescent state RCU would end its grace
 * period by interrupting the CPU, i.e. by making noise.
 * rcu_momentary_eqs() expects interrupts off (as upstream calls it).
 */
static void osn_report_rcu_qs(bool irqs_off)
{
	if (!irqs_off)
		local_irq_disable();
	osn_rcu_momentary_qs();
	if (!irqs_off)
		local_irq_enable();
}

/*
 * Whether the window owes one more iteration: a preemption requested in
 * its last gap would otherwise be served at the first preemption point
 * after the window closes, and the thread it runs would go unmeasured (no
 * thread_noise, no cause).  Under TCG that is a wake-up sent while this
 * vCPU was descheduled: its IPI arrives with the clock jump that ends the
 * window (a scratch test on 6.1: 5 of 300 wake-ups ran after the
 * window, each right after a reschedule IPI).  The next iteration offers
 * to reschedule before its read, so the thread runs inside the window and
 * its gap is measured.  Once per window: a request that cond_resched()
 * cannot serve must not hold the window open.
 */
static bool osn_window_owes_resched(bool preemptible, bool *extended)
{
	if (!preemptible || *extended || !need_resched())
		return false;
	*extended = true;
	return true;
}

/*
 * The sampling window: runtime_ns of back-to-back guarded clock reads.
 *
 * Aligned so that the loop never straddles a page boundary, whatever the
 * link order puts before it (module text is page-aligned): under QEMU TCG
 * a translated block cannot chain to one on another page, and a loop cut
 * by one ran ~30% slower per iteration (make bench: 172 -> 226 ns) with
 * identical code.  The function is well under 1 KiB.
 */
static noinline __aligned(1024) void
osn_measure_period(struct osn_cpu *oc, const struct osn_config *cfg)
{
	bool irqs_off = test_bit(OSN_OPTION_IRQ_DISABLE, &cfg->options);
	bool preempt_off = test_bit(OSN_OPTION_PREEMPT_DISABLE, &cfg->options);
	bool preemptible = !irqs_off && !preempt_off, extended = false;
	struct osn_period p;
	unsigned long count, last_count;
	u64 start, last, now, last_qs, gap, total;

	osn_period_begin(oc, &p);

	if (irqs_off)
		local_irq_disable();
	else if (preempt_off)
		preempt_disable();

	/* Probes must see the window open before the first read counts. */
	WRITE_ONCE(oc->active, true);
	barrier();

	last_count = osn_guarded_stamp(oc, &last);
	start = last;
	last_qs = last;

	do {
		/*
		 * Let others run before the read, not after it: time spent
		 * preempted here falls in the gap that the read below closes,
		 * so it is measured and not only accounted to its cause.
		 */
		if (preemptible)
			cond_resched_tasks_rcu_qs();
		if (unlikely(last - last_qs >= OSN_RCU_QS_INTERVAL_NS)) {
			osn_report_rcu_qs(irqs_off);
			last_count = osn_period_self(oc, &p, last_count, &last);
			last_qs = last;
		}

		count = osn_guarded_stamp(oc, &now);
		/* The CPU's clock never goes back; 0 if it ever did. */
		gap = now > last ? now - last : 0;

		p.loops++;
		if (gap < p.min_gap_ns)
			p.min_gap_ns = gap;
		/*
		 * Something ran in the gap: an NMI may wait to be reported;
		 * a gap over the threshold is a sample.  Writing either is
		 * osn's own work, kept out of the next gap.
		 */
		if (unlikely(count != last_count || gap >= cfg->threshold_ns)) {
			if (count != last_count)
				osn_flush_nmi(oc);
			if (gap >= cfg->threshold_ns)
				osn_period_sample(cfg, &p, last, gap,
						  count - last_count);
			count = osn_period_self(oc, &p, count, &now);
		}

		last = now;
		last_count = count;
		total = now - start;
	} while ((total < cfg->runtime_ns ||
		  osn_window_owes_resched(preemptible, &extended)) &&
		 !kthread_should_stop() && !osn_is_paused());

	/* No probe may account anything after this point. */
	barrier();
	WRITE_ONCE(oc->active, false);
	barrier();
	osn_flush_nmi(oc);

	if (irqs_off)
		local_irq_enable();
	else if (preempt_off)
		preempt_enable();

	osn_period_end(oc, cfg, &p, total);
}

/* Sleep for the rest of the period; kthread_stop() cuts it short. */
static void osn_sleep(const struct osn_config *cfg)
{
	u64 interval_ns = cfg->period_ns - cfg->runtime_ns;
	ktime_t wake;

	if (!interval_ns) {
		/*
		 * Back-to-back periods.  The loop offers to reschedule at every
		 * iteration, with the probes on; a preemption point here, with
		 * them off, would hide whatever was waiting for it.  Only the
		 * atomic options, whose loop has none, need one.
		 */
		if (cfg->options & OSN_ATOMIC_OPTIONS)
			cond_resched();
		return;
	}

	wake = ktime_add_ns(ktime_get(), interval_ns);
	set_current_state(TASK_INTERRUPTIBLE);
	if (kthread_should_stop()) {
		__set_current_state(TASK_RUNNING);
		return;
	}
	schedule_hrtimeout_range(&wake, 0, HRTIMER_MODE_ABS);
	__set_current_state(TASK_RUNNING);
}

/*
 * The thread of one CPU; data is that CPU's osn_cpu.  It only returns when
 * told to by kthread_stop(), so its task_struct is always valid for the
 * stopper.  Its policy is whatever userspace set (sched_setattr/chrt).
 */
int osn_workload_fn(void *data)
{
	struct osn_cpu *oc = data;
	struct osn_config cfg;

	while (!kthread_should_stop()) {
		osn_config_snapshot(&cfg);
		osn_measure_period(oc, &cfg);
		osn_sleep(&cfg);
		osn_pause_wait();
	}
	return 0;
}
