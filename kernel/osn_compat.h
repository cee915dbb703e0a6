/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osn_compat.h - every kernel version or configuration difference osn
 * (and its test injector) depends on, in one place.  Each entry names the
 * range of kernels it is for, as a half-open [from, to) range, and the
 * upstream commit or release that changed the API, so that dropping a range
 * is a matter of deleting one branch (the way LTTng-modules does it).
 *
 * Supported: the matrix of tests/vm/common.sh, generic and PREEMPT_RT:
 * Debian 11's 5.10, 12's 6.1 and 6.12 (backports), 13's 6.12 and
 * testing's 7.2 (Documentation/kernels.md).  The architecture
 * differences (x86-64, arm64) are in osn_arch.h, included at the end.
 */
#ifndef _OSN_COMPAT_H
#define _OSN_COMPAT_H

#include <linux/version.h>
#include <linux/trace_clock.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>
#include <uapi/linux/sched/types.h>
#include <asm/hardirq.h>

/*
 * Version ranges.  OSN_KERNEL_RANGE(a, b, c, d, e, f) is true for upstream
 * versions in [a.b.c, d.e.f) (LINUX_VERSION_CODE caps the sublevel at 255:
 * 5.10.262 reads as 5.10.255).  A backport to a stable series is a range
 * within that series, found in the distribution's changelog of the
 * upstream stable updates it took.
 */
#define OSN_KERNEL_RANGE(a, b, c, d, e, f)				\
	(LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, c) &&		\
	 LINUX_VERSION_CODE < KERNEL_VERSION(d, e, f))
#define OSN_KERNEL_FROM(a, b, c)	OSN_KERNEL_RANGE(a, b, c, 255, 255, 255)

/*
 * Clock.  local_clock() is a header inline on 6.1 and exported only on
 * later kernels; trace_clock_local() is exported everywhere and is the
 * trace buffer's default ("local") clock, so the "start" of every event
 * is on the same time base as the event timestamps.
 */
static __always_inline u64 osn_time_get(void)
{
	return trace_clock_local();
}

/*
 * Momentary RCU quiescent state, for nohz_full CPUs where the tick may be
 * off while the workload loops in the kernel: without it RCU ends a grace
 * period by forcing a reschedule IPI on the CPU, i.e. by creating noise.
 *  [6.12, ...)   rcu_momentary_eqs(), exported GPL: renamed from
 *                 rcu_momentary_dyntick_idle() by upstream commit
 *                 32a9f26e5e26 ("rcu: Rename rcu_momentary_dyntick_idle()
 *                 into rcu_momentary_eqs()"), v6.12.
 *  [6.1.188, 6.2)  the rename was backported to the 6.1.y stable series
 *                 in 6.1.188 (Debian's linux 6.1.190-1 changelog lists it
 *                 under ChangeLog-6.1.188; Debian's 6.1.0-56 = 6.1.192
 *                 exports only the new name).
 *  otherwise      rcu_momentary_dyntick_idle() (5.10.0-46's and
 *                 5.10.0-43-rt's Module.symvers).
 * cond_resched_tasks_rcu_qs() and rcu_all_qs() do not help: the former
 * only reports to Tasks RCU, the latter is neither exported nor built on
 * PREEMPT_RCU kernels, which all four targets are.
 */
#if OSN_KERNEL_FROM(6, 12, 0) || OSN_KERNEL_RANGE(6, 1, 188, 6, 2, 0)
# define osn_rcu_momentary_qs()		rcu_momentary_eqs()
#else
# define osn_rcu_momentary_qs()		rcu_momentary_dyntick_idle()
#endif

/*
 * __string()/__assign_str() in TRACE_EVENT:
 *  [6.10, ...)  __assign_str(dst) takes the source from __string():
 *               upstream commit 2c92ca849fcc ("tracing/treewide: Remove
 *               second parameter of __assign_str()").
 *  [..., 6.10)  __assign_str(dst, src).
 */
#if OSN_KERNEL_FROM(6, 10, 0)
# define osn_assign_str(dst, src)	__assign_str(dst)
#else
# define osn_assign_str(dst, src)	__assign_str(dst, src)
#endif

/*
 * Softirqs run as threads on PREEMPT_RT (ksoftirqd, ktimers, or the task
 * that re-enabled bottom halves): their time is thread noise there, and
 * the softirq tracepoints are not hooked, as upstream osnoise does.
 */
#define osn_softirqs_are_threads()	IS_ENABLED(CONFIG_PREEMPT_RT)

/*
 * Seconds and nanoseconds of a timestamp in TP_printk().
 *  [5.14, ...)  __print_ns_to_secs()/__print_ns_without_secs(), which
 *               libtraceevent also understands in the format file: added
 *               with upstream osnoise, commit bce29ac9ce0b ("trace: Add
 *               osnoise tracer"), v5.14.
 *  [..., 5.14)  the same split as plain arithmetic, which the format
 *               file's parsers evaluate too (64-bit division is native on
 *               x86-64, osn's only architecture).
 */
#if OSN_KERNEL_FROM(5, 14, 0)
# define osn_print_secs(ns)		__print_ns_to_secs(ns)
# define osn_print_nsecs(ns)		__print_ns_without_secs(ns)
#else
# define osn_print_secs(ns)		((u64)(ns) / 1000000000ULL)
# define osn_print_nsecs(ns)		((u32)((u64)(ns) % 1000000000ULL))
#endif

/*
 * A kthread bound to one CPU.
 *  [6.1, ...)   kthread_create_on_cpu(), exported (checked in the
 *               Module.symvers of every 6.1, 6.12 and 7.2 kernel of the
 *               matrix): it also marks the thread per-CPU for hotplug.
 *  [..., 6.1)   not exported by 5.10 (Debian 5.10.0-46 and -43-rt):
 *               kthread_create() + kthread_bind(), the same binding; osn
 *               stops the thread before its CPU goes down anyway.
 */
#if OSN_KERNEL_FROM(6, 1, 0)
# define osn_kthread_create_on_cpu(fn, data, cpu, namefmt)		\
	kthread_create_on_cpu(fn, data, cpu, namefmt)
#else
static inline struct task_struct *
osn_kthread_create_on_cpu(int (*fn)(void *), void *data, unsigned int cpu,
			  const char *namefmt)
{
	struct task_struct *t = kthread_create(fn, data, namefmt, cpu);

	if (!IS_ERR(t))
		kthread_bind(t, cpu);
	return t;
}
#endif

/*
 * A kthread's SCHED_FIFO priority (the timerlat threads, osn_timerlat.c).
 *  [6.1, ...)   sched_setattr_nocheck(), exported GPL (checked in the
 *               Module.symvers of every 6.1, 6.12 and 7.2 kernel of the
 *               matrix, generic and -rt): any priority, upstream's 95.
 *  [..., 6.1)   not exported by 5.10 (5.10.0-46 and 5.10.0-43-rt), whose
 *               only export is sched_set_fifo(): MAX_RT_PRIO / 2, i.e.
 *               50, which is what the threads get there.
 * Returns the priority set, or a negative errno.
 */
static inline int osn_sched_set_fifo(struct task_struct *t, int prio)
{
#if OSN_KERNEL_FROM(6, 1, 0)
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_FIFO,
		.sched_priority	= prio,
	};
	int ret = sched_setattr_nocheck(t, &attr);

	return ret ? ret : prio;
#else
	sched_set_fifo(t);
	return MAX_RT_PRIO / 2;
#endif
}

/*
 * sched_switch's arguments.
 *  [5.18, ...)  (preempt, prev, next, prev_state): upstream commit
 *               fa2c3254d7cf ("sched/tracing: Don't re-read p->state when
 *               emitting sched_switch event").
 *  [..., 5.18)  (preempt, prev, next).
 * A probe must match the tracepoint's prototype: osn does not use
 * prev_state, so it only appears where the tracepoint passes it.
 */
#if OSN_KERNEL_FROM(5, 18, 0)
# define OSN_SCHED_SWITCH_ARGS						\
	bool preempt, struct task_struct *prev, struct task_struct *next, \
	unsigned int prev_state
#else
# define OSN_SCHED_SWITCH_ARGS						\
	bool preempt, struct task_struct *prev, struct task_struct *next
#endif

/*
 * The cause probes' prototypes (osn_cause.c), which must match their
 * tracepoints' exactly; osn_cause.c checks each at build time against the
 * kernel's own declaration (OSN_PROBE_TYPECHECK).  Where the upstream
 * commit was not pinned down, the range is the one checked in Debian's
 * headers, with the boundary taken between the two kernels checked.
 *
 * workqueue:workqueue_queue_work's req_cpu:
 *  [5.19, ...)  int: upstream commit "workqueue: Fix type of cpu in trace
 *               event" (v5.19); 6.1.0-56's headers have it.
 *  [..., 5.19)  unsigned int (5.10.0-46's headers).
 */
#if OSN_KERNEL_FROM(5, 19, 0)
# define OSN_WQ_QUEUE_WORK_ARGS						\
	int req_cpu, struct pool_workqueue *pwq, struct work_struct *work
#else
# define OSN_WQ_QUEUE_WORK_ARGS						\
	unsigned int req_cpu, struct pool_workqueue *pwq,		\
	struct work_struct *work
#endif

/*
 * timer:timer_start:
 *  [6.9, ...)   (timer, bucket_expiry): the timer wheel rework of the
 *               timer-migration series (checked: 6.12 and 7.2 headers;
 *               the boundary is not pinned down more closely than "after
 *               6.1": no kernel of the matrix lies in between).
 *  [..., 6.9)   (timer, expires, flags) (5.10.0-46, 6.1.0-56).
 */
#if OSN_KERNEL_FROM(6, 9, 0)
# define OSN_TIMER_START_ARGS						\
	struct timer_list *timer, unsigned long bucket_expiry
#else
# define OSN_TIMER_START_ARGS						\
	struct timer_list *timer, unsigned long expires, unsigned int flags
#endif

/*
 * timer:hrtimer_expire_entry's second argument:
 *  [7.0, ...)   ktime_t now (checked: 7.2.12's headers; 6.12 still has
 *               the pointer; the release in between is not pinned down).
 *  [..., 7.0)   ktime_t *now.
 */
#if OSN_KERNEL_FROM(7, 0, 0)
# define OSN_HRTIMER_EXPIRE_ARGS	struct hrtimer *hrtimer, ktime_t now
#else
# define OSN_HRTIMER_EXPIRE_ARGS	struct hrtimer *hrtimer, ktime_t *now
#endif

/*
 * csd:csd_queue_cpu and csd:csd_function_entry, the cross-CPU function
 * calls' sender and callback:
 *  [6.3, ...)   upstream commit "trace,smp: Add tracepoints around
 *               remotelly called functions" (v6.3), <trace/events/csd.h>.
 *  [..., 6.3)   none: an IPI's callback and sender are unknown (5.10,
 *               6.1); Documentation/engine.md says so.
 */
#define OSN_HAVE_CSD_TRACEPOINTS	OSN_KERNEL_FROM(6, 3, 0)

/*
 * ipi:ipi_send_cpu, an IPI's sender, in the sender's context (the
 * reschedule IPI's: callback NULL, callsite the caller of the function
 * that sent it):
 *  [6.4, ...)   upstream commit "trace: Add trace_ipi_send_cpu()"
 *               (merged for v6.4); in Debian's 6.12 and later, not 6.1.
 *  [..., 6.4)   none: a reschedule IPI's sender is unknown, and osn
 *               writes no resched cause (Documentation/engine.md).
 */
#define OSN_HAVE_IPI_SEND_TRACEPOINT	OSN_KERNEL_FROM(6, 4, 0)

/*
 * in_hardirq():
 *  [5.11, ...)  in_hardirq(), added by the v5.11 series that renamed
 *               the preempt-count tests (absent from 5.10.0-46's headers).
 *  [..., 5.11)  in_irq(), the same test under its old name (Debian's
 *               5.10-rt has in_hardirq() from the RT patch set).
 * Used by the injector and by osn_cause.c.
 */
#if !OSN_KERNEL_FROM(5, 11, 0) && !defined(in_hardirq)
# define in_hardirq()			in_irq()
#endif

/*
 * hrtimer initialisation.
 *  [6.13, ...)  hrtimer_setup(), which takes the callback ("hrtimers:
 *               Introduce hrtimer_setup() to replace hrtimer_init()",
 *               v6.13); hrtimer_init() is gone from 7.2's exports.
 *  [..., 6.13)  hrtimer_init(), then set ->function.
 */
static inline void
osn_hrtimer_setup(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *),
		  clockid_t clock, enum hrtimer_mode mode)
{
#if OSN_KERNEL_FROM(6, 13, 0)
	hrtimer_setup(t, fn, clock, mode);
#else
	hrtimer_init(t, clock, mode);
	t->function = fn;
#endif
}

/*
 * Test injector only: an irq_work that runs in hard IRQ context on every
 * kernel (the injector's nested IRQ).
 *  [5.11, ...)  IRQ_WORK_INIT_HARD(): PREEMPT_RT runs other irq_work in
 *               a thread.  Debian's 5.10-rt has it from the RT patch set.
 *  [..., 5.11)  a plain static initializer (what init_irq_work() sets):
 *               without PREEMPT_RT it runs in hard IRQ.
 */
#if OSN_KERNEL_FROM(5, 11, 0) || defined(IRQ_WORK_INIT_HARD)
# define OSN_IRQ_WORK_INIT_HARD(fn)	IRQ_WORK_INIT_HARD(fn)
#else
# define OSN_IRQ_WORK_INIT_HARD(fn)	{ .func = (fn) }
#endif

/*
 * The unbound system workqueue osn's start/stop work runs on.
 *  [7.0, ...)   system_dfl_wq: upstream's workqueue renaming added it and
 *               made queueing on system_unbound_wq log "enqueued on
 *               deprecated workqueue" (seen on Debian's 7.2.12; 6.12 has
 *               only system_unbound_wq; the release in between that added
 *               it is not pinned down here).
 *  [..., 7.0)   system_unbound_wq.
 */
#if OSN_KERNEL_FROM(7, 0, 0)
# define osn_unbound_wq			system_dfl_wq
#else
# define osn_unbound_wq			system_unbound_wq
#endif

/*
 * Test injector only: deleting a timer_list and waiting for its callback.
 *  [6.2, ...)   timer_delete_sync(): upstream commit "timers: Rename
 *               del_timer_sync() to timer_delete_sync()" (v6.2);
 *               del_timer_sync() is gone from 7.2's exports.
 *  [..., 6.2)   del_timer_sync().
 */
#if OSN_KERNEL_FROM(6, 2, 0)
# define osn_timer_delete_sync(t)	timer_delete_sync(t)
#else
# define osn_timer_delete_sync(t)	del_timer_sync(t)
#endif

#include "osn_arch.h"

#endif /* _OSN_COMPAT_H */
