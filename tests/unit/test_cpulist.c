// SPDX-License-Identifier: GPL-2.0
/* cpulist parsing and formatting */
#include "harness.h"
#include "util.h"

static int parse(const char *s, int nr, struct osn_cpuset *set)
{
	return osn_parse_cpulist(s, nr, set);
}

static const char *fmt(const char *s, int nr)
{
	static char buf[256];
	struct osn_cpuset set;

	if (parse(s, nr, &set))
		return osn_last_err();
	osn_format_cpulist(&set, buf, sizeof(buf));
	return buf;
}

TEST(single_and_ranges)
{
	struct osn_cpuset s;

	CHECK_EQ(parse("0", 4, &s), 0);
	CHECK(osn_cpuset_isset(&s, 0));
	CHECK(!osn_cpuset_isset(&s, 1));
	CHECK_EQ(osn_cpuset_count(&s), 1);

	CHECK_EQ(parse("0-3,5,7-8", 16, &s), 0);
	CHECK_EQ(osn_cpuset_count(&s), 7);
	CHECK(osn_cpuset_isset(&s, 5) && !osn_cpuset_isset(&s, 6));
	CHECK_EQ(osn_cpuset_last(&s), 8);
	CHECK_STR(fmt("0-3,5,7-8", 16), "0-3,5,7-8");
	CHECK_STR(fmt("3,2,1,0", 16), "0-3");
	CHECK_STR(fmt("1,3,5", 16), "1,3,5");
	CHECK_STR(fmt("0-1,1-2", 16), "0-2");
	CHECK_STR(fmt("7 , 9", 16), "7,9");
	CHECK_STR(fmt("2\n", 4), "2");
	CHECK_STR(fmt("4095", 4096), "4095");
	CHECK_STR(fmt("0-4095", 4096), "0-4095");
}

TEST(errors)
{
	struct osn_cpuset s;

	CHECK_EQ(parse("", 4, &s), -1);
	CHECK_HAS(osn_last_err(), "empty");
	CHECK_EQ(parse("4", 4, &s), -1);
	CHECK_STR(osn_last_err(), "'4': cpu 4 does not exist (this machine has cpus 0-3)");
	CHECK_EQ(parse("0-8", 2, &s), -1);
	CHECK_HAS(osn_last_err(), "cpu 8 does not exist (this machine has cpus 0-1)");
	CHECK_EQ(parse("1", 1, &s), -1);
	CHECK_HAS(osn_last_err(), "(this machine has cpu 0)");
	CHECK_EQ(parse("3-1", 4, &s), -1);
	CHECK_HAS(osn_last_err(), "reversed");
	CHECK_EQ(parse("a", 4, &s), -1);
	CHECK_HAS(osn_last_err(), "is not a cpu list");
	CHECK_EQ(parse("-1", 4, &s), -1);
	CHECK_EQ(parse("1,", 4, &s), -1);
	CHECK_EQ(parse("1-", 4, &s), -1);
	CHECK_EQ(parse("1;2", 4, &s), -1);
	CHECK_EQ(parse("99999999999", 4, &s), -1);
	CHECK_EQ(parse(NULL, 4, &s), -1);
}

TEST(empty_set)
{
	struct osn_cpuset s;
	char buf[8] = "x";

	osn_cpuset_zero(&s);
	CHECK(osn_cpuset_empty(&s));
	CHECK_EQ(osn_cpuset_last(&s), (unsigned long long)-1);
	osn_format_cpulist(&s, buf, sizeof(buf));
	CHECK_STR(buf, "");
	/* truncation never overflows */
	osn_cpuset_set(&s, 100);
	osn_cpuset_set(&s, 200);
	osn_format_cpulist(&s, buf, 5);
	CHECK(strlen(buf) < 5);
}

/* the same CPUs in a glibc cpu_set_t, the size covering the last one */
TEST(to_glibc)
{
	struct osn_cpuset s;
	cpu_set_t *set;
	size_t size;

	CHECK(!osn_parse_cpulist("1,3-4,200", OSN_MAX_CPUS, &s));
	set = osn_cpuset_to_glibc(&s, &size);
	CHECK(set != NULL);
	if (!set)
		return;
	CHECK(size >= CPU_ALLOC_SIZE(201));
	CHECK_EQ(CPU_COUNT_S(size, set), 4);
	CHECK(CPU_ISSET_S(1, size, set) && CPU_ISSET_S(3, size, set));
	CHECK(CPU_ISSET_S(4, size, set) && CPU_ISSET_S(200, size, set));
	CHECK(!CPU_ISSET_S(0, size, set) && !CPU_ISSET_S(2, size, set));
	CPU_FREE(set);
	osn_cpuset_zero(&s);
	set = osn_cpuset_to_glibc(&s, &size);
	CHECK(set != NULL && CPU_COUNT_S(size, set) == 0);
	CPU_FREE(set);
}

static void set_of(const char *list, struct osn_cpuset *s)
{
	CHECK(!osn_parse_cpulist(list, OSN_MAX_CPUS, s));
}

static void check_list(const struct osn_cpuset *s, const char *want)
{
	char buf[64];

	osn_format_cpulist(s, buf, sizeof(buf));
	CHECK_STR(buf, want);
}

/* and, and-not, or, intersects, covers, clear; across a word boundary */
TEST(algebra)
{
	struct osn_cpuset x, y, out;

	set_of("0-3,63-65,200", &x);
	set_of("2-5,64,4095", &y);
	osn_cpuset_and(&out, &x, &y);
	check_list(&out, "2-3,64");
	osn_cpuset_and_not(&out, &x, &y);
	check_list(&out, "0-1,63,65,200");
	osn_cpuset_and_not(&out, &y, &x);
	check_list(&out, "4-5,4095");
	osn_cpuset_or(&out, &x, &y);
	check_list(&out, "0-5,63-65,200,4095");
	/* @out may be an operand */
	out = x;
	osn_cpuset_and_not(&out, &out, &y);
	check_list(&out, "0-1,63,65,200");
	CHECK(osn_cpuset_intersects(&x, &y));
	CHECK(!osn_cpuset_intersects(&out, &y));
	CHECK(osn_cpuset_covers(&x, &out));
	CHECK(!osn_cpuset_covers(&out, &x));
	CHECK(osn_cpuset_covers(&x, &x));
	osn_cpuset_zero(&out);
	CHECK(osn_cpuset_covers(&x, &out));
	CHECK(!osn_cpuset_intersects(&x, &out));
	osn_cpuset_clear(&x, 64);
	osn_cpuset_clear(&x, 1);
	osn_cpuset_clear(&x, 5000);	/* out of range: nothing */
	check_list(&x, "0,2-3,63,65,200");
}

/* "0,@step,2*@step,..." up to @n CPUs, each named singly (malloc'ed) */
static char *singly(int n, int step)
{
	char *s = malloc((size_t)n / step * 6 + 8), *w = s;

	for (int c = 0; c < n; c += step)
		w += sprintf(w, "%s%d", c ? "," : "", c);
	return s;
}

/*
 * Lists of any length, as upstream rtla takes since 6.16: 256 or 4096
 * CPUs named one by one read as their ranges; a compact list cut by a
 * short buffer keeps whole items (never "12" of "123"), and says how
 * long the whole is.
 */
TEST(long_lists)
{
	char *s = singly(256, 1), buf[4096];
	struct osn_cpuset set, part;
	size_t n;

	CHECK(strlen(s) > 900);
	CHECK_EQ(parse(s, 256, &set), 0);
	CHECK_EQ(osn_cpuset_count(&set), 256);
	CHECK_EQ(osn_format_cpulist(&set, buf, sizeof(buf)), 5);
	CHECK_STR(buf, "0-255");
	free(s);
	s = singly(4096, 1);
	CHECK(strlen(s) > 19000);
	CHECK_EQ(parse(s, 4096, &set), 0);
	CHECK_EQ(osn_cpuset_count(&set), 4096);
	osn_format_cpulist(&set, buf, sizeof(buf));
	CHECK_STR(buf, "0-4095");
	free(s);
	/* every other CPU of 4096: 9684 characters however written */
	s = singly(4096, 2);
	CHECK_EQ(parse(s, 4096, &set), 0);
	CHECK_EQ(osn_cpuset_count(&set), 2048);
	n = osn_format_cpulist(&set, buf, sizeof(buf));
	CHECK_EQ(n, strlen(s));
	CHECK(strlen(buf) < sizeof(buf));
	CHECK(!strncmp(buf, s, strlen(buf)));
	CHECK_EQ(s[strlen(buf)], ',');		/* cut between two items */
	CHECK_EQ(parse(buf, 4096, &part), 0);
	CHECK(osn_cpuset_covers(&set, &part));
	CHECK_EQ(osn_format_cpulist(&set, NULL, 0), n);
	free(s);
	/* an error quotes the start of a long list, and keeps its reason */
	s = singly(400, 1);
	CHECK_EQ(parse(s, 256, &set), -1);
	CHECK_HAS(osn_last_err(), "...': cpu 256 does not exist (this machine has cpus 0-255)");
	CHECK(strlen(osn_last_err()) < 120);
	CHECK(!strncmp(osn_last_err(), "'0,1,2,3,", 9));
	free(s);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(single_and_ranges);
	RUN(errors);
	RUN(empty_set);
	RUN(to_glibc);
	RUN(algebra);
	RUN(long_lists);
	return h_done(argv[0]);
}
