// SPDX-License-Identifier: GPL-2.0
/* osn monitor: the Prometheus text exposition of osn's accounting */
#include <unistd.h>

#include "harness.h"
#include "fixtures.h"
#include "metrics.h"

static void feed(struct osn_metrics *m, struct osn_event e)
{
	osn_metrics_event(m, &e);
}

/* CPU 1: 3 timer IRQs, a softirq, a task with a UTF-8 and quoted name */
static void scenario(struct osn_metrics *m)
{
	CHECK_EQ(osn_metrics_init(m, 4), 0);
	feed(m, fx_noise(OSN_E_IRQ, 1, 10, 5, 2000000, 236, "local_timer"));
	feed(m, fx_noise(OSN_E_IRQ, 1, 20, 15, 2000250, 236, "local_timer"));
	feed(m, fx_noise(OSN_E_IRQ, 1, 30, 25, 1999750, 236, "local_timer"));
	feed(m, fx_noise(OSN_E_SOFTIRQ, 1, 40, 35, 1500, 8, NULL));
	feed(m, fx_noise(OSN_E_THREAD, 1, 50, 45, 7000, 42,
			 "t\xc3\xa2" "che \"x\"\\y"));
	feed(m, fx_noise(OSN_E_NMI, 1, 60, 55, 300, 0, NULL));
	/* CPU 2 is not shown (not measured), CPU 9 does not exist */
	feed(m, fx_noise(OSN_E_IRQ, 2, 10, 5, 99, 236, "local_timer"));
	feed(m, fx_noise(OSN_E_IRQ, 9, 10, 5, 99, 236, "local_timer"));
	/* not noise: ignored */
	feed(m, fx_thr(1, 70, 65, 5000, 1));
}

static char *render(const struct osn_metrics_view *v)
{
	struct h_buf b;

	CHECK_EQ(osn_metrics_render(h_open(&b), v), 0);
	return h_close(&b);
}

/* A real check: Debian's promtool, when installed (tests/install-deps.sh). */
static void promtool_check(const char *text)
{
	char path[] = "/tmp/osn-metrics-XXXXXX";
	char cmd[128];
	int fd, rc;
	FILE *f;

	if (system("command -v promtool >/dev/null 2>&1")) {
		printf("  (promtool not installed: exposition not checked by it)\n");
		return;
	}
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "promtool check metrics <%s", path);
	rc = system(cmd);
	CHECK_EQ(rc, 0);
	unlink(path);
}

TEST(probes_only)
{
	struct osn_metrics m;
	int cpus[] = { 1 };
	struct osn_metrics_view v = {
		.m = &m, .cpus = cpus, .ncpus = 1, .up = true,
		.module_loaded = true,
	};
	char *text;

	scenario(&m);
	CHECK_EQ(m.cpu[1].nsrc, 4);
	CHECK_EQ(m.cpu[1].src[0].count, 3);
	CHECK_EQ(m.cpu[1].src[0].time_ns, 6000000);
	CHECK_EQ(m.cpu[1].src[0].max_ns, 2000250);
	text = render(&v);
	CHECK_HAS(text, "osn_noise_events_total{cpu=\"1\",class=\"irq\",source=\"local_timer\"} 3\n");
	CHECK_HAS(text, "osn_noise_seconds_total{cpu=\"1\",class=\"irq\",source=\"local_timer\"} 0.006000000\n");
	CHECK_HAS(text, "osn_noise_max_seconds{cpu=\"1\",class=\"irq\",source=\"local_timer\"} 0.002000250\n");
	CHECK_HAS(text, "source=\"HRTIMER\"} 1\n");
	/* UTF-8 kept, quote and backslash escaped */
	CHECK_HAS(text, "source=\"t\xc3\xa2" "che \\\"x\\\"\\\\y\"} 1\n");
	CHECK_HAS(text, "osn_up 1\n");
	CHECK(!strstr(text, "cpu=\"2\""));
	CHECK(!strstr(text, "osn_last_period"));	/* no workload */
	h_golden("metrics.prom", text, __LINE__);
	promtool_check(text);
	free(text);
	/* the module gone: up and loaded 0, the counters stay */
	v.up = false;
	v.module_loaded = false;
	text = render(&v);
	CHECK_HAS(text, "osn_up 0\n");
	CHECK_HAS(text, "osn_module_loaded 0\n");
	CHECK_HAS(text, "source=\"local_timer\"} 3\n");
	free(text);
	osn_metrics_free(&m);
}

TEST(workload_periods)
{
	struct osn_metrics m;
	int cpus[] = { 1, 3 };
	struct osn_metrics_view v = {
		.m = &m, .cpus = cpus, .ncpus = 2, .up = true,
		.module_loaded = true, .workload = true,
	};
	char *text;

	CHECK_EQ(osn_metrics_init(&m, 4), 0);
	feed(&m, fx_sample(1, 1, 900000, 9000, 5000, 100, 3));
	feed(&m, fx_sample(1, 2, 1000000, 250000, 200000, 100, 2));
	text = render(&v);
	CHECK_HAS(text, "osn_periods_total{cpu=\"1\"} 2\n");
	CHECK_HAS(text, "osn_period_noise_seconds_total{cpu=\"1\"} 0.000259000\n");
	CHECK_HAS(text, "osn_max_single_noise_seconds{cpu=\"1\"} 0.000200000\n");
	CHECK_HAS(text, "osn_last_period_noise_seconds{cpu=\"1\"} 0.000250000\n");
	CHECK_HAS(text, "osn_last_period_available_ratio{cpu=\"1\"} 0.750000\n");
	/* a CPU with no period yet is fully available */
	CHECK_HAS(text, "osn_last_period_available_ratio{cpu=\"3\"} 1.000000\n");
	promtool_check(text);
	free(text);
	osn_metrics_free(&m);
}

TEST(culprits)
{
	struct osn_metrics m;
	struct osn_causes cs;
	int cpus[] = { 1 };
	struct osn_metrics_view v = {
		.m = &m, .cpus = cpus, .ncpus = 1, .up = true,
		.module_loaded = true, .causes = &cs,
	};
	struct osn_event e;
	char *text;

	CHECK_EQ(osn_metrics_init(&m, 4), 0);
	CHECK_EQ(osn_causes_init(&cs, 4), 0);
	e = fx_cause(1, 1, OSN_CAUSE_WORK, OSN_CLASS_THREAD, 100,
		     0xffffffff81000100ULL, 0, 10, "b\xc3\xa9" "b\xc3\xa9");
	osn_causes_event(&cs, &e);
	e = fx_noise(OSN_E_THREAD, 1, 2, 100, 5000, 45, "kworker/1:1");
	osn_causes_event(&cs, &e);
	osn_metrics_event(&m, &e);
	osn_causes_sort(&cs);
	osn_strlcpy(cs.cpu[1].culprits[0].function_name, "vmstat_update",
		    sizeof(cs.cpu[1].culprits[0].function_name));
	text = render(&v);
	CHECK_HAS(text, "osn_culprit_noises_total{cpu=\"1\",class=\"thread\",kind=\"work\",function=\"vmstat_update\",origin_comm=\"b\xc3\xa9" "b\xc3\xa9\",origin_cpu=\"0\"} 1\n");
	CHECK_HAS(text, "osn_culprit_seconds_total{cpu=\"1\",class=\"thread\",kind=\"work\",function=\"vmstat_update\",origin_comm=\"b\xc3\xa9" "b\xc3\xa9\",origin_cpu=\"0\"} 0.000005000\n");
	promtool_check(text);
	free(text);
	osn_causes_free(&cs);
	osn_metrics_free(&m);
}

/* a CPU's sources are bounded: the rest is "other", per class */
TEST(many_sources)
{
	struct osn_metrics m;
	char name[32];
	size_t other = 0;

	CHECK_EQ(osn_metrics_init(&m, 2), 0);
	for (int i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "task%d", i);
		feed(&m, fx_noise(OSN_E_THREAD, 0, i, i, 10, i, name));
	}
	feed(&m, fx_noise(OSN_E_IRQ, 0, 1, 1, 10, 1, "late_irq"));
	CHECK_EQ(m.cpu[0].nsrc, OSN_METRICS_SOURCES - OSN_CLASS_NR);
	for (size_t i = m.cpu[0].nsrc; i < OSN_METRICS_SOURCES; i++)
		if (m.cpu[0].src[i].name[0]) {
			CHECK_STR(m.cpu[0].src[i].name, "other");
			other += m.cpu[0].src[i].count;
		}
	CHECK_EQ(other, 200 - (OSN_METRICS_SOURCES - OSN_CLASS_NR) + 1);
	osn_metrics_free(&m);
}

TEST(escape)
{
	char out[16];

	osn_metrics_escape("a\"b\\c\nd", out, sizeof(out));
	CHECK_STR(out, "a\\\"b\\\\c\\nd");
	/* truncated, never in an escape */
	osn_metrics_escape("abcdef\"", out, 8);
	CHECK_STR(out, "abcdef");
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(probes_only);
	RUN(workload_periods);
	RUN(culprits);
	RUN(many_sources);
	RUN(escape);
	return h_done(argv[0]);
}
