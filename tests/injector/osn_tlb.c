// SPDX-License-Identifier: GPL-2.0
/*
 * osn_tlb - force remote TLB shootdowns onto a measured CPU, from user
 * space, with a known sender (the injector's user-space mode).
 *
 *   osn_tlb SRC_CPU DST_CPU COUNT
 *
 * Two threads of one process share its mm.  "osn_tlb_dst", pinned to
 * DST_CPU at SCHED_FIFO 1, spins in user space in COUNT bursts (so that
 * the mm is live there, not lazily borrowed: x86 sends no shootdown to a
 * CPU in lazy TLB mode; no SCHED_OTHER task takes the CPU in a burst) and
 * sleeps 10 ms between them.  "osn_tlb_src", pinned to SRC_CPU, waits
 * for each burst, then write-faults a page in and write-protects it with
 * mprotect(): the PTE change flushes it on every CPU of the mm, so DST_CPU
 * takes one shootdown IPI inside the burst.  The burst ends once
 * the mprotect() calls have returned (the IPI has been served by then: the
 * flush waits for it).
 *
 * A burst counts only if DST_CPU's "TLB" line of /proc/interrupts grew
 * across the mprotect() calls: x86 skips a CPU in lazy TLB mode, so when
 * another task (the measuring kthread, say) had DST_CPU at that moment, no
 * IPI arrived.  Such a burst is counted apart as "lazy" and another is run
 * in its place, up to 3 * COUNT bursts in all.  Without a TLB line (not
 * x86) every burst counts.
 *
 * Prints "src_tid=N dst_tid=N bursts=N lazy=N ipis=N" on success (bursts:
 * those whose IPI arrived; ipis: how many shootdowns DST_CPU took in them,
 * one per mprotect() at most, -1 without a TLB line); exit 1 with a
 * message on bad arguments or a failed system call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* A burst that never sees its flush ends after this (a missed burst). */
#define BURST_MAX_NS	(200 * 1000 * 1000ULL)
#define GAP_NS		(10 * 1000 * 1000L)

struct shared {
	int src_cpu, dst_cpu;
	long count;
	atomic_int phase;	/* 0 idle, 1 burst running, 2 flushed */
	atomic_int quit;
	atomic_long src_tid, dst_tid;
	long bursts;		/* bursts whose shootdown reached DST_CPU */
	long lazy;		/* bursts whose shootdown skipped DST_CPU */
	long long ipis;		/* shootdowns DST_CPU took in the bursts */
	char *page;
	long page_size;
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int pin(int cpu, const char *name)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	prctl(PR_SET_NAME, name);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *dst_thread(void *arg)
{
	struct shared *s = arg;
	struct timespec gap = { 0, GAP_NS };
	struct sched_param fifo = { .sched_priority = 1 };

	if (pin(s->dst_cpu, "osn_tlb_dst")) {
		perror("osn_tlb: sched_setaffinity(DST_CPU)");
		atomic_store(&s->quit, 1);
		return NULL;
	}
	/*
	 * SCHED_FIFO 1: a burst holds DST_CPU until its flush, so the mm
	 * stays live there.  As SCHED_OTHER it shared the CPU with osn's
	 * measuring kthread, and each flush that came while that had the
	 * CPU skipped it (lazy): on the debug kernel 23 to 92 of 120
	 * bursts, too many to reach COUNT (engine/28-tlb).  Without the
	 * privilege it stays SCHED_OTHER, and lazy bursts are rerun.
	 */
	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		perror("osn_tlb: sched_setscheduler(SCHED_FIFO), staying SCHED_OTHER");
	atomic_store(&s->dst_tid, gettid());
	while (!atomic_load(&s->quit)) {
		unsigned long long end = now_ns() + BURST_MAX_NS;

		atomic_store(&s->phase, 1);
		while (atomic_load(&s->phase) == 1 && now_ns() < end &&
		       !atomic_load(&s->quit))
			;	/* user space, mm live on this CPU */
		atomic_store(&s->phase, 0);
		nanosleep(&gap, NULL);
	}
	return NULL;
}

/*
 * DST_CPU's count of TLB shootdowns in /proc/interrupts, or -1 where there
 * is no such line.  Its header names the online CPUs' columns.  (osn's
 * audit parses the file too, tools/src/audit_parse.c, but this tool is one
 * file built alone into the guest, without the CLI's objects: one line's
 * field is all it needs.)
 */
static long long tlb_count(int cpu)
{
	char line[8192], want[16], *tok, *save;
	long long val = -1;
	int col = -1, i;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "CPU%d", cpu);
	if (fgets(line, sizeof(line), f))
		for (i = 0, tok = strtok_r(line, " \t\n", &save); tok;
		     i++, tok = strtok_r(NULL, " \t\n", &save))
			if (!strcmp(tok, want))
				col = i;
	while (col >= 0 && fgets(line, sizeof(line), f)) {
		tok = strtok_r(line, " \t\n", &save);
		if (!tok || strcmp(tok, "TLB:"))
			continue;
		for (i = 0; i <= col && tok; i++)
			tok = strtok_r(NULL, " \t\n", &save);
		if (tok)
			val = strtoll(tok, NULL, 10);
		break;
	}
	fclose(f);
	return val;
}

static int src_loop(struct shared *s)
{
	if (pin(s->src_cpu, "osn_tlb_src")) {
		perror("osn_tlb: sched_setaffinity(SRC_CPU)");
		return -1;
	}
	atomic_store(&s->src_tid, gettid());
	for (long i = 0; s->bursts < s->count && i < 3 * s->count &&
	     !atomic_load(&s->quit); i++) {
		long long before, after;

		while (atomic_load(&s->phase) != 1 && !atomic_load(&s->quit))
			sched_yield();
		before = tlb_count(s->dst_cpu);
		/* populate, then remove write access: a flush on every CPU of the mm */
		s->page[0] = (char)i;
		if (mprotect(s->page, s->page_size, PROT_READ) ||
		    mprotect(s->page, s->page_size, PROT_READ | PROT_WRITE)) {
			perror("osn_tlb: mprotect");
			return -1;
		}
		after = tlb_count(s->dst_cpu);
		if (before < 0 || after < 0) {
			s->bursts++;
			s->ipis = -1;
		} else if (after > before) {
			s->bursts++;
			if (s->ipis >= 0)
				s->ipis += after - before;
		} else {
			s->lazy++;
		}
		atomic_store(&s->phase, 2);
		while (atomic_load(&s->phase) == 2 && !atomic_load(&s->quit))
			sched_yield();
	}
	return 0;
}

static int parse(const char *a, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(a, &end, 10);
	return errno || end == a || *end || *v < 0 || *v > max ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct shared s = { 0 };
	long src, dst, ncpu = sysconf(_SC_NPROCESSORS_CONF);
	pthread_t t;
	int ret;

	if (argc != 4 || parse(argv[1], ncpu - 1, &src) ||
	    parse(argv[2], ncpu - 1, &dst) || parse(argv[3], 1000000, &s.count) ||
	    src == dst) {
		fprintf(stderr, "usage: osn_tlb SRC_CPU DST_CPU COUNT (two different CPUs < %ld)\n",
			ncpu);
		return 1;
	}
	s.src_cpu = src;
	s.dst_cpu = dst;
	s.page_size = sysconf(_SC_PAGESIZE);
	s.page = mmap(NULL, s.page_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s.page == MAP_FAILED) {
		perror("osn_tlb: mmap");
		return 1;
	}
	ret = pthread_create(&t, NULL, dst_thread, &s);
	if (ret) {
		fprintf(stderr, "osn_tlb: pthread_create: %s\n", strerror(ret));
		return 1;
	}
	ret = src_loop(&s);
	atomic_store(&s.quit, 1);
	pthread_join(t, NULL);
	if (ret)
		return 1;
	printf("src_tid=%ld dst_tid=%ld bursts=%ld lazy=%ld ipis=%lld\n",
	       atomic_load(&s.src_tid), atomic_load(&s.dst_tid), s.bursts,
	       s.lazy, s.ipis);
	return 0;
}
