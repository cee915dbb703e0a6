/* SPDX-License-Identifier: GPL-2.0 */
/* Parse a command line given as one string, for the option tests. */
#ifndef OSN_PARSE_LINE_H
#define OSN_PARSE_LINE_H

#include <stdio.h>
#include <string.h>

#include "params.h"

/*
 * "@argv0 @line" split at spaces into argv (argv0 is the word before the
 * options: "top", "timerlat"), parsed into @p for @cmd with 4 CPUs.
 */
static inline int parse_line(struct osn_params *p, enum osn_cmd cmd,
			     const char *argv0, const char *line)
{
	static char buf[1024];
	char *argv[64];
	int argc = 0;
	char *tok, *save = NULL;

	osn_params_free(p);	/* the previous parse's actions */
	snprintf(buf, sizeof(buf), "%s %s", argv0, line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 63;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return osn_parse_args(cmd, argc, argv, 4, p);
}

#endif
