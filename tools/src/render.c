// SPDX-License-Identifier: GPL-2.0
/*
 * render.c - text and JSON output of osn top / osn hist (see render.h).
 */
#include <stdlib.h>
#include <string.h>

#include "osn/osn_abi.h"
#include "cmd.h"
#include "render.h"
#include "util.h"

/* ---- a right-aligned text table -------------------------------------------- */

#define CELL	40

struct table {
	int ncols, nrows;
	const char *const *head;
	const bool *left;
	char *cells;
	int *w;
};

static int table_init(struct table *t, int ncols, int nrows,
		      const char *const *head, const bool *left)
{
	t->ncols = ncols;
	t->nrows = nrows;
	t->head = head;
	t->left = left;
	t->cells = calloc((size_t)(nrows ? nrows : 1) * ncols, CELL);
	t->w = calloc(ncols, sizeof(int));
	return t->cells && t->w ? 0 : -1;
}

static void table_free(struct table *t)
{
	free(t->cells);
	free(t->w);
}

static char *cell(struct table *t, int r, int c)
{
	return t->cells + ((size_t)r * t->ncols + c) * CELL;
}

static void print_line(FILE *f, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(f, "%s\n", line);
}

static void put(char *line, size_t *off, size_t len, int w, bool left,
		const char *s, bool first)
{
	int n = snprintf(line + *off, len - *off, left ? "%s%-*s" : "%s%*s",
			 first ? "" : " ", w, s);

	if (n > 0 && (size_t)n < len - *off)
		*off += n;
}

/* Width of the whole table. */
static int table_layout(struct table *t)
{
	int total = 0;

	for (int c = 0; c < t->ncols; c++) {
		int w = (int)strlen(t->head[c]);

		for (int r = 0; r < t->nrows; r++) {
			int l = (int)strlen(cell(t, r, c));

			if (l > w)
				w = l;
		}
		t->w[c] = w;
		total += w + (c ? 1 : 0);
	}
	return total;
}

static void table_print(FILE *f, struct table *t)
{
	size_t len = (size_t)t->ncols * (CELL + 64) + 1;
	char *line = malloc(len);

	if (!line)
		return;
	for (int r = -1; r < t->nrows; r++) {
		size_t off = 0;

		line[0] = '\0';
		for (int c = 0; c < t->ncols; c++)
			put(line, &off, len, t->w[c], t->left[c],
			    r < 0 ? t->head[c] : cell(t, r, c), c == 0);
		print_line(f, line);
	}
	free(line);
}

/* ---- top -------------------------------------------------------------------- */

/* The command of @info's run (without parameters: osn top). */
static const struct osn_cmd_desc *info_cmd(const struct osn_report_info *info)
{
	return osn_cmd_desc(info->params ? info->params->cmd : OSN_CMD_TOP);
}

static void fmt_u64(char *buf, uint64_t v)
{
	snprintf(buf, CELL, "%llu", (unsigned long long)v);
}

static void fmt_us(char *buf, uint64_t ns)
{
	fmt_u64(buf, ns / 1000);
}

static void fmt_avail(char *buf, const struct osn_cpu_stats *st)
{
	uint64_t e5 = osn_stats_avail_e5(st);

	snprintf(buf, CELL, "%llu.%05llu", (unsigned long long)(e5 / 100000),
		 (unsigned long long)(e5 % 100000));
}

enum {
	T_CPU, T_PERIOD, T_RUNTIME, T_NOISE, T_AVAIL, T_MAXNOISE, T_MAXSINGLE,
	T_NOISE_COLS
};

static const char *const noise_head[T_NOISE_COLS] = {
	"CPU", "Period", "Runtime", "Noise", "% CPU Aval", "Max Noise",
	"Max Single",
};
static const char *const class_us_head[OSN_CLASS_NR] = {
	"HW us", "NMI us", "IRQ us", "Softirq us", "Thread us",
};

static void fill_noise(struct table *t, int r, const char *label,
		       const struct osn_cpu_stats *st)
{
	snprintf(cell(t, r, T_CPU), CELL, "%s", label);
	snprintf(cell(t, r, T_PERIOD), CELL, "#%llu",
		 (unsigned long long)st->periods);
	fmt_us(cell(t, r, T_RUNTIME), st->runtime);
	fmt_us(cell(t, r, T_NOISE), st->noise);
	fmt_avail(cell(t, r, T_AVAIL), st);
	fmt_us(cell(t, r, T_MAXNOISE), st->max_noise);
	fmt_us(cell(t, r, T_MAXSINGLE), st->max_single);
}

/* --wide: the classes' counts, their times, then osn's own time */
#define T_SELF		(T_NOISE_COLS + 2 * OSN_CLASS_NR)
#define T_WIDE_COLS	(T_SELF + 1)

/*
 * Per-class count and time columns of the first @ncls classes starting at
 * @col; @pairs: interleaved.
 */
static void fill_classes(struct table *t, int r, int col, bool pairs,
			 int ncls, const struct osn_cpu_stats *st)
{
	for (int c = 0; c < ncls; c++) {
		int cc = pairs ? col + 2 * c : col + c;
		int tc = pairs ? cc + 1 : col + ncls + c;

		fmt_u64(cell(t, r, cc), st->count[c]);
		fmt_us(cell(t, r, tc), st->time[c]);
	}
}

static void center(FILE *f, const char *s, int width)
{
	int pad = (width - (int)strlen(s)) / 2;

	fprintf(f, "%*s%s\n", pad > 0 ? pad : 0, "", s);
}

void osn_render_top(FILE *f, const struct osn_top_view *v,
		    const struct osn_report_info *info)
{
	const char *head_wide[T_WIDE_COLS];
	const char *head_cls[1 + 2 * OSN_CLASS_NR];
	bool left_wide[T_WIDE_COLS] = { 0 };
	bool left_cls[1 + 2 * OSN_CLASS_NR] = { 0 };
	struct osn_cpu_stats total = { 0 };
	struct table a = { 0 }, b = { 0 };
	char elapsed[32];
	int nrows = 0, r = 0, width;
	bool wide = info->params && info->params->wide;
	const struct osn_cmd_desc *d = info_cmd(info);
	int ncls = d->nclasses;
	int self_col = T_NOISE_COLS + 2 * ncls;

	for (size_t i = 0; i < v->ncpus; i++)
		if (v->stats[v->cpus[i]].periods)
			nrows++;
	nrows++;	/* ALL */

	for (int c = 0; c < T_NOISE_COLS; c++)
		head_wide[c] = noise_head[c];
	for (int c = 0; c < ncls; c++) {
		head_wide[T_NOISE_COLS + c] = osn_class_titles[c];
		head_wide[T_NOISE_COLS + ncls + c] = class_us_head[c];
		head_cls[1 + 2 * c] = osn_class_titles[c];
		head_cls[2 + 2 * c] = class_us_head[c];
	}
	head_wide[self_col] = "Self us";
	head_cls[0] = "CPU";
	left_wide[T_PERIOD] = true;

	if (table_init(&a, wide ? self_col + 1 : T_NOISE_COLS, nrows, head_wide,
		       left_wide))
		goto out;
	if (!wide && table_init(&b, 1 + 2 * ncls, nrows, head_cls, left_cls))
		goto out;

	for (size_t i = 0; i < v->ncpus; i++) {
		const struct osn_cpu_stats *st = &v->stats[v->cpus[i]];
		char label[16];

		if (!st->periods)
			continue;
		osn_stats_merge(&total, st);
		snprintf(label, sizeof(label), "%d", v->cpus[i]);
		fill_noise(&a, r, label, st);
		if (wide) {
			fill_classes(&a, r, T_NOISE_COLS, false, ncls, st);
			fmt_us(cell(&a, r, self_col), st->self);
		} else {
			snprintf(cell(&b, r, 0), CELL, "%s", label);
			fill_classes(&b, r, 1, true, ncls, st);
		}
		r++;
	}
	fill_noise(&a, r, "ALL", &total);
	if (wide) {
		fill_classes(&a, r, T_NOISE_COLS, false, ncls, &total);
		fmt_us(cell(&a, r, self_col), total.self);
	} else {
		snprintf(cell(&b, r, 0), CELL, "ALL");
		fill_classes(&b, r, 1, true, ncls, &total);
	}

	width = table_layout(&a);
	if (!wide && table_layout(&b) > width)
		width = table_layout(&b);
	osn_format_elapsed(info->elapsed_s, elapsed, sizeof(elapsed));
	center(f, d->title, width);
	fprintf(f, "duration: %s | time is in us\n", elapsed);
	if (info->unmeasured)
		fprintf(f, "not measured on this kernel (counted as hw): %s\n",
			info->unmeasured);
	table_print(f, &a);
	if (!wide) {
		fputc('\n', f);
		table_print(f, &b);
	}
	osn_render_lost(f, info->events_lost);
out:
	table_free(&a);
	if (!wide)
		table_free(&b);
}

void osn_render_lost(FILE *f, uint64_t lost)
{
	if (lost)
		fprintf(f, "%llu events lost, results may be inaccurate\n",
			(unsigned long long)lost);
}

/* ---- JSON common ------------------------------------------------------------ */

static void json_config(struct osn_json *j, const struct osn_report_info *info)
{
	const struct osn_params *p = info->params;
	char buf[64];

	osn_json_key(j, "config");
	osn_json_obj_begin(j);
	osn_json_kstr(j, "cpus", info->cpus_str ? info->cpus_str : "");
	if (p) {
		osn_json_ku64(j, "period_us", p->period_us);
		osn_json_ku64(j, "runtime_us", p->runtime_us);
		osn_json_ku64(j, "threshold_us", info->threshold_us);
		osn_json_ku64(j, "stop_us", p->stop_us);
		osn_json_ku64(j, "stop_total_us", p->stop_total_us);
		osn_json_ku64(j, "duration_s", p->duration_s);
		osn_json_ku64(j, "warm_up_s", p->warmup_s);
		osn_format_sched(&p->sched, buf, sizeof(buf));
		osn_json_kstr(j, "priority", buf);
		if (osn_cmd_desc(p->cmd)->hist_config) {
			osn_json_ku64(j, "bucket_size_us", p->bucket_us);
			osn_json_ku64(j, "entries", p->entries);
		}
	}
	osn_json_obj_end(j);
}

static void json_culprits(struct osn_json *j, const struct osn_report_info *info);

static void json_tail(struct osn_json *j, const struct osn_report_info *info)
{
	osn_json_ku64(j, "events_lost", info->events_lost);
	osn_json_kbool(j, "stopped", info->stopped);
	osn_json_key(j, "stop");
	if (info->why)
		osn_json_explanation(j, info->why);
	else
		osn_json_null(j);
	if (info->causes)
		json_culprits(j, info);
	if (info->sources)
		osn_json_advice(j, info->sources);
}

static void json_head(struct osn_json *j, const char *tool,
		      const struct osn_report_info *info)
{
	osn_json_kstr(j, "tool", tool);
	osn_json_kstr(j, "version", OSN_VERSION);
	osn_json_ku64(j, "duration_s", info->elapsed_s);
	osn_json_kstr(j, "time_unit", "us");
	json_config(j, info);
}

static void json_stats(struct osn_json *j, const struct osn_cpu_stats *st)
{
	osn_json_ku64(j, "periods", st->periods);
	osn_json_kus(j, "runtime", st->runtime);
	osn_json_kus(j, "noise", st->noise);
	osn_json_key(j, "cpu_avail_pct");
	osn_json_fixed(j, osn_stats_avail_e5(st), 5);
	osn_json_kus(j, "max_noise", st->max_noise);
	osn_json_kus(j, "max_single", st->max_single);
	osn_json_key(j, "min_single");
	if (st->samples)
		osn_json_us(j, st->min_single);
	else
		osn_json_null(j);
	osn_json_ku64(j, "samples", st->samples);
	for (int c = 0; c < OSN_CLASS_NR; c++) {
		osn_json_key(j, osn_class_names[c]);
		osn_json_obj_begin(j);
		osn_json_ku64(j, "count", st->count[c]);
		osn_json_kus(j, "time", st->time[c]);
		osn_json_obj_end(j);
	}
	osn_json_kus(j, "self", st->self);
}

void osn_json_top(FILE *f, const struct osn_top_view *v,
		  const struct osn_report_info *info)
{
	struct osn_cpu_stats total = { 0 };
	struct osn_json j;

	osn_json_init(&j, f, true);
	osn_json_obj_begin(&j);
	json_head(&j, info_cmd(info)->json_tool, info);
	osn_json_key(&j, "cpus");
	osn_json_arr_begin(&j);
	for (size_t i = 0; i < v->ncpus; i++) {
		const struct osn_cpu_stats *st = &v->stats[v->cpus[i]];

		osn_stats_merge(&total, st);
		osn_json_obj_begin(&j);
		osn_json_ku64(&j, "cpu", v->cpus[i]);
		json_stats(&j, st);
		osn_json_obj_end(&j);
	}
	osn_json_arr_end(&j);
	osn_json_key(&j, "total");
	osn_json_obj_begin(&j);
	json_stats(&j, &total);
	osn_json_obj_end(&j);
	json_tail(&j, info);
	osn_json_obj_end(&j);
}

/* ---- hist ------------------------------------------------------------------- */

static void us3(char *buf, size_t len, uint64_t ns, bool exact)
{
	char v[32];

	osn_format_us3(ns, v, sizeof(v));
	snprintf(buf, len, "%s%s", exact ? "" : "~", v);
}

static const char *const hist_labels[] = {
	"count:", "min:  ", "avg:  ", "max:  ",
	"p50:  ", "p90:  ", "p99:  ", "p99.9:",
};

/*
 * The table of @h's columns that have samples: the buckets' rows (all
 * -E of them with --with-zeros, else the non-empty ones), "over:", and
 * the first @nsum summary rows (count, min, avg, max, the percentiles).
 */
static void hist_body(FILE *f, const struct osn_hist *h,
		      const struct osn_params *p, int nsum)
{
	bool no_index = p && p->no_index, with_zeros = p && p->with_zeros;
	uint64_t bucket_us = h->bucket_ns / 1000;
	char buf[48];

	for (unsigned b = 0; b < (with_zeros ? h->entries : h->nrows); b++) {
		uint64_t total = 0;

		for (size_t i = 0; i < h->ncpus; i++)
			total += osn_hist_row(&h->cpus[i], b);
		if (!total && !with_zeros)
			continue;
		if (!no_index)
			fprintf(f, "%-6llu", (unsigned long long)b * bucket_us);
		for (size_t i = 0; i < h->ncpus; i++)
			if (h->cpus[i].count)
				fprintf(f, "%9llu ",
					(unsigned long long)osn_hist_row(&h->cpus[i], b));
		fprintf(f, "\n");
	}

	if (!no_index)
		fprintf(f, "over: ");
	for (size_t i = 0; i < h->ncpus; i++)
		if (h->cpus[i].count)
			fprintf(f, "%9llu ", (unsigned long long)h->cpus[i].over);
	fprintf(f, "\n");

	if (!(p && p->no_summary)) {
		for (int row = 0; row < nsum; row++) {
			if (!no_index)
				fprintf(f, "%s", hist_labels[row]);
			for (size_t i = 0; i < h->ncpus; i++) {
				const struct osn_hist_cpu *c = &h->cpus[i];

				if (!c->count)
					continue;
				switch (row) {
				case 0:
					snprintf(buf, sizeof(buf), "%llu",
						 (unsigned long long)c->count);
					break;
				case 1:
					us3(buf, sizeof(buf), c->min, c->min_exact);
					break;
				case 2:
					us3(buf, sizeof(buf), c->avg, c->avg_exact);
					break;
				case 3:
					us3(buf, sizeof(buf), c->max, c->max_exact);
					break;
				default:
					us3(buf, sizeof(buf), c->pct[row - 4],
					    c->pct_exact[row - 4]);
				}
				fprintf(f, "%9s ", buf);
			}
			fprintf(f, "\n");
		}
	}
}

void osn_render_hist(FILE *f, const struct osn_hist *h,
		     const struct osn_report_info *info)
{
	const struct osn_params *p = info->params;
	bool no_index = p && p->no_index;
	char elapsed[32];
	size_t shown = 0;

	for (size_t i = 0; i < h->ncpus; i++)
		if (h->cpus[i].count)
			shown++;

	if (!(p && p->no_header)) {
		osn_format_elapsed(info->elapsed_s, elapsed, sizeof(elapsed));
		fprintf(f, "# osn histogram\n");
		fprintf(f, "# Time unit is microseconds (us)\n");
		fprintf(f, "# Duration: %s\n", elapsed);
		if (info->unmeasured)
			fprintf(f, "# Not measured on this kernel (counted as hw): %s\n",
				info->unmeasured);
		if (!shown)
			fprintf(f, "# No noise sample on the measured CPUs (cpus %s)\n",
				info->cpus_str ? info->cpus_str : "?");
		if (!no_index)
			fprintf(f, "Index");
		for (size_t i = 0; i < h->ncpus; i++)
			if (h->cpus[i].count)
				fprintf(f, "   CPU-%03d", h->cpus[i].cpu);
		fprintf(f, "\n");
	}

	hist_body(f, h, p, 8);
	osn_render_lost(f, info->events_lost);
}

/* "buckets": [{index, count}] of @c: the non-empty ones, or all -E */
static void json_buckets(struct osn_json *j, const struct osn_hist *h,
			 const struct osn_hist_cpu *c, bool with_zeros)
{
	osn_json_key(j, "buckets");
	osn_json_arr_begin(j);
	for (unsigned b = 0; b < (with_zeros ? h->entries : c->nrows); b++) {
		if (!osn_hist_row(c, b) && !with_zeros)
			continue;
		osn_json_obj_begin(j);
		osn_json_ku64(j, "index", (uint64_t)b * (h->bucket_ns / 1000));
		osn_json_ku64(j, "count", osn_hist_row(c, b));
		osn_json_obj_end(j);
	}
	osn_json_arr_end(j);
}

void osn_json_hist(FILE *f, const struct osn_hist *h,
		   const struct osn_report_info *info)
{
	const struct osn_params *p = info->params;
	bool with_zeros = p && p->with_zeros;
	struct osn_json j;

	osn_json_init(&j, f, true);
	osn_json_obj_begin(&j);
	json_head(&j, "osn hist", info);
	osn_json_ku64(&j, "bucket_size_us", h->bucket_ns / 1000);
	osn_json_ku64(&j, "entries", h->entries);
	if (h->pct_res_ns) {
		osn_json_kus(&j, "percentile_resolution_us", h->pct_res_ns);
	} else {
		osn_json_key(&j, "percentile_resolution_us");
		osn_json_null(&j);
	}
	osn_json_key(&j, "cpus");
	osn_json_arr_begin(&j);
	for (size_t i = 0; i < h->ncpus; i++) {
		const struct osn_hist_cpu *c = &h->cpus[i];
		bool all = true;

		osn_json_obj_begin(&j);
		osn_json_ku64(&j, "cpu", c->cpu);
		osn_json_ku64(&j, "count", c->count);
		osn_json_ku64(&j, "over", c->over);
		if (c->count) {
			osn_json_kus(&j, "min", c->min);
			osn_json_kbool(&j, "min_exact", c->min_exact);
			osn_json_kus(&j, "avg", c->avg);
			osn_json_kbool(&j, "avg_exact", c->avg_exact);
			osn_json_kus(&j, "max", c->max);
			osn_json_kbool(&j, "max_exact", c->max_exact);
			for (int k = 0; k < OSN_NR_PCT; k++) {
				osn_json_kus(&j, osn_pct_names[k], c->pct[k]);
				all &= c->pct_exact[k];
			}
			osn_json_kbool(&j, "percentiles_exact", all);
			osn_json_ku64(&j, "percentile_count", c->pct_count);
		} else {
			static const char *const nulls[] = {
				"min", "avg", "max", "p50", "p90", "p99", "p99.9",
			};

			for (size_t k = 0; k < sizeof(nulls) / sizeof(nulls[0]); k++) {
				osn_json_key(&j, nulls[k]);
				osn_json_null(&j);
			}
		}
		json_buckets(&j, h, c, with_zeros);
		osn_json_obj_end(&j);
	}
	osn_json_arr_end(&j);
	json_tail(&j, info);
	osn_json_obj_end(&j);
}

/* ---- stop explanation ------------------------------------------------------- */

static void part_source(char *buf, size_t len, const struct osn_part *p)
{
	if (p->cls == OSN_CLASS_NMI || p->id < 0)
		snprintf(buf, len, "%s", p->name);
	else
		snprintf(buf, len, "%s:%d", p->name, p->id);
}

/* A cause's function: its symbol, else its address, else "" (none). */
static void function_str(char *buf, size_t len, const char *name,
			 uint64_t addr)
{
	if (name[0])
		snprintf(buf, len, "%s", name);
	else if (addr)
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
	else
		buf[0] = '\0';
}

static void cause_function(char *buf, size_t len, const struct osn_part_cause *pc)
{
	function_str(buf, len, pc->function_name, pc->c.function);
}

static const char *cause_kind(int kind)
{
	return kind >= 0 && kind < OSN_CAUSE_NR ? osn_cause_kind_names[kind] : "?";
}

/* "comm:pid (CPU n)", "[irq] (CPU n)", or "unknown" */
static void origin_str(char *buf, size_t len, const struct osn_cause *c)
{
	if (c->origin_cpu < 0)
		snprintf(buf, len, "unknown");
	else if (c->origin_pid < 0)
		snprintf(buf, len, "%s (CPU %d)", c->origin_comm, c->origin_cpu);
	else
		snprintf(buf, len, "%s:%d (CPU %d)", c->origin_comm,
			 c->origin_pid, c->origin_cpu);
}

void osn_render_causes(FILE *f, const struct osn_causes *cs, const int *cpus,
		       size_t ncpus, size_t max)
{
	char fn[80], who[80], v[32];

	fprintf(f, "osn causes: what ran in the noise and who sent it, by time (osn:noise_cause)\n");
	for (size_t i = 0; i < ncpus; i++) {
		const struct osn_cpu_causes *cc;
		size_t n;

		if (cpus[i] < 0 || cpus[i] >= cs->nr_cpus)
			continue;
		cc = &cs->cpu[cpus[i]];
		fprintf(f, "  cpu %d:%s\n", cpus[i], cc->n ? "" : " (no cause recorded)");
		if (!cc->n)
			continue;
		fprintf(f, "    %-8s %-28s %-32s %7s %14s\n", "kind", "function",
			"origin", "count", "time (us)");
		n = max && cc->n > max ? max : cc->n;
		for (size_t k = 0; k < n; k++) {
			const struct osn_culprit *u = &cc->culprits[k];

			function_str(fn, sizeof(fn), u->function_name, u->c.function);
			origin_str(who, sizeof(who), &u->c);
			osn_format_us3(u->time, v, sizeof(v));
			fprintf(f, "    %-8s %-28s %-32s %7llu %14s\n",
				cause_kind(u->c.kind), fn[0] ? fn : "-", who,
				(unsigned long long)u->count, v);
		}
		if (n < cc->n)
			fprintf(f, "    (%zu more)\n", cc->n - n);
	}
}

/*
 * osn hist --causes: per measured CPU, its top culprits' histograms side
 * by side, as osn hist's own table (rows: buckets; one column a culprit,
 * named in the header above it).
 */
void osn_render_hist_causes(FILE *f, const struct osn_causes *cs,
			    const struct osn_report_info *info, size_t max)
{
	const struct osn_params *p = info->params;
	bool header = !(p && p->no_header), no_index = p && p->no_index;
	char fn[80], who[80], label[32];

	if (header)
		fprintf(f, "\n# osn causes: per culprit, the durations of the noises it took part in (osn:noise_cause)\n");
	for (size_t i = 0; i < info->ncpus; i++) {
		const struct osn_cpu_causes *cc;
		struct osn_hist h;
		size_t n;

		if (info->cpus[i] < 0 || info->cpus[i] >= cs->nr_cpus)
			continue;
		cc = &cs->cpu[info->cpus[i]];
		n = max && cc->n > max ? max : cc->n;
		if (!n) {
			if (header)
				fprintf(f, "# cpu %d: no cause recorded\n",
					info->cpus[i]);
			continue;
		}
		if (osn_causes_hist(cs, cc, n, &h)) {
			fprintf(f, "# cpu %d: out of memory\n", info->cpus[i]);
			continue;
		}
		if (header) {
			fprintf(f, "# cpu %d: its %zu top culprits by time (of %zu)\n",
				info->cpus[i], n, cc->n);
			for (size_t k = 0; k < n; k++) {
				const struct osn_culprit *u = &cc->culprits[k];

				function_str(fn, sizeof(fn), u->function_name,
					     u->c.function);
				origin_str(who, sizeof(who), &u->c);
				fprintf(f, "#   cause-%zu: %s %s <- %s\n", k + 1,
					cause_kind(u->c.kind), fn[0] ? fn : "-",
					who);
			}
			if (!no_index)
				fprintf(f, "Index");
			for (size_t k = 0; k < n; k++) {
				snprintf(label, sizeof(label), "cause-%zu", k + 1);
				fprintf(f, " %9s", label);
			}
			fprintf(f, "\n");
		}
		hist_body(f, &h, p, 4);	/* count, min, avg, max */
		osn_hist_free(&h);
	}
}

/*
 * A culprit's "histogram" (osn hist --causes): {count, over, min, avg,
 * max, buckets: [{index, count}]}, as osn hist's "cpus" entries.
 */
static void json_culprit_hist(struct osn_json *j, const struct osn_hist *h,
			      const struct osn_hist_cpu *c, bool with_zeros)
{
	osn_json_key(j, "histogram");
	osn_json_obj_begin(j);
	osn_json_ku64(j, "count", c->count);
	osn_json_ku64(j, "over", c->over);
	osn_json_kus(j, "min", c->min);
	osn_json_kus(j, "avg", c->avg);
	osn_json_kus(j, "max", c->max);
	json_buckets(j, h, c, with_zeros);
	osn_json_obj_end(j);
}

/* "causes": {"CPU": [{kind, function, function_addr, origin_*, count, time}]} */
static void json_culprits(struct osn_json *j, const struct osn_report_info *info)
{
	const struct osn_causes *cs = info->causes;
	bool with_zeros = info->params && info->params->with_zeros;
	char fn[80], key[16];

	osn_json_key(j, "causes");
	osn_json_obj_begin(j);
	for (size_t i = 0; i < info->ncpus; i++) {
		const struct osn_cpu_causes *cc;
		struct osn_hist h = { 0 };
		bool have_h;

		if (info->cpus[i] < 0 || info->cpus[i] >= cs->nr_cpus)
			continue;
		cc = &cs->cpu[info->cpus[i]];
		/* osn hist --causes: every culprit's histogram */
		have_h = cs->bucket_ns && !osn_causes_hist(cs, cc, 0, &h);
		snprintf(key, sizeof(key), "%d", info->cpus[i]);
		osn_json_key(j, key);
		osn_json_arr_begin(j);
		for (size_t k = 0; k < cc->n; k++) {
			const struct osn_culprit *u = &cc->culprits[k];

			function_str(fn, sizeof(fn), u->function_name, u->c.function);
			osn_json_obj_begin(j);
			osn_json_kstr(j, "kind", cause_kind(u->c.kind));
			osn_json_kstr(j, "function", fn);
			osn_json_ku64(j, "function_addr", u->c.function);
			osn_json_key(j, "origin_cpu");
			osn_json_i64(j, u->c.origin_cpu);
			osn_json_key(j, "origin_pid");
			osn_json_i64(j, u->c.origin_pid);
			osn_json_kstr(j, "origin_comm", u->c.origin_comm);
			osn_json_ku64(j, "count", u->count);
			osn_json_kus(j, "time", u->time);
			if (have_h)
				json_culprit_hist(j, &h, &h.cpus[k], with_zeros);
			osn_json_obj_end(j);
		}
		osn_json_arr_end(j);
		if (have_h)
			osn_hist_free(&h);
	}
	osn_json_obj_end(j);
}

/* How the origin made the cause happen. */
static const char *cause_verb(int kind)
{
	switch (kind) {
	case OSN_CAUSE_WAKEUP:
		return "woken by";
	case OSN_CAUSE_WORK:
		return "queued by";
	case OSN_CAUSE_TIMER:
	case OSN_CAUSE_HRTIMER:
		return "armed by";
	default:
		return "sent by";
	}
}

/*
 * "work vmstat_update, queued by stress-ng:4711 on CPU 0 (x3)" under its
 * part: what ran in the noise and who sent it (osn:noise_cause).
 */
static void render_causes(FILE *f, const struct osn_part *p)
{
	char fn[80], who[64];

	for (size_t k = 0; k < p->ncauses; k++) {
		const struct osn_part_cause *pc = &p->causes[k];
		const struct osn_cause *c = &pc->c;

		cause_function(fn, sizeof(fn), pc);
		if (c->origin_cpu < 0)
			snprintf(who, sizeof(who), "origin unknown");
		else if (c->origin_pid < 0)
			snprintf(who, sizeof(who), "%s %s on CPU %d",
				 cause_verb(c->kind), c->origin_comm,
				 c->origin_cpu);
		else
			snprintf(who, sizeof(who), "%s %s:%d on CPU %d",
				 cause_verb(c->kind), c->origin_comm,
				 c->origin_pid, c->origin_cpu);
		fprintf(f, "      <- %s%s%s%s, %s (x%llu)\n",
			cause_kind(c->kind),
			fn[0] ? " " : "", fn,
			c->kind == OSN_CAUSE_TLB ? " (TLB shootdown)" : "",
			who, (unsigned long long)pc->count);
	}
	if (p->other_causes)
		fprintf(f, "      <- (%llu more causes)\n",
			(unsigned long long)p->other_causes);
}

/* "100" for whole microseconds, else "100.250" */
static void us_short(char *buf, size_t len, uint64_t ns)
{
	if (ns % 1000 == 0)
		snprintf(buf, len, "%llu", (unsigned long long)(ns / 1000));
	else
		osn_format_us3(ns, buf, len);
}

void osn_render_stop(FILE *f, const struct osn_explanation *x)
{
	char v[32], t[32], src[64];

	fprintf(f, "osn hit stop tracing\n");
	if (!x)
		return;
	if (!x->have_stop && !x->have_sample && !x->nsamples) {
		fprintf(f, "  no osn:stop event in osn's buffer: cannot explain the stop\n");
		return;
	}
	osn_format_us3(x->value, v, sizeof(v));
	us_short(t, sizeof(t), x->threshold);
	if (x->reason == OSN_STOP_SINGLE)
		fprintf(f, "  cpu %d: a single noise sample of %s us > %s %s us\n",
			x->cpu, v, OSN_KNOB_STOP_TRACING_US, t);
	else
		fprintf(f, "  cpu %d: the period's noise of %s us > %s %s us\n",
			x->cpu, v, OSN_KNOB_STOP_TRACING_TOTAL_US, t);

	if (x->reason == OSN_STOP_SINGLE) {
		if (!x->have_sample) {
			fprintf(f, "  the sample is not in osn's buffer%s: cannot explain it\n",
				x->truncated ? " (too many events)" : "");
			return;
		}
		osn_format_us3(x->duration, v, sizeof(v));
		fprintf(f, "  the sample at %llu.%09llu lasted %s us, %llu interference%s; made of:\n",
			(unsigned long long)(x->start / 1000000000),
			(unsigned long long)(x->start % 1000000000), v,
			(unsigned long long)x->interference,
			x->interference == 1 ? "" : "s");
	} else {
		if (!x->nsamples) {
			fprintf(f, "  no noise sample of the period is in osn's buffer: cannot explain it\n");
			return;
		}
		osn_format_us3(x->noise, v, sizeof(v));
		fprintf(f, "  %llu noise sample%s of the period%s add up to %s us; made of:\n",
			(unsigned long long)x->nsamples,
			x->nsamples == 1 ? "" : "s",
			x->truncated ? " (history truncated)" : "", v);
	}
	fprintf(f, "    %-8s %-28s %7s %14s\n", "class", "source", "count",
		"time (us)");
	for (size_t i = 0; i < x->nparts; i++) {
		const struct osn_part *p = &x->parts[i];

		part_source(src, sizeof(src), p);
		osn_format_us3(p->time, v, sizeof(v));
		fprintf(f, "    %-8s %-28s %7llu %14s\n", osn_class_names[p->cls],
			src, (unsigned long long)p->count, v);
		render_causes(f, p);
		if (p->finding)
			fprintf(f, "      => %s: %s (osn audit %s)\n",
				p->finding->check, p->finding->fix,
				osn_audit_status_name(p->finding->status));
	}
	if (x->other_count) {
		osn_format_us3(x->other_time, v, sizeof(v));
		fprintf(f, "    %-8s %-28s %7llu %14s\n", "...", "(other sources)",
			(unsigned long long)x->other_count, v);
	}
	if (x->hw) {
		osn_format_us3(x->hw, v, sizeof(v));
		fprintf(f, "    %-8s %-28s %7llu %14s\n", "hw",
			"(no event: hardware)", (unsigned long long)x->hw_samples, v);
	}
	if (!x->nparts && !x->other_count && !x->hw)
		fprintf(f, "    (nothing)\n");
	if (x->explained > x->noise) {
		osn_format_us3(x->explained - x->noise, v, sizeof(v));
		fprintf(f, "  note: the events add up to %s us more than the noise (overlapping events)\n",
			v);
	}
}

/* A part's "causes": [{kind, function, function_addr, origin_*, count}] */
static void json_causes(struct osn_json *j, const struct osn_part *p)
{
	char fn[80];

	osn_json_key(j, "causes");
	osn_json_arr_begin(j);
	for (size_t k = 0; k < p->ncauses; k++) {
		const struct osn_part_cause *pc = &p->causes[k];

		cause_function(fn, sizeof(fn), pc);
		osn_json_obj_begin(j);
		osn_json_kstr(j, "kind", cause_kind(pc->c.kind));
		osn_json_kstr(j, "function", fn);
		osn_json_ku64(j, "function_addr", pc->c.function);
		osn_json_key(j, "origin_cpu");
		osn_json_i64(j, pc->c.origin_cpu);
		osn_json_key(j, "origin_pid");
		osn_json_i64(j, pc->c.origin_pid);
		osn_json_kstr(j, "origin_comm", pc->c.origin_comm);
		osn_json_ku64(j, "count", pc->count);
		osn_json_obj_end(j);
	}
	osn_json_arr_end(j);
	osn_json_ku64(j, "other_causes", p->other_causes);
}

void osn_json_explanation(struct osn_json *j, const struct osn_explanation *x)
{
	char src[64];

	osn_json_obj_begin(j);
	osn_json_key(j, "cpu");
	osn_json_i64(j, x->cpu);
	osn_json_kstr(j, "reason",
		      x->reason == OSN_STOP_SINGLE ? "single" : "total");
	osn_json_kbool(j, "have_stop_event", x->have_stop);
	osn_json_kus(j, "value", x->value);
	osn_json_kus(j, "threshold", x->threshold);
	osn_json_key(j, "sample");
	if (x->have_sample) {
		osn_json_obj_begin(j);
		osn_json_ku64(j, "start_ns", x->start);
		osn_json_kus(j, "duration", x->duration);
		osn_json_ku64(j, "interference", x->interference);
		osn_json_obj_end(j);
	} else {
		osn_json_null(j);
	}
	osn_json_ku64(j, "samples", x->nsamples);
	osn_json_kus(j, "noise", x->noise);
	osn_json_key(j, "parts");
	osn_json_arr_begin(j);
	for (size_t i = 0; i < x->nparts; i++) {
		const struct osn_part *p = &x->parts[i];

		part_source(src, sizeof(src), p);
		osn_json_obj_begin(j);
		osn_json_kstr(j, "class", osn_class_names[p->cls]);
		osn_json_kstr(j, "name", p->name);
		osn_json_key(j, "id");
		osn_json_i64(j, p->id);
		osn_json_kstr(j, "source", src);
		osn_json_ku64(j, "count", p->count);
		osn_json_kus(j, "time", p->time);
		json_causes(j, p);
		if (p->finding) {
			osn_json_key(j, "finding");
			osn_json_obj_begin(j);
			osn_json_kstr(j, "check", p->finding->check);
			osn_json_kstr(j, "status",
				      osn_audit_status_name(p->finding->status));
			osn_json_kstr(j, "fix", p->finding->fix);
			osn_json_obj_end(j);
		}
		osn_json_obj_end(j);
	}
	osn_json_arr_end(j);
	osn_json_key(j, "other");
	osn_json_obj_begin(j);
	osn_json_ku64(j, "count", x->other_count);
	osn_json_kus(j, "time", x->other_time);
	osn_json_obj_end(j);
	osn_json_kus(j, "hw", x->hw);
	osn_json_ku64(j, "hw_samples", x->hw_samples);
	osn_json_kbool(j, "truncated", x->truncated);
	osn_json_obj_end(j);
}
