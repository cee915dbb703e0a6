/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tool.h - the run of a measuring command (osn top, hist, hwnoise,
 * monitor): the command line, checks, the session (lock, knobs, the
 * journal osn cleanup reads), the CPUs, the tool's instance and its
 * events, warm-up, the one collect loop (asleep between ticks, woken at
 * once by a stop) and undoing everything.  tool.c runs it, as rtla's
 * run_tool() with ops.
 *
 * How a command plugs in (a timerlat top/hist, say):
 *   1. an enum osn_cmd value (params.h) and its entry in the command
 *      table (cmds.c): name, options and their handler, help, defaults,
 *      runtime share, titles, which classes/columns it shows;
 *   2. its ops (struct osn_tool_ops, below) in its own file: its tracefs
 *      instance, the parts of the run it allows (OSN_PART_*), and the
 *      callbacks: init/destroy its private state (t->priv), start (enable
 *      its own events, e.g. osn:timerlat_sample; add hist triggers),
 *      on_event (the decoded events of the measured CPUs), tick, finish
 *      and report (osn_run_final_report() routes the text, JSON and
 *      notes of its own renderers);
 *   3. its renderers in its own render_*.c (render_int.h has the text
 *      table and the JSON head and tail);
 *   4. its entry in osn.c's list of commands.
 * Nothing else changes: the parts of the run (run.h: stop condition,
 * saved trace and actions, -P/-C threads, --causes, --audit, --report)
 * attach to any command whose ops allow them and whose options ask for
 * them, each with its own state; output goes where run_out.c says.
 */
#ifndef OSN_TOOL_H
#define OSN_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cmd.h"
#include "params.h"
#include "render.h"
#include "session.h"
#include "stats.h"
#include "reader.h"
#include "trace.h"

struct osn_tool;

/* The parts of a run a command allows (struct osn_tool_ops.parts). */
enum {
	OSN_PART_STOP = 1 << 0,		/* -s, -S, -a: run_stop.c */
	OSN_PART_SAVE = 1 << 1,		/* -t, -e, trace actions: run_save.c */
	OSN_PART_THREADS = 1 << 2,	/* -P, -C: threads.c */
	OSN_PART_CAUSES = 1 << 3,	/* --causes: run_causes.c */
	OSN_PART_AUDIT = 1 << 4,	/* --audit: run_audit.c */
	OSN_PART_REPORT = 1 << 5,	/* --report: run_report.c */
};

/*
 * What a command adds to the run (see osn_tool_main() for when each is
 * called).  Errors: -1 with osn_err().
 */
struct osn_tool_ops {
	enum osn_cmd cmd;		/* its entry in the command table */
	const char *instance;		/* tracefs instance of the tool */
	unsigned parts;			/* OSN_PART_*: what it allows */
	/* Before anything changes: allocate t->priv. */
	int (*init)(struct osn_tool *t);
	/*
	 * The tool's instance is set up: the command's events beyond osn's
	 * own (timerlat: the kernel's sched_switch for --dump-tasks), on
	 * before any stop is armed so that none precedes them.
	 */
	int (*events)(struct osn_tool *t);
	/* Warm-up is over: collection starts (hist: add the hist trigger). */
	int (*start)(struct osn_tool *t);
	/*
	 * Collection ends, before the instances stop recording (read_last()):
	 * hist pauses its tables here, so that they hold no sample that the
	 * -t trace, stopped right after, does not.
	 */
	void (*end)(struct osn_tool *t);
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
	/*
	 * A stop condition hit, with --on-threshold continue: analyse it
	 * from the stop's per-CPU histories (before the stop is re-armed),
	 * then print it (after: naming functions is slow).  Without them,
	 * osn's noise explanation (run_stop.c).
	 */
	void (*hit_analyse)(struct osn_tool *t);
	void (*hit_print)(struct osn_tool *t);
	/* Final output (text and/or JSON). */
	int (*report)(struct osn_tool *t);
	/* Free t->priv, whatever point the run reached. */
	void (*destroy)(struct osn_tool *t);
};

/*
 * Where a run's output goes; decided in run_out.c only.  With --json
 * and no file, the JSON takes stdout: the text (progress, saves, stop)
 * goes to stderr and the text tables are not printed.
 */
struct osn_output {
	FILE *text;			/* stdout, or stderr */
	bool json_stdout;		/* --json without a file */
	FILE *json_f;			/* --json=FILE, opened before the run */
	FILE *trace_f;			/* -t FILE, opened before the run */
	FILE *report_f;			/* --report FILE, opened before the run */
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
	int dma_fd;			/* --dma-latency's, or -1 */
	struct tracefs_instance *inst;	/* the tool's instance */
	struct osn_decoder dec;
	struct osn_reader *reader;	/* its CPUs' trace_pipe_raw, kept open */
	struct osn_output out;

	bool collecting;		/* warm-up over */
	bool stopped;			/* a stop condition was hit */
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

	/* the parts of this run (run.h), each its own state; NULL: not used */
	struct osn_stop *stop;
	struct osn_saves *saves;
	struct osn_threads *threads;
	struct osn_causes *causes;
	struct osn_audit_run *audit;
	struct osn_report *rep;
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
/* Sleep @ms milliseconds unless a handled signal comes; false if one did. */
bool osn_tool_sleep_ms(unsigned ms);
/* An instance of osn's, recorded in the session before it exists. */
struct tracefs_instance *osn_tool_new_instance(struct osn_tool *t,
					       const char *name);

#endif
