// SPDX-License-Identifier: GPL-2.0
/*
 * osn compare: runs written by osn's own JSON renderers (osn_json_top,
 * osn_json_hist, osn_json_tlat) into files, read back side by side; the
 * verdicts, the differences, and one line and exit 1 for bad input.
 */
#include <errno.h>
#include <json-c/json.h>
#include <unistd.h>

#include "harness.h"
#include "compare_cmd.h"
#include "fixtures.h"
#include "render.h"
#include "tlat.h"

static char dir[64];
static struct osn_params params;

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void write_text(const char *name, const char *text)
{
	char p[128];
	FILE *f;

	path_of(p, sizeof(p), name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void info_for(struct osn_report_info *info, enum osn_cmd cmd,
		     const char *kernel, uint64_t elapsed)
{
	static const int cpus[] = { 1, 2 };

	memset(&params, 0, sizeof(params));
	params.cmd = cmd;
	params.period_us = 1000000;
	params.runtime_us = 1000000;
	memset(info, 0, sizeof(*info));
	info->params = &params;
	info->elapsed_s = elapsed;
	info->cpus_str = "1-2";
	info->threshold_us = 1;
	info->kernel = kernel;
	info->cpus = cpus;
	info->ncpus = 2;
}

/*
 * osn top over 10 periods of 1 s: CPU 1's IRQs take @irq_ns per period
 * (in @irq_n interrupts), CPU 2 a steady 50 us of thread noise.
 */
static void write_top(const char *name, const char *kernel, uint64_t irq_ns,
		      uint64_t irq_n)
{
	static struct osn_cpu_stats st[3];
	static const int cpus[] = { 1, 2 };
	struct osn_top_view v = { .stats = st, .cpus = cpus, .ncpus = 2 };
	struct osn_report_info info;
	struct osn_event e;
	struct h_buf b;

	memset(st, 0, sizeof(st));
	for (int p = 0; p < 10; p++) {
		e = fx_sample(1, p, 1000000000, irq_ns + 1000, irq_ns + 1000, 500,
			      irq_n + 1);
		e.s.count[OSN_CLASS_IRQ] = irq_n;
		e.s.time[OSN_CLASS_IRQ] = irq_ns;
		e.s.count[OSN_CLASS_HW] = 1;
		e.s.time[OSN_CLASS_HW] = 1000;
		osn_stats_add_sample(&st[1], &e);
		e = fx_sample(2, p, 1000000000, 50000, 50000, 50000, 1);
		e.s.count[OSN_CLASS_THREAD] = 1;
		e.s.time[OSN_CLASS_THREAD] = 50000;
		osn_stats_add_sample(&st[2], &e);
	}
	info_for(&info, OSN_CMD_TOP, kernel, 10);
	osn_json_top(h_open(&b), &v, &info);
	write_text(name, h_close(&b));
	free(b.text);
}

/* @name's JSON with @key of its top level set to @v (NULL: removed). */
static void edit(const char *name, const char *key, struct json_object *v)
{
	char p[128];
	struct json_object *doc;

	path_of(p, sizeof(p), name);
	doc = json_object_from_file(p);
	if (!doc)
		return;
	if (v)
		json_object_object_add(doc, key, v);
	else
		json_object_object_del(doc, key);
	json_object_to_file_ext(p, doc, JSON_C_TO_STRING_PRETTY);
	json_object_put(doc);
}

/* CPU 1 of @name with @us of thread time over its 10 s (100 threads) */
static void thread_time_cpu1(const char *name, double us)
{
	char p[128];
	struct json_object *doc, *cpus, *t;

	path_of(p, sizeof(p), name);
	doc = json_object_from_file(p);
	if (!doc)
		return;
	if (json_object_object_get_ex(doc, "cpus", &cpus) &&
	    json_object_object_get_ex(json_object_array_get_idx(cpus, 0),
				      "thread", &t)) {
		json_object_object_add(t, "count", json_object_new_int(100));
		json_object_object_add(t, "time", json_object_new_double(us));
	}
	json_object_to_file(p, doc);
	json_object_put(doc);
}

/* --causes as osn writes it: {"1": [{kind, function, ..., time}]} */
static struct json_object *causes_cpu1(const char *kind, const char *fn,
				       double time_us)
{
	struct json_object *c = json_object_new_object();
	struct json_object *arr = json_object_new_array();
	struct json_object *u = json_object_new_object();

	json_object_object_add(u, "kind", json_object_new_string(kind));
	json_object_object_add(u, "function", json_object_new_string(fn));
	json_object_object_add(u, "function_addr", json_object_new_uint64(0));
	json_object_object_add(u, "origin_cpu", json_object_new_int(-1));
	json_object_object_add(u, "origin_pid", json_object_new_int(-1));
	json_object_object_add(u, "origin_comm", json_object_new_string(""));
	json_object_object_add(u, "count", json_object_new_uint64(10));
	json_object_object_add(u, "time", json_object_new_double(time_us));
	json_object_array_add(arr, u);
	json_object_object_add(c, "1", arr);
	json_object_object_add(c, "2", json_object_new_array());
	return c;
}

struct result {
	int rc;
	char *out, *err;
};

static struct result run(const char *a, const char *b, const char *c)
{
	char pa[128], pb[128], pc[128];
	char *argv[] = { "compare", pa, pb, pc, NULL };
	struct h_buf o, e;
	struct result r;

	path_of(pa, sizeof(pa), a);
	path_of(pb, sizeof(pb), b);
	if (c)
		path_of(pc, sizeof(pc), c);
	r.rc = osn_compare_main(c ? 4 : 3, argv, h_open(&o), h_open(&e));
	r.out = h_close(&o);
	r.err = h_close(&e);
	return r;
}

static void done(struct result *r)
{
	free(r->out);
	free(r->err);
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* One line "osn: compare: ..." holding @what, nothing on stdout, exit 1. */
static void check_refused(struct result *r, const char *what)
{
	CHECK_EQ(r->rc, 1);
	CHECK_EQ(lines(r->err), 1);
	CHECK(!strncmp(r->err, "osn: compare: ", 14));
	CHECK_HAS(r->err, what);
	CHECK_STR(r->out, "");
}

/* CPU 1's IRQs: 1.2 ms per 1 s period, then 0.05 ms: a 96 % drop. */
TEST(irq_drop_verdict)
{
	struct result r;

	write_top("a.json", "6.1.0-test", 1200000, 1000);
	write_top("b.json", "6.1.0-test", 50000, 50);
	edit("b.json", "causes", causes_cpu1("timer", "tick_nohz_handler", 500));
	r = run("a.json", "b.json", NULL);
	CHECK_EQ(r.rc, 0);
	CHECK_STR(r.err, "");
	CHECK_HAS(r.out, "  CPU 1 IRQ time: 1.2 ms/s → 0.05 ms/s (-96 %); what remains: timer (tick_nohz_handler)\n");
	/* CPU 2 did not change */
	CHECK_HAS(r.out, "  CPU 2: no notable change");
	/* all CPUs: per CPU-second, CPU 2 had no IRQ */
	CHECK_HAS(r.out, "  all CPUs IRQ time: 0.6 ms/s → 0.025 ms/s (-96 %)");
	CHECK_HAS(r.out, "  CPU 2: no notable change (noise: 0.05 ms/s → 0.05 ms/s (+0 %))\n");
	/* same kernel and settings: no difference named */
	CHECK(!strstr(r.out, "differs from A"));
	/* the table: A, B and the change; 1000 IRQs per s then 50 */
	CHECK_HAS(r.out, "IRQ count /s");
	CHECK_HAS(r.out, "-95.0 %");
	CHECK_HAS(r.out, "culprits B:");
	CHECK_HAS(r.out, "tick_nohz_handler");
	done(&r);
}

TEST(irq_rise_and_differences)
{
	struct result r;

	write_top("a.json", "6.1.0-a", 0, 0);
	write_top("b.json", "6.12.0-b", 40000000, 4000);
	r = run("a.json", "b.json", NULL);
	CHECK_EQ(r.rc, 0);
	/* from 0: no percentage, still a verdict on the IRQ class */
	CHECK_HAS(r.out, "  CPU 1 IRQ time: 0 ms/s → 40 ms/s\n");
	done(&r);
	/* a second class that grew too is named after the first */
	thread_time_cpu1("b.json", 30000);
	r = run("a.json", "b.json", NULL);
	CHECK_HAS(r.out, "  CPU 1 IRQ time: 0 ms/s → 40 ms/s; Thread time: 0 ms/s → 3 ms/s\n");
	CHECK_HAS(r.out, "  B differs from A: kernel 6.1.0-a vs 6.12.0-b\n");
	done(&r);
}

/* Three runs: each later one against A; a CPU only some runs measured. */
TEST(three_runs_and_missing_cpu)
{
	struct result r;

	write_top("a.json", "k", 1200000, 1000);
	write_top("b.json", "k", 600000, 500);
	write_top("c.json", "k", 2400000, 2000);
	/* C measured CPU 1 only */
	{
		char p[128];
		struct json_object *doc, *cpus;

		path_of(p, sizeof(p), "c.json");
		doc = json_object_from_file(p);
		if (doc && json_object_object_get_ex(doc, "cpus", &cpus))
			json_object_array_del_idx(cpus, 1, 1);
		if (doc) {
			json_object_to_file(p, doc);
			json_object_put(doc);
		}
	}
	r = run("a.json", "b.json", "c.json");
	CHECK_EQ(r.rc, 0);
	CHECK_HAS(r.out, "Verdict (B against A)\n  CPU 1 IRQ time: 1.2 ms/s → 0.6 ms/s (-50 %)");
	CHECK_HAS(r.out, "Verdict (C against A)\n  CPU 1 IRQ time: 1.2 ms/s → 2.4 ms/s (+100 %)");
	CHECK_HAS(r.out, "  CPU 2: only in ");
	CHECK_HAS(r.out, "C vs A");
	done(&r);
}

static void write_hist(const char *name, uint64_t slow)
{
	static const int cpus[] = { 1 };
	struct osn_khist kh = { .bucket_ns = 1000, .have_sum = true };
	struct osn_exact x[2] = { 0 };	/* by cpu number */
	struct osn_report_info info;
	struct osn_event e;
	struct osn_hist h;
	struct h_buf b;

	osn_khist_add(&kh, 1, 1000, 1000, 1500000);
	osn_khist_add(&kh, 1, slow * 1000, 100, 100 * slow * 1000);
	e = fx_sample(1, 1, 1000000, 1500000 + 100 * slow * 1000, slow * 1000,
		      1000, 1100);
	osn_exact_add_sample(&x[1], &e);
	osn_hist_build(&h, &kh, 100, cpus, 1, x);
	info_for(&info, OSN_CMD_HIST, "k", 10);
	info.cpus_str = "1";
	info.ncpus = 1;
	params.bucket_us = 1;
	params.entries = 100;
	osn_json_hist(h_open(&b), &h, &info);
	write_text(name, h_close(&b));
	free(b.text);
	osn_hist_free(&h);
	osn_khist_free(&kh);
}

/* osn hist: percentiles, compared with osn top's numbers where both have them */
TEST(hist_percentiles)
{
	struct result r;

	write_hist("h1.json", 50);
	write_hist("h2.json", 5);
	r = run("h1.json", "h2.json", NULL);
	CHECK_EQ(r.rc, 0);
	CHECK_HAS(r.out, "p99 us");
	CHECK_HAS(r.out, "  CPU 1 p99: 50 us → 5 us (-90 %)");
	done(&r);
	write_top("a.json", "k", 1200000, 1000);
	r = run("a.json", "h2.json", NULL);
	CHECK_EQ(r.rc, 0);
	CHECK_HAS(r.out, "B differs from A: command osn top vs osn hist");
	CHECK_HAS(r.out, "  CPU 1 max single:");
	done(&r);
}

static void write_tlat(const char *name, uint64_t thread_max)
{
	static struct osn_tlat_cpu tc[2];
	static const int cpus[] = { 1 };
	struct osn_tlat_view v = { .cpu = tc, .cpus = cpus, .ncpus = 1 };
	struct osn_report_info info;
	struct h_buf b;

	memset(tc, 0, sizeof(tc));
	for (int x = 0; x < OSN_TLAT_NCTX; x++) {
		tc[1].ctx[x].count = 10;
		tc[1].ctx[x].min = 1000;
		tc[1].ctx[x].max = x ? thread_max : 9000;
		tc[1].ctx[x].sum = 30000;
	}
	info_for(&info, OSN_CMD_TLAT_TOP, "k", 10);
	osn_json_tlat(h_open(&b), &v, &info, NULL);
	write_text(name, h_close(&b));
	free(b.text);
}

TEST(timerlat)
{
	struct result r;

	write_tlat("t1.json", 10000);
	write_tlat("t2.json", 10000);
	r = run("t1.json", "t2.json", NULL);
	CHECK_EQ(r.rc, 0);
	CHECK_HAS(r.out, "thread latency max us");
	CHECK_HAS(r.out, "  CPU 1: no notable change (thread latency max: 10 us → 10 us (+0 %))");
	done(&r);
	write_tlat("t2.json", 50000);
	r = run("t1.json", "t2.json", NULL);
	CHECK_HAS(r.out, "  CPU 1 thread latency max: 10 us → 50 us (+400 %)\n");
	done(&r);
	write_top("a.json", "k", 1200000, 1000);
	r = run("a.json", "t1.json", NULL);
	check_refused(&r, "t1.json is a timerlat run (osn timerlat top): not comparable with osnoise runs");
	done(&r);
}

/* A bad second file: its text (NULL: osn top's, with "schema" @schema). */
static const struct {
	const char *file, *text;
	int schema;		/* -1: removed; 0 and up: set */
	const char *err;
} bad[] = {
	{ "missing.json", NULL, -2, "missing.json: cannot read: No such file or directory" },
	{ "text.json", "CPU Period Runtime\n", 0, "text.json: not JSON" },
	{ "empty.json", "", 0, "empty.json: empty" },
	{ "other.json", "{\"name\": \"fio\", \"jobs\": []}\n", 0, "other.json: not an osn report" },
	{ "array.json", "[1, 2]\n", 0, "array.json: not an osn report" },
	{ "old.json", NULL, -1, "old.json: an osn report without a schema version, from an older osn" },
	{ "zero.json", NULL, 0, "zero.json: osn JSON of an older schema (0, this osn reads 1)" },
	{ "new.json", NULL, OSN_JSON_SCHEMA + 1, "new.json: osn JSON of a newer schema (2, this osn reads 1)" },
	{ "audit.json", "{\"schema\": 1, \"tool\": \"osn audit\", \"checks\": []}\n", 0,
	  "audit.json: a report of osn audit, not a run" },
};

TEST(bad_input)
{
	write_top("a.json", "k", 1200000, 1000);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct result r;

		if (bad[i].text) {
			write_text(bad[i].file, bad[i].text);
		} else if (bad[i].schema >= -1) {
			write_top(bad[i].file, "k", 1, 1);
			edit(bad[i].file, "schema", bad[i].schema < 0 ? NULL :
			     json_object_new_int(bad[i].schema));
		}
		r = run("a.json", bad[i].file, NULL);
		check_refused(&r, bad[i].err);
		done(&r);
	}
	/* either place */
	{
		struct result r = run("array.json", "a.json", NULL);

		check_refused(&r, "array.json: not an osn report");
		done(&r);
	}
}

static struct json_object *at(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (o)
		json_object_object_get_ex(o, key, &v);
	return v;
}

/* --json: the same numbers, parsed back; --json=FILE keeps the text */
TEST(json_output)
{
	char pa[128], pb[128], pj[128], json_arg[140];
	char *argv[] = { "compare", "--json", pa, pb, NULL };
	struct json_object *doc, *cpu1, *irq, *v, *ag;
	struct h_buf o, e;
	struct result r;
	int rc;

	write_top("a.json", "6.1.0-a", 1200000, 1000);
	write_top("b.json", "6.12.0-b", 50000, 50);
	path_of(pa, sizeof(pa), "a.json");
	path_of(pb, sizeof(pb), "b.json");
	rc = osn_compare_main(4, argv, h_open(&o), h_open(&e));
	h_close(&o);
	h_close(&e);
	CHECK_EQ(rc, 0);
	CHECK_STR(e.text, "");
	doc = json_tokener_parse(o.text);
	CHECK(doc != NULL);
	CHECK_EQ(json_object_get_int(at(doc, "schema")), OSN_CMP_SCHEMA);
	CHECK_STR(json_object_get_string(at(doc, "tool")), "osn compare");
	CHECK_EQ(json_object_array_length(at(doc, "runs")), 2);
	cpu1 = json_object_array_get_idx(at(doc, "cpus"), 0);
	CHECK_EQ(json_object_get_int(at(cpu1, "cpu")), 1);
	irq = at(at(cpu1, "metrics"), "irq_time");
	CHECK_STR(json_object_get_string(at(irq, "unit")), "ms/s");
	v = at(irq, "values");
	CHECK(json_object_get_double(json_object_array_get_idx(v, 0)) == 1.2);
	CHECK(json_object_get_double(json_object_array_get_idx(v, 1)) == 0.05);
	v = at(irq, "change_pct");
	CHECK(json_object_array_get_idx(v, 0) == NULL);
	CHECK_STR(json_object_get_string(json_object_array_get_idx(v, 1)), "-95.833");
	/* the last object: all CPUs */
	v = json_object_array_get_idx(at(doc, "cpus"), 2);
	CHECK_STR(json_object_get_string(at(v, "cpu")), "all");
	ag = json_object_array_get_idx(at(doc, "against_a"), 0);
	CHECK_STR(json_object_get_string(at(ag, "run")), "B");
	CHECK_STR(json_object_get_string(at(ag, "differences")),
		  "kernel 6.1.0-a vs 6.12.0-b");
	v = json_object_array_get_idx(at(ag, "verdicts"), 0);
	CHECK_STR(json_object_get_string(at(v, "metric")), "irq_time");
	CHECK(at(v, "also") == NULL);
	CHECK_HAS(json_object_get_string(at(v, "text")), "CPU 1 IRQ time: 1.2 ms/s");
	json_object_put(doc);
	free(o.text);
	free(e.text);

	/* to a file: the text stays on stdout; the file is no run to compare */
	path_of(pj, sizeof(pj), "cmp.json");
	snprintf(json_arg, sizeof(json_arg), "--json=%s", pj);
	argv[1] = json_arg;
	rc = osn_compare_main(4, argv, h_open(&o), h_open(&e));
	h_close(&o);
	h_close(&e);
	CHECK_EQ(rc, 0);
	CHECK_HAS(o.text, "Verdict (B against A)");
	free(o.text);
	free(e.text);
	r = run("a.json", "cmp.json", NULL);
	check_refused(&r, "cmp.json: a report of osn compare, not a run");
	done(&r);
}

static char *read_file(const char *name)
{
	char p[128], *text = NULL;
	size_t cap = 0;
	FILE *f;

	path_of(p, sizeof(p), name);
	f = fopen(p, "r");
	if (!f)
		return NULL;
	if (getdelim(&text, &cap, '\0', f) < 0) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	while (s && (s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* --report: A, B of write_top (B with culprits), and two hist runs */
static int write_pages(void)
{
	char pa[128], pb[128], pr[128], *argv[] = {
		"compare", "--report", pr, pa, pb, NULL,
	};
	struct h_buf o, e;
	int rc;

	write_top("top-a.json", "6.1.0-a", 1200000, 1000);
	edit("top-a.json", "causes", causes_cpu1("timer", "tick_nohz_handler", 12000));
	write_top("top-b.json", "6.12.0-b", 50000, 50);
	edit("top-b.json", "causes", causes_cpu1("timer", "tick_nohz_handler", 500));
	path_of(pa, sizeof(pa), "top-a.json");
	path_of(pb, sizeof(pb), "top-b.json");
	path_of(pr, sizeof(pr), "compare-top.html");
	rc = osn_compare_main(5, argv, h_open(&o), h_open(&e));
	free(h_close(&o));
	free(h_close(&e));
	write_hist("hist-a.json", 50);
	write_hist("hist-b.json", 5);
	path_of(pa, sizeof(pa), "hist-a.json");
	path_of(pb, sizeof(pb), "hist-b.json");
	path_of(pr, sizeof(pr), "compare-hist.html");
	rc |= osn_compare_main(5, argv, h_open(&o), h_open(&e));
	free(h_close(&o));
	free(h_close(&e));
	return rc;
}

TEST(report_page)
{
	char *s;

	CHECK_EQ(write_pages(), 0);
	s = read_file("compare-top.html");
	CHECK(s && !strncmp(s, "<!DOCTYPE html>", 15));
	CHECK_HAS(s, "</html>\n");
	CHECK(!strstr(s, "<script"));
	/* the verdict first, then the runs */
	CHECK(s && strstr(s, "id=\"verdict\"") && strstr(s, "id=\"runs\"") &&
	      strstr(s, "id=\"verdict\"") < strstr(s, "id=\"runs\""));
	CHECK_HAS(s, "<li>CPU 1 IRQ time: 1.2 ms/s → 0.05 ms/s (-96 %); what remains: timer (tick_nohz_handler)</li>");
	CHECK_HAS(s, "B differs from A: kernel 6.1.0-a vs 6.12.0-b");
	/* CPU 1, CPU 2, all: each its class chart; culprits where recorded */
	CHECK_EQ(count(s, "<section class=\"cpu\""), 3);
	CHECK_EQ(count(s, "class=\"chart classes\""), 3);
	CHECK_EQ(count(s, "class=\"chart culprits\""), 1);
	/* each class in the 3 sections, 2 runs (0: a bar of no height, its tooltip) */
	CHECK_EQ(count(s, "class=\"cbar run"), 2 * (5 * 3));
	CHECK_EQ(count(s, "class=\"ubar run"), 2);
	CHECK_EQ(count(s, "class=\"chart overlay\""), 0);
	free(s);
	s = read_file("compare-hist.html");
	/* hist: CPU 1's histograms overlaid, one line per run; no classes */
	CHECK_EQ(count(s, "class=\"chart overlay\""), 1);
	CHECK_EQ(count(s, "<polyline"), 2);
	CHECK_EQ(count(s, "class=\"line run0\""), 1);
	CHECK_EQ(count(s, "class=\"line run1\""), 1);
	CHECK_EQ(count(s, "class=\"chart classes\""), 0);
	free(s);
}

TEST(usage_errors)
{
	char *one[] = { "compare", "x.json", NULL };
	char *opt[] = { "compare", "--bogus", "a", "b", NULL };
	struct h_buf o, e;
	int rc;

	rc = osn_compare_main(2, one, h_open(&o), h_open(&e));
	h_close(&o);
	h_close(&e);
	CHECK_EQ(rc, 1);
	CHECK_STR(e.text, "osn: compare: needs two runs at least (osn compare A.json B.json)\n");
	free(o.text);
	free(e.text);
	rc = osn_compare_main(4, opt, h_open(&o), h_open(&e));
	h_close(&o);
	h_close(&e);
	CHECK_EQ(rc, 1);
	CHECK_STR(e.text, "osn: compare: unknown option '--bogus' (osn compare -h)\n");
	free(o.text);
	free(e.text);
}

/* Every JSON osn writes starts with its schema. */
TEST(schema_in_every_report)
{
	char p[128];
	struct json_object *doc, *v;

	write_top("a.json", "6.1.0-test", 1, 1);
	path_of(p, sizeof(p), "a.json");
	doc = json_object_from_file(p);
	CHECK(doc && json_object_object_get_ex(doc, "schema", &v) &&
	      json_object_get_int(v) == OSN_JSON_SCHEMA);
	CHECK(doc && json_object_object_get_ex(doc, "kernel", &v) &&
	      !strcmp(json_object_get_string(v), "6.1.0-test"));
	json_object_put(doc);
	write_tlat("t1.json", 10000);
	path_of(p, sizeof(p), "t1.json");
	doc = json_object_from_file(p);
	CHECK(doc && json_object_object_get_ex(doc, "schema", &v));
	json_object_put(doc);
}

TEST(cpus_union)
{
	struct osn_cmp_cpu a[2] = { { .cpu = 3 }, { .cpu = 1 } }, b[2] = { { .cpu = 2 }, { .cpu = 3 } };
	struct osn_cmp_run runs[2] = { { .cpu = a, .ncpus = 2 }, { .cpu = b, .ncpus = 2 } };
	int out[8];

	CHECK_EQ(osn_cmp_cpus(runs, 2, out, 8), 3);
	CHECK(out[0] == 1 && out[1] == 2 && out[2] == 3);
	CHECK_EQ(osn_cmp_cpus(runs, 2, out, 2), 2);
}

/*
 *   test_compare                  the tests
 *   test_compare --write DIR      DIR/compare-top.html and compare-hist.html
 *                                 (and their runs), for tests/report/browser.sh
 */
int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write")) {
		snprintf(dir, sizeof(dir), "%s", argv[2]);
		return write_pages();
	}
	snprintf(dir, sizeof(dir), "/tmp/osn-compare-XXXXXX");
	if (!mkdtemp(dir)) {
		printf("  mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	RUN(irq_drop_verdict);
	RUN(irq_rise_and_differences);
	RUN(three_runs_and_missing_cpu);
	RUN(hist_percentiles);
	RUN(timerlat);
	RUN(bad_input);
	RUN(json_output);
	RUN(report_page);
	RUN(usage_errors);
	RUN(schema_in_every_report);
	RUN(cpus_union);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("  could not remove %s\n", dir);
	}
	return h_done(argv[0]);
}
