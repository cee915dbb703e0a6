// SPDX-License-Identifier: GPL-2.0
/*
 * threads.c - workload threads and affinities (see threads.h), and the
 * run's part that sets them up: -P and -C on the osn/N threads (run.h).
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
#include "cmd.h"
#include "run.h"
#include "threads.h"
#include "tlat.h"

int osn_find_threads(const struct osn_cpuset *cpus, struct osn_thread *out,
		     int max)
{
	return osn_find_threads_named(OSN_THREAD_PREFIX, cpus, out, max);
}

int osn_find_threads_named(const char *prefix, const struct osn_cpuset *cpus,
			   struct osn_thread *out, int max)
{
	enum pids_item items[] = { PIDS_ID_PID, PIDS_CMD };
	enum { I_PID, I_CMD };	/* the items' places in a stack */
	struct pids_info *info = NULL;
	struct pids_fetch *all;
	size_t plen = strlen(prefix);
	int n = 0;

	if (procps_pids_new(&info, items, ARRAY_SIZE(items)) < 0)
		return -1;
	all = procps_pids_reap(info, PIDS_FETCH_TASKS_ONLY);
	for (int i = 0; all && i < all->counts->total; i++) {
		struct pids_stack *stack = all->stacks[i];
		int pid = OSN_PIDS_VAL(I_PID, s_int, stack, info);
		const char *cmd = OSN_PIDS_VAL(I_CMD, str, stack, info);
		char *end;
		long cpu;

		if (!cmd || strncmp(cmd, prefix, plen))
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

/* ---- -P, -C in a run (run.h) ------------------------------------------------ */

int osn_run_threads_attach(struct osn_tool *t)
{
	const struct osn_params *p = t->p;

	if (!(t->ops->parts & OSN_PART_THREADS) ||
	    (p->sched.policy == OSN_SCHED_NONE && !p->cgroup))
		return 0;
	/* timerlat's -u processes take -P and -C themselves (tlat_user.c) */
	if (osn_cmd_desc(p->cmd)->mode && p->tlat_threads != OSN_TLAT_KERNEL)
		return 0;
	t->threads = malloc(sizeof(*t->threads));
	if (!t->threads)
		return osn_err("out of memory");
	t->threads->cgroup_fd = -1;
	if (p->cgroup) {
		t->threads->cgroup_fd = osn_cgroup_open(p->cgroup_path);
		if (t->threads->cgroup_fd < 0)
			return -1;
	}
	return 0;
}

/* The workload threads' names: osn/N, or timerlat's timerlat/N. */
static const char *thread_prefix(const struct osn_tool *t)
{
	return osn_cmd_desc(t->p->cmd)->mode ? OSN_TLAT_THREAD_PREFIX :
		OSN_THREAD_PREFIX;
}

/* Up to 10 s for the workload threads of the measured CPUs; how many came. */
static int wait_for_threads(struct osn_tool *t, struct osn_thread *th)
{
	int n = 0;

	for (int tries = 0; tries < 100; tries++) {
		n = osn_find_threads_named(thread_prefix(t), &t->measured, th,
					   (int)t->ncpus);
		if (n >= (int)t->ncpus || !osn_tool_sleep_ms(100))
			break;
	}
	return n;
}

static int sched_threads(struct osn_tool *t, const struct osn_thread *th,
			 int n, const char *prio)
{
	for (int i = 0; i < n; i++) {
		osn_debug("sched_setattr(%s%d, pid %d, %s)", thread_prefix(t),
			  th[i].cpu, (int)th[i].pid, prio);
		if (osn_apply_sched(th[i].pid, &t->p->sched))
			return osn_err("-P %s on %s%d (pid %d): %s", prio,
				       thread_prefix(t), th[i].cpu,
				       (int)th[i].pid, strerror(errno));
	}
	return 0;
}

/*
 * -C: each thread to the cgroup (rtla's set_comm_cgroup()).  The kernel
 * refuses to migrate a kthread bound to its CPU (PF_NO_SETAFFINITY:
 * EINVAL), and osn/N is one: osn says so and runs on with the threads
 * where they are.  rtla osnoise -C ends the same way, silently: it looks
 * for osnoise/N before tracing starts them, finds none and moves nothing
 * (7.2).  Any other refusal is an error, rtla's.
 */
static int cgroup_threads(struct osn_tool *t, const struct osn_thread *th,
			  int n)
{
	for (int i = 0; i < n; i++) {
		osn_debug("-C: %s%d (pid %d)", thread_prefix(t), th[i].cpu,
			  (int)th[i].pid);
		if (!osn_cgroup_move(t->threads->cgroup_fd, th[i].pid))
			continue;
		if (errno != EINVAL)
			return osn_err("Failed to move threads to cgroup: %s%d (pid %d): %s",
				       thread_prefix(t), th[i].cpu,
				       (int)th[i].pid, strerror(errno));
		osn_warn("-C: the kernel does not move %s%d (pid %d), a kthread bound to its CPU (%s): the workload threads stay in their cgroup",
			 thread_prefix(t), th[i].cpu, (int)th[i].pid,
			 strerror(errno));
		return 0;
	}
	return 0;
}

/* -P, -C: wait for the osn/N threads, then sched_setattr each, then -C. */
int osn_run_threads_setup(struct osn_tool *t)
{
	const struct osn_params *p = t->p;
	struct osn_thread *th;
	char prio[64] = "";
	int n, ret;

	if (!t->threads)
		return 0;
	th = calloc(t->ncpus, sizeof(*th));
	if (!th)
		return osn_err("out of memory");
	n = wait_for_threads(t, th);
	if (p->sched.policy != OSN_SCHED_NONE)
		osn_format_sched(&p->sched, prio, sizeof(prio));
	if ((p->sched.policy == OSN_SCHED_FIFO ||
	     p->sched.policy == OSN_SCHED_RR) &&
	    !osn_cmd_desc(p->cmd)->mode && p->runtime_us == p->period_us)
		osn_warn("-P %s with runtime = period: the measured CPUs run nothing else but what real-time throttling allows (their timers and kthreads starve); consider -r < -p",
			 prio);
	if (n <= 0) {
		osn_err("%s: no workload thread %sN for cpus %.200s appeared in 10 s",
			prio[0] ? "-P" : "-C", thread_prefix(t), t->cpus_str);
		free(th);
		return osn_interrupted ? 0 : -1;
	}
	if (n < (int)t->ncpus)
		osn_warn("-P/-C: only %d of %zu workload threads found", n,
			 t->ncpus);
	ret = (prio[0] && sched_threads(t, th, n, prio)) ||
	      (p->cgroup && cgroup_threads(t, th, n)) ? -1 : 0;
	free(th);
	return ret;
}

void osn_run_threads_free(struct osn_tool *t)
{
	if (!t->threads)
		return;
	if (t->threads->cgroup_fd >= 0)
		close(t->threads->cgroup_fd);
	free(t->threads);
	t->threads = NULL;
}
