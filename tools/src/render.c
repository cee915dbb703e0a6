// SPDX-License-Identifier: GPL-2.0
/*
 * render.c - text and JSON output of osn top (see render.h), and what
 * every command's output shares (render_int.h): the text table, the JSON
 * head and tail.
 */
#include <stdlib.h>
#include <string.h>

#include "osn/osn_abi.h"
#include "cmd.h"
#include "render_int.h"
#include "util.h"

/* ---- a right-aligned text table -------------------------------------------- */

int osn_table_init(struct osn_table *t, int ncols, int nrows,
		   const char *const *head, const bool *left)
{
	t->ncols = ncols;
	t->nrows = nrows;
	t->head = head;
	t->left = left;
	t->cells = calloc((size_t)(nrows ? nrows : 1) * ncols, OSN_CELL);
	t->w = calloc(ncols, sizeof(int));
	return t->cells && t->w ? 0 : -1;
}

void osn_table_free(struct osn_table *t)
{
	free(t->cells);
	free(t->w);
}

char *osn_table_cell(struct osn_table *t, int r, int c)
{
	return t->cells + ((size_t)r * t->ncols + c) * OSN_CELL;
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
int osn_table_layout(struct osn_table *t)
{
	int total = 0;

	for (int c = 0; c < t->ncols; c++) {
		int w = (int)strlen(t->head[c]);

		for (int r = 0; r < t->nrows; r++) {
			int l = (int)strlen(osn_table_cell(t, r, c));

			if (l > w)
				w = l;
		}
		t->w[c] = w;
		total += w + (c ? 1 : 0);
	}
	return total;
}

void osn_table_print(FILE *f, struct osn_table *t)
{
	size_t len = (size_t)t->ncols * (OSN_CELL + 64) + 1;
	char *line = malloc(len);

	if (!line)
		return;
	for (int r = -1; r < t->nrows; r++) {
		size_t off = 0;

		line[0] = '\0';
		for (int c = 0; c < t->ncols; c++)
			put(line, &off, len, t->w[c], t->left[c],
			    r < 0 ? t->head[c] : osn_table_cell(t, r, c), c == 0);
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
	snprintf(buf, OSN_CELL, "%llu", (unsigned long long)v);
}

static void fmt_us(char *buf, uint64_t ns)
{
	fmt_u64(buf, ns / 1000);
}

static void fmt_avail(char *buf, const struct osn_cpu_stats *st)
{
	uint64_t e5 = osn_stats_avail_e5(st);

	snprintf(buf, OSN_CELL, "%llu.%05llu", (unsigned long long)(e5 / 100000),
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

static void fill_noise(struct osn_table *t, int r, const char *label,
		       const struct osn_cpu_stats *st)
{
	snprintf(osn_table_cell(t, r, T_CPU), OSN_CELL, "%s", label);
	snprintf(osn_table_cell(t, r, T_PERIOD), OSN_CELL, "#%llu",
		 (unsigned long long)st->periods);
	fmt_us(osn_table_cell(t, r, T_RUNTIME), st->runtime);
	fmt_us(osn_table_cell(t, r, T_NOISE), st->noise);
	fmt_avail(osn_table_cell(t, r, T_AVAIL), st);
	fmt_us(osn_table_cell(t, r, T_MAXNOISE), st->max_noise);
	fmt_us(osn_table_cell(t, r, T_MAXSINGLE), st->max_single);
}

/* --wide: the classes' counts, their times, then osn's own time */
#define T_SELF		(T_NOISE_COLS + 2 * OSN_CLASS_NR)
#define T_WIDE_COLS	(T_SELF + 1)

/*
 * Per-class count and time columns of the first @ncls classes starting at
 * @col; @pairs: interleaved.
 */
static void fill_classes(struct osn_table *t, int r, int col, bool pairs,
			 int ncls, const struct osn_cpu_stats *st)
{
	for (int c = 0; c < ncls; c++) {
		int cc = pairs ? col + 2 * c : col + c;
		int tc = pairs ? cc + 1 : col + ncls + c;

		fmt_u64(osn_table_cell(t, r, cc), st->count[c]);
		fmt_us(osn_table_cell(t, r, tc), st->time[c]);
	}
}

/*
 * Row @r of osn top's table: in @a the noise columns, then with --wide
 * (@b NULL) the classes' and self; else the classes in @b.
 */
static void fill_row(struct osn_table *a, struct osn_table *b, int r,
		     const char *label, int ncls,
		     const struct osn_cpu_stats *st)
{
	fill_noise(a, r, label, st);
	if (!b) {
		fill_classes(a, r, T_NOISE_COLS, false, ncls, st);
		fmt_us(osn_table_cell(a, r, T_NOISE_COLS + 2 * ncls), st->self);
	} else {
		snprintf(osn_table_cell(b, r, 0), OSN_CELL, "%s", label);
		fill_classes(b, r, 1, true, ncls, st);
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
	struct osn_table a = { 0 }, b = { 0 };
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

	if (osn_table_init(&a, wide ? self_col + 1 : T_NOISE_COLS, nrows,
			   head_wide, left_wide))
		goto out;
	if (!wide && osn_table_init(&b, 1 + 2 * ncls, nrows, head_cls, left_cls))
		goto out;

	for (size_t i = 0; i < v->ncpus; i++) {
		const struct osn_cpu_stats *st = &v->stats[v->cpus[i]];
		char label[16];

		if (!st->periods)
			continue;
		osn_stats_merge(&total, st);
		snprintf(label, sizeof(label), "%d", v->cpus[i]);
		fill_row(&a, wide ? NULL : &b, r++, label, ncls, st);
	}
	fill_row(&a, wide ? NULL : &b, r, "ALL", ncls, &total);

	width = osn_table_layout(&a);
	if (!wide && osn_table_layout(&b) > width)
		width = osn_table_layout(&b);
	osn_format_elapsed(info->elapsed_s, elapsed, sizeof(elapsed));
	center(f, d->title, width);
	fprintf(f, "duration: %s | time is in us\n", elapsed);
	if (info->unmeasured)
		fprintf(f, "not measured on this kernel (counted as hw): %s\n",
			info->unmeasured);
	osn_table_print(f, &a);
	if (!wide) {
		fputc('\n', f);
		osn_table_print(f, &b);
	}
	osn_render_lost(f, info->events_lost);
out:
	osn_table_free(&a);
	if (!wide)
		osn_table_free(&b);
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
		/* timerlat: its own period */
		osn_json_ku64(j, "period_us", osn_params_period_us(p));
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

void osn_json_tail(struct osn_json *j, const struct osn_report_info *info)
{
	osn_json_ku64(j, "events_lost", info->events_lost);
	osn_json_kbool(j, "stopped", info->stopped);
	osn_json_key(j, "stop");
	if (info->why)
		osn_json_explanation(j, info->why);
	else
		osn_json_null(j);
	if (info->causes)
		osn_json_culprits(j, info);
	if (info->sources)
		osn_json_advice(j, info->sources);
}

void osn_json_head(struct osn_json *j, const char *tool,
		   const struct osn_report_info *info)
{
	osn_json_ku64(j, "schema", OSN_JSON_SCHEMA);
	osn_json_kstr(j, "tool", tool);
	osn_json_kstr(j, "version", OSN_VERSION);
	if (info->kernel)
		osn_json_kstr(j, "kernel", info->kernel);
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
	osn_json_head(&j, info_cmd(info)->json_tool, info);
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
	osn_json_tail(&j, info);
	osn_json_obj_end(&j);
}
