/* SPDX-License-Identifier: GPL-2.0 */
/* scenarios.h - event histories leading to a stop (explain and render tests). */
#ifndef OSN_SCENARIOS_H
#define OSN_SCENARIOS_H

#include "explain.h"
#include "fixtures.h"
#include "osn/osn_abi.h"

/*
 * cpu 1: a 523.104 us sample made of a 501.220 us local_timer irq, a
 * 12.004 us TIMER softirq, 4.100 us of kworker/1:1, and 5.780 us nothing
 * explains; stop_tracing_us = 100.
 */
static inline void scenario_single(struct osn_ring *r, struct osn_event *stop)
{
	struct osn_event e;

	osn_ring_init(r, 64);
	e = fx_sample(1, 100, 1000000, 0, 0, 0, 0);
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_IRQ, 1, 1310, 1000, 300, 236, "local_timer");
	osn_ring_push(r, &e);
	e = fx_thr(1, 2600, 500, 2000, 1);	/* an earlier, smaller sample */
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_IRQ, 1, 511400, 10100, 501220, 236, "local_timer");
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_SOFTIRQ, 1, 523600, 511500, 12004, 1, NULL);
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_THREAD, 1, 527900, 523700, 4100, 45, "kworker/1:1");
	osn_ring_push(r, &e);
	e = fx_thr(1, 533200, 10000, 523104, 3);
	osn_ring_push(r, &e);
	*stop = fx_stop(1, 533300, OSN_STOP_SINGLE, 523104, 100000);
	osn_ring_push(r, stop);
	/* after the stop: ignored */
	e = fx_noise(OSN_E_IRQ, 1, 540000, 539000, 1000, 236, "local_timer");
	osn_ring_push(r, &e);
}

/*
 * cpu 1: one sample of 700 us made of two IPIs from stress-ng on CPU 0
 * (the same callback: one cause, x2), a kworker running a work queued from
 * an interrupt, a cause of another noise (other start: not counted) and
 * an IPI whose origin is unknown.
 */
#define FX_FN_TLB	0xffffffff81001000ULL
#define FX_FN_WORK	0xffffffff81002000ULL
static inline void scenario_causes(struct osn_ring *r, struct osn_event *stop)
{
	struct osn_event e;

	osn_ring_init(r, 64);
	e = fx_sample(1, 100, 1000000, 0, 0, 0, 0);
	osn_ring_push(r, &e);
	e = fx_cause(1, 1100, OSN_CAUSE_IPI, OSN_CLASS_IRQ, 1000, FX_FN_TLB,
		     0, 4711, "stress-ng");
	osn_ring_push(r, &e);
	e = fx_cause(1, 1150, OSN_CAUSE_TLB, OSN_CLASS_IRQ, 1000, 0,
		     0, 4711, "stress-ng");
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_IRQ, 1, 201000, 1000, 200000, 251, "call_function_single");
	osn_ring_push(r, &e);
	e = fx_cause(1, 201100, OSN_CAUSE_IPI, OSN_CLASS_IRQ, 201000, FX_FN_TLB,
		     0, 4711, "stress-ng");
	osn_ring_push(r, &e);
	e = fx_cause(1, 201200, OSN_CAUSE_IPI, OSN_CLASS_IRQ, 999999, FX_FN_WORK,
		     0, 1, "init");		/* another noise's */
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_IRQ, 1, 401000, 201000, 200000, 251, "call_function_single");
	osn_ring_push(r, &e);
	e = fx_cause(1, 401100, OSN_CAUSE_WAKEUP, OSN_CLASS_THREAD, 401000, 0,
		     0, -1, "[irq]");
	osn_ring_push(r, &e);
	e = fx_cause(1, 401200, OSN_CAUSE_WORK, OSN_CLASS_THREAD, 401000, FX_FN_WORK,
		     0, -1, "[softirq]");
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_THREAD, 1, 601000, 401000, 200000, 45, "kworker/1:1");
	osn_ring_push(r, &e);
	e = fx_cause(1, 601100, OSN_CAUSE_IPI, OSN_CLASS_IRQ, 601000, FX_FN_WORK,
		     -1, -1, "unknown");
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_IRQ, 1, 651000, 601000, 50000, 252, "call_function");
	osn_ring_push(r, &e);
	e = fx_thr(1, 701000, 1000, 700000, 4);
	osn_ring_push(r, &e);
	*stop = fx_stop(1, 701100, OSN_STOP_SINGLE, 700000, 100000);
	osn_ring_push(r, stop);
}

/*
 * cpu 0: a period with 180 us of noise > stop_tracing_total_us 150:
 * 100 us (90 us local_timer + 10 us unexplained), 50 us of a thread,
 * 30 us of hardware noise.
 */
static inline void scenario_total(struct osn_ring *r, struct osn_event *stop)
{
	struct osn_event e;

	osn_ring_init(r, 64);
	e = fx_thr(0, 500, 100, 50, 0);		/* previous period */
	osn_ring_push(r, &e);
	e = fx_sample(0, 1000, 1000000, 50, 50, 50, 1);
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_IRQ, 0, 95000, 5000, 90000, 236, "local_timer");
	osn_ring_push(r, &e);
	e = fx_thr(0, 102100, 2000, 100000, 1);
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_THREAD, 0, 250100, 200000, 50000, 77, "stress-ng");
	osn_ring_push(r, &e);
	e = fx_thr(0, 250200, 200000, 50000, 1);
	osn_ring_push(r, &e);
	e = fx_thr(0, 330100, 300000, 30000, 0);
	osn_ring_push(r, &e);
	e = fx_noise(OSN_E_IRQ, 0, 400600, 400000, 500, 236, "local_timer");
	osn_ring_push(r, &e);
	/* the module emits the period's summary, then the stop */
	e = fx_sample(0, 499000, 1000000, 180000, 100000, 30000, 3);
	osn_ring_push(r, &e);
	*stop = fx_stop(0, 500000, OSN_STOP_TOTAL, 180000, 150000);
	osn_ring_push(r, stop);
}

#endif
