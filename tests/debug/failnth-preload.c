// SPDX-License-Identifier: GPL-2.0
/*
 * osn-failnth.so - fail the Nth memory allocation a whole program makes in
 * the kernel (/proc/thread-self/fail-nth of the debug kernel), counted from
 * its first instruction, not from exec: the kernel's exec path and the
 * dynamic loader's mappings, which are not the program's, come before.
 * For tests/debug/guest/faults/30-osn-top.sh:
 *
 *   OSN_FAILNTH=N OSN_FAILNTH_OUT=FILE LD_PRELOAD=.../osn-failnth.so PROG...
 *
 * The constructor arms fail-nth with N on the main thread and drops both
 * variables from the environment (a child would arm itself again).  At
 * exit the destructor reads what is left of the count (0: the failure was
 * injected), disarms, and writes "left=COUNT" to FILE.  N = 1000000000
 * counts the program's allocations without failing one: the test's dry run.
 * With OSN_FAILNTH_MARK=FILE (a trace_marker), "osn-failnth: armed" and
 * "osn-failnth: disarmed" are written to it around the armed span, as
 * osn-failnth does (faults.sh cuts its trace of the allocations there).
 * A preloaded library rather than osn-failnth's one-call mode: an osn run is
 * hundreds of system calls, and only its own should count.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "failnth-mark.h"

static int fail_nth_fd = -1;
static char out_path[256];

__attribute__((constructor)) static void osn_failnth_arm(void)
{
	const char *n = getenv("OSN_FAILNTH");
	const char *out = getenv("OSN_FAILNTH_OUT");

	if (!n || !out || strlen(out) >= sizeof(out_path))
		return;
	strcpy(out_path, out);
	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fail_nth_fd < 0)
		return;
	mark_open();	/* no mark lines if it cannot be opened */
	unsetenv("OSN_FAILNTH");
	unsetenv("OSN_FAILNTH_OUT");
	unsetenv("OSN_FAILNTH_MARK");
	unsetenv("LD_PRELOAD");
	mark("osn-failnth: armed");
	/* Armed last: nothing above may take the failure meant for PROG. */
	if (write(fail_nth_fd, n, strlen(n)) != (ssize_t)strlen(n)) {
		close(fail_nth_fd);
		fail_nth_fd = -1;
	}
}

__attribute__((destructor)) static void osn_failnth_report(void)
{
	char buf[32] = "";
	ssize_t len;
	int fd;

	if (fail_nth_fd < 0)
		return;
	len = pread(fail_nth_fd, buf, sizeof(buf) - 1, 0);
	/* Disarmed before the file below is opened (that allocates too). */
	if (write(fail_nth_fd, "0", 1) != 1)
		return;
	mark("osn-failnth: disarmed");
	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	dprintf(fd, "left=%lu\n", len > 0 ? strtoul(buf, NULL, 10) : 1UL);
	close(fd);
}
