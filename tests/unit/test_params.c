// SPDX-License-Identifier: GPL-2.0
/* osn top / osn hist option parsing */
#include "harness.h"
#include "osn/osn_abi.h"
#include "params.h"
#include "parse_line.h"

static struct osn_params p;

/* Parse a space-separated command line (argv[0] = the command). */
static int parse(enum osn_cmd cmd, const char *line)
{
	return parse_line(&p, cmd, osn_cmd_name(cmd), line);
}

TEST(defaults)
{
	CHECK_EQ(parse(OSN_CMD_TOP, ""), 0);
	CHECK_EQ(p.period_us, OSN_DEFAULT_PERIOD_US);
	CHECK_EQ(p.runtime_us, OSN_DEFAULT_RUNTIME_US);
	CHECK_EQ(p.threshold_us, 0);
	CHECK_EQ(p.stop_us, 0);
	CHECK_EQ(p.stop_total_us, 0);
	CHECK(!p.trace_file);
	CHECK(!p.have_cpus);
	CHECK_EQ(p.duration_s, 0);
	CHECK_EQ(p.bucket_us, 1);
	CHECK_EQ(p.entries, 256);
	CHECK(!p.json && !p.quiet && !p.help);
}

TEST(common)
{
	CHECK_EQ(parse(OSN_CMD_TOP,
		       "-c 1-2 -d 1m -p 500000 -r 400000 -T 2 -s 30 -S 100 -q -D -H 0 --warm-up 2 --trace-buffer-size 4096 -P f:95"),
		 0);
	CHECK(p.have_cpus && osn_cpuset_isset(&p.cpus, 1) &&
	      osn_cpuset_isset(&p.cpus, 2) && !osn_cpuset_isset(&p.cpus, 0));
	CHECK_EQ(p.duration_s, 60);
	CHECK_EQ(p.period_us, 500000);
	CHECK_EQ(p.runtime_us, 400000);
	CHECK_EQ(p.threshold_us, 2);
	CHECK_EQ(p.stop_us, 30);
	CHECK_EQ(p.stop_total_us, 100);
	CHECK(p.quiet);
	CHECK_EQ(p.debug, 1);
	CHECK(p.have_hk && osn_cpuset_isset(&p.hk, 0));
	CHECK_EQ(p.warmup_s, 2);
	CHECK_EQ(p.buffer_kb, 4096);
	CHECK_EQ(p.sched.policy, OSN_SCHED_FIFO);

	/* long forms */
	CHECK_EQ(parse(OSN_CMD_HIST,
		       "--cpus=0 --duration=2h --period=1000 --runtime=100 --threshold=5 --stop=7 --stop-total=9 --priority=o:5"),
		 0);
	CHECK_EQ(p.duration_s, 7200);
	CHECK_EQ(p.runtime_us, 100);
	CHECK_EQ(p.sched.policy, OSN_SCHED_OTHER);
}

TEST(period_runtime)
{
	/* a lone short period: runtime follows it */
	CHECK_EQ(parse(OSN_CMD_TOP, "-p 200"), 0);
	CHECK_EQ(p.runtime_us, 200);
	CHECK_EQ(parse(OSN_CMD_TOP, "-r 99"), -1);
	CHECK_STR(osn_last_err(), "-r 99: runtime must be >= 100 us");
	CHECK_EQ(parse(OSN_CMD_TOP, "-p 1000 -r 2000"), -1);
	CHECK_STR(osn_last_err(), "-r 2000: runtime must be <= period (1000 us)");
	CHECK_EQ(parse(OSN_CMD_TOP, "-r 2000000"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, "-p 60000001"), -1);
	CHECK_HAS(osn_last_err(), "-p '60000001' is too large");
	CHECK_EQ(parse(OSN_CMD_TOP, "-T 10000001"), -1);
}

/* osn hwnoise: rtla hwnoise's 75% duty cycle, runtime capped at 1 s */
TEST(hwnoise)
{
	CHECK_EQ(parse(OSN_CMD_HWNOISE, ""), 0);
	CHECK_EQ(p.period_us, 1000000);
	CHECK_EQ(p.runtime_us, 750000);
	CHECK_EQ(parse(OSN_CMD_HWNOISE, "-p 100000"), 0);
	CHECK_EQ(p.runtime_us, 75000);
	CHECK_EQ(parse(OSN_CMD_HWNOISE, "-p 2000000"), 0);
	CHECK_EQ(p.runtime_us, 750000);
	CHECK_EQ(parse(OSN_CMD_HWNOISE, "-p 3000000 -r 2000000"), -1);
	CHECK_STR(osn_last_err(),
		  "-r 2000000: runtime must be <= 1000000 us with interrupts disabled (osn hwnoise)");
	CHECK_EQ(parse(OSN_CMD_HWNOISE, "-b 2"), -1);
	CHECK_STR(osn_last_err(), "-b is an option of osn hist");
	CHECK_EQ(parse(OSN_CMD_HWNOISE, "--wide"), 0);
	CHECK(p.wide);
	/* top keeps its own defaults */
	CHECK_EQ(parse(OSN_CMD_TOP, "-p 100000"), 0);
	CHECK_EQ(p.runtime_us, 100000);
}

TEST(trace_and_auto)
{
	CHECK_EQ(parse(OSN_CMD_TOP, "-t"), 0);
	CHECK_STR(p.trace_file, OSN_TRACE_FILE);
	CHECK_EQ(parse(OSN_CMD_TOP, "-tmy.txt"), 0);
	CHECK_STR(p.trace_file, "my.txt");
	CHECK_EQ(parse(OSN_CMD_TOP, "-t=my.txt"), 0);
	CHECK_STR(p.trace_file, "my.txt");
	CHECK_EQ(parse(OSN_CMD_TOP, "--trace=x.txt"), 0);
	CHECK_STR(p.trace_file, "x.txt");
	CHECK_EQ(parse(OSN_CMD_TOP, "-t y.txt -q"), 0);
	CHECK_STR(p.trace_file, "y.txt");
	CHECK(p.quiet);
	CHECK_EQ(parse(OSN_CMD_TOP, "-t -q"), 0);
	CHECK_STR(p.trace_file, OSN_TRACE_FILE);

	CHECK_EQ(parse(OSN_CMD_TOP, "-a 50"), 0);
	CHECK_EQ(p.stop_us, 50);
	CHECK_EQ(p.threshold_us, 1);
	CHECK_STR(p.trace_file, OSN_TRACE_FILE);
	CHECK_EQ(parse(OSN_CMD_TOP, "-t z.txt -a 50"), 0);
	CHECK_STR(p.trace_file, "z.txt");
	CHECK_EQ(parse(OSN_CMD_TOP, "-a 50 -T 3"), 0);
	CHECK_EQ(p.threshold_us, 3);
}

TEST(events)
{
	CHECK_EQ(parse(OSN_CMD_TOP,
		       "-t -e sched:sched_switch --filter prev_pid>0 --trigger stacktrace -e irq"),
		 0);
	CHECK_EQ(p.nevents, 2);
	CHECK_STR(p.events[0].system, "sched");
	CHECK_STR(p.events[0].event, "sched_switch");
	CHECK_STR(p.events[0].filter, "prev_pid>0");
	CHECK_STR(p.events[0].trigger, "stacktrace");
	CHECK_STR(p.events[1].system, "irq");
	CHECK_STR(p.events[1].event, "");
	CHECK(!p.events[1].filter);

	CHECK_EQ(parse(OSN_CMD_TOP, "-e sched"), -1);
	CHECK_STR(osn_last_err(), "-e needs -t or a trace action: its events go to the saved trace");
	CHECK_EQ(parse(OSN_CMD_TOP, "-e sched -a 10"), 0);
	CHECK_EQ(parse(OSN_CMD_TOP, "-e sched --on-end trace"), 0);
	CHECK_EQ(parse(OSN_CMD_TOP, "-e sched --on-threshold trace,file=x"), 0);
	CHECK_EQ(parse(OSN_CMD_TOP, "-e sched --on-threshold continue"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, "--filter x"), -1);
	CHECK_STR(osn_last_err(), "--filter needs a previous -e");
	CHECK_EQ(parse(OSN_CMD_TOP, "--trigger x"), -1);
	CHECK_STR(osn_last_err(), "--trigger needs a previous -e");
	CHECK_EQ(parse(OSN_CMD_TOP, "-e sched:"), -1);
	CHECK_HAS(osn_last_err(), "is not sys[:event]");
	CHECK_EQ(parse(OSN_CMD_TOP, "-e :x"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, "-e a/b"), -1);
}

TEST(hist_options)
{
	CHECK_EQ(parse(OSN_CMD_HIST,
		       "-b 10 -E 100 --no-header --no-summary --no-index --with-zeros"),
		 0);
	CHECK_EQ(p.bucket_us, 10);
	CHECK_EQ(p.entries, 100);
	CHECK(p.no_header && p.no_summary && p.no_index && p.with_zeros);
	CHECK_EQ(parse(OSN_CMD_HIST, "--bucket-size=2 --entries=20"), 0);
	CHECK_EQ(p.bucket_us, 2);
	CHECK_EQ(p.entries, 20);

	CHECK_EQ(parse(OSN_CMD_HIST, "-b 0"), -1);
	CHECK_STR(osn_last_err(), "-b must be >= 1 us");
	CHECK_EQ(parse(OSN_CMD_HIST, "-E 5"), -1);
	CHECK_STR(osn_last_err(), "-E must be 10..9999999");
	CHECK_EQ(parse(OSN_CMD_HIST, "-E 10000000"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, "-b 2"), -1);
	CHECK_STR(osn_last_err(), "-b is an option of osn hist");
	CHECK_EQ(parse(OSN_CMD_TOP, "--no-header"), -1);
	CHECK_STR(osn_last_err(), "--no-header is an option of osn hist");
	CHECK_EQ(parse(OSN_CMD_HIST, "--wide"), -1);
	CHECK_STR(osn_last_err(), "--wide is an option of osn top");
	CHECK_EQ(parse(OSN_CMD_TOP, "--wide"), 0);
	CHECK(p.wide);
	/* --causes: top's and hist's; hist's takes how many culprits */
	CHECK_EQ(parse(OSN_CMD_HIST, "-b 10"), 0);
	CHECK(!p.causes);
	CHECK_EQ(parse(OSN_CMD_HIST, "--causes"), 0);
	CHECK(p.causes);
	CHECK_EQ(p.causes_max, 5);
	CHECK_EQ(parse(OSN_CMD_HIST, "--causes=3 -b 2"), 0);
	CHECK(p.causes);
	CHECK_EQ(p.causes_max, 3);
	CHECK_EQ(p.bucket_us, 2);
	CHECK_EQ(parse(OSN_CMD_HIST, "--causes=0"), -1);
	CHECK_EQ(parse(OSN_CMD_HIST, "--causes=x"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, "--causes"), 0);
	CHECK(p.causes);
	CHECK_EQ(parse(OSN_CMD_TOP, "--causes=3"), -1);
	CHECK_STR(osn_last_err(), "--causes=N is an option of osn hist");
	/* another command's long options, abbreviated or not */
	CHECK_EQ(parse(OSN_CMD_TOP, "--entries 20"), -1);
	CHECK_STR(osn_last_err(), "--entries is an option of osn hist");
	CHECK_EQ(parse(OSN_CMD_TOP, "--no-h"), -1);
	CHECK_STR(osn_last_err(), "--no-header is an option of osn hist");
	/* ambiguous among all commands' options, as before */
	CHECK_EQ(parse(OSN_CMD_HIST, "--wi"), -1);
	CHECK_STR(osn_last_err(), "unknown option --wi");
}

TEST(json)
{
	CHECK_EQ(parse(OSN_CMD_TOP, "--json"), 0);
	CHECK(p.json && !p.json_file);
	CHECK_EQ(parse(OSN_CMD_TOP, "--json=out.json"), 0);
	CHECK(p.json);
	CHECK_STR(p.json_file, "out.json");
	CHECK_EQ(parse(OSN_CMD_HIST, "--json=-"), 0);
	CHECK(p.json && !p.json_file);
}

TEST(report)
{
	CHECK_EQ(parse(OSN_CMD_TOP, "-d 5"), 0);
	CHECK(!p.report_file);
	CHECK_EQ(parse(OSN_CMD_TOP, "--report run.html"), 0);
	CHECK_STR(p.report_file, "run.html");
	CHECK_EQ(parse(OSN_CMD_HIST, "--report=h.html --json"), 0);
	CHECK_STR(p.report_file, "h.html");
	CHECK(p.json);
	CHECK_EQ(parse(OSN_CMD_HIST, "--report"), -1);
	CHECK_STR(osn_last_err(), "--report needs a value");
}

TEST(bad_values)
{
	CHECK_EQ(parse(OSN_CMD_TOP, "-c 0-9"), -1);
	CHECK_STR(osn_last_err(), "-c '0-9': cpu 9 does not exist (this machine has cpus 0-3)");
	CHECK_EQ(parse(OSN_CMD_TOP, "-c x"), -1);
	CHECK_HAS(osn_last_err(), "-c 'x' is not a cpu list");
	CHECK_EQ(parse(OSN_CMD_TOP, "-d -5"), -1);
	CHECK_STR(osn_last_err(), "-d '-5' is negative");
	CHECK_EQ(parse(OSN_CMD_TOP, "-d 5y"), -1);
	CHECK_STR(osn_last_err(), "-d '5y': unknown unit 'y' (use s, m, h or d)");
	CHECK_EQ(parse(OSN_CMD_TOP, "-d 0"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, "--warm-up 3q"), -1);
	CHECK_HAS(osn_last_err(), "--warm-up '3q': unknown unit");
	CHECK_EQ(parse(OSN_CMD_TOP, "-p -1"), -1);
	CHECK_STR(osn_last_err(), "-p '-1' is negative");
	CHECK_EQ(parse(OSN_CMD_TOP, "-s abc"), -1);
	CHECK_STR(osn_last_err(), "-s 'abc' is not a number");
	CHECK_EQ(parse(OSN_CMD_TOP, "-P z:1"), -1);
	CHECK_HAS(osn_last_err(), "-P 'z:1' is not a priority");
	CHECK_EQ(parse(OSN_CMD_TOP, "-H 7"), -1);
	CHECK_HAS(osn_last_err(), "-H '7': cpu 7 does not exist");
	CHECK_EQ(parse(OSN_CMD_TOP, "--trace-buffer-size 0"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, "-x"), -1);
	CHECK_STR(osn_last_err(), "unknown option -x");
	CHECK_EQ(parse(OSN_CMD_TOP, "--bogus"), -1);
	CHECK_STR(osn_last_err(), "unknown option --bogus");
	CHECK_EQ(parse(OSN_CMD_TOP, "-d"), -1);
	CHECK_STR(osn_last_err(), "-d needs a value");
	CHECK_EQ(parse(OSN_CMD_TOP, "--duration"), -1);
	CHECK_STR(osn_last_err(), "--duration needs a value");
	CHECK_EQ(parse(OSN_CMD_TOP, "extra"), -1);
	CHECK_STR(osn_last_err(), "unexpected argument 'extra'");
	/* no message is longer than one line */
	CHECK(!strchr(osn_last_err(), '\n'));
}

TEST(help)
{
	struct h_buf b;

	CHECK_EQ(parse(OSN_CMD_TOP, "-h"), 0);
	CHECK(p.help);
	CHECK_EQ(parse(OSN_CMD_HIST, "--help"), 0);
	CHECK(p.help);
	osn_usage(OSN_CMD_HIST, h_open(&b));
	h_close(&b);
	CHECK_HAS(b.text, "--with-zeros");
	CHECK_HAS(b.text, "Exit status");
	free(b.text);
	osn_usage(OSN_CMD_TOP, h_open(&b));
	h_close(&b);
	CHECK(!strstr(b.text, "--with-zeros"));
	CHECK_HAS(b.text, "-P, --priority");
	free(b.text);
}

/* --on-threshold, --on-end, -t's action last, -C[PATH] */
TEST(actions_and_cgroup)
{
	CHECK_EQ(parse(OSN_CMD_TOP,
		       "-s 10 --on-threshold shell,command=true -t t.txt --on-threshold continue --on-end signal,num=10,pid=parent"),
		 0);
	CHECK_EQ(p.on_threshold.len, 3);
	CHECK_EQ(p.on_threshold.list[0].type, OSN_ACTION_SHELL);
	CHECK_EQ(p.on_threshold.list[1].type, OSN_ACTION_CONTINUE);
	CHECK_EQ(p.on_threshold.list[2].type, OSN_ACTION_TRACE);
	CHECK_STR(p.on_threshold.list[2].arg, "t.txt");
	CHECK_EQ(p.on_end.len, 1);
	CHECK_EQ(p.on_end.list[0].pid, OSN_ACTION_PARENT);
	CHECK(!p.cgroup);

	CHECK_EQ(parse(OSN_CMD_HIST, "--on-end bogus"), -1);
	CHECK_STR(osn_last_err(), "Invalid action bogus");
	CHECK_EQ(parse(OSN_CMD_HIST, "--on-threshold shell"), -1);
	CHECK_STR(osn_last_err(), "Invalid action shell");

	CHECK_EQ(parse(OSN_CMD_TOP, "-C"), 0);
	CHECK(p.cgroup && !p.cgroup_path);
	CHECK_EQ(parse(OSN_CMD_TOP, "-C /osn -d 1"), 0);
	CHECK_STR(p.cgroup_path, "/osn");
	CHECK_EQ(p.duration_s, 1);
	CHECK_EQ(parse(OSN_CMD_HIST, "--cgroup=/a/b"), 0);
	CHECK_STR(p.cgroup_path, "/a/b");
	CHECK_EQ(parse(OSN_CMD_HIST, "-C/x"), 0);
	CHECK_STR(p.cgroup_path, "/x");
	CHECK_EQ(parse(OSN_CMD_HIST, "-C -d 2"), 0);
	CHECK(p.cgroup && !p.cgroup_path);
}

/* osn monitor: probes only, localhost, 15 s by default */
TEST(monitor_options)
{
	CHECK_EQ(parse(OSN_CMD_MONITOR, "-c 1"), 0);
	CHECK_STR(p.options, "NO_" OSN_OPT_WORKLOAD);
	CHECK_STR(p.listen, "127.0.0.1:9627");
	CHECK_EQ(p.interval_s, 15);
	CHECK(!p.textfile_dir && !p.workload && !p.causes);
	CHECK_EQ(parse(OSN_CMD_MONITOR,
		       "--workload --textfile /d --listen [::1]:9 --interval 1m --causes"), 0);
	CHECK_STR(p.options, OSN_OPT_WORKLOAD);
	CHECK(p.workload && p.causes);
	CHECK_STR(p.textfile_dir, "/d");
	CHECK_STR(p.listen, "[::1]:9");
	CHECK_EQ(p.interval_s, 60);
	CHECK_EQ(parse(OSN_CMD_MONITOR, "--listen off"), 0);
	CHECK(!p.listen);
	CHECK_EQ(parse(OSN_CMD_MONITOR, "--interval 0"), -1);
	/* nothing of a run that ends */
	CHECK_EQ(parse(OSN_CMD_MONITOR, "-s 10"), -1);
	CHECK_EQ(parse(OSN_CMD_MONITOR, "-S 10"), -1);
	CHECK_EQ(parse(OSN_CMD_MONITOR, "-t f.txt"), -1);
	CHECK_EQ(parse(OSN_CMD_MONITOR, "--on-end shell,command=true"), -1);
	CHECK_EQ(parse(OSN_CMD_MONITOR, "--json"), -1);
	CHECK_EQ(parse(OSN_CMD_MONITOR, "--report r.html"), -1);
	CHECK_EQ(parse(OSN_CMD_MONITOR, "--audit"), -1);
	/* top has no monitor options, and no options knob of its own */
	CHECK_EQ(parse(OSN_CMD_TOP, "--textfile /d"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, ""), 0);
	CHECK(!p.options);
}

/* top's --summary and --group, hist's --layout; a long -c */
TEST(many_cpus_options)
{
	static char list[2048];
	char *argv[] = { "top", "-c", list, NULL };
	size_t off = 0;

	CHECK_EQ(parse(OSN_CMD_TOP, "--summary"), 0);
	CHECK(p.summary && !p.group);
	CHECK_EQ(parse(OSN_CMD_HWNOISE, "--group 16 --wide"), 0);
	CHECK(!p.summary && p.group == 16 && p.wide);
	CHECK_EQ(parse(OSN_CMD_TOP, "--group=2"), 0);
	CHECK_EQ(p.group, 2);
	CHECK_EQ(parse(OSN_CMD_TOP, "--group 1"), -1);
	CHECK_STR(osn_last_err(), "--group N: N must be 2..4096 (CPUs a row)");
	CHECK_EQ(parse(OSN_CMD_TOP, "--group 4097"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, "--group x"), -1);
	CHECK_EQ(parse(OSN_CMD_TOP, "--summary --group 8"), -1);
	CHECK_HAS(osn_last_err(), "--summary and --group");
	CHECK_EQ(parse(OSN_CMD_HIST, "--summary"), -1);
	CHECK_STR(osn_last_err(), "--summary is an option of osn top");

	CHECK_EQ(parse(OSN_CMD_HIST, ""), 0);
	CHECK_EQ(p.layout, OSN_LAYOUT_AUTO);
	CHECK_EQ(parse(OSN_CMD_HIST, "--layout rows"), 0);
	CHECK_EQ(p.layout, OSN_LAYOUT_ROWS);
	CHECK_EQ(parse(OSN_CMD_HIST, "--layout=columns"), 0);
	CHECK_EQ(p.layout, OSN_LAYOUT_COLUMNS);
	CHECK_EQ(parse(OSN_CMD_HIST, "--layout rows --layout auto"), 0);
	CHECK_EQ(p.layout, OSN_LAYOUT_AUTO);
	CHECK_EQ(parse(OSN_CMD_HIST, "--layout row"), -1);
	CHECK_STR(osn_last_err(), "--layout 'row': columns, rows or auto");
	CHECK_EQ(parse(OSN_CMD_TOP, "--layout rows"), -1);
	CHECK_STR(osn_last_err(), "--layout is an option of osn hist");

	/* -c 0,1,...,255 (914 characters) on a 256-CPU machine */
	for (int c = 0; c < 256; c++)
		off += snprintf(list + off, sizeof(list) - off, "%s%d",
				c ? "," : "", c);
	osn_params_free(&p);
	CHECK_EQ(osn_parse_args(OSN_CMD_TOP, 3, argv, 256, &p), 0);
	CHECK(p.have_cpus);
	CHECK_EQ(osn_cpuset_count(&p.cpus), 256);
	CHECK_EQ(osn_parse_args(OSN_CMD_TOP, 3, argv, 200, &p), -1);
	CHECK_HAS(osn_last_err(), "...': cpu 200 does not exist (this machine has cpus 0-199)");
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(defaults);
	RUN(common);
	RUN(period_runtime);
	RUN(hwnoise);
	RUN(trace_and_auto);
	RUN(events);
	RUN(hist_options);
	RUN(json);
	RUN(report);
	RUN(bad_values);
	RUN(help);
	RUN(actions_and_cgroup);
	RUN(monitor_options);
	RUN(many_cpus_options);
	osn_params_free(&p);
	return h_done(argv[0]);
}
