/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - the parts of a run (tool.h), each in its own file with its own
 * state, attached to struct osn_tool when the command's ops allow it
 * (OSN_PART_*) and the options ask for it; NULL otherwise, and then each
 * of its functions does nothing.  tool.c calls them at their point of
 * the run.
 */
#ifndef OSN_RUN_H
#define OSN_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "actions.h"
#include "advise.h"
#include "audit.h"
#include "causes.h"
#include "explain.h"
#include "report.h"
#include "tool.h"

/* ---- run_out.c: where the output goes -------------------------------------- */

/* Where text goes, before anything is opened (JSON on stdout: quiet). */
void osn_run_out_init(struct osn_tool *t);
/* The output files, opened before anything changes: a bad path fails early. */
int osn_run_out_open(struct osn_tool *t);
/* Close them; an error writing -t's file makes @ret 1.  The exit status. */
int osn_run_out_close(struct osn_tool *t, int ret);
/* The final text report is printed (the JSON does not take stdout). */
bool osn_run_out_text_report(const struct osn_tool *t);

/* A command's final report, routed by osn_run_final_report(). */
struct osn_final_report {
	/* its text table (to t->out.text) */
	void (*table)(struct osn_tool *t);
	/* its text of --causes (to t->out.text) */
	void (*causes)(struct osn_tool *t, const struct osn_report_info *info);
	/* its text of a stop (to t->out.text); NULL: the osnoise one */
	void (*stop)(struct osn_tool *t);
	/* its JSON */
	void (*json)(FILE *f, struct osn_tool *t,
		     const struct osn_report_info *info);
	/* with the JSON on stdout, lost events noted on stderr after a stop */
	bool lost_after_stop;
};

/*
 * The text table, the stop and its explanation, the --audit advice and
 * --causes (text), the lost events (a note on stderr when the JSON takes
 * stdout), then the JSON.  -1 with osn_err().
 */
int osn_run_final_report(struct osn_tool *t, const struct osn_final_report *r);

/* ---- run_cpus.c, run_knobs.c: the CPUs and the module --------------------- */

/*
 * The measured CPUs (online and selected), what goes to the cpus knob,
 * the buffers read; osn itself moved to the housekeeping CPUs.
 */
int osn_run_cpus_pick(struct osn_tool *t);

/* Warn when the options knob says no workload runs (and the run keeps it). */
void osn_run_knobs_check(const struct osn_tool *t);
/* The module's "unmeasured" report, into t->unmeasured. */
void osn_run_knobs_unmeasured(struct osn_tool *t);
/* A read-only report of the module (OSN_PARAM_*), its first line; "": none. */
void osn_run_read_report(const char *name, char *buf, size_t len);
/* Until the module's report NAME says Y (5 s at most; else warn that the
 * first noises may be WHAT). */
void osn_run_wait_report(const char *name, const char *what);
/*
 * Before collecting, once the instance's osn events are on: the run on
 * (its probes hooked), and the cause probes if osn:noise_cause is on.
 */
void osn_run_wait_live(struct osn_tool *t);
/* Save the knobs (journal first), then write the run's. */
int osn_run_knobs_set(struct osn_tool *t);
/* Write the run's knobs (at setup, and when the module came back). */
int osn_run_knobs_write(struct osn_tool *t);
/* The buffers other than this run's that use osn, its events or its
 * in-tree tracer (trace.h's osn_other_users()): how many, named in @who. */
int osn_run_other_users(const struct osn_tool *t, char *who, size_t len);
/*
 * The collection ended: the workload threads paused, unless osn events
 * are on in a buffer that is not this run's (they share the workload).
 */
void osn_run_knobs_pause(struct osn_tool *t);
/* No sample came: why, from the module's start error, if it says. */
void osn_run_knobs_warn_no_samples(const struct osn_tool *t);

/* ---- run_tune.c: the CPUs tuned for the run ------------------------------- */

/*
 * --dma-latency (held open until osn_run_tune_free()) and
 * --deepest-idle-state (journaled in the session, restored at its end).
 */
int osn_run_tune_set(struct osn_tool *t);
void osn_run_tune_free(struct osn_tool *t);

/* ---- run_stop.c: the stop conditions (-s, -S) ------------------------------ */

struct osn_stop {
	struct tracefs_instance *winst;	/* the stop watch's instance */
	int watch_fd;			/* its trace_pipe, or -1 */
	struct osn_ring *rings;		/* per CPU: the recent osn events */
	struct osn_event ev;		/* the osn:stop read */
	bool have_ev;
	struct osn_explanation why;	/* the stop explained */
	bool have_why;
};

/* With -s or -S (and the command allowing it). */
int osn_run_stop_attach(struct osn_tool *t);
/* The tool's instance: every osn event, traceoff at the stop, rings. */
int osn_run_stop_events(struct osn_tool *t);
/* traceoff on osn:stop in @inst, recording the stop event when possible */
int osn_run_stop_traceoff(struct tracefs_instance *inst);
/* The stop watch, after every other instance's events (best effort). */
void osn_run_stop_watch(struct osn_tool *t);
/* Its fd for the collect loop's poll, or -1. */
int osn_run_stop_watch_fd(const struct osn_tool *t);
/* The watch woke the loop (@broken: in error): empty, or close it. */
void osn_run_stop_woke(struct osn_tool *t, bool broken);
/* Collection starts: the module's stop knobs written. */
int osn_run_stop_arm(struct osn_tool *t);
/* Every event read: the per-CPU history, the stop seen. */
void osn_run_stop_event(struct osn_tool *t, const struct osn_event *ev);
/* The tool's instance was turned off (by the stop's traceoff). */
bool osn_run_stop_instance_off(struct osn_tool *t);
/* After the last read: explain the stop, mark it in --report's charts. */
void osn_run_stop_explain(struct osn_tool *t);
/*
 * A hit during collection: the --on-threshold actions, then with
 * continue, explained and re-armed (unless @last).  1 to go on, 0 to
 * end, -1 on error.
 */
int osn_run_stop_hit(struct osn_tool *t, bool last);
/* The explanation of the stop, or NULL. */
struct osn_explanation *osn_run_stop_why(const struct osn_tool *t);
void osn_run_stop_free(struct osn_tool *t);

/* ---- run_save.c: the saved trace (-t, -e) and the actions ------------------ */

struct osn_saves {
	struct tracefs_instance *tinst;	/* -t's instance, or NULL */
	struct osn_saved {		/* saves per trace file: F, F.1, ... */
		const char *file;
		unsigned n;
	} saved[2 * OSN_MAX_ACTIONS];
	unsigned nsaved;
};

int osn_run_save_attach(struct osn_tool *t);
/* -t's instance, when a trace is saved (after the tool's). */
int osn_run_save_instance(struct osn_tool *t);
/* Its events: every osn event, the -e events, stopped with the tool. */
int osn_run_save_events(struct osn_tool *t);
/* The --on-threshold actions; false: the run ends (no continue). */
bool osn_run_save_on_threshold(struct osn_tool *t);
/* Collection begins, or goes on after a hit (continue): the trace emptied and on. */
int osn_run_save_rearm(struct osn_tool *t);
/* Collection ends: -t's trace off, so that its save ends. */
void osn_run_save_stop(struct osn_tool *t);
/* The end: -t's trace if no hit saved it, --on-end, the -e hists. */
int osn_run_save_end(struct osn_tool *t);
void osn_run_save_free(struct osn_tool *t);

/* ---- threads.c: the workload threads (-P, -C) ------------------------------ */

struct osn_threads {
	int cgroup_fd;			/* -C: its cgroup.procs, or -1 */
};

/* With -P or -C; -C's cgroup is checked before anything changes. */
int osn_run_threads_attach(struct osn_tool *t);
/* Wait for the osn/N threads, then -P and -C on each. */
int osn_run_threads_setup(struct osn_tool *t);
void osn_run_threads_free(struct osn_tool *t);

/* ---- run_causes.c: --causes ------------------------------------------------ */

int osn_run_causes_attach(struct osn_tool *t);
/* --causes, --audit: the noise events (and osn:noise_cause). */
int osn_run_causes_events(struct osn_tool *t);
/* Ranked, the culprits' functions named: ready to show. */
void osn_run_causes_rank(struct osn_tool *t);
void osn_run_causes_free(struct osn_tool *t);

/* ---- run_audit.c: --audit ---------------------------------------------------- */

struct osn_audit_run {
	struct osn_sources sources;	/* the noise sources seen */
	struct osn_audit audit;		/* read after the run */
	struct osn_audit_task *tasks;
	bool done;			/* audit read */
};

int osn_run_audit_attach(struct osn_tool *t);
void osn_run_audit_event(struct osn_tool *t, const struct osn_event *ev);
/* After the run: the audit, tied to the sources and the stop. */
void osn_run_audit_end(struct osn_tool *t);
/* The sources, explained, once the audit ran; else NULL. */
const struct osn_sources *osn_run_audit_sources(const struct osn_tool *t);
void osn_run_audit_free(struct osn_tool *t);

/* ---- run_report.c: --report ------------------------------------------------ */

/* Collection starts: the report's data (t->rep). */
int osn_run_report_start(struct osn_tool *t);
/* Mark the stop on CPU @cpu in the charts. */
void osn_run_report_stop(struct osn_tool *t, int cpu);
/* The HTML page (ops->report added what the command has). */
int osn_run_report_write(struct osn_tool *t);
void osn_run_report_free(struct osn_tool *t);

#endif
