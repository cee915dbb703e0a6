/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audit_int.h - what the files of osn audit share among themselves (not
 * for its callers: they use audit.h).  audit.c reads files and records
 * findings; the check areas live in audit_boot.c, audit_affinity.c and
 * audit_system.c.
 */
#ifndef OSN_AUDIT_INT_H
#define OSN_AUDIT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "audit.h"

/* Names listed in an aggregated line */
#define LIST_MAX	8

/* audit_rd() results */
enum { RD_OK = 0, RD_ABSENT = -1, RD_ROOT = -2, RD_ERR = -3 };

/* Note @path among the files only root may read. */
void audit_need_root(struct osn_audit *a, const char *path);
/*
 * Read @path (under the root) into @buf; RD_ABSENT if it does not exist,
 * RD_ROOT if only root may read it (noted), RD_ERR otherwise (osn_err).
 * A file longer than @len - 1 is an error, not silently cut.
 */
int audit_rd(struct osn_audit *a, const char *path, char *buf, size_t len);
/* Trailing newline and spaces off; returns @s. */
char *audit_chomp(char *s);
/* Record a finding of @check; @fix may be NULL. */
void audit_add(struct osn_audit *a, enum osn_audit_status st,
	       const char *check, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/*
 * A finding for a file that could not be read (@r, audit_rd()'s result):
 * n/a with why.  Returns true if it added one.
 */
bool audit_unread(struct osn_audit *a, int r, const char *check,
		  const char *path, const char *absent_why);
/*
 * snprintf at the end of @buf, a whole piece or nothing: the first piece
 * that does not fit (with room for " ...") ends @buf with " ..." and the
 * later ones are dropped.
 */
void audit_append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The check areas, in the order osn_audit_run() calls them. */
void osn_audit_check_boot(struct osn_audit *a);		/* audit_boot.c */
void osn_audit_check_irqs(struct osn_audit *a);		/* audit_affinity.c */
void osn_audit_check_tasks(struct osn_audit *a);
void osn_audit_check_memory(struct osn_audit *a);	/* audit_system.c */
void osn_audit_check_workqueues(struct osn_audit *a);
void osn_audit_check_sysctls(struct osn_audit *a);
void osn_audit_check_power(struct osn_audit *a);
void osn_audit_check_kernel(struct osn_audit *a);

#endif
