// SPDX-License-Identifier: GPL-2.0
/*
 * osn_main.c - osn.ko init/exit and the enable state machine.
 *
 * The measurement runs while at least one osn event is enabled anywhere
 * (a tracefs instance, the top-level buffer, perf).  The events'
 * TRACE_EVENT_FN callbacks count the enabled events; they run with
 * tracepoints_mutex held, so they must not register tracepoint probes or
 * stop kthreads themselves (both would deadlock on that mutex or on a
 * thread tracing through it).  They only kick osn_work, which compares
 * the wanted state (count > 0) with the actual one under osn_run_lock and
 * starts or stops.  Because the work re-reads the count, any burst of
 * enable/disable ends in the state of the last write.
 *
 * Starting hooks the probes, then sets up a dynamic CPU hotplug state
 * whose callbacks start (online) and stop (offline) the workload of each
 * selected CPU, including for the CPUs online at setup.  Stopping undoes
 * both in reverse order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/tracepoint.h>
#include <linux/wait.h>
#include <linux/error-injection.h>

#include "osn_internal.h"
#include "osn_account.h"

/* CPUs selected for the current run; stable while osn_running. */
static struct cpumask osn_run_cpus;
/* OSNOISE_WORKLOAD as it was when the current run started. */
static bool osn_run_workload;
/* The mode knob as it was when the current run started. */
static enum osn_mode osn_run_mode;
/* timerlat without its threads: user space measures (/dev/osn_timerlat). */
static bool osn_run_tlat_user;

/* Number of osn events enabled, over all instances and perf. */
static atomic_t osn_enabled_events = ATOMIC_INIT(0);
/* How many of them are osn:noise_cause (its probes are hooked apart). */
static atomic_t osn_cause_events = ATOMIC_INIT(0);

/* Serializes start and stop; protects the fields below it. */
static DEFINE_MUTEX(osn_run_lock);
static bool osn_running;
/*
 * Read-only: whether a run is on, its probes hooked and its threads up.
 * A run starts in osn_work, after the event that asks for it is enabled
 * (a second later on PREEMPT_RT under TCG): a tool that counts noise from
 * the probes alone (osn monitor) says it is up only once this is Y.
 */
module_param_named(running, osn_running, bool, 0444);
MODULE_PARM_DESC(running, "Y once a run is on: its probes hooked, its threads up");
static int osn_hp_state;
static bool osn_causes_hooked;
/*
 * Read-only: whether the cause probes are hooked.  They are hooked in
 * osn_work, after the event that starts a run is enabled (before the
 * run's threads start, when it is enabled first): a tool that wants the
 * culprits from its first noise waits for this (on PREEMPT_RT under TCG,
 * over a second after the events went on).
 */
module_param_named(causes_live, osn_causes_hooked, bool, 0444);
MODULE_PARM_DESC(causes_live, "Y once the cause probes are hooked for the run (osn:noise_cause enabled)");
/* Set while cpuhp_setup_state() runs our online callback on every CPU. */
static bool osn_hp_in_setup;

/*
 * Why the last start failed (a negative errno), 0 once a start worked:
 * the writer that enabled the events cannot get it, the start runs in a
 * worker.  The CLI reads it when no period arrives.
 */
static int osn_start_error;
module_param_named(start_error, osn_start_error, int, 0444);
MODULE_PARM_DESC(start_error, "why the last start failed (negative errno), 0 if it worked");

/* A knob that needs new threads (cpus, OSNOISE_WORKLOAD) was written. */
static unsigned long osn_restart_wanted;

static void osn_work_fn(struct work_struct *work);
static DECLARE_WORK(osn_work, osn_work_fn);

/*
 * osn_work may only be queued between the end of init and the start of
 * exit: an event callback or knob write outside that window must not leave
 * a work item pointing into a module being unloaded.
 */
static DEFINE_SPINLOCK(osn_kick_lock);
static bool osn_accepting;

static void osn_kick(void)
{
	spin_lock(&osn_kick_lock);
	if (osn_accepting)
		queue_work(osn_unbound_wq, &osn_work);
	spin_unlock(&osn_kick_lock);
}

int osn_event_reg(void)
{
	if (atomic_inc_return(&osn_enabled_events) == 1) {
		/* A new run (or a re-enable) re-arms the stop conditions. */
		osn_stop_rearm();
		osn_kick();
	}
	return 0;
}

void osn_event_unreg(void)
{
	if (atomic_dec_return(&osn_enabled_events) == 0)
		osn_kick();
}

/*
 * osn:noise_cause counts as an osn event (it starts a run), and its
 * probes are hooked while it is enabled anywhere during a run.
 */
int osn_cause_reg(void)
{
	atomic_inc(&osn_cause_events);
	osn_kick();
	return osn_event_reg();
}

void osn_cause_unreg(void)
{
	atomic_dec(&osn_cause_events);
	osn_event_unreg();
	osn_kick();
}

/*
 * The paused parameter: Y makes the workload threads close their window
 * at the next clock read and sleep; the probes stay hooked and the run
 * stays on.  A tool writes it once its collection has ended, before it
 * takes its triggers and events off: each of those patches kernel text
 * (static keys and calls), which waits until every CPU has taken an IPI,
 * and a CPU that a workload thread keeps busy takes it late.  Disabling
 * the osn events of a 16-vCPU guest under TCG took 14.2 s with 15
 * threads spinning and 0.03 s without.  N wakes the threads; the end and
 * the start of a run clear it, so that it reads N once the tool's
 * instance is gone, and a tool that died paused leaves no trace.
 */
static bool osn_paused;
static DECLARE_WAIT_QUEUE_HEAD(osn_pause_wq);

bool osn_is_paused(void)
{
	return READ_ONCE(osn_paused);
}

void osn_pause_wait(void)
{
	/*
	 * Not paused: no wait_event_interruptible(), whose might_sleep() is
	 * a preemption point on a voluntary-preemption kernel: a task woken
	 * as a window ends would run there, between two windows, unmeasured
	 * (osn_window_owes_resched()).
	 */
	if (!osn_is_paused())
		return;
	/* kthread_stop() wakes the task itself: no wake-up of ours needed. */
	wait_event_interruptible(osn_pause_wq,
				 !READ_ONCE(osn_paused) || kthread_should_stop());
}

static int osn_paused_set(const char *val, const struct kernel_param *kp)
{
	bool paused;
	int ret;

	ret = kstrtobool(val, &paused);
	if (ret)
		return ret;
	WRITE_ONCE(osn_paused, paused);
	if (!paused)
		wake_up_all(&osn_pause_wq);
	return 0;
}

static int osn_paused_get(char *buffer, const struct kernel_param *kp)
{
	return sprintf(buffer, "%c\n", READ_ONCE(osn_paused) ? 'Y' : 'N');
}

static const struct kernel_param_ops osn_paused_ops = {
	.set = osn_paused_set,
	.get = osn_paused_get,
};
module_param_cb(paused, &osn_paused_ops, NULL, 0644);
MODULE_PARM_DESC(paused, "Y: the workload threads sleep, the run stays on; N wakes them; the end or start of a run clears it");

static void osn_request_restart(void)
{
	set_bit(0, &osn_restart_wanted);
	osn_kick();
}

/* ---- per-CPU start/stop, called by the hotplug state ---- */

/*
 * The workload thread of a CPU, not started yet.  Listed for fail_function
 * (ALLOW_ERROR_INJECTION): the debug kernel's tests make it fail as a
 * failed kthread creation would, from the worker and CPU hotplug threads
 * that a writer's fail-nth cannot reach (tests/debug/guest/faults/).  A
 * list entry; no cost otherwise.
 */
static noinline struct task_struct *osn_workload_create(struct osn_cpu *oc,
							 unsigned int cpu)
{
	if (osn_run_mode == OSN_MODE_TIMERLAT_RUN)
		return osn_kthread_create_on_cpu(osn_timerlat_fn, oc, cpu,
						 OSN_TLAT_THREAD_PREFIX "%u");
	return osn_kthread_create_on_cpu(osn_workload_fn, oc, cpu,
					 OSN_THREAD_PREFIX "%u");
}
ALLOW_ERROR_INJECTION(osn_workload_create, ERRNO);

static int osn_workload_start(unsigned int cpu)
{
	struct osn_cpu *oc = per_cpu_ptr(&osn_cpu_state, cpu);
	struct task_struct *t;

	t = osn_workload_create(oc, cpu);
	if (IS_ERR(t)) {
		pr_warn("cannot start the workload of CPU %u: %ld\n",
			cpu, PTR_ERR(t));
		/* Failing a later CPU online because of osn would be worse. */
		return osn_hp_in_setup ? PTR_ERR(t) : 0;
	}

	osn_cpu_reset(oc);
	WRITE_ONCE(oc->workload, t);
	wake_up_process(t);
	return 0;
}

static int osn_cpu_online(unsigned int cpu)
{
	struct osn_cpu *oc = per_cpu_ptr(&osn_cpu_state, cpu);

	if (!cpumask_test_cpu(cpu, &osn_run_cpus))
		return 0;

	if (osn_run_workload)
		return osn_workload_start(cpu);

	/*
	 * No workload: the probes report whatever runs on the CPU, or in
	 * timerlat what delays the user-space threads' activations.
	 */
	osn_cpu_reset(oc);
	if (osn_run_tlat_user)
		osn_timerlat_user_online(oc, cpu);
	barrier();
	WRITE_ONCE(oc->active, true);
	return 0;
}

static int osn_cpu_offline(unsigned int cpu)
{
	struct osn_cpu *oc = per_cpu_ptr(&osn_cpu_state, cpu);
	struct task_struct *t = oc->workload;

	if (osn_run_tlat_user)
		osn_timerlat_user_offline(cpu);
	/* The workload closes its window (active off) before it exits. */
	if (t) {
		kthread_stop(t);
		WRITE_ONCE(oc->workload, NULL);
	}
	WRITE_ONCE(oc->active, false);
	return 0;
}

/* ---- whole start/stop, under osn_run_lock ---- */

/*
 * Hook or unhook the cause probes as osn:noise_cause wants: hooked while
 * it is enabled, in a run (@in_run), unhooked otherwise.
 */
static void osn_sync_causes(bool in_run)
{
	bool want = in_run && atomic_read(&osn_cause_events) > 0;
	int ret;

	lockdep_assert_held(&osn_run_lock);
	if (want == osn_causes_hooked)
		return;
	if (!want) {
		osn_causes_unhook();
		osn_causes_hooked = false;
		return;
	}
	ret = osn_causes_hook();
	if (ret)
		pr_warn("cannot hook the cause probes: %d (osn:noise_cause stays empty)\n",
			ret);
	osn_causes_hooked = !ret;
}

static int osn_start(void)
{
	int cpu, ret;

	lockdep_assert_held(&osn_run_lock);

	osn_config_cpus(&osn_run_cpus);
	osn_run_mode = osn_mode_hold();
	/* timerlat's NO_OSNOISE_WORKLOAD is upstream's user-space mode. */
	osn_run_workload = osn_option_is_set(OSN_OPTION_WORKLOAD);
	osn_run_tlat_user = osn_run_mode == OSN_MODE_TIMERLAT_RUN &&
			    !osn_run_workload;
	osn_stop_rearm();
	/* No thread is up yet: nobody to wake. */
	WRITE_ONCE(osn_paused, false);

	/* No probe and no workload runs now: reset without races. */
	for_each_possible_cpu(cpu)
		osn_cpu_reset(per_cpu_ptr(&osn_cpu_state, cpu));

	ret = osn_probes_hook();
	if (ret) {
		osn_mode_release();
		return ret;
	}
	/*
	 * The cause probes before the threads: each hook is a text patch
	 * that waits for every CPU, slow under TCG with workloads spinning,
	 * and a noise before it would have no cause (the CI of cd68606:
	 * engine/28-tlb's first bursts).  A failure leaves them off, as
	 * when they are wanted later in the run.
	 */
	osn_sync_causes(true);

	if (osn_run_tlat_user)
		osn_timerlat_user_set_run(true);
	osn_hp_in_setup = true;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "trace/osn:online",
				osn_cpu_online, osn_cpu_offline);
	osn_hp_in_setup = false;
	if (ret < 0) {
		osn_timerlat_user_set_run(false);
		osn_sync_causes(false);
		osn_probes_unhook();
		osn_mode_release();
		return ret;
	}

	osn_hp_state = ret;
	osn_running = true;
	return 0;
}

static void osn_stop(void)
{
	lockdep_assert_held(&osn_run_lock);
	/*
	 * A pause lasts for its run.  No wake-up: kthread_stop() below
	 * wakes the paused threads, and a thread that sees N first spins
	 * until then, as it would have.
	 */
	WRITE_ONCE(osn_paused, false);
	if (osn_causes_hooked) {
		osn_causes_unhook();
		osn_causes_hooked = false;
	}

	/* No new user-space reader; the offline callbacks end the others. */
	osn_timerlat_user_set_run(false);
	/* Runs the offline callback on every online CPU: threads stop. */
	cpuhp_remove_state(osn_hp_state);
	osn_probes_unhook();
	osn_mode_release();
	osn_running = false;
	osn_account_report();
}

static void osn_apply_state(void)
{
	bool want = atomic_read(&osn_enabled_events) > 0;
	bool restart = test_and_clear_bit(0, &osn_restart_wanted);
	int ret;

	if (osn_running && (!want || restart))
		osn_stop();

	if (want && !osn_running) {
		ret = osn_start();
		WRITE_ONCE(osn_start_error, ret);
		if (ret)
			pr_warn("cannot start: %d (disable and re-enable the osn events to retry)\n",
				ret);
	}
	osn_sync_causes(osn_running);
}

static void osn_work_fn(struct work_struct *work)
{
	mutex_lock(&osn_run_lock);
	osn_apply_state();
	mutex_unlock(&osn_run_lock);
}

static int __init osn_init(void)
{
	int ret;

	/* Load-time knobs were checked one by one: now check them together. */
	ret = osn_params_validate();
	if (ret)
		return ret;

	ret = osn_timerlat_user_init();
	if (ret)
		return ret;
	ret = osn_probes_init();
	if (ret) {
		osn_timerlat_user_exit();
		return ret;
	}

	/* The origin tables' locks, before a run can hook the cause probes. */
	osn_cause_init();
	osn_params_init(osn_request_restart);
	spin_lock(&osn_kick_lock);
	osn_accepting = true;
	spin_unlock(&osn_kick_lock);

	/* Events may have been enabled between their creation and now. */
	osn_kick();
	return 0;
}

static void __exit osn_exit(void)
{
	spin_lock(&osn_kick_lock);
	osn_accepting = false;
	spin_unlock(&osn_kick_lock);

	osn_params_init(NULL);
	/* No new work can be queued: finish or drop the pending one. */
	cancel_work_sync(&osn_work);

	mutex_lock(&osn_run_lock);
	if (osn_running)
		osn_stop();
	mutex_unlock(&osn_run_lock);

	/* No file is open: each holds a reference to the module. */
	osn_timerlat_user_exit();
	/* No probe of ours may still run when the module text goes away. */
	tracepoint_synchronize_unregister();
}

module_init(osn_init);
module_exit(osn_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("osn project");
MODULE_DESCRIPTION("osn: OS noise tracer using only exported kernel interfaces");
MODULE_VERSION(OSN_VERSION);
