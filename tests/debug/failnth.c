// SPDX-License-Identifier: GPL-2.0
/*
 * osn-failnth - do one system call with its Nth memory allocation failing
 * (the debug kernel's /proc/thread-self/fail-nth, CONFIG_FAULT_INJECTION),
 * for tests/debug/guest/faults/.
 *
 *   osn-failnth N insmod FILE [PARAMS]   finit_module(FILE, PARAMS)
 *   osn-failnth N write PATH STRING      open(PATH), then write(STRING)
 *   osn-failnth N mkdir PATH             mkdir(PATH)
 *   osn-failnth N rmdir PATH             rmdir(PATH)
 *   osn-failnth 0 count OP ARGS...       do OP with no failure, and print
 *                                        how many allocations it made
 *
 * Only the one system call counts: the file is opened (and this program
 * started) before fail-nth is armed, and it is disarmed right after.
 * With OSN_FAILNTH_TASK=TID, the fail-nth of that task is armed instead
 * (/proc/TID/task/TID/fail-nth): a kernel thread that the call waits for,
 * such as cpuhp/N, which runs a CPU's online callbacks.
 * N = 0 runs the call with no injection.  With OSN_FAILNTH_MARK set to a
 * trace_marker file, "osn-failnth: armed" and "osn-failnth: disarmed" are
 * written to it around the armed window, so that a trace of the calls
 * fail-nth counts (tests/debug/guest/faults/faults.sh) can be cut to it.
 * Prints one line:
 *   rc=0|-1 errno=NAME injected=0|1
 * and exits 0 if the call succeeded, 1 if it failed, 2 on a usage or
 * setup error.  A shell cannot do this: its every fork and exec allocates.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "failnth-mark.h"

static int fail_nth_fd = -1;

/* Armed this far, fail-nth counts calls without ever failing one. */
#define OSN_COUNT_FROM	1000000000UL

static void arm(unsigned long n)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%lu", n);

	if (n && write(fail_nth_fd, buf, len) != len) {
		perror("osn-failnth: write fail-nth");
		exit(2);
	}
}

/* What is left of the count (0: the failure was injected); disarms it. */
static unsigned long disarm(unsigned long n)
{
	char buf[32] = "";
	ssize_t len;

	if (!n)
		return 1;
	len = pread(fail_nth_fd, buf, sizeof(buf) - 1, 0);
	if (write(fail_nth_fd, "0", 1) != 1)
		perror("osn-failnth: reset fail-nth");
	return len > 0 ? strtoul(buf, NULL, 10) : 1;
}

int main(int argc, char **argv)
{
	unsigned long n;
	int fd = -1, rc, err, counting = 0;
	unsigned long left;
	const char *op;

	if (argc < 4) {
		fprintf(stderr, "usage: osn-failnth N insmod FILE [PARAMS] | write PATH STRING | mkdir PATH | rmdir PATH\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 10);
	op = argv[2];
	/* count: arm far away, so that nothing fails, and read back. */
	if (!strcmp(op, "count") && argc >= 5) {
		counting = 1;
		n = OSN_COUNT_FROM;
		argv++;
		argc--;
		op = argv[2];
	}
	if (getenv("OSN_FAILNTH_TASK")) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%1$s/task/%1$s/fail-nth",
			 getenv("OSN_FAILNTH_TASK"));
		fail_nth_fd = open(path, O_RDWR);
	} else {
		fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	}
	if (fail_nth_fd < 0) {
		perror("osn-failnth: fail-nth (CONFIG_FAULT_INJECTION?)");
		return 2;
	}
	if (!strcmp(op, "insmod") || !strcmp(op, "write")) {
		fd = open(argv[3], !strcmp(op, "insmod") ? O_RDONLY : O_WRONLY);
		if (fd < 0) {
			fprintf(stderr, "osn-failnth: %s: %s\n", argv[3], strerror(errno));
			return 2;
		}
	}

	if (mark_open()) {
		perror("osn-failnth: OSN_FAILNTH_MARK");
		return 2;
	}

	mark("osn-failnth: armed");
	arm(n);
	if (!strcmp(op, "insmod"))
		rc = syscall(SYS_finit_module, fd, argc > 4 ? argv[4] : "", 0);
	else if (!strcmp(op, "write") && argc > 4)
		rc = write(fd, argv[4], strlen(argv[4])) == (ssize_t)strlen(argv[4]) ? 0 : -1;
	else if (!strcmp(op, "mkdir"))
		rc = mkdir(argv[3], 0755);
	else if (!strcmp(op, "rmdir"))
		rc = rmdir(argv[3]);
	else {
		fprintf(stderr, "osn-failnth: unknown operation %s\n", op);
		return 2;
	}
	err = rc ? errno : 0;
	left = disarm(n);
	mark("osn-failnth: disarmed");

	if (counting)
		printf("rc=%d errno=%s allocations=%lu\n", rc,
		       err ? strerrorname_np(err) : "0", OSN_COUNT_FROM - left);
	else
		printf("rc=%d errno=%s injected=%d\n", rc,
		       err ? strerrorname_np(err) : "0", left == 0);
	return rc ? 1 : 0;
}
