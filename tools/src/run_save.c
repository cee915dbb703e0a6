// SPDX-License-Identifier: GPL-2.0
/*
 * run_save.c - the saved trace and the actions (see run.h): -t's
 * instance with every osn event and the -e events, saved at a hit or at
 * the end, each file numbered F, F.1, ... per save; the --on-threshold
 * and --on-end actions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "osn/osn_abi.h"
#include "run.h"

int osn_run_save_attach(struct osn_tool *t)
{
	if (!(t->ops->parts & OSN_PART_SAVE))
		return 0;
	t->saves = calloc(1, sizeof(*t->saves));
	return t->saves ? 0 : osn_err("out of memory");
}

int osn_run_save_instance(struct osn_tool *t)
{
	const struct osn_params *p = t->p;

	if (!t->saves || !(p->on_threshold.has_trace || p->on_end.has_trace))
		return 0;
	t->saves->tinst = osn_tool_new_instance(t, OSN_INST_TRACE);
	return t->saves->tinst ? 0 : -1;
}

/* @file's count of saves during this run, or NULL if it has none. */
static struct osn_saved *find_saved(struct osn_saves *sv, const char *file)
{
	for (unsigned i = 0; i < sv->nsaved; i++)
		if (!strcmp(sv->saved[i].file, file))
			return &sv->saved[i];
	return NULL;
}

/*
 * Save the trace to @file, or to @file.N for its N-th save of the run
 * (osn_numbered_file()); -t's file was opened before the run.
 */
static int save_trace_to(void *ctx, const char *file)
{
	struct osn_tool *t = ctx;
	struct osn_saves *sv = t->saves;
	struct osn_saved *s;
	char name[4096];
	FILE *f;
	int ret;

	if (!sv)
		return osn_err("%s: this command saves no trace", file);
	s = find_saved(sv, file);
	if (!s) {
		if (sv->nsaved == ARRAY_SIZE(sv->saved))
			return osn_err("too many trace files");
		s = &sv->saved[sv->nsaved++];
		s->file = file;
		s->n = 0;
	}
	osn_numbered_file(file, s->n++, name, sizeof(name));
	fprintf(t->out.text, "  Saving trace to %s\n", name);
	if (s->n == 1 && t->out.trace_f && !strcmp(file, t->p->trace_file))
		return osn_save_trace(sv->tinst, t->out.trace_f, name);
	f = fopen(name, "w");
	if (!f)
		return osn_err("cannot write %s: %s", name, strerror(errno));
	ret = osn_save_trace(sv->tinst, f, name);
	if (fclose(f) && !ret)
		ret = osn_err("cannot write %s: %s", name, strerror(errno));
	return ret;
}

/* -e sys[:event] in -t's instance, with its --filter and --trigger */
static int setup_trace_event(struct tracefs_instance *tinst,
			     const struct osn_event_opt *e)
{
	const char *ev = e->event[0] ? e->event : NULL;

	if ((e->filter || e->trigger) && !ev)
		return osn_err("%s needs -e sys:event, not a whole system (%s)",
			       e->filter ? "--filter" : "--trigger", e->system);
	/* the filter first: no unfiltered event between enable and filter */
	if (e->filter && osn_event_filter(tinst, e->system, ev, e->filter))
		return -1;
	if (osn_event_enable(tinst, e->system, ev))
		return -1;
	if (e->trigger &&
	    osn_event_trigger(tinst, e->system, ev, e->trigger))
		return -1;
	return 0;
}

/*
 * -t: every osn event, the -e events, stopped with the tool.  The
 * instance records from the start of collection (osn_run_save_rearm()),
 * as rtla starts its record instance last: setup's events are not the
 * run's (the debug kernel's setup lasts 20-30 s).
 */
int osn_run_save_events(struct osn_tool *t)
{
	struct tracefs_instance *tinst = t->saves ? t->saves->tinst : NULL;

	if (!tinst)
		return 0;
	if (tracefs_trace_off(tinst))
		return osn_err("cannot stop instance %s", OSN_INST_TRACE);
	for (int i = 0; i < t->p->nevents; i++)
		if (setup_trace_event(tinst, &t->p->events[i]))
			return -1;
	if (osn_event_enable(tinst, OSN_EVENT_SYSTEM, NULL))
		return -1;
	return t->stop ? osn_run_stop_traceoff(tinst) : 0;
}

/*
 * -t's trace when no hit saved it (rtla saves none then: osn keeps what
 * -t and -e asked for), then the --on-end actions, whether a stop
 * condition was hit or not (as rtla).
 */
int osn_run_save_end(struct osn_tool *t)
{
	struct osn_saves *sv = t->saves;

	if (!sv)
		return 0;
	if (t->p->trace_file && !find_saved(sv, t->p->trace_file) &&
	    save_trace_to(t, t->p->trace_file))
		return -1;
	osn_actions_perform(&t->p->on_end, save_trace_to, t);
	return sv->tinst && osn_save_event_hists(sv->tinst, t->p->events,
						 t->p->nevents, t->out.text) ?
		-1 : 0;
}

bool osn_run_save_on_threshold(struct osn_tool *t)
{
	return osn_actions_perform(&t->p->on_threshold, save_trace_to, t);
}

int osn_run_save_rearm(struct osn_tool *t)
{
	struct tracefs_instance *tinst = t->saves ? t->saves->tinst : NULL;

	if (tinst && (tracefs_instance_file_clear(tinst, "trace") ||
		      tracefs_trace_on(tinst)))
		return osn_err("cannot restart instance %s", OSN_INST_TRACE);
	return 0;
}

/*
 * The end of collection: -t's trace stops with the tool's instance, as
 * rtla stops its record instance after its main loop.  A trace read while
 * it records may not end: on the debug kernel, osn's events overwrote the
 * full buffer faster than its `trace` file was read, and a 1 s run took
 * 13 minutes to save.
 */
void osn_run_save_stop(struct osn_tool *t)
{
	if (t->saves && t->saves->tinst)
		tracefs_trace_off(t->saves->tinst);
}

void osn_run_save_free(struct osn_tool *t)
{
	if (!t->saves)
		return;
	if (t->saves->tinst)
		tracefs_instance_free(t->saves->tinst);
	free(t->saves);
	t->saves = NULL;
}
