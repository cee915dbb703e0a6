// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - osn top / osn hist command line (see params.h).
 */
#include <getopt.h>
#include <stdarg.h>
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
};

static const struct option common_opts[] = {
	{ "auto",		required_argument,	NULL, 'a' },
	{ "cpus",		required_argument,	NULL, 'c' },
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
	/* top */
	{ "wide",		no_argument,		NULL, OPT_WIDE },
	/* hist */
	{ "bucket-size",	required_argument,	NULL, 'b' },
	{ "entries",		required_argument,	NULL, 'E' },
	{ "no-header",		no_argument,		NULL, OPT_NO_HEADER },
	{ "no-summary",		no_argument,		NULL, OPT_NO_SUMMARY },
	{ "no-index",		no_argument,		NULL, OPT_NO_INDEX },
	{ "with-zeros",		no_argument,		NULL, OPT_WITH_ZEROS },
	{ NULL, 0, NULL, 0 },
};

const char *osn_cmd_name(enum osn_cmd cmd)
{
	return cmd == OSN_CMD_HIST ? "hist" : "top";
}

static int errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* "-x 'value': reason" */
static int bad(char *err, size_t errlen, const char *opt, const char *why)
{
	return errf(err, errlen, "%s %s", opt, why);
}

static int us_opt(const char *opt, const char *arg, uint64_t max,
		  uint64_t *out, char *err, size_t errlen)
{
	char why[256];

	if (osn_parse_u64(arg, max, out, why, sizeof(why)))
		return bad(err, errlen, opt, why);
	return 0;
}

static const char *opt_name(int c, const char *fallback)
{
	static char buf[32];

	for (const struct option *o = common_opts; o->name; o++) {
		if (o->val == c && c < 256) {
			snprintf(buf, sizeof(buf), "-%c", c);
			return buf;
		}
		if (o->val == c) {
			snprintf(buf, sizeof(buf), "--%s", o->name);
			return buf;
		}
	}
	return fallback;
}

int osn_parse_args(enum osn_cmd cmd, int argc, char **argv, int nr_cpus,
		   struct osn_params *p, char *err, size_t errlen)
{
	const char *shortopts = cmd == OSN_CMD_HIST ?
		":a:b:c:d:De:E:hH:p:P:qr:s:S:t::T:" :
		":a:c:d:De:hH:p:P:qr:s:S:t::T:";
	struct osn_event_opt *last_ev = NULL;
	bool trace_set = false;
	char why[256];
	int c;

	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->period_us = OSN_DEFAULT_PERIOD_US;
	p->runtime_us = OSN_DEFAULT_RUNTIME_US;
	p->bucket_us = 1;
	p->entries = 256;
	bool have_period = false, have_runtime = false;

	optind = 0;	/* full re-initialisation (glibc) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, common_opts, NULL)) != -1) {
		const char *arg = optarg;

		switch (c) {
		case 'a':
			if (us_opt("-a", arg, 1000000000000ULL, &p->stop_us,
				   err, errlen))
				return -1;
			p->threshold_us = 1;
			if (!trace_set)
				p->trace_file = OSN_TRACE_FILE;
			break;
		case 'b':
			if (us_opt("-b", arg, 1000000, &p->bucket_us, err, errlen))
				return -1;
			if (!p->bucket_us)
				return bad(err, errlen, "-b", "must be >= 1 us");
			break;
		case 'c':
			if (osn_parse_cpulist(arg, nr_cpus, &p->cpus, why,
					      sizeof(why)))
				return bad(err, errlen, "-c", why);
			p->have_cpus = true;
			break;
		case 'd':
			if (osn_parse_duration_s(arg, &p->duration_s, why,
						 sizeof(why)))
				return bad(err, errlen, "-d", why);
			if (!p->duration_s)
				return bad(err, errlen, "-d", "must be at least 1s");
			break;
		case 'D':
			p->debug++;
			break;
		case 'e': {
			struct osn_event_opt *e;
			const char *colon = strchr(arg, ':');
			size_t sl = colon ? (size_t)(colon - arg) : strlen(arg);

			if (p->nevents == OSN_MAX_EVENTS)
				return bad(err, errlen, "-e", "given too many times");
			if (!sl || sl >= sizeof(e->system) ||
			    (colon && (!colon[1] ||
				       strlen(colon + 1) >= sizeof(e->event))) ||
			    strchr(arg, '/'))
				return errf(err, errlen,
					    "-e '%s' is not sys[:event] (e.g. -e sched:sched_switch)",
					    arg);
			e = &p->events[p->nevents++];
			memcpy(e->system, arg, sl);
			e->system[sl] = '\0';
			if (colon)
				osn_strlcpy(e->event, colon + 1, sizeof(e->event));
			last_ev = e;
			break;
		}
		case 'E': {
			uint64_t v;

			if (us_opt("-E", arg, 9999999, &v, err, errlen))
				return -1;
			if (v < 10)
				return bad(err, errlen, "-E", "must be 10..9999999");
			p->entries = (unsigned)v;
			break;
		}
		case 'h':
			p->help = true;
			return 0;
		case 'H':
			if (osn_parse_cpulist(arg, nr_cpus, &p->hk, why,
					      sizeof(why)))
				return bad(err, errlen, "-H", why);
			p->have_hk = true;
			break;
		case 'p':
			if (us_opt("-p", arg, OSN_MAX_PERIOD_US, &p->period_us,
				   err, errlen))
				return -1;
			have_period = true;
			break;
		case 'P':
			if (osn_parse_sched(arg, &p->sched, why, sizeof(why)))
				return bad(err, errlen, "-P", why);
			break;
		case 'q':
			p->quiet = true;
			break;
		case 'r':
			if (us_opt("-r", arg, OSN_MAX_PERIOD_US, &p->runtime_us,
				   err, errlen))
				return -1;
			have_runtime = true;
			break;
		case 's':
			if (us_opt("-s", arg, 1000000000000ULL, &p->stop_us,
				   err, errlen))
				return -1;
			break;
		case 'S':
			if (us_opt("-S", arg, 1000000000000ULL,
				   &p->stop_total_us, err, errlen))
				return -1;
			break;
		case 't':
			if (arg) {
				if (arg[0] == '=')
					arg++;
			} else if (optind < argc && argv[optind][0] != '-') {
				arg = argv[optind++];
			}
			p->trace_file = arg && *arg ? arg : OSN_TRACE_FILE;
			trace_set = true;
			break;
		case 'T':
			if (us_opt("-T", arg, OSN_MAX_THRESHOLD_US,
				   &p->threshold_us, err, errlen))
				return -1;
			break;
		case OPT_FILTER:
			if (!last_ev)
				return errf(err, errlen, "--filter needs a previous -e");
			last_ev->filter = arg;
			break;
		case OPT_TRIGGER:
			if (!last_ev)
				return errf(err, errlen, "--trigger needs a previous -e");
			last_ev->trigger = arg;
			break;
		case OPT_WARMUP:
			if (osn_parse_duration_s(arg, &p->warmup_s, why,
						 sizeof(why)))
				return bad(err, errlen, "--warm-up", why);
			break;
		case OPT_BUFSIZE:
			if (us_opt("--trace-buffer-size", arg, 64ULL << 20,
				   &p->buffer_kb, err, errlen))
				return -1;
			if (!p->buffer_kb)
				return bad(err, errlen, "--trace-buffer-size",
					   "must be at least 1 kB");
			break;
		case OPT_JSON:
			p->json = true;
			p->json_file = arg && *arg && strcmp(arg, "-") ? arg : NULL;
			break;
		case OPT_VERSION:
			p->version = true;
			return 0;
		case OPT_WIDE:
			if (cmd != OSN_CMD_TOP)
				return errf(err, errlen, "--wide is an option of osn top");
			p->wide = true;
			break;
		case OPT_NO_HEADER:
		case OPT_NO_SUMMARY:
		case OPT_NO_INDEX:
		case OPT_WITH_ZEROS:
			if (cmd != OSN_CMD_HIST)
				return errf(err, errlen, "%s is an option of osn hist",
					    opt_name(c, "?"));
			if (c == OPT_NO_HEADER)
				p->no_header = true;
			else if (c == OPT_NO_SUMMARY)
				p->no_summary = true;
			else if (c == OPT_NO_INDEX)
				p->no_index = true;
			else
				p->with_zeros = true;
			break;
		case ':':
			if (optind > 0 && optind <= argc &&
			    !strncmp(argv[optind - 1], "--", 2))
				return errf(err, errlen, "%s needs a value",
					    argv[optind - 1]);
			if (optopt)
				return errf(err, errlen, "%s needs a value",
					    opt_name(optopt, "option"));
			return errf(err, errlen, "%s needs a value",
				    argv[optind - 1]);
		case '?':
		default:
			if (optopt && optopt < 256 &&
			    (optopt == 'b' || optopt == 'E'))
				return errf(err, errlen,
					    "-%c is an option of osn hist", optopt);
			if (optopt && optopt < 256)
				return errf(err, errlen, "unknown option -%c", optopt);
			return errf(err, errlen, "unknown option %s",
				    argv[optind - 1]);
		}
	}
	if (optind < argc)
		return errf(err, errlen, "unexpected argument '%s'", argv[optind]);

	/* period/runtime: a lone -p shorter than the default runtime
	 * measures the whole period, like a lone -r keeps the period. */
	if (have_period && !have_runtime && p->runtime_us > p->period_us)
		p->runtime_us = p->period_us;
	if (p->runtime_us < OSN_MIN_RUNTIME_US)
		return errf(err, errlen, "-r %llu: runtime must be >= %llu us",
			    (unsigned long long)p->runtime_us,
			    (unsigned long long)OSN_MIN_RUNTIME_US);
	if (p->runtime_us > p->period_us)
		return errf(err, errlen,
			    "-r %llu: runtime must be <= period (%llu us)",
			    (unsigned long long)p->runtime_us,
			    (unsigned long long)p->period_us);
	if (p->nevents && !p->trace_file)
		return errf(err, errlen,
			    "-e needs -t: its events go to the saved trace");
	if (p->have_hk && osn_cpuset_empty(&p->hk))
		return errf(err, errlen, "-H: empty cpu list");
	if (p->json && p->json_file == NULL && p->trace_file &&
	    !strcmp(p->trace_file, "-"))
		return errf(err, errlen, "-t - and --json both want stdout");
	return 0;
}

static const char *common_help =
"  -c, --cpus CPULIST         measure these CPUs (default: all)\n"
"  -H, --house-keeping CPUS   run osn itself on these CPUs (default: the\n"
"                             online CPUs it does not measure)\n"
"  -d, --duration TIME        run for TIME (s, m, h, d; default: until Ctrl-C)\n"
"  -p, --period US            period of the workload (default 1000000)\n"
"  -r, --runtime US           runtime of each period (default 1000000, >= 100)\n"
"  -T, --threshold US         minimum gap counted as noise (default 1)\n"
"  -s, --stop US              stop when a single noise sample is > US\n"
"  -S, --stop-total US        stop when a period's total noise is > US\n"
"  -a, --auto US              -s US -T 1 -t\n"
"  -t, --trace[=FILE]         save the trace to FILE (default " OSN_TRACE_FILE ")\n"
"  -e, --event SYS[:EVENT]    also trace this event in the saved trace\n"
"      --filter FILTER        filter for the previous -e event\n"
"      --trigger TRIGGER      trigger for the previous -e event\n"
"  -P, --priority PRIO        scheduling of the osn/N threads: o:nice,\n"
"                             r:prio, f:prio or d:runtime:period (ns, or\n"
"                             with us/ms/s)\n"
"      --warm-up TIME         let the workload run TIME before collecting\n"
"      --trace-buffer-size KB per-CPU buffer size of osn's instances\n"
"      --json[=FILE]          JSON report to FILE (or to stdout instead of text)\n"
"  -q, --quiet                print only the final report\n"
"  -D, --debug                print what osn does to tracefs and the module\n"
"  -h, --help                 this help\n";

void osn_usage(enum osn_cmd cmd, FILE *f)
{
	if (cmd == OSN_CMD_TOP) {
		fputs("usage: osn top [options]\n"
		      "\n"
		      "  Per-CPU summary of the operating system noise, refreshed\n"
		      "  every second: noise, CPU availability, and how many times\n"
		      "  and how long each class (HW, NMI, IRQ, Softirq, Thread)\n"
		      "  interrupted the workload.\n"
		      "\n", f);
		fputs(common_help, f);
		fputs("      --wide                 one wide table instead of two blocks\n",
		      f);
	} else {
		fputs("usage: osn hist [options]\n"
		      "\n"
		      "  Per-CPU histogram of the noise samples, aggregated in the\n"
		      "  kernel, with exact min/avg/max and p50/p90/p99/p99.9.\n"
		      "\n", f);
		fputs(common_help, f);
		fputs("  -b, --bucket-size US       bucket size (default 1)\n"
		      "  -E, --entries N            number of buckets (default 256)\n"
		      "      --no-header            no header lines\n"
		      "      --no-summary           no count/min/avg/max/percentile rows\n"
		      "      --no-index             no index column\n"
		      "      --with-zeros           print empty buckets too\n", f);
	}
	fputs("\nExit status: 0 ran to the end, 1 error, 2 stop condition hit.\n",
	      f);
}
