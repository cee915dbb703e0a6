/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - osn top/hist --report FILE.html: one self-contained HTML page
 * (inline SVG and CSS, no script, nothing fetched) with, per CPU, the
 * noise over time and the sample-duration histogram, then the time stolen
 * by class and by source; every chart has a table of its numbers (pure).
 *
 * The tool feeds every osn event of a measured CPU to osn_report_event()
 * during collection; osn hist adds its histogram (osn_report_set_hist());
 * osn_report_write() draws the page at the end of the run.
 */
#ifndef OSN_REPORT_H
#define OSN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "render.h"
#include "stats.h"
#include "svg.h"

/* Per CPU, points of the noise-over-time chart; beyond, pairs merge. */
#define OSN_REPORT_POINTS	1024
/* Bars of a histogram chart at most (buckets merge). */
#define OSN_REPORT_BARS		64
/*
 * Noise sources per CPU the page names, the top ones by time; the rest is
 * "other".
 */
#define OSN_REPORT_SOURCES	12
/* Distinct sources kept per CPU; one more counts as "other" at once. */
#define OSN_REPORT_SOURCES_KEPT	256
/* Culprits (--causes) the page charts per CPU, the top ones by time. */
#define OSN_REPORT_CULPRITS	10

/* One point of the noise over time: the worst of per_point periods. */
struct osn_report_point {
	uint64_t noise;			/* max per-period noise, ns */
	uint64_t max_single;		/* max single sample, ns */
};

struct osn_report_source {
	int cls;			/* enum osn_class */
	char name[OSN_NAME_LEN];
	uint64_t count, time;		/* time in ns */
};

struct osn_report_cpu {
	int cpu;
	struct osn_cpu_stats st;	/* sums of the osn:sample events */
	struct osn_report_point pts[OSN_REPORT_POINTS];
	size_t npts;
	uint64_t per_point;		/* periods per point (a power of 2) */
	uint64_t in_last;		/* periods in the last point */
	bool stopped;			/* the stop condition hit here */
	uint64_t stop_period;		/* periods seen when it hit */
	/* by time, most first; beyond OSN_REPORT_SOURCES_KEPT: other_* */
	struct osn_report_source src[OSN_REPORT_SOURCES_KEPT];
	size_t nsrc;
	uint64_t other_count, other_time;
	/* osn top: per-period max single sample, [2^k, 2^(k+1)) ns */
	uint64_t max_log2[64];
	/* osn hist: its buckets, in ns */
	struct svg_bin *bins;
	size_t nbins;
	bool have_hist;
	uint64_t hist_count, hist_max;
	uint64_t pct[OSN_NR_PCT];	/* ns */
};

struct osn_report {
	struct osn_report_cpu *cpus;	/* measured CPUs, ascending */
	size_t ncpus;
	int *index;			/* cpu number -> cpus[], or -1 */
	int nr_cpus;
	uint64_t period_us, runtime_us;
};

/* The pages' style sheet (osn compare's page starts from it too). */
extern const char osn_report_css[];

/* What the page header says besides the parameters. */
struct osn_report_meta {
	const char *host, *kernel, *version;
	const char *exit_reason;	/* "-d reached", "interrupted", ... */
};

int osn_report_init(struct osn_report *r, const int *cpus, size_t ncpus,
		    int nr_cpus);
void osn_report_free(struct osn_report *r);
/* An osn event of a measured CPU (others are ignored). */
void osn_report_event(struct osn_report *r, const struct osn_event *ev);
/* The stop condition hit on @cpu (now: its last period so far). */
void osn_report_stop(struct osn_report *r, int cpu);
/* osn hist's histogram (display buckets, over, percentiles). */
int osn_report_set_hist(struct osn_report *r, const struct osn_hist *h);
/* The page. Returns 0, or -1 with osn_err() if @f had an error. */
int osn_report_write(FILE *f, const struct osn_report *r,
		     const struct osn_report_info *info,
		     const struct osn_report_meta *meta);

#endif
