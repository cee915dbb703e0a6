/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlat_user.h - osn timerlat -u: the timerlatu/N processes, one per
 * measured CPU, that read OSN_TLAT_DEV (the module's user-space mode).
 */
#ifndef OSN_TLAT_USER_H
#define OSN_TLAT_USER_H

#include <stddef.h>

#include "util.h"

struct osn_tlat_user;

/*
 * Fork a timerlatu/N for each of the @ncpus CPUs of @cpus: bound to it,
 * in the cgroup -C names (@cgroup; @cgroup_path NULL: osn's own), with
 * scheduling @sched (SCHED_FIFO 95 when none).  NULL with osn_err() on
 * failure (those already forked are killed).
 */
struct osn_tlat_user *osn_tlat_user_start(const int *cpus, size_t ncpus,
					  const struct osn_sched *sched,
					  bool cgroup, const char *cgroup_path);

/* Reap those that ended; one that failed (not killed) is reported. */
void osn_tlat_user_reap(struct osn_tlat_user *u);

/* SIGKILL and reap every one left, and free @u (NULL: nothing). */
void osn_tlat_user_stop(struct osn_tlat_user *u);

#endif
