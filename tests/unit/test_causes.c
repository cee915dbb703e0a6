// SPDX-License-Identifier: GPL-2.0
/* osn top --causes: causes linked to their noise, culprits ranked by time */
#include "harness.h"
#include "fixtures.h"
#include "causes.h"
#include "json_parse.h"
#include "render.h"

#define FN_A	0xffffffff81000100ULL
#define FN_B	0xffffffff81000200ULL

static void feed(struct osn_causes *cs, struct osn_event e)
{
	osn_causes_event(cs, &e);
}

/*
 * cpu 1: two kworker runs, each woken and its work queued by src:10 on
 * CPU 0 (two culprits, 2 x 5000 ns each); an IPI from src on FN_B (300
 * ns); a cause whose noise never comes; a noise without a cause.
 */
static void scenario(struct osn_causes *cs)
{
	CHECK_EQ(osn_causes_init(cs, 4), 0);
	for (int i = 0; i < 2; i++) {
		uint64_t st = 1000 + i * 1000;

		feed(cs, fx_cause(1, st + 1, OSN_CAUSE_WAKEUP, OSN_CLASS_THREAD,
				  st, 0, 0, 10, "src"));
		feed(cs, fx_cause(1, st + 2, OSN_CAUSE_WORK, OSN_CLASS_THREAD,
				  st, FN_A, 0, 10, "src"));
		/* an IRQ inside the kworker, with a cause of its own */
		feed(cs, fx_cause(1, st + 3, OSN_CAUSE_IPI, OSN_CLASS_IRQ,
				  st + 3, FN_B, 0, 10, "src"));
		feed(cs, fx_noise(OSN_E_IRQ, 1, st + 4, st + 3, 150, 251,
				  "call_function_single"));
		feed(cs, fx_noise(OSN_E_THREAD, 1, st + 9, st, 5000, 45,
				  "kworker/1:1"));
	}
	/* never linked: its noise (start 7777) does not come */
	feed(cs, fx_cause(1, 5000, OSN_CAUSE_TIMER, OSN_CLASS_SOFTIRQ, 7777,
			  FN_A, -1, -1, "unknown"));
	/* a noise of the same start but another class: not its cause's */
	feed(cs, fx_noise(OSN_E_IRQ, 1, 5001, 7777, 99, 236, "local_timer"));
	/* another CPU keeps its own */
	feed(cs, fx_cause(2, 6000, OSN_CAUSE_HRTIMER, OSN_CLASS_IRQ, 6000,
			  FN_B, -1, -1, "unknown"));
	feed(cs, fx_noise(OSN_E_IRQ, 2, 6001, 6000, 42, 236, "local_timer"));
	osn_causes_sort(cs);
}

TEST(link_and_rank)
{
	struct osn_causes cs;
	const struct osn_cpu_causes *c1;

	scenario(&cs);
	c1 = &cs.cpu[1];
	CHECK_EQ(c1->n, 3);
	/* wakeup and work both took part in the two kworker runs */
	CHECK_EQ(c1->culprits[0].time, 10000);
	CHECK_EQ(c1->culprits[0].count, 2);
	CHECK_EQ(c1->culprits[1].time, 10000);
	CHECK(c1->culprits[0].c.kind != c1->culprits[1].c.kind);
	CHECK_EQ(c1->culprits[2].c.kind, OSN_CAUSE_IPI);
	CHECK_EQ(c1->culprits[2].c.function, FN_B);
	CHECK_EQ(c1->culprits[2].time, 300);
	CHECK_EQ(c1->culprits[2].count, 2);
	/* the timer cause still waits: its noise never came */
	CHECK_EQ(c1->npending, 1);
	CHECK_EQ(cs.cpu[2].n, 1);
	CHECK_EQ(cs.cpu[2].culprits[0].time, 42);
	CHECK_EQ(cs.cpu[0].n, 0);
	osn_causes_free(&cs);
}

/*
 * The tick's hrtimer named twice in one interrupt (it ran again after a
 * long callback): one noise for it, not two; the callback's once too.
 */
TEST(same_culprit_once_a_noise)
{
	struct osn_causes cs;
	const struct osn_cpu_causes *c1;

	CHECK_EQ(osn_causes_init(&cs, 4), 0);
	feed(&cs, fx_cause(1, 101, OSN_CAUSE_HRTIMER, OSN_CLASS_IRQ, 100,
			   FN_A, -1, -1, "unknown"));
	feed(&cs, fx_cause(1, 102, OSN_CAUSE_HRTIMER, OSN_CLASS_IRQ, 100,
			   FN_B, -1, -1, "unknown"));
	feed(&cs, fx_cause(1, 103, OSN_CAUSE_HRTIMER, OSN_CLASS_IRQ, 100,
			   FN_A, -1, -1, "unknown"));
	feed(&cs, fx_noise(OSN_E_IRQ, 1, 104, 100, 20000, 236, "local_timer"));
	osn_causes_sort(&cs);
	c1 = &cs.cpu[1];
	CHECK_EQ(c1->n, 2);
	CHECK_EQ(c1->npending, 0);
	for (size_t k = 0; k < c1->n; k++) {
		CHECK_EQ(c1->culprits[k].count, 1);
		CHECK_EQ(c1->culprits[k].time, 20000);
	}
	osn_causes_free(&cs);
}

TEST(pending_overflow)
{
	struct osn_causes cs;

	CHECK_EQ(osn_causes_init(&cs, 2), 0);
	for (int i = 0; i < OSN_CAUSES_PENDING + 5; i++)
		feed(&cs, fx_cause(1, i, OSN_CAUSE_TIMER, OSN_CLASS_SOFTIRQ,
				   100 + i, FN_A, 0, 1, "x"));
	CHECK_EQ(cs.cpu[1].npending, OSN_CAUSES_PENDING);
	CHECK_EQ(cs.cpu[1].unlinked, 5);
	/* the newest still links */
	feed(&cs, fx_noise(OSN_E_SOFTIRQ, 1, 999, 100 + OSN_CAUSES_PENDING + 4,
			   77, 1, NULL));
	CHECK_EQ(cs.cpu[1].n, 1);
	CHECK_EQ(cs.cpu[1].culprits[0].time, 77);
	CHECK_EQ(cs.cpu[1].npending, OSN_CAUSES_PENDING - 1);
	/* the oldest were overwritten: their noise finds nothing */
	feed(&cs, fx_noise(OSN_E_SOFTIRQ, 1, 1000, 100, 55, 1, NULL));
	CHECK_EQ(cs.cpu[1].culprits[0].count, 1);
	osn_causes_free(&cs);
}

TEST(render)
{
	struct osn_causes cs;
	int cpus[] = { 1, 2, 3 };
	struct h_buf b;
	char *t;

	scenario(&cs);
	for (size_t k = 0; k < cs.cpu[1].n; k++)
		if (cs.cpu[1].culprits[k].c.function == FN_A)
			osn_strlcpy(cs.cpu[1].culprits[k].function_name,
				    "vmstat_update",
				    sizeof(cs.cpu[1].culprits[k].function_name));
	osn_render_causes(h_open(&b), &cs, cpus, 3, 10);
	t = h_close(&b);
	CHECK_HAS(t, "  cpu 1:\n");
	CHECK_HAS(t, "    work     vmstat_update                src:10 (CPU 0)                         2         10.000\n");
	CHECK_HAS(t, "    wakeup   -                            src:10 (CPU 0)                         2         10.000\n");
	CHECK_HAS(t, "    ipi      0xffffffff81000200           src:10 (CPU 0)                         2          0.300\n");
	CHECK_HAS(t, "    hrtimer  0xffffffff81000200           unknown                                1          0.042\n");
	CHECK_HAS(t, "  cpu 3: (no cause recorded)\n");
	free(t);
	/* at most 2 a CPU */
	osn_render_causes(h_open(&b), &cs, cpus, 1, 2);
	t = h_close(&b);
	CHECK_HAS(t, "    (1 more)\n");
	free(t);
	osn_causes_free(&cs);
}

/*
 * osn hist --causes: 1 us buckets, 10 entries.  CPU 1: culprit A (work
 * FN_A from src:10 on CPU 0) in noises of 2000, 2100, 2999, 3500 and
 * 15000 ns (over); culprit B (ipi FN_B from src:10) in 999 and 1000 ns
 * (the edge: buckets 0 and 1) and 10000 ns (the first over); a noise
 * with both causes counts for each.
 */
static void hist_scenario(struct osn_causes *cs)
{
	static const uint64_t a[] = { 2000, 2100, 2999, 3500, 15000 };
	static const uint64_t b[] = { 999, 1000, 10000 };
	uint64_t ts = 100;

	CHECK_EQ(osn_causes_init(cs, 2), 0);
	osn_causes_set_hist(cs, 1000, 10);
	for (size_t i = 0; i < ARRAY_SIZE(b); i++, ts += 100) {
		feed(cs, fx_cause(1, ts, OSN_CAUSE_IPI, OSN_CLASS_IRQ, ts,
				  FN_B, 0, 10, "src"));
		feed(cs, fx_noise(OSN_E_IRQ, 1, ts + 1, ts, b[i], 251,
				  "call_function_single"));
	}
	for (size_t i = 0; i < ARRAY_SIZE(a); i++, ts += 100) {
		feed(cs, fx_cause(1, ts, OSN_CAUSE_WORK, OSN_CLASS_THREAD, ts,
				  FN_A, 0, 10, "src"));
		feed(cs, fx_noise(OSN_E_THREAD, 1, ts + 1, ts, a[i], 45,
				  "kworker/1:1"));
	}
	osn_causes_sort(cs);
}

TEST(culprit_hist)
{
	struct osn_causes cs;
	const struct osn_cpu_causes *c1;
	struct osn_hist h;

	hist_scenario(&cs);
	c1 = &cs.cpu[1];
	CHECK_EQ(c1->n, 2);
	/* sorted by time: A (25599 ns) first, though it came second */
	CHECK_EQ(c1->culprits[0].c.function, FN_A);
	CHECK_EQ(c1->culprits[0].id, 1);
	CHECK_EQ(osn_causes_hist(&cs, c1, 0, &h), 0);
	CHECK_EQ(h.ncpus, 2);
	CHECK_EQ(h.bucket_ns, 1000);
	CHECK_EQ(h.entries, 10);
	/* A: buckets 2 (x3) and 3, one over */
	CHECK_EQ(h.cpus[0].count, 5);
	CHECK_EQ(osn_hist_row(&h.cpus[0], 1), 0);
	CHECK_EQ(osn_hist_row(&h.cpus[0], 2), 3);
	CHECK_EQ(osn_hist_row(&h.cpus[0], 3), 1);
	CHECK_EQ(h.cpus[0].over, 1);
	CHECK_EQ(h.cpus[0].nrows, 4);
	CHECK_EQ(h.cpus[0].min, 2000);
	CHECK_EQ(h.cpus[0].max, 15000);	/* exact, though over */
	CHECK(h.cpus[0].max_exact);
	CHECK_EQ(h.cpus[0].avg, 5120);	/* 25599 / 5, rounded */
	/* B: 999 in bucket 0, 1000 in bucket 1, 10000 = entries x bucket: over */
	CHECK_EQ(h.cpus[1].count, 3);
	CHECK_EQ(osn_hist_row(&h.cpus[1], 0), 1);
	CHECK_EQ(osn_hist_row(&h.cpus[1], 1), 1);
	CHECK_EQ(h.cpus[1].over, 1);
	CHECK_EQ(h.cpus[1].min, 999);
	CHECK_EQ(h.cpus[1].max, 10000);
	CHECK_EQ(h.nrows, 4);
	osn_hist_free(&h);
	/* the top one only */
	CHECK_EQ(osn_causes_hist(&cs, c1, 1, &h), 0);
	CHECK_EQ(h.ncpus, 1);
	CHECK_EQ(h.cpus[0].count, 5);
	osn_hist_free(&h);
	/* a CPU without culprits: an empty table */
	CHECK_EQ(osn_causes_hist(&cs, &cs.cpu[0], 5, &h), 0);
	CHECK_EQ(h.ncpus, 0);
	osn_hist_free(&h);
	osn_causes_free(&cs);
}

/* osn top --causes keeps no histogram */
TEST(no_hist_by_default)
{
	struct osn_causes cs;

	scenario(&cs);
	CHECK_EQ(cs.cpu[1].hist.ncpus, 0);
	osn_causes_free(&cs);
}

static void hist_info(struct osn_report_info *info, struct osn_params *p,
		      const struct osn_causes *cs, const int *cpus, size_t n)
{
	memset(info, 0, sizeof(*info));
	memset(p, 0, sizeof(*p));
	p->cmd = OSN_CMD_HIST;
	p->bucket_us = 1;
	p->entries = 10;
	info->params = p;
	info->causes = cs;
	info->cpus = cpus;
	info->ncpus = n;
	info->cpus_str = "0-1";
}

/* the text: one table per CPU, rows = buckets, a column a culprit */
TEST(culprit_hist_render)
{
	static const int cpus[] = { 0, 1 };
	struct osn_report_info info;
	struct osn_params p;
	struct osn_causes cs;
	struct h_buf b;
	char *t;

	hist_scenario(&cs);
	osn_strlcpy(cs.cpu[1].culprits[0].function_name, "inj_work_fn",
		    sizeof(cs.cpu[1].culprits[0].function_name));
	hist_info(&info, &p, &cs, cpus, 2);
	osn_render_hist_causes(h_open(&b), &cs, &info, 5);
	t = h_close(&b);
	CHECK_GOLDEN("hist-causes.txt", t);
	CHECK_HAS(t, "#   cause-1: work inj_work_fn <- src:10 (CPU 0)\n");
	CHECK_HAS(t, "#   cause-2: ipi 0xffffffff81000200 <- src:10 (CPU 0)\n");
	CHECK_HAS(t, "# cpu 0: no cause recorded\n");
	CHECK_HAS(t, "Index   cause-1   cause-2\n");
	CHECK_HAS(t, "\n2             3         0 \n");
	CHECK_HAS(t, "over:         1         1 \n");
	CHECK_HAS(t, "max:     15.000    10.000 \n");
	CHECK(!strstr(t, "p50:"));
	free(t);

	/* --causes=1: the top one; no header, no index, with zeros */
	p.no_header = p.no_index = p.with_zeros = true;
	osn_render_hist_causes(h_open(&b), &cs, &info, 1);
	t = h_close(&b);
	CHECK(!strstr(t, "#"));
	CHECK(!strstr(t, "cause-"));
	CHECK(!strstr(t, "over:"));
	/* 10 bucket rows, over, count, min, avg, max: one column */
	CHECK_STR(t, "        0 \n        0 \n        3 \n        1 \n"
		  "        0 \n        0 \n        0 \n        0 \n"
		  "        0 \n        0 \n        1 \n        5 \n"
		  "    2.000 \n    5.120 \n   15.000 \n");
	free(t);

	/* --no-summary */
	memset(&p, 0, sizeof(p));
	p.no_summary = true;
	osn_render_hist_causes(h_open(&b), &cs, &info, 5);
	t = h_close(&b);
	CHECK(!strstr(t, "count:"));
	CHECK_HAS(t, "over: ");
	free(t);
	osn_causes_free(&cs);
}

/* the JSON: each culprit of "causes" has its histogram */
TEST(culprit_hist_json)
{
	static const int cpus[] = { 1 };
	struct json_object *root, *c1, *u, *hh, *bk;
	struct osn_report_info info;
	struct osn_params p;
	struct osn_causes cs;
	struct osn_khist kh = { .bucket_ns = 1000 };
	struct osn_hist h;
	struct h_buf b;
	char *t;

	hist_scenario(&cs);
	hist_info(&info, &p, &cs, cpus, 1);
	CHECK_EQ(osn_hist_build(&h, &kh, 10, cpus, 1, NULL), 0);
	osn_json_hist(h_open(&b), &h, &info);
	t = h_close(&b);
	root = h_json_parse(t);
	CHECK(root != NULL);
	if (root && json_object_object_get_ex(root, "causes", &c1) &&
	    json_object_object_get_ex(c1, "1", &c1)) {
		CHECK_EQ(json_object_array_length(c1), 2);
		u = json_object_array_get_idx(c1, 0);
		CHECK(json_object_object_get_ex(u, "histogram", &hh));
		CHECK_STR(json_object_get_string(json_object_object_get(u, "kind")),
			  "work");
		CHECK_EQ(json_object_get_int64(json_object_object_get(hh, "count")), 5);
		CHECK_EQ(json_object_get_int64(json_object_object_get(hh, "over")), 1);
		CHECK(json_object_get_double(json_object_object_get(hh, "max")) == 15.0);
		bk = json_object_object_get(hh, "buckets");
		CHECK_EQ(json_object_array_length(bk), 2);
		bk = json_object_array_get_idx(bk, 0);
		CHECK_EQ(json_object_get_int64(json_object_object_get(bk, "index")), 2);
		CHECK_EQ(json_object_get_int64(json_object_object_get(bk, "count")), 3);
	} else {
		CHECK(!"causes[\"1\"] in the JSON");
	}
	json_object_put(root);
	free(t);
	osn_hist_free(&h);
	osn_causes_free(&cs);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(link_and_rank);
	RUN(same_culprit_once_a_noise);
	RUN(pending_overflow);
	RUN(render);
	RUN(culprit_hist);
	RUN(no_hist_by_default);
	RUN(culprit_hist_render);
	RUN(culprit_hist_json);
	return h_done(argv[0]);
}
