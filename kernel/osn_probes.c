// SPDX-License-Identifier: GPL-2.0
/*
 * osn_probes.c - who made the noise: probes on the kernel's IRQ, softirq,
 * scheduler and NMI tracepoints, plus an NMI handler.
 *
 * The tracepoints' __tracepoint_* symbols are not exported, so they are
 * found by name with for_each_kernel_tracepoint() at load and attached with
 * tracepoint_probe_register() while a run is active.
 *
 * Each noise source entry bumps the CPU's interference counter (so that
 * the workload knows a gap was interfered with) and stamps its start; each
 * exit computes the source's interference-free duration and pushes the
 * start of every source it interrupted forward by that duration (NMI in
 * IRQ in softirq in thread), as upstream osnoise does.  Everything is
 * per CPU and only ever touched from that CPU; time reads that an NMI
 * could split are guarded by the interference counter and retried.
 *
 * Probes do nothing unless the CPU's workload is in its sampling window
 * (or, without OSNOISE_WORKLOAD, the CPU is selected).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <asm/nmi.h>
#include <asm/hardirq.h>

#include "osn_internal.h"
#include "osn_compat.h"
#include "osn_trace.h"

/* Probes act only while the CPU's workload samples. */
static inline bool osn_cpu_active(struct osn_cpu *oc)
{
	return READ_ONCE(oc->sampling);
}

/* ---- time bookkeeping shared by all sources ---- */

/* Stamp *time_ns with no NMI split between the clock read and the store. */
static void osn_set_guarded_time(struct osn_cpu *oc, u64 *time_ns)
{
	long count;

	do {
		count = local_read(&oc->int_counter);
		barrier();
		WRITE_ONCE(*time_ns, osn_time_get());
		barrier();
	} while (count != local_read(&oc->int_counter));
}

/* Now minus *delta_start_ns, consistent with any NMI pushing the start. */
static u64 osn_guarded_duration(struct osn_cpu *oc, u64 *delta_start_ns)
{
	long count;
	s64 duration;

	do {
		count = local_read(&oc->int_counter);
		barrier();
		duration = osn_time_get() - READ_ONCE(*delta_start_ns);
		barrier();
	} while (count != local_read(&oc->int_counter));

	return duration > 0 ? duration : 0;
}

/* A source that was interrupted for duration_ns: exclude that time. */
static inline void osn_push_start(struct osn_source *src, u64 duration_ns)
{
	if (OSN_MUTANT(NO_NESTED))	/* mutant: nested noise not subtracted */
		return;
	if (src->delta_start_ns)
		src->delta_start_ns += duration_ns;
}

static void osn_source_entry(struct osn_cpu *oc, struct osn_source *src,
			     enum osn_class class)
{
	src->arrival_ns = osn_time_get();
	osn_set_guarded_time(oc, &src->delta_start_ns);
	oc->stat[class].count++;
	local_inc(&oc->int_counter);
}

/*
 * End of a source: its interference-free duration, accounted to its class.
 * Returns 0 for an exit whose entry was not seen (sampling began inside).
 */
static u64 osn_source_exit(struct osn_cpu *oc, struct osn_source *src,
			   enum osn_class class)
{
	u64 duration;

	if (!src->delta_start_ns)
		return 0;

	duration = osn_guarded_duration(oc, &src->delta_start_ns);
	/* Mutant: hard IRQs longer than 100 us left out of the statistics. */
	if (!(OSN_MUTANT(IRQ_LONG_DROPPED) && class == OSN_CLASS_IRQ &&
	      duration > 100 * NSEC_PER_USEC))
		oc->stat[class].time_ns += duration;
	src->delta_start_ns = 0;
	return duration;
}

void osn_cpu_reset(struct osn_cpu *oc)
{
	WRITE_ONCE(oc->sampling, false);
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
}

/* ---- hard IRQs: device handlers and x86 system vectors ---- */

static void osn_irq_entry(void)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);

	if (!osn_cpu_active(oc))
		return;
	osn_source_entry(oc, &oc->irq, OSN_CLASS_IRQ);
}

static void osn_irq_exit(int vector, const char *desc)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	u64 start = oc->irq.arrival_ns;
	u64 duration;

	if (!osn_cpu_active(oc) || !oc->irq.delta_start_ns)
		return;

	duration = osn_source_exit(oc, &oc->irq, OSN_CLASS_IRQ);
	osn_flush_nmi(oc);
	if (osn_event_on(irq_noise))
		trace_irq_noise(vector, desc, start, duration);
	osn_push_start(&oc->softirq, duration);
	osn_push_start(&oc->thread, duration);
}

static void osn_probe_irq_handler_entry(void *data, int irq,
					struct irqaction *action)
{
	osn_irq_entry();
}

static void osn_probe_irq_handler_exit(void *data, int irq,
				       struct irqaction *action, int ret)
{
	osn_irq_exit(irq, action->name ?: "irq");
}

static void osn_probe_vector_entry(void *data, int vector)
{
	osn_irq_entry();
}

/* data is the vector's name, as registered. */
static void osn_probe_vector_exit(void *data, int vector)
{
	osn_irq_exit(vector, data);
}

/* ---- softirqs (not on PREEMPT_RT, where they are threads) ---- */

static void osn_probe_softirq_entry(void *data, unsigned int vec_nr)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);

	if (!osn_cpu_active(oc))
		return;
	osn_source_entry(oc, &oc->softirq, OSN_CLASS_SOFTIRQ);
}

static void osn_probe_softirq_exit(void *data, unsigned int vec_nr)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	u64 start = oc->softirq.arrival_ns;
	u64 duration;

	if (!osn_cpu_active(oc) || !oc->softirq.delta_start_ns)
		return;

	/* Mutant: softirq time accounted as IRQ time. */
	duration = osn_source_exit(oc, &oc->softirq,
				   OSN_MUTANT(SOFTIRQ_AS_IRQ) ? OSN_CLASS_IRQ :
				   OSN_CLASS_SOFTIRQ);
	if (osn_event_on(softirq_noise))
		trace_softirq_noise(vec_nr, start, duration);
	osn_push_start(&oc->thread, duration);
}

/* ---- threads ---- */

/*
 * With a workload, every other task that runs during its sampling window
 * is noise.  Without one, every task but the idle task is reported.
 */
static bool osn_is_noise_task(struct osn_cpu *oc, struct task_struct *t)
{
	struct task_struct *workload = READ_ONCE(oc->workload);

	if (workload)
		return t != workload;
	return !is_idle_task(t);
}

/*
 * One clock read serves as the end of prev and the start of next: the
 * switch itself is then not lost between two sources, and next's start is
 * not delayed by the emission of prev's event.  Interrupts are off here;
 * the interference counter guards the read against NMIs.
 */
static void osn_probe_sched_switch(void *data, OSN_SCHED_SWITCH_ARGS)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	u64 now, start = 0, duration = 0;
	bool prev_noise, ended = false;
	long count;

	if (!osn_cpu_active(oc))
		return;

	prev_noise = osn_is_noise_task(oc, prev) && oc->thread.delta_start_ns;
	do {
		count = local_read(&oc->int_counter);
		barrier();
		now = osn_time_get();
		if (prev_noise)
			duration = now - READ_ONCE(oc->thread.delta_start_ns);
		barrier();
	} while (count != local_read(&oc->int_counter));

	if (prev_noise) {
		start = oc->thread.arrival_ns;
		if ((s64)duration < 0)
			duration = 0;
		oc->stat[OSN_CLASS_THREAD].time_ns += duration;
		WRITE_ONCE(oc->thread.delta_start_ns, 0);
		ended = true;
	}

	if (osn_is_noise_task(oc, next)) {
		oc->thread.arrival_ns = now;
		WRITE_ONCE(oc->thread.delta_start_ns, now);
		oc->stat[OSN_CLASS_THREAD].count++;
		local_inc(&oc->int_counter);
	}

	osn_flush_nmi(oc);
	if (ended && osn_event_on(thread_noise))
		trace_thread_noise(prev, start, duration);
}

/* ---- NMIs ---- */

/*
 * A module cannot hook NMI entry/exit.  It can register an NMI handler,
 * which runs on every NMI that reaches the NMI_LOCAL chain, and see the
 * nmi:nmi_handler tracepoint, which reports each handler's duration after
 * it ran.  irq_stat.__nmi_count, incremented at every NMI entry, tells one
 * NMI from the next.  The NMI's duration is the sum of its handlers':
 *  - handlers before osn's have reported theirs when osn's handler runs:
 *    it starts the NMI's record with their sum;
 *  - handlers after osn's (registered later) add theirs from the probe.
 * The sources the NMI interrupted are pushed forward as each part is
 * known.  The record is emitted as nmi_noise once the NMI is over, by the
 * next probe or workload iteration on the CPU (osn_flush_nmi()).
 */

static void osn_nmi_account(struct osn_cpu *oc, u64 duration_ns)
{
	oc->stat[OSN_CLASS_NMI].time_ns += duration_ns;
	osn_push_start(&oc->irq, duration_ns);
	osn_push_start(&oc->softirq, duration_ns);
	osn_push_start(&oc->thread, duration_ns);
}

static int osn_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	unsigned int seq = osn_nmi_seq();
	u64 before_ns;

	local_inc(&oc->int_counter);

	if (oc->nmi_done_seq == seq)
		return NMI_DONE;
	oc->nmi_done_seq = seq;

	if (!osn_cpu_active(oc))
		return NMI_DONE;

	before_ns = oc->nmi_seq == seq ? oc->nmi_handlers_ns : 0;
	oc->stat[OSN_CLASS_NMI].count++;
	osn_nmi_account(oc, before_ns);

	WRITE_ONCE(oc->nmi_pend_start_ns, osn_time_get() - before_ns);
	WRITE_ONCE(oc->nmi_pend_ns, before_ns);
	barrier();
	WRITE_ONCE(oc->nmi_pend_seq, seq);
	return NMI_DONE;
}

static void osn_probe_nmi_handler(void *data, void *handler, s64 delta_ns,
				  int handled)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	unsigned int seq = osn_nmi_seq();

	if (handler == (void *)osn_nmi_handler || delta_ns <= 0)
		return;

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
 * it: the cmpxchg makes exactly one caller emit a record, and a new NMI
 * arriving while the record is read replaces it (the old one is then only
 * counted in the sample, not emitted).
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

	if (osn_event_on(nmi_noise))
		trace_nmi_noise(start_ns, duration_ns);
}

#define OSN_NMI_NAME	"osn"
static bool osn_nmi_hooked;

static int osn_nmi_hook(void)
{
	int ret;

	ret = register_nmi_handler(NMI_LOCAL, osn_nmi_handler, 0, OSN_NMI_NAME);
	osn_nmi_hooked = !ret;
	return ret;
}

static void osn_nmi_unhook(void)
{
	if (!osn_nmi_hooked)
		return;
	/* Waits for a running handler (synchronize_rcu). */
	unregister_nmi_handler(NMI_LOCAL, OSN_NMI_NAME);
	osn_nmi_hooked = false;
}

/* ---- the table of tracepoints ---- */

enum osn_hook_kind {
	OSN_HOOK_REQUIRED,	/* present on every supported kernel */
	OSN_HOOK_OPTIONAL,	/* hooked when the kernel has it */
	OSN_HOOK_NO_RT,		/* required, but not hooked on PREEMPT_RT */
};

struct osn_hook {
	const char		*name;
	void			*probe;
	void			*data;
	enum osn_hook_kind	kind;
	/* Entry/exit pairs share a pair id: both are hooked or neither. */
	int			pair;
	struct tracepoint	*tp;
	bool			hooked;
};

#define OSN_HOOK(n, p, k, pr) \
	{ .name = n, .probe = p, .kind = k, .pair = pr }
#define OSN_VECTOR(v, pr)						\
	{ .name = #v "_entry", .probe = osn_probe_vector_entry,		\
	  .data = #v, .kind = OSN_HOOK_OPTIONAL, .pair = pr },		\
	{ .name = #v "_exit", .probe = osn_probe_vector_exit,		\
	  .data = #v, .kind = OSN_HOOK_OPTIONAL, .pair = pr }

static struct osn_hook osn_hooks[] = {
	OSN_HOOK("irq_handler_entry", osn_probe_irq_handler_entry, OSN_HOOK_REQUIRED, 1),
	OSN_HOOK("irq_handler_exit", osn_probe_irq_handler_exit, OSN_HOOK_REQUIRED, 1),
	OSN_VECTOR(local_timer, 2),
	OSN_VECTOR(reschedule, 3),
	OSN_VECTOR(call_function, 4),
	OSN_VECTOR(call_function_single, 5),
	OSN_VECTOR(irq_work, 6),
	OSN_VECTOR(thermal_apic, 7),
	OSN_VECTOR(threshold_apic, 8),
	OSN_VECTOR(deferred_error_apic, 9),
	OSN_VECTOR(x86_platform_ipi, 10),
	OSN_VECTOR(error_apic, 11),
	OSN_VECTOR(spurious_apic, 12),
	OSN_HOOK("softirq_entry", osn_probe_softirq_entry, OSN_HOOK_NO_RT, 13),
	OSN_HOOK("softirq_exit", osn_probe_softirq_exit, OSN_HOOK_NO_RT, 13),
	OSN_HOOK("sched_switch", osn_probe_sched_switch, OSN_HOOK_REQUIRED, 0),
	OSN_HOOK("nmi_handler", osn_probe_nmi_handler, OSN_HOOK_OPTIONAL, 0),
};

static void osn_find_tracepoint(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(osn_hooks); i++)
		if (!strcmp(tp->name, osn_hooks[i].name))
			osn_hooks[i].tp = tp;
}

/* The exit half of an entry/exit pair. */
static bool str_has_suffix_exit(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, "_exit");
}

/* Drop the half of a pair whose other half the kernel lacks. */
static void osn_drop_broken_pairs(void)
{
	int i, j;

	for (i = 0; i < ARRAY_SIZE(osn_hooks); i++) {
		if (!osn_hooks[i].pair || osn_hooks[i].tp)
			continue;
		for (j = 0; j < ARRAY_SIZE(osn_hooks); j++)
			if (osn_hooks[j].pair == osn_hooks[i].pair)
				osn_hooks[j].tp = NULL;
	}
}

/*
 * What this kernel does not let osn see: the optional tracepoints it
 * lacks, comma-separated (entry/exit pairs by their entry's name), read
 * only.  Time spent in them is not attributed and shows as hardware noise;
 * the CLI prints the list in its header.
 */
static char osn_unmeasured[256];
module_param_string(unmeasured, osn_unmeasured, sizeof(osn_unmeasured), 0444);
MODULE_PARM_DESC(unmeasured, "tracepoints this kernel lacks (their time shows as hardware noise)");

static void osn_note_unmeasured(void)
{
	size_t len = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(osn_hooks); i++) {
		const struct osn_hook *h = &osn_hooks[i];

		if (h->tp || h->kind != OSN_HOOK_OPTIONAL ||
		    str_has_suffix_exit(h->name))
			continue;
		len += scnprintf(osn_unmeasured + len,
				 sizeof(osn_unmeasured) - len, "%s%s",
				 len ? "," : "", h->name);
	}
	if (len)
		pr_info("this kernel has no tracepoint for: %s; time spent there is not attributed (it shows as hardware noise)\n",
			osn_unmeasured);
}

/* At load: find every tracepoint; fail if a required one is missing. */
int osn_probes_init(void)
{
	int i;

	for_each_kernel_tracepoint(osn_find_tracepoint, NULL);

	for (i = 0; i < ARRAY_SIZE(osn_hooks); i++) {
		struct osn_hook *h = &osn_hooks[i];

		if (h->kind == OSN_HOOK_NO_RT && osn_softirqs_are_threads()) {
			h->tp = NULL;
			continue;
		}
		if (!h->tp && h->kind != OSN_HOOK_OPTIONAL) {
			pr_err("tracepoint %s not found\n", h->name);
			return -ENOENT;
		}
	}
	osn_drop_broken_pairs();
	osn_note_unmeasured();
	return 0;
}

void osn_probes_unhook(void)
{
	int i;

	osn_nmi_unhook();

	for (i = ARRAY_SIZE(osn_hooks) - 1; i >= 0; i--) {
		struct osn_hook *h = &osn_hooks[i];

		if (!h->hooked)
			continue;
		WARN_ON_ONCE(tracepoint_probe_unregister(h->tp, h->probe,
							 h->data));
		h->hooked = false;
	}

	/* Probes may still run on other CPUs: wait before state is reused. */
	tracepoint_synchronize_unregister();
}

/* Hook every found tracepoint, then the NMI handler; all or nothing. */
int osn_probes_hook(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(osn_hooks); i++) {
		struct osn_hook *h = &osn_hooks[i];

		if (!h->tp)
			continue;
		ret = tracepoint_probe_register(h->tp, h->probe, h->data);
		if (ret) {
			pr_err("cannot hook %s: %d\n", h->name, ret);
			goto unwind;
		}
		h->hooked = true;
	}

	ret = osn_nmi_hook();
	if (ret) {
		pr_err("cannot register the NMI handler: %d\n", ret);
		goto unwind;
	}
	return 0;

unwind:
	for (i--; i >= 0; i--) {
		struct osn_hook *h = &osn_hooks[i];

		if (!h->hooked)
			continue;
		tracepoint_probe_unregister(h->tp, h->probe, h->data);
		h->hooked = false;
	}
	tracepoint_synchronize_unregister();
	return ret;
}
