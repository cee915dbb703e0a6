// SPDX-License-Identifier: GPL-2.0
/* --audit: noise sources tied to the audit's findings (advise.c) */
#include "harness.h"
#include "fixtures.h"
#include "advise.h"

static struct osn_audit_finding F[] = {
	{ "irq/27", OSN_AUDIT_FAIL,
	  "virtio0-input.0: smp_affinity_list 0-1, effective_affinity_list 1 (/proc/irq/27/)",
	  "echo 0 > /proc/irq/27/smp_affinity_list" },
	{ "irq/236", OSN_AUDIT_WARN, "ahci: smp_affinity_list 0-1",
	  "echo 0 > /proc/irq/236/smp_affinity_list" },
	{ "irq/4", OSN_AUDIT_OK, "ttyS0: smp_affinity_list 0", "" },
	{ "task/345", OSN_AUDIT_WARN, "task sh (pid 345) may run on CPUs 1",
	  "taskset -pc 0 345" },
	{ "task/346", OSN_AUDIT_OK, "", "" },
	{ "boot/nohz_full", OSN_AUDIT_WARN, "no nohz_full= in /proc/cmdline",
	  "boot with nohz_full=1" },
	{ "boot/rcu_nocbs", OSN_AUDIT_OK, "rcu_nocbs=1 in /proc/cmdline", "" },
	{ "tasks/unpinned", OSN_AUDIT_WARN, "2 user tasks allowed on every CPU may run on CPUs 1: a(400) b(401)",
	  "boot with isolcpus=domain,1" },
};

static struct osn_audit_task T[] = {
	{ .pid = 400, .comm = "a" },		/* allowed: 0-1 (below) */
	{ .pid = 401, .comm = "kb", .kthread = true },
	{ .pid = 402, .comm = "c" },		/* allowed: 1 */
};

static void audit_of(struct osn_audit *a)
{
	memset(a, 0, sizeof(*a));
	a->f = F;
	a->n = ARRAY_SIZE(F);
	a->nr_cpus = 2;
	osn_cpuset_set(&a->online, 0);
	osn_cpuset_set(&a->online, 1);
	for (int i = 0; i < 3; i++) {
		osn_cpuset_zero(&T[i].allowed);
		osn_cpuset_set(&T[i].allowed, 1);
	}
	osn_cpuset_set(&T[0].allowed, 0);
	osn_cpuset_set(&T[1].allowed, 0);
	a->tasks = T;
	a->nr_tasks = 3;
}

TEST(explain)
{
	struct osn_audit a;
	const struct osn_audit_finding *f;

	audit_of(&a);
	/* a device IRQ: its own finding, when the names agree */
	f = osn_audit_explain(&a, OSN_CLASS_IRQ, "virtio0-input.0", 27);
	CHECK(f == &F[0]);
	CHECK(!osn_audit_explain(&a, OSN_CLASS_IRQ, "virtio0", 27));
	/* a vector is not the IRQ of the same number */
	CHECK(!osn_audit_explain(&a, OSN_CLASS_IRQ, "call_function", 236));
	/* an ok finding explains nothing */
	CHECK(!osn_audit_explain(&a, OSN_CLASS_IRQ, "ttyS0", 4));
	/* the tick and the timer softirqs: nohz_full; RCU: rcu_nocbs (ok here) */
	CHECK(osn_audit_explain(&a, OSN_CLASS_IRQ, "local_timer", 236) == &F[5]);
	/* arm64's tick, the arch timer's IRQ, even with a finding of its number */
	CHECK(osn_audit_explain(&a, OSN_CLASS_IRQ, "arch_timer", 27) == &F[5]);
	CHECK(osn_audit_explain(&a, OSN_CLASS_SOFTIRQ, "TIMER", 1) == &F[5]);
	CHECK(!osn_audit_explain(&a, OSN_CLASS_SOFTIRQ, "RCU", 9));
	CHECK(!osn_audit_explain(&a, OSN_CLASS_SOFTIRQ, "NET_RX", 3));
	/* threads: by pid; an IRQ thread by its IRQ first */
	CHECK(osn_audit_explain(&a, OSN_CLASS_THREAD, "sh", 345) == &F[3]);
	CHECK(!osn_audit_explain(&a, OSN_CLASS_THREAD, "sh", 346));
	CHECK(!osn_audit_explain(&a, OSN_CLASS_THREAD, "kworker/1:1", 50));
	CHECK(osn_audit_explain(&a, OSN_CLASS_THREAD, "irq/27-virtio0", 90) == &F[0]);
	CHECK(osn_audit_explain(&a, OSN_CLASS_THREAD, "ktimers/1", 20) == &F[5]);
	CHECK(!osn_audit_explain(&a, OSN_CLASS_NMI, "nmi", -1));
	/* a user task allowed everywhere: the unpinned tasks' finding;
	 * not a kthread, nor a task pinned to the measured CPU */
	CHECK(osn_audit_explain(&a, OSN_CLASS_THREAD, "a", 400) == &F[7]);
	CHECK(!osn_audit_explain(&a, OSN_CLASS_THREAD, "kb", 401));
	CHECK(!osn_audit_explain(&a, OSN_CLASS_THREAD, "c", 402));
}

TEST(sources)
{
	struct osn_sources ss = { 0 };
	struct osn_audit a;
	struct osn_event e;
	struct h_buf b;
	char *t;

	audit_of(&a);
	for (int i = 0; i < 3; i++) {
		e = fx_noise(OSN_E_IRQ, 1, 100 + i, 90 + i, 2000, 27, "virtio0-input.0");
		osn_sources_event(&ss, &e);
	}
	e = fx_noise(OSN_E_THREAD, 1, 500, 400, 100000, 345, "sh");
	osn_sources_event(&ss, &e);
	e = fx_noise(OSN_E_THREAD, 1, 600, 550, 7000, 50, "kworker/1:1");
	osn_sources_event(&ss, &e);
	/* the same IRQ on another CPU is another source */
	e = fx_noise(OSN_E_IRQ, 2, 700, 650, 1000, 27, "virtio0-input.0");
	osn_sources_event(&ss, &e);
	e = fx_sample(1, 800, 1000000, 0, 0, 0, 0);	/* not a source */
	osn_sources_event(&ss, &e);
	CHECK_EQ(ss.n, 4);
	osn_sources_explain(&ss, &a);
	/* by time: sh, kworker, the IRQ on CPU 1, on CPU 2 */
	CHECK_STR(ss.s[0].name, "sh");
	CHECK(ss.s[0].finding == &F[3]);
	CHECK(ss.s[1].finding == NULL);
	CHECK_EQ(ss.s[2].count, 3);
	CHECK_EQ(ss.s[2].time, 6000);
	CHECK(ss.s[2].finding == &F[0]);
	CHECK_EQ(ss.s[3].cpu, 2);

	osn_render_advice(h_open(&b), &ss);
	t = h_close(&b);
	CHECK_HAS(t, "  cpu 1 thread  sh:345");
	CHECK_HAS(t, "warn task/345\n      task sh (pid 345) may run on CPUs 1\n      => taskset -pc 0 345\n");
	CHECK_HAS(t, "  cpu 1 irq     virtio0-input.0:27             3 x          6.000 us  fail irq/27\n");
	CHECK_HAS(t, "  1 other source (7.000 us): no finding explains them\n");
	free(t);
	osn_sources_free(&ss);

	/* nothing explained */
	osn_render_advice(h_open(&b), &ss);
	t = h_close(&b);
	CHECK_HAS(t, "no finding of the audit explains the noise measured");
	free(t);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(explain);
	RUN(sources);
	return h_done(argv[0]);
}
