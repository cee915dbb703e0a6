// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - scales, ticks, bucket merging, escaping and SVG elements of the
 * HTML report (see svg.h).
 */
#include <math.h>
#include <string.h>

#include "svg.h"

void svg_scale_linear(struct svg_scale *s, double d0, double d1, double r0,
		      double r1)
{
	s->d0 = d0;
	s->d1 = d1 > d0 ? d1 : d0 + 1;	/* an empty domain maps to r0 */
	s->r0 = r0;
	s->r1 = r1;
	s->log = false;
}

void svg_scale_log(struct svg_scale *s, double d0, double d1, double r0,
		   double r1)
{
	if (!(d0 > 0 && d1 > d0)) {
		svg_scale_linear(s, d0, d1, r0, r1);
		return;
	}
	s->d0 = log10(d0);
	s->d1 = log10(d1);
	s->r0 = r0;
	s->r1 = r1;
	s->log = true;
}

double svg_scale_map(const struct svg_scale *s, double v)
{
	double t;

	if (s->log)
		v = v > 0 ? log10(v) : s->d0;
	t = (v - s->d0) / (s->d1 - s->d0);
	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	return s->r0 + t * (s->r1 - s->r0);
}

double svg_nice_step(double span, unsigned want)
{
	double raw, p, f;

	if (!(span > 0) || !want)
		return 1;
	raw = span / want;
	p = pow(10, floor(log10(raw)));
	f = raw / p;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

size_t svg_nice_ticks(double lo, double hi, unsigned want, double *out,
		      size_t max, double *top)
{
	double step = svg_nice_step(hi - lo, want);
	double v = ceil(lo / step - 1e-9) * step;
	size_t n = 0;

	if (top)
		*top = hi > lo ? ceil(hi / step - 1e-9) * step : lo + step;
	for (; v <= hi + step * 1e-9 && n < max; v += step)
		out[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

size_t svg_log_ticks(uint64_t max_count, double *out, size_t max, double *top)
{
	double v = 1;
	size_t n = 0;

	while (n < max) {
		out[n++] = v;
		if (v >= (double)max_count && v >= 10)
			break;
		v *= 10;
	}
	*top = out[n - 1];
	return n;
}

size_t svg_log_value_ticks(double lo, double hi, double *out, size_t max)
{
	static const double mult[] = { 1, 2, 5 };
	size_t n = 0, powers = 0;
	double p;

	if (!(lo > 0 && hi >= lo))
		return 0;
	for (p = pow(10, floor(log10(lo))); p <= hi * (1 + 1e-9); p *= 10)
		powers += p >= lo * (1 - 1e-9);
	for (p = pow(10, floor(log10(lo))); p <= hi * (1 + 1e-9); p *= 10)
		for (size_t m = 0; m < (powers < 3 ? 3 : 1); m++) {
			double v = p * mult[m];

			if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9) && n < max)
				out[n++] = v;
		}
	return n;
}

int svg_place_labels(struct svg_label *l, size_t n, double left, double right,
		     double cw)
{
	int rows = 0;

	for (size_t i = 0; i < n; i++) {
		double w = (double)strlen(l[i].text) * cw, x0, x1;
		bool clash;

		if (l[i].x + 3 + w <= right || l[i].x - 3 - w < left) {
			l[i].anchor = "start";
			l[i].at = l[i].x + 3;
			x0 = l[i].at;
			x1 = x0 + w;
		} else {
			l[i].anchor = "end";
			l[i].at = l[i].x - 3;
			x1 = l[i].at;
			x0 = x1 - w;
		}
		for (l[i].row = 0;; l[i].row++) {
			clash = false;
			for (size_t k = 0; k < i && !clash; k++) {
				double w2 = (double)strlen(l[k].text) * cw;
				double k0 = *l[k].anchor == 's' ? l[k].at : l[k].at - w2;

				clash = l[k].row == l[i].row && x0 < k0 + w2 + cw &&
					k0 < x1 + cw;
			}
			if (!clash)
				break;
		}
		if (l[i].row + 1 > rows)
			rows = l[i].row + 1;
	}
	return rows;
}

size_t svg_merge_bins(const struct svg_bin *in, size_t n, size_t max,
		      struct svg_bin *out)
{
	size_t per, k = 0;

	if (!n || !max)
		return 0;
	per = (n + max - 1) / max;
	for (size_t i = 0; i < n; i += per, k++) {
		size_t end = i + per < n ? i + per : n;

		out[k].lo = in[i].lo;
		out[k].hi = in[end - 1].hi;
		out[k].count = 0;
		for (size_t j = i; j < end; j++)
			out[k].count += in[j].count;
	}
	return k;
}

double svg_bins_percentile(const struct svg_bin *b, size_t n,
			   unsigned permille)
{
	uint64_t total = 0, rank, seen = 0;

	for (size_t i = 0; i < n; i++)
		total += b[i].count;
	if (!total)
		return 0;
	rank = (total * permille + 999) / 1000;
	if (!rank)
		rank = 1;
	for (size_t i = 0; i < n; i++) {
		seen += b[i].count;
		if (seen >= rank)
			return b[i].hi;
	}
	return b[n - 1].hi;
}

/* Length of the valid UTF-8 sequence at @s, or 0 (overlong, surrogate, ...). */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

void svg_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s)
		return;
	while (*p) {
		size_t n = utf8_len(p);

		switch (n ? *p : 0) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if (!n || (*p < 0x20 && *p != '\t' && *p != '\n') ||
			    *p == 0x7f) {
				fputs("\xef\xbf\xbd", f);	/* U+FFFD */
				n = 1;
			} else {
				fwrite(p, 1, n, f);
			}
		}
		p += n ? n : 1;
	}
}

void svg_fmt_num(double v, char *buf, size_t len)
{
	if (fabs(v) >= 1e9)
		snprintf(buf, len, "%.3g", v);
	else if (fabs(v) >= 1000 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

void svg_open(FILE *f, double w, double h, const char *cls, const char *label)
{
	fprintf(f, "<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\"",
		w, h, w, h);
	if (cls) {
		fputs(" class=\"", f);
		svg_escape(f, cls);
		fputc('"', f);
	}
	if (label) {
		fputs(" aria-label=\"", f);
		svg_escape(f, label);
		fputc('"', f);
	}
	fputs(">\n", f);
}

void svg_close(FILE *f)
{
	fputs("</svg>\n", f);
}

static void cls_attr(FILE *f, const char *cls)
{
	if (!cls)
		return;
	fputs(" class=\"", f);
	svg_escape(f, cls);
	fputc('"', f);
}

void svg_rect(FILE *f, double x, double y, double w, double h,
	      const char *cls, const char *title)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"",
		x, y, w, h);
	cls_attr(f, cls);
	if (!title) {
		fputs("/>\n", f);
		return;
	}
	fputs("><title>", f);
	svg_escape(f, title);
	fputs("</title></rect>\n", f);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2,
	      const char *cls)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"",
		x1, y1, x2, y2);
	cls_attr(f, cls);
	fputs("/>\n", f);
}

void svg_text(FILE *f, double x, double y, const char *anchor,
	      const char *cls, const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y,
		anchor);
	cls_attr(f, cls);
	fputc('>', f);
	svg_escape(f, text);
	fputs("</text>\n", f);
}

void svg_grid_y(FILE *f, const struct svg_scale *y, const double *ticks,
		size_t n, double x0, double x1)
{
	char b[32];

	for (size_t i = 0; i < n; i++) {
		double py = svg_scale_map(y, ticks[i]);

		svg_line(f, x0, py, x1, py, "grid");
		svg_fmt_num(ticks[i], b, sizeof(b));
		svg_text(f, x0 - 4, py + 4, "end", NULL, b);
	}
}

void svg_grid_x(FILE *f, const struct svg_scale *x, const double *ticks,
		size_t n, double y0, double y1)
{
	char b[32];

	for (size_t i = 0; i < n; i++) {
		double px = svg_scale_map(x, ticks[i]);

		svg_line(f, px, y0, px, y1, "grid");
		svg_fmt_num(ticks[i], b, sizeof(b));
		svg_text(f, px, y1 + 14, "middle", NULL, b);
	}
}

void svg_polyline(FILE *f, const double *x, const double *y, size_t n,
		  const char *cls)
{
	fputs("<polyline points=\"", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", x[i], y[i]);
	fputc('"', f);
	cls_attr(f, cls);
	fputs("/>\n", f);
}
