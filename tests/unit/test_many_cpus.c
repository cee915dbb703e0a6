// SPDX-License-Identifier: GPL-2.0
/*
 * osn top and osn hist at 64 and 256 CPUs: top's --group and --summary,
 * hist's --layout rows; the shape of the text (a row per CPU or group,
 * line widths) and ALL's values, computed here from the synthetic
 * samples, not by the code under test.
 */
#include "harness.h"
#include "fixtures.h"
#include "render.h"

#define MAXC	256

static struct osn_params params;
static struct osn_cpu_stats st[MAXC];
static int cpus[MAXC];

/* ---- the text, as lines and words --------------------------------------- */

struct text {
	char *buf;
	char *line[2 * MAXC + 64];
	int n;
};

static void split(struct text *x, char *t)
{
	char *save = NULL;

	x->buf = t;
	x->n = 0;
	/* strtok_r skips the blank line between top's blocks: mark it */
	for (char *p = strstr(t, "\n\n"); p; p = strstr(p + 2, "\n\n"))
		p[1] = '\f';
	for (char *l = strtok_r(t, "\n", &save); l && x->n < (int)ARRAY_SIZE(x->line);
	     l = strtok_r(NULL, "\n", &save))
		x->line[x->n++] = l;
}

static int max_width(const struct text *x)
{
	int w = 0;

	for (int i = 0; i < x->n; i++)
		if ((int)strlen(x->line[i]) > w)
			w = (int)strlen(x->line[i]);
	return w;
}

/*
 * The words of the line of block @blk (0: before the first blank line,
 * 1: after it) whose first word is @label, into @w; how many (0: none).
 */
static int row_words(const struct text *x, int blk, const char *label,
		     char w[][32], int max)
{
	int b = 0;

	for (int i = 0; i < x->n; i++) {
		const char *l = x->line[i];
		char first[32];
		int n = 0, off = 0, k;

		if (l[0] == '\f') {
			b++;
			l++;
		}
		if (b != blk || sscanf(l, "%31s", first) != 1 ||
		    strcmp(first, label))
			continue;
		while (n < max && sscanf(l + off, "%31s%n", w[n], &k) == 1) {
			off += k;
			n++;
		}
		return n;
	}
	return 0;
}

/* How many lines of block @blk begin with a number (CPU or range). */
static int data_rows(const struct text *x, int blk)
{
	int b = 0, n = 0;

	for (int i = 0; i < x->n; i++) {
		const char *l = x->line[i];

		if (l[0] == '\f') {
			b++;
			l++;
		}
		while (*l == ' ')
			l++;
		if (b == blk && *l >= '0' && *l <= '9')
			n++;
	}
	return n;
}

static char *fmt(const char *f, unsigned long long v)
{
	static char buf[8][48];
	static int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), f, v);
	return buf[i];
}

static char *e5_str(unsigned long long e5)
{
	static char buf[4][32];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%llu.%05llu", e5 / 100000, e5 % 100000);
	return buf[i];
}

/* ---- osn top ---------------------------------------------------------------- */

/* Every 17th CPU has no period yet. */
static bool has_periods(int c)
{
	return c % 17 != 16;
}

static int nperiods(int c)
{
	return has_periods(c) ? 1 + c % 3 : 0;
}

static uint64_t noise_of(int c, int k)
{
	return (uint64_t)(c * 37 % 1000 + 1) * 1000 + k * 11;
}

static uint64_t single_of(int c, int k)
{
	return noise_of(c, k) / 2 + k;
}

static void make_top(int n, int step)
{
	memset(st, 0, sizeof(st));
	for (int i = 0; i < n; i++) {
		int c = i * step;

		cpus[i] = c;
		for (int k = 0; k < nperiods(c); k++) {
			struct osn_event e = fx_sample(c, k, 1000000000,
						       noise_of(c, k),
						       single_of(c, k), 100, 3);

			e.s.count[OSN_CLASS_HW] = c % 2;
			e.s.time[OSN_CLASS_HW] = 333 * (c % 2);
			e.s.count[OSN_CLASS_IRQ] = 1000 + c;
			e.s.time[OSN_CLASS_IRQ] = 1500 * (c + 1);
			e.s.count[OSN_CLASS_THREAD] = c % 5;
			e.s.time[OSN_CLASS_THREAD] = 7000 * (c % 5);
			osn_stats_add_sample(&st[c], &e);
		}
	}
}

/* What a row of CPUs cpus[@i..@j) must show, from the formulas above. */
struct expect {
	unsigned long long periods, runtime, noise, max_noise, max_single;
	unsigned long long irq, irq_ns, thread, thread_ns, hw;
	int worst;
	unsigned long long worst_e5;
};

static void expect_of(int i, int j, struct expect *x)
{
	memset(x, 0, sizeof(*x));
	x->worst = -1;
	for (int k = i; k < j; k++) {
		int c = cpus[k];
		unsigned long long rt = 0, nz = 0, e5;

		for (int p = 0; p < nperiods(c); p++) {
			rt += 1000000000;
			nz += noise_of(c, p);
			if (noise_of(c, p) > x->max_noise)
				x->max_noise = noise_of(c, p);
			if (single_of(c, p) > x->max_single)
				x->max_single = single_of(c, p);
			x->irq += 1000 + c;
			x->irq_ns += 1500 * (c + 1);
			x->thread += c % 5;
			x->thread_ns += 7000 * (c % 5);
			x->hw += c % 2;
		}
		if (!rt)
			continue;
		x->periods += nperiods(c);
		x->runtime += rt;
		x->noise += nz;
		e5 = (rt - nz) * 10000000 / rt;
		if (x->worst < 0 || e5 < x->worst_e5) {
			x->worst = c;
			x->worst_e5 = e5;
		}
	}
}

/* The row @label of both blocks against @x; @worst: its Worst columns. */
static void check_row(const struct text *t, const char *label,
		      const struct expect *x, bool worst)
{
	char w[12][32];
	unsigned long long e5 = (x->runtime - x->noise) * 10000000 / x->runtime;

	CHECK_EQ(row_words(t, 0, label, w, 12), worst ? 9 : 7);
	CHECK_STR(w[1], fmt("#%llu", x->periods));
	CHECK_STR(w[2], fmt("%llu", x->runtime / 1000));
	CHECK_STR(w[3], fmt("%llu", x->noise / 1000));
	CHECK_STR(w[4], e5_str(e5));
	CHECK_STR(w[5], fmt("%llu", x->max_noise / 1000));
	CHECK_STR(w[6], fmt("%llu", x->max_single / 1000));
	if (worst) {
		CHECK_STR(w[7], fmt("%llu", x->worst));
		CHECK_STR(w[8], e5_str(x->worst_e5));
	}
	/* CPU HW HW-us NMI NMI-us IRQ IRQ-us Softirq Softirq-us Thread Thread-us */
	CHECK_EQ(row_words(t, 1, label, w, 12), 11);
	CHECK_STR(w[1], fmt("%llu", x->hw));
	CHECK_STR(w[5], fmt("%llu", x->irq));
	CHECK_STR(w[6], fmt("%llu", x->irq_ns / 1000));
	CHECK_STR(w[9], fmt("%llu", x->thread));
	CHECK_STR(w[10], fmt("%llu", x->thread_ns / 1000));
}

static char *render_top(int n, bool summary, unsigned group)
{
	struct osn_top_view v = { .stats = st, .cpus = cpus, .ncpus = n };
	struct osn_report_info info = { .params = &params, .elapsed_s = 3 };
	struct h_buf b;

	memset(&params, 0, sizeof(params));
	params.cmd = OSN_CMD_TOP;
	params.summary = summary;
	params.group = group;
	osn_render_top(h_open(&b), &v, &info);
	return h_close(&b);
}

/* A row per CPU that has a period, in both blocks; ALL over them all. */
static void top_per_cpu(int n)
{
	struct text t;
	struct expect x;
	int shown = 0;

	make_top(n, 1);
	split(&t, render_top(n, false, 0));
	for (int c = 0; c < n; c++)
		shown += has_periods(c);
	CHECK_EQ(data_rows(&t, 0), shown);
	CHECK_EQ(data_rows(&t, 1), shown);
	CHECK(max_width(&t) <= 80);
	expect_of(0, n, &x);
	check_row(&t, "ALL", &x, false);
	expect_of(n - 3, n - 2, &x);
	check_row(&t, fmt("%llu", n - 3), &x, false);
	free(t.buf);
}

TEST(top_64_and_256_cpus)
{
	top_per_cpu(64);
	top_per_cpu(256);
}

/* --summary: the ALL rows only, with the CPU of the lowest availability */
TEST(top_summary)
{
	struct text t;
	struct expect x;

	make_top(256, 1);
	split(&t, render_top(256, true, 0));
	CHECK_EQ(data_rows(&t, 0), 0);
	CHECK_EQ(data_rows(&t, 1), 0);
	CHECK_EQ(t.n, 6);	/* title, duration, 2 x (head, ALL) */
	expect_of(0, 256, &x);
	check_row(&t, "ALL", &x, true);
	CHECK(strstr(t.line[2], "Worst Aval") != NULL);
	CHECK(max_width(&t) <= 80);
	free(t.buf);
}

/* --group N: a row per N measured CPUs, "first-last", then ALL */
static void top_groups(int n, int step, unsigned group)
{
	int rows = (n + (int)group - 1) / (int)group;
	struct text t;
	struct expect x;

	make_top(n, step);
	split(&t, render_top(n, false, group));
	CHECK_EQ(data_rows(&t, 0), rows);
	CHECK_EQ(data_rows(&t, 1), rows);
	for (int r = 0; r < rows; r++) {
		int i = r * (int)group, j = i + (int)group < n ? i + (int)group : n;
		char label[32];

		snprintf(label, sizeof(label), "%d-%d", cpus[i], cpus[j - 1]);
		expect_of(i, j, &x);
		check_row(&t, label, &x, true);
	}
	expect_of(0, n, &x);
	check_row(&t, "ALL", &x, true);
	CHECK(max_width(&t) <= 90);
	free(t.buf);
}

TEST(top_group)
{
	top_groups(64, 1, 8);
	top_groups(256, 1, 16);
	top_groups(256, 1, 100);		/* the last group shorter */
	top_groups(100, 2, 4);		/* sparse: 0,2,...: "0-6", "8-14" */
}

/* ---- osn hist --------------------------------------------------------------- */

#define ENTRIES	20

/*
 * CPU c: 10 + c % 3 samples in the bucket of c % 7 us, and one of
 * (c % 50).250 us (over -E 20 from 20 us); every 16th CPU none.
 */
static bool has_samples(int c)
{
	return c % 16 != 15;
}

static struct osn_exact ex[MAXC];

/* the exact extremes and sums, as osn:sample gives them */
static void make_hist(struct osn_hist *h, int n)
{
	struct osn_khist kh = { .bucket_ns = 1000, .have_sum = true };

	memset(ex, 0, sizeof(ex));
	for (int c = 0; c < n; c++) {
		uint64_t lo = (uint64_t)(c % 7) * 1000, cnt = 10 + c % 3;
		uint64_t one = (uint64_t)(c % 50) * 1000 + 250;

		cpus[c] = c;
		if (!has_samples(c))
			continue;
		osn_khist_add(&kh, c, lo, cnt, cnt * (lo + 500));
		osn_khist_add(&kh, c, (uint64_t)(c % 50) * 1000, 1, one);
		ex[c].samples = cnt + 1;
		ex[c].noise = cnt * (lo + 500) + one;
		ex[c].min = lo + 100;
		ex[c].max = one > lo + 999 ? one : lo + 999;
	}
	CHECK_EQ(osn_hist_build(h, &kh, ENTRIES, cpus, n, ex), 0);
	osn_khist_free(&kh);
}

static char *render_hist(const struct osn_hist *h, enum osn_layout layout)
{
	struct osn_report_info info = { .params = &params, .elapsed_s = 2,
					.cpus_str = "0-255" };
	struct h_buf b;

	params.cmd = OSN_CMD_HIST;
	params.layout = layout;
	osn_render_hist(h_open(&b), h, &info);
	return h_close(&b);
}

/* The expected percentile of rank @pm/1000 in ALL's buckets: "~E.000" */
static const char *merged_pct(const unsigned long long *rows,
			      unsigned long long count, unsigned pm)
{
	unsigned long long r = (count * pm + 999) / 1000, cum = 0;

	for (int b = 0; b < ENTRIES; b++) {
		cum += rows[b];
		if (cum >= r)
			return fmt("~%llu.000", b + 1);
	}
	return "?";
}

static void hist_rows(int n)
{
	unsigned long long rows[ENTRIES] = { 0 }, count = 0, over = 0, sum = 0;
	unsigned long long avg;
	char want[48];
	char w[12][32];
	struct osn_hist h;
	struct text t;
	int nrows = 0;
	char *text;

	memset(&params, 0, sizeof(params));
	make_hist(&h, n);
	for (int c = 0; c < n; c++) {
		if (!has_samples(c))
			continue;
		rows[c % 7] += 10 + c % 3;
		if (c % 50 < ENTRIES)
			rows[c % 50]++;
		else
			over++;
		count += 11 + c % 3;
		sum += ex[c].noise;
	}
	text = render_hist(&h, OSN_LAYOUT_AUTO);	/* > 16 CPUs: rows */
	CHECK(strstr(text, "Index       ALL\n") != NULL);
	CHECK(strstr(text, "CPU-") == NULL);
	split(&t, text);
	/* the histogram of them all: index and count lines, then over: */
	for (int i = 0; i < t.n && t.line[i][0] != '\f'; i++) {
		unsigned long long b, v;
		char end;

		if (sscanf(t.line[i], "%llu %llu%c", &b, &v, &end) == 3 &&
		    end == ' ' && b < ENTRIES) {
			CHECK_EQ(v, rows[b]);
			nrows++;
		}
	}
	for (int b = 0; b < ENTRIES; b++)
		nrows -= rows[b] != 0;
	CHECK_EQ(nrows, 0);
	CHECK(row_words(&t, 0, "over:", w, 3) == 2 && !strcmp(w[1], fmt("%llu", over)));
	/* a row per measured CPU, samples or not, then ALL */
	CHECK_EQ(data_rows(&t, 1), n);
	CHECK_EQ(row_words(&t, 1, "CPU", w, 12), 10);
	CHECK_STR(w[8], "p99.9");
	CHECK_EQ(row_words(&t, 1, "15", w, 12), 10);
	CHECK_STR(w[1], "0");
	CHECK_STR(w[2], "-");
	CHECK_EQ(row_words(&t, 1, "ALL", w, 12), 10);
	CHECK_STR(w[1], fmt("%llu", count));
	CHECK_STR(w[2], "0.100");	/* the exact min of CPU 0 */
	avg = (sum + count / 2) / count;
	snprintf(want, sizeof(want), "%llu.%03llu", avg / 1000, avg % 1000);
	CHECK_STR(w[3], want);		/* exact: the sums over the count */
	CHECK_STR(w[4], "49.250");	/* CPU 49's exact max */
	CHECK_STR(w[5], merged_pct(rows, count, 500));
	CHECK_STR(w[6], merged_pct(rows, count, 900));
	CHECK_STR(w[9], fmt("%llu", over));
	CHECK(max_width(&t) <= 80);
	free(t.buf);
	osn_hist_free(&h);
}

TEST(hist_64_and_256_cpus)
{
	hist_rows(64);
	hist_rows(256);
}

/* auto: rtla's columns up to 16 CPUs; --layout overrides either way */
TEST(hist_layout_choice)
{
	struct osn_hist h;
	char *t;

	memset(&params, 0, sizeof(params));
	make_hist(&h, 16);
	t = render_hist(&h, OSN_LAYOUT_AUTO);
	CHECK(strstr(t, "   CPU-014\n") != NULL);
	CHECK(strstr(t, "count:") != NULL);
	free(t);
	t = render_hist(&h, OSN_LAYOUT_ROWS);
	CHECK(strstr(t, "Index       ALL\n") != NULL);
	CHECK(strstr(t, "CPU-") == NULL);
	free(t);
	osn_hist_free(&h);

	make_hist(&h, 17);
	t = render_hist(&h, OSN_LAYOUT_AUTO);
	CHECK(strstr(t, "CPU-") == NULL);
	free(t);
	osn_hist_free(&h);

	make_hist(&h, 64);
	t = render_hist(&h, OSN_LAYOUT_COLUMNS);
	CHECK(strstr(t, "   CPU-062\n") != NULL);
	free(t);
	/* --no-header, --no-summary: no titles; the histogram only */
	params.no_header = true;
	t = render_hist(&h, OSN_LAYOUT_ROWS);
	CHECK(strchr(t, '#') == NULL && strstr(t, "Index") == NULL);
	CHECK(strstr(t, "p99.9") == NULL && strstr(t, "\nALL ") != NULL);
	free(t);
	params.no_header = false;
	params.no_summary = true;
	t = render_hist(&h, OSN_LAYOUT_ROWS);
	CHECK(strstr(t, "Index       ALL\n") != NULL);
	CHECK(strstr(t, "ALL ") == NULL && strstr(t, "over:") != NULL);
	free(t);
	osn_hist_free(&h);
}

/* JSON keeps its schema: the same bytes whatever the text's layout */
TEST(hist_json_any_layout)
{
	struct osn_report_info info = { .params = &params, .elapsed_s = 2 };
	struct osn_hist h;
	struct h_buf a, b;

	memset(&params, 0, sizeof(params));
	make_hist(&h, 64);
	params.layout = OSN_LAYOUT_COLUMNS;
	osn_json_hist(h_open(&a), &h, &info);
	h_close(&a);
	params.layout = OSN_LAYOUT_ROWS;
	osn_json_hist(h_open(&b), &h, &info);
	h_close(&b);
	CHECK_STR(a.text, b.text);
	CHECK(strstr(a.text, "\"cpu\": 63") != NULL);
	free(a.text);
	free(b.text);
	osn_hist_free(&h);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(top_64_and_256_cpus);
	RUN(top_summary);
	RUN(top_group);
	RUN(hist_64_and_256_cpus);
	RUN(hist_layout_choice);
	RUN(hist_json_any_layout);
	return h_done(argv[0]);
}
