// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c - osn's ring-buffer records into struct osn_event (see
 * decode.h).
 */
#include <stdlib.h>
#include <string.h>

#include "osn/osn_abi.h"
#include "decode.h"
#include "util.h"

/*
 * The events the CLI reads: osn's, and the kernel's that --dump-tasks
 * adds, optional (a kernel without them, or with another shape of them,
 * only has no task list).
 */
static const struct ev_name {
	const char *system, *name;
	bool optional;
} ev_names[OSN_E_NR] = {
	[OSN_E_SAMPLE] = { OSN_EVENT_SYSTEM, OSN_EV_SAMPLE },
	[OSN_E_THRESHOLD] = { OSN_EVENT_SYSTEM, OSN_EV_SAMPLE_THRESHOLD },
	[OSN_E_IRQ] = { OSN_EVENT_SYSTEM, OSN_EV_IRQ_NOISE },
	[OSN_E_SOFTIRQ] = { OSN_EVENT_SYSTEM, OSN_EV_SOFTIRQ_NOISE },
	[OSN_E_THREAD] = { OSN_EVENT_SYSTEM, OSN_EV_THREAD_NOISE },
	[OSN_E_NMI] = { OSN_EVENT_SYSTEM, OSN_EV_NMI_NOISE },
	[OSN_E_STOP] = { OSN_EVENT_SYSTEM, OSN_EV_STOP },
	[OSN_E_CAUSE] = { OSN_EVENT_SYSTEM, OSN_EV_NOISE_CAUSE },
	[OSN_E_TLAT] = { OSN_EVENT_SYSTEM, OSN_EV_TIMERLAT_SAMPLE },
	[OSN_E_STACK] = { OSN_EVENT_SYSTEM, OSN_EV_TIMERLAT_STACK },
	[OSN_E_SWITCH] = { OSN_SWITCH_SYSTEM, OSN_SWITCH_EVENT, true },
	[OSN_E_WORK] = { OSN_WORK_SYSTEM, OSN_WORK_EVENT, true },
};

/* A field the CLI reads: where its pointer goes in struct osn_fields. */
struct field_ref {
	enum osn_ev_type type;
	const char *name;
	size_t off;
	enum { F_NUM, F_STR, F_ARRAY } kind;
};

#define NUM(t, n, m)	{ t, n, offsetof(struct osn_fields, m), F_NUM }
#define STR(t, n, m)	{ t, n, offsetof(struct osn_fields, m), F_STR }
#define ARR(t, n, m)	{ t, n, offsetof(struct osn_fields, m), F_ARRAY }
#define NOISE(t, n, m)	NUM(t, n, noise[t].m)

static const struct field_ref field_refs[] = {
	NUM(OSN_E_SAMPLE, OSN_F_RUNTIME, sample.runtime),
	NUM(OSN_E_SAMPLE, OSN_F_NOISE, sample.noise),
	NUM(OSN_E_SAMPLE, OSN_F_MAX_SAMPLE, sample.max_sample),
	NUM(OSN_E_SAMPLE, OSN_F_MIN_SAMPLE, sample.min_sample),
	NUM(OSN_E_SAMPLE, OSN_F_SAMPLES, sample.samples),
	NUM(OSN_E_SAMPLE, OSN_F_HW_COUNT, sample.count[OSN_CLASS_HW]),
	NUM(OSN_E_SAMPLE, OSN_F_NMI_COUNT, sample.count[OSN_CLASS_NMI]),
	NUM(OSN_E_SAMPLE, OSN_F_IRQ_COUNT, sample.count[OSN_CLASS_IRQ]),
	NUM(OSN_E_SAMPLE, OSN_F_SOFTIRQ_COUNT, sample.count[OSN_CLASS_SOFTIRQ]),
	NUM(OSN_E_SAMPLE, OSN_F_THREAD_COUNT, sample.count[OSN_CLASS_THREAD]),
	NUM(OSN_E_SAMPLE, OSN_F_HW_TIME, sample.time[OSN_CLASS_HW]),
	NUM(OSN_E_SAMPLE, OSN_F_NMI_TIME, sample.time[OSN_CLASS_NMI]),
	NUM(OSN_E_SAMPLE, OSN_F_IRQ_TIME, sample.time[OSN_CLASS_IRQ]),
	NUM(OSN_E_SAMPLE, OSN_F_SOFTIRQ_TIME, sample.time[OSN_CLASS_SOFTIRQ]),
	NUM(OSN_E_SAMPLE, OSN_F_THREAD_TIME, sample.time[OSN_CLASS_THREAD]),
	NUM(OSN_E_SAMPLE, OSN_F_SELF, sample.self),

	NUM(OSN_E_THRESHOLD, OSN_F_START, thr.start),
	NUM(OSN_E_THRESHOLD, OSN_F_DURATION, thr.duration),
	NUM(OSN_E_THRESHOLD, OSN_F_INTERFERENCE, thr.interference),

	NOISE(OSN_E_IRQ, OSN_F_START, start),
	NOISE(OSN_E_IRQ, OSN_F_DURATION, duration),
	NOISE(OSN_E_IRQ, OSN_F_VECTOR, id),
	STR(OSN_E_IRQ, OSN_F_DESC, noise[OSN_E_IRQ].name),
	NOISE(OSN_E_SOFTIRQ, OSN_F_START, start),
	NOISE(OSN_E_SOFTIRQ, OSN_F_DURATION, duration),
	NOISE(OSN_E_SOFTIRQ, OSN_F_VECTOR, id),
	NOISE(OSN_E_THREAD, OSN_F_START, start),
	NOISE(OSN_E_THREAD, OSN_F_DURATION, duration),
	NOISE(OSN_E_THREAD, OSN_F_PID, id),
	STR(OSN_E_THREAD, OSN_F_COMM, noise[OSN_E_THREAD].name),
	NOISE(OSN_E_NMI, OSN_F_START, start),
	NOISE(OSN_E_NMI, OSN_F_DURATION, duration),

	NUM(OSN_E_STOP, OSN_F_REASON, stop.reason),
	NUM(OSN_E_STOP, OSN_F_VALUE, stop.value),
	NUM(OSN_E_STOP, OSN_F_THRESHOLD, stop.threshold),

	NUM(OSN_E_CAUSE, OSN_F_KIND, cause.kind),
	NUM(OSN_E_CAUSE, OSN_F_CLASS, cause.cls),
	NUM(OSN_E_CAUSE, OSN_F_START, cause.start),
	NUM(OSN_E_CAUSE, OSN_F_FUNCTION, cause.function),
	NUM(OSN_E_CAUSE, OSN_F_ORIGIN_CPU, cause.origin_cpu),
	NUM(OSN_E_CAUSE, OSN_F_ORIGIN_PID, cause.origin_pid),
	STR(OSN_E_CAUSE, OSN_F_ORIGIN_COMM, cause.origin_comm),

	NUM(OSN_E_TLAT, OSN_F_TIMER_LATENCY, tlat.latency),
	NUM(OSN_E_TLAT, OSN_F_SEQNUM, tlat.seqnum),
	NUM(OSN_E_TLAT, OSN_F_CONTEXT, tlat.context),

	NUM(OSN_E_STACK, OSN_F_SIZE, stack.size),
	ARR(OSN_E_STACK, OSN_F_CALLER, stack.caller),

	NUM(OSN_E_SWITCH, "next_pid", sw.pid),
	STR(OSN_E_SWITCH, "next_comm", sw.comm),
	NUM(OSN_E_WORK, "function", work.function),
};

/* What tep_read_number_field() reads: one integer of 1, 2, 4 or 8 bytes. */
static bool is_number(const struct tep_format_field *f)
{
	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC |
			TEP_FIELD_IS_STRING))
		return false;
	return f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8;
}

/*
 * The size of an array's element.  libtraceevent leaves elementsize 0 for
 * a __data_loc array of longs ("__data_loc unsigned long[]", flagged
 * LONG): that is the traced kernel's long, from the page header.
 */
static int element_size(const struct tep_format_field *f)
{
	int size = f->elementsize;

	if (!size && (f->flags & TEP_FIELD_IS_LONG))
		size = tep_get_long_size(f->event->tep);
	return size;
}

/* A dynamic array of 4- or 8-byte numbers (the stack's addresses). */
static bool is_array(const struct tep_format_field *f)
{
	int size = element_size(f);

	return (f->flags & TEP_FIELD_IS_DYNAMIC) && (size == 4 || size == 8);
}

static bool of_kind(const struct tep_format_field *f, int kind)
{
	switch (kind) {
	case F_STR:
		return f->flags & TEP_FIELD_IS_STRING;
	case F_ARRAY:
		return is_array(f);
	default:
		return is_number(f);
	}
}

static int bind_field(struct osn_decoder *d, const struct field_ref *r)
{
	const struct ev_name *e = &ev_names[r->type];
	struct tep_format_field *f = tep_find_field(d->ev[r->type], r->name);

	if (!f)
		return osn_err("event %s:%s has no field '%s': module and tool versions differ",
			       e->system, e->name, r->name);
	if (!of_kind(f, r->kind))
		return osn_err("event %s:%s: field '%s' (%s, %d bytes) is not %s: module and tool versions differ",
			       e->system, e->name, r->name, f->type, f->size,
			       r->kind == F_STR ? "a string" :
			       r->kind == F_ARRAY ? "an array of addresses" :
			       "a number");
	*(struct tep_format_field **)((char *)&d->f + r->off) = f;
	return 0;
}

/* An optional event that is missing, or whose fields are not as read. */
static void drop_event(struct osn_decoder *d, enum osn_ev_type t)
{
	osn_debug("no %s:%s as osn reads it: %s", ev_names[t].system,
		  ev_names[t].name, osn_last_err());
	d->ev[t] = NULL;
	d->id[t] = -1;
}

int osn_decoder_bind(struct osn_decoder *d, struct tep_handle *tep)
{
	memset(d, 0, sizeof(*d));
	d->tep = tep;
	for (int t = 0; t < OSN_E_NR; t++) {
		const struct ev_name *e = &ev_names[t];

		d->id[t] = -1;
		d->ev[t] = tep_find_event_by_name(tep, e->system, e->name);
		if (d->ev[t]) {
			d->id[t] = d->ev[t]->id;
		} else if (!e->optional) {
			osn_err("the module has no event %s:%s: module and tool versions differ",
				e->system, e->name);
			goto fail;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(field_refs); i++) {
		enum osn_ev_type t = field_refs[i].type;

		if (!d->ev[t] || !bind_field(d, &field_refs[i]))
			continue;
		if (!ev_names[t].optional)
			goto fail;
		drop_event(d, t);
	}
	return 0;
fail:
	osn_decoder_free(d);
	return -1;
}

bool osn_decoder_has(const struct osn_decoder *d, enum osn_ev_type t)
{
	return d->id[t] >= 0;
}

void osn_decoder_free(struct osn_decoder *d)
{
	if (d->tep)
		tep_free(d->tep);
	free(d->syms);
	memset(d, 0, sizeof(*d));
}

/* Bound at setup to a number field: reading it cannot fail. */
static uint64_t num(struct tep_format_field *f, const struct tep_record *record)
{
	unsigned long long v = 0;

	if (tep_read_number_field(f, record->data, &v))
		return 0;
	return v;
}

static void str(struct tep_format_field *f, struct tep_record *record,
		char *buf, size_t len)
{
	int flen = 0;
	const char *p;
	size_t n = 0;

	buf[0] = '\0';
	p = tep_get_field_raw(NULL, f->event, f->name, record, &flen, 0);
	if (!p || flen <= 0)
		return;
	while (n < (size_t)flen && n < len - 1 && p[n])
		n++;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

static void decode_sample(const struct osn_decoder *d,
			  struct tep_record *record, struct osn_event *ev)
{
	const struct osn_sample_fields *f = &d->f.sample;

	ev->s.runtime = num(f->runtime, record);
	ev->s.noise = num(f->noise, record);
	ev->s.max_sample = num(f->max_sample, record);
	ev->s.min_sample = num(f->min_sample, record);
	ev->s.samples = num(f->samples, record);
	for (int c = 0; c < OSN_CLASS_NR; c++) {
		ev->s.count[c] = num(f->count[c], record);
		ev->s.time[c] = num(f->time[c], record);
	}
	ev->s.self = num(f->self, record);
}

static void decode_noise(const struct osn_decoder *d, int t,
			 struct tep_record *record, struct osn_event *ev)
{
	const struct osn_noise_fields *f = &d->f.noise[t];

	ev->noise.start = num(f->start, record);
	ev->noise.duration = num(f->duration, record);
	ev->noise.id = f->id ? (int)num(f->id, record) : -1;
	if (f->name)
		str(f->name, record, ev->noise.name, sizeof(ev->noise.name));
}

static void decode_cause(const struct osn_decoder *d,
			 struct tep_record *record, struct osn_event *ev)
{
	const struct osn_cause_fields *f = &d->f.cause;

	ev->cause.kind = (int)num(f->kind, record);
	ev->cause.cls = (int)num(f->cls, record);
	ev->cause.start = num(f->start, record);
	ev->cause.function = num(f->function, record);
	ev->cause.origin_cpu = (int)num(f->origin_cpu, record);
	ev->cause.origin_pid = (int)num(f->origin_pid, record);
	str(f->origin_comm, record, ev->cause.origin_comm,
	    sizeof(ev->cause.origin_comm));
}

/* The frames stay in @record: the event is good while it is. */
static void decode_stack(const struct osn_decoder *d,
			 struct tep_record *record, struct osn_event *ev)
{
	const struct osn_stack_fields *f = &d->f.stack;
	unsigned size = (unsigned)element_size(f->caller);
	int len = 0;
	const void *p = tep_get_field_raw(NULL, f->caller->event,
					  f->caller->name, record, &len, 0);
	uint64_t n = num(f->size, record);

	ev->stack.size = size;
	if (!p || len <= 0)
		return;
	/* no more than the record holds, whatever size says */
	if (n > (unsigned)len / size)
		n = (unsigned)len / size;
	ev->stack.n = (unsigned)n;
	ev->stack.frames = p;
}

int osn_decode(const struct osn_decoder *d, struct tep_event *event,
	       struct tep_record *record, struct osn_event *ev)
{
	int t;

	for (t = 0; t < OSN_E_NR; t++)
		if (d->id[t] == event->id)	/* -1, none: never an id */
			break;
	if (t == OSN_E_NR)
		return -1;
	memset(ev, 0, sizeof(*ev));
	ev->type = t;
	ev->cpu = record->cpu;
	ev->ts = record->ts;
	switch (t) {
	case OSN_E_SAMPLE:
		decode_sample(d, record, ev);
		break;
	case OSN_E_THRESHOLD:
		ev->thr.start = num(d->f.thr.start, record);
		ev->thr.duration = num(d->f.thr.duration, record);
		ev->thr.interference = num(d->f.thr.interference, record);
		break;
	case OSN_E_IRQ:
	case OSN_E_SOFTIRQ:
	case OSN_E_THREAD:
	case OSN_E_NMI:
		decode_noise(d, t, record, ev);
		break;
	case OSN_E_STOP:
		ev->stop.reason = (int)num(d->f.stop.reason, record);
		ev->stop.value = num(d->f.stop.value, record);
		ev->stop.threshold = num(d->f.stop.threshold, record);
		break;
	case OSN_E_CAUSE:
		decode_cause(d, record, ev);
		break;
	case OSN_E_TLAT:
		ev->tlat.latency = num(d->f.tlat.latency, record);
		ev->tlat.seqnum = (unsigned)num(d->f.tlat.seqnum, record);
		ev->tlat.context = (int)num(d->f.tlat.context, record);
		break;
	case OSN_E_STACK:
		decode_stack(d, record, ev);
		break;
	case OSN_E_SWITCH:
		ev->sw.pid = (int)num(d->f.sw.pid, record);
		str(d->f.sw.comm, record, ev->sw.comm, sizeof(ev->sw.comm));
		break;
	case OSN_E_WORK:
		ev->work.function = num(d->f.work.function, record);
		break;
	default:
		return -1;
	}
	return 0;
}
