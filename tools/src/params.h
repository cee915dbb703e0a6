/* SPDX-License-Identifier: GPL-2.0 */
/*
 * params.h - command line of osn top / osn hist (pure: parsing and
 * validation only; nothing is touched until the command runs).
 */
#ifndef OSN_PARAMS_H
#define OSN_PARAMS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "actions.h"
#include "util.h"

#define OSN_TRACE_FILE		"osn_trace.txt"
/* osn hwnoise's runtime by default: 75% of the period, as rtla hwnoise */
#define OSN_HWNOISE_RUNTIME_PCT	75
#define OSN_MAX_EVENTS		64
/* osn monitor's HTTP address by default: this host only */
#define OSN_MONITOR_LISTEN	"127.0.0.1:9627"

/* The measuring commands; each has its option table in params.c. */
enum osn_cmd {
	OSN_CMD_TOP,
	OSN_CMD_HIST,
	OSN_CMD_HWNOISE,		/* top with interrupts off (rtla hwnoise) */
	OSN_CMD_MONITOR,		/* Prometheus metrics, until stopped */
	OSN_CMD_TLAT_TOP,		/* osn timerlat [top] */
	OSN_CMD_TLAT_HIST,		/* osn timerlat hist */
	OSN_NR_CMDS
};

/* -e sys[:event] with its --filter / --trigger */
struct osn_event_opt {
	char system[64];
	char event[128];		/* "" = every event of the system */
	const char *filter;
	const char *trigger;
};

/*
 * osn hist's text layout (--layout).  Auto takes rtla's columns up to 16
 * measured CPUs (6 + 16 * 10 = 166 characters a line) and rows beyond:
 * by the count of CPUs, not by the terminal, so that a run prints the
 * same on a terminal, in a pipe and in a file.
 */
#define OSN_HIST_COLUMNS_MAX	16
enum osn_layout {
	OSN_LAYOUT_AUTO,	/* columns up to OSN_HIST_COLUMNS_MAX CPUs */
	OSN_LAYOUT_COLUMNS,	/* rtla's: a column per CPU */
	OSN_LAYOUT_ROWS,	/* a row per CPU, one histogram of them all */
};

/* Who measures in timerlat (rtla's -k, -u, -U). */
enum osn_tlat_threads {
	OSN_TLAT_KERNEL,	/* the module's timerlat/N threads */
	OSN_TLAT_USER,		/* -u: osn's timerlatu/N processes */
	OSN_TLAT_USER_LOAD,	/* -U: the user's own, osn spawns nothing */
};

struct osn_params {
	enum osn_cmd cmd;
	bool help, version;

	bool have_cpus;			/* -c */
	struct osn_cpuset cpus;
	bool have_hk;			/* -H */
	struct osn_cpuset hk;

	uint64_t duration_s;		/* -d; 0 = until Ctrl-C */
	uint64_t period_us;		/* -p */
	uint64_t runtime_us;		/* -r */
	uint64_t threshold_us;		/* -T; 0 = module default (1 us) */
	uint64_t stop_us;		/* -s; 0 = off */
	uint64_t stop_total_us;		/* -S; 0 = off */
	const char *trace_file;		/* -t; NULL = no trace */
	struct osn_actions on_threshold;	/* --on-threshold, then -t's */
	struct osn_actions on_end;	/* --on-end */
	bool cgroup;			/* -C */
	const char *cgroup_path;	/* -C PATH; NULL = osn's own cgroup */
	struct osn_event_opt events[OSN_MAX_EVENTS];	/* -e */
	int nevents;
	struct osn_sched sched;		/* -P */
	uint64_t warmup_s;		/* --warm-up */
	uint64_t buffer_kb;		/* --trace-buffer-size; 0 = default */
	bool quiet;			/* -q */
	int debug;			/* -D */
	bool json;			/* --json */
	const char *json_file;		/* --json=FILE; NULL = stdout */
	bool wide;			/* top --wide */
	bool summary;			/* top --summary: the ALL rows only */
	unsigned group;			/* top --group N: rows of N CPUs; 0 = off */
	bool causes;			/* top/hist --causes */
	bool audit;			/* --audit: the findings behind the noise */
	const char *report_file;	/* --report FILE.html; NULL = none */

	/* the module's options knob for the run; NULL: the command's */
	const char *options;

	/* monitor */
	bool workload;			/* --workload: osn's threads measure */
	const char *textfile_dir;	/* --textfile DIR; NULL = none */
	const char *listen;		/* --listen ADDR:PORT; NULL = off */
	uint64_t interval_s;		/* --interval: textfile rewrite */

	/* timerlat */
	uint64_t tlat_period_us;	/* -p: timerlat_period_us */
	bool no_irq, no_thread;		/* hist --no-irq, --no-thread */
	enum osn_tlat_threads tlat_threads;	/* -k (default), -u, -U */
	bool tlat_kernel;		/* -k given (fatal with -u or -U) */
	uint64_t stack_us;		/* -s/--stack: print_stack; 0 = off */
	bool nano;			/* -n: the tables in ns */
	bool aa_only;			/* top --aa-only: the analysis only */
	bool no_aa;			/* --no-aa: no analysis at a stop */
	bool dump_tasks;		/* --dump-tasks: at a stop */
	int64_t dma_latency_us;		/* --dma-latency; -1 = not held */
	bool have_idle_state;		/* --deepest-idle-state given */
	int deepest_idle_state;		/* its N; -1 = every state off */

	/* hist */
	uint64_t bucket_us;		/* -b */
	unsigned entries;		/* -E */
	bool no_header, no_summary, no_index, with_zeros;
	enum osn_layout layout;		/* --layout */
	unsigned causes_max;		/* --causes=N: culprits a CPU (5) */
};

/*
 * Parse argv (argv[0] is the command name, "top" or "hist") into @p, with
 * the common options and @cmd's own.  @nr_cpus is the number of possible
 * CPUs (for -c/-H).  Returns 0, or -1 with a one-line message as the last
 * error (osn_err).
 */
int osn_parse_args(enum osn_cmd cmd, int argc, char **argv, int nr_cpus,
		   struct osn_params *p);

/* Free what parsing allocated (the actions), whatever it returned. */
void osn_params_free(struct osn_params *p);

void osn_usage(enum osn_cmd cmd, FILE *f);
/*
 * @help (option lines, each "  -x, --name ..." or "      --name ...",
 * then continuation lines) to @f without the options whose long name is
 * in the NULL-terminated @hides (NULL: none).
 */
void osn_help_filter(FILE *f, const char *help, const char *const *hides);
const char *osn_cmd_name(enum osn_cmd cmd);
/* The length of the command's period: -p (timerlat's or the workload's). */
uint64_t osn_params_period_us(const struct osn_params *p);

#endif
