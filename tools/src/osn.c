// SPDX-License-Identifier: GPL-2.0
/*
 * osn.c - entry point of the osn CLI: osn top | osn hist | osn cleanup.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "audit.h"
#include "osn.h"
#include "session.h"
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
	      "  audit     check how well the CPUs are isolated from noise\n"
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

int main(int argc, char **argv)
{
	long nr = sysconf(_SC_NPROCESSORS_CONF);
	int nr_cpus = nr > 0 && nr <= 4096 ? (int)nr : 4096;

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "top"))
		return osn_tool_main(&osn_top_ops, argc - 1, argv + 1, nr_cpus);
	if (!strcmp(argv[1], "hist"))
		return osn_tool_main(&osn_hist_ops, argc - 1, argv + 1, nr_cpus);
	if (!strcmp(argv[1], "audit"))
		return osn_audit_main(argc - 1, argv + 1);
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
	fprintf(stderr, "osn: unknown command '%s' (osn top, osn hist, osn audit or osn cleanup)\n",
		argv[1]);
	return 1;
}
