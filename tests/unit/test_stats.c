// SPDX-License-Identifier: GPL-2.0
/* top statistics, in-kernel histogram parsing, exact values, percentiles */
#include "fixtures.h"
#include "harness.h"
#include "stats.h"

TEST(top_stats)
{
	struct osn_cpu_stats st = { 0 }, all = { 0 };
	struct osn_event e;

	e = fx_sample(0, 1, 1000000, 1000, 600, 10, 3);
	e.s.count[OSN_CLASS_IRQ] = 4;
	e.s.time[OSN_CLASS_IRQ] = 700;
	e.s.count[OSN_CLASS_HW] = 1;
	e.s.time[OSN_CLASS_HW] = 300;
	osn_stats_add_sample(&st, &e);
	e = fx_sample(0, 2, 1000000, 3000, 2000, 5, 2);
	e.s.count[OSN_CLASS_THREAD] = 1;
	e.s.time[OSN_CLASS_THREAD] = 3000;
	osn_stats_add_sample(&st, &e);
	e = fx_sample(0, 3, 1000000, 0, 0, 0, 0);	/* quiet period */
	osn_stats_add_sample(&st, &e);
	e = fx_thr(0, 4, 0, 99, 0);			/* ignored */
	osn_stats_add_sample(&st, &e);

	CHECK_EQ(st.periods, 3);
	CHECK_EQ(st.runtime, 3000000);
	CHECK_EQ(st.noise, 4000);
	CHECK_EQ(st.max_noise, 3000);
	CHECK_EQ(st.max_single, 2000);
	CHECK_EQ(st.min_single, 5);	/* the empty period does not count */
	CHECK_EQ(st.samples, 5);
	CHECK_EQ(st.count[OSN_CLASS_IRQ], 4);
	CHECK_EQ(st.time[OSN_CLASS_IRQ], 700);
	CHECK_EQ(st.time[OSN_CLASS_THREAD], 3000);
	/* (3000000 - 4000) / 3000000 = 99.86666...% */
	CHECK_EQ(osn_stats_avail_e5(&st), 9986666);

	osn_stats_merge(&all, &st);
	e = fx_sample(1, 5, 1000000, 50, 50, 2, 1);
	osn_stats_add_sample(&st, &e);		/* now st has min 2 */
	osn_stats_merge(&all, &st);
	CHECK_EQ(all.periods, 7);
	CHECK_EQ(all.min_single, 2);
	CHECK_EQ(all.max_single, 2000);
}

TEST(avail_edges)
{
	struct osn_cpu_stats st = { 0 };

	CHECK_EQ(osn_stats_avail_e5(&st), 10000000);	/* no data: 100% */
	st.runtime = 1000;
	st.noise = 5000;				/* noise > runtime */
	CHECK_EQ(osn_stats_avail_e5(&st), 0);
	st.runtime = 86400ULL * 1000000000ULL * 365;	/* a year: no overflow */
	st.noise = st.runtime / 2;
	CHECK_EQ(osn_stats_avail_e5(&st), 5000000);
}

static const char *khist_text =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=cpu,duration.buckets=1000:vals=hitcount,duration:sort=hitcount:size=2048 [active]\n"
	"#\n"
	"\n"
	"{ cpu:          1, duration: ~ 2000-2999 } hitcount:          1  duration:       2500\n"
	"{ cpu:          0, duration: ~ 0-999 } hitcount:          5  duration:       3000\n"
	"{ cpu:          0, duration: ~ 1000-1999 } hitcount:          3  duration:       4500\n"
	"{ cpu:          1, duration: ~ 300000-300999 } hitcount:          2  duration:     600100\n"
	"\n"
	"Totals:\n"
	"    Hits: 11\n"
	"    Entries: 4\n"
	"    Dropped: 0\n";

TEST(khist_parse)
{
	struct osn_khist kh;
	const struct osn_khist_cpu *c;

	CHECK_EQ(osn_khist_parse(khist_text, 1000, &kh), 0);
	CHECK(kh.have_sum);
	CHECK_EQ(kh.hits, 11);
	CHECK_EQ(kh.entries, 4);
	CHECK_EQ(kh.dropped, 0);
	CHECK_EQ(kh.ncpus, 2);
	c = osn_khist_find(&kh, 0);
	CHECK(c && c->n == 2);
	if (c && c->n == 2) {
		CHECK_EQ(c->b[0].lo, 0);	/* sorted */
		CHECK_EQ(c->b[0].count, 5);
		CHECK_EQ(c->b[1].lo, 1000);
		CHECK_EQ(c->b[1].sum, 4500);
	}
	c = osn_khist_find(&kh, 1);
	CHECK(c && c->n == 2 && c->b[1].lo == 300000);
	CHECK(!osn_khist_find(&kh, 2));
	osn_khist_free(&kh);
}

/* 256 CPUs, each seen at several lines, in an order unrelated to the CPU */
TEST(khist_many_cpus)
{
	struct osn_khist kh = { .bucket_ns = 1000 };
	unsigned cpu = 0, added = 0, found = 0;

	for (unsigned i = 0; i < 3 * 256; i++) {
		cpu = (cpu + 97) % 256;		/* 97 is prime to 256 */
		added += !osn_khist_add(&kh, (int)cpu, 1000ULL * (i / 256),
					cpu + 1, 0);
	}
	CHECK_EQ(added, 3 * 256);
	CHECK_EQ(kh.ncpus, 256);
	for (int c = 0; c < 256; c++) {
		const struct osn_khist_cpu *kc = osn_khist_find(&kh, c);

		/* its own buckets, in CPU order */
		found += kc && kc->cpu == c && kc->n == 3 &&
			 kc->b[2].count == (uint64_t)c + 1 &&
			 (!c || kc[-1].cpu == c - 1);
	}
	CHECK_EQ(found, 256);
	CHECK(!osn_khist_find(&kh, 256));
	CHECK(!osn_khist_find(&kh, -1));
	osn_khist_free(&kh);
}

TEST(khist_parse_variants)
{
	struct osn_khist kh;
	/* keys in the other order, common_cpu, no sums, 6.x-style spacing */
	const char *t =
		"{ duration: ~ 5000-9999, common_cpu:          3 } hitcount:          7\n"
		"{ duration: ~ 0-4999, common_cpu:          3 } hitcount:          1\n"
		"Totals:\n    Hits: 8\n    Entries: 2\n    Dropped: 4\n";

	CHECK_EQ(osn_khist_parse(t, 5000, &kh), 0);
	CHECK(!kh.have_sum);
	CHECK_EQ(kh.dropped, 4);
	CHECK(kh.ncpus == 1 && kh.cpus[0].cpu == 3 && kh.cpus[0].n == 2);
	CHECK_EQ(kh.cpus[0].b[0].lo, 0);
	CHECK_EQ(kh.cpus[0].b[1].count, 7);
	osn_khist_free(&kh);

	/* empty histogram */
	CHECK_EQ(osn_khist_parse("# event histogram\n\nTotals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n",
				 1000, &kh), 0);
	CHECK_EQ(kh.ncpus, 0);
	osn_khist_free(&kh);

	/* junk */
	CHECK_EQ(osn_khist_parse("{ pid: 12 } hitcount: 3\n", 1000, &kh), -1);
	CHECK_HAS(osn_last_err(), "line 1");
	CHECK_EQ(osn_khist_parse("{ cpu: 1, duration: ~ 0-999 }\n", 1000, &kh), -1);
	CHECK_EQ(osn_khist_parse(NULL, 1000, &kh), -1);
}

TEST(percentiles)
{
	struct osn_khist kh = { .bucket_ns = 1000 };
	struct osn_hist h;
	int cpu = 0;

	/* 90 in [0, 1000), 9 in [1000, 2000), 1 in [2000, 3000), no sums */
	osn_khist_add(&kh, 0, 0, 90, 0);
	osn_khist_add(&kh, 0, 1000, 9, 0);
	osn_khist_add(&kh, 0, 2000, 1, 0);
	CHECK_EQ(osn_hist_build(&h, &kh, 256, &cpu, 1, NULL), 0);
	CHECK_EQ(h.pct_res_ns, 0);
	CHECK_EQ(h.cpus[0].pct[OSN_P50], 1000);
	CHECK(!h.cpus[0].pct_exact[OSN_P50]);
	CHECK_EQ(h.cpus[0].pct[OSN_P90], 1000);		/* rank 90 */
	CHECK_EQ(h.cpus[0].pct[OSN_P99], 2000);		/* rank 99 */
	CHECK_EQ(h.cpus[0].pct[OSN_P999], 2999);	/* rank 100, capped */
	CHECK(!h.cpus[0].pct_exact[OSN_P999]);		/* max is not known */
	osn_hist_free(&h);
	osn_khist_free(&kh);
}

/*
 * The case of the issue: -b 10 and every sample between 1 and 2 us.  The
 * display table alone says p50 < 10 us; the fine one (100 ns) says 1.5.
 */
TEST(percentiles_fine)
{
	struct osn_khist kh = { .bucket_ns = 10000, .have_sum = true };
	struct osn_khist fine = { .bucket_ns = 100, .have_sum = true };
	struct osn_exact x = { .samples = 101, .min = 1201, .max = 45000 };
	struct osn_hist h;
	int cpu = 0;

	/* 100 samples of [1.2, 2.2) us, 10 per 100 ns; one of 45 us */
	osn_khist_add(&kh, 0, 0, 100, 100 * 1700);
	osn_khist_add(&kh, 0, 40000, 1, 45000);
	for (uint64_t lo = 1200; lo < 2200; lo += 100)
		osn_khist_add(&fine, 0, lo, 10, 10 * (lo + 50));
	osn_khist_add(&fine, 0, 45000, 1, 45000);

	CHECK_EQ(osn_hist_build(&h, &kh, 12, &cpu, 1, &x), 0);
	CHECK_EQ(h.cpus[0].pct[OSN_P50], 10000);	/* the bucket's edge */
	CHECK(!h.cpus[0].pct_exact[OSN_P50]);
	CHECK_EQ(h.cpus[0].pct[OSN_P999], 45000);	/* the max itself */
	CHECK(h.cpus[0].pct_exact[OSN_P999]);
	osn_hist_free(&h);

	CHECK_EQ(osn_hist_build_fine(&h, &kh, &fine, 12, &cpu, 1, &x), 0);
	CHECK_EQ(h.pct_res_ns, 100);
	/* rank 51: the 1st of [1.7, 1.8) */
	CHECK_EQ(h.cpus[0].pct[OSN_P50], 1800);
	CHECK(h.cpus[0].pct_exact[OSN_P50]);
	CHECK_EQ(h.cpus[0].pct[OSN_P90], 2200);		/* rank 91 */
	CHECK_EQ(h.cpus[0].pct[OSN_P99], 2200);		/* rank 100 */
	CHECK(h.cpus[0].pct_exact[OSN_P99]);
	CHECK_EQ(h.cpus[0].pct[OSN_P999], 45000);
	osn_hist_free(&h);

	/* a fine table that missed a few samples still has the ranks */
	osn_khist_add(&fine, 0, 2100, -3ULL, 0);
	CHECK_EQ(osn_hist_build_fine(&h, &kh, &fine, 12, &cpu, 1, &x), 0);
	CHECK_EQ(h.cpus[0].pct[OSN_P50], 1700);		/* rank 49 of 98 */
	CHECK_EQ(h.cpus[0].pct_count, 98);
	CHECK(h.cpus[0].pct_exact[OSN_P50]);
	osn_hist_free(&h);

	/* a fine table that dropped samples (full): the display edges */
	fine.dropped = 1;
	CHECK_EQ(osn_hist_build_fine(&h, &kh, &fine, 12, &cpu, 1, &x), 0);
	CHECK_EQ(h.cpus[0].pct[OSN_P50], 10000);
	CHECK(!h.cpus[0].pct_exact[OSN_P50]);
	osn_hist_free(&h);
	fine.dropped = 0;

	/* fine buckets that do not divide the display ones are not used */
	fine.bucket_ns = 300;
	CHECK_EQ(osn_hist_build_fine(&h, &kh, &fine, 12, &cpu, 1, &x), 0);
	CHECK_EQ(h.pct_res_ns, 0);
	CHECK(!h.cpus[0].pct_exact[OSN_P50]);
	osn_hist_free(&h);
	osn_khist_free(&fine);
	osn_khist_free(&kh);
}

/* Two triggers on one event: each table read on its own. */
TEST(khist_parse_keys)
{
	static const char *two =
		"# event histogram\n"
		"#\n"
		"# trigger info: hist:keys=cpu,duration.buckets=1000:vals=hitcount,duration:sort=hitcount:size=2048 [active]\n"
		"#\n"
		"{ cpu:          0, duration: ~ 1000-1999 } hitcount:          3  duration:       4500\n"
		"\nTotals:\n    Hits: 3\n    Entries: 1\n    Dropped: 0\n"
		"\n# event histogram\n"
		"#\n"
		"# trigger info: hist:keys=duration.buckets=10,cpu:vals=hitcount,duration:sort=hitcount:size=8192 [active]\n"
		"#\n"
		"{ duration: ~ 1400-1409, cpu:          0 } hitcount:          1  duration:       1401\n"
		"{ duration: ~ 1500-1509, cpu:          0 } hitcount:          2  duration:       3001\n"
		"\nTotals:\n    Hits: 3\n    Entries: 2\n    Dropped: 7\n";
	struct osn_khist kh;
	const struct osn_khist_cpu *c;

	CHECK_EQ(osn_khist_parse_keys(two, 1000, "!duration", &kh), 0);
	c = osn_khist_find(&kh, 0);
	CHECK(c != NULL);
	CHECK_EQ(c->n, 1);
	CHECK_EQ(c->b[0].lo, 1000);
	CHECK_EQ(kh.dropped, 0);
	osn_khist_free(&kh);

	CHECK_EQ(osn_khist_parse_keys(two, 10, "duration", &kh), 0);
	c = osn_khist_find(&kh, 0);
	CHECK(c != NULL);
	CHECK_EQ(c->n, 2);
	CHECK_EQ(c->b[1].lo, 1500);
	CHECK_EQ(c->b[1].count, 2);
	CHECK_EQ(kh.dropped, 7);
	CHECK(kh.have_sum);
	osn_khist_free(&kh);
}

TEST(hist_build_exact)
{
	struct osn_khist kh;
	struct osn_hist h;
	struct osn_exact x[2] = { 0 };
	int cpus[] = { 0, 1 };
	struct osn_event e;

	e = fx_sample(0, 1, 1000000, 7500, 1800, 200, 8);
	osn_exact_add_sample(&x[0], &e);
	e = fx_sample(1, 1, 1000000, 300000, 300700, 2500, 3);
	osn_exact_add_sample(&x[1], &e);

	CHECK_EQ(osn_khist_parse(khist_text, 1000, &kh), 0);
	CHECK_EQ(osn_hist_build(&h, &kh, 256, cpus, 2, x), 0);
	CHECK_EQ(h.ncpus, 2);
	/* cpu 0 */
	CHECK_EQ(h.cpus[0].rows[0], 5);
	CHECK_EQ(h.cpus[0].rows[1], 3);
	CHECK_EQ(h.cpus[0].over, 0);
	CHECK_EQ(h.cpus[0].count, 8);
	CHECK_EQ(h.cpus[0].min, 200);
	CHECK(h.cpus[0].min_exact);
	CHECK_EQ(h.cpus[0].max, 1800);
	CHECK(h.cpus[0].max_exact);
	CHECK_EQ(h.cpus[0].avg, 938);		/* 7500 / 8, exact sum */
	CHECK(h.cpus[0].avg_exact);
	CHECK_EQ(h.cpus[0].pct[OSN_P50], 1000);
	CHECK_EQ(h.cpus[0].pct[OSN_P90], 1800);	/* 2000 capped to max */
	/* cpu 1: one sample in bucket 2, two past the 256 entries */
	CHECK_EQ(h.cpus[1].rows[2], 1);
	CHECK_EQ(h.cpus[1].over, 2);
	CHECK_EQ(h.cpus[1].count, 3);
	CHECK_EQ(h.cpus[1].min, 2500);		/* lone sample: its sum */
	CHECK(h.cpus[1].min_exact);
	CHECK_EQ(h.cpus[1].max, 300700);
	CHECK(h.cpus[1].max_exact);
	CHECK_EQ(h.cpus[1].avg, 200867);	/* 602600 / 3 */
	CHECK_EQ(h.cpus[1].pct[OSN_P50], 300700);
	CHECK_EQ(h.cpus[1].pct[OSN_P999], 300700);
	osn_hist_free(&h);

	/* a huge -E allocates only up to the last non-empty row */
	CHECK_EQ(osn_hist_build(&h, &kh, 9999999, cpus, 2, x), 0);
	CHECK_EQ(h.cpus[0].nrows, 2);
	CHECK_EQ(h.cpus[1].nrows, 301);
	CHECK_EQ(h.nrows, 301);
	CHECK_EQ(h.cpus[1].over, 0);
	CHECK_EQ(osn_hist_row(&h.cpus[1], 300), 2);
	CHECK_EQ(osn_hist_row(&h.cpus[0], 5000000), 0);
	osn_hist_free(&h);

	/* smaller entries: more in over */
	CHECK_EQ(osn_hist_build(&h, &kh, 1, cpus, 2, x), 0);
	CHECK_EQ(h.cpus[0].rows[0], 5);
	CHECK_EQ(h.cpus[0].over, 3);
	osn_hist_free(&h);
	osn_khist_free(&kh);
}

TEST(hist_build_inexact)
{
	struct osn_khist kh = { .bucket_ns = 1000 };
	struct osn_hist h;
	struct osn_exact x = { 0 };
	int cpu = 4;
	struct osn_exact xs[5] = { 0 };

	/* no sums; extremes outside the hist's buckets (edge periods) */
	osn_khist_add(&kh, 4, 3000, 10, 0);
	osn_khist_add(&kh, 4, 9000, 2, 0);
	x.samples = 12;
	x.noise = 12 * 5000;
	x.min = 1500;			/* below bucket 3000: clamped */
	x.max = 12000;			/* above bucket 9000: clamped */
	xs[4] = x;
	CHECK_EQ(osn_hist_build(&h, &kh, 256, &cpu, 1, xs), 0);
	CHECK_EQ(h.cpus[0].min, 3000);
	CHECK(!h.cpus[0].min_exact);
	CHECK_EQ(h.cpus[0].max, 9999);
	CHECK(!h.cpus[0].max_exact);
	CHECK_EQ(h.cpus[0].avg, 5000);
	CHECK(h.cpus[0].avg_exact);	/* same number of samples */
	osn_hist_free(&h);

	/* no exact values at all: bucket floors/ceilings, midpoint average */
	CHECK_EQ(osn_hist_build(&h, &kh, 256, &cpu, 1, NULL), 0);
	CHECK_EQ(h.cpus[0].min, 3000);
	CHECK_EQ(h.cpus[0].max, 9999);
	CHECK_EQ(h.cpus[0].avg, (10 * 3500 + 2 * 9500) / 12);
	CHECK(!h.cpus[0].avg_exact);
	osn_hist_free(&h);

	/* a CPU without samples */
	cpu = 2;
	CHECK_EQ(osn_hist_build(&h, &kh, 256, &cpu, 1, xs), 0);
	CHECK_EQ(h.cpus[0].count, 0);
	osn_hist_free(&h);
	osn_khist_free(&kh);
}

TEST(exact_samples)
{
	struct osn_exact x = { 0 };
	struct osn_event e;

	e = fx_sample(0, 1, 1000, 0, 0, 0, 0);
	osn_exact_add_sample(&x, &e);
	CHECK_EQ(x.samples, 0);
	e = fx_sample(0, 2, 1000, 30, 20, 10, 2);
	osn_exact_add_sample(&x, &e);
	e = fx_sample(0, 3, 1000, 9, 9, 9, 1);
	osn_exact_add_sample(&x, &e);
	CHECK_EQ(x.samples, 3);
	CHECK_EQ(x.noise, 39);
	CHECK_EQ(x.min, 9);
	CHECK_EQ(x.max, 20);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(top_stats);
	RUN(avail_edges);
	RUN(khist_parse);
	RUN(khist_many_cpus);
	RUN(khist_parse_variants);
	RUN(percentiles);
	RUN(percentiles_fine);
	RUN(khist_parse_keys);
	RUN(hist_build_exact);
	RUN(hist_build_inexact);
	RUN(exact_samples);
	return h_done(argv[0]);
}
