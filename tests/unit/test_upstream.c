// SPDX-License-Identifier: GPL-2.0
/* osn upstream: osn:sample records as the osnoise tracer's summary line */
#include "harness.h"
#include "upstream.h"

/* A saved-trace prefix and osn:sample's printed fields (osn_trace.h). */
#define PREFIX	"           osn/1-245     [001] .....    12.345678"
#define SAMPLE(rt, noise, max, hw, nmi, irq, sirq, thr)			\
	PREFIX ": sample: runtime " #rt " noise " #noise			\
	" avail 99.79770 max " #max " min 1000 samples 40 HW " #hw		\
	" NMI " #nmi " IRQ " #irq " SIRQ " #sirq " THREAD " #thr		\
	" hw_time 1 nmi_time 0 irq_time 2 softirq_time 3 thread_time 4"	\
	" loops 5 min_gap 6 self 7\n"

TEST(converted)
{
	char out[512];

	/* upstream's own example line (the osnoise tracer's commit log) */
	CHECK(osn_upstream_line(SAMPLE(1000000000, 2023000, 97000, 37, 0, 1023, 52, 18),
				out, sizeof(out)));
	CHECK_STR(out, PREFIX ": 1000000       2023  99.79770      97     37      0   1023     52     18\n");
	/* ns -> us as upstream's time_to_us() (truncated), ratio on the us */
	CHECK(osn_upstream_line(SAMPLE(100012345, 2023456, 97999, 4, 1, 2, 3, 5),
				out, sizeof(out)));
	CHECK_STR(out, PREFIX ": 100012       2023  97.97724      97      4      1      2      3      5\n");
	/* nothing measured: 0 % available rather than a division by zero */
	CHECK(osn_upstream_line(SAMPLE(0, 0, 0, 0, 0, 0, 0, 0), out, sizeof(out)));
	CHECK_STR(out, PREFIX ": 0          0   0.00000       0      0      0      0      0      0\n");
	/* all noise */
	CHECK(osn_upstream_line(SAMPLE(1000, 1000, 1000, 1, 0, 0, 0, 0), out, sizeof(out)));
	CHECK_STR(out, PREFIX ": 1          1   0.00000       1      1      0      0      0      0\n");
	/* too small a buffer: not converted */
	CHECK(!osn_upstream_line(SAMPLE(1000000000, 2023000, 97000, 37, 0, 1023, 52, 18),
				 out, 40));
}

TEST(passed_through)
{
	char out[512];

	CHECK(!osn_upstream_line("# tracer: nop\n", out, sizeof(out)));
	CHECK(!osn_upstream_line(PREFIX ": irq_noise: local_timer:236 start 12.3 duration 4 ns\n",
				 out, sizeof(out)));
	/* a truncated record is left alone */
	CHECK(!osn_upstream_line(PREFIX ": sample: runtime 1000 noise 5\n", out,
				 sizeof(out)));
	CHECK(!osn_upstream_line("", out, sizeof(out)));
}

TEST(filter)
{
	const char *in = "# tracer: nop\n"
		SAMPLE(1000000000, 2023000, 97000, 37, 0, 1023, 52, 18)
		PREFIX ": nmi_noise: start 12.000000001 duration 10 ns\n";
	FILE *f = fmemopen((void *)in, strlen(in), "r");
	struct h_buf b;
	char *t;

	CHECK_EQ(osn_upstream_filter(f, h_open(&b)), 0);
	fclose(f);
	t = h_close(&b);
	CHECK_STR(t, "# tracer: nop\n"
		  PREFIX ": 1000000       2023  99.79770      97     37      0   1023     52     18\n"
		  PREFIX ": nmi_noise: start 12.000000001 duration 10 ns\n");
	free(t);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(converted);
	RUN(passed_through);
	RUN(filter);
	return h_done(argv[0]);
}
