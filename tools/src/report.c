// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the HTML report (see report.h): what is kept during the run,
 * and the page.
 */
#include <stdlib.h>
#include <string.h>

#include "report_int.h"
#include "util.h"

/* ---- collection ------------------------------------------------------------- */

int osn_report_init(struct osn_report *r, const int *cpus, size_t ncpus,
		    int nr_cpus)
{
	memset(r, 0, sizeof(*r));
	r->cpus = calloc(ncpus ? ncpus : 1, sizeof(*r->cpus));
	r->index = malloc(sizeof(*r->index) * (nr_cpus > 0 ? nr_cpus : 1));
	if (!r->cpus || !r->index) {
		osn_report_free(r);
		return osn_err("out of memory");
	}
	r->ncpus = ncpus;
	r->nr_cpus = nr_cpus;
	for (int c = 0; c < nr_cpus; c++)
		r->index[c] = -1;
	for (size_t i = 0; i < ncpus; i++) {
		r->cpus[i].cpu = cpus[i];
		r->cpus[i].per_point = 1;
		if (cpus[i] >= 0 && cpus[i] < nr_cpus)
			r->index[cpus[i]] = (int)i;
	}
	return 0;
}

void osn_report_free(struct osn_report *r)
{
	if (r->cpus)
		for (size_t i = 0; i < r->ncpus; i++)
			free(r->cpus[i].bins);
	free(r->cpus);
	free(r->index);
	memset(r, 0, sizeof(*r));
}

static struct osn_report_cpu *cpu_of(struct osn_report *r, int cpu)
{
	if (cpu < 0 || cpu >= r->nr_cpus || r->index[cpu] < 0)
		return NULL;
	return &r->cpus[r->index[cpu]];
}

static void merge_point(struct osn_report_point *a,
			const struct osn_report_point *b)
{
	if (b->noise > a->noise)
		a->noise = b->noise;
	if (b->max_single > a->max_single)
		a->max_single = b->max_single;
}

/* One period; a full series merges its points in pairs (bounded memory). */
static void add_point(struct osn_report_cpu *c, uint64_t noise, uint64_t max)
{
	struct osn_report_point p = { .noise = noise, .max_single = max };

	if (c->npts && c->in_last < c->per_point) {
		merge_point(&c->pts[c->npts - 1], &p);
		c->in_last++;
		return;
	}
	if (c->npts == OSN_REPORT_POINTS) {
		for (size_t i = 0; i < OSN_REPORT_POINTS / 2; i++) {
			c->pts[i] = c->pts[2 * i];
			merge_point(&c->pts[i], &c->pts[2 * i + 1]);
		}
		c->npts = OSN_REPORT_POINTS / 2;
		c->per_point *= 2;
	}
	c->pts[c->npts++] = p;
	c->in_last = 1;
}

static unsigned log2_u64(uint64_t v)
{
	unsigned k = 0;

	while (v >>= 1)
		k++;
	return k;
}

static void add_source(struct osn_report_cpu *c, int cls, const char *name,
		       uint64_t time)
{
	size_t i;

	for (i = 0; i < c->nsrc; i++)
		if (c->src[i].cls == cls && !strcmp(c->src[i].name, name))
			break;
	if (i == c->nsrc) {
		if (c->nsrc == OSN_REPORT_SOURCES_KEPT) {
			c->other_count++;
			c->other_time += time;
			return;
		}
		c->nsrc++;
		c->src[i].cls = cls;
		osn_strlcpy(c->src[i].name, name, sizeof(c->src[i].name));
	}
	c->src[i].count++;
	c->src[i].time += time;
	/*
	 * Kept by time, most first, so that the page names the sources that
	 * stole the most, not the first ones seen (a run's heaviest source
	 * often starts late).  The sources seen most are near the front: few
	 * moves, and the search above ends early for them.
	 */
	while (i > 0 && c->src[i - 1].time < c->src[i].time) {
		struct osn_report_source tmp = c->src[i - 1];

		c->src[i - 1] = c->src[i];
		c->src[i] = tmp;
		i--;
	}
}

void osn_report_event(struct osn_report *r, const struct osn_event *ev)
{
	struct osn_report_cpu *c = cpu_of(r, ev->cpu);
	int cls = osn_event_class(ev->type);

	if (!c)
		return;
	if (ev->type == OSN_E_SAMPLE) {
		osn_stats_add_sample(&c->st, ev);
		add_point(c, ev->s.noise, ev->s.max_sample);
		if (ev->s.samples && ev->s.max_sample)
			c->max_log2[log2_u64(ev->s.max_sample)]++;
	} else if (cls == OSN_CLASS_SOFTIRQ) {
		add_source(c, cls, osn_softirq_name(ev->noise.id),
			   ev->noise.duration);
	} else if (cls == OSN_CLASS_NMI) {
		add_source(c, cls, "nmi", ev->noise.duration);
	} else if (cls >= 0) {
		add_source(c, cls, ev->noise.name, ev->noise.duration);
	}
}

void osn_report_stop(struct osn_report *r, int cpu)
{
	struct osn_report_cpu *c = cpu_of(r, cpu);

	if (!c)
		return;
	c->stopped = true;
	c->stop_period = c->st.periods;
}

int osn_report_set_hist(struct osn_report *r, const struct osn_hist *h)
{
	for (size_t i = 0; i < h->ncpus; i++) {
		const struct osn_hist_cpu *hc = &h->cpus[i];
		struct osn_report_cpu *c = cpu_of(r, hc->cpu);
		double b = (double)h->bucket_ns;
		size_t n = 0;

		if (!c)
			continue;
		free(c->bins);
		c->bins = calloc(hc->nrows + 1, sizeof(*c->bins));
		if (!c->bins)
			return osn_err("out of memory");
		for (unsigned k = 0; k < hc->nrows; k++, n++) {
			c->bins[n].lo = k * b;
			c->bins[n].hi = (k + 1) * b;
			c->bins[n].count = hc->rows[k];
		}
		if (hc->over) {
			c->bins[n].lo = (double)h->entries * b;
			c->bins[n].hi = hc->max > c->bins[n].lo ?
				(double)hc->max : c->bins[n].lo + b;
			c->bins[n++].count = hc->over;
		}
		c->nbins = n;
		c->have_hist = true;
		c->hist_count = hc->count;
		c->hist_max = hc->max;
		memcpy(c->pct, hc->pct, sizeof(c->pct));
	}
	return 0;
}

/* ---- the page --------------------------------------------------------------- */


const char osn_report_css[] =
"body{font:14px/1.4 sans-serif;margin:1.5em;color:#222;max-width:62em}\n"
"h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc}\n"
"h3{font-size:1em;margin-bottom:.2em}\n"
"table{border-collapse:collapse;margin:.3em 0 1em}\n"
"td,th{border:1px solid #ddd;padding:1px 6px;text-align:right}\n"
"th{background:#f4f4f4}table.meta td,table.meta th{text-align:left}\n"
"pre{background:#f8f8f8;padding:.5em;overflow:auto}\n"
"svg text{font:11px sans-serif;fill:#333}\n"
".axis{stroke:#888;stroke-width:1}.grid{stroke:#eee;stroke-width:1}\n"
".noise{fill:none;stroke:#1f77b4;stroke-width:1.5}\n"
".single{fill:none;stroke:#d62728;stroke-width:1.2}\n"
".stop{fill:#000;stroke:none}.stopline{stroke:#000;stroke-dasharray:4 3}\n"
".bar{fill:#4c78a8}.pct{stroke:#e45756;stroke-width:1.5}\n"
".c-hw{fill:#7f7f7f}.c-nmi{fill:#9467bd}.c-irq{fill:#d62728}\n"
".c-softirq{fill:#ff7f0e}.c-thread{fill:#2ca02c}.c-other{fill:#bbb}\n"
".key-noise{fill:#1f77b4}.key-single{fill:#d62728}\n";

static void meta_row(FILE *f, const char *key, const char *val)
{
	fputs("<tr><th>", f);
	svg_escape(f, key);
	fputs("</th>", f);
	td_str(f, val);
	fputs("</tr>\n", f);
}

static void write_header(FILE *f, const struct osn_report *r,
			 const struct osn_report_info *info,
			 const struct osn_report_meta *meta)
{
	const struct osn_params *p = info->params;
	const char *cmd = osn_cmd_name(p->cmd);
	char b[256], e[64];

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>osn ",
	      f);
	svg_escape(f, cmd);
	fputs(" report: ", f);
	svg_escape(f, meta->host);
	fprintf(f, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n<h1>osn ",
		osn_report_css, osn_report_heat_css);
	svg_escape(f, cmd);
	fputs(" on ", f);
	svg_escape(f, meta->host);
	fputs("</h1>\n<table class=\"meta\">\n", f);
	meta_row(f, "host", meta->host);
	meta_row(f, "kernel", meta->kernel);
	meta_row(f, "osn version", meta->version);
	meta_row(f, "CPUs", info->cpus_str);
	snprintf(b, sizeof(b), "%llu us / %llu us / %llu us",
		 (unsigned long long)r->period_us,
		 (unsigned long long)r->runtime_us,
		 (unsigned long long)info->threshold_us);
	meta_row(f, "period / runtime / threshold", b);
	osn_format_elapsed(info->elapsed_s, e, sizeof(e));
	meta_row(f, "duration", e);
	meta_row(f, "exit", meta->exit_reason);
	if (info->events_lost) {
		snprintf(b, sizeof(b), "%llu (results may be inaccurate)",
			 (unsigned long long)info->events_lost);
		meta_row(f, "events lost", b);
	}
	if (info->unmeasured)
		meta_row(f, "not measured (kernel lacks)", info->unmeasured);
	fputs("</table>\n", f);
}

/* The stop's explanation, as osn printed it. */
static void stop_section(FILE *f, const struct osn_report_info *info)
{
	if (info->stopped) {
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		if (m) {
			osn_render_stop(m, info->why);
			fclose(m);
			fputs("<h2>Stop</h2>\n<pre class=\"why\">", f);
			svg_escape(f, text);
			fputs("</pre>\n", f);
		}
		free(text);
	}
}

/* Horizontal grid lines and labels of a y axis at @ticks. */
static void y_axis(FILE *f, const struct svg_scale *y, const double *ticks,
		   size_t n, const char *unit)
{
	svg_grid_y(f, y, ticks, n, ML, W - MR);
	svg_line(f, ML, MT, ML, H - MB, "axis");
	svg_line(f, ML, H - MB, W - MR, H - MB, "axis");
	svg_text(f, ML - 4, MT - 12, "end", NULL, unit);
}

static void time_chart(FILE *f, const struct osn_report *r,
		       const struct osn_report_cpu *c)
{
	double period_s = r->period_us / 1e6, span, top, xt[NTICKS], yt[NTICKS];
	double *px, *py, *qy, label_y = H - MB + 16;
	uint64_t ymax = 1;
	struct svg_scale x, y;
	size_t nx, ny;
	char b[64];

	if (!c->npts && !c->stopped) {
		fputs("<p>No period was recorded on this CPU.</p>\n", f);
		return;
	}
	/* a stop in the first period: an empty chart with the stop mark */
	for (size_t i = 0; i < c->npts; i++)
		if (c->pts[i].noise > ymax)
			ymax = c->pts[i].noise;
	span = (double)c->npts * c->per_point * period_s;
	nx = svg_nice_ticks(0, span, 8, xt, NTICKS, &top);
	svg_scale_linear(&x, 0, top, ML, W - MR);
	ny = svg_nice_ticks(0, ymax / 1000.0, 5, yt, NTICKS, &top);
	svg_scale_linear(&y, 0, top, H - MB, MT);
	svg_open(f, W, H, "chart time", "noise over time");
	y_axis(f, &y, yt, ny, "us");
	for (size_t i = 0; i < nx; i++) {
		num(xt[i], b, sizeof(b));
		svg_text(f, svg_scale_map(&x, xt[i]), label_y, "middle", NULL, b);
	}
	svg_text(f, W - MR, H - 4, "end", NULL, "s since collection began");
	px = c->npts ? malloc(sizeof(*px) * c->npts * 3) : NULL;
	if (px) {
		py = px + c->npts;
		qy = py + c->npts;
		for (size_t i = 0; i < c->npts; i++) {
			px[i] = svg_scale_map(&x, (i + 0.5) * c->per_point * period_s);
			py[i] = svg_scale_map(&y, c->pts[i].noise / 1000.0);
			qy[i] = svg_scale_map(&y, c->pts[i].max_single / 1000.0);
		}
		svg_polyline(f, px, py, c->npts, "noise");
		svg_polyline(f, px, qy, c->npts, "single");
		free(px);
	}
	if (c->stopped) {
		double sx = svg_scale_map(&x, c->stop_period * period_s);

		svg_line(f, sx, MT, sx, H - MB, "stopline");
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" class=\"stop\"><title>stop condition hit</title></circle>\n",
			sx, MT + 4);
	}
	svg_rect(f, ML + 8, MT - 16, 10, 3, "key-noise", NULL);
	svg_text(f, ML + 22, MT - 12, "start", NULL, "noise per period");
	svg_rect(f, ML + 140, MT - 16, 10, 3, "key-single", NULL);
	svg_text(f, ML + 154, MT - 12, "start", NULL, "max single sample");
	svg_close(f);
}

static void time_table(FILE *f, const struct osn_report *r,
		       const struct osn_report_cpu *c)
{
	if (c->stopped)
		fprintf(f, "<p>Stop condition hit after period %llu (marked).</p>\n",
			(unsigned long long)c->stop_period);
	if (!c->npts)
		return;
	fprintf(f, "<details><summary>the %zu points", c->npts);
	if (c->per_point > 1)
		fprintf(f, " (each the worst of %llu periods)",
			(unsigned long long)c->per_point);
	fputs("</summary>\n<table class=\"num time\">\n<tr><th>from s</th><th>noise per period us</th><th>max single us</th></tr>\n",
	      f);
	for (size_t i = 0; i < c->npts; i++) {
		char b[32];

		num(i * c->per_point * (r->period_us / 1e6), b, sizeof(b));
		fputs("<tr>", f);
		td_str(f, b);
		td_us(f, c->pts[i].noise);
		td_us(f, c->pts[i].max_single);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</details>\n", f);
}

/* top: the per-period max single samples, on log2 buckets */
static size_t top_bins(const struct osn_report_cpu *c, struct svg_bin *out)
{
	int lo = -1, hi = -1;
	size_t n = 0;

	for (int k = 0; k < 64; k++)
		if (c->max_log2[k]) {
			if (lo < 0)
				lo = k;
			hi = k;
		}
	for (int k = lo; lo >= 0 && k <= hi; k++, n++) {
		out[n].lo = (double)(1ULL << k);
		out[n].hi = k == 63 ? 2.0 * out[n].lo : (double)(1ULL << (k + 1));
		out[n].count = c->max_log2[k];
	}
	return n;
}

/* x of value @v (ns) among @n equal-width bars from ML, @bw each */
static double bar_x(const struct svg_bin *b, size_t n, double bw, double v)
{
	for (size_t i = 0; i < n; i++)
		if (v <= b[i].hi || i == n - 1) {
			double t = b[i].hi > b[i].lo ?
				(v - b[i].lo) / (b[i].hi - b[i].lo) : 1;

			t = t < 0 ? 0 : t > 1 ? 1 : t;
			return ML + (i + t) * bw;
		}
	return ML;
}

/*
 * Ticks of a histogram's duration axis at round values (us) placed on its
 * bars: powers of ten (and 2, 5 times them) on osn top's power-of-two
 * buckets, multiples of a 1-2-5 step on osn hist's; a label too near the
 * previous one is left out.
 */
static void hist_x_ticks(FILE *f, const struct svg_bin *bins, size_t n,
			 double bw, bool log)
{
	double t[NTICKS], lo = bins[0].lo / 1000, hi = bins[n - 1].hi / 1000;
	double top, last = -1e9;
	size_t nt;
	char b[32];

	nt = log ? svg_log_value_ticks(lo > 0 ? lo : 1e-3, hi, t, NTICKS) :
		svg_nice_ticks(lo, hi, 6, t, NTICKS, &top);
	for (size_t i = 0; i < nt; i++) {
		double x = bar_x(bins, n, bw, t[i] * 1000);

		if (x - last < 40)
			continue;
		svg_line(f, x, H - MB, x, H - MB + 4, "axis");
		num(t[i], b, sizeof(b));
		svg_text(f, x, H - MB + 14, "middle", NULL, b);
		last = x;
	}
}

/* Character width of the 11px labels, with room to spare. */
#define LABEL_CW	6.5
#define ROW_H		12.0

static void hist_chart(FILE *f, const struct osn_report_cpu *c,
		       const struct svg_bin *bins, size_t n,
		       const uint64_t *marks, const char *const *names,
		       size_t nmarks)
{
	double yt[NTICKS], top, bw, dy;
	struct svg_label lab[8];
	uint64_t maxc = 0;
	struct svg_scale y;
	size_t ny;
	int rows;
	char b[96], lo[32], hi[32];

	for (size_t i = 0; i < n; i++)
		if (bins[i].count > maxc)
			maxc = bins[i].count;
	ny = svg_log_ticks(maxc, yt, NTICKS, &top);
	/* from 0.5: a bar of one sample has a height */
	svg_scale_log(&y, 0.5, top, H - MB, MT);
	bw = (W - ML - MR) / n;
	nmarks = nmarks < ARRAY_SIZE(lab) ? nmarks : ARRAY_SIZE(lab);
	for (size_t m = 0; m < nmarks; m++) {
		lab[m].x = bar_x(bins, n, bw, (double)marks[m]);
		lab[m].text = names[m];
	}
	/* marks close together: their labels on rows above the chart */
	rows = svg_place_labels(lab, nmarks, ML, W - MR, LABEL_CW);
	dy = rows > 1 ? ROW_H * (rows - 1) : 0;
	svg_open(f, W, H + dy, "chart hist", "sample durations");
	fprintf(f, "<g transform=\"translate(0,%.0f)\">\n", dy);
	y_axis(f, &y, yt, ny, "count");
	for (size_t i = 0; i < n; i++) {
		double py = svg_scale_map(&y, (double)bins[i].count);

		num(bins[i].lo / 1000, lo, sizeof(lo));
		num(bins[i].hi / 1000, hi, sizeof(hi));
		snprintf(b, sizeof(b), "[%s, %s) us: %llu", lo, hi,
			 (unsigned long long)bins[i].count);
		svg_rect(f, ML + i * bw + 0.5, py, bw > 2 ? bw - 1 : bw,
			 H - MB - py, "bar", b);
	}
	hist_x_ticks(f, bins, n, bw, !c->have_hist);
	svg_text(f, W - MR, H - 4, "end", NULL, "sample duration, us");
	for (size_t m = 0; m < nmarks; m++) {
		svg_line(f, lab[m].x, MT - 14 - ROW_H * lab[m].row, lab[m].x,
			 H - MB, "pct");
		svg_text(f, lab[m].at, MT - 4 - ROW_H * lab[m].row,
			 lab[m].anchor, NULL, lab[m].text);
	}
	fputs("</g>\n", f);
	svg_close(f);
}

static void hist_section(FILE *f, const struct osn_report_cpu *c)
{
	static const char *const names[] = { "p50", "p99", "p99.9", "max" };
	struct svg_bin *raw = NULL, merged[OSN_REPORT_BARS];
	struct svg_bin top_raw[64] = { { 0, 0, 0 } };
	uint64_t marks[4], count;
	size_t n;
	char lo[32], hi[32];

	if (c->have_hist) {
		raw = c->bins;
		n = c->nbins;
		marks[0] = c->pct[OSN_P50];
		marks[1] = c->pct[OSN_P99];
		marks[2] = c->pct[OSN_P999];
		marks[3] = c->hist_max;
		count = c->hist_count;
		fputs("<h3>Sample durations (every noise sample, log count axis)</h3>\n",
		      f);
	} else {
		n = top_bins(c, top_raw);
		raw = top_raw;
		marks[0] = (uint64_t)svg_bins_percentile(raw, n, 500);
		marks[1] = (uint64_t)svg_bins_percentile(raw, n, 990);
		marks[2] = (uint64_t)svg_bins_percentile(raw, n, 999);
		marks[3] = c->st.max_single;
		for (int m = 0; m < 3; m++)	/* a bucket's edge past the max */
			if (marks[m] > marks[3])
				marks[m] = marks[3];
		count = 0;
		for (size_t i = 0; i < n; i++)
			count += raw[i].count;
		fputs("<h3>Largest sample of each period (osn top keeps no per-sample distribution: use osn hist), log count axis, power-of-two buckets</h3>\n",
		      f);
	}
	if (!count) {
		fputs("<p>No noise sample on this CPU.</p>\n", f);
		return;
	}
	/* drop the empty buckets below the first sample: nothing to show */
	while (n > 1 && !raw[0].count) {
		raw++;
		n--;
	}
	n = svg_merge_bins(raw, n, OSN_REPORT_BARS, merged);
	hist_chart(f, c, merged, n, marks, names, 4);
	fprintf(f, "<table class=\"num pct\"><tr><th>samples</th><th>p50 us</th><th>p99 us</th><th>p99.9 us</th><th>max us</th></tr><tr>");
	td_u64(f, count);
	for (int m = 0; m < 4; m++)
		td_us(f, marks[m]);
	fputs("</tr></table>\n", f);
	fprintf(f, "<details><summary>the %zu bars</summary>\n<table class=\"num hist\">\n<tr><th>from us</th><th>to us</th><th>count</th></tr>\n",
		n);
	for (size_t i = 0; i < n; i++) {
		num(merged[i].lo / 1000, lo, sizeof(lo));
		num(merged[i].hi / 1000, hi, sizeof(hi));
		fputs("<tr>", f);
		td_str(f, lo);
		td_str(f, hi);
		td_u64(f, merged[i].count);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</details>\n", f);
}

/* One stacked horizontal bar per CPU: @seg(c, i, &cls, &name) gives segments. */
struct stack {
	const char *title, *label;
	size_t (*nseg)(const struct osn_report_cpu *c);
	uint64_t (*seg)(const struct osn_report_cpu *c, size_t i,
			const char **cls, const char **name);
};

static size_t class_nseg(const struct osn_report_cpu *c)
{
	(void)c;
	return OSN_CLASS_NR;
}

static const char *const class_css[OSN_CLASS_NR] = {
	[OSN_CLASS_HW] = "seg c-hw", [OSN_CLASS_NMI] = "seg c-nmi",
	[OSN_CLASS_IRQ] = "seg c-irq", [OSN_CLASS_SOFTIRQ] = "seg c-softirq",
	[OSN_CLASS_THREAD] = "seg c-thread",
};

static uint64_t class_seg(const struct osn_report_cpu *c, size_t i,
			  const char **cls, const char **name)
{
	*cls = class_css[i];
	*name = osn_class_titles[i];
	return c->st.time[i];
}

/* The sources the page names: the top OSN_REPORT_SOURCES by time. */
static size_t source_shown(const struct osn_report_cpu *c)
{
	return c->nsrc < OSN_REPORT_SOURCES ? c->nsrc : OSN_REPORT_SOURCES;
}

/* "other": the sources not named, and those past the kept ones. */
static void source_rest(const struct osn_report_cpu *c, uint64_t *count,
			uint64_t *time)
{
	*count = c->other_count;
	*time = c->other_time;
	for (size_t k = source_shown(c); k < c->nsrc; k++) {
		*count += c->src[k].count;
		*time += c->src[k].time;
	}
}

static size_t source_nseg(const struct osn_report_cpu *c)
{
	return source_shown(c) + 1;
}

static uint64_t source_seg(const struct osn_report_cpu *c, size_t i,
			   const char **cls, const char **name)
{
	if (i == source_shown(c)) {
		uint64_t count, time;

		source_rest(c, &count, &time);
		*cls = "seg c-other";
		*name = "other";
		return time;
	}
	*cls = class_css[c->src[i].cls];
	*name = c->src[i].name;
	return c->src[i].time;
}

static void stack_chart(FILE *f, const struct osn_report *r,
			const struct stack *s)
{
	double rowh = 22, h = MT + MB + rowh * r->ncpus, xt[NTICKS], top;
	uint64_t maxt = 0;
	struct svg_scale x;
	size_t nx;
	char b[96], v[32];

	for (size_t i = 0; i < r->ncpus; i++) {
		uint64_t sum = 0;
		const char *cls, *name;

		for (size_t k = 0; k < s->nseg(&r->cpus[i]); k++)
			sum += s->seg(&r->cpus[i], k, &cls, &name);
		if (sum > maxt)
			maxt = sum;
	}
	nx = svg_nice_ticks(0, maxt ? maxt / 1000.0 : 1, 6, xt, NTICKS, &top);
	svg_scale_linear(&x, 0, top, ML, W - MR);
	svg_open(f, W, h, s->label, s->title);
	svg_grid_x(f, &x, xt, nx, MT, h - MB);
	svg_text(f, W - MR, h - 4, "end", NULL, "us stolen");
	for (size_t i = 0; i < r->ncpus; i++) {
		const struct osn_report_cpu *c = &r->cpus[i];
		double y = MT + i * rowh + 3, at = 0;

		snprintf(b, sizeof(b), "CPU %d", c->cpu);
		svg_text(f, ML - 4, y + 13, "end", NULL, b);
		for (size_t k = 0; k < s->nseg(c); k++) {
			const char *cls, *name;
			uint64_t t = s->seg(c, k, &cls, &name);
			double x0 = svg_scale_map(&x, at / 1000.0);

			at += t;
			if (!t)
				continue;
			us(t, v, sizeof(v));
			snprintf(b, sizeof(b), "CPU %d %s: %s us", c->cpu, name, v);
			svg_rect(f, x0, y, svg_scale_map(&x, at / 1000.0) - x0,
				 rowh - 6, cls, b);
		}
	}
	svg_line(f, ML, MT, ML, h - MB, "axis");
	svg_close(f);
}

static void class_table(FILE *f, const struct osn_report *r)
{
	fputs("<table class=\"num class\">\n<tr><th>CPU</th><th>periods</th><th>noise us</th><th>max single us</th><th>samples</th>",
	      f);
	for (int k = 0; k < OSN_CLASS_NR; k++)
		fprintf(f, "<th>%s count</th><th>%s us</th>",
			osn_class_titles[k], osn_class_titles[k]);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < r->ncpus; i++) {
		const struct osn_cpu_stats *st = &r->cpus[i].st;

		fprintf(f, "<tr><td>%d</td>", r->cpus[i].cpu);
		td_u64(f, st->periods);
		td_us(f, st->noise);
		td_us(f, st->max_single);
		td_u64(f, st->samples);
		for (int k = 0; k < OSN_CLASS_NR; k++) {
			td_u64(f, st->count[k]);
			td_us(f, st->time[k]);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void source_table(FILE *f, const struct osn_report *r)
{
	fputs("<table class=\"num source\">\n<tr><th>CPU</th><th>class</th><th>source</th><th>count</th><th>us</th></tr>\n",
	      f);
	for (size_t i = 0; i < r->ncpus; i++) {
		const struct osn_report_cpu *c = &r->cpus[i];
		size_t shown = source_shown(c);
		uint64_t count, time;

		source_rest(c, &count, &time);
		for (size_t k = 0; k <= shown; k++) {
			bool other = k == shown;

			if (other && !count)
				continue;
			fprintf(f, "<tr><td>%d</td>", c->cpu);
			td_str(f, other ? "" : osn_class_names[c->src[k].cls]);
			td_str(f, other ? "other" : c->src[k].name);
			td_u64(f, other ? count : c->src[k].count);
			td_us(f, other ? time : c->src[k].time);
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

static void legend(FILE *f)
{
	fputs("<p>", f);
	for (int k = 0; k < OSN_CLASS_NR; k++)
		fprintf(f, "<svg width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" class=\"%s\"/></svg> %s &nbsp;",
			class_css[k] + 4, osn_class_titles[k]);
	fputs("</p>\n", f);
}

int osn_report_write(FILE *f, const struct osn_report *r,
		     const struct osn_report_info *info,
		     const struct osn_report_meta *meta)
{
	static const struct stack by_class = {
		"time stolen by class", "chart class", class_nseg, class_seg,
	};
	static const struct stack by_source = {
		"time stolen by source", "chart source", source_nseg, source_seg,
	};
	bool sources = false, heat = r->ncpus > OSN_REPORT_HEAT_CPUS;

	write_header(f, r, info, meta);
	osn_report_verdict(f, r, info);
	stop_section(f, info);
	if (heat) {
		fputs("<section id=\"heat\">\n<h2>Noise over time, every CPU</h2>\n", f);
		if (osn_report_heatmap(f, r))
			return -1;
		fputs("</section>\n", f);
	}
	for (size_t i = 0; i < r->ncpus; i++) {
		const struct osn_report_cpu *c = &r->cpus[i];

		fprintf(f, "<section class=\"cpu\" id=\"cpu-%d\">\n<h2>CPU %d</h2>\n<h3>Noise over time</h3>\n",
			c->cpu, c->cpu);
		if (!heat)
			time_chart(f, r, c);
		time_table(f, r, c);
		hist_section(f, c);
		fputs("</section>\n", f);
		sources |= c->nsrc > 0;
	}
	fputs("<section id=\"stolen\">\n<h2>Time stolen by class</h2>\n", f);
	legend(f);
	stack_chart(f, r, &by_class);
	class_table(f, r);
	if (sources) {
		fputs("<h2>Time stolen by source</h2>\n<p>From the noise events of the run (osn records them when a stop condition is armed, or with --causes): the 12 of each CPU that stole the most.</p>\n",
		      f);
		stack_chart(f, r, &by_source);
		source_table(f, r);
	}
	fputs("</section>\n", f);
	if (info->causes)
		osn_report_culprits(f, r, info->causes);
	fputs("</body>\n</html>\n", f);
	fflush(f);
	return ferror(f) ? osn_err("cannot write the report") : 0;
}
