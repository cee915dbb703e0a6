// SPDX-License-Identifier: GPL-2.0
/* the HTML report's layout arithmetic and escaping (svg.c) */
#include <math.h>

#include "harness.h"
#include "svg.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6)

TEST(linear_scale)
{
	struct svg_scale s;

	svg_scale_linear(&s, 0, 100, 10, 210);
	CHECK(NEAR(svg_scale_map(&s, 0), 10));
	CHECK(NEAR(svg_scale_map(&s, 50), 110));
	CHECK(NEAR(svg_scale_map(&s, 100), 210));
	CHECK(NEAR(svg_scale_map(&s, 1000), 210));	/* clamped */
	CHECK(NEAR(svg_scale_map(&s, -5), 10));
	/* inverted range (a y axis) */
	svg_scale_linear(&s, 0, 10, 200, 0);
	CHECK(NEAR(svg_scale_map(&s, 2.5), 150));
	/* empty domain: no division by zero */
	svg_scale_linear(&s, 3, 3, 0, 100);
	CHECK(NEAR(svg_scale_map(&s, 3), 0));
}

TEST(log_scale)
{
	struct svg_scale s;

	svg_scale_log(&s, 1, 1000, 0, 300);
	CHECK(s.log);
	CHECK(NEAR(svg_scale_map(&s, 1), 0));
	CHECK(NEAR(svg_scale_map(&s, 10), 100));
	CHECK(NEAR(svg_scale_map(&s, 100), 200));
	CHECK(NEAR(svg_scale_map(&s, 1000), 300));
	CHECK(NEAR(svg_scale_map(&s, 0), 0));		/* log of 0: the bottom */
	/* a bad log domain falls back to linear */
	svg_scale_log(&s, 0, 10, 0, 100);
	CHECK(!s.log);
	CHECK(NEAR(svg_scale_map(&s, 5), 50));
}

TEST(nice_steps)
{
	CHECK(NEAR(svg_nice_step(100, 5), 20));
	CHECK(NEAR(svg_nice_step(100, 10), 10));
	CHECK(NEAR(svg_nice_step(7, 5), 2));
	CHECK(NEAR(svg_nice_step(0.37, 4), 0.1));
	CHECK(NEAR(svg_nice_step(3600, 8), 500));
	CHECK(NEAR(svg_nice_step(0, 5), 1));
}

TEST(nice_ticks)
{
	double t[16], top;
	size_t n;

	n = svg_nice_ticks(0, 93, 5, t, 16, &top);
	CHECK_EQ(n, 5);			/* 0 20 40 60 80 */
	CHECK(NEAR(t[0], 0) && NEAR(t[4], 80));
	CHECK(NEAR(top, 100));		/* the axis ends on a tick */
	n = svg_nice_ticks(0, 100, 5, t, 16, &top);
	CHECK_EQ(n, 6);
	CHECK(NEAR(top, 100));
	n = svg_nice_ticks(0.3, 1.2, 4, t, 16, &top);
	CHECK(NEAR(t[0], 0.5) && NEAR(t[n - 1], 1));	/* step 0.5 */
	CHECK_EQ(n, 2);
	CHECK(NEAR(top, 1.5));
	/* bounded by max */
	n = svg_nice_ticks(0, 1e6, 1000, t, 16, &top);
	CHECK_EQ(n, 16);
}

TEST(log_count_axis)
{
	double t[16], top;
	size_t n;

	n = svg_log_ticks(1234, t, 16, &top);
	CHECK_EQ(n, 5);			/* 1 10 100 1000 10000 */
	CHECK(NEAR(t[0], 1) && NEAR(t[4], 10000) && NEAR(top, 10000));
	n = svg_log_ticks(1000, t, 16, &top);
	CHECK_EQ(n, 4);
	CHECK(NEAR(top, 1000));
	n = svg_log_ticks(1, t, 16, &top);	/* at least a decade */
	CHECK_EQ(n, 2);
	CHECK(NEAR(top, 10));
	n = svg_log_ticks(0, t, 16, &top);
	CHECK_EQ(n, 2);
}

/* Log axis ticks: round values only, 2 and 5 times when few powers fit. */
TEST(log_value_ticks)
{
	double t[16];

	CHECK_EQ(svg_log_value_ticks(0.512, 2.048, t, 16), 2);
	CHECK(t[0] == 1 && t[1] == 2);
	CHECK_EQ(svg_log_value_ticks(1, 10000, t, 16), 5);
	CHECK(t[0] == 1 && t[4] == 10000);
	/* two powers in: 5 10 20 50 100 200 500 */
	CHECK_EQ(svg_log_value_ticks(3, 700, t, 16), 7);
	CHECK(t[0] == 5 && t[6] == 500);
	CHECK_EQ(svg_log_value_ticks(0, 10, t, 16), 0);
}

/* Mark labels never overlap on a row, and stay inside the chart. */
TEST(place_labels)
{
	struct svg_label l[4] = {
		{ .x = 100, .text = "p50" }, { .x = 745, .text = "p99" },
		{ .x = 748, .text = "p99.9" }, { .x = 748, .text = "max" },
	};
	double cw = 6.5;
	int rows = svg_place_labels(l, 4, 64, 750, cw);

	CHECK_EQ(rows, 3);
	CHECK_EQ(l[0].row, 0);
	CHECK_STR(l[0].anchor, "start");
	/* at the right edge: left of the mark, each on its own row */
	CHECK_STR(l[1].anchor, "end");
	CHECK(l[1].row != l[2].row && l[2].row != l[3].row && l[1].row != l[3].row);
	for (int i = 0; i < 4; i++) {
		double w = strlen(l[i].text) * cw;
		double x0 = *l[i].anchor == 's' ? l[i].at : l[i].at - w;

		CHECK(x0 >= 64 && x0 + w <= 750);
		for (int k = 0; k < i; k++) {
			double w2 = strlen(l[k].text) * cw;
			double k0 = *l[k].anchor == 's' ? l[k].at : l[k].at - w2;

			CHECK(l[k].row != l[i].row || x0 >= k0 + w2 || k0 >= x0 + w);
		}
	}
}

TEST(merge_bins)
{
	struct svg_bin in[1000], out[64];
	uint64_t sum = 0, osum = 0;
	size_t n;

	for (int i = 0; i < 1000; i++) {
		in[i].lo = i;
		in[i].hi = i + 1;
		in[i].count = i % 7;
		sum += in[i].count;
	}
	n = svg_merge_bins(in, 1000, 64, out);
	CHECK_EQ(n, 63);		/* 16 buckets each: ceil(1000 / 64) */
	CHECK(n <= 64);
	for (size_t i = 0; i < n; i++)
		osum += out[i].count;
	CHECK_EQ(osum, sum);		/* nothing lost */
	CHECK(NEAR(out[0].lo, 0) && NEAR(out[0].hi, 16));
	CHECK(NEAR(out[n - 1].lo, 992) && NEAR(out[n - 1].hi, 1000));
	/* fewer than max: copied as is */
	n = svg_merge_bins(in, 10, 64, out);
	CHECK_EQ(n, 10);
	CHECK_EQ(out[3].count, 3);
	/* exactly max */
	n = svg_merge_bins(in, 64, 64, out);
	CHECK_EQ(n, 64);
	CHECK_EQ(svg_merge_bins(in, 0, 64, out), 0);
	/* a million buckets into 64 */
	{
		static struct svg_bin big[1000000];

		for (int i = 0; i < 1000000; i++) {
			big[i].lo = i;
			big[i].hi = i + 1;
			big[i].count = 1;
		}
		n = svg_merge_bins(big, 1000000, 64, out);
		CHECK(n <= 64);
		osum = 0;
		for (size_t i = 0; i < n; i++)
			osum += out[i].count;
		CHECK_EQ(osum, 1000000);
	}
}

TEST(percentiles)
{
	struct svg_bin b[4] = {
		{ 0, 10, 50 }, { 10, 20, 40 }, { 20, 30, 9 }, { 30, 40, 1 },
	};

	CHECK(NEAR(svg_bins_percentile(b, 4, 500), 10));
	CHECK(NEAR(svg_bins_percentile(b, 4, 900), 20));
	CHECK(NEAR(svg_bins_percentile(b, 4, 990), 30));
	CHECK(NEAR(svg_bins_percentile(b, 4, 999), 40));
	b[0].count = b[1].count = b[2].count = b[3].count = 0;
	CHECK(NEAR(svg_bins_percentile(b, 4, 500), 0));
}

static char *esc(const char *s)
{
	struct h_buf b;

	svg_escape(h_open(&b), s);
	return h_close(&b);
}

TEST(escaping)
{
	char *s;

	s = esc("<script>alert(\"x\" & 'y')</script>");
	CHECK_STR(s, "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;");
	free(s);
	/* UTF-8 stays: a task name in Japanese, an IRQ name with an umlaut */
	s = esc("\xe3\x82\xbf\xe3\x82\xb9\xe3\x82\xaf/1 m\xc3\xbc" "de");
	CHECK_STR(s, "\xe3\x82\xbf\xe3\x82\xb9\xe3\x82\xaf/1 m\xc3\xbc" "de");
	free(s);
	/* a 4-byte sequence */
	s = esc("\xf0\x9f\x90\xa7");
	CHECK_STR(s, "\xf0\x9f\x90\xa7");
	free(s);
	/* invalid bytes, a truncated sequence, an overlong '<', controls */
	s = esc("a\xff" "b\xc3" "c\xc0\xbc" "d\x01" "e\x1b[31m");
	CHECK_STR(s, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd\xef\xbf\xbd"
		  "d\xef\xbf\xbd" "e\xef\xbf\xbd[31m");
	free(s);
	/* a surrogate encoded in UTF-8 is not valid */
	s = esc("\xed\xa0\x80");
	CHECK(!strstr(s, "\xed\xa0\x80"));
	free(s);
	s = esc(NULL);
	CHECK_STR(s, "");
	free(s);
}

TEST(elements)
{
	struct h_buf b;
	double x[3] = { 1, 2, 3 }, y[3] = { 4, 5, 6 };
	char *s;
	FILE *f = h_open(&b);

	svg_open(f, 100, 50, "chart", "a \"label\"");
	svg_rect(f, 1, 2, 3, 4, "bar", "<b>");
	svg_text(f, 5, 6, "end", NULL, "kworker/0:1 & <x>");
	svg_polyline(f, x, y, 3, "noise");
	svg_close(f);
	s = h_close(&b);
	CHECK_HAS(s, "aria-label=\"a &quot;label&quot;\"");
	CHECK_HAS(s, "<title>&lt;b&gt;</title>");
	CHECK_HAS(s, ">kworker/0:1 &amp; &lt;x&gt;</text>");
	CHECK_HAS(s, "points=\"1.0,4.0 2.0,5.0 3.0,6.0\"");
	CHECK(!strstr(s, "http"));
	free(s);
}

TEST(numbers)
{
	char b[32];

	svg_fmt_num(0, b, sizeof(b));
	CHECK_STR(b, "0");
	svg_fmt_num(12.5, b, sizeof(b));
	CHECK_STR(b, "12.5");
	svg_fmt_num(0.001234, b, sizeof(b));
	CHECK_STR(b, "0.001234");
	svg_fmt_num(3600, b, sizeof(b));
	CHECK_STR(b, "3600");
	svg_fmt_num(1234.56, b, sizeof(b));
	CHECK_STR(b, "1235");
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(linear_scale);
	RUN(log_scale);
	RUN(nice_steps);
	RUN(nice_ticks);
	RUN(log_count_axis);
	RUN(log_value_ticks);
	RUN(place_labels);
	RUN(merge_bins);
	RUN(percentiles);
	RUN(escaping);
	RUN(elements);
	RUN(numbers);
	return h_done(argv[0]);
}
