/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audit.h - osn audit: check how well a machine isolates some CPUs (see
 * Documentation/isolation.md).  Reads files only, never writes.
 *
 * Every file is read under a root prefix (struct osn_audit.root, "" for
 * the live system; the hidden option --root DIR sets it for the unit
 * tests' fixture trees).  The tasks come from the caller (audit_cmd.c
 * reads them with libproc2; the unit tests make them up), so that the
 * audit's files need nothing but libc and are unit-tested on the host:
 * audit.c (setup, reading, findings), audit_parse.c (parsers),
 * audit_boot.c, audit_affinity.c, audit_system.c (the check areas) and
 * audit_print.c (the reports).
 */
#ifndef OSN_AUDIT_H
#define OSN_AUDIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

enum osn_audit_status {
	OSN_AUDIT_OK,
	OSN_AUDIT_WARN,
	OSN_AUDIT_FAIL,
	OSN_AUDIT_NA,
};

/*
 * A fix a check writes before audit_add() copies it: room for two CPU
 * lists (the audited and the housekeeping CPUs) and its words.
 */
#define OSN_AUDIT_FIX_LEN	(2 * OSN_CPULIST_LEN + 512)
/* /proc/cmdline, and so the longest value of one of its parameters */
#define OSN_AUDIT_CMDLINE_LEN	8192

/*
 * evidence and fix are allocated (osn_audit_free() frees them) at their
 * length: they quote CPU lists and masks, which have no useful bound.
 */
struct osn_audit_finding {
	char check[48];
	enum osn_audit_status status;
	char *evidence;
	char *fix;		/* "" when there is none */
};

/* A task as the audit needs it (audit_cmd.c fills these from libproc2). */
struct osn_audit_task {
	int pid;
	char comm[64];
	bool kthread;		/* PF_KTHREAD */
	bool no_setaffinity;	/* PF_NO_SETAFFINITY: taskset cannot move it */
	char state;
	int policy;		/* SCHED_OTHER, SCHED_FIFO, ... */
	int prio;		/* rt priority, or nice */
	struct osn_cpuset allowed;
};

/* isolcpus= flags */
#define OSN_ISOL_DOMAIN		0x1
#define OSN_ISOL_MANAGED_IRQ	0x2
#define OSN_ISOL_NOHZ		0x4

struct osn_audit {
	char root[512];		/* "" = the live system */
	bool x86;		/* tsc=reliable applies */
	int nr_cpus;		/* CPUs 0..nr_cpus-1 are possible */
	struct osn_cpuset cpus;	/* audited */
	struct osn_cpuset online;	/* online CPUs (possible ones if unknown) */
	struct osn_cpuset hk;	/* online CPUs that are not audited */
	char cpus_str[OSN_CPULIST_LEN], hk_str[OSN_CPULIST_LEN];
	char cpus_from[160];	/* why these CPUs (default or -c) */
	char cmdline[OSN_AUDIT_CMDLINE_LEN];
	bool have_cmdline;
	/* tasks: NULL with tasks_why set when they could not be read */
	const struct osn_audit_task *tasks;
	int nr_tasks;
	const char *tasks_why;
	struct osn_audit_finding *f;
	int n, cap;
	char (*unreadable)[160];	/* files that need root */
	int nr_unreadable;
};

/*
 * Set up @a for the system under @root ("" or NULL: the live one) and the
 * CPUs @cpus_arg (NULL: isolcpus=/nohz_full= of the command line, else all
 * but CPU 0).  Returns -1 with the reason as the last error (a bad -c, no
 * CPU to audit).
 */
int osn_audit_init(struct osn_audit *a, const char *root, const char *cpus_arg);
/* Run every check (the task checks use a->tasks). */
void osn_audit_run(struct osn_audit *a);
void osn_audit_print(const struct osn_audit *a, FILE *f);
void osn_audit_print_json(const struct osn_audit *a, FILE *f);
/* 0: nothing failed; 1: something failed. */
int osn_audit_exit_status(const struct osn_audit *a);
void osn_audit_free(struct osn_audit *a);
const char *osn_audit_status_name(enum osn_audit_status s);
/* The finding of @check, NULL if none (tests). */
const struct osn_audit_finding *osn_audit_find(const struct osn_audit *a,
					       const char *check);

/* `osn audit ARGS...` (audit_cmd.c): 0, 1 (something fails) or 2 (error). */
int osn_audit_main(int argc, char **argv);
/* Every task of the live /proc (libproc2); NULL with *why set on failure. */
struct osn_audit_task *osn_audit_read_tasks(int *n, const char **why);

/* ---- parsers of what it reads (pure; unit-tested) ---- */

/*
 * Parameter @name of a kernel command line: 0 absent, 1 bare ("nowatchdog"),
 * 2 with a value copied to @val (the last one given wins, as for most
 * parameters).  Quoted values ("a b") are unquoted.
 */
int osn_cmdline_param(const char *cmdline, const char *name, char *val,
		      size_t len);
/* isolcpus=[flag,...,]cpulist -> OSN_ISOL_* flags and CPUs; -1 + osn_err. */
int osn_parse_isolcpus(const char *val, int nr_cpus, unsigned int *flags,
		       struct osn_cpuset *set);
/* A kernel hex bitmap ("ff,00000001") -> CPUs; -1 + osn_err. */
int osn_parse_hexmask(const char *s, struct osn_cpuset *set);
void osn_format_hexmask(const struct osn_cpuset *set, char *buf, size_t len);
/*
 * The selected word of a choice file: "always [madvise] never" with
 * @open '[' (THP), "none (voluntary) full" with '(' (sched/preempt).
 * -1 + osn_err when there is not exactly one.
 */
int osn_parse_choice(const char *s, char open, char *out, size_t len);
/* A whole file holding one integer (and a newline): -1 + osn_err. */
int osn_parse_long(const char *s, long *out);
/*
 * /proc/interrupts: the header ("CPU0 CPU1 ...") gives each column's CPU
 * (up to @max); returns the number of columns, -1 + osn_err.
 */
int osn_parse_irq_header(const char *line, int *cols, int max);
/*
 * One line: "27:  5  7  PCI-MSI 49153-edge  virtio0-input.0".  @irq gets
 * the label before ':', @counts the @ncols counters (fewer on lines like
 * ERR:, the rest 0), @desc the rest with its spaces squeezed, @name its
 * last word (the action's name).  -1 + osn_err on a malformed line.
 */
int osn_parse_irq_line(const char *line, int ncols, char *irq, size_t irqlen,
		       uint64_t *counts, char *desc, size_t desclen,
		       char *name, size_t namelen);
/* /proc/swaps: the number of active swap areas, -1 + osn_err. */
int osn_parse_swaps(const char *text);
/* "irq/27-virtio0" (an IRQ thread): 27; -1 for another name */
int osn_irq_thread_irq(const char *comm);

#endif
