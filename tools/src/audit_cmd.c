// SPDX-License-Identifier: GPL-2.0
/*
 * audit_cmd.c - `osn audit`: options, the tasks (libproc2), the output
 * (the checks are in audit.c).  Exit status: 0 nothing fails, 1 something
 * fails, 2 error.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "threads.h"

#define PF_KTHREAD_		0x00200000	/* include/linux/sched.h */
#define PF_NO_SETAFFINITY_	0x04000000

static void usage(FILE *f)
{
	fputs("usage: osn audit [-c CPUS] [--json]\n"
	      "\n"
	      "  Checks how well this machine isolates CPUS from noise: boot\n"
	      "  parameters, IRQ affinities, tasks, memory, workqueues, sysctls,\n"
	      "  CPU power and the kernel.  One line per check: status (ok, warn,\n"
	      "  fail, n/a), the evidence read and where, and the fix.  Reads\n"
	      "  only; root is not required (what needs it is listed).\n"
	      "\n"
	      "  -c, --cpus CPUS   the CPUs to audit (default: isolcpus=/nohz_full=\n"
	      "                    of the kernel command line, else all but CPU 0)\n"
	      "      --json        JSON on stdout\n"
	      "  -h, --help        this help\n"
	      "\n"
	      "  Exit status: 0 nothing fails, 1 something fails, 2 error.\n"
	      "  See osn-audit(1) and Documentation/isolation.md.\n", f);
}

/*
 * Every task with its flags, state, scheduling and allowed CPUs, read by
 * libproc2 (one procps_pids_reap()).  libproc2 has no item for the
 * affinity (status: Cpus_allowed_list): sched_getaffinity(2) gives it,
 * without privilege and without parsing.
 */
struct osn_audit_task *osn_audit_read_tasks(int *n, const char **why)
{
	enum pids_item items[] = { PIDS_ID_PID, PIDS_CMD, PIDS_FLAGS, PIDS_STATE,
				   PIDS_SCHED_CLASS, PIDS_PRIORITY_RT, PIDS_NICE };
	/* the items' places in a stack */
	enum { I_PID, I_CMD, I_FLAGS, I_STATE, I_POLICY, I_RTPRIO, I_NICE };
	struct pids_info *info = NULL;
	struct osn_audit_task *t = NULL;
	struct pids_fetch *all;
	cpu_set_t *set = CPU_ALLOC(OSN_MAX_CPUS);
	size_t size = CPU_ALLOC_SIZE(OSN_MAX_CPUS);
	pid_t self = getpid();

	*n = 0;
	if (!set) {
		*why = "out of memory";
		return NULL;
	}
	if (procps_pids_new(&info, items, ARRAY_SIZE(items)) < 0 ||
	    !(all = procps_pids_reap(info, PIDS_FETCH_TASKS_ONLY))) {
		procps_pids_unref(&info);
		CPU_FREE(set);
		*why = "libproc2 could not read /proc";
		return NULL;
	}
	t = calloc(all->counts->total ? all->counts->total : 1, sizeof(*t));
	if (!t) {
		procps_pids_unref(&info);
		CPU_FREE(set);
		*why = "out of memory";
		return NULL;
	}
	for (int i = 0; i < all->counts->total; i++) {
		struct pids_stack *s = all->stacks[i];
		struct osn_audit_task *x;
		int pid = OSN_PIDS_VAL(I_PID, s_int, s, info);
		const char *cmd = OSN_PIDS_VAL(I_CMD, str, s, info);
		unsigned long fl = OSN_PIDS_VAL(I_FLAGS, ul_int, s, info);

		if (pid == self)
			continue;
		CPU_ZERO_S(size, set);
		if (sched_getaffinity(pid, size, set))
			continue;	/* gone */
		x = &t[(*n)++];
		x->pid = pid;
		osn_strlcpy(x->comm, cmd ? cmd : "?", sizeof(x->comm));
		x->kthread = fl & PF_KTHREAD_;
		x->no_setaffinity = fl & PF_NO_SETAFFINITY_;
		x->state = OSN_PIDS_VAL(I_STATE, s_ch, s, info);
		x->policy = OSN_PIDS_VAL(I_POLICY, s_int, s, info);
		x->prio = x->policy == SCHED_FIFO || x->policy == SCHED_RR ?
			  OSN_PIDS_VAL(I_RTPRIO, s_int, s, info) :
			  OSN_PIDS_VAL(I_NICE, s_int, s, info);
		for (int c = 0; c < OSN_MAX_CPUS; c++)
			if (CPU_ISSET_S(c, size, set))
				osn_cpuset_set(&x->allowed, c);
	}
	procps_pids_unref(&info);
	CPU_FREE(set);
	return t;
}

int osn_audit_main(int argc, char **argv)
{
	const char *cpus = NULL, *root = NULL;
	struct osn_audit_task *tasks = NULL;
	struct osn_audit a;
	bool json = false;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(o, "--json")) {
			json = true;
		} else if (!strcmp(o, "-c") || !strcmp(o, "--cpus")) {
			if (++i == argc) {
				fprintf(stderr, "osn: audit: %s needs a cpu list\n", o);
				return 2;
			}
			cpus = argv[i];
		} else if (!strncmp(o, "--cpus=", 7)) {
			cpus = o + 7;
		} else if (!strncmp(o, "-c", 2)) {
			cpus = o + 2;
		} else if (!strcmp(o, "--root")) {
			/* hidden, for tests: read every file under DIR */
			if (++i == argc) {
				fprintf(stderr, "osn: audit: --root needs a directory\n");
				return 2;
			}
			root = argv[i];
		} else {
			fprintf(stderr, "osn: audit: unknown option %s (osn audit -h)\n", o);
			return 2;
		}
	}
	if (osn_audit_init(&a, root, cpus)) {
		fprintf(stderr, "osn: audit: %s\n", osn_last_err());
		osn_audit_free(&a);
		return 2;
	}
	if (root && *root) {
		/* libproc2 reads the live /proc only */
		a.tasks_why = "not under --root (libproc2 reads the live /proc)";
	} else {
		tasks = osn_audit_read_tasks(&a.nr_tasks, &a.tasks_why);
		a.tasks = tasks;
	}
	osn_audit_run(&a);
	if (json)
		osn_audit_print_json(&a, stdout);
	else
		osn_audit_print(&a, stdout);
	rc = osn_audit_exit_status(&a);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "osn: audit: cannot write the output: %s\n",
			strerror(errno));
		rc = 2;
	}
	osn_audit_free(&a);
	free(tasks);
	return rc;
}
