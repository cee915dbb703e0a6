// SPDX-License-Identifier: GPL-2.0
/*
 * osn timerlat top/hist: option parsing, the numbers, the rtla layouts
 * and the stop analysis.
 */
#include "harness.h"
#include "json_parse.h"
#include "osn/osn_abi.h"
#include "params.h"
#include "parse_line.h"
#include "render.h"
#include "tlat.h"

static struct osn_params p;

/* "osn timerlat ..." (argv[0] is the word before the options) */
static int parse(enum osn_cmd cmd, const char *line)
{
	return parse_line(&p, cmd, "timerlat", line);
}

TEST(options)
{
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, ""), 0);
	CHECK_EQ(p.tlat_period_us, OSN_DEFAULT_TIMERLAT_PERIOD_US);
	CHECK_EQ(osn_params_period_us(&p), OSN_DEFAULT_TIMERLAT_PERIOD_US);
	CHECK_EQ(p.stop_us, 0);
	CHECK_EQ(p.stop_total_us, 0);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-p 250 -i 40 -T 80 -c 1 -d 3 -q"), 0);
	CHECK_EQ(p.tlat_period_us, 250);
	CHECK_EQ(p.period_us, OSN_DEFAULT_PERIOD_US);	/* osnoise's: untouched */
	CHECK_EQ(p.stop_us, 40);
	CHECK_EQ(p.stop_total_us, 80);
	CHECK_EQ(p.threshold_us, 0);	/* -T is the thread's stop here */
	CHECK(p.quiet && p.have_cpus);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--irq 5 --thread 6"), 0);
	CHECK_EQ(p.stop_us, 5);
	CHECK_EQ(p.stop_total_us, 6);
	/* -a: both stops and the trace, a -t before it keeps its file */
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-a 30"), 0);
	CHECK_EQ(p.stop_us, 30);
	CHECK_EQ(p.stop_total_us, 30);
	CHECK_STR(p.trace_file, OSN_TRACE_FILE);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-tmine.txt -a 30"), 0);
	CHECK_STR(p.trace_file, "mine.txt");
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "-b 10 -E 20 --no-irq --with-zeros"),
		 0);
	CHECK_EQ(p.bucket_us, 10);
	CHECK_EQ(p.entries, 20);
	CHECK(p.no_irq && !p.no_thread && p.with_zeros);
}

/* rtla's --aa-only, --no-aa, --dump-tasks, -s, -n and the CPU tuning */
TEST(aa_and_tuning_options)
{
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, ""), 0);
	CHECK(!p.aa_only && !p.no_aa && !p.dump_tasks && !p.nano);
	CHECK_EQ(p.dma_latency_us, -1);
	CHECK(!p.have_idle_state);
	CHECK_EQ(p.stack_us, 0);
	/* --aa-only: -a's stops, quiet, no trace */
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--aa-only 5"), 0);
	CHECK(p.aa_only && p.quiet && !p.trace_file);
	CHECK_EQ(p.stop_us, 5);
	CHECK_EQ(p.stop_total_us, 5);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-T 10 --no-aa --dump-tasks"), 0);
	CHECK(p.no_aa && p.dump_tasks);
	/* -s/--stack: print_stack; -a sets it too */
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-s 3 -T 10 -t"), 0);
	CHECK_EQ(p.stack_us, 3);
	CHECK_EQ(p.stop_total_us, 10);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--stack 7"), 0);
	CHECK_EQ(p.stack_us, 7);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-a 40"), 0);
	CHECK_EQ(p.stack_us, 40);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "-n -i 2"), 0);
	CHECK(p.nano);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--nano"), 0);
	CHECK(p.nano);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--dma-latency 0"), 0);
	CHECK_EQ(p.dma_latency_us, 0);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--dma-latency 10000"), 0);
	CHECK_EQ(p.dma_latency_us, 10000);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--deepest-idle-state -1"), 0);
	CHECK(p.have_idle_state);
	CHECK_EQ(p.deepest_idle_state, -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--deepest-idle-state 2"), 0);
	CHECK_EQ(p.deepest_idle_state, 2);
}

TEST(bad_aa_and_tuning_options)
{
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--aa-only 5 --no-aa"), -1);
	CHECK_HAS(osn_last_err(), "--aa-only and --no-aa");
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--no-aa --aa-only 5"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--aa-only 5 -t"), -1);
	CHECK_HAS(osn_last_err(), "--aa-only prints the analysis only");
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--aa-only 0"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--aa-only 5"), -1);
	CHECK_STR(osn_last_err(), "--aa-only is an option of osn timerlat top");
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--dma-latency 10001"), -1);
	CHECK_HAS(osn_last_err(), "--dma-latency");
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--dma-latency -1"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--deepest-idle-state -2"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--deepest-idle-state x"), -1);
	/* timerlat's options are not osnoise's */
	CHECK_EQ(parse(OSN_CMD_TOP, "--dma-latency 5"), -1);
	CHECK_HAS(osn_last_err(), "is an option of osn timerlat");
	CHECK_EQ(parse(OSN_CMD_HIST, "--no-aa"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, "-n"), -1);
}

/* osnoise's options given to timerlat: one error naming them */
TEST(osnoise_options_refused)
{
	static const char *const refused[] = {
		"--runtime 100", "--threshold 5", "--stop 5", "--stop-total 5",
		"--report r.html", "--audit",
	};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char name[96];

		CHECK_EQ(parse(OSN_CMD_TLAT_TOP, refused[i]), -1);
		snprintf(name, sizeof(name), "%.*s is not an option of osn timerlat top",
			 (int)strcspn(refused[i], " "), refused[i]);
		CHECK_HAS(osn_last_err(), name);
		CHECK_HAS(osn_last_err(), "osn top, hist, hwnoise");
		CHECK_EQ(parse(OSN_CMD_TLAT_HIST, refused[i]), -1);
	}
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-r 100"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-S 100"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--wide"), -1);
	CHECK_STR(osn_last_err(), "--wide is an option of osn top");
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--causes"), -1);
	/* osnoise keeps them */
	CHECK_EQ(parse(OSN_CMD_TOP, "--stop 5 --threshold 2 --runtime 900000"), 0);
	CHECK_EQ(p.stop_us, 5);
	CHECK_EQ(p.threshold_us, 2);
}

/* --help: timerlat lists no osnoise option, osnoise no timerlat one */
TEST(help_lists_own_options)
{
	struct h_buf b;

	osn_usage(OSN_CMD_TLAT_TOP, h_open(&b));
	h_close(&b);
	CHECK(!strstr(b.text, "--runtime"));
	CHECK(!strstr(b.text, "--threshold"));
	CHECK(!strstr(b.text, "--stop "));
	CHECK(!strstr(b.text, "--stop-total"));
	CHECK(!strstr(b.text, "--report"));
	CHECK(!strstr(b.text, "--audit"));
	CHECK(!strstr(b.text, "noise sample"));
	CHECK(!strstr(b.text, "osn/N"));
	CHECK_HAS(b.text, "  -c, --cpus CPULIST");
	CHECK_HAS(b.text, "      --on-threshold ACTION");
	CHECK_HAS(b.text, "                             continue (go on;");
	CHECK_HAS(b.text, "      --aa-only US");
	CHECK_HAS(b.text, "      --dma-latency US");
	CHECK_HAS(b.text, "  -s, --stack US");
	CHECK_HAS(b.text, "  -p, --period US            timerlat's period");
	free(b.text);
	osn_usage(OSN_CMD_TLAT_HIST, h_open(&b));
	h_close(&b);
	CHECK(!strstr(b.text, "--aa-only"));
	CHECK(!strstr(b.text, "--stop-total"));
	CHECK_HAS(b.text, "--no-aa");
	free(b.text);
	osn_usage(OSN_CMD_TOP, h_open(&b));
	h_close(&b);
	CHECK_HAS(b.text, "  -r, --runtime US");
	CHECK_HAS(b.text, "  -s, --stop US");
	CHECK(!strstr(b.text, "--dma-latency"));
	free(b.text);
	/* the filter, by long name: an option and its continuation lines */
	osn_help_filter(h_open(&b),
			"  -a, --aa X    one\n"
			"                two\n"
			"      --bb      three\n"
			"  -c            four\n",
			(const char *const[]){ "aa", "bb", NULL });
	h_close(&b);
	CHECK_STR(b.text, "  -c            four\n");
	free(b.text);
}

/* -k (the default), -u, -U: who measures, and the module's options */
TEST(thread_options)
{
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, ""), 0);
	CHECK_EQ(p.tlat_threads, OSN_TLAT_KERNEL);
	CHECK_STR(p.options, OSN_OPT_WORKLOAD);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-k"), 0);
	CHECK_EQ(p.tlat_threads, OSN_TLAT_KERNEL);
	CHECK_STR(p.options, OSN_OPT_WORKLOAD);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-u -P f:90 -C"), 0);
	CHECK_EQ(p.tlat_threads, OSN_TLAT_USER);
	CHECK_STR(p.options, "NO_" OSN_OPT_WORKLOAD);
	CHECK_EQ(p.sched.policy, OSN_SCHED_FIFO);
	CHECK_EQ(p.sched.prio, 90);
	CHECK(p.cgroup && !p.cgroup_path);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--user-threads"), 0);
	CHECK_EQ(p.tlat_threads, OSN_TLAT_USER);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "-U"), 0);
	CHECK_EQ(p.tlat_threads, OSN_TLAT_USER_LOAD);
	CHECK_STR(p.options, "NO_" OSN_OPT_WORKLOAD);
}

TEST(bad_options)
{
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-p 50"), -1);
	CHECK_STR(osn_last_err(), "-p 50: timerlat's period must be 100..1000000 us");
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-p 1000001"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-p 100"), 0);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-S 10"), -1);
	CHECK_HAS(osn_last_err(), "-i and -T");
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-b 10"), -1);
	/* -P, -C: the timerlat/N threads, or -u's processes; not -U's */
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-P f:50"), 0);
	CHECK_EQ(p.sched.policy, OSN_SCHED_FIFO);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-P F:1 -c 0 -d 10s -q"), 0);
	CHECK_EQ(p.sched.prio, 1);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "-k -C"), 0);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "-C -U"), -1);
	CHECK_HAS(osn_last_err(), "not -U's");
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-U -P f:50"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "-u -k"), -1);
	CHECK_STR(osn_last_err(), "-k and -u: kernel or user threads, not both");
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--kernel-threads --user-load"), -1);
	CHECK_STR(osn_last_err(), "-k and -U: kernel or user threads, not both");
	CHECK_EQ(parse(OSN_CMD_TOP, "-u"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--report r.html"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--audit"), -1);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--no-irq --no-thread"), -1);
	CHECK_HAS(osn_last_err(), "nothing to show");
	CHECK_EQ(parse(OSN_CMD_TOP, "-i 5"), -1);
	CHECK_STR(osn_last_err(), "-i is an option of osn timerlat top");
}

static struct osn_event tl(int cpu, uint64_t ts, int ctx, uint64_t lat_ns,
			   unsigned seq)
{
	struct osn_event e = { .type = OSN_E_TLAT, .cpu = cpu, .ts = ts };

	e.tlat.context = ctx;
	e.tlat.latency = lat_ns;
	e.tlat.seqnum = seq;
	return e;
}

static struct osn_event noise(enum osn_ev_type type, uint64_t start,
			      uint64_t dur, int id, const char *name)
{
	struct osn_event e = { .type = type, .cpu = 1 };

	e.ts = start + dur;
	e.noise.start = start;
	e.noise.duration = dur;
	e.noise.id = id;
	snprintf(e.noise.name, sizeof(e.noise.name), "%s", name);
	return e;
}

static struct osn_event cause(int cls, uint64_t start, int kind,
			      const char *comm, int pid)
{
	struct osn_event e = { .type = OSN_E_CAUSE, .cpu = 1, .ts = start };

	e.cause.cls = cls;
	e.cause.start = start;
	e.cause.kind = kind;
	e.cause.origin_pid = pid;
	snprintf(e.cause.origin_comm, sizeof(e.cause.origin_comm), "%s", comm);
	return e;
}

static struct osn_tlat_cpu cpus[4];
static uint64_t bk[4][OSN_TLAT_NCTX][10];
static const int cpu_ids[] = { 0, 1 };

/*
 * CPU 1: IRQ 1,3,8 us; thread 5,9,40 us (40 over -E 10 of 1 us); back
 * from user 7 and 9 us (shown with -u/-U only)
 */
static void fill(void)
{
	static const uint64_t irq[] = { 1000, 3500, 8000 };
	static const uint64_t thr[] = { 5000, 9999, 40000 };
	static const uint64_t ret[] = { 7000, 9500 };
	struct osn_event e;

	memset(cpus, 0, sizeof(cpus));
	memset(bk, 0, sizeof(bk));
	for (int c = 0; c < 4; c++)
		for (int x = 0; x < OSN_TLAT_NCTX; x++)
			cpus[c].ctx[x].buckets = bk[c][x];
	for (int i = 0; i < 3; i++) {
		e = tl(1, 0, OSN_TLAT_CTX_IRQ, irq[i], i + 1);
		osn_tlat_add(&cpus[1], &e, 1, 10, 1000);
		e = tl(1, 0, OSN_TLAT_CTX_THREAD, thr[i], i + 1);
		osn_tlat_add(&cpus[1], &e, 1, 10, 1000);
		if (i < 2) {
			e = tl(1, 0, OSN_TLAT_CTX_USER_RET, ret[i], i + 1);
			osn_tlat_add(&cpus[1], &e, 1, 10, 1000);
		}
	}
}

TEST(stats)
{
	const struct osn_tlat_stat *s;

	fill();
	s = &cpus[1].ctx[OSN_TLAT_CTX_THREAD];
	CHECK_EQ(s->count, 3);
	CHECK_EQ(s->min, 5000);	/* exact, not a bucket's floor */
	CHECK_EQ(s->max, 40000);
	CHECK_EQ(s->sum, 54999);
	CHECK_EQ(s->cur, 40000);
	CHECK_EQ(s->buckets[5], 1);
	CHECK_EQ(s->buckets[9], 1);
	CHECK_EQ(s->over, 1);
	CHECK_EQ(cpus[1].ctx[OSN_TLAT_CTX_IRQ].buckets[3], 1);
	CHECK_EQ(cpus[0].ctx[0].count, 0);
}

static struct osn_report_info info(enum osn_cmd cmd)
{
	static struct osn_params pp;
	struct osn_report_info i = { .elapsed_s = 3723 };

	memset(&pp, 0, sizeof(pp));
	pp.cmd = cmd;
	pp.period_us = 1000000;
	pp.tlat_period_us = 250;
	i.params = &pp;
	return i;
}

TEST(top_layout)
{
	struct osn_tlat_view v = { .cpu = cpus, .cpus = cpu_ids, .ncpus = 2 };
	struct osn_report_info in = info(OSN_CMD_TLAT_TOP);
	struct h_buf b;

	fill();
	osn_render_tlat_top(h_open(&b), &v, &in);
	h_close(&b);
	/* CPU 0 has no sample: hidden, as rtla */
	CHECK_STR(b.text,
		  "                                     Timer Latency\n"
		  "  0 01:02:03   |          IRQ Timer Latency (us)        |         Thread Timer Latency (us)\n"
		  "CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max\n"
		  "  1 #3         |        8         1         4         8 |       40         5        18        40\n");
	free(b.text);
	/* -u/-U: rtla's Ret user columns */
	v.user = true;
	osn_render_tlat_top(h_open(&b), &v, &in);
	h_close(&b);
	CHECK_STR(b.text,
		  "                                     Timer Latency\n"
		  "  0 01:02:03   |          IRQ Timer Latency (us)        |         Thread Timer Latency (us)      |    Ret user Timer Latency (us)\n"
		  "CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max |      cur       min       avg       max\n"
		  "  1 #3         |        8         1         4         8 |       40         5        18        40 |        9         7         8         9\n");
	free(b.text);
}

TEST(hist_layout)
{
	struct osn_tlat_view v = {
		.cpu = cpus, .cpus = cpu_ids, .ncpus = 2, .bucket_us = 1,
		.entries = 10, .irq = true, .thread = true,
	};
	struct osn_report_info in = info(OSN_CMD_TLAT_HIST);
	struct h_buf b;

	fill();
	osn_render_tlat_hist(h_open(&b), &v, &in);
	h_close(&b);
	CHECK_STR(b.text,
		  "# osn timerlat histogram\n"
		  "# Time unit is microseconds (us)\n"
		  "# Duration:   0 01:02:03\n"
		  "Index   IRQ-001   Thr-001\n"
		  "1             1         0 \n"
		  "3             1         0 \n"
		  "5             0         1 \n"
		  "8             1         0 \n"
		  "9             0         1 \n"
		  "over:         0         1 \n"
		  "count:        3         3 \n"
		  "min:          1         5 \n"
		  "avg:       4.17     18.33 \n"
		  "max:          8        40 \n");
	free(b.text);
	v.irq = false;
	v.no_summary = true;
	v.no_header = true;
	osn_render_tlat_hist(h_open(&b), &v, &in);
	h_close(&b);
	CHECK_STR(b.text,
		  "5             1 \n"
		  "9             1 \n"
		  "over:         1 \n");
	free(b.text);
	/* -u/-U: a Usr column after the thread's */
	v.user = true;
	v.no_header = false;
	osn_render_tlat_hist(h_open(&b), &v, &in);
	h_close(&b);
	CHECK_HAS(b.text, "Index   Thr-001   Usr-001\n");
	CHECK_HAS(b.text, "7             0         1 \n");
	CHECK_HAS(b.text, "9             1         1 \n");
	free(b.text);
	/* --layout rows: a column per context, then the table */
	v.irq = true;
	v.no_summary = false;
	v.layout = OSN_LAYOUT_ROWS;
	osn_render_tlat_hist(h_open(&b), &v, &in);
	h_close(&b);
	CHECK(!strncmp(b.text, "# osn timerlat histogram\n", 25));
	CHECK_HAS(b.text,
		  "# Duration:   0 01:02:03\n"
		  "Index   IRQ-ALL   Thr-ALL   Usr-ALL\n"
		  "1             1         0         0 \n"
		  "3             1         0         0 \n"
		  "5             0         1         0 \n"
		  "7             0         0         1 \n"
		  "8             1         0         0 \n"
		  "9             0         1         1 \n"
		  "over:         0         1         0 \n"
		  "count:        3         3         2 \n"
		  "min:          1         5         7 \n"
		  "avg:       4.17     18.33      8.25 \n"
		  "max:          8        40         9 \n"
		  "\n"
		  "CPU ctx count min   avg max over\n"
		  "  1 IRQ     3   1  4.17   8    0\n"
		  "  1 Thr     3   5 18.33  40    1\n"
		  "  1 Usr     2   7  8.25   9    0\n"
		  "ALL IRQ     3   1  4.17   8    0\n"
		  "ALL Thr     3   5 18.33  40    1\n"
		  "ALL Usr     2   7  8.25   9    0\n");
	free(b.text);
}

/* -n: the same numbers in ns, rtla's unit lines */
TEST(nano_layout)
{
	struct osn_tlat_view v = { .cpu = cpus, .cpus = cpu_ids, .ncpus = 2,
				   .unit_ns = 1, .bucket_us = 1, .entries = 10,
				   .irq = true, .thread = true };
	struct osn_report_info in = info(OSN_CMD_TLAT_TOP);
	struct h_buf b;

	fill();
	osn_render_tlat_top(h_open(&b), &v, &in);
	h_close(&b);
	CHECK_HAS(b.text, "|          IRQ Timer Latency (ns)        |         Thread Timer Latency (ns)\n");
	CHECK(!strstr(b.text, "(us)"));
	free(b.text);
	osn_render_tlat_hist(h_open(&b), &v, &in);
	h_close(&b);
	CHECK_HAS(b.text, "# Time unit is nanoseconds (ns)\n");
	free(b.text);
}

/* hist's --layout: parsed as osn hist's, refused by timerlat top */
TEST(layout_option)
{
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, ""), 0);
	CHECK_EQ(p.layout, OSN_LAYOUT_AUTO);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--layout rows"), 0);
	CHECK_EQ(p.layout, OSN_LAYOUT_ROWS);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--layout=columns -u"), 0);
	CHECK_EQ(p.layout, OSN_LAYOUT_COLUMNS);
	CHECK_EQ(parse(OSN_CMD_TLAT_HIST, "--layout diagonal"), -1);
	CHECK_STR(osn_last_err(), "--layout 'diagonal': columns, rows or auto");
	CHECK_EQ(parse(OSN_CMD_TLAT_TOP, "--layout rows"), -1);
	CHECK_HAS(osn_last_err(), "--layout is an option of osn hist");
}

/* ALL: the sums, the min of the mins, the max of the maxes */
TEST(merge)
{
	uint64_t ba[10] = { 0, 2, 0, 1 }, bb[10] = { 0, 1, 5 };
	struct osn_tlat_stat a = { .count = 3, .cur = 7, .min = 1500,
				   .max = 3100, .sum = 6000, .buckets = ba };
	struct osn_tlat_stat b = { .count = 7, .cur = 9, .min = 1200,
				   .max = 40000, .sum = 90000, .buckets = bb,
				   .over = 1 };
	struct osn_tlat_stat all = { .buckets = (uint64_t[10]){ 0 } };
	struct osn_tlat_stat none = { 0 };

	osn_tlat_merge(&all, &none, 10);	/* no sample: no min of 0 */
	osn_tlat_merge(&all, &a, 10);
	CHECK_EQ(all.count, 3);
	CHECK_EQ(all.min, 1500);
	CHECK_EQ(all.max, 3100);
	osn_tlat_merge(&all, &none, 10);
	osn_tlat_merge(&all, &b, 10);
	CHECK_EQ(all.count, 10);
	CHECK_EQ(all.min, 1200);
	CHECK_EQ(all.max, 40000);
	CHECK_EQ(all.sum, 96000);
	CHECK_EQ(all.over, 1);
	CHECK_EQ(all.cur, 0);
	CHECK_EQ(all.buckets[1], 3);
	CHECK_EQ(all.buckets[2], 5);
	CHECK_EQ(all.buckets[3], 1);
	/* the other way round: a larger min does not replace a smaller */
	memset(all.buckets, 0, 10 * sizeof(uint64_t));
	all.count = all.sum = all.over = all.min = all.max = 0;
	osn_tlat_merge(&all, &b, 10);
	osn_tlat_merge(&all, &a, 10);
	CHECK_EQ(all.min, 1200);
	CHECK_EQ(all.max, 40000);
	/* top's stats have no buckets: the numbers only */
	osn_tlat_merge(&none, &b, 10);
	CHECK_EQ(none.count, 7);
	CHECK(!none.buckets);
}

#define MANY	20
static struct osn_tlat_cpu many[MANY];
static uint64_t many_bk[MANY][OSN_TLAT_NCTX][10];
static int many_ids[MANY];

/*
 * @n CPUs, -E 10 of 1 us (1000 ns with -n, @unit_ns 1): CPU c's IRQ
 * latency is 1 + c % 8 us and 200 ns, its thread's 3 us + c * 100 ns and
 * 20 + c us (over); CPU 0 has no sample (so that the first CPU's min is
 * not ALL's).  17 CPUs: IRQ 16 samples from 1.2 to 8.2 us, 2 in each
 * bucket 1..8; thread 32 from 3.1 to 36 us, 9 in bucket 3, 7 in bucket
 * 4, 16 over.
 */
static void fill_many(int n, unsigned unit_ns)
{
	struct osn_event e;

	memset(many, 0, sizeof(many));
	memset(many_bk, 0, sizeof(many_bk));
	for (int c = 0; c < n; c++) {
		many_ids[c] = c;
		for (int x = 0; x < OSN_TLAT_NCTX; x++)
			many[c].ctx[x].buckets = many_bk[c][x];
		if (!c)
			continue;
		e = tl(c, 0, OSN_TLAT_CTX_IRQ, (1 + c % 8) * 1000 + 200, 1);
		osn_tlat_add(&many[c], &e, 1000 / unit_ns, 10, unit_ns);
		e = tl(c, 0, OSN_TLAT_CTX_THREAD, 3000 + c * 100, 1);
		osn_tlat_add(&many[c], &e, 1000 / unit_ns, 10, unit_ns);
		e = tl(c, 0, OSN_TLAT_CTX_THREAD, 20000 + c * 1000, 2);
		osn_tlat_add(&many[c], &e, 1000 / unit_ns, 10, unit_ns);
	}
}

/* hist's view of @n of them, IRQ and thread, in us */
static struct osn_tlat_view many_view(int n, enum osn_layout layout)
{
	struct osn_tlat_view v = {
		.cpu = many, .cpus = many_ids, .ncpus = n, .bucket_us = 1,
		.entries = 10, .irq = true, .thread = true, .layout = layout,
	};

	fill_many(n, 1000);
	return v;
}

static char *render_many(int n, enum osn_layout layout)
{
	struct osn_tlat_view v = many_view(n, layout);
	struct osn_report_info in = info(OSN_CMD_TLAT_HIST);
	struct h_buf b;

	osn_render_tlat_hist(h_open(&b), &v, &in);
	return h_close(&b);
}

/*
 * The table's row of @cpu ("ALL" too) and @ctx in @text: its count, min,
 * avg, max and over as words; 0 when there is none.
 */
static int table_row_of(const char *text, const char *cpu, const char *ctx,
			char w[5][32])
{
	char a[32], b[32], x[5][32];
	int found = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l)
		if (sscanf(l, "%31s %31s %31s %31s %31s %31s %31s", a, b, x[0],
			   x[1], x[2], x[3], x[4]) == 7 &&
		    !strcmp(a, cpu) && !strcmp(b, ctx) && !found++)
			memcpy(w, x, sizeof(x));
	return found;
}

/* auto: rtla's columns up to 16 CPUs, rows beyond; --layout either way */
TEST(hist_layout_choice)
{
	char *t;

	t = render_many(16, OSN_LAYOUT_AUTO);
	CHECK_HAS(t, "Index   IRQ-001   Thr-001   IRQ-002");
	CHECK_HAS(t, "   IRQ-015   Thr-015\n");
	CHECK(!strstr(t, "ALL"));
	free(t);
	t = render_many(17, OSN_LAYOUT_AUTO);
	CHECK_HAS(t, "# osn timerlat histogram\n# Time unit is microseconds (us)\n");
	CHECK_HAS(t, "\nIndex   IRQ-ALL   Thr-ALL\n");
	CHECK(!strstr(t, "IRQ-0"));
	CHECK_HAS(t, "\n1             2         0 \n");
	CHECK_HAS(t, "\n3             2         9 \n");
	CHECK_HAS(t, "\n4             2         7 \n");
	CHECK_HAS(t, "\n6             2         0 \n");
	CHECK_HAS(t, "\nover:         0        16 \n"
		     "count:       16        32 \n"
		     "min:          1         3 \n");
	CHECK_HAS(t, "\nmax:          8        36 \n\nCPU ctx count");
	free(t);
	t = render_many(17, OSN_LAYOUT_COLUMNS);
	CHECK_HAS(t, "   IRQ-016   Thr-016\n");
	CHECK(!strstr(t, "ALL"));
	free(t);
	t = render_many(2, OSN_LAYOUT_ROWS);
	CHECK_HAS(t, "\nIndex   IRQ-ALL   Thr-ALL\n");
	CHECK(!strstr(t, "IRQ-0"));
	free(t);
}

/* rows: a row per (CPU, context) with samples, then ALL per context */
TEST(hist_rows_table)
{
	char w[5][32] = { { 0 } }, sum[32];
	uint64_t irq = 0;
	char *t;

	t = render_many(17, OSN_LAYOUT_AUTO);
	CHECK_HAS(t, "\nCPU ctx count min   avg max over\n");
	CHECK_EQ(table_row_of(t, "16", "Thr", w), 1);
	CHECK_STR(w[0], "2");
	CHECK_STR(w[1], "4");		/* 4.6 us */
	CHECK_STR(w[2], "20.30");
	CHECK_STR(w[3], "36");
	CHECK_STR(w[4], "1");
	CHECK_EQ(table_row_of(t, "0", "IRQ", w), 0);	/* no sample */
	CHECK_EQ(table_row_of(t, "0", "Thr", w), 0);
	CHECK_EQ(table_row_of(t, "ALL", "IRQ", w), 1);
	for (int c = 0; c < 17; c++)
		irq += !c ? 0 : (1 + c % 8) * 1000 + 200;
	snprintf(sum, sizeof(sum), "%.2f", irq / 16.0 / 1000);
	CHECK_STR(w[0], "16");		/* the CPUs' counts added */
	CHECK_STR(w[1], "1");		/* the min of the mins */
	CHECK_STR(w[2], sum);
	CHECK_STR(w[3], "8");		/* the max of the maxes */
	CHECK_STR(w[4], "0");
	CHECK_EQ(table_row_of(t, "ALL", "Thr", w), 1);
	CHECK_STR(w[0], "32");
	CHECK_STR(w[1], "3");
	CHECK_STR(w[3], "36");
	CHECK_STR(w[4], "16");
	CHECK_EQ(table_row_of(t, "ALL", "Usr", w), 0);	/* without -u */
	/* the last lines: ALL's */
	CHECK_HAS(t, "\n 16 Thr     2   4 20.30  36    1\n"
		     "ALL IRQ    16   1  4.70   8    0\n"
		     "ALL Thr    32   3 16.18  36   16\n");
	free(t);
}

/* rows: --no-header, --no-summary, --no-index, --with-zeros, -n */
TEST(hist_rows_options)
{
	struct osn_tlat_view v = many_view(17, OSN_LAYOUT_AUTO);
	struct osn_report_info in = info(OSN_CMD_TLAT_HIST);
	char w[5][32] = { { 0 } };
	struct h_buf b;
	int lines = 0;

	v.no_header = true;
	osn_render_tlat_hist(h_open(&b), &v, &in);
	h_close(&b);
	CHECK(!strchr(b.text, '#') && !strstr(b.text, "Index"));
	CHECK(!strstr(b.text, "CPU ctx"));
	CHECK_HAS(b.text, "\nALL IRQ    16");
	free(b.text);
	v.no_header = false;
	v.no_summary = true;
	osn_render_tlat_hist(h_open(&b), &v, &in);
	h_close(&b);
	CHECK_HAS(b.text, "Index   IRQ-ALL   Thr-ALL\n");
	CHECK_HAS(b.text, "\nover:         0        16 \n");
	CHECK(!strstr(b.text, "count:") && !strstr(b.text, "CPU ctx"));
	CHECK(!strstr(b.text, "ALL IRQ"));
	free(b.text);
	v.no_summary = false;
	v.no_index = true;
	v.with_zeros = true;
	osn_render_tlat_hist(h_open(&b), &v, &in);
	h_close(&b);
	CHECK(!strstr(b.text, "Index") && !strstr(b.text, "over:"));
	CHECK_HAS(b.text, "\n        0         0 \n");	/* bucket 0 */
	CHECK_HAS(b.text, "\nCPU ctx count");
	/* after the titles, -E 10 buckets' lines, over to max, a blank */
	for (const char *l = strstr(b.text, "IRQ-ALL"); l && *l && *l != '\n';
	     l = strchr(l, '\n'), l = l ? l + 1 : l)
		lines++;
	CHECK_EQ(lines, 1 + 10 + 5);
	free(b.text);
	/* -n: ns; -b 1000 */
	fill_many(17, 1);
	v.no_index = v.with_zeros = false;
	v.unit_ns = 1;
	v.bucket_us = 1000;
	osn_render_tlat_hist(h_open(&b), &v, &in);
	h_close(&b);
	CHECK_HAS(b.text, "# Time unit is nanoseconds (ns)\n");
	CHECK_HAS(b.text, "\n1000          2         0 \n");
	CHECK_HAS(b.text, "\nmin:       1200      3100 \n");
	CHECK_EQ(table_row_of(b.text, "ALL", "IRQ", w), 1);
	CHECK_STR(w[1], "1200");
	CHECK_STR(w[3], "8200");
	CHECK_EQ(table_row_of(b.text, "16", "Thr", w), 1);
	CHECK_STR(w[1], "4600");
	CHECK_STR(w[2], "20300.00");
	CHECK_STR(w[3], "36000");
	free(b.text);
}

/* JSON keeps its schema: the same bytes whatever the text's layout */
TEST(hist_json_any_layout)
{
	struct osn_tlat_view v = many_view(17, OSN_LAYOUT_COLUMNS);
	struct osn_report_info in = info(OSN_CMD_TLAT_HIST);
	struct h_buf a, b;

	osn_json_tlat(h_open(&a), &v, &in, NULL);
	h_close(&a);
	v.layout = OSN_LAYOUT_ROWS;
	osn_json_tlat(h_open(&b), &v, &in, NULL);
	h_close(&b);
	CHECK_STR(a.text, b.text);
	CHECK(!strstr(a.text, "ALL"));
	free(a.text);
	free(b.text);
}

/*
 * --dump-tasks: rtla's "Printing CPU tasks:", a line per measured CPU; a
 * kworker with its work's function, named or not; a CPU where no switch
 * was seen said so.
 */
TEST(tasks_layout)
{
	const struct osn_cpu_task tasks[] = {
		{ .cpu = 1, .pid = 42, .comm = "stress-ng" },
		{ .cpu = 2, .pid = 7, .comm = "kworker/2:1",
		  .work_fn = 0xffffffffc0001230ULL, .work = "inj_work_fn" },
		{ .cpu = 3, .pid = 8, .comm = "kworker/3:0H",
		  .work_fn = 0xffffffffc0004560ULL },
		{ .cpu = 4, .pid = 0, .comm = "swapper/4" },
		{ .cpu = 5, .pid = -1 },
	};
	struct h_buf b;

	osn_render_tlat_tasks(h_open(&b), tasks, ARRAY_SIZE(tasks));
	h_close(&b);
	CHECK_STR(b.text,
		  "Printing CPU tasks:\n"
		  "    [001]                stress-ng:42\n"
		  "    [002]              kworker/2:1:7 kworker:inj_work_fn\n"
		  "    [003]             kworker/3:0H:8 kworker:0xffffffffc0004560\n"
		  "    [004]                swapper/4:0\n"
		  "    [005]         (no switch seen)\n");
	free(b.text);
}

/* A cause of function @fn (0: none) from @comm:@pid on CPU @cpu. */
static struct osn_event cause_fn(int cls, uint64_t start, int kind,
				 uint64_t fn, const char *comm, int pid, int cpu)
{
	struct osn_event e = cause(cls, start, kind, comm, pid);

	e.cause.function = fn;
	e.cause.origin_cpu = cpu;
	return e;
}

/*
 * CPU 1: activation 7's timer expires at 1000000 and its thread runs
 * 300 us late.  The timer's interrupt began before the expiry and ran
 * another hrtimer's callback (0xa1) for 250 us before timerlat's own
 * (0xa2); then a softirq and a thread woken by waker:42 ran, and the
 * thread woken by waker2:43 was running at the expiry.  Activation 6
 * and noise outside the window do not count.
 */
TEST(analysis)
{
	struct osn_ring r;
	struct osn_tlat_aa aa;
	struct h_buf b;
	struct osn_event ev[] = {
		tl(1, 900000, OSN_TLAT_CTX_IRQ, 2000, 6),
		tl(1, 903000, OSN_TLAT_CTX_THREAD, 5000, 6),
		noise(OSN_E_IRQ, 905000, 3000, 33, "virtio0"),	/* before */
		cause_fn(OSN_CLASS_THREAD, 990000, OSN_CAUSE_WAKEUP, 0,
			 "waker2", 43, 0),
		noise(OSN_E_THREAD, 990000, 20000, 77, "hog"),	/* blocking */
		cause_fn(OSN_CLASS_IRQ, 995000, OSN_CAUSE_HRTIMER, 0xa1,
			 "unknown", -1, -1),
		cause_fn(OSN_CLASS_IRQ, 995000, OSN_CAUSE_HRTIMER, 0xa2,
			 "unknown", -1, -1),
		tl(1, 1250000, OSN_TLAT_CTX_IRQ, 250000, 7),
		noise(OSN_E_IRQ, 995000, 260000, 236, "local_timer"),
		noise(OSN_E_SOFTIRQ, 1260000, 25000, 7, ""),
		cause(OSN_CLASS_THREAD, 1290000, OSN_CAUSE_WAKEUP, "waker", 42),
		noise(OSN_E_THREAD, 1290000, 5000, 77, "hog"),
		tl(1, 1300000, OSN_TLAT_CTX_THREAD, 300000, 7),
		noise(OSN_E_IRQ, 1400000, 1000, 236, "local_timer"),	/* after */
	};

	CHECK_EQ(osn_ring_init(&r, 64), 0);
	CHECK_EQ(osn_tlat_analyze(&r, 1, 0, 100000, &aa), -1);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		osn_ring_push(&r, &ev[i]);
	CHECK_EQ(osn_tlat_analyze(&r, 1, 0, 400000, &aa), -1);
	CHECK_EQ(osn_tlat_analyze(&r, 1, 0, 100000, &aa), 0);
	CHECK_EQ(aa.seqnum, 7);
	CHECK(aa.have_irq && aa.have_thread);
	CHECK_EQ(aa.irq_ns, 250000);
	CHECK_EQ(aa.thread_ns, 300000);
	CHECK_EQ(aa.expiry, 1000000);
	/* held by the other callback: no delay, 5 us of timerlat's own */
	CHECK(aa.have_timer_irq);
	CHECK_EQ(aa.irq_delay, 0);
	CHECK_EQ(aa.timer_irq_ns, 5000);
	CHECK_EQ(aa.nparts, 4);
	/* the interrupt up to the IRQ sample, with the other callback only */
	CHECK_EQ(aa.parts[0].time, 250000);
	CHECK_EQ(aa.parts[0].ncauses, 1);
	CHECK_EQ(aa.parts[0].causes[0].c.function, 0xa1);
	CHECK(aa.blocking[1] && aa.parts[1].time == 10000);
	CHECK_EQ(aa.parts[2].cls, OSN_CLASS_SOFTIRQ);
	CHECK(!aa.blocking[3] && aa.parts[3].time == 5000);
	/* each thread with its own waker */
	CHECK_STR(aa.parts[1].causes[0].c.origin_comm, "waker2");
	CHECK_STR(aa.parts[3].causes[0].c.origin_comm, "waker");
	/* -i alone: the IRQ latency decides, the same activation */
	CHECK_EQ(osn_tlat_analyze(&r, 1, 100000, 0, &aa), 0);
	CHECK_EQ(aa.seqnum, 7);
	osn_strlcpy(aa.parts[0].causes[0].function_name, "inj_timer_fn",
		    sizeof(aa.parts[0].causes[0].function_name));
	osn_render_tlat_stop(h_open(&b), &aa);
	h_close(&b);
	CHECK_HAS(b.text, "## CPU 1 hit stop tracing, analyzing it ##\n"
			  "  IRQ handler delay:                         0.00 us (0.00 %)\n"
			  "  IRQ latency:                             250.00 us\n"
			  "  Timerlat IRQ duration:                     5.00 us (1.67 %)\n"
			  "  Blocking thread:                          10.00 us (3.33 %)\n"
			  "    hog:77                                  10.00 us\n"
			  "      <- wakeup, woken by waker2:43 on CPU 0 (x1)\n");
	CHECK_HAS(b.text, "  IRQ interference:                        250.00 us (83.33 %)\n"
			  "    local_timer:236                        250.00 us\n"
			  "      <- hrtimer inj_timer_fn, origin unknown (x1)\n");
	CHECK_HAS(b.text, "Softirq interference:");
	CHECK_HAS(b.text, "    SCHED:7 ");
	CHECK_HAS(b.text, "  Thread latency:                          300.00 us (100.00 %)\n");
	CHECK(!strstr(b.text, "virtio0"));
	CHECK(!strstr(b.text, "0xa2"));
	/* 300 us less the 295 us of noise */
	CHECK_HAS(b.text, "  Not in any noise event:                    5.00 us (1.67 %)\n");
	CHECK_HAS(b.text, "    hog:77                                   5.00 us\n"
			  "      <- wakeup, woken by waker:42 on CPU 0 (x1)\n");
	CHECK(!strstr(b.text, "stack trace"));
	free(b.text);
	/* -s: the timer interrupt's stack after the blocking thread, as rtla */
	aa.nframes = 2;
	osn_strlcpy(aa.frames[0], "osn_tlat_irq+0x42", sizeof(aa.frames[0]));
	osn_strlcpy(aa.frames[1], "inj_busy_wait+0x10", sizeof(aa.frames[1]));
	osn_render_tlat_stop(h_open(&b), &aa);
	h_close(&b);
	CHECK_HAS(b.text, "      <- wakeup, woken by waker2:43 on CPU 0 (x1)\n"
			  "  Blocking thread stack trace\n"
			  "               -> osn_tlat_irq+0x42\n"
			  "               -> inj_busy_wait+0x10\n"
			  "  IRQ interference:");
	free(b.text);
	osn_ring_free(&r);
}

/*
 * The timer's interrupt began 40 us after the expiry, 10 us of which an
 * NMI took: an IRQ handler delay of 30 us.  Its 5 us up to the IRQ
 * sample are interference, then 1 us timerlat's own, then another
 * callback (0xb1) ran its last 2 us: interference too.
 */
TEST(irq_delay)
{
	struct osn_ring r;
	struct osn_tlat_aa aa;
	struct h_buf b;
	struct osn_event ev[] = {
		noise(OSN_E_NMI, 2010000, 10000, 0, ""),
		tl(1, 2045000, OSN_TLAT_CTX_IRQ, 45000, 9),
		cause_fn(OSN_CLASS_IRQ, 2040000, OSN_CAUSE_HRTIMER, 0xb1,
			 "unknown", -1, -1),
		noise(OSN_E_IRQ, 2040000, 8000, 236, "local_timer"),
		tl(1, 2050000, OSN_TLAT_CTX_THREAD, 50000, 9),
	};

	ev[2].ts = 2046000;	/* the other callback began then */
	CHECK_EQ(osn_ring_init(&r, 16), 0);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		osn_ring_push(&r, &ev[i]);
	CHECK_EQ(osn_tlat_analyze(&r, 1, 0, 50000, &aa), 0);
	CHECK(aa.have_timer_irq);
	CHECK_EQ(aa.irq_delay, 30000);
	CHECK_EQ(aa.timer_irq_ns, 1000);
	CHECK_EQ(aa.nparts, 2);
	CHECK_EQ(aa.parts[0].time, 7000);
	CHECK_EQ(aa.parts[0].ncauses, 1);
	CHECK_EQ(aa.parts[0].causes[0].c.function, 0xb1);
	CHECK_EQ(aa.parts[1].cls, OSN_CLASS_NMI);
	osn_render_tlat_stop(h_open(&b), &aa);
	h_close(&b);
	CHECK_HAS(b.text, "  IRQ handler delay:                        30.00 us (60.00 %)\n");
	CHECK_HAS(b.text, "  NMI interference:                         10.00 us (20.00 %)\n"
			  "    nmi ");
	/* the delay and the 2 us after the interrupt */
	CHECK_HAS(b.text, "  Not in any noise event:                   32.00 us (64.00 %)\n");
	free(b.text);
	/* an IRQ stop: the interrupt's event never came, no delay shown */
	osn_ring_free(&r);
	CHECK_EQ(osn_ring_init(&r, 16), 0);
	osn_ring_push(&r, &ev[0]);
	osn_ring_push(&r, &ev[1]);
	CHECK_EQ(osn_tlat_analyze(&r, 1, 40000, 0, &aa), 0);
	CHECK(!aa.have_timer_irq && !aa.have_thread);
	osn_render_tlat_stop(h_open(&b), &aa);
	h_close(&b);
	CHECK(!strstr(b.text, "IRQ handler delay"));
	CHECK_HAS(b.text, "  IRQ latency:                              45.00 us (100.00 %)\n");
	free(b.text);
	osn_ring_free(&r);
}

/*
 * An IRQ stop inside an interrupt that another callback (0xa1) held for
 * 250 us past the expiry: the interrupt has no event yet, its causes
 * name the callback; timerlat's own (0xa2) is not listed.
 */
TEST(irq_stop_held)
{
	struct osn_ring r;
	struct osn_tlat_aa aa;
	struct h_buf b;
	struct osn_event ev[] = {
		cause_fn(OSN_CLASS_IRQ, 995000, OSN_CAUSE_HRTIMER, 0xa1,
			 "unknown", -1, -1),
		cause_fn(OSN_CLASS_IRQ, 995000, OSN_CAUSE_HRTIMER, 0xa2,
			 "unknown", -1, -1),
		tl(1, 1250000, OSN_TLAT_CTX_IRQ, 250000, 7),
	};

	CHECK_EQ(osn_ring_init(&r, 16), 0);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		osn_ring_push(&r, &ev[i]);
	CHECK_EQ(osn_tlat_analyze(&r, 1, 100000, 0, &aa), 0);
	CHECK(aa.have_timer_irq && !aa.have_thread);
	CHECK_EQ(aa.irq_delay, 0);
	CHECK_EQ(aa.nparts, 1);
	CHECK_EQ(aa.parts[0].time, 250000);
	CHECK_EQ(aa.parts[0].ncauses, 1);
	CHECK_EQ(aa.parts[0].causes[0].c.function, 0xa1);
	osn_render_tlat_stop(h_open(&b), &aa);
	h_close(&b);
	CHECK_HAS(b.text, "  IRQ interference:                        250.00 us (100.00 %)\n"
			  "    (running at the stop)                  250.00 us\n"
			  "      <- hrtimer 0xa1, origin unknown (x1)\n");
	free(b.text);
	osn_ring_free(&r);
}

/* One JSON value: CPU 1's thread numbers in us, the stop's analysis. */
TEST(json)
{
	struct osn_tlat_view v = {
		.cpu = cpus, .cpus = cpu_ids, .ncpus = 2, .bucket_us = 1,
		.entries = 10, .irq = true, .thread = true,
	};
	struct osn_report_info in = info(OSN_CMD_TLAT_HIST);
	struct osn_tlat_aa aa = {
		.cpu = 1, .seqnum = 7, .have_thread = true, .thread_ns = 300000,
		.have_timer_irq = true, .irq_delay = 12000, .nparts = 1,
		.parts = { { .cls = OSN_CLASS_IRQ, .id = 236,
			     .name = "local_timer", .count = 1, .time = 250000,
			     .ncauses = 1,
			     .causes = { { .c = { .kind = OSN_CAUSE_HRTIMER,
						  .origin_cpu = -1,
						  .origin_pid = -1 },
					   .count = 1,
					   .function_name = "inj_timer_fn" } } } },
	};
	struct json_object *doc, *c, *x;
	struct h_buf b;

	fill();
	osn_json_tlat(h_open(&b), &v, &in, &aa);
	h_close(&b);
	doc = h_json_parse(b.text);
	CHECK(doc != NULL);
	if (doc && json_object_object_get_ex(doc, "cpus", &c)) {
		CHECK_EQ(json_object_array_length(c), 2);
		c = json_object_array_get_idx(c, 1);
		CHECK(json_object_object_get_ex(c, "thread", &x));
		CHECK_EQ(json_object_get_int(json_object_object_get(x, "count")), 3);
		CHECK(json_object_get_double(json_object_object_get(x, "max")) == 40.0);
		CHECK_EQ(json_object_get_int(json_object_object_get(x, "over")), 1);
	}
	CHECK_HAS(b.text, "\"tool\": \"osn timerlat hist\"");
	CHECK_HAS(b.text, "\"name\": \"local_timer\"");
	CHECK_HAS(b.text, "\"irq_latency\": null");
	CHECK_HAS(b.text, "\"irq_handler_delay\": 12.000");
	CHECK_HAS(b.text, "\"function\": \"inj_timer_fn\"");
	CHECK_HAS(b.text, "\"blocking\": false");
	CHECK_HAS(b.text, "\"stack\": [");
	CHECK_HAS(b.text, "\"period_us\": 250,");
	CHECK(!strstr(b.text, "\"user\""));
	json_object_put(doc);
	free(b.text);
	/* -u/-U: the return from user too */
	v.user = true;
	osn_json_tlat(h_open(&b), &v, &in, NULL);
	h_close(&b);
	doc = h_json_parse(b.text);
	CHECK(doc != NULL);
	if (doc && json_object_object_get_ex(doc, "cpus", &c)) {
		c = json_object_array_get_idx(c, 1);
		CHECK(json_object_object_get_ex(c, "user", &x));
		CHECK_EQ(json_object_get_int(json_object_object_get(x, "count")), 2);
		CHECK(json_object_get_double(json_object_object_get(x, "min")) == 7.0);
	}
	json_object_put(doc);
	free(b.text);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(options);
	RUN(thread_options);
	RUN(bad_options);
	RUN(aa_and_tuning_options);
	RUN(bad_aa_and_tuning_options);
	RUN(osnoise_options_refused);
	RUN(help_lists_own_options);
	RUN(stats);
	RUN(top_layout);
	RUN(hist_layout);
	RUN(nano_layout);
	RUN(layout_option);
	RUN(merge);
	RUN(hist_layout_choice);
	RUN(hist_rows_table);
	RUN(hist_rows_options);
	RUN(hist_json_any_layout);
	RUN(tasks_layout);
	RUN(analysis);
	RUN(irq_delay);
	RUN(irq_stop_held);
	RUN(json);
	osn_params_free(&p);
	return h_done(argv[0]);
}
