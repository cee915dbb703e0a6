// SPDX-License-Identifier: GPL-2.0
/*
 * osn_inject - test-only noise injector: the ground truth of osn's tests.
 *
 * Steals a known amount of CPU time on one CPU, in one context, COUNT times,
 * DURATION_US each, INTERVAL_US apart, and reports what it actually stole.
 *
 *   echo "ctx=irq cpu=1 count=100 duration_us=200 interval_us=10000" \
 *	> /sys/kernel/debug/osn_inject/inject
 *   cat /sys/kernel/debug/osn_inject/status
 *   echo stop > /sys/kernel/debug/osn_inject/inject
 *
 * Contexts:
 *  irq      a hard hrtimer (HRTIMER_MODE_REL_PINNED_HARD) on the CPU: the
 *           callback runs in hard IRQ context from the local APIC timer
 *           interrupt (local_timer vector), also on PREEMPT_RT.
 *  softirq  a soft hrtimer (HRTIMER_MODE_REL_PINNED_SOFT) on the CPU: the
 *           callback runs in the HRTIMER softirq (vector 8, "HRTIMER"); on
 *           PREEMPT_RT softirqs run in a thread (ktimers/N or ksoftirqd/N).
 *  thread   a SCHED_FIFO kthread "osn_inject/<cpu>" bound to the CPU, at
 *           prio=N (see below).
 *  ipi      a kthread on another CPU sends smp_call_function_single() to
 *           the CPU: the busy loop runs in hard IRQ context from the
 *           call_function_single vector.  (A target CPU idling with
 *           polling, e.g. mwait, may run the call from its idle loop
 *           without an interrupt: ctx_ok then counts only the real IPIs.
 *           Keep the target busy, as osn's workload does.)
 *  nmi      a kthread on another CPU sends an NMI IPI (APIC delivery mode
 *           NMI) to the CPU; an NMI_LOCAL handler busy-waits in NMI
 *           context, then the sender sends the next one.  At most 10 ms.
 *
 * Cross-CPU modes, each driven by a sender kthread "osn_inj_src/<cpu>"
 * bound to another CPU, the known origin of each injection (osn's
 * noise_cause tests), whose pid, comm and CPU the status line reports as
 * src_pid, src_comm, src_cpu (also for ipi and nmi, whose sender it is):
 *  work     the sender queues a work item on the CPU (queue_work_on(),
 *           system_highpri_wq): inj_work_fn() busy-waits in a kworker.
 *  timer    the sender arms a timer_list on the CPU (add_timer_on()):
 *           inj_timer_list_fn() busy-waits in the TIMER softirq (on
 *           PREEMPT_RT in the thread that runs it).
 *  wakeup   the sender wakes a SCHED_FIFO kthread "osn_inj_wake/<cpu>"
 *           bound to the CPU (at prio=N), which busy-waits, then sleeps
 *           again.
 *  preempt  as wakeup, but the woken thread busy-waits with preemption
 *           off: no thread of any priority runs on the CPU meanwhile
 *           (interrupts do).
 *  resched  the sender sends a reschedule IPI to the CPU
 *           (smp_send_reschedule() in inj_send_resched(), called from
 *           inj_send_one(): the call site the kernel's ipi_send_cpu
 *           tracepoint reports).  Nothing busy-waits: the noise is the
 *           IPI's own handling, a few us; duration_us is not used, and
 *           done counts the IPIs sent.
 *
 * prio=N (thread, wakeup and preempt; 1-99): the kthread's SCHED_FIFO
 * priority, e.g. above a timerlat thread's 95.  The default is
 * sched_set_fifo()'s 50, which is all that a kernel without an exported
 * sched_setattr_nocheck() can set (osn_sched_set_fifo()): there the
 * status line's prio= stays 50, and chrt can raise it (the status line's
 * pid is the kthread's from the start of a wakeup or preempt run).
 *
 * nest_us=N (softirq and thread only, N < duration_us / 2, at most 10 ms):
 * halfway through each injection, raise a hard IRQ on the CPU (a self-IPI
 * through an irq_work, the irq_work vector) that busy-waits N us inside
 * it: known nested noise, for the test of its subtraction.  The status
 * line reports nested= and nest_ns=.
 *
 * Each injection busy-waits on local_clock() until DURATION_US elapsed and
 * accounts the time it really took (total, min, max), whether it ran in the
 * expected context (ctx_ok) and on the expected CPU (wrong_cpu otherwise);
 * lost counts NMIs that never arrived.  Injections of a run never overlap,
 * so the results have a single writer and need no lock (NMI-safe); the
 * status reader may see a run's counters a moment apart.
 * A run is asynchronous: status says state=running until it is over.  The
 * interval must be >= 2 * duration and >= duration + 100 us, so that a run
 * can never monopolise a CPU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/workqueue.h>

/* Also the architecture's (osn_arch.h): the NMI context is x86's. */
#include "osn_compat.h"
#if OSN_HAVE_IPI_SEND_TRACEPOINT
/* smp_send_reschedule() traces with it, and needs its declaration. */
#include <trace/events/ipi.h>
#endif

#define INJ_MAX_COUNT		100000U
#define INJ_MAX_DURATION_US	500000U
#define INJ_MAX_INTERVAL_US	10000000U
#define INJ_MIN_GAP_US		100U
#define INJ_DEFAULT_INTERVAL_US	10000U
#define INJ_MAX_NMI_US		10000U

enum inj_ctx {
	INJ_IRQ,
	INJ_SOFTIRQ,
	INJ_THREAD,
	INJ_IPI,
	INJ_NMI,
	INJ_WORK,
	INJ_TIMER,
	INJ_WAKEUP,
	INJ_RESCHED,
	INJ_PREEMPT,
	INJ_NR_CTX,
};

static const char * const inj_ctx_names[INJ_NR_CTX] = {
	[INJ_IRQ]	= "irq",
	[INJ_SOFTIRQ]	= "softirq",
	[INJ_THREAD]	= "thread",
	[INJ_IPI]	= "ipi",
	[INJ_NMI]	= "nmi",
	[INJ_WORK]	= "work",
	[INJ_TIMER]	= "timer",
	[INJ_WAKEUP]	= "wakeup",
	[INJ_RESCHED]	= "resched",
	[INJ_PREEMPT]	= "preempt",
};

/* Whether a context is driven by a sender thread on another CPU. */
static bool inj_cross_cpu(enum inj_ctx ctx)
{
	return ctx != INJ_IRQ && ctx != INJ_SOFTIRQ && ctx != INJ_THREAD;
}

struct inj_run {
	/* Parameters, constant while a run is active. */
	enum inj_ctx	ctx;
	unsigned int	cpu;
	unsigned int	count;
	unsigned int	duration_us;
	unsigned int	interval_us;
	unsigned int	nest_us;	/* hard IRQ nested in each injection */
	unsigned int	prio;		/* thread, wakeup, preempt: FIFO prio */
	int		prio_set;	/* the priority really set */

	/* Run state. */
	bool		active;		/* started and not yet cleaned up */
	bool		finished;	/* all injections done (or stopped) */
	bool		stop;		/* abort requested */
	struct hrtimer	timer;		/* irq, softirq */
	struct task_struct *task;	/* thread, or the cross-CPU sender */
	struct task_struct *sleeper;	/* wakeup: the thread woken */
	bool		kick;		/* wakeup: the sleeper has to run */
	struct work_struct work;	/* work */
	struct timer_list tl;		/* timer */
	unsigned int	src_cpu;	/* the sender's CPU */
	bool		nmi_registered;
	atomic_t	nmi_pending;	/* an NMI was sent, not yet handled */

	/* Results: one writer at a time (the injecting context). */
	unsigned int	done;
	unsigned int	ctx_ok;
	unsigned int	wrong_cpu;
	u64		stolen_ns;
	u64		max_ns;
	u64		min_ns;
	unsigned int	short_done;	/* injections under INJ_SHORT_NS */
	u64		short_ns;	/* their time */
	unsigned int	lost;		/* NMIs that never arrived */
	unsigned int	nested;		/* nested IRQs that ran */
	u64		nest_ns;	/* their time */
	pid_t		pid;		/* task the injections ran in (not irq/ipi) */
	char		comm[TASK_COMM_LEN];
	pid_t		src_pid;	/* the cross-CPU sender */
	char		src_comm[TASK_COMM_LEN];
	unsigned long	runs;		/* runs started since load */
};

static struct inj_run inj;

/*
 * Under single-threaded TCG the host thread leaves a vCPU for up to 140 ms
 * at a time, in the middle of a spin as anywhere else: a handful of those
 * dominate stolen_ns.  short_ns sums the spins under this bound only, the
 * time a benchmark can compare with the noise samples under the same bound.
 */
#define INJ_SHORT_NS	(100 * NSEC_PER_USEC)
static DEFINE_MUTEX(inj_mutex);		/* start, stop, unload */
static struct dentry *inj_dir;

/* Spin for @us microseconds; returns the time really spent, in ns. */
static u64 inj_spin(unsigned int us)
{
	u64 start = local_clock();
	u64 target = (u64)us * NSEC_PER_USEC;
	u64 now;

	do {
		cpu_relax();
		now = local_clock();
	} while (now - start < target);

	return now - start;
}

static bool inj_in_ctx(enum inj_ctx ctx)
{
	switch (ctx) {
	case INJ_IRQ:
	case INJ_IPI:
		return in_hardirq() && !in_nmi();
	case INJ_NMI:
		return in_nmi();
	case INJ_SOFTIRQ:
		return in_serving_softirq() && !in_hardirq();
	case INJ_TIMER:		/* a softirq, or its thread on PREEMPT_RT */
		return !in_hardirq() && !in_nmi();
	case INJ_THREAD:
		return !in_interrupt() && current == READ_ONCE(inj.task);
	case INJ_WORK:
		return !in_interrupt() && (current->flags & PF_WQ_WORKER);
	case INJ_WAKEUP:
		return !in_interrupt() && current == READ_ONCE(inj.sleeper);
	case INJ_PREEMPT:
		return !in_interrupt() && current == READ_ONCE(inj.sleeper) &&
		       (!IS_ENABLED(CONFIG_PREEMPT_COUNT) || preempt_count());
	default:
		return false;
	}
}

/* The nested IRQ: a self-IPI (irq_work vector) that spins nest_us. */
static void inj_nest_fn(struct irq_work *w)
{
	u64 ns = inj_spin(inj.nest_us);

	WRITE_ONCE(inj.nest_ns, inj.nest_ns + ns);
	WRITE_ONCE(inj.nested, inj.nested + 1);
}

static struct irq_work inj_nest_work = OSN_IRQ_WORK_INIT_HARD(inj_nest_fn);

/*
 * Spin duration_us in all; with nest_us, raise a hard IRQ on this CPU
 * halfway, which spins nest_us inside the injection (softirq and thread
 * contexts run with interrupts on, so it nests at once): ground truth for
 * the subtraction of nested noise.
 */
static u64 inj_spin_nested(void)
{
	u64 ns;

	if (!inj.nest_us)
		return inj_spin(inj.duration_us);
	ns = inj_spin(inj.duration_us / 2);
	irq_work_queue(&inj_nest_work);
	return ns + inj_spin(inj.duration_us - inj.duration_us / 2);
}

/*
 * One injection: steal the CPU for duration_us and account it.  Returns true
 * when the run is complete (count reached or stop requested).
 */
static bool inj_one(void)
{
	bool ok = inj_in_ctx(inj.ctx);
	bool right_cpu = smp_processor_id() == inj.cpu;
	unsigned int done;
	u64 ns;
	bool last;

	ns = inj_spin_nested();

	done = inj.done + 1;
	WRITE_ONCE(inj.stolen_ns, inj.stolen_ns + ns);
	if (ns < INJ_SHORT_NS) {
		WRITE_ONCE(inj.short_done, inj.short_done + 1);
		WRITE_ONCE(inj.short_ns, inj.short_ns + ns);
	}
	if (ns > inj.max_ns)
		WRITE_ONCE(inj.max_ns, ns);
	if (!inj.min_ns || ns < inj.min_ns)
		WRITE_ONCE(inj.min_ns, ns);
	if (ok)
		WRITE_ONCE(inj.ctx_ok, inj.ctx_ok + 1);
	if (!right_cpu)
		WRITE_ONCE(inj.wrong_cpu, inj.wrong_cpu + 1);
	if (inj.ctx == INJ_SOFTIRQ || inj.ctx == INJ_THREAD ||
	    inj.ctx == INJ_WORK || inj.ctx == INJ_TIMER ||
	    inj.ctx == INJ_WAKEUP || inj.ctx == INJ_PREEMPT) {
		WRITE_ONCE(inj.pid, current->pid);
		memcpy(inj.comm, current->comm, sizeof(inj.comm));
	}
	WRITE_ONCE(inj.done, done);
	last = done >= inj.count || READ_ONCE(inj.stop);
	if (last)
		WRITE_ONCE(inj.finished, true);

	return last;
}

static enum hrtimer_restart inj_timer_fn(struct hrtimer *t)
{
	if (READ_ONCE(inj.stop) || inj_one()) {
		WRITE_ONCE(inj.finished, true);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(t, ns_to_ktime((u64)inj.interval_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void inj_timer_setup(enum hrtimer_mode mode)
{
	osn_hrtimer_setup(&inj.timer, inj_timer_fn, CLOCK_MONOTONIC, mode);
}

/* Runs on the target CPU (IPI): a pinned timer must be armed from there. */
static void inj_arm_timer(void *unused)
{
	enum hrtimer_mode mode = inj.ctx == INJ_IRQ ? HRTIMER_MODE_REL_PINNED_HARD
						      : HRTIMER_MODE_REL_PINNED_SOFT;

	hrtimer_start(&inj.timer,
		      ns_to_ktime((u64)inj.interval_us * NSEC_PER_USEC), mode);
}

static void inj_busy_ipi(void *unused)
{
	inj_one();
}

static void inj_work_fn(struct work_struct *work)
{
	inj_one();
}

static void inj_timer_list_fn(struct timer_list *tl)
{
	inj_one();
}

/* The kthread's FIFO priority: prio=, else sched_set_fifo()'s. */
static void inj_set_prio(void)
{
	int ret = osn_sched_set_fifo(current, inj.prio ? inj.prio
						       : MAX_RT_PRIO / 2);

	WRITE_ONCE(inj.prio_set, ret);
}

/*
 * wakeup, preempt: the thread on the CPU, woken by the sender for each
 * injection; preempt spins with preemption off.
 */
static int inj_sleeper_fn(void *unused)
{
	inj_set_prio();
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		if (!xchg(&inj.kick, false)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		if (READ_ONCE(inj.finished))
			continue;
		if (inj.ctx == INJ_PREEMPT)
			preempt_disable();
		inj_one();
		if (inj.ctx == INJ_PREEMPT)
			preempt_enable();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/*
 * Not inlined: smp_send_reschedule() reports its caller's caller as the
 * call site (_RET_IP_), so that it is inj_send_one() on every kernel.
 * False if the CPU is offline.  The check is made with preemption off: a
 * CPU goes offline under stop_machine(), which waits for this section, so
 * no IPI is sent to an offline CPU (x86 WARNs on that).
 */
static noinline bool inj_send_resched(void)
{
	bool online;

	preempt_disable();
	online = cpu_online(inj.cpu);
	if (online)
		osn_send_reschedule(inj.cpu);
	preempt_enable();
	return online;
}

/*
 * One cross-CPU injection from the sender (work, timer, wakeup, resched):
 * start it on the CPU and wait (at most 1 s) until it ran.  False if the
 * CPU went offline.  Not inlined: it is the resched mode's known call site.
 */
static noinline bool inj_send_one(void)
{
	unsigned int done = READ_ONCE(inj.done);
	u64 start = local_clock();

	switch (inj.ctx) {
	case INJ_WORK:
		queue_work_on(inj.cpu, system_highpri_wq, &inj.work);
		flush_work(&inj.work);
		return true;
	case INJ_TIMER:
		if (timer_pending(&inj.tl))	/* the last one is late */
			break;
		inj.tl.expires = jiffies + 1;
		add_timer_on(&inj.tl, inj.cpu);
		break;
	case INJ_WAKEUP:
	case INJ_PREEMPT:
		WRITE_ONCE(inj.kick, true);
		wake_up_process(inj.sleeper);
		break;
	case INJ_RESCHED:
		if (!inj_send_resched())
			return false;
		WRITE_ONCE(inj.done, inj.done + 1);
		WRITE_ONCE(inj.ctx_ok, inj.ctx_ok + 1);
		return true;
	default:
		return false;
	}
	while (READ_ONCE(inj.done) == done &&
	       local_clock() - start < NSEC_PER_SEC) {
		if (kthread_should_stop() || READ_ONCE(inj.stop))
			break;
		schedule_timeout_uninterruptible(1);
	}
	return cpu_online(inj.cpu);
}

/* nmi_pending: 0 idle, 1 NMI sent, 2 handler running. */
static int inj_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	if (smp_processor_id() != READ_ONCE(inj.cpu) ||
	    atomic_cmpxchg(&inj.nmi_pending, 1, 2) != 1)
		return OSN_NMI_DONE;	/* not ours: perf, watchdog, ... */
	inj_one();
	atomic_set(&inj.nmi_pending, 0);
	return OSN_NMI_HANDLED;
}

/* Send one NMI to the target CPU and wait until its handler is done. */
static void inj_send_nmi(void)
{
	u64 start;

	atomic_set(&inj.nmi_pending, 1);
	preempt_disable();
	osn_send_nmi(inj.cpu);
	preempt_enable();
	start = local_clock();
	while (atomic_read(&inj.nmi_pending)) {
		if (local_clock() - start > NSEC_PER_SEC &&
		    atomic_cmpxchg(&inj.nmi_pending, 1, 0) == 1) {
			WRITE_ONCE(inj.lost, inj.lost + 1);
			break;		/* never arrived */
		}
		cpu_relax();
	}
}

/* Sleep until the next injection; false if the thread must stop. */
static bool inj_sleep(u64 ns)
{
	ktime_t t = ns_to_ktime(ns);

	set_current_state(TASK_INTERRUPTIBLE);
	if (kthread_should_stop() || READ_ONCE(inj.stop)) {
		__set_current_state(TASK_RUNNING);
		return false;
	}
	schedule_hrtimeout(&t, HRTIMER_MODE_REL);
	return !kthread_should_stop() && !READ_ONCE(inj.stop);
}

static int inj_thread_fn(void *unused)
{
	u64 gap = (u64)(inj.interval_us - inj.duration_us) * NSEC_PER_USEC;
	bool last = false;

	if (inj.ctx == INJ_THREAD)
		inj_set_prio();

	while (!last && inj_sleep(gap)) {
		if (inj.ctx == INJ_THREAD) {
			last = inj_one();
			continue;
		}
		if (!cpu_online(inj.cpu))
			break;
		if (inj.ctx == INJ_NMI)
			inj_send_nmi();
		else if (inj.ctx != INJ_IPI && !inj_send_one())
			break;		/* target CPU went offline */
		else if (inj.ctx == INJ_IPI &&
			 smp_call_function_single(inj.cpu, inj_busy_ipi,
						  NULL, 1))
			break;		/* target CPU went offline */
		last = READ_ONCE(inj.finished) ||
		       READ_ONCE(inj.done) + READ_ONCE(inj.lost) >= inj.count;
	}
	WRITE_ONCE(inj.finished, true);

	/* kthread_stop() owns the end of this thread. */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Stop and reap the current run, if any.  inj_mutex held. */
static void inj_cleanup(void)
{
	if (!inj.active)
		return;
	WRITE_ONCE(inj.stop, true);
	if (inj.ctx == INJ_IRQ || inj.ctx == INJ_SOFTIRQ)
		hrtimer_cancel(&inj.timer);
	if (inj.task) {
		kthread_stop(inj.task);
		WRITE_ONCE(inj.task, NULL);
	}
	/* The sender is gone: nothing queues, arms or wakes any more. */
	if (inj.ctx == INJ_WORK)
		cancel_work_sync(&inj.work);
	if (inj.ctx == INJ_TIMER)
		osn_timer_delete_sync(&inj.tl);
	if (inj.sleeper) {
		kthread_stop(inj.sleeper);
		WRITE_ONCE(inj.sleeper, NULL);
	}
	if (inj.nmi_registered) {
		osn_nmi_unregister("osn_inject");
		inj.nmi_registered = false;
	}
	irq_work_sync(&inj_nest_work);
	WRITE_ONCE(inj.finished, true);
	inj.active = false;
}

static unsigned int inj_other_cpu(unsigned int cpu)
{
	unsigned int c;

	for_each_online_cpu(c)
		if (c != cpu)
			return c;
	return nr_cpu_ids;
}

/* Start a run.  inj_mutex held. */
static int inj_start(enum inj_ctx ctx, unsigned int cpu, unsigned int count,
		     unsigned int duration_us, unsigned int interval_us,
		     unsigned int nest_us, unsigned int prio)
{
	struct task_struct *task;
	unsigned int tcpu;
	int ret;

	if (inj.active && !READ_ONCE(inj.finished))
		return -EBUSY;
	inj_cleanup();

	cpus_read_lock();
	ret = -EINVAL;
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		goto out;
	tcpu = cpu;
	if (inj_cross_cpu(ctx)) {
		tcpu = inj_other_cpu(cpu);
		if (tcpu >= nr_cpu_ids)
			goto out;	/* needs a second CPU */
	}

	inj.ctx = ctx;
	inj.cpu = cpu;
	inj.count = count;
	inj.duration_us = duration_us;
	inj.interval_us = interval_us;
	inj.nest_us = nest_us;
	inj.prio = prio;
	inj.prio_set = 0;
	inj.nested = 0;
	inj.nest_ns = 0;
	inj.stop = false;
	inj.finished = false;
	inj.task = NULL;
	inj.done = 0;
	inj.ctx_ok = 0;
	inj.wrong_cpu = 0;
	inj.stolen_ns = 0;
	inj.max_ns = 0;
	inj.min_ns = 0;
	inj.short_done = 0;
	inj.short_ns = 0;
	inj.lost = 0;
	inj.pid = 0;
	inj.comm[0] = '\0';
	inj.src_pid = 0;
	inj.src_comm[0] = '\0';
	inj.src_cpu = tcpu;
	inj.kick = false;
	atomic_set(&inj.nmi_pending, 0);

	switch (ctx) {
	case INJ_IRQ:
	case INJ_SOFTIRQ:
		inj_timer_setup(ctx == INJ_IRQ ? HRTIMER_MODE_REL_HARD
					       : HRTIMER_MODE_REL_SOFT);
		inj.active = true;
		ret = smp_call_function_single(cpu, inj_arm_timer, NULL, 1);
		if (ret) {
			inj_cleanup();
			ret = -EINVAL;
		}
		break;
	case INJ_WAKEUP:
	case INJ_PREEMPT:
		task = kthread_create(inj_sleeper_fn, NULL, "osn_inj_wake/%u",
				      cpu);
		if (IS_ERR(task)) {
			ret = PTR_ERR(task);
			break;
		}
		kthread_bind(task, cpu);
		WRITE_ONCE(inj.sleeper, task);
		/* known before it runs: for chrt where prio= cannot be set */
		inj.pid = task->pid;
		memcpy(inj.comm, task->comm, sizeof(inj.comm));
		inj.active = true;
		wake_up_process(task);	/* it goes to sleep at once */
		fallthrough;
	case INJ_WORK:
	case INJ_TIMER:
	case INJ_RESCHED:
	case INJ_THREAD:
	case INJ_IPI:
	case INJ_NMI:
		if (ctx == INJ_WORK)
			INIT_WORK(&inj.work, inj_work_fn);
		if (ctx == INJ_TIMER)
			timer_setup(&inj.tl, inj_timer_list_fn, 0);
		if (ctx == INJ_NMI) {
			ret = osn_nmi_register(inj_nmi_handler, "osn_inject");
			if (ret)
				break;
			inj.nmi_registered = true;
		}
		task = kthread_create(inj_thread_fn, NULL,
				      ctx == INJ_THREAD ? "osn_inject/%u" :
				      ctx == INJ_IPI ? "osn_inject_ipi/%u" :
				      ctx == INJ_NMI ? "osn_inject_nmi/%u"
						     : "osn_inj_src/%u",
				      cpu);
		if (IS_ERR(task)) {
			ret = PTR_ERR(task);
			if (inj.nmi_registered) {
				osn_nmi_unregister("osn_inject");
				inj.nmi_registered = false;
			}
			if (inj.active)		/* the sleeper */
				inj_cleanup();
			break;
		}
		kthread_bind(task, tcpu);
		WRITE_ONCE(inj.task, task);
		if (inj_cross_cpu(ctx)) {
			inj.src_pid = task->pid;
			memcpy(inj.src_comm, task->comm, sizeof(inj.src_comm));
		}
		inj.active = true;
		wake_up_process(task);
		ret = 0;
		break;
	default:
		break;
	}
	if (!ret)
		inj.runs++;
out:
	cpus_read_unlock();
	return ret;
}

static int inj_parse_uint(const char *s, unsigned int *val)
{
	return kstrtouint(s, 0, val);
}

static int inj_parse_and_start(char *buf)
{
	unsigned int cpu = UINT_MAX, count = 0, duration_us = 0;
	unsigned int interval_us = 0, nest_us = 0, prio = 0;
	int ctx = -1;
	char *tok, *val;
	int ret;

	while ((tok = strsep(&buf, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "ctx")) {
			ctx = match_string(inj_ctx_names, INJ_NR_CTX, val);
			if (ctx < 0)
				return -EINVAL;
			ret = 0;
		} else if (!strcmp(tok, "cpu")) {
			ret = inj_parse_uint(val, &cpu);
		} else if (!strcmp(tok, "count")) {
			ret = inj_parse_uint(val, &count);
		} else if (!strcmp(tok, "duration_us")) {
			ret = inj_parse_uint(val, &duration_us);
		} else if (!strcmp(tok, "interval_us")) {
			ret = inj_parse_uint(val, &interval_us);
		} else if (!strcmp(tok, "nest_us")) {
			ret = inj_parse_uint(val, &nest_us);
		} else if (!strcmp(tok, "prio")) {
			ret = inj_parse_uint(val, &prio);
		} else {
			return -EINVAL;
		}
		if (ret)
			return -EINVAL;
	}

	if (ctx < 0 || cpu == UINT_MAX)
		return -EINVAL;
	/* What the architecture lets a module do (osn_arch.h). */
	if ((ctx == INJ_NMI && !OSN_HAVE_NMI_HANDLER) ||
	    (ctx == INJ_RESCHED && !OSN_HAVE_SEND_RESCHEDULE))
		return -EOPNOTSUPP;
	if (!count || count > INJ_MAX_COUNT)
		return -EINVAL;
	if (!duration_us || duration_us > INJ_MAX_DURATION_US ||
	    (ctx == INJ_NMI && duration_us > INJ_MAX_NMI_US))
		return -EINVAL;
	if (!interval_us)
		interval_us = max(INJ_DEFAULT_INTERVAL_US, 2 * duration_us);
	if (interval_us > INJ_MAX_INTERVAL_US ||
	    interval_us < 2 * duration_us ||
	    interval_us < duration_us + INJ_MIN_GAP_US)
		return -EINVAL;

	/* A nested IRQ needs interrupts on, and fits in the first half. */
	if (nest_us && ((ctx != INJ_SOFTIRQ && ctx != INJ_THREAD) ||
			nest_us > INJ_MAX_NMI_US || nest_us >= duration_us / 2))
		return -EINVAL;

	/* A FIFO priority for the injector's own thread on the CPU. */
	if (prio && (prio >= MAX_RT_PRIO ||
		     (ctx != INJ_THREAD && ctx != INJ_WAKEUP &&
		      ctx != INJ_PREEMPT)))
		return -EINVAL;

	return inj_start(ctx, cpu, count, duration_us, interval_us, nest_us,
			 prio);
}

static ssize_t inj_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char buf[128];
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';

	mutex_lock(&inj_mutex);
	if (sysfs_streq(buf, "stop")) {
		inj_cleanup();
		ret = 0;
	} else {
		ret = inj_parse_and_start(buf);
	}
	mutex_unlock(&inj_mutex);

	return ret ? ret : len;
}

static ssize_t inj_status_read(struct file *file, char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	unsigned int done, ctx_ok, wrong_cpu, lost, nested, short_done;
	u64 stolen, max, min, nest_ns, short_ns;
	char comm[TASK_COMM_LEN], src_comm[TASK_COMM_LEN];
	char buf[512];
	bool running;
	pid_t pid;
	int n;

	done = READ_ONCE(inj.done);
	ctx_ok = READ_ONCE(inj.ctx_ok);
	wrong_cpu = READ_ONCE(inj.wrong_cpu);
	stolen = READ_ONCE(inj.stolen_ns);
	max = READ_ONCE(inj.max_ns);
	min = READ_ONCE(inj.min_ns);
	short_done = READ_ONCE(inj.short_done);
	short_ns = READ_ONCE(inj.short_ns);
	lost = READ_ONCE(inj.lost);
	nested = READ_ONCE(inj.nested);
	nest_ns = READ_ONCE(inj.nest_ns);
	pid = READ_ONCE(inj.pid);
	memcpy(comm, inj.comm, sizeof(comm));
	comm[sizeof(comm) - 1] = '\0';
	if (!comm[0])
		strscpy(comm, "-", sizeof(comm));
	strreplace(comm, ' ', '_');
	memcpy(src_comm, inj.src_comm, sizeof(src_comm));
	src_comm[sizeof(src_comm) - 1] = '\0';
	if (!src_comm[0])
		strscpy(src_comm, "-", sizeof(src_comm));

	mutex_lock(&inj_mutex);
	running = inj.active && !READ_ONCE(inj.finished);
	n = scnprintf(buf, sizeof(buf),
		      "state=%s ctx=%s cpu=%u count=%u duration_us=%u interval_us=%u nest_us=%u done=%u stolen_ns=%llu max_ns=%llu min_ns=%llu ctx_ok=%u wrong_cpu=%u lost=%u nested=%u nest_ns=%llu pid=%d comm=%s runs=%lu src_cpu=%d src_pid=%d src_comm=%s short=%u short_ns=%llu prio=%d\n",
		      running ? "running" : "idle",
		      inj.runs ? inj_ctx_names[inj.ctx] : "none",
		      inj.cpu, inj.count, inj.duration_us, inj.interval_us,
		      inj.nest_us, done, stolen, max, min, ctx_ok, wrong_cpu,
		      lost, nested, nest_ns, pid, comm, inj.runs,
		      inj_cross_cpu(inj.ctx) ? (int)inj.src_cpu : -1,
		      READ_ONCE(inj.src_pid), src_comm, short_done, short_ns,
		      READ_ONCE(inj.prio_set));
	mutex_unlock(&inj_mutex);

	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations inj_inject_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= inj_write,
	.llseek	= noop_llseek,
};

static const struct file_operations inj_status_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= inj_status_read,
	.llseek	= default_llseek,
};

/*
 * fake_idle=1: a cpuidle driver of three states for the guests, which
 * have none (QEMU describes no C-states), so that osn timerlat
 * --deepest-idle-state has real states to turn off and back on.  Every
 * state is the kernel's own polling one (cpuidle_poll_state_init(): right
 * for each kernel's idle core); the two "deeper" ones differ only in name
 * and advertised latency.  Only where the kernel builds that state
 * (CONFIG_ARCH_HAS_CPU_RELAX: x86); elsewhere insmod fails with it.
 */
static bool fake_idle;
module_param(fake_idle, bool, 0444);
MODULE_PARM_DESC(fake_idle,
		 "register a cpuidle driver of three polling states (--deepest-idle-state tests)");

#ifdef CONFIG_ARCH_HAS_CPU_RELAX
/*
 * No .owner: each CPU's cpuidle device would hold a reference on it, and
 * the module could not be unloaded to unregister them (as cpuidle-haltpoll).
 */
static struct cpuidle_driver inj_idle_drv = {
	.name		= "osn_fakeidle",
	.state_count	= 3,
};

static int inj_idle_register(void)
{
	struct cpuidle_driver *drv = &inj_idle_drv;
	int i;

	if (!fake_idle)
		return 0;
	cpuidle_poll_state_init(drv);
	for (i = 1; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		*s = drv->states[0];
		snprintf(s->name, CPUIDLE_NAME_LEN, "FAKE%d", i);
		strscpy(s->desc, "osn_inject: polling", CPUIDLE_DESC_LEN);
		s->exit_latency = 10 * i;		/* us */
		s->target_residency = 100 * i;		/* us */
	}
	return cpuidle_register(drv, NULL);
}

static void inj_idle_unregister(void)
{
	if (fake_idle)
		cpuidle_unregister(&inj_idle_drv);
}
#else
static int inj_idle_register(void)
{
	return fake_idle ? -EOPNOTSUPP : 0;
}

static void inj_idle_unregister(void)
{
}
#endif

static int __init inj_init(void)
{
	int ret = inj_idle_register();

	if (ret)
		return ret;
	inj_dir = debugfs_create_dir("osn_inject", NULL);
	if (IS_ERR(inj_dir)) {
		inj_idle_unregister();
		return PTR_ERR(inj_dir);
	}
	debugfs_create_file("inject", 0200, inj_dir, NULL, &inj_inject_fops);
	debugfs_create_file("status", 0400, inj_dir, NULL, &inj_status_fops);
	return 0;
}

static void __exit inj_exit(void)
{
	/* No writer can start a run once the files are gone. */
	debugfs_remove_recursive(inj_dir);
	mutex_lock(&inj_mutex);
	inj_cleanup();
	mutex_unlock(&inj_mutex);
	inj_idle_unregister();
}

module_init(inj_init);
module_exit(inj_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("osn developers");
MODULE_DESCRIPTION("osn test-only noise injector (hard irq, softirq, thread, IPI, NMI, cross-CPU work, timer, wakeup, reschedule IPI, preemption off)");
