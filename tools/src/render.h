/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - what osn prints (pure: everything goes to a FILE *, so the
 * unit tests compare it with golden files).
 */
#ifndef OSN_RENDER_H
#define OSN_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "advise.h"
#include "causes.h"
#include "explain.h"
#include "json.h"
#include "params.h"
#include "stats.h"

/* Everything a report shows besides the statistics. */
struct osn_report_info {
	const struct osn_params *params;
	uint64_t elapsed_s;
	uint64_t events_lost;
	const char *cpus_str;		/* measured CPUs as written to the module */
	const char *kernel;		/* the kernel's release, or NULL */
	uint64_t threshold_us;		/* effective threshold */
	bool stopped;			/* stop condition hit */
	const struct osn_explanation *why;	/* NULL: not explained */
	const char *unmeasured;		/* tracepoints the kernel lacks, or NULL */
	const struct osn_causes *causes;	/* --causes, or NULL */
	const struct osn_sources *sources;	/* --audit, or NULL */
	const int *cpus;			/* measured CPUs, ascending */
	size_t ncpus;
};

/*
 * A culprit as the tables and the report name it: its kind, its function
 * ("-": none) and its origin ("comm:pid (CPU n)", "unknown", ...).
 */
const char *osn_culprit_kind(const struct osn_culprit *u);
void osn_culprit_function(char *buf, size_t len, const struct osn_culprit *u);
void osn_culprit_origin(char *buf, size_t len, const struct osn_culprit *u);

/*
 * osn top --causes: per measured CPU, its @max (0: all) culprits by time
 * stolen, with counts (table "kind function origin count time").
 */
void osn_render_causes(FILE *f, const struct osn_causes *cs, const int *cpus,
		       size_t ncpus, size_t max);

/*
 * osn hist --causes: per measured CPU, the histograms of the durations of
 * the noises of its @max (0: all) top culprits by time, one column each,
 * with count/min/avg/max; hist's --no-header, --no-index, --no-summary
 * and --with-zeros apply.  (JSON: each culprit of "causes" gets its
 * "histogram" when osn_causes_set_hist() was called.)
 */
void osn_render_hist_causes(FILE *f, const struct osn_causes *cs,
			    const struct osn_report_info *info, size_t max);

struct osn_top_view {
	const struct osn_cpu_stats *stats;	/* indexed by cpu number */
	const int *cpus;			/* measured CPUs, ascending */
	size_t ncpus;
};

/*
 * osn top's table: title, duration line and, by default, two blocks that
 * fit 80 columns (rtla's noise columns, then per-class counts and times);
 * --wide puts everything on one line.  CPUs without any period yet are
 * left out (like rtla); a total row (ALL) ends each block.  --group N: a
 * row per N measured CPUs, summed as ALL is; --summary: ALL only; both
 * add the Worst columns (the CPU of the lowest availability, and it).
 */
void osn_render_top(FILE *f, const struct osn_top_view *v,
		    const struct osn_report_info *info);
void osn_json_top(FILE *f, const struct osn_top_view *v,
		  const struct osn_report_info *info);

/*
 * osn hist's histogram: rtla's columns (only the CPUs that have samples),
 * or with --layout rows (auto: more than OSN_HIST_COLUMNS_MAX CPUs) the
 * histogram of all the CPUs together and a row per measured CPU and ALL.
 */
void osn_render_hist(FILE *f, const struct osn_hist *h,
		     const struct osn_report_info *info);
void osn_json_hist(FILE *f, const struct osn_hist *h,
		   const struct osn_report_info *info);

/*
 * osn timerlat (tlat.h): top's table, hist's histogram, their JSON.
 * hist's --layout rows (auto: more than OSN_HIST_COLUMNS_MAX CPUs): a
 * column per context of all the CPUs together, then a row per (CPU,
 * context) with samples and ALL per context.
 */
struct osn_tlat_view;
struct osn_tlat_aa;
struct osn_cpu_task;
void osn_render_tlat_top(FILE *f, const struct osn_tlat_view *v,
			 const struct osn_report_info *info);
void osn_render_tlat_hist(FILE *f, const struct osn_tlat_view *v,
			  const struct osn_report_info *info);
/* @aa: the stop's analysis, or NULL */
void osn_json_tlat(FILE *f, const struct osn_tlat_view *v,
		   const struct osn_report_info *info,
		   const struct osn_tlat_aa *aa);
/* rtla's "## CPU N hit stop tracing, analyzing it ##"; @aa NULL: none */
void osn_render_tlat_stop(FILE *f, const struct osn_tlat_aa *aa);
/*
 * --dump-tasks, as rtla's "Printing CPU tasks:": per task of @tasks (one
 * per measured CPU), "[NNN] comm:pid", and " kworker:function" for a
 * kworker in a work item.
 */
void osn_render_tlat_tasks(FILE *f, const struct osn_cpu_task *tasks,
			   int ntasks);
/* --aa-only without a stop: "  Max latency was X us" (rtla's line). */
void osn_render_tlat_max(FILE *f, const struct osn_tlat_view *v);

/* "osn hit stop tracing" and the explanation. */
void osn_render_stop(FILE *f, const struct osn_explanation *x);
void osn_json_explanation(struct osn_json *j, const struct osn_explanation *x);

/* "N events lost, results may be inaccurate" (nothing when 0). */
void osn_render_lost(FILE *f, uint64_t lost);

#endif
