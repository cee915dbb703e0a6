// SPDX-License-Identifier: GPL-2.0
/*
 * report_heat.c - the --report page's heat map, for runs on many CPUs:
 * one row per measured CPU, one column per slice of time, each cell
 * shaded by the worst noise per period the CPU had in that slice.  Past
 * OSN_REPORT_HEAT_CPUS CPUs it replaces the time chart of each CPU: 64 or
 * 256 charts one under the other are a page nobody reads, where one
 * picture shows which CPUs were noisy, and when (issue 35).
 */
#include <math.h>
#include <stdlib.h>

#include "report_int.h"

/* heat0: no noise; heat1-heat7: log steps from the least noise to the most */
#define HEAT_LEVELS	8
#define HEAT_COLS	120	/* slices of time at most */

const char osn_report_heat_css[] =
".heat0{fill:#f4f4f4}.heat1{fill:#fee8c8}.heat2{fill:#fdd49e}.heat3{fill:#fdbb84}\n"
".heat4{fill:#fc8d59}.heat5{fill:#ef6548}.heat6{fill:#d7301f}.heat7{fill:#990000}\n";

struct heat {
	size_t ncols;
	double col_s;			/* seconds per column */
	uint64_t lo, hi;		/* least and most non-zero cell, ns */
	uint64_t *cell;			/* [cpu row][col]: worst noise, ns */
};

/* The run's length in seconds, as its longest CPU saw it. */
static double span_s(const struct osn_report *r)
{
	double period_s = r->period_us / 1e6, s = 0;

	for (size_t i = 0; i < r->ncpus; i++) {
		const struct osn_report_cpu *c = &r->cpus[i];
		double t = (double)c->npts * c->per_point * period_s;

		if (t > s)
			s = t;
	}
	return s;
}

static int heat_build(struct heat *h, const struct osn_report *r)
{
	double period_s = r->period_us / 1e6, span = span_s(r);
	size_t maxpts = 0;

	for (size_t i = 0; i < r->ncpus; i++)
		if (r->cpus[i].npts > maxpts)
			maxpts = r->cpus[i].npts;
	h->ncols = maxpts < HEAT_COLS ? maxpts : HEAT_COLS;
	if (!h->ncols)
		h->ncols = 1;
	h->col_s = span > 0 ? span / h->ncols : 1;
	h->cell = calloc(r->ncpus * h->ncols, sizeof(*h->cell));
	if (!h->cell)
		return osn_err("out of memory");
	h->lo = UINT64_MAX;
	h->hi = 0;
	for (size_t i = 0; i < r->ncpus; i++) {
		const struct osn_report_cpu *c = &r->cpus[i];

		for (size_t p = 0; p < c->npts; p++) {
			double t = (double)p * c->per_point * period_s;
			size_t col = (size_t)(t / h->col_s);
			uint64_t *v = &h->cell[i * h->ncols +
					       (col < h->ncols ? col : h->ncols - 1)];

			if (c->pts[p].noise > *v)
				*v = c->pts[p].noise;
		}
		for (size_t k = 0; k < h->ncols; k++) {
			uint64_t v = h->cell[i * h->ncols + k];

			if (v && v < h->lo)
				h->lo = v;
			if (v > h->hi)
				h->hi = v;
		}
	}
	return 0;
}

/* The shade of @v: 0 for no noise, else 1..7 on a log scale of lo..hi. */
int osn_report_heat_level(uint64_t v, uint64_t lo, uint64_t hi)
{
	double f;
	int l;

	if (!v)
		return 0;
	if (hi <= lo || v >= hi)
		return HEAT_LEVELS - 1;
	if (v <= lo)
		return 1;
	f = log((double)v / lo) / log((double)hi / lo);
	l = 1 + (int)(f * (HEAT_LEVELS - 1));
	return l < HEAT_LEVELS - 1 ? l : HEAT_LEVELS - 1;
}

/* The value where level @l begins, ns (the inverse of the scale). */
static uint64_t level_from(int l, uint64_t lo, uint64_t hi)
{
	if (l <= 1 || hi <= lo)
		return lo;
	return (uint64_t)(lo * pow((double)hi / lo,
				   (double)(l - 1) / (HEAT_LEVELS - 1)));
}

static void heat_legend(FILE *f, const struct heat *h, double y)
{
	double x = ML;
	char b[32], t[48];

	for (int l = 0; l < HEAT_LEVELS; l++, x += 86) {
		snprintf(t, sizeof(t), "heat%d", l);
		svg_rect(f, x, y - 9, 12, 10, t, NULL);
		if (l) {
			num(level_from(l, h->lo, h->hi) / 1000.0, b, sizeof(b));
			snprintf(t, sizeof(t), ">= %s us", b);
			svg_text(f, x + 16, y, "start", NULL, t);
		} else {
			svg_text(f, x + 16, y, "start", NULL, "none");
		}
	}
}

static void heat_rows(FILE *f, const struct osn_report *r,
		      const struct heat *h, double rh, double cw)
{
	/* a label every few rows, at least 10 px apart */
	size_t every = rh >= 10 ? 1 : (size_t)ceil(10 / rh);
	char b[96], v[32], from[32], cls[16];

	for (size_t i = 0; i < r->ncpus; i++) {
		const struct osn_report_cpu *c = &r->cpus[i];
		double y = MT + i * rh;

		snprintf(b, sizeof(b), "CPU %d", c->cpu);
		svg_rect(f, ML, y, W - ML - MR, rh, "heat0", b);
		if (i % every == 0) {
			snprintf(b, sizeof(b), "%d", c->cpu);
			svg_text(f, ML - 4, y + rh / 2 + 4, "end", NULL, b);
		}
		for (size_t k = 0; k < h->ncols; k++) {
			uint64_t n = h->cell[i * h->ncols + k];

			if (!n)
				continue;
			snprintf(cls, sizeof(cls), "heat%d",
				 osn_report_heat_level(n, h->lo, h->hi));
			us(n, v, sizeof(v));
			num(k * h->col_s, from, sizeof(from));
			snprintf(b, sizeof(b), "CPU %d from %s s: %s us", c->cpu,
				 from, v);
			svg_rect(f, ML + k * cw, y, cw, rh, cls, b);
		}
		if (c->stopped) {
			double sx = ML + (c->stop_period * r->period_us / 1e6) /
				    h->col_s * cw;

			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" class=\"stop\"><title>CPU %d: stop condition hit</title></circle>\n",
				sx, y + rh / 2, c->cpu);
		}
	}
}

int osn_report_heatmap(FILE *f, const struct osn_report *r)
{
	double rh, cw, height, xt[NTICKS], top;
	struct svg_scale x;
	struct heat h = { 0 };
	size_t nx;
	char b[32];

	if (heat_build(&h, r))
		return -1;
	rh = 480.0 / r->ncpus;
	rh = rh > 14 ? 14 : rh < 2 ? 2 : rh;
	height = MT + r->ncpus * rh + MB + 22;
	cw = (W - ML - MR) / h.ncols;
	fputs("<p>One row per CPU, one column per slice of time: the worst noise per period of that CPU in that slice (hover for its value). The chart of each CPU follows in its section, as a table.</p>\n",
	      f);
	svg_open(f, W, height, "chart heat", "noise over time, every CPU");
	heat_rows(f, r, &h, rh, cw);
	nx = svg_nice_ticks(0, h.ncols * h.col_s, 8, xt, NTICKS, &top);
	svg_scale_linear(&x, 0, h.ncols * h.col_s, ML, W - MR);
	for (size_t i = 0; i < nx; i++) {
		if (xt[i] > h.ncols * h.col_s)
			break;
		num(xt[i], b, sizeof(b));
		svg_text(f, svg_scale_map(&x, xt[i]), MT + r->ncpus * rh + 14,
			 "middle", NULL, b);
	}
	svg_text(f, W - MR, MT + r->ncpus * rh + 28, "end", NULL,
		 "s since collection began");
	svg_text(f, ML - 4, MT - 12, "end", NULL, "CPU");
	if (h.hi)
		heat_legend(f, &h, height - 4);
	svg_close(f);
	free(h.cell);
	return 0;
}
