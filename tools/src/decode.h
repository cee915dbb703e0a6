/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decode.h - osn's ring-buffer records into struct osn_event
 * (libtraceevent only: no tracefs, so the unit tests decode records of
 * formats they write themselves).  Every field is found by its name in
 * include/osn/osn_abi.h once, when the formats are loaded, and read
 * through that field after: never by its place in the event.
 */
#ifndef OSN_DECODE_H
#define OSN_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

#include "event.h"

/* The kernel's events that --dump-tasks reads, as rtla's does. */
#define OSN_SWITCH_SYSTEM	"sched"
#define OSN_SWITCH_EVENT	"sched_switch"
#define OSN_WORK_SYSTEM		"workqueue"
#define OSN_WORK_EVENT		"workqueue_execute_start"

/* A cause's function and its name ("" when /proc/kallsyms has none). */
struct osn_sym {
	uint64_t addr;
	char name[64];
	bool looked;		/* looked up in /proc/kallsyms */
};

#define OSN_MAX_SYMS	4096

/* The fields of each osn event that the CLI reads, found at setup. */
struct osn_sample_fields {
	struct tep_format_field *runtime, *noise, *max_sample, *min_sample;
	struct tep_format_field *samples, *self;
	struct tep_format_field *count[OSN_CLASS_NR], *time[OSN_CLASS_NR];
};

struct osn_threshold_fields {
	struct tep_format_field *start, *duration, *interference;
};

/* irq_noise, softirq_noise, thread_noise, nmi_noise */
struct osn_noise_fields {
	struct tep_format_field *start, *duration;
	struct tep_format_field *id, *name;	/* NULL where there is none */
};

struct osn_stop_fields {
	struct tep_format_field *reason, *value, *threshold;
};

struct osn_cause_fields {
	struct tep_format_field *kind, *cls, *start, *function;
	struct tep_format_field *origin_cpu, *origin_pid, *origin_comm;
};

struct osn_tlat_fields {
	struct tep_format_field *latency, *seqnum, *context;
};

struct osn_stack_fields {
	struct tep_format_field *size, *caller;
};

struct osn_switch_fields {
	struct tep_format_field *pid, *comm;	/* next_pid, next_comm */
};

struct osn_work_fields {
	struct tep_format_field *function;
};

struct osn_fields {
	struct osn_sample_fields sample;
	struct osn_threshold_fields thr;
	struct osn_noise_fields noise[OSN_E_NR];	/* by OSN_E_* */
	struct osn_stop_fields stop;
	struct osn_cause_fields cause;
	struct osn_tlat_fields tlat;
	struct osn_stack_fields stack;
	struct osn_switch_fields sw;
	struct osn_work_fields work;
};

struct osn_decoder {
	struct tep_handle *tep;
	struct tep_event *ev[OSN_E_NR];
	int id[OSN_E_NR];			/* event id per type, -1: none */
	struct osn_fields f;
	struct osn_sym *syms;			/* functions named so far */
	size_t nsyms, capsyms;
};

/*
 * Take @tep (the osn events' formats; freed by osn_decoder_free(), or
 * here on failure) and look up every event and field the CLI reads.  A
 * missing one, or a field of another kind (a number that is not 1, 2, 4
 * or 8 bytes, a name that is not a string), is an error: -1 with the
 * event and field named in the last error (osn_err).  The kernel's own
 * events that --dump-tasks reads (sched_switch, workqueue_execute_start)
 * are optional: missing or of another shape, their id is -1.
 */
int osn_decoder_bind(struct osn_decoder *d, struct tep_handle *tep);
void osn_decoder_free(struct osn_decoder *d);
/* Whether @t's event was found and bound (the optional ones may not be). */
bool osn_decoder_has(const struct osn_decoder *d, enum osn_ev_type t);
/* 0 and *out filled if @record is an osn event, -1 otherwise. */
int osn_decode(const struct osn_decoder *d, struct tep_event *event,
	       struct tep_record *record, struct osn_event *out);

#endif
