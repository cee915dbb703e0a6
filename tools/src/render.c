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
	t->no_head = false;
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
	for (int r = t->no_head ? 0 : -1; r < t->nrows; r++) {
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

/* An availability in percent * 100000, as rtla prints it: %3d.%05d */
static void fmt_e5(char *buf, uint64_t e5)
{
	snprintf(buf, OSN_CELL, "%llu.%05llu", (unsigned long long)(e5 / 100000),
		 (unsigned long long)(e5 % 100000));
}

static void fmt_avail(char *buf, const struct osn_cpu_stats *st)
{
	fmt_e5(buf, osn_stats_avail_e5(st));
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

/* A row of osn top: a CPU, a --group of CPUs, or ALL. */
struct top_row {
	char label[24];
	struct osn_cpu_stats st;	/* the CPUs' sums and maxima */
	int worst;			/* the CPU of the lowest availability */
	uint64_t worst_e5;		/* its availability */
};

/*
 * The @n measured CPUs of @v from the @i-th, into @row: their sums and
 * maxima (osn_stats_merge(), as ALL) and the CPU of the lowest
 * availability.  A CPU without a period yet counts for nothing; false
 * when none has one.
 */
static bool top_merge(const struct osn_top_view *v, size_t i, size_t n,
		      struct top_row *row)
{
	memset(row, 0, sizeof(*row));
	row->worst = -1;
	for (size_t k = i; k < i + n && k < v->ncpus; k++) {
		const struct osn_cpu_stats *st = &v->stats[v->cpus[k]];
		uint64_t e5 = osn_stats_avail_e5(st);

		if (!st->periods)
			continue;
		osn_stats_merge(&row->st, st);
		if (row->worst < 0 || e5 < row->worst_e5) {
			row->worst = v->cpus[k];
			row->worst_e5 = e5;
		}
	}
	return row->worst >= 0;
}

/*
 * osn top's rows into @rows (v->ncpus + 1 of them): a row per @group
 * measured CPUs (1: a row per CPU, labelled by its number; more: by the
 * first and the last), none with @group 0 (--summary); then ALL.  Rows
 * without a period are left out, ALL never.  Returns the count.
 */
static int top_rows(const struct osn_top_view *v, size_t group,
		    struct top_row *rows)
{
	int n = 0;

	for (size_t i = 0; group && i < v->ncpus; i += group) {
		size_t last = (i + group < v->ncpus ? i + group : v->ncpus) - 1;
		struct top_row *r = &rows[n];

		if (!top_merge(v, i, group, r))
			continue;
		if (last == i)
			snprintf(r->label, sizeof(r->label), "%d", v->cpus[i]);
		else
			snprintf(r->label, sizeof(r->label), "%d-%d", v->cpus[i],
				 v->cpus[last]);
		n++;
	}
	top_merge(v, 0, v->ncpus, &rows[n]);
	snprintf(rows[n].label, sizeof(rows[n].label), "ALL");
	return n + 1;
}

/* The columns of osn top's first table (@a) and of its second (@b). */
struct top_cols {
	const char *head_a[T_WIDE_COLS + 2];
	bool left_a[T_WIDE_COLS + 2];
	const char *head_b[1 + 2 * OSN_CLASS_NR];
	bool left_b[1 + 2 * OSN_CLASS_NR];
	int ncls, ncols_a;
	int worst;		/* the Worst columns' first, -1: none */
	bool wide;
};

static void top_cols(struct top_cols *k, const struct osn_report_info *info)
{
	const struct osn_params *p = info->params;
	int self_col;

	memset(k, 0, sizeof(*k));
	k->wide = p && p->wide;
	k->ncls = info_cmd(info)->nclasses;
	self_col = T_NOISE_COLS + 2 * k->ncls;
	for (int c = 0; c < T_NOISE_COLS; c++)
		k->head_a[c] = noise_head[c];
	for (int c = 0; c < k->ncls; c++) {
		k->head_a[T_NOISE_COLS + c] = osn_class_titles[c];
		k->head_a[T_NOISE_COLS + k->ncls + c] = class_us_head[c];
		k->head_b[1 + 2 * c] = osn_class_titles[c];
		k->head_b[2 + 2 * c] = class_us_head[c];
	}
	k->head_a[self_col] = "Self us";
	k->head_b[0] = "CPU";
	k->left_a[T_PERIOD] = true;
	k->ncols_a = k->wide ? self_col + 1 : T_NOISE_COLS;
	k->worst = -1;
	if (p && (p->summary || p->group)) {
		k->worst = k->ncols_a;
		k->head_a[k->ncols_a++] = "Worst";
		k->head_a[k->ncols_a++] = "Worst Aval";
	}
}

/*
 * Row @r of osn top's table: in @a the noise columns, then with --wide
 * (@b NULL) the classes' and self; else the classes in @b; the Worst
 * columns last in @a.
 */
static void fill_row(struct osn_table *a, struct osn_table *b, int r,
		     const struct top_cols *k, const struct top_row *row)
{
	const struct osn_cpu_stats *st = &row->st;

	fill_noise(a, r, row->label, st);
	if (!b) {
		fill_classes(a, r, T_NOISE_COLS, false, k->ncls, st);
		fmt_us(osn_table_cell(a, r, T_NOISE_COLS + 2 * k->ncls), st->self);
	} else {
		snprintf(osn_table_cell(b, r, 0), OSN_CELL, "%s", row->label);
		fill_classes(b, r, 1, true, k->ncls, st);
	}
	if (k->worst < 0)
		return;
	if (row->worst < 0) {
		strcpy(osn_table_cell(a, r, k->worst), "-");
		strcpy(osn_table_cell(a, r, k->worst + 1), "-");
		return;
	}
	snprintf(osn_table_cell(a, r, k->worst), OSN_CELL, "%d", row->worst);
	fmt_e5(osn_table_cell(a, r, k->worst + 1), row->worst_e5);
}

static void center(FILE *f, const char *s, int width)
{
	int pad = (width - (int)strlen(s)) / 2;

	fprintf(f, "%*s%s\n", pad > 0 ? pad : 0, "", s);
}

static void top_print(FILE *f, struct osn_table *a, struct osn_table *b,
		      const struct osn_report_info *info)
{
	int width = osn_table_layout(a);
	char elapsed[32];

	if (b && osn_table_layout(b) > width)
		width = osn_table_layout(b);
	osn_format_elapsed(info->elapsed_s, elapsed, sizeof(elapsed));
	center(f, info_cmd(info)->title, width);
	fprintf(f, "duration: %s | time is in us\n", elapsed);
	if (info->unmeasured)
		fprintf(f, "not measured on this kernel (counted as hw): %s\n",
			info->unmeasured);
	osn_table_print(f, a);
	if (b) {
		fputc('\n', f);
		osn_table_print(f, b);
	}
	osn_render_lost(f, info->events_lost);
}

void osn_render_top(FILE *f, const struct osn_top_view *v,
		    const struct osn_report_info *info)
{
	const struct osn_params *p = info->params;
	size_t group = p && p->summary ? 0 : p && p->group ? p->group : 1;
	struct osn_table a = { 0 }, b = { 0 };
	struct top_row *rows = calloc(v->ncpus + 1, sizeof(*rows));
	struct top_cols k;
	int nrows;

	top_cols(&k, info);
	if (!rows)
		goto out;
	nrows = top_rows(v, group, rows);
	if (osn_table_init(&a, k.ncols_a, nrows, k.head_a, k.left_a))
		goto out;
	if (!k.wide && osn_table_init(&b, 1 + 2 * k.ncls, nrows, k.head_b,
				      k.left_b))
		goto out;
	for (int r = 0; r < nrows; r++)
		fill_row(&a, k.wide ? NULL : &b, r, &k, &rows[r]);
	top_print(f, &a, k.wide ? NULL : &b, info);
out:
	free(rows);
	osn_table_free(&a);
	if (!k.wide)
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
