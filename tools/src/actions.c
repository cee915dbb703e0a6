// SPDX-License-Identifier: GPL-2.0
/*
 * actions.c - --on-threshold / --on-end actions (see actions.h), with
 * rtla's syntax: comma-separated, the type first, then key=value
 * arguments.  One deliberate difference: shell's command is the rest of
 * the argument, commas included (rtla cuts it at the first comma).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions.h"
#include "util.h"

/* rtla's strtoi(): the whole string, an int */
static int parse_int(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < INT_MIN || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

/* @tok is "key=value" with a non-empty value: the value, else NULL */
static const char *value_of(const char *tok, const char *key)
{
	size_t n = strlen(key);

	return strncmp(tok, key, n) || !tok[n] ? NULL : tok + n;
}

/* signal's arguments (num=, pid=, in any order, the last one wins) */
static int parse_signal(struct osn_action *act, char **save)
{
	const char *tok, *v;

	act->signal = 0;
	act->pid = 0;
	while ((tok = strtok_r(NULL, ",", save))) {
		if ((v = value_of(tok, "num="))) {
			if (parse_int(v, &act->signal))
				return -1;
		} else if ((v = value_of(tok, "pid="))) {
			if (!strcmp(v, "parent"))
				act->pid = OSN_ACTION_PARENT;
			else if (parse_int(v, &act->pid))
				return -1;
		} else {
			return -1;
		}
	}
	/* both are needed, and 0 is none (as in rtla) */
	return act->signal && act->pid ? 0 : -1;
}

static int parse_action(struct osn_action *act, const char *spec,
			char *copy, const char *deftrace)
{
	char *save = NULL;
	const char *type = strtok_r(copy, ",", &save);
	const char *tok, *v;

	if (!type)
		return -1;
	tok = strcmp(type, "signal") ? strtok_r(NULL, ",", &save) : NULL;
	if (!strcmp(type, "trace")) {
		act->type = OSN_ACTION_TRACE;
		v = tok ? value_of(tok, "file=") : deftrace;
		if (!v || strtok_r(NULL, ",", &save))
			return -1;	/* one argument at most: file= */
	} else if (!strcmp(type, "signal")) {
		act->type = OSN_ACTION_SIGNAL;
		return parse_signal(act, &save);
	} else if (!strcmp(type, "shell")) {
		act->type = OSN_ACTION_SHELL;
		if (!tok || !value_of(tok, "command="))
			return -1;
		/* the rest of the argument, commas included */
		v = spec + (tok - copy) + strlen("command=");
	} else if (!strcmp(type, "continue")) {
		act->type = OSN_ACTION_CONTINUE;
		return tok ? -1 : 0;
	} else {
		return -1;
	}
	act->arg = strdup(v);
	return act->arg ? 0 : -1;
}

int osn_actions_parse(struct osn_actions *a, const char *spec,
		      const char *deftrace)
{
	struct osn_action *act;
	char *copy;
	int ret;

	if (a->len == OSN_MAX_ACTIONS)
		return osn_err("more than %d actions", OSN_MAX_ACTIONS);
	copy = strdup(spec);
	if (!copy)
		return osn_err("out of memory");
	act = &a->list[a->len];
	memset(act, 0, sizeof(*act));
	ret = parse_action(act, spec, copy, deftrace);
	free(copy);
	if (ret) {
		free(act->arg);
		act->arg = NULL;
		return osn_err("Invalid action %s", spec);
	}
	if (act->type == OSN_ACTION_TRACE)
		a->has_trace = true;
	a->len++;
	return 0;
}

int osn_actions_add_trace(struct osn_actions *a, const char *file)
{
	struct osn_action *act = &a->list[a->len];

	if (a->len == OSN_MAX_ACTIONS)
		return osn_err("more than %d actions", OSN_MAX_ACTIONS);
	memset(act, 0, sizeof(*act));
	act->type = OSN_ACTION_TRACE;
	act->arg = strdup(file);
	if (!act->arg)
		return osn_err("out of memory");
	a->has_trace = true;
	a->len++;
	return 0;
}

void osn_actions_free(struct osn_actions *a)
{
	for (int i = 0; i < a->len; i++)
		free(a->list[i].arg);
	memset(a, 0, sizeof(*a));
}

bool osn_actions_perform(const struct osn_actions *a,
			 int (*save)(void *ctx, const char *file), void *ctx)
{
	for (int i = 0; i < a->len; i++) {
		const struct osn_action *act = &a->list[i];
		pid_t pid;

		switch (act->type) {
		case OSN_ACTION_TRACE:
			if (save(ctx, act->arg)) {
				osn_err_print();
				osn_warn("Error saving trace");
				return false;
			}
			break;
		case OSN_ACTION_SIGNAL:
			pid = act->pid == OSN_ACTION_PARENT ? getppid() : act->pid;
			if (kill(pid, act->signal)) {
				osn_warn("Error sending signal %d to pid %d: %s",
					 act->signal, (int)pid, strerror(errno));
				return false;
			}
			break;
		case OSN_ACTION_SHELL:
			fflush(NULL);	/* the command's output after osn's */
			if (system(act->arg))
				return false;
			break;
		case OSN_ACTION_CONTINUE:
			return true;
		}
	}
	return false;
}

void osn_numbered_file(const char *base, unsigned n, char *buf, size_t len)
{
	if (n)
		snprintf(buf, len, "%s.%u", base, n);
	else
		osn_strlcpy(buf, base, len);
}
