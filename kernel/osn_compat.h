/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osn_compat.h - every kernel version or configuration difference osn
 * depends on, in one place.  Each entry names the range of kernels it is
 * for, so that dropping a range is a matter of deleting one branch.
 *
 * Supported: 6.1 and 6.12, generic and PREEMPT_RT (Debian 12 packages).
 */
#ifndef _OSN_COMPAT_H
#define _OSN_COMPAT_H

#include <linux/version.h>
#include <linux/trace_clock.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

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
 *  [6.1.?,  ...)  rcu_momentary_eqs(), exported GPL.  The rename from
 *                 rcu_momentary_dyntick_idle() landed in 6.12 and was
 *                 backported to the 6.1.y stable series that Debian ships
 *                 (6.1.0-56 = 6.1.192 has only the new name).
 *  [..., 6.1.0)   rcu_momentary_dyntick_idle().
 * cond_resched_tasks_rcu_qs() and rcu_all_qs() do not help: the former
 * only reports to Tasks RCU, the latter is neither exported nor built on
 * PREEMPT_RCU kernels, which all four targets are.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
# define osn_rcu_momentary_qs()		rcu_momentary_eqs()
#else
# define osn_rcu_momentary_qs()		rcu_momentary_dyntick_idle()
#endif

/*
 * Voluntary preemption point for the measuring loop.
 *  6.1/6.12 generic (PREEMPT_DYNAMIC): cond_resched() is a static call
 *     whose key (__SCK__cond_resched) is exported: usable.
 *  6.1-rt (PREEMPT_RT, no PREEMPT_DYNAMIC): cond_resched() folds to 0 at
 *     compile time, so the unexported __cond_resched is never referenced.
 *  6.12-rt (PREEMPT_RT + PREEMPT_DYNAMIC): static call again, exported.
 * Fully preemptible kernels need no preemption point at all; the call
 * stays because it costs one patched-out call there.
 */
#define osn_cond_resched()		cond_resched()

/*
 * __string()/__assign_str() in TRACE_EVENT:
 *  [6.10, ...)  __assign_str(dst) takes the source from __string().
 *  [..., 6.10)  __assign_str(dst, src).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
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

#endif /* _OSN_COMPAT_H */
