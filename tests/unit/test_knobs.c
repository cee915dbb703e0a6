// SPDX-License-Identifier: GPL-2.0
/* knob save/set/restore on a fake parameters directory */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "knobs.h"
#include "util.h"

static char dir[64];

static void put(const char *name, const char *val)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", val);
		fclose(f);
	}
}

static const char *get(const char *name)
{
	static char buf[128];
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/osn-knobs-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	put(OSN_KNOB_CPUS, "0-3");
	put(OSN_KNOB_PERIOD_US, "1000000");
	put(OSN_KNOB_RUNTIME_US, "1000000");
	put(OSN_KNOB_THRESHOLD_US, "0");
	put(OSN_KNOB_STOP_TRACING_US, "0");
	put(OSN_KNOB_STOP_TRACING_TOTAL_US, "0");
	put(OSN_KNOB_OPTIONS, "OSNOISE_WORKLOAD NO_OSNOISE_IRQ_DISABLE");
	put(OSN_KNOB_MODE, "osnoise");
	put(OSN_KNOB_TIMERLAT_PERIOD_US, "1000");
	put(OSN_KNOB_PRINT_STACK, "0");
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("  (could not remove %s)\n", dir);
}

TEST(save_set_restore)
{
	struct osn_knobs k;
	char buf[64];

	setup();
	osn_knobs_init(&k, dir);
	CHECK_EQ(osn_knobs_save(&k), 0);
	CHECK_STR(k.saved[OSN_K_CPUS], "0-3");
	CHECK_EQ(osn_knob_read(&k, OSN_K_PERIOD, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "1000000");

	CHECK_EQ(osn_knobs_set(&k, OSN_K_CPUS, "1"), 0);
	CHECK_EQ(osn_knobs_set(&k, OSN_K_STOP, "0"), 0);
	CHECK(!k.changed[OSN_K_STOP]);		/* same value: no write */
	CHECK_EQ(osn_knobs_set_period_runtime(&k, 500000, 400000), 0);
	CHECK_EQ(osn_knobs_set(&k, OSN_K_STOP, "30"), 0);
	CHECK_STR(get(OSN_KNOB_CPUS), "1");
	CHECK_STR(get(OSN_KNOB_PERIOD_US), "500000");
	CHECK_STR(get(OSN_KNOB_RUNTIME_US), "400000");
	CHECK_STR(get(OSN_KNOB_STOP_TRACING_US), "30");

	CHECK_EQ(osn_knobs_restore(&k), 0);
	CHECK_STR(get(OSN_KNOB_CPUS), "0-3");
	CHECK_STR(get(OSN_KNOB_PERIOD_US), "1000000");
	CHECK_STR(get(OSN_KNOB_RUNTIME_US), "1000000");
	CHECK_STR(get(OSN_KNOB_STOP_TRACING_US), "0");
	CHECK(!k.changed[OSN_K_CPUS]);
	teardown();
}

TEST(dump_and_load)
{
	struct osn_knobs k, k2;
	struct h_buf b;
	char *t, *line, *save = NULL;

	setup();
	osn_knobs_init(&k, dir);
	osn_knobs_save(&k);
	osn_knobs_dump(&k, h_open(&b));
	t = h_close(&b);
	CHECK_HAS(t, "knob cpus 0-3\n");
	CHECK_HAS(t, "knob stop_tracing_total_us 0\n");
	/* options: one value with spaces */
	CHECK_HAS(t, "knob options OSNOISE_WORKLOAD NO_OSNOISE_IRQ_DISABLE\n");

	/* a crashed run changed things; the next one restores from the dump */
	put(OSN_KNOB_CPUS, "2");
	put(OSN_KNOB_THRESHOLD_US, "7");
	put(OSN_KNOB_OPTIONS, "OSNOISE_WORKLOAD OSNOISE_IRQ_DISABLE");
	osn_knobs_init(&k2, dir);
	for (line = strtok_r(t, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		CHECK_EQ(osn_knobs_load_line(&k2, line), 0);
	CHECK_EQ(osn_knobs_load_line(&k2, "knob nosuch 1"), (unsigned long long)-1);
	CHECK_EQ(osn_knobs_load_line(&k2, "junk"), (unsigned long long)-1);
	CHECK_EQ(osn_knobs_restore(&k2), 0);
	CHECK_STR(get(OSN_KNOB_CPUS), "0-3");
	CHECK_STR(get(OSN_KNOB_THRESHOLD_US), "0");
	CHECK_STR(get(OSN_KNOB_OPTIONS), "OSNOISE_WORKLOAD NO_OSNOISE_IRQ_DISABLE");
	free(t);
	teardown();
}

TEST(system_files)
{
	char path[160], buf[16];

	setup();
	snprintf(path, sizeof(path), "%s/disable", dir);
	CHECK_EQ(osn_read_str(path, buf, sizeof(buf)), (unsigned long long)-1);
	CHECK_HAS(osn_last_err(), "cannot read");
	CHECK_EQ(osn_write_str(path, "1"), (unsigned long long)-1);
	CHECK_HAS(osn_last_err(), "cannot write 1 to");
	put("disable", "0");
	CHECK_EQ(osn_write_str(path, "1"), 0);
	CHECK_EQ(osn_read_str(path, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "1");		/* without the newline */
	teardown();
}

TEST(errors)
{
	struct osn_knobs k;
	char path[128];

	setup();
	osn_knobs_init(&k, dir);
	/* a knob that cannot be written: a directory */
	snprintf(path, sizeof(path), "%s/%s", dir, OSN_KNOB_PERIOD_US);
	unlink(path);
	mkdir(path, 0700);
	CHECK_EQ(osn_knob_write(&k, OSN_K_PERIOD, "5"), -1);
	CHECK_HAS(osn_last_err(), "cannot write");
	CHECK_HAS(osn_last_err(), "Is a directory");
	CHECK_EQ(osn_knobs_save(&k), -1);
	CHECK(!strchr(osn_last_err(), '\n'));
	rmdir(path);
	/* a write the "module" rejects: /dev/full fails every write */
	if (symlink("/dev/full", path) == 0) {
		CHECK_EQ(osn_knob_write(&k, OSN_K_PERIOD, "5"),
			 (unsigned long long)-1);
		CHECK_STR(osn_last_err(), "the module rejected period_us=5: No space left on device");
		unlink(path);
	}
	teardown();
}

/*
 * The cpus knob gets the compact list, whatever its length as the user
 * wrote it; only a compact list longer than one sysfs write (4094
 * characters) is refused, with a message that says so.
 */
TEST(cpus_list)
{
	char buf[OSN_CPUS_MAX_LEN + 1];
	struct osn_cpuset set;
	size_t n;
	int c;

	osn_cpuset_zero(&set);
	for (c = 0; c < 256; c++)
		osn_cpuset_set(&set, c);
	CHECK_EQ(osn_knob_cpulist(&set, buf), 0);
	CHECK_STR(buf, "0-255");
	/* every other CPU, up to the last list that fits */
	osn_cpuset_zero(&set);
	for (c = 0;; c += 2) {
		osn_cpuset_set(&set, c);
		n = osn_format_cpulist(&set, NULL, 0);
		if (n > OSN_CPUS_MAX_LEN)
			break;
		CHECK_EQ(osn_knob_cpulist(&set, buf), 0);
		CHECK_EQ(strlen(buf), n);
	}
	CHECK(c > 1000);
	CHECK_EQ(osn_knob_cpulist(&set, buf), -1);
	CHECK_HAS(osn_last_err(), "even written compactly");
	CHECK_HAS(osn_last_err(), "takes 4094 at most");
	/* all of them: one range */
	for (c = 0; c < 4096; c++)
		osn_cpuset_set(&set, c);
	CHECK_EQ(osn_knob_cpulist(&set, buf), 0);
	CHECK_STR(buf, "0-4095");
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(save_set_restore);
	RUN(dump_and_load);
	RUN(system_files);
	RUN(errors);
	RUN(cpus_list);
	return h_done(argv[0]);
}
