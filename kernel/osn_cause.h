/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osn_cause.h - the causes of noise (osn_cause.c): the probes of the cause
 * table (osn_probes.c), hooked only while osn:noise_cause is enabled, and
 * the wake-up cause the sched_switch probe reports.
 */
#ifndef _OSN_CAUSE_H
#define _OSN_CAUSE_H

#include <linux/types.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "osn_compat.h"

struct osn_cpu;
struct task_struct;
struct work_struct;
struct pool_workqueue;
struct timer_list;
struct hrtimer;

void osn_cause_reset(void);
void osn_cause_thread_in(struct osn_cpu *oc, struct task_struct *next);

void osn_probe_cause_waking(void *data, struct task_struct *p);
void osn_probe_cause_queue_work(void *data, OSN_WQ_QUEUE_WORK_ARGS);
void osn_probe_cause_execute_work(void *data, struct work_struct *work);
void osn_probe_cause_execute_end(void *data, struct work_struct *work,
				 work_func_t function);
void osn_probe_cause_timer_start(void *data, OSN_TIMER_START_ARGS);
void osn_probe_cause_timer_expire(void *data, struct timer_list *timer,
				  unsigned long baseclk);
void osn_probe_cause_hrtimer_expire(void *data, OSN_HRTIMER_EXPIRE_ARGS);
void osn_probe_cause_tlb_flush(void *data, int reason, unsigned long pages);
#if OSN_HAVE_IPI_SEND_TRACEPOINT
void osn_probe_cause_ipi_send(void *data, const unsigned int cpu,
			      unsigned long callsite, void *callback);
void osn_probe_cause_resched(void *data, int vector);
#endif
#if OSN_HAVE_CSD_TRACEPOINTS
void osn_probe_cause_csd_queue(void *data, const unsigned int cpu,
			       unsigned long callsite, smp_call_func_t func,
			       call_single_data_t *csd);
void osn_probe_cause_csd_function(void *data, smp_call_func_t func,
				  call_single_data_t *csd);
#endif

#endif /* _OSN_CAUSE_H */
