/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd.h - the command table (pure): one struct per measuring command with
 * everything the commands differ in (pure parts only: its name, options
 * and help, defaults, what it checks, how its output is titled and which
 * columns it shows).  params.c and render.c read a command's traits here,
 * never compare command numbers; the run's ops (tool.h) say what the
 * command does at run time.
 */
#ifndef OSN_CMD_H
#define OSN_CMD_H

#include <stdbool.h>
#include <stdint.h>

#include "params.h"

struct option;

struct osn_cmd_desc {
	const char *name;		/* "top": osn top */

	/* its own options (cmds.c), after the common ones (params.c) */
	const char *shortopts;
	const struct option *longopts;
	/* OPT_OK, OPT_ERR, OPT_END or OPT_NOT_MINE (opts.h) */
	int (*handle)(struct osn_params *p, int c, const char *arg);
	const char *about;		/* usage: what it does */
	const char *help;		/* usage: its own options */
	/*
	 * Long names of common options it refuses (an error naming them,
	 * given long; the short ones its handler refuses), and of those
	 * whose common help line it hides (its help has its own, or none);
	 * NULL-terminated, NULL: none.
	 */
	const char *const *refused;
	const char *const *help_hides;

	/* defaults, after the common ones; NULL: none */
	void (*defaults)(struct osn_params *p);
	/* its checks of options together, after parsing; NULL: none */
	int (*check)(const struct osn_params *p);
	/* the runtime when not given: this % of the period */
	unsigned runtime_pct;
	/* the longest runtime (0: the period) and why, for the error */
	uint64_t max_runtime_us;
	const char *max_runtime_why;
	/* runs until stopped: no stop condition, trace, JSON or report */
	bool until_stopped;
	/* the module's options knob for the run; NULL: left alone */
	const char *options;
	/* the module's mode for the run (OSN_MODE_*); NULL: osnoise */
	const char *mode;

	/* output */
	const char *title;		/* the text table's title */
	const char *json_tool;		/* JSON "tool" */
	int nclasses;			/* noise classes shown (the first N) */
	bool hist_config;		/* its JSON config has -b and -E */
};

extern const struct osn_cmd_desc osn_cmds[OSN_NR_CMDS];

static inline const struct osn_cmd_desc *osn_cmd_desc(enum osn_cmd cmd)
{
	return &osn_cmds[cmd];
}

#endif
