// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - the measuring commands' command line (see params.h).
 *
 * Each command has its own option table in the command table (cmds.c:
 * its short and long options, their handler, help and traits); the
 * options every command takes are here, in one shared table with one
 * handler.  A new command adds an entry to osn_cmds[], not cases here.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "osn/osn_abi.h"
#include "cmd.h"
#include "opts.h"
#include "params.h"

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

#define COMMON_SHORTOPTS	"a:c:C::d:De:hH:p:P:qr:s:S:t::T:"
#define MAX_LONGOPTS		80

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

int osn_opt_bad(const char *opt)
{
	return osn_err("%s %s", opt, osn_last_err());
}

int osn_opt_u64(const char *opt, const char *arg, uint64_t max,
		uint64_t *out)
{
	return osn_parse_u64(arg, max, out) ? osn_opt_bad(opt) : OPT_OK;
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
		return osn_opt_bad(opt);
	*have = true;
	return OPT_OK;
}

/* The common options without a short form. */
static int common_long_opt(struct parse *ps, int c, const char *arg)
{
	struct osn_params *p = ps->p;

	switch (c) {
	case OPT_FILTER:
	case OPT_TRIGGER:
		return event_arg_opt(ps, c, arg);
	case OPT_WARMUP:
		if (osn_parse_duration_s(arg, &p->warmup_s))
			return osn_opt_bad("--warm-up");
		return OPT_OK;
	case OPT_BUFSIZE:
		if (osn_opt_u64("--trace-buffer-size", arg, 64ULL << 20, &p->buffer_kb))
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

static int common_opt(struct parse *ps, int c, const char *arg)
{
	struct osn_params *p = ps->p;

	switch (c) {
	case 'a':
		if (osn_opt_u64("-a", arg, 1000000000000ULL, &p->stop_us))
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
			return osn_opt_bad("-d");
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
		return osn_opt_u64("-p", arg, OSN_MAX_PERIOD_US, &p->period_us);
	case 'P':
		return osn_parse_sched(arg, &p->sched) ? osn_opt_bad("-P") : OPT_OK;
	case 'q':
		p->quiet = true;
		return OPT_OK;
	case 'r':
		ps->have_runtime = true;
		return osn_opt_u64("-r", arg, OSN_MAX_PERIOD_US, &p->runtime_us);
	case 's':
		return osn_opt_u64("-s", arg, 1000000000000ULL, &p->stop_us);
	case 'S':
		return osn_opt_u64("-S", arg, 1000000000000ULL, &p->stop_total_us);
	case 't':
		return trace_opt(ps, arg);
	case 'T':
		return osn_opt_u64("-T", arg, OSN_MAX_THRESHOLD_US, &p->threshold_us);
	}
	return common_long_opt(ps, c, arg);
}

/* What holds whatever the options' order. */
static int check_common(const struct parse *ps)
{
	const struct osn_cmd_desc *d = osn_cmd_desc(ps->p->cmd);
	struct osn_params *p = ps->p;

	/* period/runtime: a lone -p shorter than the default runtime
	 * measures the command's share of the period (all of it but for
	 * hwnoise), like a lone -r keeps the period. */
	if (ps->have_period && !ps->have_runtime && p->runtime_us > p->period_us)
		p->runtime_us = p->period_us * d->runtime_pct / 100;
	if (p->runtime_us < OSN_MIN_RUNTIME_US)
		return osn_err("-r %llu: runtime must be >= %llu us",
			       (unsigned long long)p->runtime_us,
			       (unsigned long long)OSN_MIN_RUNTIME_US);
	if (p->runtime_us > p->period_us)
		return osn_err("-r %llu: runtime must be <= period (%llu us)",
			       (unsigned long long)p->runtime_us,
			       (unsigned long long)p->period_us);
	if (d->max_runtime_us && p->runtime_us > d->max_runtime_us)
		return osn_err("-r %llu: runtime must be <= %llu us %s",
			       (unsigned long long)p->runtime_us,
			       (unsigned long long)d->max_runtime_us,
			       d->max_runtime_why);
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
	if (d->until_stopped &&
	    (p->stop_us || p->stop_total_us || p->trace_file ||
	     p->on_end.len || p->on_threshold.len || p->json ||
	     p->report_file || p->audit))
		return osn_err("osn %s runs until stopped and publishes metrics only: -s, -S, -a, -t, --on-threshold, --on-end, --json, --report and --audit are for osn top, hist and hwnoise",
			       d->name);
	return d->check ? d->check(p) : 0;
}

void osn_params_free(struct osn_params *p)
{
	osn_actions_free(&p->on_threshold);
	osn_actions_free(&p->on_end);
}

const char *osn_cmd_name(enum osn_cmd cmd)
{
	return osn_cmds[cmd].name;
}

uint64_t osn_params_period_us(const struct osn_params *p)
{
	return osn_cmds[p->cmd].mode ? p->tlat_period_us : p->period_us;
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

		for (int k = 0; k < i; k++)	/* hwnoise shares top's, ... */
			seen |= osn_cmds[k].longopts == osn_cmds[i].longopts;
		for (const struct option *o = osn_cmds[i].longopts;
		     !seen && o->name && n < MAX_LONGOPTS - 1; o++)
			out[n++] = *o;
	}
	memset(&out[n], 0, sizeof(out[n]));
}

/* The command whose own long option --@name is. */
static const char *long_owner(const char *name)
{
	for (int i = 0; i < OSN_NR_CMDS; i++)
		for (const struct option *o = osn_cmds[i].longopts; o->name; o++)
			if (!strcmp(o->name, name))
				return osn_cmds[i].name;
	return "?";
}

/* The command other than @self with the short option -@c, or NULL. */
static const char *short_owner(enum osn_cmd self, int c)
{
	for (int i = 0; i < OSN_NR_CMDS; i++)
		if (i != (int)self && c != ':' && strchr(osn_cmds[i].shortopts, c))
			return osn_cmds[i].name;
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

/* @name is in the NULL-terminated @list (NULL: an empty one). */
static bool name_in(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/* --@name refused: the commands that take it, in the message. */
static int refused_long(enum osn_cmd self, const char *name)
{
	char who[128] = "";
	size_t n = 0;

	for (int i = 0; i < OSN_NR_CMDS; i++)
		if (i != (int)self && !name_in(osn_cmds[i].refused, name) &&
		    !osn_cmds[i].until_stopped && n < sizeof(who))
			n += (size_t)snprintf(who + n, sizeof(who) - n, "%s%s",
					      n ? ", " : "", osn_cmds[i].name);
	return osn_err("--%s is not an option of osn %s (it is one of osn %s)",
		       name, osn_cmds[self].name, who);
}

/*
 * Option @c (--@name when long, NULL when short): the command's, common,
 * or a mistake.
 */
static int parse_one(struct parse *ps, enum osn_cmd cmd, int c,
		     const char *name)
{
	int r;

	if (name && name_in(osn_cmds[cmd].refused, name))
		return refused_long(cmd, name);
	r = osn_cmds[cmd].handle(ps->p, c, optarg);

	if (r == OPT_NOT_MINE)
		r = common_opt(ps, c, optarg);
	if (r != OPT_NOT_MINE)
		return r;
	if (c == ':')
		return missing_value(ps);
	if (c == '?')
		return unknown_option(ps, cmd);
	/* another command's long option: @name is its entry */
	if (!name)
		return osn_err("unknown option -%c", c);
	return osn_err("--%s is an option of osn %s", name, long_owner(name));
}

static void set_defaults(struct osn_params *p, enum osn_cmd cmd)
{
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->period_us = OSN_DEFAULT_PERIOD_US;
	p->runtime_us = OSN_DEFAULT_PERIOD_US * osn_cmds[cmd].runtime_pct / 100;
	p->bucket_us = 1;
	p->entries = 256;
	p->causes_max = 5;
	p->tlat_period_us = OSN_DEFAULT_TIMERLAT_PERIOD_US;
	p->dma_latency_us = -1;
	if (osn_cmds[cmd].defaults)
		osn_cmds[cmd].defaults(p);
}

int osn_parse_args(enum osn_cmd cmd, int argc, char **argv, int nr_cpus,
		   struct osn_params *p)
{
	struct parse ps = {
		.p = p, .nr_cpus = nr_cpus, .argc = argc, .argv = argv,
	};
	struct option longopts[MAX_LONGOPTS];
	char shortopts[64];
	int c, r, li;	/* getopt's index of a long option, else -1 */

	set_defaults(p, cmd);
	/* leading ':': a missing value is told from an unknown option */
	snprintf(shortopts, sizeof(shortopts), ":" COMMON_SHORTOPTS "%s",
		 osn_cmds[cmd].shortopts);
	merge_longopts(longopts);
	optind = 0;	/* full re-initialisation (glibc) */
	opterr = 0;
	while ((li = -1,
		c = getopt_long(argc, argv, shortopts, longopts, &li)) != -1) {
		r = parse_one(&ps, cmd, c, li >= 0 ? longopts[li].name : NULL);
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

/*
 * The long name of the option a help line starts ("  -c, --cpus CPULIST
 * ..." -> "cpus"), into @name; false for a continuation line.
 */
static bool help_line_name(const char *line, size_t len, char *name,
			   size_t size)
{
	const char *end = line + len, *dd;
	size_t n = 0;

	while (line < end && *line == ' ')
		line++;
	if (line == end || *line != '-')
		return false;
	dd = memmem(line, (size_t)(end - line), "--", 2);
	if (dd)
		for (dd += 2; dd < end && n + 1 < size &&
		     (*dd == '-' || (*dd >= 'a' && *dd <= 'z')); dd++)
			name[n++] = *dd;
	name[n] = '\0';
	return true;
}

/* The common help without the options @hides names, and their lines. */
void osn_help_filter(FILE *f, const char *help, const char *const *hides)
{
	bool skip = false;
	char name[64];

	for (const char *l = help; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l + 1) : strlen(l);

		if (help_line_name(l, len, name, sizeof(name)))
			skip = name_in(hides, name);
		if (!skip)
			fwrite(l, 1, len, f);
		l += len;
	}
}

void osn_usage(enum osn_cmd cmd, FILE *f)
{
	fprintf(f, "usage: osn %s [options]\n\n%s\n", osn_cmds[cmd].name,
		osn_cmds[cmd].about);
	osn_help_filter(f, common_help, osn_cmds[cmd].help_hides);
	fputs(osn_cmds[cmd].help, f);
	fputs("\nExit status: 0 ran to the end, 1 error, 2 stop condition hit.\n",
	      f);
}
