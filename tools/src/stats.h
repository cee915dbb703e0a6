/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - statistics of the osn CLI (pure):
 *  - per-CPU top statistics accumulated from osn:sample events;
 *  - the histogram read back from the in-kernel hist trigger, its
 *    rtla-style display buckets, exact min/avg/max and percentiles.
 */
#ifndef OSN_STATS_H
#define OSN_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* ---- top -------------------------------------------------------------- */

struct osn_cpu_stats {
	uint64_t periods;		/* osn:sample events */
	uint64_t runtime;		/* sum, ns */
	uint64_t noise;			/* sum, ns */
	uint64_t max_noise;		/* max per-period noise, ns */
	uint64_t max_single;		/* max single sample, ns */
	uint64_t min_single;		/* min single sample, ns (valid if samples) */
	uint64_t samples;		/* noise samples (>= threshold) */
	uint64_t count[OSN_CLASS_NR];
	uint64_t time[OSN_CLASS_NR];	/* ns */
	uint64_t self;			/* ns of osn's own work */
};

void osn_stats_add_sample(struct osn_cpu_stats *st, const struct osn_event *ev);
/* Adds @b into @a (the total row: sums, maxima, minima). */
void osn_stats_merge(struct osn_cpu_stats *a, const struct osn_cpu_stats *b);
/*
 * Available CPU in percent * 100000 (rtla prints %3d.%05d), computed from
 * the ns sums; 100.00000 when no runtime.
 */
uint64_t osn_stats_avail_e5(const struct osn_cpu_stats *st);

/* ---- hist ------------------------------------------------------------- */

/* One entry of the in-kernel histogram: [lo, lo + bucket) ns. */
struct osn_kbucket {
	uint64_t lo;			/* ns */
	uint64_t count;
	uint64_t sum;			/* ns; valid when osn_khist.have_sum */
};

struct osn_khist_cpu {
	int cpu;
	struct osn_kbucket *b;		/* sorted by lo, unique */
	size_t n, cap;
};

/* The whole in-kernel histogram, as parsed from events/.../hist. */
struct osn_khist {
	uint64_t bucket_ns;
	struct osn_khist_cpu *cpus;	/* sorted by cpu */
	size_t ncpus, cap;
	bool have_sum;			/* "duration:" value sums present */
	uint64_t hits, entries, dropped;	/* from "Totals:" */
};

/*
 * Parse the text of a hist file written by a trigger like
 *   hist:keys=cpu,duration.buckets=N:vals=hitcount,duration
 * (or with the keys in the other order, with or without the duration
 * value).  Durations in the file are in ns; @bucket_ns is N.  Returns 0,
 * or -1 with the reason as the last error (osn_err) when the text is not
 * such a histogram.
 */
int osn_khist_parse(const char *text, uint64_t bucket_ns, struct osn_khist *h);
/*
 * The same, for a hist file that holds several triggers' tables: only the
 * tables whose "# trigger info: hist:keys=" begins with @keys (e.g.
 * "duration"; "!duration": does not begin with it) are read.  Text
 * without trigger info lines is read whole.
 */
int osn_khist_parse_keys(const char *text, uint64_t bucket_ns,
			 const char *keys, struct osn_khist *h);
/* Adds one bucket (merging with an existing one). */
int osn_khist_add(struct osn_khist *h, int cpu, uint64_t lo, uint64_t count,
		  uint64_t sum);
void osn_khist_free(struct osn_khist *h);
const struct osn_khist_cpu *osn_khist_find(const struct osn_khist *h, int cpu);

/* Exact extremes seen by osn:sample for one CPU. */
struct osn_exact {
	uint64_t samples, noise;	/* sums over the periods */
	uint64_t min, max;		/* ns, valid when samples */
};

void osn_exact_add_sample(struct osn_exact *x, const struct osn_event *ev);

enum { OSN_P50, OSN_P90, OSN_P99, OSN_P999, OSN_NR_PCT };
extern const unsigned osn_pct_permille[OSN_NR_PCT];	/* 500 900 990 999 */
extern const char * const osn_pct_names[OSN_NR_PCT];	/* p50 .. p99.9 */

/* What osn hist prints for one CPU. */
struct osn_hist_cpu {
	int cpu;
	uint64_t *rows;			/* display buckets 0..nrows-1 */
	unsigned nrows;			/* <= entries; rows past it are 0 */
	uint64_t over;			/* samples >= entries * bucket */
	uint64_t count;			/* all samples */
	uint64_t min, max, avg;		/* ns */
	bool min_exact, max_exact, avg_exact;
	uint64_t pct[OSN_NR_PCT];	/* ns, upper bounds (see below) */
	bool pct_exact[OSN_NR_PCT];	/* within pct_res_ns, not a bucket */
	uint64_t pct_count;		/* samples of the fine table, or count */
};

struct osn_hist {
	uint64_t bucket_ns;
	uint64_t pct_res_ns;		/* the fine table's bucket, or 0 */
	unsigned entries;
	unsigned nrows;			/* max of the CPUs' nrows */
	struct osn_hist_cpu *cpus;
	size_t ncpus;
	struct osn_hist_cpu all;	/* ALL: every CPU's samples as one's */
};

/*
 * Build the display histogram of the CPUs in @cpus (ascending, @ncpus of
 * them) from the in-kernel histogram @kh and the exact per-CPU extremes
 * @exact (indexed by cpu number, may be NULL):
 *  - rows[i] counts [i * bucket, (i + 1) * bucket); over is the rest;
 *    rows are only allocated up to the last non-empty one (-E can be
 *    huge): use osn_hist_row();
 *  - count is every sample of the CPU;
 *  - avg is exact (sum / count) when the kernel gave sums, else from
 *    osn:sample (noise / samples), else the bucket midpoints;
 *  - min/max are the exact values from osn:sample when they fall inside
 *    the lowest/highest non-empty bucket (or the bucket holds one sample,
 *    whose sum is the value), else they are clamped into that bucket and
 *    flagged inexact;
 *  - pXX is the upper edge of the bucket that holds the sample of rank
 *    ceil(XX% * count), capped to max (and not below min): "XX% of the
 *    samples were <= pXX", within one bucket (pct_exact false); the
 *    value itself (pct_exact) when that sample is known: the min or the
 *    max, or alone in its bucket with its sum.
 * ALL (out->all, cpu -1) is built the same way, from the CPUs' tables
 * merged into one CPU's and their exact extremes and sums together.
 */
int osn_hist_build(struct osn_hist *out, const struct osn_khist *kh,
		   unsigned entries, const int *cpus, size_t ncpus,
		   const struct osn_exact *exact);
/*
 * The same, with the percentiles taken from @fine, a table of the same
 * samples in finer buckets (fine->bucket_ns divides kh->bucket_ns; NULL
 * for none): the upper edge of the fine bucket that holds the rank
 * (pct_exact, within pct_res_ns = fine->bucket_ns), or its sum when it
 * holds that one sample.  A fine table that dropped samples (full) is
 * not used: the percentiles keep the display buckets' edges.
 */
int osn_hist_build_fine(struct osn_hist *out, const struct osn_khist *kh,
			const struct osn_khist *fine, unsigned entries,
			const int *cpus, size_t ncpus,
			const struct osn_exact *exact);
void osn_hist_free(struct osn_hist *h);
/* Display bucket @b of @c (0 past its last non-empty row). */
static inline uint64_t osn_hist_row(const struct osn_hist_cpu *c, unsigned b)
{
	return b < c->nrows ? c->rows[b] : 0;
}

#endif
