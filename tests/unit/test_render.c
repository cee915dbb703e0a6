// SPDX-License-Identifier: GPL-2.0
/* golden output of osn top, osn hist and the stop explanation */
#include "harness.h"
#include "render.h"
#include "scenarios.h"

static struct osn_params params;
static struct osn_cpu_stats stats[4];
static const int cpus2[] = { 0, 1 };

static void make_stats(void)
{
	struct osn_event e;

	memset(stats, 0, sizeof(stats));
	for (int p = 0; p < 3; p++) {
		e = fx_sample(0, p, 1000000000, 12345 + p * 1000, 2100 + p * 300,
			      1000, 5 + p);
		e.s.count[OSN_CLASS_IRQ] = 1002;
		e.s.time[OSN_CLASS_IRQ] = 8000 + p * 900;
		e.s.count[OSN_CLASS_SOFTIRQ] = 4;
		e.s.time[OSN_CLASS_SOFTIRQ] = 2000;
		e.s.count[OSN_CLASS_HW] = 1;
		e.s.time[OSN_CLASS_HW] = 2345 + p * 100;
		e.s.self = 4000 + p;
		osn_stats_add_sample(&stats[0], &e);
		e = fx_sample(1, p, 1000000000, 1234567, 1000123, 1200, 40);
		e.s.count[OSN_CLASS_IRQ] = 3000;
		e.s.time[OSN_CLASS_IRQ] = 1134000;
		e.s.count[OSN_CLASS_THREAD] = 12;
		e.s.time[OSN_CLASS_THREAD] = 100567;
		e.s.count[OSN_CLASS_NMI] = 1;
		e.s.time[OSN_CLASS_NMI] = 0;
		osn_stats_add_sample(&stats[1], &e);
	}
}

static void info_for(struct osn_report_info *info, uint64_t elapsed)
{
	memset(info, 0, sizeof(*info));
	info->params = &params;
	info->elapsed_s = elapsed;
	info->cpus_str = "0-1";
	info->threshold_us = 1;
}

static char *render_cmd(enum osn_cmd cmd, bool wide, uint64_t lost)
{
	struct osn_top_view v = { .stats = stats, .cpus = cpus2, .ncpus = 2 };
	struct osn_report_info info;
	struct h_buf b;

	memset(&params, 0, sizeof(params));
	params.cmd = cmd;
	params.wide = wide;
	info_for(&info, 3);
	info.events_lost = lost;
	osn_render_top(h_open(&b), &v, &info);
	return h_close(&b);
}

static char *render_top(bool wide, uint64_t lost)
{
	return render_cmd(OSN_CMD_TOP, wide, lost);
}

static int max_width(const char *t)
{
	int w = 0, cur = 0;

	for (; *t; t++) {
		if (*t == '\n') {
			if (cur > w)
				w = cur;
			cur = 0;
		} else {
			cur++;
		}
	}
	return w;
}

TEST(top_default)
{
	char *t;

	make_stats();
	t = render_top(false, 0);
	CHECK_GOLDEN("top.txt", t);
	CHECK_HAS(t, "duration:   0 00:00:03 | time is in us");
	CHECK(max_width(t) <= 80);
	free(t);
}

TEST(top_wide_and_lost)
{
	char *t;

	make_stats();
	t = render_top(true, 17);
	CHECK_GOLDEN("top-wide.txt", t);
	CHECK_HAS(t, "17 events lost, results may be inaccurate");
	free(t);
}

/* osn hwnoise: rtla hwnoise's title, HW and NMI only */
TEST(hwnoise)
{
	char *t;

	make_stats();
	t = render_cmd(OSN_CMD_HWNOISE, false, 0);
	CHECK_GOLDEN("hwnoise.txt", t);
	CHECK_HAS(t, "Hardware-related Noise");
	CHECK(!strstr(t, "IRQ") && !strstr(t, "Softirq") && !strstr(t, "Thread"));
	CHECK_HAS(t, "NMI us");
	free(t);
	t = render_cmd(OSN_CMD_HWNOISE, true, 0);
	CHECK_GOLDEN("hwnoise-wide.txt", t);
	CHECK(!strstr(t, "IRQ") && !strstr(t, "Thread"));
	CHECK_HAS(t, "Self us");
	free(t);
}

TEST(top_many_cpus_aligned)
{
	static struct osn_cpu_stats many[64];
	int cpus[64];
	struct osn_top_view v = { .stats = many, .cpus = cpus, .ncpus = 64 };
	struct osn_report_info info;
	struct h_buf b;
	char *t, *line, *save = NULL;
	size_t width = 0;
	int lines = 0;

	memset(&params, 0, sizeof(params));
	for (int c = 0; c < 64; c++) {
		struct osn_event e = fx_sample(c, 1, 1000000, c * 37, c, 1, c);

		memset(&many[c], 0, sizeof(many[c]));
		osn_stats_add_sample(&many[c], &e);
		cpus[c] = c;
	}
	info_for(&info, 1);
	osn_render_top(h_open(&b), &v, &info);
	t = h_close(&b);
	/* every row of the first table has the width of its header */
	for (line = strtok_r(t, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "CPU Period", 10))
			width = strlen(line);
		else if (width && strlen(line) > 0 && line[0] != 'C' &&
			 strstr(line, "#")) {
			CHECK_EQ(strlen(line), width);
			lines++;
		}
	}
	CHECK_EQ(lines, 65);	/* 64 CPUs + ALL */
	free(t);
}

TEST(top_no_data)
{
	struct osn_cpu_stats none[2] = { 0 };
	struct osn_top_view v = { .stats = none, .cpus = cpus2, .ncpus = 2 };
	struct osn_report_info info;
	struct h_buf b;
	char *t;

	memset(&params, 0, sizeof(params));
	info_for(&info, 0);
	osn_render_top(h_open(&b), &v, &info);
	t = h_close(&b);
	CHECK_GOLDEN("top-empty.txt", t);
	free(t);
}

static void make_hist(struct osn_hist *h)
{
	struct osn_khist kh = { .bucket_ns = 1000, .have_sum = true };
	struct osn_exact x[2] = { 0 };
	struct osn_event e;

	osn_khist_add(&kh, 0, 0, 10, 6000);
	osn_khist_add(&kh, 0, 2000, 3, 7500);
	osn_khist_add(&kh, 0, 9000, 1, 9876);
	osn_khist_add(&kh, 1, 1000, 100, 150000);
	osn_khist_add(&kh, 1, 20000, 2, 41000);
	e = fx_sample(0, 1, 1000000, 23376, 9876, 250, 14);
	osn_exact_add_sample(&x[0], &e);
	e = fx_sample(1, 1, 1000000, 191000, 20600, 1001, 102);
	osn_exact_add_sample(&x[1], &e);
	osn_hist_build(h, &kh, 10, cpus2, 2, x);
	osn_khist_free(&kh);
}

static char *render_hist(const struct osn_hist *h)
{
	struct osn_report_info info;
	struct h_buf b;

	info_for(&info, 10);
	osn_render_hist(h_open(&b), h, &info);
	return h_close(&b);
}

TEST(hist_default)
{
	struct osn_hist h;
	char *t;

	memset(&params, 0, sizeof(params));
	params.cmd = OSN_CMD_HIST;
	make_hist(&h);
	t = render_hist(&h);
	CHECK_GOLDEN("hist.txt", t);
	CHECK_HAS(t, "Index   CPU-000   CPU-001");
	free(t);

	params.with_zeros = true;
	t = render_hist(&h);
	CHECK_GOLDEN("hist-zeros.txt", t);
	free(t);

	memset(&params, 0, sizeof(params));
	params.no_index = true;
	params.no_header = true;
	t = render_hist(&h);
	CHECK_GOLDEN("hist-noindex-noheader.txt", t);
	free(t);

	memset(&params, 0, sizeof(params));
	params.no_summary = true;
	t = render_hist(&h);
	CHECK(!strstr(t, "count:"));
	CHECK_HAS(t, "over:");
	free(t);
	osn_hist_free(&h);
}

TEST(hist_empty)
{
	struct osn_khist kh = { .bucket_ns = 1000 };
	struct osn_hist h;
	char *t;

	memset(&params, 0, sizeof(params));
	osn_hist_build(&h, &kh, 10, cpus2, 2, NULL);
	t = render_hist(&h);
	CHECK_GOLDEN("hist-empty.txt", t);
	free(t);
	osn_hist_free(&h);
}

TEST(stop_single)
{
	struct osn_ring r;
	struct osn_event stop;
	struct osn_explanation x;
	struct h_buf b;
	char *t;

	scenario_single(&r, &stop);
	osn_explain(&r, &stop, OSN_STOP_SINGLE, 100000, &x);
	osn_render_stop(h_open(&b), &x);
	t = h_close(&b);
	CHECK_GOLDEN("stop-single.txt", t);
	CHECK_HAS(t, "osn hit stop tracing\n");
	CHECK_HAS(t, "local_timer:236");
	free(t);
	osn_ring_free(&r);
}

TEST(stop_causes)
{
	struct osn_ring r;
	struct osn_event stop;
	struct osn_explanation x;
	struct h_buf b;
	char *t;

	scenario_causes(&r, &stop);
	osn_explain(&r, &stop, OSN_STOP_SINGLE, 100000, &x);
	/* as osn_decoder_name_causes() names them from kallsyms */
	osn_strlcpy(x.parts[0].causes[0].function_name, "flush_tlb_func",
		    sizeof(x.parts[0].causes[0].function_name));
	osn_render_stop(h_open(&b), &x);
	t = h_close(&b);
	CHECK_HAS(t, "      <- ipi flush_tlb_func, sent by stress-ng:4711 on CPU 0 (x2)\n");
	CHECK_HAS(t, "      <- tlb (TLB shootdown), sent by stress-ng:4711 on CPU 0 (x1)\n");
	CHECK_HAS(t, "      <- wakeup, woken by [irq] on CPU 0 (x1)\n");
	/* not named: the address */
	CHECK_HAS(t, "      <- work 0xffffffff81002000, queued by [softirq] on CPU 0 (x1)\n");
	CHECK_HAS(t, "      <- ipi 0xffffffff81002000, origin unknown (x1)\n");
	free(t);
	osn_ring_free(&r);
}

TEST(stop_total)
{
	struct osn_ring r;
	struct osn_event stop;
	struct osn_explanation x;
	struct h_buf b;
	char *t;

	scenario_total(&r, &stop);
	osn_explain(&r, &stop, OSN_STOP_TOTAL, 150000, &x);
	osn_render_stop(h_open(&b), &x);
	t = h_close(&b);
	CHECK_GOLDEN("stop-total.txt", t);
	free(t);
	osn_ring_free(&r);
}

TEST(stop_unexplained)
{
	struct osn_explanation x;
	struct osn_event stop = fx_stop(3, 10, OSN_STOP_SINGLE, 999000, 500000);
	struct h_buf b;
	char *t;

	osn_render_stop(h_open(&b), NULL);
	t = h_close(&b);
	CHECK_STR(t, "osn hit stop tracing\n");
	free(t);

	memset(&x, 0, sizeof(x));
	osn_render_stop(h_open(&b), &x);
	t = h_close(&b);
	CHECK_HAS(t, "no osn:stop event");
	free(t);

	osn_explain(NULL, &stop, OSN_STOP_SINGLE, 500000, &x);
	osn_render_stop(h_open(&b), &x);
	t = h_close(&b);
	CHECK_HAS(t, "cpu 3: a single noise sample of 999.000 us > stop_tracing_us 500 us");
	CHECK_HAS(t, "not in osn's buffer");
	free(t);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(top_default);
	RUN(top_wide_and_lost);
	RUN(hwnoise);
	RUN(top_many_cpus_aligned);
	RUN(top_no_data);
	RUN(hist_default);
	RUN(hist_empty);
	RUN(stop_single);
	RUN(stop_causes);
	RUN(stop_total);
	RUN(stop_unexplained);
	return h_done(argv[0]);
}
