/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - one osn run owns the module: a lock file with the owner's
 * pid and everything it changed (knobs, instances, tracing_on), so that
 *  - a second osn says who is running and exits;
 *  - a run after a crash or SIGKILL (flock released by the kernel) finds
 *    the stale record and undoes it before starting.
 */
#ifndef OSN_SESSION_H
#define OSN_SESSION_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "knobs.h"

#define OSN_LOCK_FILE		"osn.lock"
#define OSN_MAX_INSTANCES	4

/*
 * A system file the run changed (a cpuidle state's disable): its value
 * before, put back at the end, or by the next osn after a crash.
 */
#define OSN_MAX_SAVED_FILES	512
struct osn_saved_file {
	char path[96];
	char value[16];
};

struct osn_session {
	int fd;
	char path[256];
	const char *tool;
	struct osn_knobs knobs;
	char instances[OSN_MAX_INSTANCES][64];
	int ninstances;
	int top_tracing_on;		/* saved top-level tracing_on, -1 unknown */
	struct osn_saved_file files[OSN_MAX_SAVED_FILES];
	int nfiles;
};

/* Set by the SIGINT/SIGTERM/SIGHUP handler. */
extern volatile sig_atomic_t osn_interrupted;
void osn_signals_install(void);
/* Block/unblock the handled signals (around cleanup). */
void osn_signals_block(bool block);
/*
 * ppoll(2) that a handled signal always ends: -1 with errno EINTR when
 * osn_interrupted is set, before or during the wait (no lost wake-up
 * between the check and the sleep).
 */
int osn_signals_ppoll(struct pollfd *fds, nfds_t nfds,
		      const struct timespec *timeout);

/*
 * Take the lock (a file in /run, or /tmp without /run).  If a live osn
 * holds it: -1 with (osn_err) "another osn is running (pid N, osn top): ...".  If
 * the previous owner died, undo what it recorded first (its instances,
 * knobs, top-level tracing_on) and say so on stderr.
 */
int osn_session_begin(struct osn_session *s, const char *tool);
/* Record the current state in the lock file (call after each change). */
void osn_session_persist(struct osn_session *s);
void osn_session_add_instance(struct osn_session *s, const char *name);
/*
 * Write @value to the system file @path, its value before saved in the
 * journal first (a "file PATH VALUE" line): put back by
 * osn_session_end(), or by the next osn (osn cleanup) if this one is
 * killed.  -1 with osn_err() if it cannot be read or written.
 */
int osn_session_set_file(struct osn_session *s, const char *path,
			 const char *value);
/*
 * Undo everything: instances, knobs, tracing_on; release the lock.
 * Returns -1 (osn_err: the first failure) if something could not be
 * restored.
 */
int osn_session_end(struct osn_session *s);

/* Remove leftovers of a dead osn without running anything (osn cleanup). */
int osn_session_cleanup_only(void);

#endif
