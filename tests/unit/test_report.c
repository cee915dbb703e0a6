// SPDX-License-Identifier: GPL-2.0
/*
 * the HTML report (report.c): page structure against the input.
 *
 * Also the report generator of tests/report/browser.sh (not a test then):
 *   test_report --write FILE           the fixture below (2 CPUs, top)
 *   test_report --write FILE --hist    the same with a histogram (osn hist)
 *   test_report --write FILE --big     8 CPUs x 3600 periods x 10^6 samples
 */
#include <math.h>

#include "harness.h"
#include "report.h"
#include "report_int.h"
#include "fixtures.h"

static struct osn_params params;
static const int cpus2[] = { 0, 2 };

static void info_for(struct osn_report_info *info, struct osn_report_meta *m)
{
	memset(&params, 0, sizeof(params));
	params.cmd = OSN_CMD_TOP;
	memset(info, 0, sizeof(*info));
	info->params = &params;
	info->elapsed_s = 10;
	info->cpus_str = "0,2";
	info->threshold_us = 1;
	m->host = "host<&>\"'";
	m->kernel = "6.1.0-test";
	m->version = "0.1.0";
	m->exit_reason = "-d reached";
}

static struct osn_event noise_ev(enum osn_ev_type t, int cpu, uint64_t dur,
				 int id, const char *name)
{
	return fx_noise(t, cpu, 1000, 500, dur, id, name);
}

/* @periods periods on CPU 0 and 2, irq noise, a few named sources */
static void feed(struct osn_report *r, unsigned periods)
{
	for (unsigned p = 0; p < periods; p++) {
		for (int i = 0; i < 2; i++) {
			struct osn_event e = fx_sample(cpus2[i], p, 1000000,
						       5000 + p * 10, 1000 + p,
						       100, 3);

			e.s.count[OSN_CLASS_IRQ] = 2;
			e.s.time[OSN_CLASS_IRQ] = 3000;
			e.s.count[OSN_CLASS_THREAD] = 1;
			e.s.time[OSN_CLASS_THREAD] = 2000 + i;
			osn_report_event(r, &e);
		}
	}
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/* the points="..." of the @k-th polyline */
static size_t polyline_points(const char *s, size_t k)
{
	const char *p = s;
	size_t n = 0;

	for (size_t i = 0; i <= k; i++) {
		p = strstr(p, "<polyline points=\"");
		if (!p)
			return 0;
		p += strlen("<polyline points=\"");
	}
	for (; *p && *p != '"'; p++)
		n += *p == ',';
	return n;
}

/* @v is 1, 2 or 5 times a power of ten */
static bool one_two_five(double v)
{
	double m = v / pow(10, floor(log10(v) + 1e-9));

	return fabs(m - 1) < 1e-6 || fabs(m - 2) < 1e-6 || fabs(m - 5) < 1e-6;
}

/*
 * The duration axis of a histogram chart has round labels: multiples of
 * a 1-2-5 step (osn hist), or each 1, 2 or 5 times a power of ten (osn
 * top's log axis).  True if every chart's are, with a label at least.
 */
static bool round_duration_ticks(const char *s)
{
	const char *p = s, *tag = "y=\"198.0\" text-anchor=\"middle\">";

	while ((p = strstr(p, "class=\"chart hist\""))) {
		const char *end = strstr(p, "</svg>"), *q = p;
		bool steps = true, log = true;
		double v[32];
		size_t n = 0;

		while ((q = strstr(q, tag)) && q < end && n < 32) {
			q += strlen(tag);
			v[n++] = strtod(q, NULL);
		}
		if (!n)
			return false;
		if (n == 1)
			v[1] = 2 * v[0];	/* one label: round by itself */
		for (size_t i = 0; i < n; i++) {
			double k = v[i] / (v[1] - v[0]);

			steps &= fabs(k - round(k)) < 1e-6;
			log &= v[i] > 0 && one_two_five(v[i]);
		}
		if (!(log || (steps && v[1] > v[0] && one_two_five(v[1] - v[0]))))
			return false;
		p = end;
	}
	return true;
}

static char *write_page(struct osn_report *r, bool stopped)
{
	struct osn_report_info info;
	struct osn_report_meta m;
	struct h_buf b;

	info_for(&info, &m);
	info.stopped = stopped;
	r->period_us = 1000000;
	r->runtime_us = 1000000;
	CHECK_EQ(osn_report_write(h_open(&b), r, &info, &m), 0);
	return h_close(&b);
}

TEST(page_top)
{
	struct osn_report r;
	struct osn_event e;
	char *s;

	CHECK_EQ(osn_report_init(&r, cpus2, 2, 4), 0);
	feed(&r, 10);
	e = noise_ev(OSN_E_THREAD, 2, 4100, 45, "<kworker>&\"'");
	osn_report_event(&r, &e);
	e = noise_ev(OSN_E_IRQ, 2, 1000, 236,
		     "\xe3\x82\xbf\xe3\x82\xa4\xe3\x83\x9e");	/* タイマ */
	osn_report_event(&r, &e);
	e = noise_ev(OSN_E_SOFTIRQ, 2, 700, 1, NULL);
	osn_report_event(&r, &e);
	e = fx_sample(3, 0, 1000000, 1, 1, 1, 1);	/* not measured */
	osn_report_event(&r, &e);
	s = write_page(&r, false);
	CHECK(!strncmp(s, "<!DOCTYPE html>", 15));
	CHECK_HAS(s, "</html>\n");
	CHECK(!strstr(s, "<script"));
	CHECK(!strstr(s, "http"));
	CHECK(!strstr(s, "<kworker>"));
	CHECK_HAS(s, "&lt;kworker&gt;&amp;&quot;&#39;");
	CHECK_HAS(s, "\xe3\x82\xbf\xe3\x82\xa4\xe3\x83\x9e");
	CHECK_HAS(s, "TIMER");
	CHECK_HAS(s, "host&lt;&amp;&gt;&quot;&#39;");
	/* per CPU: a section, a time chart, a histogram chart */
	CHECK_EQ(count(s, "<section class=\"cpu\""), 2);
	CHECK_EQ(count(s, "class=\"chart time\""), 2);
	CHECK_EQ(count(s, "class=\"chart hist\""), 2);
	/* two polylines per CPU, one point per period */
	CHECK_EQ(count(s, "<polyline"), 4);
	CHECK_EQ(polyline_points(s, 0), 10);
	CHECK_EQ(polyline_points(s, 3), 10);
	/* top: max single 1000..1009 ns, all in [512, 1024): one bar per CPU */
	CHECK_EQ(count(s, "class=\"bar\""), 2);
	/* percentiles at the bucket's edge (1.024 us), capped to the max */
	CHECK_HAS(s, "<td>10</td><td>1.009</td><td>1.009</td><td>1.009</td><td>1.009</td>");
	/* class chart: IRQ and Thread on each CPU; source chart: 3 on CPU 2 */
	CHECK_EQ(count(s, "class=\"seg "), 2 * 2 + 3);
	CHECK_EQ(count(s, "class=\"chart source\""), 1);
	CHECK(round_duration_ticks(s));
	/* no stop: no marker */
	CHECK_EQ(count(s, "<circle"), 0);
	/* the tables: 10 rows of points per CPU */
	CHECK_EQ(count(s, "<table class=\"num time\">"), 2);
	free(s);
	osn_report_free(&r);
}

TEST(bounded_series)
{
	struct osn_report r;
	char *s;

	CHECK_EQ(osn_report_init(&r, cpus2, 2, 4), 0);
	feed(&r, 3600);
	/* 3600 periods: points of 4 periods, 900 of them */
	CHECK_EQ(r.cpus[0].per_point, 4);
	CHECK_EQ(r.cpus[0].npts, 900);
	/* a merged point keeps the worst: the last is of periods 3596..3599 */
	CHECK_EQ(r.cpus[0].pts[899].noise, 5000 + 3599 * 10);
	CHECK_EQ(r.cpus[0].pts[899].max_single, 1000 + 3599);
	CHECK_EQ(r.cpus[0].pts[0].max_single, 1003);
	osn_report_stop(&r, 2);
	s = write_page(&r, true);
	CHECK_EQ(polyline_points(s, 0), 900);
	CHECK_EQ(count(s, "<circle"), 1);
	CHECK_HAS(s, "each the worst of 4 periods");
	CHECK_HAS(s, "<pre class=\"why\">");
	free(s);
	osn_report_free(&r);
}

static void make_hist(struct osn_hist *h, unsigned nrows)
{
	memset(h, 0, sizeof(*h));
	h->bucket_ns = 1000;
	h->entries = nrows;
	h->nrows = nrows;
	h->ncpus = 2;
	h->cpus = calloc(2, sizeof(*h->cpus));
	for (int i = 0; i < 2; i++) {
		struct osn_hist_cpu *c = &h->cpus[i];

		c->cpu = cpus2[i];
		c->nrows = nrows;
		c->rows = calloc(nrows, sizeof(*c->rows));
		for (unsigned k = 0; k < nrows; k++) {
			c->rows[k] = k % 3 ? 0 : 1000000 / (k + 1);
			c->count += c->rows[k];
		}
		c->over = i;		/* CPU 2: one sample past the table */
		c->count += c->over;
		c->max = (uint64_t)nrows * 1000 + 5000;
		c->pct[OSN_P50] = 1000;
		c->pct[OSN_P99] = 50000;
		c->pct[OSN_P999] = 900000;
	}
}

static void free_hist(struct osn_hist *h)
{
	for (size_t i = 0; i < h->ncpus; i++)
		free(h->cpus[i].rows);
	free(h->cpus);
}

TEST(page_hist)
{
	struct osn_report r;
	struct osn_hist h;
	char *s;

	CHECK_EQ(osn_report_init(&r, cpus2, 2, 4), 0);
	feed(&r, 5);
	make_hist(&h, 40);
	CHECK_EQ(osn_report_set_hist(&r, &h), 0);
	s = write_page(&r, false);
	/* 40 buckets (+ over on CPU 2): bars as they are */
	CHECK_EQ(count(s, "class=\"bar\""), 40 + 41);
	/* p50 p99 p99.9 max on each */
	CHECK_EQ(count(s, "class=\"pct\""), 8);
	CHECK_HAS(s, "every noise sample");
	CHECK(round_duration_ticks(s));
	free(s);
	free_hist(&h);
	osn_report_free(&r);
	/* 100000 buckets merge into OSN_REPORT_BARS */
	CHECK_EQ(osn_report_init(&r, cpus2, 2, 4), 0);
	feed(&r, 5);
	make_hist(&h, 100000);
	CHECK_EQ(osn_report_set_hist(&r, &h), 0);
	s = write_page(&r, false);
	CHECK(count(s, "class=\"bar\"") <= 2 * OSN_REPORT_BARS);
	CHECK(count(s, "class=\"bar\"") >= 2 * OSN_REPORT_BARS - 4);
	CHECK(round_duration_ticks(s));
	free(s);
	free_hist(&h);
	osn_report_free(&r);
}

TEST(empty_cpu)
{
	struct osn_report r;
	char *s;

	CHECK_EQ(osn_report_init(&r, cpus2, 2, 4), 0);
	s = write_page(&r, false);
	CHECK_EQ(count(s, "No period was recorded"), 2);
	CHECK_EQ(count(s, "<polyline"), 0);
	CHECK_EQ(count(s, "class=\"chart class\""), 1);
	CHECK_EQ(count(s, "class=\"chart source\""), 0);
	free(s);
	osn_report_free(&r);
}

TEST(stop_in_first_period)
{
	struct osn_report r;
	char *s;

	CHECK_EQ(osn_report_init(&r, cpus2, 2, 4), 0);
	osn_report_stop(&r, 2);
	s = write_page(&r, true);
	/* CPU 0: nothing; CPU 2: an empty chart with the stop marked */
	CHECK_EQ(count(s, "No period was recorded"), 1);
	CHECK_EQ(count(s, "class=\"chart time\""), 1);
	CHECK_EQ(count(s, "<circle"), 1);
	CHECK_EQ(count(s, "<polyline"), 0);
	CHECK_HAS(s, "Stop condition hit after period 0 (marked).");
	free(s);
	osn_report_free(&r);
}

/*
 * The page names the sources that stole the most, whenever they began:
 * 20 small thread sources first, the heaviest one last.
 */
TEST(sources_by_time)
{
	struct osn_report r;
	struct osn_event e;
	char name[16], *s, *tab;

	CHECK_EQ(osn_report_init(&r, cpus2, 2, 4), 0);
	feed(&r, 2);
	for (int k = 0; k < 20; k++) {
		snprintf(name, sizeof(name), "t%02d", k);
		e = noise_ev(OSN_E_THREAD, 0, 1000 + k, 45 + k, name);
		osn_report_event(&r, &e);
	}
	e = noise_ev(OSN_E_THREAD, 0, 50000, 99, "heavy");
	osn_report_event(&r, &e);
	s = write_page(&r, false);
	tab = strstr(s, "<table class=\"num source\">");
	CHECK(tab != NULL);
	if (tab) {
		/* first row: heavy; then t19 .. t09; other: t08 .. t00 */
		CHECK(!strncmp(strstr(tab, "</tr>\n") + 6,
			       "<tr><td>0</td><td>thread</td><td>heavy</td><td>1</td><td>50.000</td>", 66));
		CHECK_HAS(tab, "<td>t09</td>");
		CHECK(!strstr(tab, "<td>t08</td>"));
		/* 1000 + ... + 1008 ns */
		CHECK_HAS(tab, "<td>other</td><td>9</td><td>9.036</td>");
	}
	/* the verdict names it too */
	CHECK_HAS(s, "above all thread heavy (50.000 us)");
	free(s);
	osn_report_free(&r);
}

/* The verdict comes first: a line a CPU, the least available first. */
TEST(verdict_first)
{
	struct osn_report r;
	struct osn_event e;
	char *s, *v, *c0, *c2;

	CHECK_EQ(osn_report_init(&r, cpus2, 2, 4), 0);
	feed(&r, 10);
	/* CPU 2 loses more: 5 ms in one period */
	e = fx_sample(2, 99, 1000000, 5000000, 4000000, 100, 1);
	e.s.count[OSN_CLASS_IRQ] = 1;
	e.s.time[OSN_CLASS_IRQ] = 4500000;
	osn_report_event(&r, &e);
	s = write_page(&r, true);
	v = strstr(s, "<section id=\"verdict\">");
	CHECK(v != NULL);
	CHECK(v && v < strstr(s, "<section class=\"cpu\""));
	CHECK(v && strstr(s, "<h2>Stop</h2>") > v);
	c0 = strstr(s, "<li>CPU 0: ");
	c2 = strstr(s, "<li>CPU 2: ");
	CHECK(c0 && c2 && c2 < c0);
	CHECK_HAS(s, "the longest single noise 4.000 ms; most of the noise time: IRQ (4.530 ms)");
	CHECK(!strstr(s, "the top culprit"));
	CHECK(!strstr(s, "id=\"culprits\""));
	free(s);
	osn_report_free(&r);
}

/* With --causes: the verdict names the top culprit, and a chart shows them. */
TEST(culprits_charted)
{
	struct osn_report_info info;
	struct osn_report_meta m;
	struct osn_causes cs;
	struct osn_report r;
	struct h_buf b;
	char *s;

	CHECK_EQ(osn_report_init(&r, cpus2, 2, 4), 0);
	feed(&r, 3);
	CHECK_EQ(osn_causes_init(&cs, 4), 0);
	for (int i = 0; i < 3; i++) {
		struct osn_event e;

		e = fx_cause(2, 100 + i * 10, OSN_CAUSE_WORK, OSN_CLASS_THREAD,
			     90 + i * 10, 0xffffffff81000100ULL, 0, 10, "src<1>");
		osn_causes_event(&cs, &e);
		e = fx_noise(OSN_E_THREAD, 2, 105 + i * 10, 90 + i * 10, 7000,
			     45, "kworker/2:1");
		osn_causes_event(&cs, &e);
	}
	osn_causes_sort(&cs);
	snprintf(cs.cpu[2].culprits[0].function_name,
		 sizeof(cs.cpu[2].culprits[0].function_name), "inj_work_fn");
	info_for(&info, &m);
	info.causes = &cs;
	r.period_us = 1000000;
	r.runtime_us = 1000000;
	CHECK_EQ(osn_report_write(h_open(&b), &r, &info, &m), 0);
	s = h_close(&b);
	CHECK_HAS(s, "the top culprit: work inj_work_fn from src&lt;1&gt;:10 (CPU 0) (21.000 us)");
	CHECK_EQ(count(s, "<section id=\"culprits\">"), 1);
	/* CPU 0 had none; CPU 2 one culprit: one chart, one bar, one row */
	CHECK_EQ(count(s, "No cause was recorded."), 1);
	CHECK_EQ(count(s, "class=\"chart culprits\""), 1);
	CHECK_EQ(count(s, "class=\"bar culprit\""), 1);
	CHECK_HAS(s, "<tr><td>2</td><td>work</td><td>inj_work_fn</td><td>src&lt;1&gt;:10 (CPU 0)</td><td>3</td><td>21.000</td></tr>");
	CHECK(!strstr(s, "<1>"));
	free(s);
	osn_causes_free(&cs);
	osn_report_free(&r);
}

/* ---- the generator ------------------------------------------------------------ */

/* 8 CPUs, 3600 periods of 1 s, 10^6 samples in all; a hist of 10000 buckets */
static int write_big(FILE *f, bool with_hist)
{
	static const int cpus8[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const char *names[] = { "local_timer:236", "kworker/3:1", "ksoftirqd/3",
				"\xe3\x82\xbf\xe3\x82\xb9\xe3\x82\xaf", "<irq&'\">" };
	struct osn_report_info info;
	struct osn_report_meta m;
	struct osn_report r;
	struct osn_hist h;
	int ret;

	if (osn_report_init(&r, cpus8, 8, 8))
		return 1;
	r.period_us = r.runtime_us = 1000000;
	for (unsigned p = 0; p < 3600; p++)
		for (int c = 0; c < 8; c++) {
			/* 10^6 / (8 * 3600) ~ 35 samples per period */
			struct osn_event e = fx_sample(c, p, 1000000,
						       35 * (2000 + p % 97 * 30),
						       3000 + (p * 7919 + c * 31) % 90000,
						       1000, 35);

			e.s.count[OSN_CLASS_IRQ] = 30;
			e.s.time[OSN_CLASS_IRQ] = 30 * 1500;
			e.s.count[OSN_CLASS_THREAD] = 5;
			e.s.time[OSN_CLASS_THREAD] = 5 * 4000 + c;
			osn_report_event(&r, &e);
			e = fx_noise(c == 3 ? OSN_E_THREAD : OSN_E_IRQ, c, p,
				     0, 1500 + p % 7, 236, names[(p + c) % 5]);
			osn_report_event(&r, &e);
		}
	osn_report_stop(&r, 5);
	if (with_hist) {
		memset(&h, 0, sizeof(h));
		h.bucket_ns = 1000;
		h.entries = h.nrows = 10000;
		h.ncpus = 8;
		h.cpus = calloc(8, sizeof(*h.cpus));
		for (int c = 0; c < 8; c++) {
			struct osn_hist_cpu *hc = &h.cpus[c];

			hc->cpu = c;
			hc->nrows = 10000;
			hc->rows = calloc(10000, sizeof(*hc->rows));
			for (unsigned k = 1; k < 10000; k++)
				hc->rows[k] = 125000 / k / k;
			for (unsigned k = 0; k < 10000; k++)
				hc->count += hc->rows[k];
			hc->max = 9999500;
			hc->pct[OSN_P50] = 2000;
			hc->pct[OSN_P99] = 60000;
			hc->pct[OSN_P999] = 400000;
		}
		osn_report_set_hist(&r, &h);
		free_hist(&h);
	}
	memset(&params, 0, sizeof(params));
	params.cmd = with_hist ? OSN_CMD_HIST : OSN_CMD_TOP;
	memset(&info, 0, sizeof(info));
	info.params = &params;
	info.elapsed_s = 3600;
	info.cpus_str = "0-7";
	info.threshold_us = 1;
	info.stopped = true;
	m.host = "big<synthetic>";
	m.kernel = "6.1.0-test";
	m.version = "0.1.0";
	m.exit_reason = "stop condition hit";
	ret = osn_report_write(f, &r, &info, &m);
	osn_report_free(&r);
	return ret ? 1 : 0;
}

/*
 * osn top on 64 CPUs for 10 minutes: the heat map.  CPUs 8-15 noisy all
 * along, every CPU hit by a burst from minute 4 to 5, CPU 40 stopped.
 */
static int write_many(FILE *f)
{
	struct osn_report_info info;
	struct osn_report_meta m;
	struct osn_report r;
	int cpus[64], ret;

	for (int i = 0; i < 64; i++)
		cpus[i] = i;
	if (osn_report_init(&r, cpus, 64, 64))
		return 1;
	r.period_us = r.runtime_us = 1000000;
	for (unsigned p = 0; p < 600; p++)
		for (int c = 0; c < 64; c++) {
			uint64_t n = 2000 + (p * 7919 + c * 31) % 3000;
			struct osn_event e;

			if (c >= 8 && c < 16)
				n *= 40;
			if (p >= 240 && p < 300)
				n *= 10;
			e = fx_sample(c, p, 1000000, n, n / 3, 1000, 5);
			osn_report_event(&r, &e);
		}
	osn_report_stop(&r, 40);
	info_for(&info, &m);
	ret = osn_report_write(f, &r, &info, &m);
	osn_report_free(&r);
	return ret;
}

static int generate(const char *path, const char *what)
{
	FILE *f = fopen(path, "w");
	struct osn_report_info info;
	struct osn_report_meta m;
	struct osn_report r;
	struct osn_event e;
	struct osn_hist h;
	int ret;

	if (!f)
		return 1;
	if (what && !strcmp(what, "--big")) {
		ret = write_big(f, true);
		return fclose(f) || ret;
	}
	if (what && !strcmp(what, "--many")) {
		ret = write_many(f);
		return fclose(f) || ret;
	}
	osn_report_init(&r, cpus2, 2, 4);
	r.period_us = r.runtime_us = 1000000;
	feed(&r, 60);
	e = noise_ev(OSN_E_THREAD, 2, 4100, 45, "<kworker>&\"'");
	osn_report_event(&r, &e);
	e = noise_ev(OSN_E_IRQ, 0, 1000, 236, "\xe3\x82\xbf\xe3\x82\xa4\xe3\x83\x9e");
	osn_report_event(&r, &e);
	if (what && !strcmp(what, "--hist")) {
		make_hist(&h, 40);
		osn_report_set_hist(&r, &h);
		free_hist(&h);
	}
	info_for(&info, &m);
	ret = osn_report_write(f, &r, &info, &m);
	osn_report_free(&r);
	return fclose(f) || ret ? 1 : 0;
}

/* the shade of a value: none, then 1..7 on a log scale, rising */
TEST(heat_levels)
{
	int prev = 1;

	CHECK_EQ(osn_report_heat_level(0, 1000, 1000000), 0);
	CHECK_EQ(osn_report_heat_level(1000, 1000, 1000000), 1);
	CHECK_EQ(osn_report_heat_level(1000000, 1000, 1000000), 7);
	CHECK_EQ(osn_report_heat_level(5000000, 1000, 1000000), 7);
	/* sqrt(1000 * 1000000): half-way on the log scale */
	CHECK_EQ(osn_report_heat_level(31623, 1000, 1000000), 4);
	for (uint64_t v = 1000; v <= 1000000; v += 997) {
		int l = osn_report_heat_level(v, 1000, 1000000);

		CHECK(l >= prev && l <= 7);
		prev = l;
	}
	/* one value only: the top shade */
	CHECK_EQ(osn_report_heat_level(500, 500, 500), 7);
}

/*
 * Past OSN_REPORT_HEAT_CPUS CPUs, one heat map instead of a time chart
 * per CPU: 64 CPUs, CPU k with k us of noise a period (CPU 0 none), 20
 * periods.  A row per CPU, no shaded cell on CPU 0, the top shade on CPU
 * 63 only, the bottom one on CPU 1; each CPU keeps its section.
 */
TEST(heat_many_cpus)
{
	int cpus[64];
	struct osn_report r;
	char *s, row[64];
	const char *p, *q;

	for (int i = 0; i < 64; i++)
		cpus[i] = i;
	CHECK_EQ(osn_report_init(&r, cpus, 64, 64), 0);
	for (unsigned t = 0; t < 20; t++)
		for (int i = 0; i < 64; i++) {
			struct osn_event e = fx_sample(i, t, 1000000, i * 1000,
						       i * 100, 1, i ? 3 : 0);

			osn_report_event(&r, &e);
		}
	s = write_page(&r, false);
	CHECK_EQ(count(s, "class=\"chart heat\""), 1);
	CHECK_EQ(count(s, "class=\"chart time\""), 0);
	CHECK_EQ(count(s, "<section class=\"cpu\""), 64);
	/* the row backgrounds: one per CPU */
	CHECK_EQ(count(s, "class=\"heat0\"><title>CPU "), 64);
	/* 20 periods, 20 columns: 20 cells a CPU but CPU 0 */
	CHECK_EQ(count(s, "<title>CPU 0 from"), 0);
	CHECK_EQ(count(s, "<title>CPU 63 from"), 20);
	/* each CPU's shade: CPU 1 the lightest, CPU 63 the darkest, rising */
	for (int i = 1, prev = 1; i < 64; i++) {
		int l;

		snprintf(row, sizeof(row), "><title>CPU %d from 0 s: ", i);
		p = strstr(s, row);
		CHECK(p != NULL);
		if (!p)
			break;
		for (q = p; q > s && *q != '<'; q--)
			;
		CHECK(sscanf(q, "<rect x=%*s y=%*s width=%*s height=%*s class=\"heat%d\"", &l) == 1);
		CHECK(l >= prev);
		if (i == 1)
			CHECK_EQ(l, 1);
		if (i == 63)
			CHECK_EQ(l, 7);
		prev = l;
	}
	free(s);
	osn_report_free(&r);
}

/* up to OSN_REPORT_HEAT_CPUS, a time chart per CPU and no heat map */
TEST(heat_few_cpus)
{
	int cpus[OSN_REPORT_HEAT_CPUS];
	struct osn_report r;
	char *s;

	for (int i = 0; i < OSN_REPORT_HEAT_CPUS; i++)
		cpus[i] = i;
	CHECK_EQ(osn_report_init(&r, cpus, OSN_REPORT_HEAT_CPUS,
				 OSN_REPORT_HEAT_CPUS), 0);
	for (int i = 0; i < OSN_REPORT_HEAT_CPUS; i++) {
		struct osn_event e = fx_sample(i, 0, 1000000, 5000, 100, 1, 3);

		osn_report_event(&r, &e);
	}
	s = write_page(&r, false);
	CHECK_EQ(count(s, "class=\"chart heat\""), 0);
	CHECK_EQ(count(s, "class=\"chart time\""), OSN_REPORT_HEAT_CPUS);
	free(s);
	osn_report_free(&r);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--write"))
		return generate(argv[2], argc > 3 ? argv[3] : NULL);
	RUN(page_top);
	RUN(bounded_series);
	RUN(page_hist);
	RUN(empty_cpu);
	RUN(stop_in_first_period);
	RUN(sources_by_time);
	RUN(verdict_first);
	RUN(culprits_charted);
	RUN(heat_levels);
	RUN(heat_many_cpus);
	RUN(heat_few_cpus);
	return h_done(argv[0]);
}
