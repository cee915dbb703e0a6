// SPDX-License-Identifier: GPL-2.0
/*
 * render_compare.c - osn compare's text and JSON (see compare_cmd.h):
 * the runs, what differs in their settings, a verdict per CPU, then per
 * CPU and for all CPUs a table of every number side by side with its
 * change against the first run, and the culprits.
 */
#include <stdlib.h>
#include <string.h>

#include "compare_cmd.h"
#include "render_int.h"

/* Runs are A, B, C, ... in the order given. */
static const char *const labels[OSN_CMP_RUNS] = {
	"A", "B", "C", "D", "E", "F", "G", "H",
};

const char *osn_cmp_label(size_t i)
{
	return i < OSN_CMP_RUNS ? labels[i] : "?";
}

static void cpu_title(int cpu, char *buf, size_t len)
{
	if (cpu < 0)
		snprintf(buf, len, "all CPUs (rates per CPU-second)");
	else
		snprintf(buf, len, "CPU %d", cpu);
}

/* Does any run have @m on @cpu, other than 0? */
bool osn_cmp_row_shown(const struct osn_cmp_run *runs, size_t n, int cpu, int m)
{
	for (size_t i = 0; i < n; i++) {
		const struct osn_cmp_cpu *c = osn_cmp_find(&runs[i], cpu);
		double v;

		if (c && osn_cmp_value(c, m, &v) && v != 0)
			return true;
	}
	return false;
}

static void runs_head(FILE *f, const struct osn_cmp_run *runs, size_t n)
{
	char d[1024];

	fprintf(f, "osn compare: %zu runs\n", n);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %s  %s: %s, kernel %s, osn %s, CPUs %s, %llu s\n",
			labels[i], runs[i].path, runs[i].tool,
			runs[i].kernel[0] ? runs[i].kernel : "?",
			runs[i].version, runs[i].cpus,
			(unsigned long long)runs[i].duration_s);
	for (size_t i = 1; i < n; i++)
		if (osn_cmp_differences(&runs[0], &runs[i], d, sizeof(d)))
			fprintf(f, "  %s differs from A: %s\n", labels[i], d);
}

static void verdicts(FILE *f, const struct osn_cmp_run *runs, size_t n,
		     const int *cpus, size_t ncpus)
{
	char v[512];

	for (size_t i = 1; i < n; i++) {
		fprintf(f, "\nVerdict (%s against A)\n", labels[i]);
		for (size_t k = 0; k <= ncpus; k++) {
			osn_cmp_verdict(&runs[0], &runs[i], k < ncpus ? cpus[k] : -1,
					NULL, v, sizeof(v));
			fprintf(f, "  %s\n", v);
		}
	}
}

static void culprits(FILE *f, const struct osn_cmp_run *runs, size_t n, int cpu)
{
	char t[32];

	for (size_t i = 0; i < n; i++) {
		const struct osn_cmp_cpu *c = osn_cmp_find(&runs[i], cpu);

		if (!c || !(c->have & OSN_CMP_CAUSES))
			continue;
		fprintf(f, "  culprits %s:%s\n", labels[i], c->ncul ? "" : " none recorded");
		for (size_t k = 0; k < c->ncul; k++) {
			const struct osn_cmp_culprit *u = &c->cul[k];

			osn_format_us3(u->time, t, sizeof(t));
			fprintf(f, "    %-8s %-28s %-16s %7llu %12s us\n", u->kind,
				u->function[0] ? u->function : "-",
				u->origin[0] ? u->origin : "-",
				(unsigned long long)u->count, t);
		}
	}
}

/* One CPU's table: a row per number, A B ... then B vs A, ... */
static void cpu_table(FILE *f, const struct osn_cmp_run *runs, size_t n,
		      int cpu)
{
	const char *head[1 + 2 * OSN_CMP_RUNS];
	char heads[OSN_CMP_RUNS][16];
	bool left[1 + 2 * OSN_CMP_RUNS] = { true };
	struct osn_table t = { 0 };
	int nrows = 0, r = 0;

	for (int m = 0; m < OSN_CM_NR; m++)
		nrows += osn_cmp_row_shown(runs, n, cpu, m);
	head[0] = "";
	for (size_t i = 0; i < n; i++) {
		head[1 + i] = labels[i];
		snprintf(heads[i], sizeof(heads[i]), "%s vs A", labels[i]);
		head[n + i] = heads[i];
	}
	if (osn_table_init(&t, (int)(2 * n), nrows, head, left))
		goto out;
	for (int m = 0; m < OSN_CM_NR; m++) {
		double a = 0, v, pct;
		bool have_a;

		if (!osn_cmp_row_shown(runs, n, cpu, m))
			continue;
		osn_cmp_metric_name(m, osn_table_cell(&t, r, 0), OSN_CELL);
		strcat(osn_table_cell(&t, r, 0), " ");
		strcat(osn_table_cell(&t, r, 0), osn_cmp_metric_unit(m));
		have_a = osn_find_value(&runs[0], cpu, m, &a);
		for (size_t i = 0; i < n; i++) {
			char *cell = osn_table_cell(&t, r, 1 + (int)i);

			if (!osn_find_value(&runs[i], cpu, m, &v)) {
				strcpy(cell, "-");
				continue;
			}
			osn_cmp_fmt(m, v, cell, OSN_CELL);
			if (i && have_a && osn_cmp_change(a, v, &pct))
				snprintf(osn_table_cell(&t, r, (int)(n + i)),
					 OSN_CELL, "%+.1f %%", pct);
		}
		r++;
	}
	osn_table_layout(&t);
	osn_table_print(f, &t);
out:
	osn_table_free(&t);
}

bool osn_find_value(const struct osn_cmp_run *r, int cpu, int m, double *v)
{
	const struct osn_cmp_cpu *c = osn_cmp_find(r, cpu);

	return c && osn_cmp_value(c, m, v);
}

void osn_render_compare(FILE *f, const struct osn_cmp_run *runs, size_t n)
{
	int cpus[OSN_MAX_CPUS];
	size_t ncpus = osn_cmp_cpus(runs, n, cpus, OSN_MAX_CPUS);
	char title[32];

	runs_head(f, runs, n);
	verdicts(f, runs, n, cpus, ncpus);
	for (size_t k = 0; k <= ncpus; k++) {
		int cpu = k < ncpus ? cpus[k] : -1;

		cpu_title(cpu, title, sizeof(title));
		fprintf(f, "\n%s\n", title);
		cpu_table(f, runs, n, cpu);
		culprits(f, runs, n, cpu);
	}
}
/* ---- JSON ------------------------------------------------------------------- */

static void json_runs(struct osn_json *j, const struct osn_cmp_run *runs,
		      size_t n)
{
	osn_json_key(j, "runs");
	osn_json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct osn_cmp_run *r = &runs[i];

		osn_json_obj_begin(j);
		osn_json_kstr(j, "label", labels[i]);
		osn_json_kstr(j, "file", r->path);
		osn_json_kstr(j, "tool", r->tool);
		osn_json_kstr(j, "kernel", r->kernel);
		osn_json_kstr(j, "version", r->version);
		osn_json_kstr(j, "cpus", r->cpus);
		osn_json_ku64(j, "duration_s", r->duration_s);
		osn_json_ku64(j, "period_us", r->period_us);
		osn_json_ku64(j, "runtime_us", r->runtime_us);
		osn_json_ku64(j, "threshold_us", r->threshold_us);
		osn_json_ku64(j, "bucket_size_us", r->bucket_us);
		osn_json_obj_end(j);
	}
	osn_json_arr_end(j);
}

/* @name: the key of metric @m, or null */
static void json_metric_key(struct osn_json *j, const char *name, int m)
{
	char key[32];

	osn_json_key(j, name);
	if (m < 0) {
		osn_json_null(j);
	} else {
		osn_cmp_metric_key(m, key, sizeof(key));
		osn_json_str(j, key);
	}
}

/* "differences" and "verdicts": one object per later run */
static void json_later(struct osn_json *j, const struct osn_cmp_run *runs,
		       size_t n, const int *cpus, size_t ncpus)
{
	char d[1024];

	osn_json_key(j, "against_a");
	osn_json_arr_begin(j);
	for (size_t i = 1; i < n; i++) {
		osn_json_obj_begin(j);
		osn_json_kstr(j, "run", labels[i]);
		osn_cmp_differences(&runs[0], &runs[i], d, sizeof(d));
		osn_json_kstr(j, "differences", d);
		osn_json_key(j, "verdicts");
		osn_json_arr_begin(j);
		for (size_t k = 0; k <= ncpus; k++) {
			int cpu = k < ncpus ? cpus[k] : -1, also;
			int m = osn_cmp_verdict(&runs[0], &runs[i], cpu, &also, d,
						sizeof(d));

			osn_json_obj_begin(j);
			osn_json_key(j, "cpu");
			cpu < 0 ? osn_json_str(j, "all") : osn_json_i64(j, cpu);
			json_metric_key(j, "metric", m);
			json_metric_key(j, "also", also);
			osn_json_kstr(j, "text", d);
			osn_json_obj_end(j);
		}
		osn_json_arr_end(j);
		osn_json_obj_end(j);
	}
	osn_json_arr_end(j);
}

static void json_value(struct osn_json *j, int m, bool have, double v)
{
	char b[48];

	if (!have) {
		osn_json_null(j);
		return;
	}
	snprintf(b, sizeof(b), m == OSN_CM_AVAIL ? "%.5f" : "%.3f", v);
	osn_json_num(j, v, b);
}

static void json_metric(struct osn_json *j, const struct osn_cmp_run *runs,
			size_t n, int cpu, int m)
{
	double a = 0, v, pct;
	bool have_a = osn_find_value(&runs[0], cpu, m, &a);
	char key[32];

	osn_cmp_metric_key(m, key, sizeof(key));
	osn_json_key(j, key);
	osn_json_obj_begin(j);
	osn_json_kstr(j, "unit", osn_cmp_metric_unit(m));
	osn_json_key(j, "values");
	osn_json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		bool have = osn_find_value(&runs[i], cpu, m, &v);

		json_value(j, m, have, v);
	}
	osn_json_arr_end(j);
	osn_json_key(j, "change_pct");
	osn_json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		bool have = i && have_a && osn_find_value(&runs[i], cpu, m, &v) &&
			osn_cmp_change(a, v, &pct);

		json_value(j, -1, have, pct);
	}
	osn_json_arr_end(j);
	osn_json_obj_end(j);
}

static void json_culprits(struct osn_json *j, const struct osn_cmp_run *runs,
			  size_t n, int cpu)
{
	osn_json_key(j, "culprits");
	osn_json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct osn_cmp_cpu *c = osn_cmp_find(&runs[i], cpu);

		if (!c || !(c->have & OSN_CMP_CAUSES)) {
			osn_json_null(j);
			continue;
		}
		osn_json_arr_begin(j);
		for (size_t k = 0; k < c->ncul; k++) {
			osn_json_obj_begin(j);
			osn_json_kstr(j, "kind", c->cul[k].kind);
			osn_json_kstr(j, "function", c->cul[k].function);
			osn_json_kstr(j, "origin_comm", c->cul[k].origin);
			osn_json_ku64(j, "count", c->cul[k].count);
			osn_json_kus(j, "time", c->cul[k].time);
			osn_json_obj_end(j);
		}
		osn_json_arr_end(j);
	}
	osn_json_arr_end(j);
}

void osn_json_compare(FILE *f, const struct osn_cmp_run *runs, size_t n)
{
	int cpus[OSN_MAX_CPUS];
	size_t ncpus = osn_cmp_cpus(runs, n, cpus, OSN_MAX_CPUS);
	struct osn_json j;

	osn_json_init(&j, f, true);
	osn_json_obj_begin(&j);
	osn_json_ku64(&j, "schema", OSN_CMP_SCHEMA);
	osn_json_kstr(&j, "tool", "osn compare");
	osn_json_kstr(&j, "version", OSN_VERSION);
	json_runs(&j, runs, n);
	json_later(&j, runs, n, cpus, ncpus);
	osn_json_key(&j, "cpus");
	osn_json_arr_begin(&j);
	for (size_t k = 0; k <= ncpus; k++) {
		int cpu = k < ncpus ? cpus[k] : -1;

		osn_json_obj_begin(&j);
		osn_json_key(&j, "cpu");
		cpu < 0 ? osn_json_str(&j, "all") : osn_json_i64(&j, cpu);
		osn_json_key(&j, "metrics");
		osn_json_obj_begin(&j);
		for (int m = 0; m < OSN_CM_NR; m++)
			if (osn_cmp_row_shown(runs, n, cpu, m))
				json_metric(&j, runs, n, cpu, m);
		osn_json_obj_end(&j);
		json_culprits(&j, runs, n, cpu);
		osn_json_obj_end(&j);
	}
	osn_json_arr_end(&j);
	osn_json_obj_end(&j);
}
