// SPDX-License-Identifier: GPL-2.0
/*
 * report_compare.c - osn compare --report FILE.html (see compare_cmd.h):
 * one self-contained page, as osn's --report (inline SVG and CSS, no
 * script): the verdicts first, the runs and what differs, then per CPU
 * and for all CPUs the runs' histograms overlaid on the same log axes,
 * the time of each class with the runs' bars side by side, the culprits
 * likewise, and the table of every number.
 */
#include <math.h>
#include <string.h>

#include "compare_cmd.h"
#include "report.h"
#include "util.h"

#define W	760.0
#define H	240.0
#define ML	64.0
#define MR	16.0
#define MT	30.0
#define MB	38.0
#define NT	24
/* Culprits charted per CPU at most. */
#define NCUL	8
/* The culprits chart: its column of names. */
#define CUL_ML	230.0

static const char *const run_css =
".run0{stroke:#1f77b4;fill:#1f77b4}.run1{stroke:#ff7f0e;fill:#ff7f0e}\n"
".run2{stroke:#2ca02c;fill:#2ca02c}.run3{stroke:#d62728;fill:#d62728}\n"
".run4{stroke:#9467bd;fill:#9467bd}.run5{stroke:#8c564b;fill:#8c564b}\n"
".run6{stroke:#e377c2;fill:#e377c2}.run7{stroke:#7f7f7f;fill:#7f7f7f}\n"
"polyline.line{fill:none;stroke-width:1.8}rect.cbar,rect.ubar{stroke:none}\n"
"ul.verdict li{margin:.2em 0}.verdict{font-size:1.05em}\n";

static const char *run_cls(size_t i, const char *kind, char *buf, size_t len)
{
	snprintf(buf, len, "%s run%zu", kind, i % OSN_CMP_RUNS);
	return buf;
}

static void esc(FILE *f, const char *s)
{
	svg_escape(f, s);
}

static void head(FILE *f, const struct osn_cmp_run *runs, size_t n)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>osn compare:", f);
	for (size_t i = 0; i < n; i++) {
		fputc(' ', f);
		esc(f, runs[i].path);
	}
	fprintf(f, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n<h1>osn compare</h1>\n",
		osn_report_css, run_css);
}

static void verdict_section(FILE *f, const struct osn_cmp_run *runs, size_t n,
			    const int *cpus, size_t ncpus)
{
	char v[512];

	fputs("<section id=\"verdict\">\n<h2>Verdict</h2>\n", f);
	for (size_t i = 1; i < n; i++) {
		fprintf(f, "<h3>%s against A</h3>\n<ul class=\"verdict\">\n",
			osn_cmp_label(i));
		for (size_t k = 0; k <= ncpus; k++) {
			osn_cmp_verdict(&runs[0], &runs[i], k < ncpus ? cpus[k] : -1,
					NULL, v, sizeof(v));
			fputs("<li>", f);
			esc(f, v);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("</section>\n", f);
}

static void td(FILE *f, const char *s)
{
	fputs("<td>", f);
	esc(f, s);
	fputs("</td>", f);
}

static void legend(FILE *f, size_t n)
{
	char c[32];

	fputs("<p class=\"legend\">", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "<svg width=\"12\" height=\"12\"><rect width=\"12\" height=\"12\" class=\"%s\"/></svg> %s &nbsp; ",
			run_cls(i, "key", c, sizeof(c)), osn_cmp_label(i));
	fputs("</p>\n", f);
}

static void runs_section(FILE *f, const struct osn_cmp_run *runs, size_t n)
{
	char b[1024];

	fputs("<section id=\"runs\">\n<h2>Runs</h2>\n<table class=\"meta runs\">\n<tr><th>run</th><th>file</th><th>command</th><th>kernel</th><th>osn</th><th>CPUs</th><th>duration s</th><th>period / runtime / threshold us</th></tr>\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		const struct osn_cmp_run *r = &runs[i];

		fputs("<tr>", f);
		td(f, osn_cmp_label(i));
		td(f, r->path);
		td(f, r->tool);
		td(f, r->kernel);
		td(f, r->version);
		td(f, r->cpus);
		fprintf(f, "<td>%llu</td><td>%llu / %llu / %llu</td></tr>\n",
			(unsigned long long)r->duration_s,
			(unsigned long long)r->period_us,
			(unsigned long long)r->runtime_us,
			(unsigned long long)r->threshold_us);
	}
	fputs("</table>\n", f);
	for (size_t i = 1; i < n; i++)
		if (osn_cmp_differences(&runs[0], &runs[i], b, sizeof(b))) {
			fprintf(f, "<p class=\"diff\">%s differs from A: ",
				osn_cmp_label(i));
			esc(f, b);
			fputs("</p>\n", f);
		}
	legend(f, n);
	fputs("</section>\n", f);
}

/* ---- the histograms, overlaid ----------------------------------------------- */

/* The points of a run's histogram: bucket middle (us), samples per s. */
static bool hist_point(const struct osn_cmp_cpu *c, size_t i, double *x,
		       double *y)
{
	*x = (c->bins[i].lo + c->bins[i].hi) / 2000;
	*y = c->secs > 0 ? c->bins[i].count / c->secs : (double)c->bins[i].count;
	return *x > 0 && *y > 0;
}

/* The powers of ten around every point of the runs' histograms. */
static bool hist_domain(const struct osn_cmp_run *runs, size_t n, int cpu,
			double *x0, double *x1, double *y0, double *y1)
{
	*x0 = *y0 = INFINITY;
	*x1 = *y1 = 0;
	for (size_t i = 0; i < n; i++) {
		const struct osn_cmp_cpu *c = osn_cmp_find(&runs[i], cpu);

		for (size_t k = 0; c && k < c->nbins; k++) {
			double x, y;

			if (!hist_point(c, k, &x, &y))
				continue;
			*x0 = fmin(*x0, x);
			*x1 = fmax(*x1, x);
			*y0 = fmin(*y0, y);
			*y1 = fmax(*y1, y);
		}
	}
	if (!(*x1 > 0))
		return false;
	*x0 = pow(10, floor(log10(*x0)));
	*x1 = pow(10, ceil(log10(*x1) + 1e-9));
	*y0 = pow(10, floor(log10(*y0)));
	*y1 = pow(10, ceil(log10(*y1) + 1e-9));
	return true;
}

static void log_axes(FILE *f, const struct svg_scale *x, const struct svg_scale *y,
		     double x0, double x1, double y0, double y1)
{
	double t[NT];
	size_t nt;

	nt = svg_log_value_ticks(y0, y1, t, NT);
	svg_grid_y(f, y, t, nt, ML, W - MR);
	nt = svg_log_value_ticks(x0, x1, t, NT);
	svg_grid_x(f, x, t, nt, MT, H - MB);
	svg_line(f, ML, MT, ML, H - MB, "axis");
	svg_line(f, ML, H - MB, W - MR, H - MB, "axis");
	svg_text(f, ML - 4, MT - 10, "end", NULL, "samples/s");
	svg_text(f, W - MR, H - 4, "end", NULL, "sample duration, us (bucket middle)");
}

static void hist_overlay(FILE *f, const struct osn_cmp_run *runs, size_t n,
			 int cpu)
{
	double x0, x1, y0, y1, px[2048], py[2048];
	struct svg_scale x, y;
	char c[32];

	if (!hist_domain(runs, n, cpu, &x0, &x1, &y0, &y1))
		return;
	fputs("<h3>Sample durations: every run's histogram on the same log axes</h3>\n",
	      f);
	svg_scale_log(&x, x0, x1, ML, W - MR);
	svg_scale_log(&y, y0, y1, H - MB, MT);
	svg_open(f, W, H, "chart overlay", "histograms overlaid");
	log_axes(f, &x, &y, x0, x1, y0, y1);
	for (size_t i = 0; i < n; i++) {
		const struct osn_cmp_cpu *cc = osn_cmp_find(&runs[i], cpu);
		size_t k = 0;

		for (size_t b = 0; cc && b < cc->nbins && k < ARRAY_SIZE(px); b++) {
			double vx, vy;

			if (!hist_point(cc, b, &vx, &vy))
				continue;
			px[k] = svg_scale_map(&x, vx);
			py[k++] = svg_scale_map(&y, vy);
		}
		if (!k)
			continue;
		svg_polyline(f, px, py, k, run_cls(i, "line", c, sizeof(c)));
		/* a sparse histogram: its buckets seen as dots on the line */
		for (size_t b = 0; b < k; b++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" class=\"%s\"/>\n",
				px[b], py[b], run_cls(i, "dot", c, sizeof(c)));
	}
	svg_close(f);
}

/* ---- bars side by side ------------------------------------------------------ */

/* One group of bars per item, one bar per run, on a linear value axis. */
struct groups {
	const char *what, *cls, *unit;
	size_t nitems;
	/* item @k of run @i on @cpu: false when the run lacks it */
	bool (*value)(const struct osn_cmp_run *r, int cpu, size_t k, double *v,
		      const void *ctx);
	void (*name)(size_t k, char *buf, size_t len, const void *ctx);
	const void *ctx;
};

static double groups_max(const struct osn_cmp_run *runs, size_t n, int cpu,
			 const struct groups *g)
{
	double max = 0, v;

	for (size_t k = 0; k < g->nitems; k++)
		for (size_t i = 0; i < n; i++)
			if (g->value(&runs[i], cpu, k, &v, g->ctx) && v > max)
				max = v;
	return max;
}

/* The value axis: from 0, ending on a labelled tick past the largest. */
static size_t value_ticks(const struct osn_cmp_run *runs, size_t n, int cpu,
			  const struct groups *g, double *t, double *top)
{
	svg_nice_ticks(0, fmax(groups_max(runs, n, cpu, g), 1e-3), 5, t, NT, top);
	return svg_nice_ticks(0, *top, 5, t, NT, top);
}

static void bar(FILE *f, const struct osn_cmp_run *runs, size_t i, int cpu,
		const struct groups *g, size_t k, double x, double y, double w,
		double h)
{
	char t[160], name[96], v[32], c[32];
	double val;

	g->name(k, name, sizeof(name), g->ctx);
	if (!g->value(&runs[i], cpu, k, &val, g->ctx))
		return;
	svg_fmt_num(val, v, sizeof(v));
	snprintf(t, sizeof(t), "%s %s: %s %s", osn_cmp_label(i), name, v, g->unit);
	svg_rect(f, x, y, w, h, run_cls(i, g->cls, c, sizeof(c)), t);
}

/* Vertical groups along x (the classes). */
static void columns_chart(FILE *f, const struct osn_cmp_run *runs, size_t n,
			  int cpu, const struct groups *g)
{
	double t[NT], top, gw = (W - ML - MR) / g->nitems, bw;
	struct svg_scale y;
	char b[96];
	size_t nt;

	nt = value_ticks(runs, n, cpu, g, t, &top);
	svg_scale_linear(&y, 0, top, H - MB, MT);
	bw = (gw - 12) / n;
	svg_open(f, W, H, g->what, g->what);
	svg_grid_y(f, &y, t, nt, ML, W - MR);
	for (size_t k = 0; k < g->nitems; k++) {
		double gx = ML + k * gw + 6, v;

		for (size_t i = 0; i < n; i++)
			if (g->value(&runs[i], cpu, k, &v, g->ctx)) {
				double py = svg_scale_map(&y, v);

				bar(f, runs, i, cpu, g, k, gx + i * bw, py,
				    bw > 2 ? bw - 1 : bw, H - MB - py);
			}
		g->name(k, b, sizeof(b), g->ctx);
		svg_text(f, ML + (k + 0.5) * gw, H - MB + 14, "middle", NULL, b);
	}
	svg_line(f, ML, MT, ML, H - MB, "axis");
	svg_line(f, ML, H - MB, W - MR, H - MB, "axis");
	svg_text(f, ML - 4, MT - 10, "end", NULL, g->unit);
	svg_close(f);
}

/* Horizontal groups down y (the culprits), their names on the left. */
static void rows_chart(FILE *f, const struct osn_cmp_run *runs, size_t n,
		       int cpu, const struct groups *g)
{
	double t[NT], top, rh = 4 + 6.0 * n, h = MT + MB + rh * g->nitems;
	struct svg_scale x;
	char b[96];
	size_t nt;

	nt = value_ticks(runs, n, cpu, g, t, &top);
	svg_scale_linear(&x, 0, top, CUL_ML, W - MR);
	svg_open(f, W, h, g->what, g->what);
	svg_grid_x(f, &x, t, nt, MT, h - MB);
	for (size_t k = 0; k < g->nitems; k++) {
		double gy = MT + k * rh + 2, v;

		g->name(k, b, sizeof(b), g->ctx);
		/* a long name is cut: the table has it whole */
		if (strlen(b) > 34)
			strcpy(b + 31, "...");
		svg_text(f, CUL_ML - 6, gy + rh / 2 + 2, "end", NULL, b);
		for (size_t i = 0; i < n; i++)
			if (g->value(&runs[i], cpu, k, &v, g->ctx))
				bar(f, runs, i, cpu, g, k, CUL_ML, gy + i * 6.0,
				    svg_scale_map(&x, v) - CUL_ML, 5);
	}
	svg_line(f, CUL_ML, MT, CUL_ML, h - MB, "axis");
	svg_text(f, W - MR, h - 4, "end", NULL, g->unit);
	svg_close(f);
}

/* The classes: HW, NMI, IRQ, Softirq, Thread time in ms/s. */
static bool class_value(const struct osn_cmp_run *r, int cpu, size_t k,
			double *v, const void *ctx)
{
	(void)ctx;
	return osn_find_value(r, cpu, OSN_CM_TIME + (int)k, v);
}

static void class_name(size_t k, char *buf, size_t len, const void *ctx)
{
	(void)ctx;
	snprintf(buf, len, "%s", osn_class_titles[k]);
}

/* The culprits: the union of the runs' top ones, by "kind function". */
struct cul_set {
	const struct osn_cmp_culprit *u[NCUL];
	size_t n;
};

static bool same_culprit(const struct osn_cmp_culprit *a,
			 const struct osn_cmp_culprit *b)
{
	return !strcmp(a->kind, b->kind) && !strcmp(a->function, b->function) &&
		!strcmp(a->origin, b->origin);
}

static bool cul_value(const struct osn_cmp_run *r, int cpu, size_t k,
		      double *v, const void *ctx)
{
	const struct cul_set *s = ctx;
	const struct osn_cmp_cpu *c = osn_cmp_find(r, cpu);

	if (!c || !(c->have & OSN_CMP_CAUSES))
		return false;
	*v = 0;
	for (size_t i = 0; i < c->ncul; i++)
		if (same_culprit(&c->cul[i], s->u[k]))
			*v = c->secs > 0 ? c->cul[i].time / 1e6 / c->secs : 0;
	return true;
}

static void cul_name(size_t k, char *buf, size_t len, const void *ctx)
{
	const struct osn_cmp_culprit *u = ((const struct cul_set *)ctx)->u[k];

	snprintf(buf, len, "%s %s%s%s", u->kind, u->function[0] ? u->function : "-",
		 u->origin[0] ? " from " : "", u->origin);
}

static void cul_collect(const struct osn_cmp_run *runs, size_t n, int cpu,
			struct cul_set *s)
{
	s->n = 0;
	for (size_t i = 0; i < n; i++) {
		const struct osn_cmp_cpu *c = osn_cmp_find(&runs[i], cpu);

		for (size_t k = 0; c && k < c->ncul && s->n < NCUL; k++) {
			size_t j = 0;

			while (j < s->n && !same_culprit(s->u[j], &c->cul[k]))
				j++;
			if (j == s->n)
				s->u[s->n++] = &c->cul[k];
		}
	}
}

/* ---- the numbers ------------------------------------------------------------ */

static void numbers_table(FILE *f, const struct osn_cmp_run *runs, size_t n,
			  int cpu)
{
	char b[64];

	fputs("<table class=\"num compare\">\n<tr><th>number</th>", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "<th>%s</th>", osn_cmp_label(i));
	for (size_t i = 1; i < n; i++)
		fprintf(f, "<th>%s vs A</th>", osn_cmp_label(i));
	fputs("</tr>\n", f);
	for (int m = 0; m < OSN_CM_NR; m++) {
		double a, v, pct;
		bool have_a = osn_find_value(&runs[0], cpu, m, &a);

		if (!osn_cmp_row_shown(runs, n, cpu, m))
			continue;
		osn_cmp_metric_name(m, b, sizeof(b));
		fprintf(f, "<tr><th>%s %s</th>", b, osn_cmp_metric_unit(m));
		for (size_t i = 0; i < n; i++) {
			strcpy(b, "-");
			if (osn_find_value(&runs[i], cpu, m, &v))
				osn_cmp_fmt(m, v, b, sizeof(b));
			td(f, b);
		}
		for (size_t i = 1; i < n; i++) {
			b[0] = '\0';
			if (have_a && osn_find_value(&runs[i], cpu, m, &v) &&
			    osn_cmp_change(a, v, &pct))
				snprintf(b, sizeof(b), "%+.1f %%", pct);
			td(f, b);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void cpu_section(FILE *f, const struct osn_cmp_run *runs, size_t n,
			int cpu)
{
	const struct groups classes = {
		"chart classes", "cbar", "ms/s", OSN_CLASS_NR, class_value,
		class_name, NULL,
	};
	struct cul_set cs;
	struct groups culprits = {
		"chart culprits", "ubar", "ms/s", 0, cul_value, cul_name, &cs,
	};
	double v;
	bool top = false;

	if (cpu < 0)
		fputs("<section class=\"cpu\" id=\"cpu-all\">\n<h2>All CPUs (rates per CPU-second)</h2>\n", f);
	else
		fprintf(f, "<section class=\"cpu\" id=\"cpu-%d\">\n<h2>CPU %d</h2>\n",
			cpu, cpu);
	hist_overlay(f, runs, n, cpu);
	for (size_t i = 0; i < n; i++)
		top |= osn_find_value(&runs[i], cpu, OSN_CM_NOISE, &v);
	if (top) {
		fputs("<h3>Time stolen by class, ms per second, the runs side by side</h3>\n",
		      f);
		columns_chart(f, runs, n, cpu, &classes);
	}
	cul_collect(runs, n, cpu, &cs);
	culprits.nitems = cs.n;
	if (cs.n) {
		fputs("<h3>Top culprits (--causes), ms per second</h3>\n", f);
		rows_chart(f, runs, n, cpu, &culprits);
	}
	numbers_table(f, runs, n, cpu);
	fputs("</section>\n", f);
}

int osn_report_compare(FILE *f, const struct osn_cmp_run *runs, size_t n)
{
	int cpus[OSN_MAX_CPUS];
	size_t ncpus = osn_cmp_cpus(runs, n, cpus, OSN_MAX_CPUS);

	head(f, runs, n);
	verdict_section(f, runs, n, cpus, ncpus);
	runs_section(f, runs, n);
	for (size_t k = 0; k <= ncpus; k++)
		cpu_section(f, runs, n, k < ncpus ? cpus[k] : -1);
	fputs("</body>\n</html>\n", f);
	fflush(f);
	return ferror(f) ? osn_err("cannot write the report") : 0;
}
