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

#include "util.h"

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
