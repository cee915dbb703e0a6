// SPDX-License-Identifier: GPL-2.0
/* JSON writer (json-c); osn's JSON documents parse back with json_tokener and jq */
#include <unistd.h>

#include "harness.h"
#include "json.h"
#include "json_parse.h"
#include "render.h"
#include "scenarios.h"

/* The tests' strict parser (json_parse.h) rejects what is not one JSON value. */
TEST(parser)
{
	CHECK(h_json_valid("{}"));
	CHECK(h_json_valid(" [1, 2.5, -3e2, \"a\\n\\u00e9\", true, false, null, {\"k\": []}] \n"));
	CHECK(h_json_valid("0"));
	CHECK(!h_json_valid(""));
	CHECK(!h_json_valid("{"));
	CHECK(!h_json_valid("{\"a\":1,}"));
	CHECK(!h_json_valid("[1 2]"));
	CHECK(!h_json_valid("{a:1}"));
	CHECK(!h_json_valid("\"\\x\""));
	CHECK(!h_json_valid("{} {}"));
	CHECK(!h_json_valid("nul"));
}

TEST(writer)
{
	struct osn_json j;
	struct h_buf b;
	char *t;

	osn_json_init(&j, h_open(&b), false);
	osn_json_obj_begin(&j);
	osn_json_kstr(&j, "s", "q\"uote\\ new\nline \x01 a/b");
	osn_json_ku64(&j, "n", 18446744073709551615ULL);
	osn_json_kus(&j, "us", 1234567);
	osn_json_kus(&j, "small", 5);
	osn_json_key(&j, "f");
	osn_json_fixed(&j, 9986666, 5);
	osn_json_key(&j, "neg");
	osn_json_i64(&j, -1);
	osn_json_key(&j, "empty");
	osn_json_arr_begin(&j);
	osn_json_arr_end(&j);
	osn_json_key(&j, "arr");
	osn_json_arr_begin(&j);
	osn_json_obj_begin(&j);
	osn_json_obj_end(&j);
	osn_json_null(&j);
	osn_json_bool(&j, true);
	osn_json_arr_end(&j);
	osn_json_obj_end(&j);
	t = h_close(&b);
	CHECK_STR(t, "{\"s\":\"q\\\"uote\\\\ new\\nline \\u0001 a/b\",\"n\":18446744073709551615,"
		  "\"us\":1234.567,\"small\":0.005,\"f\":99.86666,\"neg\":-1,\"empty\":[],"
		  "\"arr\":[{},null,true]}");
	CHECK(h_json_valid(t));
	free(t);
}

/*
 * A task name is UTF-8 (a comm written through /proc/PID/comm): it comes
 * out as the same bytes, and back the same through json_tokener; control
 * characters are escaped, never written raw.
 */
TEST(utf8_round_trip)
{
	static const char *names[] = {
		"zajos-\xc3\xa9",			/* zajos-e acute */
		"\xe5\xb7\xa5\xe4\xbd\x9c/3",		/* CJK, with a slash */
		"emoji-\xf0\x9f\x94\xa5",		/* 4-byte sequence */
		"tab\tnl\ncr\resc\x1b\x7f",	/* control characters and DEL */
	};
	struct json_object *doc, *arr, *v;
	struct osn_json j;
	struct h_buf b;
	char *t;

	osn_json_init(&j, h_open(&b), true);
	osn_json_obj_begin(&j);
	osn_json_key(&j, "names");
	osn_json_arr_begin(&j);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		osn_json_str(&j, names[i]);
	osn_json_arr_end(&j);
	osn_json_obj_end(&j);
	t = h_close(&b);
	/* the bytes themselves, not \u00c3\u00a9 */
	CHECK_HAS(t, "\"zajos-\xc3\xa9\"");
	CHECK_HAS(t, "\"\xe5\xb7\xa5\xe4\xbd\x9c/3\"");
	CHECK_HAS(t, "\"emoji-\xf0\x9f\x94\xa5\"");
	CHECK_HAS(t, "\"tab\\tnl\\ncr\\resc\\u001b\x7f\"");
	for (const char *p = t; *p; p++)
		CHECK(*p == '\n' || (unsigned char)*p >= 0x20);
	doc = h_json_parse(t);
	CHECK(doc != NULL);
	if (doc && json_object_object_get_ex(doc, "names", &arr)) {
		CHECK_EQ(json_object_array_length(arr), ARRAY_SIZE(names));
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			v = json_object_array_get_idx(arr, i);
			CHECK_STR(json_object_get_string(v), names[i]);
		}
	} else {
		CHECK(!"no names array");
	}
	json_object_put(doc);
	free(t);
}

/*
 * Also parse with jq (tests/install-deps.sh installs it): a missing jq or a
 * temporary file that cannot be written is a failed check, never a check
 * silently left out.
 */
static void jq_check(const char *text, const char *filter, const char *want)
{
	char path[] = "/tmp/osn-json-XXXXXX";
	char cmd[512], out[256] = "";
	int fd;
	FILE *p;

	CHECK(system("command -v jq >/dev/null 2>&1") == 0);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		CHECK(!"the JSON could not be written for jq");
		close(fd);
		unlink(path);
		return;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "jq -r '%s' %s 2>&1", filter, path);
	p = popen(cmd, "r");
	if (p) {
		if (!fgets(out, sizeof(out), p))
			out[0] = '\0';
		pclose(p);
	}
	out[strcspn(out, "\n")] = '\0';
	CHECK_STR(out, want);
	unlink(path);
}

TEST(top_json)
{
	struct osn_cpu_stats st[2] = { 0 };
	const int cpus[] = { 0, 1 };
	struct osn_top_view v = { .stats = st, .cpus = cpus, .ncpus = 2 };
	struct osn_params p = { 0 };
	struct osn_report_info info = { .params = &p, .elapsed_s = 3,
					.cpus_str = "0-1", .threshold_us = 1 };
	struct osn_event e = fx_sample(1, 1, 1000000000, 2000, 1500, 500, 2);
	struct h_buf b;
	char *t;

	e.s.count[OSN_CLASS_IRQ] = 2;
	e.s.time[OSN_CLASS_IRQ] = 2000;
	osn_stats_add_sample(&st[1], &e);
	osn_json_top(h_open(&b), &v, &info);
	t = h_close(&b);
	CHECK(h_json_valid(t));
	CHECK_HAS(t, "\"tool\": \"osn top\"");
	CHECK_HAS(t, "\"min_single\": null");
	jq_check(t, ".cpus[1].irq.count", "2");
	jq_check(t, ".cpus[1].irq.time", "2");
	jq_check(t, ".total.noise", "2");
	jq_check(t, ".cpus[1].cpu_avail_pct", "99.9998");
	jq_check(t, ".stop", "null");
	free(t);
}

TEST(hist_json_with_stop)
{
	struct osn_khist kh = { .bucket_ns = 1000, .have_sum = true };
	struct osn_hist h;
	const int cpus[] = { 0, 1 };
	struct osn_params p = { 0 };
	struct osn_report_info info = { .params = &p, .elapsed_s = 3,
					.cpus_str = "0-1", .threshold_us = 1 };
	struct osn_explanation x;
	struct osn_ring r;
	struct osn_event stop;
	struct h_buf b;
	char *t;

	p.cmd = OSN_CMD_HIST;
	p.bucket_us = 1;
	p.entries = 10;
	osn_khist_add(&kh, 1, 3000, 4, 12400);
	osn_khist_add(&kh, 1, 50000, 1, 50500);
	osn_hist_build(&h, &kh, 10, cpus, 2, NULL);
	scenario_single(&r, &stop);
	osn_explain(&r, &stop, OSN_STOP_SINGLE, 100000, &x);
	info.stopped = true;
	info.why = &x;
	osn_json_hist(h_open(&b), &h, &info);
	t = h_close(&b);
	CHECK(h_json_valid(t));
	jq_check(t, ".cpus[0].count", "0");
	jq_check(t, ".cpus[0].min", "null");
	jq_check(t, ".cpus[1].buckets[0].index", "3");
	jq_check(t, ".cpus[1].over", "1");
	jq_check(t, ".cpus[1].max", "50.5");
	jq_check(t, ".cpus[1][\"p99.9\"]", "50.5");
	jq_check(t, ".stop.parts[0].source", "local_timer:236");
	jq_check(t, ".stop.hw", "5.78");
	jq_check(t, ".config.bucket_size_us", "1");
	free(t);
	osn_hist_free(&h);
	osn_khist_free(&kh);
	osn_ring_free(&r);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(parser);
	RUN(writer);
	RUN(utf8_round_trip);
	RUN(top_json);
	RUN(hist_json_with_stop);
	return h_done(argv[0]);
}
