/* SPDX-License-Identifier: GPL-2.0 */
/*
 * actions.h - --on-threshold and --on-end (rtla's actions.c): what to do
 * when a stop condition is hit, and at the end of the run.
 *
 *   trace[,file=F]            save the trace (default osn_trace.txt)
 *   signal,num=N,pid=P|parent send signal N to P (or to osn's parent)
 *   shell,command=C           run C with sh -c
 *   continue                  go on measuring (--on-threshold only)
 *
 * Several run in the order given; one that fails ends the list (as in rtla:
 * a later continue is then not reached).
 */
#ifndef OSN_ACTIONS_H
#define OSN_ACTIONS_H

#include <stdbool.h>
#include <stddef.h>

#define OSN_MAX_ACTIONS		16
#define OSN_ACTION_PARENT	(-1)	/* pid=parent */

enum osn_action_type {
	OSN_ACTION_TRACE,
	OSN_ACTION_SIGNAL,
	OSN_ACTION_SHELL,
	OSN_ACTION_CONTINUE,
};

struct osn_action {
	enum osn_action_type type;
	char *arg;		/* trace: the file; shell: the command (owned) */
	int signal, pid;	/* signal */
};

struct osn_actions {
	struct osn_action list[OSN_MAX_ACTIONS];
	int len;
	bool has_trace;		/* a trace action is in the list */
};

/*
 * Add the action @spec to @a; @deftrace is trace's default file.  -1 with
 * "Invalid action SPEC" (rtla's message) as the last error.
 */
int osn_actions_parse(struct osn_actions *a, const char *spec,
		      const char *deftrace);
/* Add trace,file=@file (-t's action: any file name). */
int osn_actions_add_trace(struct osn_actions *a, const char *file);
void osn_actions_free(struct osn_actions *a);

/*
 * Run the actions in order; @save writes the trace to a file.  Returns
 * true when a continue action was reached.
 */
bool osn_actions_perform(const struct osn_actions *a,
			 int (*save)(void *ctx, const char *file), void *ctx);

/*
 * The file the @n-th save (0 first) to @base goes to: @base, then
 * @base.1, @base.2, ... so that a run that continues keeps every hit.
 */
void osn_numbered_file(const char *base, unsigned n, char *buf, size_t len);

#endif
