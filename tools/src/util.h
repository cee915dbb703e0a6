/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - pure helpers of the osn CLI: cpulists, durations, numbers,
 * scheduling parameters, and the one error/debug reporting path.  No I/O
 * here but stderr: everything is unit-tested on the host (tests/unit/).
 */
#ifndef OSN_UTIL_H
#define OSN_UTIL_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define OSN_MAX_CPUS	4096
#define OSN_ERR_LEN	1024

/*
 * Bytes of the longest cpulist of CPUs below OSN_MAX_CPUS, with a
 * newline (as read from a file) and the NUL.  An item covers k CPUs and
 * the gap after it: "a," (k 1, 5 characters for 2 CPUs) or "a-b," (k 2,
 * 10 for 3: the worst, "0-1,3-4,6-7,..."; longer runs cost less a CPU).
 * 4096 CPUs: 13662 bytes, where the list of every other CPU needs 9685.
 */
#define OSN_CPULIST_LEN	((OSN_MAX_CPUS + 2) / 3 * 10 + 2)
/*
 * Bytes of the kernel's hex mask (%*pb) of OSN_MAX_CPUS CPUs: a digit
 * for 4, a comma between 32-bit words, the NUL (4096 CPUs: 1152).
 */
#define OSN_HEXMASK_LEN	(OSN_MAX_CPUS / 4 + OSN_MAX_CPUS / 32)
_Static_assert(OSN_MAX_CPUS <= 10000, "OSN_CPULIST_LEN: 4-digit CPU numbers");

/*
 * The number of elements of array @a.  Given a pointer, gcc's
 * -Wsizeof-pointer-div (in -Wall, so an error here) refuses it.
 */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * Errors and debug messages (rtla's err_msg()/debug_msg()).  A failing
 * function records a one-line message with osn_err() and returns -1; the
 * caller that gives up prints it once ("osn: MSG") with osn_err_print().
 * Recording instead of printing at once keeps the failures that are
 * recovered from (a retried trigger, a knob read before its write) off
 * the screen, and lets the unit tests read the message.
 */
extern int osn_debug_level;	/* -D, given this many times */

/* Record @fmt as the last error (may use osn_last_err()); returns -1. */
int osn_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *osn_last_err(void);
/* Print the last error on stderr as "osn: MSG". */
void osn_err_print(void);
/*
 * Where undoing goes on after a failure and reports the first one: copy
 * the last error to @first (OSN_ERR_LEN bytes) unless it holds one
 * already.  Returns -1.
 */
int osn_err_keep_first(char *first);
/* "osn: MSG" on stderr now: something the user should know. */
void osn_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "osn: debug: MSG" on stderr with -D. */
void osn_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct osn_cpuset {
	uint64_t w[OSN_MAX_CPUS / 64];
};

static inline void osn_cpuset_zero(struct osn_cpuset *s)
{
	for (size_t i = 0; i < OSN_MAX_CPUS / 64; i++)
		s->w[i] = 0;
}

static inline void osn_cpuset_set(struct osn_cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < OSN_MAX_CPUS)
		s->w[cpu / 64] |= 1ULL << (cpu % 64);
}

static inline void osn_cpuset_clear(struct osn_cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < OSN_MAX_CPUS)
		s->w[cpu / 64] &= ~(1ULL << (cpu % 64));
}

static inline bool osn_cpuset_isset(const struct osn_cpuset *s, int cpu)
{
	if (cpu < 0 || cpu >= OSN_MAX_CPUS)
		return false;
	return s->w[cpu / 64] & (1ULL << (cpu % 64));
}

int osn_cpuset_count(const struct osn_cpuset *s);
/* Highest CPU set, -1 when empty. */
int osn_cpuset_last(const struct osn_cpuset *s);
bool osn_cpuset_empty(const struct osn_cpuset *s);
/*
 * @s as a glibc cpu_set_t of *@size bytes (sched_setaffinity(),
 * libtracefs), to free with CPU_FREE(); NULL if out of memory.
 */
cpu_set_t *osn_cpuset_to_glibc(const struct osn_cpuset *s, size_t *size);

/* Set algebra; @out may be @x or @y. */
/* @out = @x & ~@y: the CPUs of @x not in @y. */
void osn_cpuset_and_not(struct osn_cpuset *out, const struct osn_cpuset *x,
			const struct osn_cpuset *y);
/* @out = @x & @y */
void osn_cpuset_and(struct osn_cpuset *out, const struct osn_cpuset *x,
		    const struct osn_cpuset *y);
/* @out = @x | @y */
void osn_cpuset_or(struct osn_cpuset *out, const struct osn_cpuset *x,
		   const struct osn_cpuset *y);
/* Some CPU is in both. */
bool osn_cpuset_intersects(const struct osn_cpuset *x,
			   const struct osn_cpuset *y);
/* Every CPU of @small is in @big. */
bool osn_cpuset_covers(const struct osn_cpuset *big,
		       const struct osn_cpuset *small);

/*
 * Parse a cpulist ("0-3,5,8-11") into @set.  CPUs must be < @nr_cpus
 * (pass OSN_MAX_CPUS to accept anything representable).  On error returns
 * -1 with the reason as the last error (osn_err).
 */
int osn_parse_cpulist(const char *str, int nr_cpus, struct osn_cpuset *set);
/*
 * Format @set as a compact cpulist ("0-3,5"); "" when empty.  Returns
 * the length of the whole list; when it is @len or more, @buf holds the
 * items that fit, each whole.
 */
size_t osn_format_cpulist(const struct osn_cpuset *set, char *buf, size_t len);

/*
 * A duration in seconds: "10", "10s", "5m", "2h", "1d" (rtla's -d).
 * Returns -1 with the reason as the last error on junk, a negative value,
 * an unknown unit or overflow.
 */
int osn_parse_duration_s(const char *str, uint64_t *out);
/*
 * A time with an optional unit, in ns: "100" (ns), "100ns", "100us",
 * "5ms", "1s" (rtla's -P d:runtime:period).
 */
int osn_parse_time_ns(const char *str, uint64_t *out);
/* A non-negative decimal integer that fits in @max. */
int osn_parse_u64(const char *str, uint64_t max, uint64_t *out);

enum osn_sched_policy {
	OSN_SCHED_NONE = 0,	/* -P not given */
	OSN_SCHED_OTHER,	/* o:nice */
	OSN_SCHED_RR,		/* r:prio */
	OSN_SCHED_FIFO,		/* f:prio */
	OSN_SCHED_DEADLINE,	/* d:runtime:period */
};

struct osn_sched {
	enum osn_sched_policy policy;
	int prio;		/* nice for OTHER, 1..99 for RR/FIFO */
	uint64_t runtime_ns;	/* DEADLINE */
	uint64_t period_ns;	/* DEADLINE (= deadline) */
};

/* rtla's -P: o:prio | r:prio | f:prio | d:runtime[unit]:period[unit] */
int osn_parse_sched(const char *str, struct osn_sched *out);
/* Back to the -P spelling (for messages and JSON). */
void osn_format_sched(const struct osn_sched *s, char *buf, size_t len);

/* rtla's "%3d %02d:%02d:%02d" (days hh:mm:ss) of @secs. */
void osn_format_elapsed(uint64_t secs, char *buf, size_t len);

/* ns -> "12.345" (us with 3 decimals, exact). */
void osn_format_us3(uint64_t ns, char *buf, size_t len);

/* Softirq vector -> name (HI, TIMER, ...), "?" when unknown. */
const char *osn_softirq_name(int vec);

/*
 * Pacing of a run's loop, in CLOCK_MONOTONIC ns: it sleeps until the
 * next moment something is due (the next read/refresh tick, the end of
 * -d), never in fixed slices.
 */
/* The end of a run of @duration_s from @start_ns; 0 (none) for 0, saturated. */
uint64_t osn_end_ns(uint64_t start_ns, uint64_t duration_s);
/*
 * The tick after the one at @tick_ns, handled at @now_ns: one @period_ns
 * later, or @period_ns after @now_ns when that has already passed (a late
 * tick is not caught up with a burst of reads).
 */
uint64_t osn_next_tick(uint64_t tick_ns, uint64_t period_ns, uint64_t now_ns);
/*
 * How often a tool that only needs the per-period summaries must read its
 * buffer so that it never fills past a quarter: the time @buffer_kb per
 * CPU takes to fill with one @event_bytes summary every @period_us, a
 * quarter of it, kept within [@min_ns, @max_ns].
 */
uint64_t osn_drain_interval_ns(uint64_t buffer_kb, uint64_t period_us,
			       uint64_t event_bytes, uint64_t min_ns,
			       uint64_t max_ns);
/* When to wake next: the earlier of @tick_ns and @end_ns (0: no end). */
uint64_t osn_next_deadline(uint64_t tick_ns, uint64_t end_ns);
/* @deadline_ns - @now_ns as a timeout for ppoll; zero once it has passed. */
void osn_timeout_until(uint64_t now_ns, uint64_t deadline_ns,
		       struct timespec *ts);

/* CLOCK_MONOTONIC now, in ns: the clock of every deadline and tick. */
uint64_t osn_mono_ns(void);

/* strlcpy-alike that always terminates. */
void osn_strlcpy(char *dst, const char *src, size_t len);

#endif
