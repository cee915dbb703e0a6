/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tool.h - what osn top and osn hist share: the command line, checks, the
 * session (lock, knobs), instances and events, warm-up, the one-second
 * loop (asleep between ticks), stop detection and explanation, saving the
 * trace, and undoing everything.
 * Each command plugs in with struct osn_tool_ops (like rtla's tool_ops).
 */
#ifndef OSN_TOOL_H
#define OSN_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "advise.h"
#include "audit.h"
#include "causes.h"
#include "explain.h"
#include "params.h"
#include "render.h"
#include "report.h"
#include "session.h"
#include "stats.h"
#include "trace.h"

struct osn_tool;

/*
 * What a command adds to the run (see osn_tool_main() for when each is
 * called).  Errors: -1 with osn_err().
 */
struct osn_tool_ops {
	enum osn_cmd cmd;		/* its name and options (params.c) */
	const char *instance;		/* tracefs instance of the tool */
	/* Before anything changes: allocate t->priv. */
	int (*init)(struct osn_tool *t);
	/* Warm-up is over: collection starts (hist: add the hist trigger). */
	int (*start)(struct osn_tool *t);
	/* An osn event of a measured CPU, during collection. */
	void (*on_event)(struct osn_tool *t, const struct osn_event *ev);
	/*
	 * Once a second during collection (top: refresh).  Without it (hist)
	 * and without a stop condition, the buffer only holds the per-period
	 * summaries: it is read as seldom as its size allows (up to once a
	 * minute), as rtla osnoise hist, which reads nothing until the end.
	 */
	void (*tick)(struct osn_tool *t);
	/* Collection is over; tracefs is still set up (hist: read it). */
	int (*finish)(struct osn_tool *t);
	/* Final output (text and/or JSON). */
	int (*report)(struct osn_tool *t);
	/* Free t->priv, whatever point the run reached. */
	void (*destroy)(struct osn_tool *t);
};

struct osn_tool {
	struct osn_params *p;
	const struct osn_tool_ops *ops;
	void *priv;

	int nr_cpus;			/* possible CPUs */
	struct osn_cpuset measured;	/* online and selected */
	cpu_set_t *read_set;		/* with -c: @measured, for reads */
	size_t read_set_size;
	int *cpus;			/* measured, ascending */
	size_t ncpus;
	char cpus_str[OSN_CPUS_MAX_LEN + 1];
	uint64_t threshold_us;		/* effective */

	struct osn_session session;
	struct tracefs_instance *inst;	/* the tool's instance */
	struct tracefs_instance *tinst;	/* -t's instance, or NULL */
	struct tracefs_instance *winst;	/* the stop watch's, or NULL */
	int watch_fd;			/* its trace_pipe, or -1 */
	struct osn_decoder dec;

	bool collecting;		/* warm-up over */
	bool stop_armed;
	bool stopped;
	struct osn_ring *rings;		/* per CPU, when stop is armed */
	struct osn_event stop_ev;
	bool have_stop_ev;
	struct osn_explanation why;
	bool have_why;
	struct osn_causes causes;	/* --causes */
	bool have_causes;
	struct osn_sources sources;	/* --audit: the noise sources seen */
	struct osn_audit audit;		/* --audit: read after the run */
	struct osn_audit_task *audit_tasks;
	bool have_audit;		/* audit read (osn_tool_audit()) */

	uint64_t read_ns;		/* how often collection reads */
	bool read_often;		/* set by start: read once a second */
	char unmeasured[256];		/* the module's "unmeasured", or "" */
	uint64_t lost;			/* ring buffer overruns/drops */
	uint64_t missed;		/* records reported missing */
	uint64_t periods_seen;
	uint64_t period_goal;		/* -d: periods per CPU, or 0 */
	uint64_t *cpu_periods;		/* counted, per CPU (with -d) */
	uint64_t t0_ns;			/* collection began (CLOCK_MONOTONIC) */
	uint64_t elapsed_s;
	FILE *text;			/* stdout, or stderr with --json on stdout */
	FILE *json_f;			/* --json=FILE, opened before the run */
	FILE *trace_f;			/* -t FILE, opened before the run */
	FILE *report_f;			/* --report FILE, opened before the run */
	struct osn_report *rep;		/* --report's data, from collection on */
	int cgroup_fd;			/* -C: its cgroup.procs, or -1 */
	struct osn_saved {		/* saves per trace file: F, F.1, ... */
		const char *file;
		unsigned n;
	} saved[2 * OSN_MAX_ACTIONS];
	unsigned nsaved;
};

/*
 * osn COMMAND ARGS (argv[0] is the command): parse the command line, then
 * run in three phases, as rtla's run_tool():
 *   setup     checks, session (lock, saved knobs), outputs, CPUs, knobs,
 *             instances and events, -P; ops->init first;
 *   collect   warm-up, stop conditions armed, ops->start, the loop
 *             (ops->on_event, ops->tick), the last read, ops->finish and
 *             ops->report, the saved trace;
 *   teardown  undoes what setup did, in reverse order, from wherever the
 *             run stopped, and restores tracefs and the knobs.
 * Returns the exit status: 0, 1 (error) or 2 (stop condition hit).
 */
int osn_tool_main(const struct osn_tool_ops *ops, int argc, char **argv,
		  int nr_cpus);

/*
 * The module was unloaded and loaded again under the run: write the run's
 * knobs again, reload the event formats, ops->start.  -1 with osn_err().
 */
int osn_tool_resume(struct osn_tool *t);
/* Read and dispatch the events waiting in the tool's instance. */
int osn_tool_read(struct osn_tool *t);
/* Fill the common part of a report. */
void osn_tool_report_info(const struct osn_tool *t,
			  struct osn_report_info *info);
/* Open the --json destination (stdout or the file); NULL with osn_err(). */
FILE *osn_tool_json_open(struct osn_tool *t);
int osn_tool_json_close(struct osn_tool *t, FILE *f);
/* Sleep @ms milliseconds unless a handled signal comes; false if one did. */
bool osn_tool_sleep_ms(unsigned ms);

#endif
