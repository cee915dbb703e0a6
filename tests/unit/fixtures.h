/* SPDX-License-Identifier: GPL-2.0 */
/* fixtures.h - hand-made osn events shared by the unit tests. */
#ifndef OSN_FIXTURES_H
#define OSN_FIXTURES_H

#include <string.h>

#include "event.h"
#include "util.h"

static inline struct osn_event fx_sample(int cpu, uint64_t ts, uint64_t runtime,
					 uint64_t noise, uint64_t max,
					 uint64_t min, uint64_t samples)
{
	struct osn_event e;

	memset(&e, 0, sizeof(e));
	e.type = OSN_E_SAMPLE;
	e.cpu = cpu;
	e.ts = ts;
	e.s.runtime = runtime;
	e.s.noise = noise;
	e.s.max_sample = max;
	e.s.min_sample = min;
	e.s.samples = samples;
	return e;
}

static inline struct osn_event fx_thr(int cpu, uint64_t ts, uint64_t start,
				      uint64_t dur, uint64_t interf)
{
	struct osn_event e;

	memset(&e, 0, sizeof(e));
	e.type = OSN_E_THRESHOLD;
	e.cpu = cpu;
	e.ts = ts;
	e.thr.start = start;
	e.thr.duration = dur;
	e.thr.interference = interf;
	return e;
}

static inline struct osn_event fx_noise(enum osn_ev_type t, int cpu,
					uint64_t ts, uint64_t start,
					uint64_t dur, int id, const char *name)
{
	struct osn_event e;

	memset(&e, 0, sizeof(e));
	e.type = t;
	e.cpu = cpu;
	e.ts = ts;
	e.noise.start = start;
	e.noise.duration = dur;
	e.noise.id = id;
	if (name)
		osn_strlcpy(e.noise.name, name, sizeof(e.noise.name));
	return e;
}

static inline struct osn_event fx_stop(int cpu, uint64_t ts, int reason,
				       uint64_t value, uint64_t threshold)
{
	struct osn_event e;

	memset(&e, 0, sizeof(e));
	e.type = OSN_E_STOP;
	e.cpu = cpu;
	e.ts = ts;
	e.stop.reason = reason;
	e.stop.value = value;
	e.stop.threshold = threshold;
	return e;
}

static inline struct osn_event fx_cause(int cpu, uint64_t ts, int kind,
					int cls, uint64_t start,
					uint64_t function, int ocpu, int opid,
					const char *ocomm)
{
	struct osn_event e;

	memset(&e, 0, sizeof(e));
	e.type = OSN_E_CAUSE;
	e.cpu = cpu;
	e.ts = ts;
	e.cause.kind = kind;
	e.cause.cls = cls;
	e.cause.start = start;
	e.cause.function = function;
	e.cause.origin_cpu = ocpu;
	e.cause.origin_pid = opid;
	osn_strlcpy(e.cause.origin_comm, ocomm, sizeof(e.cause.origin_comm));
	return e;
}

#endif
