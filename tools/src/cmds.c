// SPDX-License-Identifier: GPL-2.0
/*
 * cmds.c - the command table (see cmd.h): each measuring command's
 * options, help and traits.  A new command is one more entry here, with
 * its option handler; the parser (params.c) and the renderers read it.
 */
#include <getopt.h>
#include <string.h>

#include "osn/osn_abi.h"
#include "cmd.h"
#include "opts.h"
#include "stats.h"

/* ---- osn top ---------------------------------------------------------------- */

static const struct option top_opts[] = {
	{ "wide",		no_argument,		NULL, OPT_WIDE },
	{ "summary",		no_argument,		NULL, OPT_SUMMARY },
	{ "group",		required_argument,	NULL, OPT_GROUP },
	/* optional: getopt takes this entry for hist's --causes=N too */
	{ "causes",		optional_argument,	NULL, OPT_CAUSES },
	{ NULL, 0, NULL, 0 },
};

#define TOP_HELP \
"      --wide                 one wide table instead of two blocks\n" \
"      --summary              only the ALL rows, with the CPU of the lowest\n" \
"                             availability (Worst) and its % (text only)\n" \
"      --group N              a row per N measured CPUs (their sums and\n" \
"                             maxima, as ALL, and their Worst CPU) instead\n" \
"                             of a row per CPU (text only; N: 2..4096)\n" \
"      --causes               per CPU, what ran in the noise and who sent it,\n" \
"                             ranked by time (osn:noise_cause)\n"

static int top_opt(struct osn_params *p, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case OPT_WIDE:
		p->wide = true;
		return OPT_OK;
	case OPT_SUMMARY:
		p->summary = true;
		return OPT_OK;
	case OPT_GROUP:
		if (osn_opt_u64("--group", arg, OSN_MAX_CPUS, &v))
			return OPT_ERR;
		if (v < 2)
			return osn_err("--group N: N must be 2..%d (CPUs a row)",
				       OSN_MAX_CPUS);
		p->group = (unsigned)v;
		return OPT_OK;
	case OPT_CAUSES:
		if (arg)
			return osn_err("--causes=N is an option of osn hist");
		p->causes = true;
		return OPT_OK;
	default:
		return OPT_NOT_MINE;
	}
}

/* What holds whatever the options' order. */
static int top_check(const struct osn_params *p)
{
	if (p->summary && p->group)
		return osn_err("--summary and --group: the ALL rows only, or a row per group");
	return 0;
}

/* ---- osn hist --------------------------------------------------------------- */

static const struct option hist_opts[] = {
	{ "bucket-size",	required_argument,	NULL, 'b' },
	{ "entries",		required_argument,	NULL, 'E' },
	{ "no-header",		no_argument,		NULL, OPT_NO_HEADER },
	{ "no-summary",		no_argument,		NULL, OPT_NO_SUMMARY },
	{ "no-index",		no_argument,		NULL, OPT_NO_INDEX },
	{ "with-zeros",		no_argument,		NULL, OPT_WITH_ZEROS },
	{ "causes",		optional_argument,	NULL, OPT_CAUSES },
	{ "layout",		required_argument,	NULL, OPT_LAYOUT },
	{ NULL, 0, NULL, 0 },
};

_Static_assert(OSN_HIST_COLUMNS_MAX == 16, "both hists' help say 16");

static int layout_opt(struct osn_params *p, const char *arg)
{
	static const char *const names[] = {
		[OSN_LAYOUT_AUTO] = "auto",
		[OSN_LAYOUT_COLUMNS] = "columns",
		[OSN_LAYOUT_ROWS] = "rows",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(arg, names[i])) {
			p->layout = (enum osn_layout)i;
			return OPT_OK;
		}
	}
	return osn_err("--layout '%s': columns, rows or auto", arg);
}

static int hist_opt(struct osn_params *p, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'b':
		if (osn_opt_u64("-b", arg, 1000000, &p->bucket_us))
			return OPT_ERR;
		return p->bucket_us ? OPT_OK : osn_err("-b must be >= 1 us");
	case 'E':
		if (osn_opt_u64("-E", arg, 9999999, &v))
			return OPT_ERR;
		if (v < 10)
			return osn_err("-E must be 10..9999999");
		p->entries = (unsigned)v;
		return OPT_OK;
	case OPT_NO_HEADER:
		p->no_header = true;
		return OPT_OK;
	case OPT_NO_SUMMARY:
		p->no_summary = true;
		return OPT_OK;
	case OPT_NO_INDEX:
		p->no_index = true;
		return OPT_OK;
	case OPT_WITH_ZEROS:
		p->with_zeros = true;
		return OPT_OK;
	case OPT_LAYOUT:
		return layout_opt(p, arg);
	case OPT_CAUSES:
		p->causes = true;
		if (!arg)
			return OPT_OK;
		if (osn_opt_u64("--causes", arg, 1000, &v))
			return OPT_ERR;
		if (!v)
			return osn_err("--causes=N: N must be 1..1000");
		p->causes_max = (unsigned)v;
		return OPT_OK;
	}
	return OPT_NOT_MINE;
}

/* ---- osn monitor ------------------------------------------------------------- */

static const struct option monitor_opts[] = {
	{ "workload",		no_argument,		NULL, OPT_WORKLOAD },
	{ "textfile",		required_argument,	NULL, OPT_TEXTFILE },
	{ "listen",		required_argument,	NULL, OPT_LISTEN },
	{ "interval",		required_argument,	NULL, OPT_INTERVAL },
	{ "causes",		no_argument,		NULL, OPT_CAUSES },
	{ NULL, 0, NULL, 0 },
};

/* probes only (no osn/N thread: the CPUs stay the user's), localhost */
static void monitor_defaults(struct osn_params *p)
{
	p->options = "NO_" OSN_OPT_WORKLOAD;
	p->listen = OSN_MONITOR_LISTEN;
	p->interval_s = 15;
}

static int monitor_opt(struct osn_params *p, int c, const char *arg)
{

	switch (c) {
	case OPT_WORKLOAD:
		p->workload = true;
		p->options = OSN_OPT_WORKLOAD;
		return OPT_OK;
	case OPT_TEXTFILE:
		p->textfile_dir = arg;
		return OPT_OK;
	case OPT_LISTEN:
		p->listen = strcmp(arg, "off") ? arg : NULL;
		return OPT_OK;
	case OPT_INTERVAL:
		if (osn_parse_duration_s(arg, &p->interval_s))
			return osn_opt_bad("--interval");
		return p->interval_s ? OPT_OK :
			osn_err("--interval must be at least 1s");
	case OPT_CAUSES:
		p->causes = true;
		return OPT_OK;
	}
	return OPT_NOT_MINE;
}

/* ---- osn timerlat top, osn timerlat hist ------------------------------------ */

#define TLAT_THREAD_OPTS						\
	{ "irq",		required_argument,	NULL, 'i' },	\
	{ "thread",		required_argument,	NULL, 'T' },	\
	{ "stack",		required_argument,	NULL, 's' },	\
	{ "nano",		no_argument,		NULL, 'n' },	\
	{ "user-threads",	no_argument,		NULL, 'u' },	\
	{ "kernel-threads",	no_argument,		NULL, 'k' },	\
	{ "user-load",		no_argument,		NULL, 'U' },	\
	{ "no-aa",		no_argument,		NULL, OPT_NO_AA },	\
	{ "dump-tasks",		no_argument,		NULL, OPT_DUMP_TASKS }, \
	{ "dma-latency",	required_argument,	NULL, OPT_DMA_LATENCY }, \
	{ "deepest-idle-state",	required_argument,	NULL, OPT_DEEPEST_IDLE }

static const struct option tlat_top_opts[] = {
	TLAT_THREAD_OPTS,
	{ "aa-only",		required_argument,	NULL, OPT_AA_ONLY },
	{ NULL, 0, NULL, 0 },
};

static const struct option tlat_hist_opts[] = {
	TLAT_THREAD_OPTS,
	{ "no-irq",		no_argument,		NULL, OPT_NO_IRQ },
	{ "no-thread",		no_argument,		NULL, OPT_NO_THREAD },
	{ NULL, 0, NULL, 0 },
};

/*
 * The common options timerlat refuses (osnoise's workload, its noise
 * threshold and stops; not yet: --report, --audit) and the common help
 * lines it replaces with its own (TLAT_HELP) or hides with them.
 */
static const char *const tlat_refused[] = {
	"runtime", "threshold", "stop", "stop-total", "report", "audit", NULL,
};

static const char *const tlat_help_hides[] = {
	"runtime", "threshold", "stop", "stop-total", "report", "audit",
	"period", "auto", "priority", "cgroup", NULL,
};

#define TLAT_HELP \
"  -p, --period US            timerlat's period (100..1000000, default 1000)\n" \
"  -i, --irq US               stop when an IRQ latency reaches US\n" \
"  -T, --thread US            stop when a thread latency (or with -u/-U, a\n" \
"                             return from user) reaches US\n" \
"  -s, --stack US             save the timer IRQ's stack when a thread\n" \
"                             latency reaches US (the module's print_stack):\n" \
"                             in the saved trace, and at a stop under the\n" \
"                             analysis\n" \
"  -a, --auto US              -i US -T US -s US -t, as rtla timerlat\n" \
"  -n, --nano                 the tables in ns (-b too), not us\n" \
"      --no-aa                no analysis at a stop\n" \
"      --dump-tasks           at a stop, the tasks running on each measured\n" \
"                             CPU (read from /proc: libproc2)\n" \
"      --dma-latency US       hold /dev/cpu_dma_latency at US (0..10000) for\n" \
"                             the run (keeps the CPUs out of deep C-states)\n" \
"      --deepest-idle-state N disable the cpuidle states deeper than N of the\n" \
"                             measured CPUs (-1: all), restored at the end\n" \
"                             (and by osn cleanup after a crash)\n" \
"  -k, --kernel-threads       the module's timerlat/N threads measure (the\n" \
"                             default: unlike rtla >= 6.10, which picks\n" \
"                             user threads when it can, since osn's device\n" \
"                             is always there and kernel threads need no\n" \
"                             process of osn's to live on)\n" \
"  -u, --user-threads         osn forks a timerlatu/N process per CPU that\n" \
"                             reads " OSN_TLAT_DEV " (SCHED_FIFO 95 or -P,\n" \
"                             in cgroup -C); adds the Ret user columns\n" \
"  -U, --user-load            user-space mode, but your own threads read\n" \
"                             " OSN_TLAT_DEV "; adds the Ret user columns\n" \
"  -P, --priority PRIO        scheduling of the timerlat/N threads (or -u's\n" \
"                             timerlatu/N processes): o:nice, r:prio,\n" \
"                             f:prio or d:runtime:period (default f:95)\n" \
"  -C, --cgroup[=PATH]        the same threads in cgroup PATH (a kthread\n" \
"                             bound to its CPU stays where it is)\n"

#define TLAT_TOP_HELP \
"      --aa-only US           stop at a thread (or IRQ) latency of US and\n" \
"                             print only the analysis (no table, no trace)\n"

/* The module's timerlat/N threads unless -u or -U. */
static void tlat_defaults(struct osn_params *p)
{
	p->options = OSN_OPT_WORKLOAD;
}

/* What holds whatever the options' order. */
static int tlat_check(const struct osn_params *p)
{
	if (p->tlat_kernel && p->tlat_threads != OSN_TLAT_KERNEL)
		return osn_err("-k and -%c: kernel or user threads, not both",
			       p->tlat_threads == OSN_TLAT_USER ? 'u' : 'U');
	if (p->aa_only && p->no_aa)
		return osn_err("--aa-only and --no-aa: the analysis only, or none");
	if (p->aa_only && (p->trace_file || p->json))
		return osn_err("--aa-only prints the analysis only: no -t, -a or --json");
	if ((p->sched.policy != OSN_SCHED_NONE || p->cgroup) &&
	    p->tlat_threads == OSN_TLAT_USER_LOAD)
		return osn_err("-P and -C are for osn's threads: the timerlat/N threads (-k) or the timerlatu/N processes of -u, not -U's");
	return 0;
}

/* rtla's limit of --dma-latency */
#define TLAT_MAX_DMA_LATENCY_US	10000

/* --deepest-idle-state N: -1 (every state off) or a state number. */
static int idle_state_opt(struct osn_params *p, const char *arg)
{
	uint64_t v;

	p->have_idle_state = true;
	if (!strcmp(arg, "-1")) {
		p->deepest_idle_state = -1;
		return OPT_OK;
	}
	if (osn_opt_u64("--deepest-idle-state", arg, 1000, &v))
		return OPT_ERR;
	p->deepest_idle_state = (int)v;
	return OPT_OK;
}

/* The options of timerlat's analysis and of its CPUs' tuning. */
static int tlat_aa_opt(struct osn_params *p, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case OPT_AA_ONLY:
		if (osn_opt_u64("--aa-only", arg, 1000000000000ULL, &v))
			return OPT_ERR;
		if (!v)
			return osn_err("--aa-only must be at least 1 us");
		/* as rtla: -a's stops, without the table and the trace */
		p->stop_us = p->stop_total_us = v;
		p->aa_only = true;
		p->quiet = true;
		return OPT_OK;
	case OPT_NO_AA:
		p->no_aa = true;
		return OPT_OK;
	case OPT_DUMP_TASKS:
		p->dump_tasks = true;
		return OPT_OK;
	case OPT_DMA_LATENCY:
		if (osn_opt_u64("--dma-latency", arg, TLAT_MAX_DMA_LATENCY_US, &v))
			return OPT_ERR;
		p->dma_latency_us = (int64_t)v;
		return OPT_OK;
	case OPT_DEEPEST_IDLE:
		return idle_state_opt(p, arg);
	}
	return OPT_NOT_MINE;
}

/* The stops in us, as rtla timerlat's -i/-T/-a. */
static int tlat_opt(struct osn_params *p, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'p':
		if (osn_opt_u64("-p", arg, OSN_MAX_TIMERLAT_PERIOD_US, &v))
			return OPT_ERR;
		if (v < OSN_MIN_TIMERLAT_PERIOD_US)
			return osn_err("-p %llu: timerlat's period must be %llu..%llu us",
				       (unsigned long long)v,
				       (unsigned long long)OSN_MIN_TIMERLAT_PERIOD_US,
				       (unsigned long long)OSN_MAX_TIMERLAT_PERIOD_US);
		p->tlat_period_us = v;
		return OPT_OK;
	case 'i':
		return osn_opt_u64("-i", arg, 1000000000000ULL, &p->stop_us);
	case 'T':
		return osn_opt_u64("-T", arg, 1000000000000ULL,
				   &p->stop_total_us);
	case 'a':
		if (osn_opt_u64("-a", arg, 1000000000000ULL, &p->stop_us))
			return OPT_ERR;
		p->stop_total_us = p->stop_us;
		p->stack_us = p->stop_us;
		/* a -t before -a keeps its file; one after replaces this */
		if (!p->trace_file)
			p->trace_file = OSN_TRACE_FILE;
		return OPT_OK;
	case 's':
		return osn_opt_u64("-s", arg, 1000000000000ULL, &p->stack_us);
	case 'n':
		p->nano = true;
		return OPT_OK;
	case 'r':
	case 'S':
		return osn_err("-%c is not an option of osn timerlat (its stops are -i and -T)",
			       c);
	case 'u':
	case 'U':
		p->tlat_threads = c == 'u' ? OSN_TLAT_USER : OSN_TLAT_USER_LOAD;
		p->options = "NO_" OSN_OPT_WORKLOAD;
		return OPT_OK;
	case 'k':
		p->tlat_kernel = true;
		return OPT_OK;
	}
	return tlat_aa_opt(p, c, arg);
}

static int tlat_hist_opt(struct osn_params *p, int c, const char *arg)
{
	int r = c == OPT_AA_ONLY ?
		osn_err("--aa-only is an option of osn timerlat top") :
		tlat_opt(p, c, arg);

	if (r != OPT_NOT_MINE)
		return r;
	switch (c) {
	case OPT_NO_IRQ:
		p->no_irq = true;
		break;
	case OPT_NO_THREAD:
		p->no_thread = true;
		break;
	case OPT_CAUSES:
		return osn_err("--causes is not an option of osn timerlat hist");
	default:
		return hist_opt(p, c, arg);
	}
	return p->no_irq && p->no_thread ?
		osn_err("--no-irq and --no-thread leave nothing to show") :
		OPT_OK;
}

const struct osn_cmd_desc osn_cmds[OSN_NR_CMDS] = {
	[OSN_CMD_TOP] = {
		.name = "top",
		.shortopts = "",
		.longopts = top_opts,
		.handle = top_opt,
		.about =
"  Per-CPU summary of the operating system noise, refreshed\n"
"  every second: noise, CPU availability, and how many times\n"
"  and how long each class (HW, NMI, IRQ, Softirq, Thread)\n"
"  interrupted the workload.\n",
		.help = TOP_HELP,
		.check = top_check,
		.runtime_pct = 100,
		.title = "Operating System Noise",
		.json_tool = "osn top",
		.nclasses = OSN_CLASS_NR,
	},
	[OSN_CMD_HIST] = {
		.name = "hist",
		.shortopts = "b:E:",
		.longopts = hist_opts,
		.handle = hist_opt,
		.about =
"  Per-CPU histogram of the noise samples, aggregated in the\n"
"  kernel, with exact min/avg/max and p50/p90/p99/p99.9.\n",
		.help =
"  -b, --bucket-size US       bucket size (default 1)\n"
"  -E, --entries N            number of buckets (default 256)\n"
"      --no-header            no header lines\n"
"      --no-summary           no count/min/avg/max/percentile rows (rows\n"
"                             layout: no table of the CPUs)\n"
"      --no-index             no index column\n"
"      --with-zeros           print empty buckets too\n"
"      --layout L             columns (rtla's: a column per CPU), rows (the\n"
"                             histogram of all the CPUs together, then a\n"
"                             row per CPU and ALL: count, min, avg, max,\n"
"                             percentiles, over) or auto (the default:\n"
"                             columns up to 16 measured CPUs, else rows)\n"
"      --causes[=N]           per CPU, a histogram of the noise durations of\n"
"                             each of its N (5) top culprits by time: what\n"
"                             ran in the noise and who sent it (osn:noise_cause)\n",
		.runtime_pct = 100,
		.json_tool = "osn hist",
		.nclasses = OSN_CLASS_NR,
		.hist_config = true,
	},
	[OSN_CMD_HWNOISE] = {
		.name = "hwnoise",	/* top's options */
		.shortopts = "",
		.longopts = top_opts,
		.handle = top_opt,
		.about =
"  osn top with interrupts disabled while the workload measures\n"
"  (the module's OSNOISE_IRQ_DISABLE option, as rtla hwnoise): IRQs,\n"
"  softirqs and threads wait for the end of each window, so what\n"
"  remains is the noise of the hardware (HW) and of NMIs.  Runtime\n"
"  is 75% of the period by default, at most 1000000 us.\n",
		.help = TOP_HELP,
		.check = top_check,
		/*
		 * a whole period with interrupts off would starve the CPU's
		 * timers and kthreads; the module caps such a window (lockups)
		 */
		.runtime_pct = OSN_HWNOISE_RUNTIME_PCT,
		.max_runtime_us = OSN_MAX_ATOMIC_RUNTIME_US,
		.max_runtime_why = "with interrupts disabled (osn hwnoise)",
		.options = OSN_OPT_IRQ_DISABLE,
		/* IRQs, softirqs and threads cannot interrupt: as rtla
		 * hwnoise, only HW and NMI (the first classes) are shown */
		.title = "Hardware-related Noise",
		.json_tool = "osn hwnoise",
		.nclasses = OSN_CLASS_IRQ,
	},
	[OSN_CMD_MONITOR] = {
		.name = "monitor",
		.shortopts = "",
		.longopts = monitor_opts,
		.handle = monitor_opt,
		.about =
"  Runs until stopped and exports what osn measures as Prometheus\n"
"  metrics: per CPU and noise source, the count and time of the\n"
"  noises and the longest one (osn_noise_*), served over HTTP and/or\n"
"  written to node_exporter's textfile directory.  Probes only by\n"
"  default (no osn/N thread: the CPUs stay the user's).\n",
		.help =
"      --workload             run osn's threads too: per-period noise and\n"
"                             CPU availability (the CPUs are osn's then)\n"
"      --listen ADDR:PORT     serve GET /metrics there (default\n"
"                             " OSN_MONITOR_LISTEN "; off: no HTTP)\n"
"      --textfile DIR         write DIR/osn.prom (atomically) every interval\n"
"      --interval TIME        textfile interval (default 15s)\n"
"      --causes               the culprits too (osn_culprit_*)\n",
		.defaults = monitor_defaults,
		.runtime_pct = 100,
		.until_stopped = true,
		.nclasses = OSN_CLASS_NR,
	},
	[OSN_CMD_TLAT_TOP] = {
		.name = "timerlat top",
		.shortopts = "i:nukU",
		.longopts = tlat_top_opts,
		.handle = tlat_opt,
		.defaults = tlat_defaults,
		.check = tlat_check,
		.about =
"  Per-CPU timer latency, refreshed every second, as rtla timerlat\n"
"  top: a timerlat/N thread per CPU arms a timer every period; the\n"
"  IRQ latency is the time from the timer's expiry to its handler,\n"
"  the thread latency to the thread running (the module's\n"
"  mode=timerlat, restored after the run).  osn timerlat = top.\n",
		.help = TLAT_HELP TLAT_TOP_HELP,
		.refused = tlat_refused,
		.help_hides = tlat_help_hides,
		.runtime_pct = 100,
		.mode = OSN_MODE_TIMERLAT,
		.title = "Timer Latency",
		.json_tool = "osn timerlat top",
		.nclasses = OSN_CLASS_NR,
	},
	[OSN_CMD_TLAT_HIST] = {
		.name = "timerlat hist",
		.shortopts = "i:nb:E:ukU",
		.longopts = tlat_hist_opts,
		.handle = tlat_hist_opt,
		.defaults = tlat_defaults,
		.check = tlat_check,
		.about =
"  Per-CPU histogram of the IRQ and thread timer latencies, as rtla\n"
"  timerlat hist (the module's mode=timerlat, restored after the run).\n",
		.refused = tlat_refused,
		.help_hides = tlat_help_hides,
		.help = TLAT_HELP
"  -b, --bucket-size US       bucket size (default 1)\n"
"  -E, --entries N            number of buckets (default 256)\n"
"      --no-irq               no IRQ columns\n"
"      --no-thread            no thread columns\n"
"      --no-header            no header lines\n"
"      --no-summary           no count/min/avg/max rows (rows layout: no\n"
"                             table of the CPUs)\n"
"      --no-index             no index column\n"
"      --with-zeros           print empty buckets too\n"
"      --layout L             columns (rtla's: a column per CPU and\n"
"                             context), rows (a column per context, all\n"
"                             the CPUs together, then a row per CPU and\n"
"                             context and ALL: count, min, avg, max, over)\n"
"                             or auto (the default: columns up to 16\n"
"                             measured CPUs, else rows)\n",
		.runtime_pct = 100,
		.mode = OSN_MODE_TIMERLAT,
		.json_tool = "osn timerlat hist",
		.nclasses = OSN_CLASS_NR,
		.hist_config = true,
	},
};

