// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - osn top / osn hist command line (see params.h).
 *
 * Each command has its own option table (struct cmd_opts: its short and
 * long options, their handler and help); the options every command takes
 * are in one shared table with one handler.  A new command adds an entry
 * to cmds[], not cases to a shared switch.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "osn/osn_abi.h"
#include "params.h"

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
};

/* What an option handler did with an option. */
enum {
	OPT_ERR = -1,		/* a bad value: the last error says why */
	OPT_OK,
	OPT_NOT_MINE,		/* not in the handler's table */
	OPT_END,		/* -h, --version: nothing more to parse */
};

/* One parse: where the options go, and what later options depend on. */
struct parse {
	struct osn_params *p;
	int nr_cpus;
	int argc;
	char **argv;
	struct osn_event_opt *last_ev;	/* for --filter, --trigger */
	bool trace_set;			/* -t given: -a keeps its file */
	bool have_period, have_runtime;
};

struct cmd_opts {
	const char *name;		/* "top" */
	const char *shortopts;		/* its own, after the common ones */
	const struct option *longopts;	/* its own */
	int (*handle)(struct parse *ps, int c, const char *arg);
	const char *about;		/* usage: what it does */
	const char *help;		/* usage: its own options */
};

#define COMMON_SHORTOPTS	"a:c:C::d:De:hH:p:P:qr:s:S:t::T:"
#define MAX_LONGOPTS		64

static const struct option common_opts[] = {
	{ "auto",		required_argument,	NULL, 'a' },
	{ "cpus",		required_argument,	NULL, 'c' },
	{ "cgroup",		optional_argument,	NULL, 'C' },
	{ "duration",		required_argument,	NULL, 'd' },
	{ "debug",		no_argument,		NULL, 'D' },
	{ "event",		required_argument,	NULL, 'e' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "house-keeping",	required_argument,	NULL, 'H' },
	{ "housekeeping",	required_argument,	NULL, 'H' },
	{ "period",		required_argument,	NULL, 'p' },
	{ "priority",		required_argument,	NULL, 'P' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "runtime",		required_argument,	NULL, 'r' },
	{ "stop",		required_argument,	NULL, 's' },
	{ "stop-total",		required_argument,	NULL, 'S' },
	{ "trace",		optional_argument,	NULL, 't' },
	{ "threshold",		required_argument,	NULL, 'T' },
	{ "filter",		required_argument,	NULL, OPT_FILTER },
	{ "trigger",		required_argument,	NULL, OPT_TRIGGER },
	{ "warm-up",		required_argument,	NULL, OPT_WARMUP },
	{ "trace-buffer-size",	required_argument,	NULL, OPT_BUFSIZE },
	{ "json",		optional_argument,	NULL, OPT_JSON },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ "on-threshold",	required_argument,	NULL, OPT_ON_THRESHOLD },
	{ "on-end",		required_argument,	NULL, OPT_ON_END },
	{ "report",		required_argument,	NULL, OPT_REPORT },
	{ "audit",		no_argument,		NULL, OPT_AUDIT },
	{ NULL, 0, NULL, 0 },
};

/* "-x 'value': reason", the reason being the last error */
static int bad(const char *opt)
{
	return osn_err("%s %s", opt, osn_last_err());
}

static int us_opt(const char *opt, const char *arg, uint64_t max,
		  uint64_t *out)
{
	return osn_parse_u64(arg, max, out) ? bad(opt) : OPT_OK;
}

/* ---- the options of every command ------------------------------------------ */

static int event_opt(struct parse *ps, const char *arg)
{
	struct osn_params *p = ps->p;
	struct osn_event_opt *e;
	const char *colon = strchr(arg, ':');
	size_t sl = colon ? (size_t)(colon - arg) : strlen(arg);

	if (p->nevents == OSN_MAX_EVENTS)
		return osn_err("-e given too many times");
	if (!sl || sl >= sizeof(e->system) ||
	    (colon && (!colon[1] || strlen(colon + 1) >= sizeof(e->event))) ||
	    strchr(arg, '/'))
		return osn_err("-e '%s' is not sys[:event] (e.g. -e sched:sched_switch)",
			       arg);
	e = &p->events[p->nevents++];
	memcpy(e->system, arg, sl);
	e->system[sl] = '\0';
	if (colon)
		osn_strlcpy(e->event, colon + 1, sizeof(e->event));
	ps->last_ev = e;
	return OPT_OK;
}

/*
 * An optional value: -xVALUE, -x=VALUE, -x VALUE (a next argument that is
 * not an option, as rtla's PARSE_OPT_OPTARG_ALLOW_NEXT); NULL when none.
 */
static const char *optional_value(struct parse *ps, const char *arg)
{
	if (arg) {
		if (arg[0] == '=')
			arg++;
	} else if (optind < ps->argc && ps->argv[optind][0] != '-') {
		arg = ps->argv[optind++];
	}
	return arg && *arg ? arg : NULL;
}

/* -t[FILE] */
static int trace_opt(struct parse *ps, const char *arg)
{
	arg = optional_value(ps, arg);
	ps->p->trace_file = arg ? arg : OSN_TRACE_FILE;
	ps->trace_set = true;
	return OPT_OK;
}

/* --filter, --trigger: for the previous -e */
static int event_arg_opt(struct parse *ps, int c, const char *arg)
{
	const char *name = c == OPT_FILTER ? "--filter" : "--trigger";

	if (!ps->last_ev)
		return osn_err("%s needs a previous -e", name);
	if (c == OPT_FILTER)
		ps->last_ev->filter = arg;
	else
		ps->last_ev->trigger = arg;
	return OPT_OK;
}

static int cpulist_opt(struct parse *ps, const char *opt, const char *arg,
		       struct osn_cpuset *set, bool *have)
{
	if (osn_parse_cpulist(arg, ps->nr_cpus, set))
		return bad(opt);
	*have = true;
	return OPT_OK;
}

static int common_opt(struct parse *ps, int c, const char *arg)
{
	struct osn_params *p = ps->p;

	switch (c) {
	case 'a':
		if (us_opt("-a", arg, 1000000000000ULL, &p->stop_us))
			return OPT_ERR;
		p->threshold_us = 1;
		if (!ps->trace_set)
			p->trace_file = OSN_TRACE_FILE;
		return OPT_OK;
	case 'c':
		return cpulist_opt(ps, "-c", arg, &p->cpus, &p->have_cpus);
	case 'C':
		p->cgroup = true;
		p->cgroup_path = optional_value(ps, arg);
		return OPT_OK;
	case 'd':
		if (osn_parse_duration_s(arg, &p->duration_s))
			return bad("-d");
		return p->duration_s ? OPT_OK : osn_err("-d must be at least 1s");
	case 'D':
		p->debug++;
		return OPT_OK;
	case 'e':
		return event_opt(ps, arg);
	case 'h':
		p->help = true;
		return OPT_END;
	case 'H':
		return cpulist_opt(ps, "-H", arg, &p->hk, &p->have_hk);
	case 'p':
		ps->have_period = true;
		return us_opt("-p", arg, OSN_MAX_PERIOD_US, &p->period_us);
	case 'P':
		return osn_parse_sched(arg, &p->sched) ? bad("-P") : OPT_OK;
	case 'q':
		p->quiet = true;
		return OPT_OK;
	case 'r':
		ps->have_runtime = true;
		return us_opt("-r", arg, OSN_MAX_PERIOD_US, &p->runtime_us);
	case 's':
		return us_opt("-s", arg, 1000000000000ULL, &p->stop_us);
	case 'S':
		return us_opt("-S", arg, 1000000000000ULL, &p->stop_total_us);
	case 't':
		return trace_opt(ps, arg);
	case 'T':
		return us_opt("-T", arg, OSN_MAX_THRESHOLD_US, &p->threshold_us);
	case OPT_FILTER:
	case OPT_TRIGGER:
		return event_arg_opt(ps, c, arg);
	case OPT_WARMUP:
		if (osn_parse_duration_s(arg, &p->warmup_s))
			return bad("--warm-up");
		return OPT_OK;
	case OPT_BUFSIZE:
		if (us_opt("--trace-buffer-size", arg, 64ULL << 20, &p->buffer_kb))
			return OPT_ERR;
		return p->buffer_kb ? OPT_OK :
			osn_err("--trace-buffer-size must be at least 1 kB");
	case OPT_JSON:
		p->json = true;
		p->json_file = arg && *arg && strcmp(arg, "-") ? arg : NULL;
		return OPT_OK;
	case OPT_VERSION:
		p->version = true;
		return OPT_END;
	case OPT_ON_THRESHOLD:
		return osn_actions_parse(&p->on_threshold, arg, OSN_TRACE_FILE) ?
			OPT_ERR : OPT_OK;
	case OPT_REPORT:
		p->report_file = arg;
		return OPT_OK;
	case OPT_AUDIT:
		p->audit = true;
		return OPT_OK;
	case OPT_ON_END:
		return osn_actions_parse(&p->on_end, arg, OSN_TRACE_FILE) ?
			OPT_ERR : OPT_OK;
	}
	return OPT_NOT_MINE;
}

/* What holds whatever the options' order. */
static int check_common(const struct parse *ps)
{
	struct osn_params *p = ps->p;

	/* period/runtime: a lone -p shorter than the default runtime
	 * measures the whole period, like a lone -r keeps the period;
	 * hwnoise keeps its duty cycle (a whole period with interrupts off
	 * would starve the CPU's timers and kthreads). */
	if (ps->have_period && !ps->have_runtime && p->runtime_us > p->period_us)
		p->runtime_us = p->cmd == OSN_CMD_HWNOISE ?
			p->period_us * OSN_HWNOISE_RUNTIME_PCT / 100 :
			p->period_us;
	if (p->runtime_us < OSN_MIN_RUNTIME_US)
		return osn_err("-r %llu: runtime must be >= %llu us",
			       (unsigned long long)p->runtime_us,
			       (unsigned long long)OSN_MIN_RUNTIME_US);
	if (p->runtime_us > p->period_us)
		return osn_err("-r %llu: runtime must be <= period (%llu us)",
			       (unsigned long long)p->runtime_us,
			       (unsigned long long)p->period_us);
	/* the module's cap on a window with interrupts off (lockups) */
	if (p->cmd == OSN_CMD_HWNOISE && p->runtime_us > OSN_MAX_ATOMIC_RUNTIME_US)
		return osn_err("-r %llu: runtime must be <= %llu us with interrupts disabled (osn hwnoise)",
			       (unsigned long long)p->runtime_us,
			       OSN_MAX_ATOMIC_RUNTIME_US);
	/* -t saves at a hit like rtla's, after the --on-threshold actions */
	if (p->trace_file &&
	    osn_actions_add_trace(&p->on_threshold, p->trace_file))
		return -1;
	if (p->nevents && !p->on_threshold.has_trace && !p->on_end.has_trace)
		return osn_err("-e needs -t or a trace action: its events go to the saved trace");
	if (p->have_hk && osn_cpuset_empty(&p->hk))
		return osn_err("-H: empty cpu list");
	if (p->json && p->json_file == NULL && p->trace_file &&
	    !strcmp(p->trace_file, "-"))
		return osn_err("-t - and --json both want stdout");
	/* osn monitor runs until stopped and publishes metrics only */
	if (p->cmd == OSN_CMD_MONITOR &&
	    (p->stop_us || p->stop_total_us || p->trace_file ||
	     p->on_end.len || p->on_threshold.len || p->json ||
	     p->report_file || p->audit))
		return osn_err("osn monitor runs until stopped and publishes metrics only: -s, -S, -a, -t, --on-threshold, --on-end, --json, --report and --audit are for osn top, hist and hwnoise");
	return 0;
}

/* ---- osn top ---------------------------------------------------------------- */

static const struct option top_opts[] = {
	{ "wide",		no_argument,		NULL, OPT_WIDE },
	/* optional: getopt takes this entry for hist's --causes=N too */
	{ "causes",		optional_argument,	NULL, OPT_CAUSES },
	{ NULL, 0, NULL, 0 },
};

#define TOP_HELP \
"      --wide                 one wide table instead of two blocks\n" \
"      --causes               per CPU, what ran in the noise and who sent it,\n" \
"                             ranked by time (osn:noise_cause)\n"

static int top_opt(struct parse *ps, int c, const char *arg)
{
	(void)arg;
	switch (c) {
	case OPT_WIDE:
		ps->p->wide = true;
		return OPT_OK;
	case OPT_CAUSES:
		if (arg)
			return osn_err("--causes=N is an option of osn hist");
		ps->p->causes = true;
		return OPT_OK;
	default:
		return OPT_NOT_MINE;
	}
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
	{ NULL, 0, NULL, 0 },
};

static int hist_opt(struct parse *ps, int c, const char *arg)
{
	struct osn_params *p = ps->p;
	uint64_t v;

	switch (c) {
	case 'b':
		if (us_opt("-b", arg, 1000000, &p->bucket_us))
			return OPT_ERR;
		return p->bucket_us ? OPT_OK : osn_err("-b must be >= 1 us");
	case 'E':
		if (us_opt("-E", arg, 9999999, &v))
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
	case OPT_CAUSES:
		p->causes = true;
		if (!arg)
			return OPT_OK;
		if (us_opt("--causes", arg, 1000, &v))
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

static int monitor_opt(struct parse *ps, int c, const char *arg)
{
	struct osn_params *p = ps->p;

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
			return bad("--interval");
		return p->interval_s ? OPT_OK :
			osn_err("--interval must be at least 1s");
	case OPT_CAUSES:
		p->causes = true;
		return OPT_OK;
	}
	return OPT_NOT_MINE;
}

static const struct cmd_opts cmds[OSN_NR_CMDS] = {
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
"      --no-summary           no count/min/avg/max/percentile rows\n"
"      --no-index             no index column\n"
"      --with-zeros           print empty buckets too\n"
"      --causes[=N]           per CPU, a histogram of the noise durations of\n"
"                             each of its N (5) top culprits by time: what\n"
"                             ran in the noise and who sent it (osn:noise_cause)\n",
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
	},
};

void osn_params_free(struct osn_params *p)
{
	osn_actions_free(&p->on_threshold);
	osn_actions_free(&p->on_end);
}

const char *osn_cmd_name(enum osn_cmd cmd)
{
	return cmds[cmd].name;
}

/* ---- parsing ---------------------------------------------------------------- */

/*
 * getopt's table: the common options, then every command's own, so that
 * an abbreviation means the same whatever the command, and another
 * command's option is named as such rather than taken for a typo.
 */
static void merge_longopts(struct option *out)
{
	size_t n = 0;

	for (const struct option *o = common_opts; o->name; o++)
		out[n++] = *o;
	for (int i = 0; i < OSN_NR_CMDS; i++) {
		bool seen = false;

		for (int k = 0; k < i; k++)	/* hwnoise shares top's */
			seen |= cmds[k].longopts == cmds[i].longopts;
		for (const struct option *o = cmds[i].longopts;
		     !seen && o->name && n < MAX_LONGOPTS - 1; o++)
			out[n++] = *o;
	}
	memset(&out[n], 0, sizeof(out[n]));
}

/* The command whose own long option --@name is. */
static const char *long_owner(const char *name)
{
	for (int i = 0; i < OSN_NR_CMDS; i++)
		for (const struct option *o = cmds[i].longopts; o->name; o++)
			if (!strcmp(o->name, name))
				return cmds[i].name;
	return "?";
}

/* The command other than @self with the short option -@c, or NULL. */
static const char *short_owner(enum osn_cmd self, int c)
{
	for (int i = 0; i < OSN_NR_CMDS; i++)
		if (i != (int)self && c != ':' && strchr(cmds[i].shortopts, c))
			return cmds[i].name;
	return NULL;
}

/* "-d needs a value", "--duration needs a value" */
static int missing_value(const struct parse *ps)
{
	if (optind > 0 && optind <= ps->argc &&
	    !strncmp(ps->argv[optind - 1], "--", 2))
		return osn_err("%s needs a value", ps->argv[optind - 1]);
	if (optopt && optopt < 256)
		return osn_err("-%c needs a value", optopt);
	return osn_err("%s needs a value", ps->argv[optind - 1]);
}

/* "unknown option -x", "-b is an option of osn hist" */
static int unknown_option(const struct parse *ps, enum osn_cmd self)
{
	const char *owner;

	if (optopt && optopt < 256) {
		owner = short_owner(self, optopt);
		if (owner)
			return osn_err("-%c is an option of osn %s", optopt,
				       owner);
		return osn_err("unknown option -%c", optopt);
	}
	return osn_err("unknown option %s", ps->argv[optind - 1]);
}

/* Option @c (--@name when long): the command's, common, or a mistake. */
static int parse_one(struct parse *ps, enum osn_cmd cmd, int c,
		     const char *name)
{
	int r = cmds[cmd].handle(ps, c, optarg);

	if (r == OPT_NOT_MINE)
		r = common_opt(ps, c, optarg);
	if (r != OPT_NOT_MINE)
		return r;
	if (c == ':')
		return missing_value(ps);
	if (c == '?')
		return unknown_option(ps, cmd);
	/* another command's long option: @name is its entry */
	return osn_err("--%s is an option of osn %s", name, long_owner(name));
}

static void set_defaults(struct osn_params *p, enum osn_cmd cmd)
{
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->period_us = OSN_DEFAULT_PERIOD_US;
	p->runtime_us = cmd == OSN_CMD_HWNOISE ?
		OSN_DEFAULT_PERIOD_US * OSN_HWNOISE_RUNTIME_PCT / 100 :
		OSN_DEFAULT_RUNTIME_US;
	p->bucket_us = 1;
	p->entries = 256;
	p->causes_max = 5;
	if (cmd == OSN_CMD_MONITOR) {
		p->options = "NO_" OSN_OPT_WORKLOAD;
		p->listen = OSN_MONITOR_LISTEN;
		p->interval_s = 15;
	}
}

int osn_parse_args(enum osn_cmd cmd, int argc, char **argv, int nr_cpus,
		   struct osn_params *p)
{
	struct parse ps = {
		.p = p, .nr_cpus = nr_cpus, .argc = argc, .argv = argv,
	};
	struct option longopts[MAX_LONGOPTS];
	char shortopts[64];
	int c, r, li = 0;	/* getopt's index of the last long option */

	set_defaults(p, cmd);
	/* leading ':': a missing value is told from an unknown option */
	snprintf(shortopts, sizeof(shortopts), ":" COMMON_SHORTOPTS "%s",
		 cmds[cmd].shortopts);
	merge_longopts(longopts);
	optind = 0;	/* full re-initialisation (glibc) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, &li)) != -1) {
		r = parse_one(&ps, cmd, c, longopts[li].name);
		if (r == OPT_END)
			return 0;
		if (r == OPT_ERR)
			return -1;
	}
	if (optind < argc)
		return osn_err("unexpected argument '%s'", argv[optind]);
	return check_common(&ps);
}

static const char *common_help =
"  -c, --cpus CPULIST         measure these CPUs (default: all)\n"
"  -H, --house-keeping CPUS   run osn itself on these CPUs (default: the\n"
"                             online CPUs it does not measure)\n"
"  -d, --duration TIME        run for TIME (s, m, h, d; default: until Ctrl-C)\n"
"  -p, --period US            period of the workload (default 1000000)\n"
"  -r, --runtime US           runtime of each period (default 1000000,\n"
"                             hwnoise 750000; >= 100)\n"
"  -T, --threshold US         minimum gap counted as noise (default 1)\n"
"  -s, --stop US              stop when a single noise sample is > US\n"
"  -S, --stop-total US        stop when a period's total noise is > US\n"
"  -a, --auto US              -s US -T 1 -t\n"
"  -t, --trace[=FILE]         save the trace to FILE (default " OSN_TRACE_FILE "):\n"
"                             at a stop condition's hit, else at the end\n"
"  -e, --event SYS[:EVENT]    also trace this event in the saved trace\n"
"      --filter FILTER        filter for the previous -e event\n"
"      --trigger TRIGGER      trigger for the previous -e event\n"
"  -C, --cgroup[=PATH]        put the osn/N threads in cgroup PATH (cgroup v2,\n"
"                             relative to its mount), or in osn's own\n"
"  -P, --priority PRIO        scheduling of the osn/N threads: o:nice,\n"
"                             r:prio, f:prio or d:runtime:period (ns, or\n"
"                             with us/ms/s)\n"
"      --on-threshold ACTION  when a stop condition is hit: trace[,file=F],\n"
"                             signal,num=N,pid=P|parent, shell,command=C or\n"
"                             continue (go on; each trace to F, F.1, ...)\n"
"      --on-end ACTION        the same, at the end of the run\n"
"      --warm-up TIME         let the workload run TIME before collecting\n"
"      --trace-buffer-size KB per-CPU buffer size of osn's instances\n"
"      --json[=FILE]          JSON report to FILE (or to stdout instead of text)\n"
"      --report FILE.html     charts and tables of the run in one HTML file\n"
"      --audit                after the run, the osn audit findings that\n"
"                             explain the noise sources seen (and their fix)\n"
"  -q, --quiet                print only the final report\n"
"  -D, --debug                print what osn does to tracefs and the module\n"
"  -h, --help                 this help\n";

void osn_usage(enum osn_cmd cmd, FILE *f)
{
	fprintf(f, "usage: osn %s [options]\n\n%s\n", cmds[cmd].name,
		cmds[cmd].about);
	fputs(common_help, f);
	fputs(cmds[cmd].help, f);
	fputs("\nExit status: 0 ran to the end, 1 error, 2 stop condition hit.\n",
	      f);
}
