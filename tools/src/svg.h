/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg.h - the layout arithmetic and the few SVG elements of the HTML
 * report (pure): linear and log scales, "nice" ticks, a log count axis,
 * merging thousands of histogram buckets into a few bars, and escaping
 * of every string that comes from the system.
 *
 * Hand-written rather than cairo's SVG surface: cairo draws text as glyph
 * outlines (no searchable, escapable <text>), needs a font on the machine
 * that writes the report, and its output cannot be counted element by
 * element in a test; what a report needs is ~300 lines of arithmetic.
 */
#ifndef OSN_SVG_H
#define OSN_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Domain [d0, d1] onto range [r0, r1]; log: log10 of the domain. */
struct svg_scale {
	double d0, d1, r0, r1;
	bool log;
};

void svg_scale_linear(struct svg_scale *s, double d0, double d1, double r0,
		      double r1);
/* A log scale needs 0 < d0 < d1; anything else gives a linear one. */
void svg_scale_log(struct svg_scale *s, double d0, double d1, double r0,
		   double r1);
/* Values outside the domain are clamped into the range (log: v <= 0 -> r0). */
double svg_scale_map(const struct svg_scale *s, double v);

/* The 1, 2 or 5 times a power of ten that cuts @span into about @want steps. */
double svg_nice_step(double span, unsigned want);
/*
 * Ticks at multiples of svg_nice_step() from the first >= @lo up to the
 * last <= @hi; also sets *@top to the first multiple >= @hi (an axis that
 * ends on a tick).  Returns the count (at most @max).
 */
size_t svg_nice_ticks(double lo, double hi, unsigned want, double *out,
		      size_t max, double *top);
/*
 * A log count axis for counts up to @max_count: ticks at 1, 10, 100, ...
 * up to the first power of ten >= max_count (at least 10), which is
 * returned in *@top.  Returns the count of ticks.
 */
size_t svg_log_ticks(uint64_t max_count, double *out, size_t max,
		     double *top);

/*
 * Log axis ticks between @lo and @hi (> 0): the powers of ten, with 2 and
 * 5 times them when fewer than 3 powers fall in (round values only).
 * Returns the count (at most @max).
 */
size_t svg_log_value_ticks(double lo, double hi, double *out, size_t max);

/* A label of a mark at x, placed by svg_place_labels(). */
struct svg_label {
	double x;			/* the mark */
	const char *text;
	double at;			/* out: the text's x */
	const char *anchor;		/* out: "start" (right of x) or "end" */
	int row;			/* out: 0 nearest the chart, 1 above, ... */
};

/*
 * Place @n labels of marks between @left and @right, each right of its
 * mark or, where it would pass @right, left of it, on the first row where
 * it overlaps no label placed before (a character taken as @cw wide, and
 * a gap of @cw between labels).  Returns the rows used.
 */
int svg_place_labels(struct svg_label *l, size_t n, double left, double right,
		     double cw);

/* One histogram bar: [lo, hi) in any unit, with its count. */
struct svg_bin {
	double lo, hi;
	uint64_t count;
};

/*
 * Merge @n bins (ascending, contiguous or not) into at most @max, each
 * the sum of ceil(n / max) consecutive ones (lo of the first, hi of the
 * last).  @out may not overlap @in.  Returns the count written.
 */
size_t svg_merge_bins(const struct svg_bin *in, size_t n, size_t max,
		      struct svg_bin *out);
/* The hi of the bin holding the sample of rank ceil(permille/1000 * total). */
double svg_bins_percentile(const struct svg_bin *b, size_t n,
			   unsigned permille);

/*
 * Write @s as XML text or attribute content: & < > " ' as entities,
 * valid UTF-8 as is, control characters and bytes that are not valid
 * UTF-8 as U+FFFD.  NULL writes nothing.
 */
void svg_escape(FILE *f, const char *s);

/* %g-like, at most 4 significant digits, no exponent below 1e9 ("12.5"). */
void svg_fmt_num(double v, char *buf, size_t len);

/* Elements; @cls is the CSS class (may be NULL), @title a tooltip (NULL: none). */
void svg_open(FILE *f, double w, double h, const char *cls, const char *label);
void svg_close(FILE *f);
void svg_rect(FILE *f, double x, double y, double w, double h,
	      const char *cls, const char *title);
void svg_line(FILE *f, double x1, double y1, double x2, double y2,
	      const char *cls);
/* anchor: "start", "middle" or "end" */
void svg_text(FILE *f, double x, double y, const char *anchor,
	      const char *cls, const char *text);
/* Grid lines at @n ticks across [@x0, @x1], labelled left of @x0. */
void svg_grid_y(FILE *f, const struct svg_scale *y, const double *ticks,
		size_t n, double x0, double x1);
/* Grid lines at @n ticks down [@y0, @y1], labelled under @y1. */
void svg_grid_x(FILE *f, const struct svg_scale *x, const double *ticks,
		size_t n, double y0, double y1);
/* points as x0,y0 x1,y1 ... */
void svg_polyline(FILE *f, const double *x, const double *y, size_t n,
		  const char *cls);

#endif
