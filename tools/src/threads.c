// SPDX-License-Identifier: GPL-2.0
/*
 * threads.c - workload threads and affinities (see threads.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "threads.h"

int osn_find_threads(const struct osn_cpuset *cpus, struct osn_thread *out,
		     int max)
{
	enum pids_item items[] = { PIDS_ID_PID, PIDS_CMD };
	enum { I_PID, I_CMD };	/* the items' places in a stack */
	struct pids_info *info = NULL;
	struct pids_fetch *all;
	size_t plen = strlen(OSN_THREAD_PREFIX);
	int n = 0;

	if (procps_pids_new(&info, items, sizeof(items) / sizeof(items[0])) < 0)
		return -1;
	all = procps_pids_reap(info, PIDS_FETCH_TASKS_ONLY);
	for (int i = 0; all && i < all->counts->total; i++) {
		struct pids_stack *stack = all->stacks[i];
		int pid = OSN_PIDS_VAL(I_PID, s_int, stack, info);
		const char *cmd = OSN_PIDS_VAL(I_CMD, str, stack, info);
		char *end;
		long cpu;

		if (!cmd || strncmp(cmd, OSN_THREAD_PREFIX, plen))
			continue;
		cpu = strtol(cmd + plen, &end, 10);
		if (end == cmd + plen || *end || cpu < 0 || cpu >= OSN_MAX_CPUS)
			continue;
		if (cpus && !osn_cpuset_isset(cpus, (int)cpu))
			continue;
		if (n < max) {
			out[n].pid = pid;
			out[n].cpu = (int)cpu;
		}
		n++;
	}
	procps_pids_unref(&info);
	if (!all)
		return -1;
	return n < max ? n : max;
}

/* struct sched_attr of sched_setattr(2); glibc 2.36 has no wrapper. */
struct osn_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

int osn_apply_sched(pid_t pid, const struct osn_sched *s)
{
	struct osn_sched_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	switch (s->policy) {
	case OSN_SCHED_OTHER:
		a.sched_policy = SCHED_OTHER;
		a.sched_nice = s->prio;
		break;
	case OSN_SCHED_RR:
		a.sched_policy = SCHED_RR;
		a.sched_priority = s->prio;
		break;
	case OSN_SCHED_FIFO:
		a.sched_policy = SCHED_FIFO;
		a.sched_priority = s->prio;
		break;
	case OSN_SCHED_DEADLINE:
		a.sched_policy = SCHED_DEADLINE;
		a.sched_runtime = s->runtime_ns;
		a.sched_deadline = s->period_ns;
		a.sched_period = s->period_ns;
		break;
	default:
		return 0;
	}
	return (int)syscall(SYS_sched_setattr, pid, &a, 0);
}

int osn_set_affinity(const struct osn_cpuset *cpus)
{
	size_t size;
	cpu_set_t *set = osn_cpuset_to_glibc(cpus, &size);
	char list[256];
	int r;

	if (!set)
		return osn_err("out of memory");
	r = sched_setaffinity(0, size, set);
	CPU_FREE(set);
	if (r) {
		osn_format_cpulist(cpus, list, sizeof(list));
		return osn_err("cannot run osn on cpus %s: %s", list,
			       strerror(errno));
	}
	return 0;
}

int osn_online_cpus(struct osn_cpuset *set)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int r = -1;

	osn_cpuset_zero(set);
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		r = osn_parse_cpulist(buf, OSN_MAX_CPUS, set);
	fclose(f);
	return r;
}

/* Where cgroup2 is mounted (the first mount), or -1 */
static int cgroup2_mount(char *buf, size_t len)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *m;
	int ret = -1;

	if (!f)
		return -1;
	while ((m = getmntent(f)))
		if (!strcmp(m->mnt_type, "cgroup2")) {
			osn_strlcpy(buf, m->mnt_dir, len);
			ret = 0;
			break;
		}
	endmntent(f);
	return ret;
}

/* osn's own cgroup v2 path: the "0::PATH" line of /proc/self/cgroup */
static int self_cgroup(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[4096];
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			osn_strlcpy(buf, line + 3, len);
			ret = 0;
			break;
		}
	fclose(f);
	return ret;
}

int osn_cgroup_open(const char *path)
{
	char mnt[2048], self[2048], procs[4200];
	int fd;

	if (cgroup2_mount(mnt, sizeof(mnt)))
		return osn_err("Did not find cgroupv2 mount point");
	if (!path) {
		if (self_cgroup(self, sizeof(self)))
			return osn_err("Did not find self cgroup");
		path = self;
	}
	snprintf(procs, sizeof(procs), "%s%s%s/cgroup.procs", mnt,
		 path[0] == '/' ? "" : "/", path);
	osn_debug("-C: %s", procs);
	fd = open(procs, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return osn_err("Failed to move threads to cgroup: %s: %s", procs,
			       strerror(errno));
	return fd;
}

int osn_cgroup_move(int fd, pid_t pid)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%d\n", (int)pid);

	return write(fd, buf, len) == len ? 0 : -1;
}
