// SPDX-License-Identifier: GPL-2.0
/*
 * osn_probes.c - who made the noise: probes on the kernel's IRQ, softirq,
 * scheduler and NMI tracepoints, plus an NMI handler.
 *
 * The tracepoints' __tracepoint_* symbols are not exported, so they are
 * found by name with for_each_kernel_tracepoint() at load and attached with
 * tracepoint_probe_register() while a run is active.
 *
 * Each probe is thin: it checks that its CPU is being measured (the
 * workload's sampling window, or the whole run on a selected CPU without
 * OSNOISE_WORKLOAD), hands the entry or exit to the accounting
 * (osn_account.c) and emits the source's event.
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
#include <linux/error-injection.h>

#include "osn_internal.h"
#include "osn_account.h"
#include "osn_cause.h"
#include "osn_trace.h"

/* ---- hard IRQs: device handlers and x86 system vectors (osn_arch.h) ---- */

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
	trace_irq_noise(vector, desc, start, duration);
	osn_source_push(&oc->softirq, duration);
	osn_source_push(&oc->thread, duration);
}

/* A pseudo-NMI's handler (arm64) is not an IRQ: see osn_arch.h. */
static void osn_probe_irq_handler_entry(void *data, int irq,
					struct irqaction *action)
{
	if (osn_irq_probe_in_nmi())
		return;
	osn_irq_entry();
}

static void osn_probe_irq_handler_exit(void *data, int irq,
				       struct irqaction *action, int ret)
{
	if (osn_irq_probe_in_nmi())
		return;
	osn_irq_exit(irq, action->name ?: "irq");
}

static void __maybe_unused osn_probe_vector_entry(void *data, int vector)
{
	osn_irq_entry();
}

/* data is the vector's name, as registered. */
static void __maybe_unused osn_probe_vector_exit(void *data, int vector)
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
	if (!osn_tlat_reports(oc, &oc->softirq))
		return;

	duration = osn_source_exit(oc, &oc->softirq, OSN_CLASS_SOFTIRQ);
	trace_softirq_noise(vec_nr, start, duration);
	osn_source_push(&oc->thread, duration);
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

static void osn_probe_sched_switch(void *data, OSN_SCHED_SWITCH_ARGS)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	u64 start_ns, duration_ns;
	bool ended;

	if (!osn_cpu_active(oc))
		return;

	ended = osn_thread_switch(oc, osn_is_noise_task(oc, prev) &&
				  osn_tlat_reports(oc, &oc->thread),
				  osn_is_noise_task(oc, next),
				  &start_ns, &duration_ns);
	osn_flush_nmi(oc);
	if (ended)
		trace_thread_noise(prev, start_ns, duration_ns);
	if (trace_noise_cause_enabled() && osn_is_noise_task(oc, next))
		osn_cause_thread_in(oc, next);
}

/*
 * ---- NMIs (accounted by osn_account.c, which explains how; x86 only:
 * osn_arch.h says why arm64's are not measured) ----
 */

static int __maybe_unused osn_nmi_handler(unsigned int type,
					  struct pt_regs *regs)
{
	osn_nmi_begin(this_cpu_ptr(&osn_cpu_state), osn_nmi_seq());
	return OSN_NMI_DONE;
}

static void __maybe_unused osn_probe_nmi_handler(void *data, void *handler,
						 s64 delta_ns, int handled)
{
	if (handler == (void *)osn_nmi_handler || delta_ns <= 0)
		return;
	osn_nmi_handler_ran(this_cpu_ptr(&osn_cpu_state), osn_nmi_seq(),
			    delta_ns);
}

#define OSN_NMI_NAME	"osn"
static bool osn_nmi_hooked;

static int osn_nmi_hook(void)
{
	int ret;

	if (!OSN_HAVE_NMI_HANDLER)
		return 0;
	ret = osn_nmi_register(osn_nmi_handler, OSN_NMI_NAME);
	osn_nmi_hooked = !ret;
	return ret;
}

static void osn_nmi_unhook(void)
{
	if (!osn_nmi_hooked)
		return;
	/* Waits for a running handler (synchronize_rcu). */
	osn_nmi_unregister(OSN_NMI_NAME);
	osn_nmi_hooked = false;
}

/* ---- the table of tracepoints ---- */

enum osn_hook_kind {
	OSN_HOOK_REQUIRED,	/* present on every supported kernel */
	OSN_HOOK_OPTIONAL,	/* hooked when the kernel has it */
	OSN_HOOK_NO_RT,		/* required, but not hooked on PREEMPT_RT */
	/*
	 * Optional, and hooked apart from the others, only while
	 * osn:noise_cause is enabled (osn_cause.c).
	 */
	OSN_HOOK_CAUSE,
};

/* One tracepoint and osn's probe on it. */
struct osn_hook_point {
	const char		*name;
	void			*probe;
	struct tracepoint	*tp;
	bool			hooked;
};

/*
 * One row per noise source: its entry and exit tracepoints (exit.name is
 * NULL for a single tracepoint).  Both halves of a pair are hooked or
 * neither: an entry without its exit would open sources that never end.
 */
struct osn_hook {
	struct osn_hook_point	entry;
	struct osn_hook_point	exit;
	void			*data;	/* the probes' first argument */
	enum osn_hook_kind	kind;
};

#define OSN_HOOK_ONE(n, p, k)						\
	{ .entry = { .name = n, .probe = p }, .kind = k }
#define OSN_HOOK_CAUSE(n, p)	OSN_HOOK_ONE(n, p, OSN_HOOK_CAUSE)
#define OSN_HOOK_PAIR(n_entry, p_entry, n_exit, p_exit, k)		\
	{ .entry = { .name = n_entry, .probe = p_entry },		\
	  .exit = { .name = n_exit, .probe = p_exit }, .kind = k }
/* An x86 system vector (osn_arch.h): its name is the data its probes get. */
#define OSN_VECTOR(v)							\
	{ .entry = { .name = #v "_entry", .probe = osn_probe_vector_entry }, \
	  .exit = { .name = #v "_exit", .probe = osn_probe_vector_exit },	\
	  .data = #v, .kind = OSN_HOOK_OPTIONAL }

static struct osn_hook osn_hooks[] = {
	OSN_HOOK_PAIR("irq_handler_entry", osn_probe_irq_handler_entry,
		      "irq_handler_exit", osn_probe_irq_handler_exit,
		      OSN_HOOK_REQUIRED),
	OSN_ARCH_IRQ_HOOKS
	OSN_HOOK_PAIR("softirq_entry", osn_probe_softirq_entry,
		      "softirq_exit", osn_probe_softirq_exit, OSN_HOOK_NO_RT),
	OSN_HOOK_ONE("sched_switch", osn_probe_sched_switch, OSN_HOOK_REQUIRED),
	OSN_ARCH_NMI_HOOKS
	/* The causes: origins first, so that none is missed at hook time. */
	OSN_HOOK_CAUSE("sched_waking", osn_probe_cause_waking),
	OSN_HOOK_CAUSE("workqueue_queue_work", osn_probe_cause_queue_work),
	OSN_HOOK_CAUSE("timer_start", osn_probe_cause_timer_start),
#if OSN_HAVE_CSD_TRACEPOINTS
	OSN_HOOK_CAUSE("csd_queue_cpu", osn_probe_cause_csd_queue),
	OSN_HOOK_CAUSE("csd_function_entry", osn_probe_cause_csd_function),
#endif
#if OSN_HAVE_IPI_SEND_TRACEPOINT
	OSN_HOOK_CAUSE("ipi_send_cpu", osn_probe_cause_ipi_send),
	/* After the vector's own probe (hooked first): the noise is timed. */
	OSN_HOOK_CAUSE("reschedule_entry", osn_probe_cause_resched),
#endif
	OSN_HOOK_CAUSE("workqueue_execute_start", osn_probe_cause_execute_work),
	OSN_HOOK_CAUSE("workqueue_execute_end", osn_probe_cause_execute_end),
	OSN_HOOK_CAUSE("timer_expire_entry", osn_probe_cause_timer_expire),
	OSN_HOOK_CAUSE("hrtimer_expire_entry", osn_probe_cause_hrtimer_expire),
	OSN_HOOK_CAUSE("tlb_flush", osn_probe_cause_tlb_flush),
};

/* The n-th tracepoint of the table, entries before exits of a row. */
#define OSN_NR_POINTS	(2 * ARRAY_SIZE(osn_hooks))

static struct osn_hook_point *osn_point(unsigned int n)
{
	struct osn_hook *h = &osn_hooks[n / 2];

	return n % 2 ? &h->exit : &h->entry;
}

static void osn_find_tracepoint(struct tracepoint *tp, void *priv)
{
	unsigned int n;

	for (n = 0; n < OSN_NR_POINTS; n++) {
		struct osn_hook_point *pt = osn_point(n);

		if (pt->name && !strcmp(tp->name, pt->name))
			pt->tp = tp;
	}
}

/* Whether the kernel has every tracepoint of the row. */
static bool osn_hook_found(const struct osn_hook *h)
{
	return h->entry.tp && (!h->exit.name || h->exit.tp);
}

/* Hook neither half of the row. */
static void osn_hook_drop(struct osn_hook *h)
{
	h->entry.tp = NULL;
	h->exit.tp = NULL;
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

	/* A whole class this architecture cannot measure (osn_arch.h). */
	if (!OSN_HAVE_NMI_HANDLER)
		len = scnprintf(osn_unmeasured, sizeof(osn_unmeasured), "nmi");
	for (i = 0; i < ARRAY_SIZE(osn_hooks); i++) {
		const struct osn_hook *h = &osn_hooks[i];

		if (h->entry.tp || h->kind != OSN_HOOK_OPTIONAL)
			continue;
		len += scnprintf(osn_unmeasured + len,
				 sizeof(osn_unmeasured) - len, "%s%s",
				 len ? "," : "", h->entry.name);
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
			osn_hook_drop(h);
			continue;
		}
		if (osn_hook_found(h))
			continue;
		if (h->kind != OSN_HOOK_OPTIONAL && h->kind != OSN_HOOK_CAUSE) {
			pr_err("tracepoint %s not found\n",
			       h->entry.tp ? h->exit.name : h->entry.name);
			return -ENOENT;
		}
		osn_hook_drop(h);
	}
	osn_note_unmeasured();
	return 0;
}

/* Whether the n-th tracepoint belongs to the cause probes. */
static bool osn_point_is_cause(unsigned int n)
{
	return osn_hooks[n / 2].kind == OSN_HOOK_CAUSE;
}

/* Unhook the tracepoints of one group hooked so far, last first. */
static void osn_tracepoints_unhook(bool causes)
{
	int n;

	for (n = OSN_NR_POINTS - 1; n >= 0; n--) {
		struct osn_hook_point *pt = osn_point(n);

		if (!pt->hooked || osn_point_is_cause(n) != causes)
			continue;
		WARN_ON_ONCE(tracepoint_probe_unregister(pt->tp, pt->probe,
							 osn_hooks[n / 2].data));
		pt->hooked = false;
	}

	/* Probes may still run on other CPUs: wait before state is reused. */
	tracepoint_synchronize_unregister();
}

/* Hook every found tracepoint of one group; all or nothing. */
static int osn_tracepoints_hook(bool causes)
{
	unsigned int n;
	int ret;

	for (n = 0; n < OSN_NR_POINTS; n++) {
		struct osn_hook_point *pt = osn_point(n);

		if (!pt->tp || osn_point_is_cause(n) != causes)
			continue;
		ret = tracepoint_probe_register(pt->tp, pt->probe,
						osn_hooks[n / 2].data);
		if (ret) {
			pr_err("cannot hook %s: %d\n", pt->name, ret);
			osn_tracepoints_unhook(causes);
			return ret;
		}
		pt->hooked = true;
	}
	return 0;
}

void osn_probes_unhook(void)
{
	osn_nmi_unhook();
	osn_tracepoints_unhook(false);
}

/*
 * Hook every found tracepoint but the causes', then the NMI handler; all
 * or nothing.  fail_function may fail it (tests/debug/guest/faults/).
 */
noinline int osn_probes_hook(void)
{
	int ret;

	ret = osn_tracepoints_hook(false);
	if (ret)
		return ret;
	ret = osn_nmi_hook();
	if (ret) {
		pr_err("cannot register the NMI handler: %d\n", ret);
		osn_tracepoints_unhook(false);
	}
	return ret;
}
ALLOW_ERROR_INJECTION(osn_probes_hook, ERRNO);

/* The cause probes (osn_cause.c), while osn:noise_cause is enabled. */
int osn_causes_hook(void)
{
	osn_cause_reset();
	return osn_tracepoints_hook(true);
}

void osn_causes_unhook(void)
{
	osn_tracepoints_unhook(true);
}
