// SPDX-License-Identifier: GPL-2.0
/*
 * osn.c - entry point of the osn CLI: osn top | hist | hwnoise | monitor | timerlat |
 * upstream | audit | compare | cleanup.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "audit.h"
#include "compare_cmd.h"
#include "osn.h"
#include "session.h"
#include "upstream.h"
#include "util.h"

static void usage(FILE *f)
{
	fputs("usage: osn COMMAND [options]\n"
	      "\n"
	      "  osn measures the operating system noise with the osn kernel module\n"
	      "  and says what caused it.\n"
	      "\n"
	      "commands:\n"
	      "  top       per-CPU summary of the noise, refreshed every second\n"
	      "  hist      per-CPU histogram of the noise samples\n"
	      "  hwnoise   top with interrupts disabled: hardware and NMI noise\n"
	      "  monitor   Prometheus metrics of the noise, until stopped\n"
	      "  timerlat  [top|hist] timer latency of a thread per CPU, as rtla\n"
	      "  upstream  a saved trace with osn:sample as the osnoise tracer's lines\n"
	      "  audit     check how well the CPUs are isolated from noise\n"
	      "  compare   runs saved with --json, side by side, with a verdict\n"
	      "  cleanup   undo what an osn killed with SIGKILL left behind\n"
	      "\n"
	      "  osn COMMAND -h shows the options of COMMAND; see osn(1).\n", f);
}

static int cleanup_main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-D") || !strcmp(argv[i], "--debug")) {
			osn_debug_level++;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			puts("usage: osn cleanup [-D]\n\n"
			     "  Removes the tracefs instances and restores the module knobs\n"
			     "  that an osn which did not exit cleanly left behind.");
			return 0;
		} else {
			fprintf(stderr, "osn: cleanup: unexpected argument '%s'\n",
				argv[i]);
			return 1;
		}
	}
	if (geteuid() != 0) {
		fprintf(stderr, "osn: must be run as root (tracefs and the module's knobs are root-only)\n");
		return 1;
	}
	if (osn_session_cleanup_only()) {
		osn_err_print();
		return 1;
	}
	return 0;
}

/* osn upstream [FILE...]: each FILE ("-" or none: stdin) to stdout. */
static int upstream_main(int argc, char **argv)
{
	int i = 1;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: osn upstream [FILE...]\n\n"
		     "  Prints a trace saved by osn (-t), or read from an instance's\n"
		     "  trace or trace_pipe, with each osn:sample record as the line\n"
		     "  of the upstream osnoise tracer's per-period summary: runtime,\n"
		     "  noise and max single noise in us, % of CPU available, HW NMI\n"
		     "  IRQ SIRQ THREAD counts.  Other lines are copied as they are.\n"
		     "  Without FILE, or with -, reads stdin.  See osn(1).");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--"))
		i++;
	else if (argc > 1 && argv[1][0] == '-' && argv[1][1]) {
		fprintf(stderr, "osn: upstream: unknown option '%s'\n", argv[1]);
		return 1;
	}
	do {
		const char *path = i < argc ? argv[i] : "-";
		FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
		int r;

		if (!in) {
			fprintf(stderr, "osn: upstream: cannot read %s: %s\n",
				path, strerror(errno));
			return 1;
		}
		r = osn_upstream_filter(in, stdout);
		if (in != stdin)
			fclose(in);
		if (r) {
			fprintf(stderr, "osn: upstream: %s: %s\n", path,
				strerror(errno));
			return 1;
		}
	} while (++i < argc);
	return 0;
}

/* The measuring commands, run by osn_tool_main(). */
static const struct osn_tool_ops *const tools[] = {
	&osn_top_ops, &osn_hist_ops, &osn_hwnoise_ops, &osn_monitor_ops,
};

int main(int argc, char **argv)
{
	long nr = sysconf(_SC_NPROCESSORS_CONF);
	int nr_cpus = nr > 0 && nr <= 4096 ? (int)nr : 4096;

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++)
		if (!strcmp(argv[1], osn_cmd_name(tools[i]->cmd)))
			return osn_tool_main(tools[i], argc - 1, argv + 1,
					     nr_cpus);
	/* osn timerlat [top|hist]: as rtla, no mode (or an option) is top */
	if (!strcmp(argv[1], "timerlat")) {
		if (argc > 2 && !strcmp(argv[2], "hist"))
			return osn_tool_main(&osn_tlat_hist_ops, argc - 2,
					     argv + 2, nr_cpus);
		if (argc > 2 && !strcmp(argv[2], "top"))
			return osn_tool_main(&osn_tlat_top_ops, argc - 2,
					     argv + 2, nr_cpus);
		return osn_tool_main(&osn_tlat_top_ops, argc - 1, argv + 1,
				     nr_cpus);
	}
	if (!strcmp(argv[1], "upstream"))
		return upstream_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "audit"))
		return osn_audit_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return osn_compare_main(argc - 1, argv + 1, stdout, stderr);
	if (!strcmp(argv[1], "cleanup"))
		return cleanup_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("osn " OSN_VERSION "\n");
		return 0;
	}
	fprintf(stderr, "osn: unknown command '%s' (osn top, hist, hwnoise, monitor, timerlat, upstream, audit or cleanup)\n",
		argv[1]);
	return 1;
}
