// SPDX-License-Identifier: GPL-2.0
/*
 * osn_workload.c - the measuring kthread "osn/N" of each selected CPU.
 *
 * Each period it reads the clock in a tight loop for runtime_us and then
 * sleeps for the rest of the period.  A gap >= threshold between two
 * consecutive reads is a noise sample; the interference counter read with
 * each clock read (osn_read_guarded) says how many IRQs, softirqs, threads
 * and NMIs started inside the gap.  A gap with none is hardware noise.
 *
 * The loop never disables interrupts or preemption on its own, except
 * with OSNOISE_IRQ_DISABLE / OSNOISE_PREEMPT_DISABLE, and for the few ns
 * of the momentary RCU quiescent state (see osn_report_rcu_qs()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/rcupdate.h>

#include "osn_internal.h"
#include "osn_compat.h"
#include "osn_trace.h"

/*
 * How often the loop reports a momentary RCU quiescent state.  RCU starts
 * forcing quiescent states after a few jiffies; once a millisecond keeps
 * it away without paying the cost on every iteration.
 */
#define OSN_RCU_QS_INTERVAL_NS	(1000 * NSEC_PER_USEC)

/* What one period measured, before it becomes an osn:sample event. */
struct osn_period {
	u64	noise_ns;
	u64	max_sample_ns;
	u64	min_sample_ns;
	u64	samples;
	u64	hw_count;
	u64	hw_time_ns;
	u64	loops;
	u64	min_gap_ns;
};

void osn_stop_tracing(unsigned int reason, u64 value_ns, u64 threshold_ns)
{
	/* Once per condition until a re-enable or a knob write re-arms it. */
	if (!osn_stop_arm_take(reason))
		return;

	if (osn_event_on(stop))
		trace_stop(reason, value_ns, threshold_ns);
	tracing_off();

	if (osn_option_set(OSN_OPTION_PANIC_ON_STOP))
		panic("osn: stop tracing hit on cpu %d\n",
		      raw_smp_processor_id());
}

/* A gap >= threshold: record it, emit it, maybe stop tracing. */
static noinline void osn_record_sample(const struct osn_config *cfg,
				       struct osn_period *p, u64 start_ns,
				       u64 gap_ns, unsigned long interference)
{
	p->samples++;
	p->noise_ns += gap_ns;
	if (gap_ns > p->max_sample_ns)
		p->max_sample_ns = gap_ns;
	if (!p->min_sample_ns || gap_ns < p->min_sample_ns)
		p->min_sample_ns = gap_ns;
	if (!interference) {
		p->hw_count++;
		p->hw_time_ns += gap_ns;
	}

	if (osn_event_on(sample_threshold))
		trace_sample_threshold(start_ns, gap_ns, interference);

	if (cfg->stop_single_ns && gap_ns > cfg->stop_single_ns)
		osn_stop_tracing(OSN_STOP_SINGLE, gap_ns, cfg->stop_single_ns);
}

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

static void osn_emit_sample(struct osn_cpu *oc, const struct osn_config *cfg,
			    const struct osn_period *p,
			    const struct osn_class_stat *base, u64 runtime_ns)
{
	const struct osn_class_stat *now = oc->stat;
	struct osn_sample s = {
		.runtime	= runtime_ns,
		.noise		= p->noise_ns,
		.max_sample	= p->max_sample_ns,
		.min_sample	= p->min_sample_ns,
		.samples	= p->samples,
		.hw_count	= p->hw_count,
		.hw_time	= p->hw_time_ns,
		.loops		= p->loops,
		.min_gap	= p->loops ? p->min_gap_ns : 0,
	};

#define OSN_DELTA(c, f) (now[OSN_CLASS_##c].f - base[OSN_CLASS_##c].f)
	s.nmi_count = OSN_DELTA(NMI, count);
	s.irq_count = OSN_DELTA(IRQ, count);
	s.softirq_count = OSN_DELTA(SOFTIRQ, count);
	s.thread_count = OSN_DELTA(THREAD, count);
	s.nmi_time = OSN_DELTA(NMI, time_ns);
	s.irq_time = OSN_DELTA(IRQ, time_ns);
	s.softirq_time = OSN_DELTA(SOFTIRQ, time_ns);
	s.thread_time = OSN_DELTA(THREAD, time_ns);
#undef OSN_DELTA

	if (osn_event_on(sample))
		trace_sample(&s);

	/* (Mutant STOP_TOTAL_NEVER: the stop on the total never fires.) */
	if (!OSN_MUTANT(STOP_TOTAL_NEVER) &&
	    cfg->stop_total_ns && s.noise > cfg->stop_total_ns)
		osn_stop_tracing(OSN_STOP_TOTAL, s.noise, cfg->stop_total_ns);
}

/* The sampling window: runtime_ns of back-to-back guarded clock reads. */
static void osn_measure_period(struct osn_cpu *oc, const struct osn_config *cfg)
{
	bool irqs_off = test_bit(OSN_OPTION_IRQ_DISABLE, &cfg->options);
	bool preempt_off = test_bit(OSN_OPTION_PREEMPT_DISABLE, &cfg->options);
	struct osn_class_stat base[OSN_CLASS_NR];
	struct osn_period p = { .min_gap_ns = U64_MAX };
	unsigned long count, last_count;
	u64 start, last, now, last_qs, gap, total;

	/* Probes only write the stats while sampling: a stable snapshot. */
	memcpy(base, oc->stat, sizeof(base));

	if (irqs_off)
		local_irq_disable();
	else if (preempt_off)
		preempt_disable();

	/* Probes must see sampling before the first read counts. */
	WRITE_ONCE(oc->sampling, true);
	barrier();

	last_count = osn_read_guarded(oc, &last);
	start = last;
	last_qs = last;

	do {
		/*
		 * Let others run before the read, not after it: time spent
		 * preempted here falls in the gap that the read below closes,
		 * so it is measured and not only accounted to its cause.
		 */
		if (!irqs_off && !preempt_off)
			cond_resched_tasks_rcu_qs();
		if (unlikely(last - last_qs >= OSN_RCU_QS_INTERVAL_NS)) {
			osn_report_rcu_qs(irqs_off);
			last_qs = last;
		}

		count = osn_read_guarded(oc, &now);
		gap = now > last ? now - last : 0;

		/* Something ran in the gap: an NMI may wait to be reported. */
		if (unlikely(count != last_count))
			osn_flush_nmi(oc);

		p.loops++;
		if (gap < p.min_gap_ns)
			p.min_gap_ns = gap;
		if (unlikely(gap >= cfg->threshold_ns))
			osn_record_sample(cfg, &p, last, gap, count - last_count);

		last = now;
		last_count = count;
		total = now - start;
	} while (total < cfg->runtime_ns && !kthread_should_stop());

	/* No probe may account anything after this point. */
	barrier();
	WRITE_ONCE(oc->sampling, false);
	barrier();
	osn_flush_nmi(oc);

	if (irqs_off)
		local_irq_enable();
	else if (preempt_off)
		preempt_enable();

	osn_emit_sample(oc, cfg, &p, base, total);
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
	}
	return 0;
}
