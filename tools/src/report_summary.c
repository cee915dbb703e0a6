// SPDX-License-Identifier: GPL-2.0
/*
 * report_summary.c - the parts of the --report page that sum the run up:
 * the verdict at the top (a line a CPU: how much it lost, its worst
 * single noise, to what and, with --causes, who sent it) and the chart
 * and table of the culprits.
 */
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

/* ---- the verdict: a line a CPU, at the top --------------------------------- */

/* CPUs the verdict names, the least available first; the rest in a line. */
#define VERDICT_CPUS	8

/* @ns as a person reads it: "1.234 s", "16.224 ms", "25.868 us". */
static void human(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, len, "%.3f s", ns / 1e9);
	else if (ns >= 1000000ULL)
		snprintf(buf, len, "%.3f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.3f us", ns / 1e3);
}

static void avail_str(const struct osn_cpu_stats *st, char *buf, size_t len)
{
	uint64_t a = osn_stats_avail_e5(st);

	snprintf(buf, len, "%llu.%05llu %%", (unsigned long long)(a / 100000),
		 (unsigned long long)(a % 100000));
}

/* The class that stole the most time on @st, or -1 (none stole any). */
static int top_class(const struct osn_cpu_stats *st)
{
	int top = -1;

	for (int k = 0; k < OSN_CLASS_NR; k++)
		if (st->time[k] && (top < 0 || st->time[k] > st->time[top]))
			top = k;
	return top;
}

/* "work inj_work_fn from osn_inj_src/1:182 (CPU 0)", "wakeup from ..." */
static void culprit_label(const struct osn_culprit *u, char *buf, size_t len)
{
	char fn[80], who[80];

	osn_culprit_function(fn, sizeof(fn), u);
	osn_culprit_origin(who, sizeof(who), u);
	snprintf(buf, len, "%s%s%s from %s", osn_culprit_kind(u),
		 strcmp(fn, "-") ? " " : "", strcmp(fn, "-") ? fn : "", who);
}

/* @c's top culprit (--causes, ranked by time), or NULL. */
static const struct osn_culprit *top_culprit(const struct osn_report_info *info,
					     int cpu)
{
	const struct osn_causes *cs = info->causes;

	if (!cs || cpu < 0 || cpu >= cs->nr_cpus || !cs->cpu[cpu].n)
		return NULL;
	return &cs->cpu[cpu].culprits[0];
}

/*
 * "CPU 1: 79.32459 % available; the longest single noise 16.224 ms; most
 * of the noise time: Thread (338.251 ms), above all kworker/1:1H
 * (265.718 ms); the top culprit: work inj_work_fn from osn_inj_src/1:182
 * (CPU 0) (265.601 ms)."  What a reader asks first: how much was lost, the
 * worst single hit, to what and, with --causes, who sent it.
 */
static void verdict_line(FILE *f, const struct osn_report_cpu *c,
			 const struct osn_report_info *info)
{
	const struct osn_culprit *u = top_culprit(info, c->cpu);
	const struct osn_cpu_stats *st = &c->st;
	char b[512], t[32], name[192];
	int k = top_class(st);
	size_t n;

	if (!st->periods) {
		fprintf(f, "<li>CPU %d: no period was recorded.</li>\n", c->cpu);
		return;
	}
	avail_str(st, t, sizeof(t));
	n = snprintf(b, sizeof(b), "CPU %d: %s available", c->cpu, t);
	human(st->max_single, t, sizeof(t));
	n += snprintf(b + n, sizeof(b) - n, st->samples ?
		      "; the longest single noise %s" : "; no noise sample", t);
	if (k >= 0 && n < sizeof(b)) {
		human(st->time[k], t, sizeof(t));
		n += snprintf(b + n, sizeof(b) - n,
			      "; most of the noise time: %s (%s)",
			      osn_class_titles[k], t);
	}
	if (c->nsrc && n < sizeof(b)) {
		human(c->src[0].time, t, sizeof(t));
		n += snprintf(b + n, sizeof(b) - n, ", above all %s %s (%s)",
			      osn_class_names[c->src[0].cls], c->src[0].name, t);
	}
	if (u && n < sizeof(b)) {
		culprit_label(u, name, sizeof(name));
		human(u->time, t, sizeof(t));
		snprintf(b + n, sizeof(b) - n, "; the top culprit: %s (%s)",
			 name, t);
	}
	fputs("<li>", f);
	svg_escape(f, b);
	fputs(".</li>\n", f);
}

struct avail_rank {
	uint64_t avail_e5;
	size_t i;
};

/* least available first; a tie in CPU order */
static int avail_cmp(const void *pa, const void *pb)
{
	const struct avail_rank *a = pa, *b = pb;

	if (a->avail_e5 != b->avail_e5)
		return a->avail_e5 < b->avail_e5 ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

void osn_report_verdict(FILE *f, const struct osn_report *r,
			const struct osn_report_info *info)
{
	struct avail_rank *v = calloc(r->ncpus ? r->ncpus : 1, sizeof(*v));
	size_t n = r->ncpus < VERDICT_CPUS ? r->ncpus : VERDICT_CPUS;
	char t[32];

	if (!v)
		return;		/* the page goes on without it */
	for (size_t i = 0; i < r->ncpus; i++) {
		v[i].avail_e5 = osn_stats_avail_e5(&r->cpus[i].st);
		v[i].i = i;
	}
	qsort(v, r->ncpus, sizeof(*v), avail_cmp);
	fputs("<section id=\"verdict\">\n<h2>Verdict</h2>\n<ul class=\"verdict\">\n", f);
	for (size_t k = 0; k < n; k++)
		verdict_line(f, &r->cpus[v[k].i], info);
	if (r->ncpus > n) {
		avail_str(&r->cpus[v[n].i].st, t, sizeof(t));
		fprintf(f, "<li>%zu more CPUs, each at least %s available.</li>\n",
			r->ncpus - n, t);
	}
	fputs("</ul>\n</section>\n", f);
	free(v);
}

/* ---- the culprits (--causes) -------------------------------------------------- */

#define CUL_LABEL_W	300.0	/* room for the culprits' names */
#define CUL_LABEL_MAX	48	/* characters of a name in the chart */

/* One bar a culprit, by time; the table below has the whole names. */
static void culprit_chart(FILE *f, const struct osn_cpu_causes *cc, int cpu,
			  size_t n)
{
	double rowh = 20, h = MT + MB + rowh * n, xt[NTICKS], top;
	uint64_t maxt = 0;
	struct svg_scale x;
	char b[256], name[192], v[32];
	size_t nx;

	for (size_t k = 0; k < n; k++)
		if (cc->culprits[k].time > maxt)
			maxt = cc->culprits[k].time;
	nx = svg_nice_ticks(0, maxt ? maxt / 1000.0 : 1, 5, xt, NTICKS, &top);
	svg_scale_linear(&x, 0, top, CUL_LABEL_W, W - MR);
	snprintf(b, sizeof(b), "culprits of CPU %d by time", cpu);
	svg_open(f, W, h, "chart culprits", b);
	svg_grid_x(f, &x, xt, nx, MT, h - MB);
	svg_text(f, W - MR, h - 4, "end", NULL, "us stolen");
	for (size_t k = 0; k < n; k++) {
		const struct osn_culprit *u = &cc->culprits[k];
		double y = MT + k * rowh + 3;

		culprit_label(u, name, sizeof(name));
		us(u->time, v, sizeof(v));
		snprintf(b, sizeof(b), "%s: %s us, %llu noises", name, v,
			 (unsigned long long)u->count);
		svg_rect(f, CUL_LABEL_W, y,
			 svg_scale_map(&x, u->time / 1000.0) - CUL_LABEL_W,
			 rowh - 6, "bar culprit", b);
		if (strlen(name) > CUL_LABEL_MAX)
			strcpy(name + CUL_LABEL_MAX - 3, "...");
		svg_text(f, CUL_LABEL_W - 4, y + 11, "end", NULL, name);
	}
	svg_line(f, CUL_LABEL_W, MT, CUL_LABEL_W, h - MB, "axis");
	svg_close(f);
}

static void culprit_table(FILE *f, const struct osn_cpu_causes *cc, int cpu,
			  size_t n)
{
	char fn[80], who[80];

	fputs("<table class=\"num culprits\">\n<tr><th>CPU</th><th>kind</th><th>function</th><th>origin</th><th>count</th><th>us</th></tr>\n",
	      f);
	for (size_t k = 0; k < n; k++) {
		const struct osn_culprit *u = &cc->culprits[k];

		osn_culprit_function(fn, sizeof(fn), u);
		osn_culprit_origin(who, sizeof(who), u);
		fprintf(f, "<tr><td>%d</td>", cpu);
		td_str(f, osn_culprit_kind(u));
		td_str(f, fn);
		td_str(f, who);
		td_u64(f, u->count);
		td_us(f, u->time);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (n < cc->n)
		fprintf(f, "<p>CPU %d: %zu more culprits.</p>\n", cpu, cc->n - n);
}

void osn_report_culprits(FILE *f, const struct osn_report *r,
			 const struct osn_causes *cs)
{
	fputs("<section id=\"culprits\">\n<h2>Culprits</h2>\n<p>What ran in the noise and who sent it (osn:noise_cause), by time; a noise with several causes counts for each of them.</p>\n",
	      f);
	for (size_t i = 0; i < r->ncpus; i++) {
		int cpu = r->cpus[i].cpu;
		const struct osn_cpu_causes *cc;
		size_t n;

		if (cpu < 0 || cpu >= cs->nr_cpus)
			continue;
		cc = &cs->cpu[cpu];
		fprintf(f, "<h3>CPU %d</h3>\n", cpu);
		if (!cc->n) {
			fputs("<p>No cause was recorded.</p>\n", f);
			continue;
		}
		n = cc->n < OSN_REPORT_CULPRITS ? cc->n : OSN_REPORT_CULPRITS;
		culprit_chart(f, cc, cpu, n);
		culprit_table(f, cc, cpu, n);
	}
	fputs("</section>\n", f);
}
