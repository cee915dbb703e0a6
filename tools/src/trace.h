/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - tracefs and ring-buffer I/O of the osn CLI (libtracefs,
 * libtraceevent).  Everything here talks to the kernel; the logic that
 * uses what it reads lives in the pure modules.
 */
#ifndef OSN_TRACE_H
#define OSN_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracefs.h>
#include <event-parse.h>

#include "decode.h"
#include "event.h"
#include "params.h"

/* Errors: -1 (or NULL) with the message as the last error (osn_err). */

/* Root, tracefs (mounted via libtracefs if needed), module loaded. */
int osn_check_env(void);
/* The knobs' directory: tracefs osn/ (built-in tracer) or the module's. */
const char *osn_knob_dir(void);

/*
 * Load the osn events' formats from tracefs and check every field the CLI
 * uses (osn_decoder_bind()); osn_decoder_free() undoes it.
 */
int osn_decoder_init(struct osn_decoder *d);
struct osn_part;
/* Name the functions of the causes of @n @parts (kernel symbols; as root only). */
void osn_decoder_name_parts(struct osn_decoder *d, struct osn_part *parts,
			    size_t n);
/*
 * Name @n return addresses @addr (a stack's frames) into @names: the text
 * symbol each falls in, "function+0xoffset", or the address where
 * /proc/kallsyms has none (not root, kptr_restrict).
 */
void osn_name_frames(const uint64_t *addr, size_t n, char (*names)[64]);
struct osn_cpu_task;
/* The same for the work functions of @n @tasks (--dump-tasks). */
void osn_decoder_name_tasks(struct osn_decoder *d, struct osn_cpu_task *tasks,
			    int n);
struct osn_explanation;
/* The same for @x's parts. */
void osn_decoder_name_causes(struct osn_decoder *d, struct osn_explanation *x);
struct osn_causes;
void osn_decoder_name_culprits(struct osn_decoder *d, struct osn_causes *cs);

typedef void (*osn_event_cb)(const struct osn_event *ev, void *ctx);
/*
 * Create a new instance (fails if it exists: the caller cleans first).
 * What is done to tracefs is shown with -D (osn_debug).
 */
struct tracefs_instance *osn_instance_new(const char *name);
/*
 * Remove every trigger of every event of @name, disable its events and
 * remove the instance.  Works on any instance (stale ones included);
 * returns -1 if it could not be removed.
 */
int osn_instance_remove(const char *name);

int osn_event_enable(struct tracefs_instance *inst, const char *sys,
		     const char *event);
/* osn's @event is enabled in @inst; @event NULL: any osn event is. */
bool osn_event_is_on(struct tracefs_instance *inst, const char *event);
int osn_event_filter(struct tracefs_instance *inst, const char *sys,
		     const char *event, const char *filter);
int osn_event_trigger(struct tracefs_instance *inst, const char *sys,
		      const char *event, const char *trigger);
int osn_event_trigger_remove(struct tracefs_instance *inst, const char *sys,
			     const char *event, const char *trigger);
/* Write an instance file ("buffer_size_kb", ...) with a clear error. */
int osn_instance_write(struct tracefs_instance *inst, const char *file,
		       const char *val);

/* Copy the text of @inst's trace to @f (named @path in messages). */
int osn_save_trace(struct tracefs_instance *inst, FILE *f, const char *path);
/*
 * As rtla: each of the @n -e events with a hist: --trigger has the hist
 * file of its event in @inst saved to <system>_<event>_hist.txt in the
 * current directory, and a "  Saving event ... hist to FILE" line on @msg.
 */
int osn_save_event_hists(struct tracefs_instance *inst,
			 const struct osn_event_opt *events, int n, FILE *msg);

/*
 * How many buffers other than @ours (instance names; the top level too)
 * use osn, with an osn event enabled or osn's in-tree tracer as their
 * current_tracer; named in @who.
 */
int osn_other_users(const char *const *ours, char *who, size_t wholen);

#endif
