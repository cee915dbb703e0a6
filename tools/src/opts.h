/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - what the option parser (params.c) and the commands' option
 * handlers (cmds.c) share: the long options' codes and the handlers'
 * results.
 */
#ifndef OSN_OPTS_H
#define OSN_OPTS_H

#include <stdint.h>

/* Long options without a short one; one set for all commands (getopt). */
enum {
	OPT_FILTER = 256,
	OPT_TRIGGER,
	OPT_WARMUP,
	OPT_BUFSIZE,
	OPT_JSON,
	OPT_WIDE,
	OPT_NO_HEADER,
	OPT_NO_SUMMARY,
	OPT_NO_INDEX,
	OPT_WITH_ZEROS,
	OPT_VERSION,
	OPT_ON_THRESHOLD,
	OPT_ON_END,
	OPT_REPORT,
	OPT_CAUSES,
	OPT_AUDIT,
	OPT_WORKLOAD,
	OPT_TEXTFILE,
	OPT_LISTEN,
	OPT_INTERVAL,
	OPT_NO_IRQ,
	OPT_NO_THREAD,
	OPT_AA_ONLY,
	OPT_NO_AA,
	OPT_DUMP_TASKS,
	OPT_DMA_LATENCY,
	OPT_DEEPEST_IDLE,
	OPT_SUMMARY,
	OPT_GROUP,
	OPT_LAYOUT,
};

/* What an option handler did with an option. */
enum {
	OPT_ERR = -1,		/* a bad value: the last error says why */
	OPT_OK,
	OPT_NOT_MINE,		/* not in the handler's table */
	OPT_END,		/* -h, --version: nothing more to parse */
};

/* "-x 'value': reason", the reason being the last error; OPT_ERR */
int osn_opt_bad(const char *opt);
/* A number of at most @max for option @opt: OPT_OK or OPT_ERR. */
int osn_opt_u64(const char *opt, const char *arg, uint64_t max,
		uint64_t *out);

#endif
