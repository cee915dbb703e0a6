// SPDX-License-Identifier: GPL-2.0
/* durations, times, numbers, -P priorities, formatting, loop pacing */
#include "harness.h"
#include "util.h"

static uint64_t dur(const char *s)
{
	uint64_t v = 12345;

	if (osn_parse_duration_s(s, &v))
		return (uint64_t)-1;
	return v;
}

TEST(durations)
{
	uint64_t v;

	CHECK_EQ(dur("10"), 10);
	CHECK_EQ(dur("10s"), 10);
	CHECK_EQ(dur("5m"), 300);
	CHECK_EQ(dur("2h"), 7200);
	CHECK_EQ(dur("1d"), 86400);
	CHECK_EQ(dur("0"), 0);
	CHECK_EQ(dur("-5"), (uint64_t)-1);
	CHECK_EQ(dur("5x"), (uint64_t)-1);
	CHECK_EQ(dur("5 s"), (uint64_t)-1);
	CHECK_EQ(dur("s"), (uint64_t)-1);
	CHECK_EQ(dur(""), (uint64_t)-1);
	CHECK_EQ(dur("1ms"), (uint64_t)-1);
	CHECK_EQ(dur("99999999999999999999"), (uint64_t)-1);
	CHECK_EQ(dur("9999999999999d"), (uint64_t)-1);

	CHECK_EQ(osn_parse_duration_s("5x", &v), -1);
	CHECK_STR(osn_last_err(), "'5x': unknown unit 'x' (use s, m, h or d)");
	CHECK_EQ(osn_parse_duration_s("-3", &v), -1);
	CHECK_STR(osn_last_err(), "'-3' is negative");
	CHECK_EQ(osn_parse_duration_s("soon", &v), -1);
	CHECK_STR(osn_last_err(),
		  "'soon' is not a duration (e.g. 30, 30s, 5m, 2h, 1d)");
	CHECK_EQ(osn_parse_duration_s(NULL, &v), -1);
	CHECK_STR(osn_last_err(),
		  "'' is not a duration (e.g. 30, 30s, 5m, 2h, 1d)");
	CHECK_EQ(osn_parse_duration_s("99999999999999999999", &v), -1);
	CHECK_STR(osn_last_err(), "'99999999999999999999' is too long");
	/* the longest is what fits in ns (UINT64_MAX / 10^9 s), in any unit */
	CHECK_EQ(dur("18446744073"), 18446744073ULL);
	CHECK_EQ(dur("18446744074"), (uint64_t)-1);
	CHECK_STR(osn_last_err(), "'18446744074' is too long");
	CHECK_EQ(dur("213503d"), 213503ULL * 86400);
	CHECK_EQ(dur("213504d"), (uint64_t)-1);
	CHECK_EQ(dur("307445734m"), 307445734ULL * 60);
	CHECK_EQ(dur("307445735m"), (uint64_t)-1);
}

TEST(times)
{
	uint64_t v = 0;

	CHECK_EQ(osn_parse_time_ns("100", &v), 0);
	CHECK_EQ(v, 100);
	CHECK_EQ(osn_parse_time_ns("100us", &v), 0);
	CHECK_EQ(v, 100000);
	CHECK_EQ(osn_parse_time_ns("5ms", &v), 0);
	CHECK_EQ(v, 5000000);
	CHECK_EQ(osn_parse_time_ns("2s", &v), 0);
	CHECK_EQ(v, 2000000000);
	CHECK_EQ(osn_parse_time_ns("7ns", &v), 0);
	CHECK_EQ(v, 7);
	CHECK_EQ(osn_parse_time_ns("3m", &v), -1);
	CHECK_HAS(osn_last_err(), "unknown unit 'm'");
	CHECK_EQ(osn_parse_time_ns("-1us", &v), -1);
	CHECK_STR(osn_last_err(), "'-1us' is negative");
	CHECK_EQ(osn_parse_time_ns("3m", &v), -1);
	CHECK_STR(osn_last_err(), "'3m': unknown unit 'm' (use ns, us, ms or s)");
	CHECK_EQ(osn_parse_time_ns("us", &v), -1);
	CHECK_STR(osn_last_err(), "'us' is not a time (e.g. 500us, 1ms)");
	CHECK_EQ(osn_parse_time_ns("", &v), -1);
	CHECK_STR(osn_last_err(), "'' is not a time (e.g. 500us, 1ms)");
	CHECK_EQ(osn_parse_time_ns("1 us", &v), -1);
	CHECK_EQ(osn_parse_time_ns("99999999999999999999", &v), -1);
	CHECK_STR(osn_last_err(), "'99999999999999999999' is too large");
	/* up to UINT64_MAX ns in any unit */
	CHECK_EQ(osn_parse_time_ns("18446744073709551615", &v), 0);
	CHECK_EQ(v, UINT64_MAX);
	CHECK_EQ(osn_parse_time_ns("18446744073s", &v), 0);
	CHECK_EQ(v, 18446744073000000000ULL);
	CHECK_EQ(osn_parse_time_ns("18446744074s", &v), -1);
	CHECK_STR(osn_last_err(), "'18446744074s' is too large");
	CHECK_EQ(osn_parse_time_ns("18446744073709552us", &v), -1);
	CHECK_EQ(osn_parse_time_ns("18446744073709551us", &v), 0);
	CHECK_EQ(v, 18446744073709551000ULL);
}

TEST(numbers)
{
	uint64_t v = 0;

	CHECK_EQ(osn_parse_u64("42", 100, &v), 0);
	CHECK_EQ(v, 42);
	CHECK_EQ(osn_parse_u64("101", 100, &v), -1);
	CHECK_STR(osn_last_err(), "'101' is too large (max 100)");
	CHECK_EQ(osn_parse_u64("-1", 100, &v), -1);
	CHECK_STR(osn_last_err(), "'-1' is negative");
	CHECK_EQ(osn_parse_u64("1.5", 100, &v), -1);
	CHECK_STR(osn_last_err(), "'1.5' is not a number");
	CHECK_EQ(osn_parse_u64("", 100, &v), -1);
	CHECK_EQ(osn_parse_u64("0x10", 100, &v), -1);
	CHECK_EQ(osn_parse_u64("99999999999999999999999", (uint64_t)-1, &v), -1);
}

TEST(priorities)
{
	struct osn_sched s;
	char buf[64];

	CHECK_EQ(osn_parse_sched("f:95", &s), 0);
	CHECK_EQ(s.policy, OSN_SCHED_FIFO);
	CHECK_EQ(s.prio, 95);
	CHECK_EQ(osn_parse_sched("r:1", &s), 0);
	CHECK_EQ(s.policy, OSN_SCHED_RR);
	CHECK_EQ(osn_parse_sched("o:-20", &s), 0);
	CHECK_EQ(s.policy, OSN_SCHED_OTHER);
	CHECK_EQ(s.prio, (unsigned long long)-20);
	CHECK_EQ(osn_parse_sched("d:100us:1ms", &s), 0);
	CHECK_EQ(s.policy, OSN_SCHED_DEADLINE);
	CHECK_EQ(s.runtime_ns, 100000);
	CHECK_EQ(s.period_ns, 1000000);
	osn_format_sched(&s, buf, sizeof(buf));
	CHECK_STR(buf, "d:100000ns:1000000ns");
	CHECK_EQ(osn_parse_sched("d:500000:1000000", &s), 0);
	CHECK_EQ(s.runtime_ns, 500000);

	CHECK_EQ(osn_parse_sched("f:0", &s), -1);
	CHECK_HAS(osn_last_err(), "1..99");
	CHECK_EQ(osn_parse_sched("f:100", &s), -1);
	CHECK_EQ(osn_parse_sched("o:20", &s), -1);
	CHECK_HAS(osn_last_err(), "-20..19");
	CHECK_EQ(osn_parse_sched("x:1", &s), -1);
	CHECK_HAS(osn_last_err(), "is not a priority");
	CHECK_EQ(osn_parse_sched("f", &s), -1);
	CHECK_EQ(osn_parse_sched("d:1ms", &s), -1);
	CHECK_HAS(osn_last_err(), "d:runtime:period");
	CHECK_EQ(osn_parse_sched("d:2ms:1ms", &s), -1);
	CHECK_HAS(osn_last_err(), "runtime <= period");
	CHECK_EQ(osn_parse_sched("d:1ms:1xs", &s), -1);
	CHECK_EQ(osn_parse_sched("f:9a", &s), -1);
	CHECK_EQ(osn_parse_sched(NULL, &s), -1);
}

TEST(formatting)
{
	char buf[64];

	osn_format_elapsed(3, buf, sizeof(buf));
	CHECK_STR(buf, "  0 00:00:03");
	osn_format_elapsed(86400 + 3600 * 2 + 60 * 3 + 4, buf, sizeof(buf));
	CHECK_STR(buf, "  1 02:03:04");
	osn_format_us3(1234567, buf, sizeof(buf));
	CHECK_STR(buf, "1234.567");
	osn_format_us3(5, buf, sizeof(buf));
	CHECK_STR(buf, "0.005");
	CHECK_STR(osn_softirq_name(1), "TIMER");
	CHECK_STR(osn_softirq_name(9), "RCU");
	CHECK_STR(osn_softirq_name(10), "?");
	CHECK_STR(osn_softirq_name(-1), "?");
	osn_strlcpy(buf, "abcdef", 4);
	CHECK_STR(buf, "abc");
}

#define SEC 1000000000ULL

TEST(pacing)
{
	struct timespec ts;
	uint64_t t0 = 5 * SEC + 123, tick, end, now;
	int wakes = 0, reads = 0;

	/* the end of -d */
	CHECK_EQ(osn_end_ns(t0, 0), 0);
	CHECK_EQ(osn_end_ns(t0, 10), t0 + 10 * SEC);
	CHECK_EQ(osn_end_ns(t0, UINT64_MAX / SEC), UINT64_MAX);
	CHECK_EQ(osn_end_ns(UINT64_MAX - 5, 1), UINT64_MAX);

	/* reading interval: a quarter of the buffer's worth of periods */
	CHECK_EQ(osn_drain_interval_ns(1024, 1000000, 256, SEC, 60 * SEC),
		 60 * SEC);			/* 1024 periods of 1 s: capped */
	CHECK_EQ(osn_drain_interval_ns(1024, 10000, 256, SEC, 60 * SEC),
		 10240 * 1000000ULL);		/* 1024 x 10 ms */
	CHECK_EQ(osn_drain_interval_ns(1024, 500, 256, SEC, 60 * SEC),
		 SEC);				/* 1 s floor */
	CHECK_EQ(osn_drain_interval_ns(4, 1000000, 256, SEC, 60 * SEC),
		 4 * SEC);			/* 16 events / 4 */
	CHECK_EQ(osn_drain_interval_ns(0, 1000000, 256, SEC, 60 * SEC), SEC);
	CHECK_EQ(osn_drain_interval_ns(1024, 1000000, 0, SEC, 60 * SEC), SEC);
	CHECK_EQ(osn_drain_interval_ns(UINT64_MAX / 1024, UINT64_MAX, 1, SEC,
				       60 * SEC), 60 * SEC);	/* saturates */
	CHECK_EQ(osn_drain_interval_ns(UINT64_MAX, 1, 1, SEC, 60 * SEC),
		 60 * SEC);			/* buffer_kb * 1024 saturates */

	/* the next tick: a period on, or a period after a late one */
	CHECK_EQ(osn_next_tick(t0, SEC, t0), t0 + SEC);
	CHECK_EQ(osn_next_tick(t0, SEC, t0 + 300), t0 + SEC);
	CHECK_EQ(osn_next_tick(t0, SEC, t0 + SEC - 1), t0 + SEC);
	CHECK_EQ(osn_next_tick(t0, SEC, t0 + SEC), t0 + 2 * SEC);
	CHECK_EQ(osn_next_tick(t0, SEC, t0 + 7 * SEC / 2), t0 + 9 * SEC / 2);
	CHECK_EQ(osn_next_tick(UINT64_MAX - 1, SEC, 7), 7 + SEC);

	/* the earlier of the tick and the end; 0 is no end */
	CHECK_EQ(osn_next_deadline(t0 + SEC, 0), t0 + SEC);
	CHECK_EQ(osn_next_deadline(t0 + SEC, t0 + SEC / 2), t0 + SEC / 2);
	CHECK_EQ(osn_next_deadline(t0 + SEC, t0 + 2 * SEC), t0 + SEC);
	CHECK_EQ(osn_next_deadline(t0 + SEC, t0 + SEC), t0 + SEC);

	/* ppoll timeouts */
	osn_timeout_until(t0, t0 + 3 * SEC / 2, &ts);
	CHECK_EQ(ts.tv_sec, 1);
	CHECK_EQ(ts.tv_nsec, 500000000);
	osn_timeout_until(t0, t0 + 999, &ts);
	CHECK_EQ(ts.tv_sec, 0);
	CHECK_EQ(ts.tv_nsec, 999);
	osn_timeout_until(t0 + 1, t0, &ts);
	CHECK_EQ(ts.tv_sec, 0);
	CHECK_EQ(ts.tv_nsec, 0);
	osn_timeout_until(t0, t0, &ts);
	CHECK_EQ(ts.tv_sec, 0);
	CHECK_EQ(ts.tv_nsec, 0);

	/*
	 * A -d 10 run as the loop paces it, each sleep ending 2 ms late:
	 * one wake-up (and read) a second, the last at the end.
	 */
	tick = t0 + SEC;
	end = osn_end_ns(t0, 10);
	now = t0;
	while (wakes < 100) {
		uint64_t deadline = osn_next_deadline(tick, end);

		CHECK(deadline > now);
		now = deadline + 2000000;
		wakes++;
		if (now >= tick || now >= end) {
			tick = osn_next_tick(tick, SEC, now);
			reads++;
		}
		if (now >= end)
			break;
	}
	CHECK_EQ(wakes, 10);
	CHECK_EQ(reads, 10);
	/* ticks stay on the second: lateness does not accumulate */
	CHECK_EQ(tick, t0 + 11 * SEC);

	/* a 2.5 s end between ticks: woken at 1 s, 2 s and 2.5 s */
	tick = t0 + SEC;
	end = t0 + 5 * SEC / 2;
	CHECK_EQ(osn_next_deadline(tick, end), t0 + SEC);
	tick = osn_next_tick(tick, SEC, t0 + SEC);
	CHECK_EQ(osn_next_deadline(tick, end), t0 + 2 * SEC);
	tick = osn_next_tick(tick, SEC, t0 + 2 * SEC);
	CHECK_EQ(osn_next_deadline(tick, end), end);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(durations);
	RUN(times);
	RUN(numbers);
	RUN(priorities);
	RUN(formatting);
	RUN(pacing);
	return h_done(argv[0]);
}
