/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - osn compare (pure): runs saved by osn top, hist, hwnoise
 * and timerlat with --json, loaded side by side, the same numbers per CPU
 * and overall as rates (per second of measured time), their changes, the
 * differences of the runs' settings, and one verdict per CPU.
 */
#ifndef OSN_COMPARE_H
#define OSN_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "stats.h"
#include "svg.h"

/* The schema of osn compare's own --json. */
#define OSN_CMP_SCHEMA		1
/* Runs on one command line at most: A, B, ... */
#define OSN_CMP_RUNS		8
/* Culprits kept per CPU (the top ones by time). */
#define OSN_CMP_CULPRITS	5

enum osn_cmp_kind { OSN_CMP_OSNOISE, OSN_CMP_TIMERLAT };

/* What a CPU of a run has (the commands' JSON differ). */
enum {
	OSN_CMP_TOP	= 1 << 0,	/* runtime, noise, the classes (top, hwnoise) */
	OSN_CMP_SAMPLES	= 1 << 1,	/* samples, max single */
	OSN_CMP_PCT	= 1 << 2,	/* percentiles (hist) */
	OSN_CMP_HIST	= 1 << 3,	/* buckets (hist, timerlat hist) */
	OSN_CMP_LAT	= 1 << 4,	/* timerlat latencies */
	OSN_CMP_CAUSES	= 1 << 5,	/* --causes culprits */
};

struct osn_cmp_culprit {
	char kind[16], function[80], origin[48];
	uint64_t count, time;		/* time: ns */
};

enum { OSN_CMP_IRQ_LAT, OSN_CMP_THREAD_LAT, OSN_CMP_NLAT };

struct osn_cmp_cpu {
	int cpu;			/* -1: all CPUs */
	unsigned have;			/* OSN_CMP_* */
	double secs;			/* measured seconds, the rates' divisor */
	uint64_t runtime, noise;	/* ns */
	uint64_t max_single, samples;
	uint64_t count[OSN_CLASS_NR], time[OSN_CLASS_NR];
	uint64_t pct[OSN_NR_PCT];	/* ns */
	uint64_t lat_avg[OSN_CMP_NLAT], lat_max[OSN_CMP_NLAT];	/* ns */
	struct svg_bin *bins;		/* ns; timerlat: the thread latency's */
	size_t nbins;
	struct osn_cmp_culprit cul[OSN_CMP_CULPRITS];
	size_t ncul;
};

struct osn_cmp_run {
	const char *path;
	char tool[32], version[32], kernel[96], cpus[64];
	enum osn_cmp_kind kind;
	uint64_t duration_s, period_us, runtime_us, threshold_us, bucket_us;
	struct osn_cmp_cpu *cpu;	/* ascending */
	size_t ncpus;
	struct osn_cmp_cpu all;		/* the CPUs together */
};

/*
 * Read @path (osn --json output).  On failure: -1 and osn_err() with one
 * line naming the file: missing, not JSON, not osn's, a schema this osn
 * does not read.
 */
int osn_cmp_load(struct osn_cmp_run *r, const char *path);
/* The same from a document in memory (@path names it in errors). */
int osn_cmp_parse(struct osn_cmp_run *r, const char *path, const char *text);
void osn_cmp_free(struct osn_cmp_run *r);

/* @cpu of @r (-1: all CPUs), or NULL. */
const struct osn_cmp_cpu *osn_cmp_find(const struct osn_cmp_run *r, int cpu);
/* The CPUs of any of the runs, ascending, at most @max; the count. */
size_t osn_cmp_cpus(const struct osn_cmp_run *runs, size_t n, int *out,
		    size_t max);

/* The numbers compared, each a row of the tables. */
enum osn_cmp_metric {
	OSN_CM_AVAIL, OSN_CM_NOISE, OSN_CM_MAX, OSN_CM_RATE,
	OSN_CM_PCT,					/* + OSN_NR_PCT */
	OSN_CM_COUNT = OSN_CM_PCT + OSN_NR_PCT,		/* + OSN_CLASS_NR */
	OSN_CM_TIME = OSN_CM_COUNT + OSN_CLASS_NR,	/* + OSN_CLASS_NR */
	OSN_CM_LAT_AVG = OSN_CM_TIME + OSN_CLASS_NR,	/* + OSN_CMP_NLAT */
	OSN_CM_LAT_MAX = OSN_CM_LAT_AVG + OSN_CMP_NLAT,	/* + OSN_CMP_NLAT */
	OSN_CM_NR = OSN_CM_LAT_MAX + OSN_CMP_NLAT,
};

/* "IRQ time", its JSON key "irq_time", its unit "ms/s" */
void osn_cmp_metric_name(int m, char *buf, size_t len);
void osn_cmp_metric_key(int m, char *buf, size_t len);
const char *osn_cmp_metric_unit(int m);
/* @m of @c; false when @c's run has no such number. */
bool osn_cmp_value(const struct osn_cmp_cpu *c, int m, double *v);
/* The change from @a to @b in %; false when @a is 0. */
bool osn_cmp_change(double a, double b, double *pct);
/* A value as the tables print it ("99.9871", "1.25", "0"). */
void osn_cmp_fmt(int m, double v, char *buf, size_t len);

/*
 * What differs between @a and @b besides their numbers: command,
 * kernel, version, CPUs, period, runtime, threshold, bucket, duration;
 * "; "-separated into @buf ("" when nothing does).  The count.
 */
int osn_cmp_differences(const struct osn_cmp_run *a,
			const struct osn_cmp_run *b, char *buf, size_t len);

/*
 * One line on what changed most on @cpu from @a to @b: "CPU 3 IRQ time:
 * 1.2 ms/s → 0.05 ms/s (-96 %); what remains: timer (tick_nohz_handler)",
 * with the class that changed next when that change is notable too
 * ("CPU 1 IRQ time: ...; Thread time: ..."; its metric in *@also, else
 * -1; @also may be NULL).  Returns the metric it is about, or -1 (the
 * CPU is not in both, or no number both have; @buf says so).
 */
int osn_cmp_verdict(const struct osn_cmp_run *a, const struct osn_cmp_run *b,
		    int cpu, int *also, char *buf, size_t len);

#endif
