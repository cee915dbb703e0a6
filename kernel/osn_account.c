// SPDX-License-Identifier: GPL-2.0
/*
 * osn_account.c - where the noise is accounted: per-CPU state, noise
 * sources and their nesting, the pending NMI record, the sums of each
 * sampling window and the stop conditions.
 *
 * The probes (osn_probes.c) and the workload loop (osn_workload.c) only
 * call in here; this file calls nothing of theirs.  Each source entry
 * bumps the CPU's interference counter (so that the workload knows a gap
 * was interfered with) and stamps its start; each exit computes the
 * source's interference-free duration and pushes the start of every
 * source it interrupted forward by that duration (NMI in IRQ in softirq
 * in thread), as upstream osnoise does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "osn_internal.h"
#include "osn_account.h"
#include "osn_trace.h"

DEFINE_PER_CPU(struct osn_cpu, osn_cpu_state);

/* Called with no probe and no workload touching oc (or from its CPU). */
void osn_cpu_reset(struct osn_cpu *oc)
{
	WRITE_ONCE(oc->active, false);
	barrier();
	oc->workload = NULL;
	memset(&oc->irq, 0, sizeof(oc->irq));
	memset(&oc->softirq, 0, sizeof(oc->softirq));
	memset(&oc->thread, 0, sizeof(oc->thread));
	memset(oc->stat, 0, sizeof(oc->stat));
	oc->nmi_seq = 0;
	oc->nmi_done_seq = 0;
	oc->nmi_handlers_ns = 0;
	oc->nmi_pend_seq = 0;
	oc->tlat_gated = false;
	oc->tlat_window = false;
}

/* ---- impossible states ---- */

/*
 * A source cannot end before it started: a negative duration means the
 * clock or osn's nesting arithmetic is wrong.  It is clamped to 0 so the
 * sums stay sane, counted per CPU, reported in dmesg and in the read-only
 * parameter "impossible" (upstream osnoise taints its tracer likewise).
 * The guest suite fails a run that logs it.
 */
static DEFINE_PER_CPU(unsigned long, osn_impossible_count);

u64 osn_account_clamp(s64 duration_ns)
{
	if (likely(duration_ns >= 0))
		return duration_ns;
	this_cpu_inc(osn_impossible_count);
	pr_warn_once("impossible: a noise source ended %lld ns before it started (clamped to 0; see the 'impossible' parameter)\n",
		     -duration_ns);
	return 0;
}

static unsigned long osn_impossible_total(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(osn_impossible_count, cpu);
	return sum;
}

/* At the end of a run: the total, if it grew during the run. */
void osn_account_report(void)
{
	static unsigned long reported;
	unsigned long total = osn_impossible_total();

	if (total == reported)
		return;
	pr_warn("impossible: %lu negative durations since load\n", total);
	reported = total;
}

static int osn_impossible_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%lu\n", osn_impossible_total());
}

static const struct kernel_param_ops osn_impossible_ops = {
	.get = osn_impossible_get,
};
module_param_cb(impossible, &osn_impossible_ops, NULL, 0444);
MODULE_PARM_DESC(impossible, "negative durations seen since load (should stay 0)");

/* ---- noise sources ---- */

/* A source that was interrupted for duration_ns: exclude that time. */
void osn_source_push(struct osn_source *src, u64 duration_ns)
{
	if (src->delta_start_ns)
		src->delta_start_ns += duration_ns;
}

void osn_source_entry(struct osn_cpu *oc, struct osn_source *src,
		      enum osn_class class)
{
	src->arrival_ns = osn_time_get();
	osn_guarded_stamp(oc, &src->delta_start_ns);
	oc->stat[class].count++;
	local_inc(&oc->int_counter);
}

/*
 * End of a source: its interference-free duration, accounted to its class.
 * Returns 0 for an exit whose entry was not seen (sampling began inside).
 */
u64 osn_source_exit(struct osn_cpu *oc, struct osn_source *src,
		    enum osn_class class)
{
	u64 now, duration;

	if (!src->delta_start_ns)
		return 0;

	duration = osn_account_clamp(osn_guarded_elapsed(oc, &src->delta_start_ns,
							 &now));
	oc->stat[class].time_ns += duration;
	src->delta_start_ns = 0;
	return duration;
}

/*
 * A context switch ends the running noise thread (prev_noise) and starts
 * the next one (next_noise) at the same clock read: the switch itself is
 * then not lost between two sources, and next's start is not delayed by
 * the emission of prev's event.  Returns whether a thread ended, with its
 * arrival and interference-free duration.
 */
bool osn_thread_switch(struct osn_cpu *oc, bool prev_noise, bool next_noise,
		       u64 *start_ns, u64 *duration_ns)
{
	struct osn_source *src = &oc->thread;
	u64 now;

	prev_noise = prev_noise && src->delta_start_ns;
	if (prev_noise) {
		s64 elapsed = osn_guarded_elapsed(oc, &src->delta_start_ns,
						  &now);

		*duration_ns = osn_account_clamp(elapsed);
		*start_ns = src->arrival_ns;
		oc->stat[OSN_CLASS_THREAD].time_ns += *duration_ns;
		WRITE_ONCE(src->delta_start_ns, 0);
	} else {
		osn_guarded_stamp(oc, &now);
	}

	if (next_noise) {
		src->arrival_ns = now;
		WRITE_ONCE(src->delta_start_ns, now);
		oc->stat[OSN_CLASS_THREAD].count++;
		local_inc(&oc->int_counter);
	}
	return prev_noise;
}

/* ---- NMIs ---- */

/*
 * A module cannot hook NMI entry/exit.  It can register an NMI handler,
 * which runs on every NMI that reaches the NMI_LOCAL chain, and see the
 * nmi:nmi_handler tracepoint, which reports each handler's duration after
 * it ran.  The per-CPU NMI count (osn_nmi_seq()), bumped at every NMI
 * entry, tells one NMI from the next.  The NMI's duration is the sum of
 * its handlers':
 *  - handlers before osn's have reported theirs when osn's handler runs:
 *    osn_nmi_begin() starts the NMI's record with their sum;
 *  - handlers after osn's (registered later) add theirs through
 *    osn_nmi_handler_ran().
 * The sources the NMI interrupted are pushed forward as each part is
 * known.  The record is emitted as nmi_noise once the NMI is over, by the
 * next probe or workload iteration on the CPU, or by the next NMI
 * (osn_flush_nmi()).
 */

static void osn_nmi_account(struct osn_cpu *oc, u64 duration_ns)
{
	oc->stat[OSN_CLASS_NMI].time_ns += duration_ns;
	osn_source_push(&oc->irq, duration_ns);
	osn_source_push(&oc->softirq, duration_ns);
	osn_source_push(&oc->thread, duration_ns);
}

/* osn's NMI handler runs in NMI seq. */
void osn_nmi_begin(struct osn_cpu *oc, unsigned int seq)
{
	u64 before_ns;

	local_inc(&oc->int_counter);

	if (oc->nmi_done_seq == seq)
		return;
	oc->nmi_done_seq = seq;
	/*
	 * The previous NMI is over: if nothing ran on the CPU since to emit
	 * its record (a stall of the interrupted context), emit it now rather
	 * than let this NMI's record replace it.
	 */
	osn_flush_nmi(oc);

	if (!osn_cpu_active(oc))
		return;

	before_ns = oc->nmi_seq == seq ? oc->nmi_handlers_ns : 0;
	oc->stat[OSN_CLASS_NMI].count++;
	osn_nmi_account(oc, before_ns);

	WRITE_ONCE(oc->nmi_pend_start_ns, osn_time_get() - before_ns);
	WRITE_ONCE(oc->nmi_pend_ns, before_ns);
	barrier();
	WRITE_ONCE(oc->nmi_pend_seq, seq);
}

/* Another handler of NMI seq ran for delta_ns. */
void osn_nmi_handler_ran(struct osn_cpu *oc, unsigned int seq, u64 delta_ns)
{
	/* After osn's handler: extend this NMI's record. */
	if (oc->nmi_done_seq == seq) {
		if (READ_ONCE(oc->nmi_pend_seq) != seq)
			return;
		WRITE_ONCE(oc->nmi_pend_ns, oc->nmi_pend_ns + delta_ns);
		osn_nmi_account(oc, delta_ns);
		return;
	}

	/* Before osn's handler: sum for it. */
	if (oc->nmi_seq != seq) {
		oc->nmi_seq = seq;
		oc->nmi_handlers_ns = 0;
	}
	oc->nmi_handlers_ns += delta_ns;
}

/*
 * Emit the pending NMI record, if any.  Any context of the CPU may call
 * it, NMIs included (osn_nmi_begin()): the cmpxchg makes exactly one
 * caller emit a record.  A new NMI arriving while a context reads the
 * record emits it first and pends its own, which that context's retry
 * then emits: each record once.
 */
void osn_flush_nmi(struct osn_cpu *oc)
{
	unsigned int seq;
	u64 start_ns, duration_ns;

	do {
		seq = READ_ONCE(oc->nmi_pend_seq);
		if (!seq)
			return;
		barrier();
		start_ns = READ_ONCE(oc->nmi_pend_start_ns);
		duration_ns = READ_ONCE(oc->nmi_pend_ns);
		barrier();
	} while (cmpxchg_local(&oc->nmi_pend_seq, seq, 0) != seq);

	trace_nmi_noise(start_ns, duration_ns);
}

/* ---- stop conditions ---- */

/* One bit per OSN_STOP_* reason: fires once, then waits to be re-armed. */
static unsigned long osn_stop_armed = BIT(OSN_STOP_SINGLE) | BIT(OSN_STOP_TOTAL);

/* A new run, a re-enable or a knob write: every condition may fire again. */
void osn_stop_rearm(void)
{
	set_bit(OSN_STOP_SINGLE, &osn_stop_armed);
	set_bit(OSN_STOP_TOTAL, &osn_stop_armed);
}

/*
 * Stop condition @reason was met (the caller compared): once per arming,
 * the osn:stop event, then the top-level buffer (and the tracer's
 * instances) off, or a panic if asked.  Any context.
 */
void osn_stop_trip(unsigned int reason, u64 value_ns, u64 threshold_ns,
		   bool panic_on_stop)
{
	if (!test_and_clear_bit(reason, &osn_stop_armed))
		return;

	trace_stop(reason, value_ns, threshold_ns);
	tracing_off();
	osn_tracer_stop();

	if (panic_on_stop)
		panic("osn: stop tracing hit on cpu %d\n",
		      raw_smp_processor_id());
}

static void osn_stop_fire(const struct osn_config *cfg, unsigned int reason,
			  u64 value_ns, u64 threshold_ns)
{
	/*
	 * @cfg is the workload's snapshot from the start of its period.  A
	 * knob written since re-armed the conditions (osn top restoring the
	 * knobs as it exits): a threshold now off, or now higher, must not
	 * turn tracing off behind the writer's back.
	 */
	threshold_ns = osn_stop_threshold_ns(reason);
	if (!threshold_ns || value_ns <= threshold_ns)
		return;

	osn_stop_trip(reason, value_ns, threshold_ns,
		      test_bit(OSN_OPTION_PANIC_ON_STOP, &cfg->options));
}

/* ---- the sampling window ---- */

/* Before the window opens: probes write the stats only inside it. */
void osn_period_begin(struct osn_cpu *oc, struct osn_period *p)
{
	memset(p, 0, sizeof(*p));
	p->min_gap_ns = U64_MAX;
	memcpy(p->base, oc->stat, sizeof(p->base));
}

/* A gap >= threshold: record it, emit it, maybe stop tracing. */
noinline void osn_period_sample(const struct osn_config *cfg,
				struct osn_period *p, u64 start_ns, u64 gap_ns,
				unsigned long interference)
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

	trace_sample_threshold(start_ns, gap_ns, interference);

	if (cfg->stop_single_ns && gap_ns > cfg->stop_single_ns)
		osn_stop_fire(cfg, OSN_STOP_SINGLE, gap_ns, cfg->stop_single_ns);
}

/* After the window closed: the osn:sample event, maybe stop tracing. */
void osn_period_end(struct osn_cpu *oc, const struct osn_config *cfg,
		    const struct osn_period *p, u64 runtime_ns)
{
	const struct osn_class_stat *now = oc->stat;
	const struct osn_class_stat *base = p->base;
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
		.self		= p->self_ns,
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

	trace_sample(&s);
	osn_tracer_sample(&s);

	if (cfg->stop_total_ns && s.noise > cfg->stop_total_ns)
		osn_stop_fire(cfg, OSN_STOP_TOTAL, s.noise, cfg->stop_total_ns);
}
