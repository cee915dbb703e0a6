/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - osn monitor's Prometheus text exposition (pure code).
 *
 * What osn top collects from the osn events, kept as counters that only
 * grow over the monitor's life (a module reload does not reset them) and
 * rendered in the text format Prometheus and node_exporter's textfile
 * collector read (version 0.0.4): per CPU and noise source (class and
 * name), the count and time of the noises and the longest one; with the
 * workload, the last period's noise and CPU availability; with --causes,
 * the culprits (kind, function, origin task and CPU).
 */
#ifndef OSN_METRICS_H
#define OSN_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "causes.h"
#include "event.h"

/*
 * Sources kept per CPU: past this many (every task is a source without
 * the workload), a CPU's new sources count as source="other" of their
 * class, so that a scrape stays small whatever runs.
 */
#define OSN_METRICS_SOURCES	64

/* One noise source of one CPU. */
struct osn_msource {
	int cls;			/* enum osn_class */
	char name[OSN_NAME_LEN];	/* IRQ desc, softirq, comm, "nmi" */
	uint64_t count;
	uint64_t time_ns;
	uint64_t max_ns;		/* the longest single noise */
};

struct osn_mcpu {
	struct osn_msource src[OSN_METRICS_SOURCES];
	size_t nsrc;
	/* osn:sample (with the workload) */
	uint64_t periods, runtime_ns, noise_ns, max_single_ns;
	uint64_t last_runtime_ns, last_noise_ns;	/* the last period */
};

struct osn_metrics {
	struct osn_mcpu *cpu;		/* indexed by CPU number */
	int nr_cpus;
};

/* What a scrape shows besides the counters. */
struct osn_metrics_view {
	const struct osn_metrics *m;
	const int *cpus;		/* measured, ascending */
	size_t ncpus;
	bool up;			/* osn collects now */
	bool module_loaded;
	bool workload;			/* osn's threads measure */
	const struct osn_causes *causes;	/* --causes, or NULL */
	uint64_t events_lost;
	uint64_t reloads;		/* times the module came back */
};

int osn_metrics_init(struct osn_metrics *m, int nr_cpus);
void osn_metrics_free(struct osn_metrics *m);
/* Account one osn event (samples and noise events; others are ignored). */
void osn_metrics_event(struct osn_metrics *m, const struct osn_event *ev);
/* The source label of a noise event: IRQ desc, softirq name, comm, "nmi". */
const char *osn_metrics_source(const struct osn_event *ev);
/*
 * @in as a label value: backslash, double quote and newline escaped (the
 * format's three); other bytes, UTF-8 included, kept.  Truncated to fit
 * @len (never in the middle of an escape).
 */
void osn_metrics_escape(const char *in, char *out, size_t len);
/* The whole exposition of @v to @f; -1 if @f failed. */
int osn_metrics_render(FILE *f, const struct osn_metrics_view *v);

#endif
