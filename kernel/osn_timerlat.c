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
#include <linux/sched/signal.h>
#include <linux/stacktrace.h>
#include <linux/cpu.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/swait.h>

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

/* A new run's counters, and its first period from now. */
static void osn_tlat_reset(struct osn_tlat *tl)
{
	WRITE_ONCE(tl->seqnum, 0);
	tl->thread_seqnum = 0;
	tl->stack_nr = 0;
	tl->abs_period_ns = ktime_get_ns();
}

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
 * The timer's activation, in hard IRQ context on its CPU (also on
 * PREEMPT_RT).  A stop on the IRQ latency emits the stack here if
 * print_stack would have shown it (stop_tracing_us <= print_stack), as
 * upstream does: the thread's sample comes after tracing is off.
 */
static void osn_tlat_activation(struct osn_tlat *tl)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	u64 latency_ns = osn_tlat_latency_ns(tl);
	u64 stop_ns;

	WRITE_ONCE(tl->seqnum, tl->seqnum + 1);
	osn_tlat_open_window(oc);
	trace_timerlat_sample(latency_ns, tl->seqnum, OSN_TLAT_CTX_IRQ);
	osn_tlat_save_stack(tl);

	stop_ns = osn_tlat_stop_due(OSN_STOP_SINGLE, latency_ns);
	if (stop_ns) {
		if (stop_ns <= tl->print_stack_ns)
			osn_tlat_emit_stack(tl);
		osn_tlat_stop(OSN_STOP_SINGLE, latency_ns, stop_ns);
	}
}

/* The kernel thread's timer. */
static enum hrtimer_restart osn_tlat_irq(struct hrtimer *timer)
{
	struct osn_tlat *tl = container_of(timer, struct osn_tlat, timer);

	osn_tlat_activation(tl);
	wake_up_process(tl->task);
	return HRTIMER_NORESTART;
}

/*
 * The absolute expiry of the next activation after now, stored in @tl.
 * Activations already past are skipped (upstream): a long stall makes one
 * late sample, not a burst of them.
 */
static u64 osn_tlat_next(struct osn_tlat *tl, u64 period_ns)
{
	u64 now_ns = ktime_get_ns();
	u64 next_ns = tl->abs_period_ns + period_ns;

	if (now_ns > next_ns)
		next_ns += (div64_u64(now_ns - next_ns, period_ns) + 1) *
			   period_ns;
	WRITE_ONCE(tl->abs_period_ns, next_ns);
	return next_ns;
}

/*
 * Arm the timer for the next activation after now and sleep until it
 * fires or kthread_stop() wakes the thread; false if told to stop.
 */
static bool osn_tlat_sleep(struct osn_tlat *tl, u64 period_ns)
{
	u64 next_ns = osn_tlat_next(tl, period_ns);

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
 * False if there was no sample to record (a wake-up not from the timer).
 */
static bool osn_tlat_thread_ran(struct osn_cpu *oc, struct osn_tlat *tl)
{
	u64 latency_ns = osn_tlat_latency_ns(tl);
	unsigned int seqnum = READ_ONCE(tl->seqnum);
	u64 stop_ns;

	/* The window closes: what runs now no longer delays this thread. */
	WRITE_ONCE(oc->tlat_window, false);
	osn_flush_nmi(oc);
	if (seqnum == tl->thread_seqnum)
		return false;
	tl->thread_seqnum = seqnum;

	trace_timerlat_sample(latency_ns, seqnum, OSN_TLAT_CTX_THREAD);
	if (osn_tlat_reaches(latency_ns, tl->print_stack_ns))
		osn_tlat_emit_stack(tl);
	stop_ns = osn_tlat_stop_due(OSN_STOP_TOTAL, latency_ns);
	if (stop_ns)
		osn_tlat_stop(OSN_STOP_TOTAL, latency_ns, stop_ns);
	return true;
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
	osn_tlat_reset(tl);

	/* The probes report this CPU from now on, gated by the window. */
	WRITE_ONCE(oc->tlat_gated, true);
	barrier();
	WRITE_ONCE(oc->active, true);

	for (;;) {
		/* Paused: no timer armed, no window, until woken. */
		osn_pause_wait();
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

/*
 * ---- user-space mode: /dev/osn_timerlat ----
 *
 * mode=timerlat with NO_OSNOISE_WORKLOAD (upstream's NO_OSNOISE_WORKLOAD)
 * starts no thread: user-space threads measure, each through its own open
 * of /dev/osn_timerlat, with upstream's timerlat_fd semantics.  A module
 * cannot add files to tracefs' osnoise/per_cpu/, so there is one misc
 * device, and the CPU is the opener's: it must be affined to exactly one
 * CPU and run on it (upstream's per-CPU file requires the same), which
 * makes the CPU unambiguous without a minor number per CPU.
 *
 * Each read() is one activation: the first (and one after a wait that a
 * signal cut short, as upstream) arms the timer a period from now and
 * sleeps; woken by it, the thread sample (context 1) is recorded and
 * read() returns 0.  Each later read() first records the return from
 * user space (context 2: now less the same activation's expiry, so never
 * less than its thread latency), then arms the next activation.
 *
 * A run that stops, or the CPU going offline, SIGKILLs the opener as
 * upstream does, and reads fail with -EINVAL from then on (a descriptor
 * inherited by fork() included); the slot is freed when the file is
 * released.  The timer is cancelled before every read() returns, so it
 * never outlives the reader it wakes.
 *
 * Locks: cpus_read_lock() then osn_tlat_user_lock, as upstream takes the
 * hotplug lock before its interface_lock; the hotplug callbacks run under
 * the hotplug lock and take osn_tlat_user_lock.
 */
struct osn_tlat_slot {
	struct osn_tlat		tl;	/* its own timer, never the kthread's */
	struct swait_queue_head	wq;	/* the reader, woken by the timer */
	struct mutex		read_lock;	/* one read() at a time */
	struct pid		*holder;	/* the opener; NULL: free */
	bool			on;	/* a user-mode run measures this CPU */
	bool			thread_done;	/* next read records user-ret */
};

static DEFINE_PER_CPU(struct osn_tlat_slot, osn_tlat_slot);
static DEFINE_MUTEX(osn_tlat_user_lock);
/* A user-mode run is active (written under osn_tlat_user_lock). */
static bool osn_tlat_user_run;

static enum hrtimer_restart osn_tlat_user_irq(struct hrtimer *timer)
{
	struct osn_tlat_slot *s = container_of(timer, struct osn_tlat_slot,
					       tl.timer);

	osn_tlat_activation(&s->tl);
	swake_up_one(&s->wq);
	return HRTIMER_NORESTART;
}

/* The wait of a read() is over: the timer fired, or the run is gone. */
static bool osn_tlat_user_woken(struct osn_tlat_slot *s)
{
	return READ_ONCE(s->tl.seqnum) != s->tl.thread_seqnum ||
	       !READ_ONCE(s->on);
}

/* Context 2: back from user space, against the last activation's expiry. */
static void osn_tlat_user_ret(struct osn_tlat *tl)
{
	u64 ret_ns = osn_tlat_latency_ns(tl);
	/* Upstream's stop_tracing_total applies to the return too. */
	u64 stop_ns = osn_tlat_stop_due(OSN_STOP_TOTAL, ret_ns);

	trace_timerlat_sample(ret_ns, tl->thread_seqnum,
			      OSN_TLAT_CTX_USER_RET);
	if (stop_ns)
		osn_tlat_stop(OSN_STOP_TOTAL, ret_ns, stop_ns);
}

/*
 * Record the return (if the last read ended an activation) and arm the
 * next activation, on the slot's CPU with preemption off so that the
 * samples go to its buffer and the pinned timer to it.  Then, against an
 * offline or a stop that cancels the timer meanwhile: either it sees the
 * timer armed, or this sees @on cleared and cancels it.
 */
static int osn_tlat_user_arm(struct osn_tlat_slot *s, unsigned int cpu,
			     const struct osn_config *cfg)
{
	struct osn_tlat *tl = &s->tl;
	u64 next_ns;

	preempt_disable();
	if (raw_smp_processor_id() != cpu || !READ_ONCE(s->on)) {
		preempt_enable();
		return -EINVAL;
	}
	if (s->thread_done)
		osn_tlat_user_ret(tl);
	else	/* the first read, or one after a wait cut short: from now */
		WRITE_ONCE(tl->abs_period_ns, ktime_get_ns());
	s->thread_done = false;
	tl->print_stack_ns = cfg->print_stack_ns;
	next_ns = osn_tlat_next(tl, cfg->timerlat_period_ns);
	hrtimer_start(&tl->timer, ns_to_ktime(next_ns),
		      HRTIMER_MODE_ABS_PINNED_HARD);
	preempt_enable();

	smp_mb();	/* the timer armed before @on is read */
	if (!READ_ONCE(s->on)) {
		hrtimer_cancel(&tl->timer);
		return -EINVAL;
	}
	return 0;
}

/* Woken: the thread sample, if the timer fired and this is its CPU. */
static int osn_tlat_user_ran(struct osn_tlat_slot *s, unsigned int cpu)
{
	int ret = -EINVAL;

	preempt_disable();
	if (raw_smp_processor_id() == cpu && READ_ONCE(s->on) &&
	    osn_tlat_thread_ran(per_cpu_ptr(&osn_cpu_state, cpu), &s->tl)) {
		s->thread_done = true;
		ret = 0;
	}
	preempt_enable();
	return ret;
}

static ssize_t osn_tlat_user_read(struct file *file, char __user *buf,
				  size_t count, loff_t *ppos)
{
	unsigned int cpu = (unsigned long)file->private_data;
	struct osn_tlat_slot *s = per_cpu_ptr(&osn_tlat_slot, cpu);
	struct osn_config cfg;
	int ret;

	if (mutex_lock_interruptible(&s->read_lock))
		return -ERESTARTSYS;
	osn_config_snapshot(&cfg);
	ret = osn_tlat_user_arm(s, cpu, &cfg);
	if (!ret)
		ret = swait_event_interruptible_exclusive(s->wq,
							  osn_tlat_user_woken(s));
	/* No timer may wake a reader that left. */
	hrtimer_cancel(&s->tl.timer);
	if (!ret)
		ret = osn_tlat_user_ran(s, cpu);
	mutex_unlock(&s->read_lock);
	return ret;
}

/* Pinned to one CPU and on it: that CPU, else -EPERM. */
static int osn_tlat_user_cpu(unsigned int *cpu)
{
	*cpu = raw_smp_processor_id();
	if (current->nr_cpus_allowed != 1 ||
	    !cpumask_test_cpu(*cpu, current->cpus_ptr))
		return -EPERM;
	return 0;
}

static int osn_tlat_user_open(struct inode *inode, struct file *file)
{
	struct osn_tlat_slot *s;
	unsigned int cpu;
	int ret;

	cpus_read_lock();
	mutex_lock(&osn_tlat_user_lock);
	ret = osn_tlat_user_run ? osn_tlat_user_cpu(&cpu) : -EINVAL;
	if (ret)
		goto out;
	s = per_cpu_ptr(&osn_tlat_slot, cpu);
	if (!s->on) {		/* a CPU this run does not measure */
		ret = -EINVAL;
		goto out;
	}
	if (s->holder) {
		ret = -EBUSY;
		goto out;
	}
	osn_hrtimer_setup(&s->tl.timer, osn_tlat_user_irq, CLOCK_MONOTONIC,
			  HRTIMER_MODE_ABS_PINNED_HARD);
	osn_tlat_reset(&s->tl);
	s->thread_done = false;
	s->holder = get_task_pid(current, PIDTYPE_PID);
	file->private_data = (void *)(unsigned long)cpu;
	ret = nonseekable_open(inode, file);
out:
	mutex_unlock(&osn_tlat_user_lock);
	cpus_read_unlock();
	return ret;
}

static int osn_tlat_user_release(struct inode *inode, struct file *file)
{
	unsigned int cpu = (unsigned long)file->private_data;
	struct osn_tlat_slot *s = per_cpu_ptr(&osn_tlat_slot, cpu);

	mutex_lock(&osn_tlat_user_lock);
	/* The last reference: no read() runs, and none armed the timer. */
	hrtimer_cancel(&s->tl.timer);
	put_pid(s->holder);
	s->holder = NULL;
	mutex_unlock(&osn_tlat_user_lock);
	return 0;
}

static const struct file_operations osn_tlat_user_fops = {
	.owner		= THIS_MODULE,
	.open		= osn_tlat_user_open,
	.read		= osn_tlat_user_read,
	.release	= osn_tlat_user_release,
	/* No .llseek: nonseekable_open() makes lseek() fail with -ESPIPE. */
};

static struct miscdevice osn_tlat_user_dev = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= OSN_TLAT_DEV_NAME,
	.fops		= &osn_tlat_user_fops,
	.mode		= 0600,
};

/*
 * A CPU of a user-mode run comes online (or the run starts): the probes
 * report it gated by the window, and it may be opened.
 */
void osn_timerlat_user_online(struct osn_cpu *oc, unsigned int cpu)
{
	struct osn_tlat_slot *s = per_cpu_ptr(&osn_tlat_slot, cpu);

	WRITE_ONCE(oc->tlat_gated, true);
	mutex_lock(&osn_tlat_user_lock);
	WRITE_ONCE(s->on, true);
	mutex_unlock(&osn_tlat_user_lock);
}

/* It goes offline or the run stops: its reader is told, its opener killed. */
void osn_timerlat_user_offline(unsigned int cpu)
{
	struct osn_tlat_slot *s = per_cpu_ptr(&osn_tlat_slot, cpu);

	mutex_lock(&osn_tlat_user_lock);
	/* Killed first: a read that fails next cannot let it run on. */
	if (s->holder)
		kill_pid(s->holder, SIGKILL, 1);
	WRITE_ONCE(s->on, false);
	smp_mb();	/* @on cleared before the timer is looked at */
	if (s->holder)
		hrtimer_cancel(&s->tl.timer);
	swake_up_all(&s->wq);
	mutex_unlock(&osn_tlat_user_lock);
}

/* A user-mode run starts (before its CPUs come online) or has stopped. */
void osn_timerlat_user_set_run(bool on)
{
	mutex_lock(&osn_tlat_user_lock);
	osn_tlat_user_run = on;
	mutex_unlock(&osn_tlat_user_lock);
}

int osn_timerlat_user_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct osn_tlat_slot *s = per_cpu_ptr(&osn_tlat_slot, cpu);

		init_swait_queue_head(&s->wq);
		mutex_init(&s->read_lock);
	}
	return misc_register(&osn_tlat_user_dev);
}

void osn_timerlat_user_exit(void)
{
	misc_deregister(&osn_tlat_user_dev);
}
