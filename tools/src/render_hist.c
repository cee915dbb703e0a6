// SPDX-License-Identifier: GPL-2.0
/*
 * render_hist.c - osn hist's histogram, as text and as JSON (see
 * render.h).
 */
#include <string.h>

#include "osn/osn_abi.h"
#include "render_int.h"

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
void osn_hist_body(FILE *f, const struct osn_hist *h,
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

/* --layout rows, or auto with more CPUs than rtla's columns fit. */
bool osn_layout_rows(enum osn_layout l, size_t ncpus)
{
	return l == OSN_LAYOUT_ROWS ||
	       (l == OSN_LAYOUT_AUTO && ncpus > OSN_HIST_COLUMNS_MAX);
}

static const char *const row_head[] = {
	"CPU", "count", "min", "avg", "max", "p50", "p90", "p99", "p99.9",
	"over",
};

/* Row @r of the table of rows: @c's summary, "-" where it has none. */
static void cpu_row(struct osn_table *t, int r, const char *label,
		    const struct osn_hist_cpu *c)
{
	const uint64_t v[] = { c->min, c->avg, c->max };
	const bool x[] = { c->min_exact, c->avg_exact, c->max_exact };

	snprintf(osn_table_cell(t, r, 0), OSN_CELL, "%s", label);
	snprintf(osn_table_cell(t, r, 1), OSN_CELL, "%llu",
		 (unsigned long long)c->count);
	for (int k = 0; k < 3 + OSN_NR_PCT; k++) {
		char *cell = osn_table_cell(t, r, 2 + k);

		if (!c->count)
			strcpy(cell, "-");
		else if (k < 3)
			us3(cell, OSN_CELL, v[k], x[k]);
		else
			us3(cell, OSN_CELL, c->pct[k - 3], c->pct_exact[k - 3]);
	}
	snprintf(osn_table_cell(t, r, 9), OSN_CELL, "%llu",
		 (unsigned long long)c->over);
}

/* A row per measured CPU, with or without samples, then ALL (@all). */
static void cpu_table(FILE *f, const struct osn_hist *h,
		      const struct osn_hist_cpu *all, bool no_head)
{
	static const bool left[ARRAY_SIZE(row_head)];
	struct osn_table t;
	char label[16];

	if (!osn_table_init(&t, ARRAY_SIZE(row_head), (int)h->ncpus + 1,
			    row_head, left)) {
		for (size_t i = 0; i < h->ncpus; i++) {
			snprintf(label, sizeof(label), "%d", h->cpus[i].cpu);
			cpu_row(&t, (int)i, label, &h->cpus[i]);
		}
		cpu_row(&t, (int)h->ncpus, "ALL", all);
		t.no_head = no_head;
		osn_table_layout(&t);
		osn_table_print(f, &t);
	}
	osn_table_free(&t);
}

/*
 * --layout rows: the histogram of every CPU's samples together (one
 * column, ALL: the body of rtla's layout), then the table of rows.
 */
static void hist_rows(FILE *f, const struct osn_hist *h,
		      const struct osn_params *p)
{
	struct osn_hist one = *h;

	one.cpus = (struct osn_hist_cpu *)&h->all;
	one.ncpus = 1;
	if (h->all.count) {
		if (!(p && p->no_header))
			fprintf(f, "%s%10s\n", p && p->no_index ? "" : "Index",
				"ALL");
		osn_hist_body(f, &one, p, 0);
	}
	if (!(p && p->no_summary)) {
		if (h->all.count)
			fputc('\n', f);
		cpu_table(f, h, &h->all, p && p->no_header);
	}
}

void osn_render_hist(FILE *f, const struct osn_hist *h,
		     const struct osn_report_info *info)
{
	const struct osn_params *p = info->params;
	bool no_index = p && p->no_index;
	bool rows = osn_layout_rows(p ? p->layout : OSN_LAYOUT_AUTO, h->ncpus);
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
	}
	if (rows) {
		hist_rows(f, h, p);
	} else {
		if (!(p && p->no_header)) {
			if (!no_index)
				fprintf(f, "Index");
			for (size_t i = 0; i < h->ncpus; i++)
				if (h->cpus[i].count)
					fprintf(f, "   CPU-%03d", h->cpus[i].cpu);
			fprintf(f, "\n");
		}
		osn_hist_body(f, h, p, 8);
	}
	osn_render_lost(f, info->events_lost);
}

/* "buckets": [{index, count}] of @c: the non-empty ones, or all -E */
void osn_json_buckets(struct osn_json *j, const struct osn_hist *h,
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
	osn_json_head(&j, "osn hist", info);
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

			for (size_t k = 0; k < ARRAY_SIZE(nulls); k++) {
				osn_json_key(&j, nulls[k]);
				osn_json_null(&j);
			}
		}
		osn_json_buckets(&j, h, c, with_zeros);
		osn_json_obj_end(&j);
	}
	osn_json_arr_end(&j);
	osn_json_tail(&j, info);
	osn_json_obj_end(&j);
}
