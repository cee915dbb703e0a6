// SPDX-License-Identifier: GPL-2.0
/*
 * tlat_user.c - osn timerlat -u (see tlat_user.h): rtla's timerlatu/N.
 *
 * Each process names itself timerlatu/<cpu> (PR_SET_NAME), binds itself
 * to its CPU, joins the -C cgroup, takes its scheduling, opens
 * OSN_TLAT_DEV and reads it until a read fails.  The module starts the
 * run in a worker after osn enabled its events, so the open is retried
 * while it says EINVAL, for a few seconds.  The module SIGKILLs the
 * processes when the run stops or their CPU goes offline, and each dies
 * with osn (PR_SET_PDEATHSIG): a SIGKILL of osn leaves none behind, and
 * osn cleanup puts the knobs back as after any run.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "threads.h"
#include "tlat_user.h"

/* How long a process retries its open while the run starts. */
#define OPEN_RETRY_MS	5000

struct osn_tlat_user {
	size_t n;
	pid_t *pid;		/* 0: reaped */
	int *cpu;
};

static void child_fail(int cpu, const char *what)
{
	fprintf(stderr, "osn: %s%d: %s: %s\n", OSN_TLAT_USER_PREFIX, cpu, what,
		strerror(errno));
	_exit(1);
}

/* The device, retried while the run is starting (EINVAL). */
static int child_open(void)
{
	struct timespec ms = { 0, 10 * 1000 * 1000 };
	int fd;

	for (int waited = 0;; waited += 10) {
		fd = open(OSN_TLAT_DEV, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 || errno != EINVAL || waited >= OPEN_RETRY_MS)
			return fd;
		nanosleep(&ms, NULL);
	}
}

static void __attribute__((noreturn))
child(int cpu, pid_t parent, const struct osn_sched *sched, int cgroup_fd)
{
	char name[16], buf[1];
	sigset_t none;
	cpu_set_t set;
	int fd;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	/* osn's handlers and mask are osn's: ^C ends these at once */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	snprintf(name, sizeof(name), OSN_TLAT_USER_PREFIX "%d", cpu);
	prctl(PR_SET_NAME, name);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		child_fail(cpu, "cannot bind to its CPU");
	if (cgroup_fd >= 0 && osn_cgroup_move(cgroup_fd, getpid()))
		child_fail(cpu, "cannot join the -C cgroup");
	if (osn_apply_sched(0, sched))
		child_fail(cpu, "cannot set its scheduling");
	fd = child_open();
	if (fd < 0)
		child_fail(cpu, "cannot open " OSN_TLAT_DEV);
	while (read(fd, buf, sizeof(buf)) >= 0)
		;
	/* EINVAL: the run is over (or the CPU gone); anything else fails */
	if (errno != EINVAL)
		child_fail(cpu, "read " OSN_TLAT_DEV);
	_exit(0);
}

struct osn_tlat_user *osn_tlat_user_start(const int *cpus, size_t ncpus,
					  const struct osn_sched *sched,
					  bool cgroup, const char *cgroup_path)
{
	const struct osn_sched fifo95 = {
		.policy = OSN_SCHED_FIFO, .prio = OSN_TLAT_PRIO,
	};
	struct osn_tlat_user *u = calloc(1, sizeof(*u));
	int cgroup_fd = -1;

	if (sched->policy == OSN_SCHED_NONE)
		sched = &fifo95;
	if (!u || !(u->pid = calloc(ncpus ? ncpus : 1, sizeof(*u->pid))) ||
	    !(u->cpu = calloc(ncpus ? ncpus : 1, sizeof(*u->cpu)))) {
		osn_tlat_user_stop(u);
		osn_err("out of memory");
		return NULL;
	}
	if (cgroup && (cgroup_fd = osn_cgroup_open(cgroup_path)) < 0) {
		osn_tlat_user_stop(u);
		return NULL;
	}
	fflush(NULL);	/* nothing buffered twice */
	for (size_t i = 0; i < ncpus; i++) {
		pid_t parent = getpid(), pid = fork();

		if (pid == 0)
			child(cpus[i], parent, sched, cgroup_fd);
		if (pid < 0) {
			osn_err("cannot fork %s%d: %s", OSN_TLAT_USER_PREFIX,
				cpus[i], strerror(errno));
			if (cgroup_fd >= 0)
				close(cgroup_fd);
			osn_tlat_user_stop(u);
			return NULL;
		}
		u->pid[u->n] = pid;
		u->cpu[u->n++] = cpus[i];
		osn_debug("%s%d: pid %d", OSN_TLAT_USER_PREFIX, cpus[i],
			  (int)pid);
	}
	if (cgroup_fd >= 0)
		close(cgroup_fd);
	return u;
}

/* One process's end, reaped: said if it failed rather than was killed. */
static void ended(const struct osn_tlat_user *u, size_t i, int status)
{
	if (WIFSIGNALED(status))
		osn_debug("%s%d killed by signal %d", OSN_TLAT_USER_PREFIX,
			  u->cpu[i], WTERMSIG(status));
	else if (WEXITSTATUS(status))
		osn_warn("%s%d ended with status %d: CPU %d is no longer measured",
			 OSN_TLAT_USER_PREFIX, u->cpu[i], WEXITSTATUS(status),
			 u->cpu[i]);
}

void osn_tlat_user_reap(struct osn_tlat_user *u)
{
	int status;

	for (size_t i = 0; u && i < u->n; i++)
		if (u->pid[i] && waitpid(u->pid[i], &status, WNOHANG) > 0) {
			ended(u, i, status);
			u->pid[i] = 0;
		}
}

void osn_tlat_user_stop(struct osn_tlat_user *u)
{
	int status;

	if (!u)
		return;
	for (size_t i = 0; u->pid && i < u->n; i++)
		if (u->pid[i])
			kill(u->pid[i], SIGKILL);
	for (size_t i = 0; u->pid && i < u->n; i++)
		if (u->pid[i] && waitpid(u->pid[i], &status, 0) > 0)
			ended(u, i, status);
	free(u->pid);
	free(u->cpu);
	free(u);
}
