// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - pure helpers of the osn CLI (see util.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int osn_debug_level;
static char last_err[OSN_ERR_LEN];

int osn_err(const char *fmt, ...)
{
	char buf[OSN_ERR_LEN];	/* the arguments may be last_err itself */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	memcpy(last_err, buf, sizeof(last_err));
	return -1;
}

const char *osn_last_err(void)
{
	return last_err;
}

void osn_err_print(void)
{
	fprintf(stderr, "osn: %s\n", last_err);
}

int osn_err_keep_first(char *first)
{
	if (!first[0])
		memcpy(first, last_err, OSN_ERR_LEN);
	return -1;
}

static void vprint(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void osn_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint("osn: ", fmt, ap);
	va_end(ap);
}

void osn_debug(const char *fmt, ...)
{
	va_list ap;

	if (!osn_debug_level)
		return;
	va_start(ap, fmt);
	vprint("osn: debug: ", fmt, ap);
	va_end(ap);
}

uint64_t osn_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void osn_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n;

	if (!len)
		return;
	n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int osn_cpuset_count(const struct osn_cpuset *s)
{
	int n = 0;

	for (size_t i = 0; i < OSN_MAX_CPUS / 64; i++)
		n += __builtin_popcountll(s->w[i]);
	return n;
}

int osn_cpuset_last(const struct osn_cpuset *s)
{
	for (int i = OSN_MAX_CPUS / 64 - 1; i >= 0; i--)
		if (s->w[i])
			return i * 64 + 63 - __builtin_clzll(s->w[i]);
	return -1;
}

cpu_set_t *osn_cpuset_to_glibc(const struct osn_cpuset *s, size_t *size)
{
	int n = osn_cpuset_last(s) + 1;
	cpu_set_t *set;

	if (n < 1)
		n = 1;
	*size = CPU_ALLOC_SIZE(n);
	set = CPU_ALLOC(n);
	if (!set)
		return NULL;
	CPU_ZERO_S(*size, set);
	for (int c = 0; c < n; c++)
		if (osn_cpuset_isset(s, c))
			CPU_SET_S(c, *size, set);
	return set;
}

bool osn_cpuset_empty(const struct osn_cpuset *s)
{
	return osn_cpuset_last(s) < 0;
}

void osn_cpuset_and_not(struct osn_cpuset *out, const struct osn_cpuset *x,
			const struct osn_cpuset *y)
{
	for (size_t i = 0; i < OSN_MAX_CPUS / 64; i++)
		out->w[i] = x->w[i] & ~y->w[i];
}

void osn_cpuset_and(struct osn_cpuset *out, const struct osn_cpuset *x,
		    const struct osn_cpuset *y)
{
	for (size_t i = 0; i < OSN_MAX_CPUS / 64; i++)
		out->w[i] = x->w[i] & y->w[i];
}

void osn_cpuset_or(struct osn_cpuset *out, const struct osn_cpuset *x,
		   const struct osn_cpuset *y)
{
	for (size_t i = 0; i < OSN_MAX_CPUS / 64; i++)
		out->w[i] = x->w[i] | y->w[i];
}

bool osn_cpuset_intersects(const struct osn_cpuset *x,
			   const struct osn_cpuset *y)
{
	for (size_t i = 0; i < OSN_MAX_CPUS / 64; i++)
		if (x->w[i] & y->w[i])
			return true;
	return false;
}

bool osn_cpuset_covers(const struct osn_cpuset *big,
		       const struct osn_cpuset *small)
{
	for (size_t i = 0; i < OSN_MAX_CPUS / 64; i++)
		if (small->w[i] & ~big->w[i])
			return false;
	return true;
}

/* Parse a decimal CPU number at *p; advances *p. */
static int parse_cpu(const char **p, long *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v > 1000000)
		return -1;
	*out = v;
	*p = end;
	return 0;
}

/*
 * @str as an error quotes it: whole, or its start when it is long (a list
 * of hundreds of CPUs named one by one would push the reason out of the
 * message).
 */
static const char *quoted_list(const char *str, char *buf, size_t len)
{
	if (strlen(str) < len)
		return str;
	snprintf(buf, len, "%.*s...", (int)len - 4, str);
	return buf;
}

int osn_parse_cpulist(const char *str, int nr_cpus, struct osn_cpuset *set)
{
	const char *p = str, *q;
	char shown[40];
	long a, b;

	osn_cpuset_zero(set);
	if (!str || !*str)
		return osn_err("empty cpu list");
	q = quoted_list(str, shown, sizeof(shown));
	if (nr_cpus > OSN_MAX_CPUS || nr_cpus <= 0)
		nr_cpus = OSN_MAX_CPUS;
	for (;;) {
		while (*p == ' ')
			p++;
		if (parse_cpu(&p, &a))
			return osn_err("'%s' is not a cpu list (e.g. 0-3,5)", q);
		b = a;
		if (*p == '-') {
			p++;
			if (parse_cpu(&p, &b))
				return osn_err("'%s' is not a cpu list (e.g. 0-3,5)",
					       q);
			if (b < a)
				return osn_err("'%s': range %ld-%ld is reversed",
					       q, a, b);
		}
		if (b >= nr_cpus) {
			if (nr_cpus == 1)
				return osn_err("'%s': cpu %ld does not exist (this machine has cpu 0)",
					       q, b);
			return osn_err("'%s': cpu %ld does not exist (this machine has cpus 0-%d)",
				       q, b, nr_cpus - 1);
		}
		for (long c = a; c <= b; c++)
			osn_cpuset_set(set, (int)c);
		while (*p == ' ')
			p++;
		if (*p == '\0' || *p == '\n')
			break;
		if (*p != ',')
			return osn_err("'%s' is not a cpu list (e.g. 0-3,5)", q);
		p++;
	}
	return 0;
}

size_t osn_format_cpulist(const struct osn_cpuset *set, char *buf, size_t len)
{
	size_t off = 0, need = 0;
	int c = 0, last = osn_cpuset_last(set);

	if (len)
		buf[0] = '\0';
	while (c <= last) {
		char item[32];
		int start, n;

		if (!osn_cpuset_isset(set, c)) {
			c++;
			continue;
		}
		start = c;
		while (c + 1 <= last && osn_cpuset_isset(set, c + 1))
			c++;
		if (start == c)
			n = snprintf(item, sizeof(item), "%s%d", need ? "," : "",
				     start);
		else
			n = snprintf(item, sizeof(item), "%s%d-%d",
				     need ? "," : "", start, c);
		/* whole items only: a cut list never names another CPU */
		if (off == need && off + n < len) {
			memcpy(buf + off, item, n + 1);
			off += n;
		}
		need += n;
		c++;
	}
	return need;
}

/* Leading number of @str: digits only (no sign, no spaces). */
static int leading_u64(const char *str, uint64_t *v, const char **rest)
{
	char *end;

	if (!str || !isdigit((unsigned char)*str))
		return -1;
	errno = 0;
	*v = strtoull(str, &end, 10);
	if (errno == ERANGE)
		return -2;
	*rest = end;
	return 0;
}

int osn_parse_u64(const char *str, uint64_t max, uint64_t *out)
{
	const char *rest;
	uint64_t v;
	int r;

	if (str && *str == '-')
		return osn_err("'%s' is negative", str);
	r = leading_u64(str, &v, &rest);
	if (r == -2 || (!r && !*rest && v > max))
		return osn_err("'%s' is too large (max %llu)", str,
			       (unsigned long long)max);
	if (r || *rest)
		return osn_err("'%s' is not a number", str ? str : "");
	*out = v;
	return 0;
}

/* A number with one of these units: what it is called in the errors. */
struct unit {
	const char *name;	/* "" = no unit */
	uint64_t mult;
};

struct unit_kind {
	const char *what;	/* "'%s' is not WHAT" */
	const char *too_big;	/* "'%s' is TOO_BIG" */
	const char *names;	/* "unknown unit (use NAMES)" */
	uint64_t max;		/* the largest value, in the smallest unit */
	struct unit units[6];	/* ends at a NULL name */
};

static const struct unit_kind duration_s = {
	"a duration (e.g. 30, 30s, 5m, 2h, 1d)", "too long", "s, m, h or d",
	/* seconds that still fit in a u64 once in ns (osn_end_ns()) */
	UINT64_MAX / 1000000000ULL,
	{ { "", 1 }, { "s", 1 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 } },
};

static const struct unit_kind time_ns = {
	"a time (e.g. 500us, 1ms)", "too large", "ns, us, ms or s", UINT64_MAX,
	{ { "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	  { "s", 1000000000 } },
};

/* "<digits><unit>" in @k's units, as a count of its smallest one. */
static int parse_with_unit(const char *str, const struct unit_kind *k,
			   uint64_t *out)
{
	const struct unit *u;
	const char *rest;
	uint64_t v;
	int r;

	if (str && *str == '-')
		return osn_err("'%s' is negative", str);
	r = leading_u64(str, &v, &rest);
	if (r == -2)
		return osn_err("'%s' is %s", str, k->too_big);
	if (r)
		return osn_err("'%s' is not %s", str ? str : "", k->what);
	for (u = k->units; u->name; u++)
		if (!strcmp(rest, u->name))
			break;
	if (!u->name)
		return osn_err("'%s': unknown unit '%s' (use %s)", str, rest,
			       k->names);
	if (v > k->max / u->mult)
		return osn_err("'%s' is %s", str, k->too_big);
	*out = v * u->mult;
	return 0;
}

int osn_parse_duration_s(const char *str, uint64_t *out)
{
	return parse_with_unit(str, &duration_s, out);
}

int osn_parse_time_ns(const char *str, uint64_t *out)
{
	return parse_with_unit(str, &time_ns, out);
}

static int parse_int_range(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int osn_parse_sched(const char *str, struct osn_sched *out)
{
	long v;

	memset(out, 0, sizeof(*out));
	if (!str || strlen(str) < 3 || str[1] != ':')
		goto bad;
	switch (str[0]) {
	case 'o':
	case 'O':
		if (parse_int_range(str + 2, -20, 19, &v))
			return osn_err("'%s': SCHED_OTHER takes a nice value -20..19",
				       str);
		out->policy = OSN_SCHED_OTHER;
		out->prio = (int)v;
		return 0;
	case 'r':
	case 'R':
	case 'f':
	case 'F':
		if (parse_int_range(str + 2, 1, 99, &v))
			return osn_err("'%s': real-time priority must be 1..99",
				       str);
		out->policy = (str[0] == 'r' || str[0] == 'R') ?
			OSN_SCHED_RR : OSN_SCHED_FIFO;
		out->prio = (int)v;
		return 0;
	case 'd':
	case 'D': {
		char buf[64], *colon;

		osn_strlcpy(buf, str + 2, sizeof(buf));
		colon = strchr(buf, ':');
		if (!colon)
			return osn_err("'%s': SCHED_DEADLINE takes d:runtime:period (e.g. d:100us:1ms)",
				       str);
		*colon = '\0';
		if (osn_parse_time_ns(buf, &out->runtime_ns) ||
		    osn_parse_time_ns(colon + 1, &out->period_ns))
			return -1;
		if (!out->runtime_ns || out->runtime_ns > out->period_ns)
			return osn_err("'%s': SCHED_DEADLINE needs 0 < runtime <= period",
				       str);
		if (out->runtime_ns < 1024)
			return osn_err("'%s': SCHED_DEADLINE runtime must be >= 1024 ns (units: ns, us, ms, s; none = ns)",
				       str);
		out->policy = OSN_SCHED_DEADLINE;
		return 0;
	}
	default:
		break;
	}
bad:
	return osn_err("'%s' is not a priority (o:nice, r:prio, f:prio or d:runtime:period)",
		       str ? str : "");
}

void osn_format_sched(const struct osn_sched *s, char *buf, size_t len)
{
	switch (s->policy) {
	case OSN_SCHED_OTHER:
		snprintf(buf, len, "o:%d", s->prio);
		break;
	case OSN_SCHED_RR:
		snprintf(buf, len, "r:%d", s->prio);
		break;
	case OSN_SCHED_FIFO:
		snprintf(buf, len, "f:%d", s->prio);
		break;
	case OSN_SCHED_DEADLINE:
		snprintf(buf, len, "d:%lluns:%lluns",
			 (unsigned long long)s->runtime_ns,
			 (unsigned long long)s->period_ns);
		break;
	default:
		snprintf(buf, len, "none");
	}
}

void osn_format_elapsed(uint64_t secs, char *buf, size_t len)
{
	snprintf(buf, len, "%3llu %02u:%02u:%02u",
		 (unsigned long long)(secs / 86400),
		 (unsigned)(secs / 3600 % 24), (unsigned)(secs / 60 % 60),
		 (unsigned)(secs % 60));
}

void osn_format_us3(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%03u", (unsigned long long)(ns / 1000),
		 (unsigned)(ns % 1000));
}

const char *osn_softirq_name(int vec)
{
	static const char * const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
		"TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	if (vec < 0 || vec >= (int)ARRAY_SIZE(names))
		return "?";
	return names[vec];
}

uint64_t osn_end_ns(uint64_t start_ns, uint64_t duration_s)
{
	if (!duration_s)
		return 0;
	if (duration_s > (UINT64_MAX - start_ns) / 1000000000ULL)
		return UINT64_MAX;
	return start_ns + duration_s * 1000000000ULL;
}

uint64_t osn_next_tick(uint64_t tick_ns, uint64_t period_ns, uint64_t now_ns)
{
	uint64_t next = tick_ns + period_ns;

	if (next < tick_ns || next <= now_ns)	/* overflowed, or late */
		next = now_ns + period_ns;
	return next;
}

uint64_t osn_drain_interval_ns(uint64_t buffer_kb, uint64_t period_us,
			       uint64_t event_bytes, uint64_t min_ns,
			       uint64_t max_ns)
{
	uint64_t events, ns;

	if (!event_bytes)
		return min_ns;
	events = (buffer_kb > UINT64_MAX / 1024 ? UINT64_MAX : buffer_kb * 1024) /
		 event_bytes / 4;
	/* events * period in ns, saturated */
	if (period_us && events > UINT64_MAX / 1000 / period_us)
		ns = UINT64_MAX;
	else
		ns = events * period_us * 1000;
	if (ns < min_ns)
		return min_ns;
	return ns > max_ns ? max_ns : ns;
}

uint64_t osn_next_deadline(uint64_t tick_ns, uint64_t end_ns)
{
	return end_ns && end_ns < tick_ns ? end_ns : tick_ns;
}

void osn_timeout_until(uint64_t now_ns, uint64_t deadline_ns,
		       struct timespec *ts)
{
	uint64_t left = deadline_ns > now_ns ? deadline_ns - now_ns : 0;

	ts->tv_sec = (time_t)(left / 1000000000ULL);
	ts->tv_nsec = (long)(left % 1000000000ULL);
}
