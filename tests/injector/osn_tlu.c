// SPDX-License-Identifier: GPL-2.0
/*
 * osn_tlu - a user-space timerlat thread for the guest tests: reads
 * /dev/osn_timerlat (osn.ko's timerlat_fd) the way rtla's timerlatu/N
 * threads do, with the odd cases the tests need.
 *
 *   osn_tlu [-u] [-m OTHER] [-b BUSY_US] CPU COUNT
 *
 * Pins itself to CPU (-u: allows every CPU instead, to be refused),
 * opens the device, then reads COUNT times (0: until a read fails),
 * spinning BUSY_US in user space between two reads (-b: a known return
 * delay).  -m OTHER moves to CPU OTHER after the open, before reading.
 *
 * Prints "open: ERRNO" and exits 2 if the open fails, "read N: ERRNO"
 * and exits 3 if read N (from 1) fails, else "reads=COUNT" and exits 0.
 * ERRNO is the error's name (EPERM, EBUSY, EINVAL) or its number.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *err_name(int e)
{
	static char buf[16];

	switch (e) {
	case EPERM:	return "EPERM";
	case EBUSY:	return "EBUSY";
	case EINVAL:	return "EINVAL";
	case EINTR:	return "EINTR";
	case ENOENT:	return "ENOENT";
	}
	snprintf(buf, sizeof(buf), "%d", e);
	return buf;
}

/* Affine to @cpu, or to every CPU if @cpu < 0. */
static int pin(int cpu)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t set;

	CPU_ZERO(&set);
	for (long c = 0; c < n && c < CPU_SETSIZE; c++)
		if (cpu < 0 || c == cpu)
			CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return -1;
	}
	return 0;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void spin(long long us)
{
	long long end = now_us() + us;

	while (now_us() < end)
		;
}

int main(int argc, char **argv)
{
	int c, fd, unpinned = 0, other = -1;
	long long busy_us = 0, count, n;
	char buf[1];

	while ((c = getopt(argc, argv, "um:b:")) != -1) {
		switch (c) {
		case 'u':
			unpinned = 1;
			break;
		case 'm':
			other = atoi(optarg);
			break;
		case 'b':
			busy_us = atoll(optarg);
			break;
		default:
			return 1;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: osn_tlu [-u] [-m OTHER] [-b BUSY_US] CPU COUNT\n");
		return 1;
	}
	count = atoll(argv[optind + 1]);
	if (pin(unpinned ? -1 : atoi(argv[optind])))
		return 1;
	fd = open("/dev/osn_timerlat", O_RDONLY);
	if (fd < 0) {
		printf("open: %s\n", err_name(errno));
		return 2;
	}
	if (other >= 0 && pin(other))
		return 1;
	for (n = 1; !count || n <= count; n++) {
		if (read(fd, buf, sizeof(buf)) < 0) {
			printf("read %lld: %s\n", n, err_name(errno));
			return 3;
		}
		if (busy_us)
			spin(busy_us);
	}
	printf("reads=%lld\n", count);
	return 0;
}
