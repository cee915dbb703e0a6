/* SPDX-License-Identifier: GPL-2.0 */
/*
 * threads.h - the workload threads osn/N: find them (libproc2), set their
 * scheduling (-P, sched_setattr) and move osn itself to the housekeeping
 * CPUs (sched_setaffinity).
 */
#ifndef OSN_THREADS_H
#define OSN_THREADS_H

#include <stddef.h>
#include <sys/types.h>

#include <libproc2/pids.h>

#include "util.h"

/*
 * libproc2's accessor of a value of a stack (pids.h): procps 4.0.2
 * (Debian 12) takes an unused 4th argument, info; later versions dropped
 * it.  tools/Makefile tries the 3-argument form and sets OSN_PIDS_VAL_3
 * where it compiles.
 */
#ifdef OSN_PIDS_VAL_3
#define OSN_PIDS_VAL(rel, type, stack, info)	PIDS_VAL(rel, type, stack)
#else
#define OSN_PIDS_VAL(rel, type, stack, info)	PIDS_VAL(rel, type, stack, info)
#endif

struct osn_thread {
	pid_t pid;
	int cpu;			/* the N of osn/N */
};

/*
 * Tasks named osn/N with N in @cpus (NULL: any N).  Returns how many
 * (at most @max) were stored in @out, -1 on error.
 */
int osn_find_threads(const struct osn_cpuset *cpus, struct osn_thread *out,
		     int max);
/* The same for threads named @prefix N (timerlat/N). */
int osn_find_threads_named(const char *prefix, const struct osn_cpuset *cpus,
			   struct osn_thread *out, int max);

/* sched_setattr() @s on @pid; -1 with errno on failure. */
int osn_apply_sched(pid_t pid, const struct osn_sched *s);

/* Move the calling process to @cpus; -1 with osn_err() on failure. */
int osn_set_affinity(const struct osn_cpuset *cpus);

/*
 * -C: open cgroup.procs of the cgroup v2 @path (relative to the cgroup2
 * mount), or of osn's own cgroup when NULL.  The fd, or -1 with
 * osn_err() (rtla's messages).
 */
int osn_cgroup_open(const char *path);

/* Move @pid to the cgroup of @fd; -1 with errno on failure. */
int osn_cgroup_move(int fd, pid_t pid);

/* Online CPUs (/sys/devices/system/cpu/online), as a set. */
int osn_online_cpus(struct osn_cpuset *set);

#endif
