/* SPDX-License-Identifier: GPL-2.0 */
/*
 * failnth-mark.h - the trace_marker lines of osn-failnth (failnth.c) and
 * osn-failnth.so (failnth-preload.c): with OSN_FAILNTH_MARK=FILE (a
 * trace_marker), "osn-failnth: armed" and "osn-failnth: disarmed" are
 * written to it around the armed span, so that faults.sh can cut its trace
 * of the allocations there.  Both programs open the file before they arm
 * fail-nth: opening it allocates.
 */
#ifndef OSN_FAILNTH_MARK_H
#define OSN_FAILNTH_MARK_H

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int mark_fd = -1;

/* Opens $OSN_FAILNTH_MARK if set: 0, or -1 (errno set) if it cannot. */
static int mark_open(void)
{
	const char *path = getenv("OSN_FAILNTH_MARK");

	if (!path)
		return 0;
	mark_fd = open(path, O_WRONLY | O_CLOEXEC);
	return mark_fd < 0 ? -1 : 0;
}

/* A line in the trace around the armed window, if asked for. */
static void mark(const char *what)
{
	/* Quietly: with tracing off the write fails, and that is fine. */
	if (mark_fd >= 0 && write(mark_fd, what, strlen(what)) < 0)
		return;
}

#endif /* OSN_FAILNTH_MARK_H */
