// SPDX-License-Identifier: GPL-2.0
/*
 * osn audit: the parsers of every file it reads (good, malformed and
 * truncated content), and each check's status on a good and a bad
 * fixture tree (made under a temporary directory and read through the
 * audit's root prefix).
 */
#include <errno.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "audit.h"
#include "audit_int.h"
#include "json.h"
#include "json_parse.h"

static char root[256];

/* mkdir -p of @path's directory, then write @text to it. */
static void put(const char *path, const char *text)
{
	char full[1024];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (char *p = full + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(full, 0755);
			*p = '/';
		}
	f = fopen(full, "w");
	if (!f) {
		printf("  cannot write %s: %s\n", full, strerror(errno));
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static void rm_tree(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		printf("  could not remove %s\n", root);
}

static void new_root(void)
{
	if (root[0])
		rm_tree();
	snprintf(root, sizeof(root), "/tmp/osn-audit-test.XXXXXX");
	if (!mkdtemp(root)) {
		printf("  mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
}

/* ---- parsers ---------------------------------------------------------------- */

TEST(cmdline)
{
	char v[64];

	CHECK_EQ(osn_cmdline_param("ro quiet", "nohz_full", v, sizeof(v)), 0);
	CHECK_EQ(osn_cmdline_param("ro nowatchdog quiet", "nowatchdog", v, sizeof(v)), 1);
	CHECK_EQ(osn_cmdline_param("nohz_full=1-3 ro", "nohz_full", v, sizeof(v)), 2);
	CHECK_STR(v, "1-3");
	/* the last one wins; a longer name is another parameter */
	CHECK_EQ(osn_cmdline_param("isolcpus=1 isolcpus=2,3", "isolcpus", v, sizeof(v)), 2);
	CHECK_STR(v, "2,3");
	CHECK_EQ(osn_cmdline_param("nohz_fullx=1 nohz=off", "nohz_full", v, sizeof(v)), 0);
	CHECK_EQ(osn_cmdline_param("tsc=reliable", "tsc", v, sizeof(v)), 2);
	CHECK_STR(v, "reliable");
	/* quotes; after "--" it is init's */
	CHECK_EQ(osn_cmdline_param("a=\"x y\" isolcpus=\"1\"", "isolcpus", v, sizeof(v)), 2);
	CHECK_STR(v, "1");
	CHECK_EQ(osn_cmdline_param("ro -- nohz_full=1", "nohz_full", v, sizeof(v)), 0);
	/* empty, truncated value (kept within the buffer) */
	CHECK_EQ(osn_cmdline_param("", "x", v, sizeof(v)), 0);
	CHECK_EQ(osn_cmdline_param("rcu_nocbs=", "rcu_nocbs", v, sizeof(v)), 2);
	CHECK_STR(v, "");
	CHECK_EQ(osn_cmdline_param("x=0123456789", "x", v, 5), 2);
	CHECK_STR(v, "0123");
	CHECK_EQ(osn_cmdline_param("unterminated=\"1 2", "unterminated", v, sizeof(v)), 2);
}

TEST(isolcpus)
{
	struct osn_cpuset s;
	unsigned int fl;

	CHECK_EQ(osn_parse_isolcpus("1-3", 8, &fl, &s), 0);
	CHECK_EQ(fl, OSN_ISOL_DOMAIN);
	CHECK_EQ(osn_cpuset_count(&s), 3);
	CHECK_EQ(osn_parse_isolcpus("domain,managed_irq,2,5", 8, &fl, &s), 0);
	CHECK_EQ(fl, OSN_ISOL_DOMAIN | OSN_ISOL_MANAGED_IRQ);
	CHECK(osn_cpuset_isset(&s, 5) && !osn_cpuset_isset(&s, 3));
	CHECK_EQ(osn_parse_isolcpus("nohz,managed_irq,1", 8, &fl, &s), 0);
	CHECK_EQ(fl, OSN_ISOL_NOHZ | OSN_ISOL_MANAGED_IRQ);
	CHECK_EQ(osn_parse_isolcpus("bogus,1", 8, &fl, &s), -1);
	CHECK_HAS(osn_last_err(), "unknown flag 'bogus'");
	CHECK_EQ(osn_parse_isolcpus("domain", 8, &fl, &s), -1);
	CHECK_HAS(osn_last_err(), "no cpu list");
	CHECK_EQ(osn_parse_isolcpus("1-9", 8, &fl, &s), -1);
	CHECK_HAS(osn_last_err(), "cpu 9 does not exist");
	CHECK_EQ(osn_parse_isolcpus("", 8, &fl, &s), -1);
}

TEST(hexmask)
{
	struct osn_cpuset s;
	char buf[128];

	CHECK_EQ(osn_parse_hexmask("3\n", &s), 0);
	CHECK_EQ(osn_cpuset_count(&s), 2);
	CHECK_EQ(osn_parse_hexmask("ff,00000001", &s), 0);
	CHECK(osn_cpuset_isset(&s, 0) && osn_cpuset_isset(&s, 32) &&
	      osn_cpuset_isset(&s, 39) && !osn_cpuset_isset(&s, 40));
	osn_format_hexmask(&s, buf, sizeof(buf));
	CHECK_STR(buf, "ff,00000001");
	CHECK_EQ(osn_parse_hexmask("A", &s), 0);
	osn_format_cpulist(&s, buf, sizeof(buf));
	CHECK_STR(buf, "1,3");
	osn_cpuset_zero(&s);
	osn_format_hexmask(&s, buf, sizeof(buf));
	CHECK_STR(buf, "0");
	CHECK_EQ(osn_parse_hexmask("", &s), -1);
	CHECK_HAS(osn_last_err(), "empty");
	CHECK_EQ(osn_parse_hexmask("0-3", &s), -1);
	CHECK_HAS(osn_last_err(), "not a hex cpu mask");
	CHECK_EQ(osn_parse_hexmask("zz", &s), -1);
	/* wider than OSN_MAX_CPUS */
	{
		char wide[1200];

		memset(wide, 'f', 1100);
		wide[1100] = 0;
		CHECK_EQ(osn_parse_hexmask(wide, &s), -1);
		CHECK_HAS(osn_last_err(), "too wide");
	}
}

TEST(choice)
{
	char w[16];

	CHECK_EQ(osn_parse_choice("always [madvise] never", '[', w, sizeof(w)), 0);
	CHECK_STR(w, "madvise");
	CHECK_EQ(osn_parse_choice("none (voluntary) full", '(', w, sizeof(w)), 0);
	CHECK_STR(w, "voluntary");
	CHECK_EQ(osn_parse_choice("always madvise never", '[', w, sizeof(w)), -1);
	CHECK_HAS(osn_last_err(), "no [selected] word");
	CHECK_EQ(osn_parse_choice("[always] [never]", '[', w, sizeof(w)), -1);
	CHECK_HAS(osn_last_err(), "more than one");
	CHECK_EQ(osn_parse_choice("always [madv", '[', w, sizeof(w)), -1);
	CHECK_EQ(osn_parse_choice("[]", '[', w, sizeof(w)), -1);
	CHECK_EQ(osn_parse_choice("[averyveryverylongword]", '[', w, sizeof(w)), -1);
	CHECK_EQ(osn_parse_choice("", '[', w, sizeof(w)), -1);
}

TEST(longs)
{
	long v;

	CHECK_EQ(osn_parse_long("950000\n", &v), 0);
	CHECK_EQ(v, 950000);
	CHECK_EQ(osn_parse_long("-1", &v), 0);
	CHECK(v == -1);
	CHECK_EQ(osn_parse_long("", &v), -1);
	CHECK_EQ(osn_parse_long("1x", &v), -1);
	CHECK_HAS(osn_last_err(), "not a number");
	CHECK_EQ(osn_parse_long("99999999999999999999999", &v), -1);
}

TEST(interrupts)
{
	int cols[8];
	uint64_t c[8];
	char irq[16], desc[128], name[32];

	CHECK_EQ(osn_parse_irq_header("           CPU0       CPU1       \n", cols, 8), 2);
	CHECK_EQ(cols[1], 1);
	/* offline CPUs are not shown: the columns say which CPU */
	CHECK_EQ(osn_parse_irq_header("  CPU0 CPU2 CPU3\n", cols, 8), 3);
	CHECK_EQ(cols[1], 2);
	CHECK_EQ(osn_parse_irq_header("\n", cols, 8), -1);
	CHECK_HAS(osn_last_err(), "no CPU");
	CHECK_EQ(osn_parse_irq_header("CPU0 GPU1", cols, 8), -1);
	CHECK_EQ(osn_parse_irq_header("CPU0 CPUx", cols, 8), -1);
	CHECK_EQ(osn_parse_irq_header("CPU0 CPU1 CPU2", cols, 2), -1);
	CHECK_HAS(osn_last_err(), "more than 2");

	CHECK_EQ(osn_parse_irq_line(" 27:   5   7  PCI-MSI 49153-edge      virtio0-input.0\n",
				    2, irq, sizeof(irq), c, desc, sizeof(desc),
				    name, sizeof(name)), 0);
	CHECK_STR(irq, "27");
	CHECK_EQ(c[0], 5);
	CHECK_EQ(c[1], 7);
	CHECK_STR(desc, "PCI-MSI 49153-edge virtio0-input.0");
	CHECK_STR(name, "virtio0-input.0");
	CHECK_EQ(osn_parse_irq_line("LOC:  100  200  Local timer interrupts\n", 2,
				    irq, sizeof(irq), c, desc, sizeof(desc), name,
				    sizeof(name)), 0);
	CHECK_STR(irq, "LOC");
	CHECK_EQ(osn_parse_irq_line("ERR:          0\n", 2, irq, sizeof(irq), c,
				    desc, sizeof(desc), name, sizeof(name)), 0);
	CHECK_EQ(c[1], 0);
	CHECK_STR(name, "");
	/* a numbered IRQ cut short */
	CHECK_EQ(osn_parse_irq_line(" 27:   5", 2, irq, sizeof(irq), c, desc,
				    sizeof(desc), name, sizeof(name)), -1);
	CHECK_HAS(osn_last_err(), "IRQ 27 has 1 of 2 counts");
	CHECK_EQ(osn_parse_irq_line("garbage", 2, irq, sizeof(irq), c, desc,
				    sizeof(desc), name, sizeof(name)), -1);
	CHECK_HAS(osn_last_err(), "malformed line");
	CHECK_EQ(osn_parse_irq_line(":", 2, irq, sizeof(irq), c, desc,
				    sizeof(desc), name, sizeof(name)), -1);
	CHECK_EQ(osn_parse_irq_line("a b: 1 2", 2, irq, sizeof(irq), c, desc,
				    sizeof(desc), name, sizeof(name)), -1);
	CHECK_EQ(osn_parse_irq_line("12: 5x 7", 2, irq, sizeof(irq), c, desc,
				    sizeof(desc), name, sizeof(name)), -1);
	CHECK_HAS(osn_last_err(), "bad count");
	CHECK_EQ(osn_parse_irq_line("123456789012345678901234567890: 1 2", 2, irq,
				    sizeof(irq), c, desc, sizeof(desc), name,
				    sizeof(name)), -1);
	/* a long description is cut, not overflowed */
	CHECK_EQ(osn_parse_irq_line("9: 1 2 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 2,
				    irq, sizeof(irq), c, desc, 8, name, sizeof(name)), 0);
	CHECK_EQ(strlen(desc), 7);
}

TEST(swaps)
{
	CHECK_EQ(osn_parse_swaps("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"), 0);
	CHECK_EQ(osn_parse_swaps("Filename Type Size Used Priority\n"
				 "/dev/vda2  partition 1048572 0 -2\n"
				 "/swapfile file 1024 0 -3\n"), 2);
	CHECK_EQ(osn_parse_swaps(""), -1);
	CHECK_HAS(osn_last_err(), "no 'Filename' header");
	CHECK_EQ(osn_parse_swaps("Filename\nxyz 1 2\n"), -1);
	CHECK_HAS(osn_last_err(), "malformed line");
}

/* ---- fixture trees ----------------------------------------------------------- */

static void common_tree(void)
{
	put("/sys/devices/system/cpu/possible", "0-3\n");
	put("/proc/interrupts",
	    "           CPU0       CPU1       CPU2       CPU3\n"
	    "  0:         40          0          0          0   IO-APIC   2-edge      timer\n"
	    " 27:        100          3          0          9   PCI-MSI 49153-edge      virtio0-input.0\n"
	    "NMI:          0          0          0          0   Non-maskable interrupts\n"
	    "LOC:       1000       1000       1000       1000   Local timer interrupts\n"
	    "ERR:          0\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
	put("/sys/kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise [madvise] never\n");
	put("/sys/kernel/mm/ksm/run", "0\n");
	put("/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	put("/proc/sys/vm/stat_interval", "10\n");
	put("/proc/sys/kernel/timer_migration", "0\n");
	put("/sys/kernel/rcu_expedited", "0\n");
	put("/sys/kernel/rcu_normal", "1\n");
	put("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	put("/proc/sys/kernel/nmi_watchdog", "0\n");
	put("/proc/sys/kernel/watchdog", "1\n");
	put("/sys/devices/system/cpu/nohz_full", "2-3\n");
	put("/sys/kernel/tracing/available_tracers", "osnoise timerlat nop\n");
	for (int c = 0; c < 4; c++) {
		char p[128];

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
		put(p, "performance\n");
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state0/latency", c);
		put(p, "0\n");
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state0/name", c);
		put(p, "POLL\n");
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state1/latency", c);
		put(p, "133\n");
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state1/name", c);
		put(p, "C6\n");
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state1/disable", c);
		put(p, "1\n");
	}
}

static void good_tree(void)
{
	new_root();
	common_tree();
	put("/proc/cmdline",
	    "BOOT_IMAGE=/vmlinuz root=/dev/vda1 isolcpus=domain,managed_irq,2-3 nohz_full=2-3 "
	    "rcu_nocbs=2-3 irqaffinity=0-1 rcu_nocb_poll skew_tick=1 nosoftlockup "
	    "nowatchdog tsc=reliable\n");
	put("/proc/irq/0/smp_affinity_list", "0-1\n");
	put("/proc/irq/0/effective_affinity_list", "0\n");
	put("/proc/irq/27/smp_affinity_list", "0-1\n");
	put("/proc/irq/27/effective_affinity_list", "1\n");
	put("/sys/devices/virtual/workqueue/cpumask", "3\n");
	put("/sys/devices/virtual/workqueue/writeback/cpumask", "3\n");
	put("/proc/sys/kernel/watchdog_cpumask", "0-1\n");
	put("/sys/kernel/debug/sched/preempt", "none voluntary (full)\n");
	put("/sys/fs/cgroup/memory/memory.move_charge_at_immigrate", "0\n");
}

static void bad_tree(void)
{
	new_root();
	common_tree();
	put("/proc/cmdline",
	    "root=/dev/vda1 isolcpus=nohz,2 nohz_full=2-3 rcu_nocbs=3 irqaffinity=0-2 skew_tick=0\n");
	put("/proc/irq/0/smp_affinity_list", "0-3\n");
	put("/proc/irq/0/effective_affinity_list", "0\n");
	/* no effective_affinity_list (5.10 and some chips): counts decide */
	put("/proc/irq/27/smp_affinity_list", "0-3\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	put("/sys/kernel/mm/transparent_hugepage/defrag", "[always] defer defer+madvise madvise never\n");
	put("/sys/kernel/mm/ksm/run", "1\n");
	put("/proc/swaps", "Filename Type Size Used Priority\n/dev/vda2 partition 1048572 0 -2\n");
	put("/proc/sys/vm/stat_interval", "1\n");
	put("/proc/sys/kernel/timer_migration", "1\n");
	put("/sys/kernel/rcu_expedited", "1\n");
	put("/sys/kernel/rcu_normal", "0\n");
	put("/proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	put("/proc/sys/kernel/nmi_watchdog", "1\n");
	put("/proc/sys/kernel/watchdog_cpumask", "0-3\n");
	put("/sys/devices/virtual/workqueue/cpumask", "f\n");
	put("/sys/devices/virtual/workqueue/writeback/cpumask", "ffffffff\n");
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave\n");
	put("/sys/devices/system/cpu/cpu3/cpuidle/state1/disable", "0\n");
	put("/sys/kernel/debug/sched/preempt", "none (voluntary) full\n");
	put("/sys/fs/cgroup/memory/memory.move_charge_at_immigrate", "3\n");
	put("/sys/kernel/tracing/available_tracers", "function nop\n");
	if (unlink(strcat(strcpy((char[512]){ 0 }, root), "/sys/devices/system/cpu/nohz_full")))
		printf("  unlink nohz_full: %s\n", strerror(errno));
}

static struct osn_audit_task mk(int pid, const char *comm, bool kthread,
				const char *cpus)
{
	struct osn_audit_task t;

	memset(&t, 0, sizeof(t));
	t.pid = pid;
	osn_strlcpy(t.comm, comm, sizeof(t.comm));
	t.kthread = kthread;
	t.state = 'S';
	t.policy = SCHED_OTHER;
	osn_parse_cpulist(cpus, OSN_MAX_CPUS, &t.allowed);
	return t;
}

static const char *st(const struct osn_audit *a, const char *check)
{
	const struct osn_audit_finding *f = osn_audit_find(a, check);

	return f ? osn_audit_status_name(f->status) : "(none)";
}

static const char *ev(const struct osn_audit *a, const char *check)
{
	const struct osn_audit_finding *f = osn_audit_find(a, check);

	return f ? f->evidence : "(none)";
}

static const char *fx(const struct osn_audit *a, const char *check)
{
	const struct osn_audit_finding *f = osn_audit_find(a, check);

	return f ? f->fix : "(none)";
}

TEST(good)
{
	struct osn_audit a;
	struct osn_audit_task t[3];
	char *out;
	struct h_buf b;

	good_tree();
	CHECK_EQ(osn_audit_init(&a, root, NULL), 0);
	a.x86 = true;
	CHECK_STR(a.cpus_str, "2-3");
	CHECK_STR(a.hk_str, "0-1");
	CHECK_HAS(a.cpus_from, "command line");
	t[0] = mk(10, "ksoftirqd/2", true, "2");
	t[1] = mk(11, "kworker/3:1H", true, "3");
	t[2] = mk(100, "sshd", false, "0-1");
	a.tasks = t;
	a.nr_tasks = 3;
	osn_audit_run(&a);
	for (int i = 0; i < a.n; i++)
		if (a.f[i].status != OSN_AUDIT_OK)
			printf("  FAIL good: %s %s: %s\n", a.f[i].check,
			       osn_audit_status_name(a.f[i].status), a.f[i].evidence);
	for (int i = 0; i < a.n; i++)
		CHECK(a.f[i].status == OSN_AUDIT_OK);
	CHECK_EQ(osn_audit_exit_status(&a), 0);
	CHECK_HAS(ev(&a, "boot/isolcpus"), "isolcpus=domain,managed_irq,2-3");
	CHECK_HAS(ev(&a, "irq"), "no IRQ's affinity touches CPUs 2-3 (2 IRQs");
	CHECK_HAS(ev(&a, "tasks/percpu"), "2 per-CPU kthreads bound to CPUs 2-3, which must be there: ksoftirqd/2 kworker/3:1H");
	CHECK_HAS(ev(&a, "kernel/preempt"), "full");
	CHECK_HAS(ev(&a, "kernel/osnoise"), "rtla osnoise top -c 2-3");
	CHECK_HAS(ev(&a, "cpu/idle"), "no enabled idle state");
	CHECK_STR(st(&a, "wq/queues"), "ok");
	CHECK_HAS(ev(&a, "wq/queues"), "none of the 1 workqueues");

	/* the text and JSON outputs */
	osn_audit_print(&a, h_open(&b));
	out = h_close(&b);
	CHECK_HAS(out, "osn audit: CPUs 2-3 (isolcpus=/nohz_full= of the kernel command line); housekeeping CPUs 0-1\n");
	CHECK_HAS(out, "\nok    boot/nohz_full         nohz_full=2-3 in /proc/cmdline\n");
	CHECK_HAS(out, " ok, 0 warn, 0 fail, 0 n/a\n");
	free(out);
	osn_audit_print_json(&a, h_open(&b));
	out = h_close(&b);
	CHECK(h_json_valid(out));
	CHECK_HAS(out, "\"check\": \"boot/nohz_full\"");
	CHECK_HAS(out, "\"exit_status\": 0");
	free(out);
	osn_audit_free(&a);
}

TEST(bad)
{
	struct osn_audit a;
	struct osn_audit_task t[7];
	char *out;
	struct h_buf b;

	bad_tree();
	CHECK_EQ(osn_audit_init(&a, root, "2-3"), 0);
	a.x86 = true;
	CHECK_STR(a.cpus_from, "-c 2-3");
	t[0] = mk(2, "kthreadd", true, "0-3");
	t[1] = mk(45, "kswapd0", true, "0-3");
	t[2] = mk(51, "irq/27-virtio0", true, "3");
	t[2].policy = SCHED_FIFO;
	t[2].prio = 50;
	t[3] = mk(60, "kworker/u8:1", true, "0-3");
	t[4] = mk(70, "irqbalance", false, "0-3");
	t[5] = mk(80, "app", false, "3");
	t[6] = mk(90, "kworker/R-kblockd", true, "0-3");
	t[6].no_setaffinity = true;
	a.tasks = t;
	a.nr_tasks = 7;
	osn_audit_run(&a);
	CHECK_EQ(osn_audit_exit_status(&a), 1);

	/* boot */
	CHECK_STR(st(&a, "boot/isolcpus"), "warn");
	CHECK_HAS(ev(&a, "boot/isolcpus"), "leaves out CPUs 3");
	CHECK_HAS(fx(&a, "boot/isolcpus"), "isolcpus=domain,managed_irq,2-3");
	CHECK_STR(st(&a, "boot/nohz_full"), "ok");
	CHECK_STR(st(&a, "boot/rcu_nocbs"), "warn");
	CHECK_HAS(ev(&a, "boot/rcu_nocbs"), "leaves out CPUs 2");
	CHECK_STR(st(&a, "boot/irqaffinity"), "fail");
	CHECK_HAS(ev(&a, "boot/irqaffinity"), "includes audited CPUs 2");
	CHECK_STR(fx(&a, "boot/irqaffinity"), "boot with irqaffinity=0-1");
	CHECK_STR(st(&a, "boot/rcu_nocb_poll"), "warn");
	CHECK_STR(st(&a, "boot/skew_tick"), "warn");
	CHECK_HAS(ev(&a, "boot/skew_tick"), "skew_tick=0");
	CHECK_STR(st(&a, "boot/nosoftlockup"), "warn");
	CHECK_STR(st(&a, "boot/nowatchdog"), "warn");
	CHECK_STR(st(&a, "boot/tsc"), "warn");
	CHECK_HAS(ev(&a, "boot/tsc"), "no tsc=reliable");
	CHECK_STR(st(&a, "boot/consistency"), "warn");
	CHECK_HAS(ev(&a, "boot/consistency"), "nohz_full CPUs 2 are not in rcu_nocbs");

	/* IRQs: 0 may (affinity), 27 does (no effective list, 12 on 2-3) */
	CHECK_STR(st(&a, "irq/0"), "warn");
	CHECK_HAS(ev(&a, "irq/0"), "timer: smp_affinity_list 0-3, effective_affinity_list 0");
	CHECK_STR(st(&a, "irq/27"), "fail");
	CHECK_HAS(ev(&a, "irq/27"), "virtio0-input.0: smp_affinity_list 0-3, effective_affinity_list -");
	CHECK_HAS(ev(&a, "irq/27"), "9 interrupts on CPUs 2-3");
	CHECK_STR(fx(&a, "irq/27"), "echo 0-1 > /proc/irq/27/smp_affinity_list");
	CHECK_STR(st(&a, "irq"), "fail");
	CHECK_HAS(ev(&a, "irq"), "2 of 2 IRQs");
	CHECK_STR(fx(&a, "irq"), "for i in 0 27; do echo 0-1 > /proc/irq/$i/smp_affinity_list; done");

	/* tasks */
	CHECK_STR(st(&a, "irqbalance"), "warn");
	CHECK_HAS(ev(&a, "irqbalance"), "pid 70");
	CHECK_STR(fx(&a, "task/2"), "taskset -pc 0-1 2");
	CHECK_HAS(ev(&a, "task/45"), "kthread kswapd0 (pid 45");
	CHECK_HAS(ev(&a, "task/51"), "FIFO 50");
	CHECK_HAS(fx(&a, "task/51"), "echo 0-1 > /proc/irq/27/smp_affinity_list");
	CHECK_STR(fx(&a, "task/60"), "echo 3 > /sys/devices/virtual/workqueue/cpumask");
	CHECK_HAS(fx(&a, "task/80"), "taskset -pc 0-1 80 (unless it is the workload");
	CHECK_HAS(fx(&a, "task/90"), "PF_NO_SETAFFINITY");
	CHECK_STR(st(&a, "tasks/unpinned"), "warn");
	CHECK_HAS(ev(&a, "tasks/unpinned"), "1 user tasks allowed on every CPU may run on CPUs 2-3: irqbalance(70)");
	CHECK_STR(st(&a, "task/70"), "(none)");

	/* memory, workqueues, sysctls */
	CHECK_STR(st(&a, "mem/thp_enabled"), "warn");
	CHECK_HAS(ev(&a, "mem/thp_enabled"), "always (/sys/kernel/mm/transparent_hugepage/enabled)");
	CHECK_STR(st(&a, "mem/thp_defrag"), "warn");
	CHECK_STR(st(&a, "mem/ksm"), "warn");
	CHECK_STR(fx(&a, "mem/ksm"), "echo 0 > /sys/kernel/mm/ksm/run");
	CHECK_STR(st(&a, "mem/swap"), "warn");
	CHECK_HAS(ev(&a, "mem/swap"), "1 swap areas");
	CHECK_STR(st(&a, "mem/stat_interval"), "warn");
	CHECK_STR(st(&a, "mem/move_charge"), "warn");
	CHECK_STR(st(&a, "wq/cpumask"), "warn");
	CHECK_STR(fx(&a, "wq/cpumask"), "echo 3 > /sys/devices/virtual/workqueue/cpumask");
	CHECK_STR(st(&a, "wq/writeback"), "warn");
	CHECK_STR(st(&a, "kernel/timer_migration"), "warn");
	CHECK_STR(fx(&a, "kernel/timer_migration"), "sysctl -w kernel.timer_migration=0");
	CHECK_STR(st(&a, "rcu/expedited"), "warn");
	CHECK_STR(st(&a, "rcu/normal"), "warn");
	CHECK_STR(st(&a, "sched/rt_runtime"), "warn");
	CHECK_STR(st(&a, "watchdog/nmi"), "warn");
	CHECK_STR(st(&a, "watchdog/cpumask"), "warn");
	CHECK_HAS(fx(&a, "watchdog/cpumask"), "kernel.watchdog_cpumask=0-1");

	/* power, kernel */
	CHECK_STR(st(&a, "cpu/governor"), "warn");
	CHECK_HAS(ev(&a, "cpu/governor"), "cpu2:powersave");
	CHECK_STR(st(&a, "cpu/idle"), "warn");
	CHECK_HAS(ev(&a, "cpu/idle"), "cpu3:C6(133 us)");
	CHECK_STR(st(&a, "kernel/preempt"), "warn");
	CHECK_HAS(ev(&a, "kernel/preempt"), "voluntary");
	CHECK_STR(st(&a, "kernel/no_hz_full"), "warn");
	CHECK_STR(st(&a, "kernel/osnoise"), "n/a");

	osn_audit_print_json(&a, h_open(&b));
	out = h_close(&b);
	CHECK(h_json_valid(out));
	CHECK_HAS(out, "\"exit_status\": 1");
	free(out);
	osn_audit_free(&a);
}

/* Malformed, truncated, absent and oversized files: n/a with the reason. */
TEST(malformed)
{
	struct osn_audit a;
	char big[70000];

	new_root();
	put("/sys/devices/system/cpu/possible", "garbage\n");	/* falls back to sysconf */
	put("/proc/cmdline", "isolcpus=domain nohz_full=x rcu_nocbs=1-2000 irqaffinity\n");
	put("/proc/interrupts", "           CPU0       CPU1\n"
				"  0:         40\n"
				" 27:        100  3  PCI-MSI virtio0\n");
	put("/proc/irq/27/smp_affinity_list", "zzz\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise never\n");
	put("/sys/kernel/mm/transparent_hugepage/defrag", "");
	put("/sys/kernel/mm/ksm/run", "one\n");
	put("/proc/swaps", "Filenam");
	put("/proc/sys/vm/stat_interval", "");
	put("/sys/devices/virtual/workqueue/cpumask", "xyz\n");
	put("/sys/devices/virtual/workqueue/wq1/cpumask", "\n");
	put("/proc/sys/kernel/watchdog_cpumask", "0-\n");
	put("/sys/kernel/debug/sched/preempt", "garbage\n");
	put("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian\n");
	memset(big, '1', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	put("/proc/sys/kernel/timer_migration", big);
	CHECK_EQ(osn_audit_init(&a, root, "1"), 0);
	a.tasks_why = "test";
	osn_audit_run(&a);
	CHECK_STR(st(&a, "boot/isolcpus"), "fail");
	CHECK_HAS(ev(&a, "boot/isolcpus"), "does not parse: isolcpus='domain': no cpu list");
	CHECK_STR(st(&a, "boot/nohz_full"), "fail");
	CHECK_HAS(ev(&a, "boot/nohz_full"), "nohz_full='x' in /proc/cmdline does not parse");
	CHECK_STR(st(&a, "boot/rcu_nocbs"), "fail");
	CHECK_STR(st(&a, "boot/irqaffinity"), "fail");
	CHECK_HAS(ev(&a, "boot/irqaffinity"), "no cpu list");
	CHECK_STR(st(&a, "irq/parse"), "n/a");
	CHECK_HAS(ev(&a, "irq/parse"), "IRQ 0 has 1 of 2 counts");
	CHECK_STR(st(&a, "irq/27"), "n/a");
	CHECK_HAS(ev(&a, "irq/27"), "/proc/irq/27/smp_affinity_list: 'zzz' is not a cpu list");
	CHECK_STR(st(&a, "tasks"), "n/a");
	CHECK_STR(st(&a, "irqbalance"), "n/a");
	CHECK_STR(st(&a, "mem/thp_enabled"), "n/a");
	CHECK_HAS(ev(&a, "mem/thp_enabled"), "no [selected] word");
	CHECK_STR(st(&a, "mem/thp_defrag"), "n/a");
	CHECK_STR(st(&a, "mem/ksm"), "n/a");
	CHECK_HAS(ev(&a, "mem/ksm"), "'one' is not a number");
	CHECK_STR(st(&a, "mem/swap"), "n/a");
	CHECK_HAS(ev(&a, "mem/swap"), "no 'Filename' header");
	CHECK_STR(st(&a, "mem/stat_interval"), "n/a");
	CHECK_STR(st(&a, "mem/move_charge"), "n/a");
	CHECK_STR(st(&a, "wq/cpumask"), "n/a");
	CHECK_HAS(ev(&a, "wq/cpumask"), "not a hex cpu mask");
	CHECK_STR(st(&a, "wq/wq1"), "n/a");
	CHECK_STR(st(&a, "kernel/timer_migration"), "n/a");
	CHECK_HAS(ev(&a, "kernel/timer_migration"), "longer than");
	CHECK_STR(st(&a, "watchdog/cpumask"), "n/a");
	CHECK_STR(st(&a, "rcu/normal"), "n/a");
	CHECK_HAS(ev(&a, "rcu/normal"), "absent");
	CHECK_STR(st(&a, "cpu/governor"), "n/a");
	CHECK_STR(st(&a, "cpu/idle"), "n/a");
	CHECK_STR(st(&a, "kernel/preempt"), "n/a");
	CHECK_HAS(ev(&a, "kernel/preempt"), "PREEMPT_DYNAMIC");
	CHECK_STR(st(&a, "kernel/no_hz_full"), "warn");
	CHECK_STR(st(&a, "kernel/osnoise"), "n/a");
	osn_audit_free(&a);

	/* /proc/interrupts: empty, then a bad header */
	put("/proc/interrupts", "");
	CHECK_EQ(osn_audit_init(&a, root, "1"), 0);
	osn_audit_run(&a);
	CHECK_HAS(ev(&a, "irq"), "/proc/interrupts is empty");
	osn_audit_free(&a);
	put("/proc/interrupts", "IRQ CPU0\n");
	CHECK_EQ(osn_audit_init(&a, root, "1"), 0);
	osn_audit_run(&a);
	CHECK_HAS(ev(&a, "irq"), "is not CPUn");
	osn_audit_free(&a);

	/* 1000 CPUs: lines longer than any fixed buffer */
	{
		size_t n = 0, cap = 40000;
		char *t = malloc(cap);

		n += snprintf(t + n, cap - n, " ");
		for (int c = 0; c < 1000; c++)
			n += snprintf(t + n, cap - n, "  CPU%d", c);
		n += snprintf(t + n, cap - n, "\n 27:");
		for (int c = 0; c < 1000; c++)
			n += snprintf(t + n, cap - n, " %10d", c == 999 ? 5 : 0);
		snprintf(t + n, cap - n, "  PCI-MSI 1-edge  eth0\n");
		put("/proc/interrupts", t);
		free(t);
		put("/sys/devices/system/cpu/possible", "0-999\n");
		put("/proc/irq/27/smp_affinity_list", "999\n");
		CHECK_EQ(osn_audit_init(&a, root, "999"), 0);
		osn_audit_run(&a);
		CHECK_STR(st(&a, "irq/27"), "fail");
		CHECK_HAS(ev(&a, "irq/27"), "eth0: smp_affinity_list 999, effective_affinity_list -");
		CHECK_HAS(ev(&a, "irq/27"), "5 interrupts on CPUs 999");
		osn_audit_free(&a);
	}

	/* an empty root: nothing there at all */
	new_root();
	CHECK_EQ(osn_audit_init(&a, root, "1"), 0);
	osn_audit_run(&a);
	CHECK_STR(st(&a, "boot"), "n/a");
	CHECK_HAS(ev(&a, "irq"), "absent");
	CHECK_EQ(osn_audit_exit_status(&a), 0);
	osn_audit_free(&a);
}

TEST(cpus)
{
	struct osn_audit a;

	new_root();
	put("/sys/devices/system/cpu/possible", "0-7\n");
	put("/proc/cmdline", "ro quiet\n");
	CHECK_EQ(osn_audit_init(&a, root, NULL), 0);
	CHECK_STR(a.cpus_str, "1-7");
	CHECK_STR(a.hk_str, "0");
	CHECK_HAS(a.cpus_from, "all but CPU 0");
	osn_audit_free(&a);
	put("/proc/cmdline", "isolcpus=managed_irq,domain,4-5 nohz_full=6\n");
	CHECK_EQ(osn_audit_init(&a, root, NULL), 0);
	CHECK_STR(a.cpus_str, "4-6");
	CHECK_STR(a.hk_str, "0-3,7");
	osn_audit_free(&a);
	CHECK_EQ(osn_audit_init(&a, root, "8"), -1);
	CHECK_HAS(osn_last_err(), "-c '8': cpu 8 does not exist (this machine has cpus 0-7)");
	osn_audit_free(&a);
	CHECK_EQ(osn_audit_init(&a, root, "x"), -1);
	CHECK_HAS(osn_last_err(), "is not a cpu list");
	osn_audit_free(&a);
	/* online CPUs: the default, the housekeeping set, "every CPU" */
	put("/sys/devices/system/cpu/online", "0-3\n");
	put("/proc/cmdline", "ro\n");
	CHECK_EQ(osn_audit_init(&a, root, NULL), 0);
	CHECK_STR(a.cpus_str, "1-3");
	CHECK_STR(a.hk_str, "0");
	{
		struct osn_audit_task t = mk(5, "daemon", false, "0-3");

		a.tasks = &t;
		a.nr_tasks = 1;
		osn_audit_run(&a);
		CHECK_HAS(ev(&a, "tasks/unpinned"), "1 user tasks allowed on every CPU");
		CHECK_STR(st(&a, "task/5"), "(none)");
	}
	osn_audit_free(&a);
	unlink(strcat(strcpy((char[512]){ 0 }, root), "/sys/devices/system/cpu/online"));
	put("/sys/devices/system/cpu/possible", "0\n");
	put("/proc/cmdline", "\n");
	CHECK_EQ(osn_audit_init(&a, root, NULL), -1);
	CHECK_HAS(osn_last_err(), "no CPU to audit");
	osn_audit_free(&a);
	put("/sys/devices/system/cpu/possible", "0-1\n");
	CHECK_EQ(osn_audit_init(&a, root, "0-1"), -1);
	CHECK_STR(osn_last_err(), "-c 0-1 leaves no housekeeping CPU: audit the CPUs to isolate, not all");
	osn_audit_free(&a);
}

/* "1,3,5,...": every other CPU from @first below @n, allocated */
static char *every_other(int first, int n)
{
	char *s = malloc(OSN_CPULIST_LEN);
	size_t o = 0;

	s[0] = 0;
	for (int c = first; c < n; c += 2)
		o += snprintf(s + o, OSN_CPULIST_LEN - o, "%s%d", o ? "," : "", c);
	return s;
}

/* @words 32-bit words of @word, as the kernel prints a mask */
static char *mask_of(const char *word, int words)
{
	char *s = malloc((size_t)words * 9 + 2);

	s[0] = 0;
	for (int w = 0; w < words; w++)
		strcat(strcat(s, w ? "," : ""), word);
	return s;
}

/*
 * 3000 IRQs that may run on the audited CPUs: the summary's fix names each
 * of them, whole (a fixed 512-byte list cut it at about 100, and cut the
 * last number: "for i in ... 10" for IRQ 1017).
 */
TEST(irqs_thousands)
{
	enum { NIRQ = 3000 };
	char *text = malloc(NIRQ * 64 + 64), *want = malloc(NIRQ * 8 + 128);
	char path[128], *p = text, *w;
	struct osn_audit a;

	new_root();
	put("/sys/devices/system/cpu/possible", "0-3\n");
	put("/proc/cmdline", "ro\n");
	p += sprintf(p, "           CPU0       CPU1       CPU2       CPU3\n");
	for (int i = 0; i < NIRQ; i++) {
		p += sprintf(p, "%4d: 1 0 5 0 PCI-MSI %d-edge dev%d\n", i, i, i);
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", i);
		put(path, "0-3\n");
	}
	put("/proc/interrupts", text);
	CHECK_EQ(osn_audit_init(&a, root, "2-3"), 0);
	osn_audit_run(&a);
	CHECK_HAS(ev(&a, "irq"), "3000 of 3000 IRQs");
	w = want + sprintf(want, "for i in");
	for (int i = 0; i < NIRQ; i++)
		w += sprintf(w, " %d", i);
	sprintf(w, "; do echo 0-1 > /proc/irq/$i/smp_affinity_list; done");
	CHECK_STR(fx(&a, "irq"), want);
	osn_audit_free(&a);
	free(text);
	free(want);
}

/* audit_append: whole pieces, then " ..." once, then nothing. */
TEST(append_whole)
{
	char buf[24] = "";

	for (int c = 0; c < 10; c++)
		audit_append(buf, sizeof(buf), " cpu%d:ondemand", c * 7);
	CHECK_STR(buf, " cpu0:ondemand ...");
	buf[0] = '\0';
	audit_append(buf, sizeof(buf), " %s", "a");
	audit_append(buf, sizeof(buf), " %s", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
	audit_append(buf, sizeof(buf), " %s", "c");
	CHECK_STR(buf, " a ...");
}

/* The worst cpulists and masks fit their buffers. */
TEST(long_lists_fit)
{
	struct osn_cpuset s;
	char *buf = malloc(OSN_CPULIST_LEN);
	char *odd = every_other(1, OSN_MAX_CPUS);
	size_t n;

	osn_cpuset_zero(&s);
	for (int c = 0; c < OSN_MAX_CPUS; c++)
		if (c % 3 != 2)
			osn_cpuset_set(&s, c);
	n = osn_format_cpulist(&s, buf, OSN_CPULIST_LEN);
	CHECK(n + 2 <= OSN_CPULIST_LEN);	/* with a newline and the NUL */
	CHECK_EQ(strlen(buf), n);
	CHECK(!strncmp(buf, "0-1,3-4,6-7,", 12));
	CHECK_EQ(osn_parse_cpulist(odd, OSN_MAX_CPUS, &s), 0);
	CHECK_EQ(osn_format_cpulist(&s, buf, OSN_CPULIST_LEN), 9684);
	CHECK_STR(buf, odd);
	osn_cpuset_zero(&s);
	for (int c = 0; c < OSN_MAX_CPUS; c++)
		osn_cpuset_set(&s, c);
	osn_format_hexmask(&s, buf, OSN_HEXMASK_LEN);
	CHECK_EQ(strlen(buf), OSN_HEXMASK_LEN - 1);
	CHECK_STR(buf + strlen(buf) - 17, "ffffffff,ffffffff");
	free(odd);
	free(buf);
}

/* Every other CPU of @n, odd and even; the masks of all and the even. */
struct long_lists {
	char *odd, *even, *mask, *hkm;
};

static struct long_lists long_lists(int n)
{
	struct long_lists l = {
		every_other(1, n), every_other(0, n),
		mask_of("ffffffff", n / 32), mask_of("55555555", n / 32),
	};

	return l;
}

static void long_lists_free(struct long_lists *l)
{
	free(l->odd);
	free(l->even);
	free(l->mask);
	free(l->hkm);
}

/*
 * 256 CPUs isolated every other one: "1,3,...,255" is 456 characters,
 * more than the 255 that osn audit's CPU lists had.
 */
TEST(long_lists_256)
{
	struct long_lists l = long_lists(256);
	char line[2048], want[2048];
	struct osn_audit_task t;
	struct osn_audit a;
	struct h_buf b;
	char *out;

	CHECK_EQ(strlen(l.odd), 456);
	new_root();
	put("/sys/devices/system/cpu/possible", "0-255\n");
	snprintf(line, sizeof(line),
		 "ro isolcpus=domain,managed_irq,%s nohz_full=%s rcu_nocbs=%s irqaffinity=%s\n",
		 l.odd, l.odd, l.odd, l.even);
	put("/proc/cmdline", line);
	snprintf(line, sizeof(line), "%s\n", l.mask);
	put("/sys/devices/virtual/workqueue/cpumask", line);
	CHECK_EQ(osn_audit_init(&a, root, NULL), 0);
	CHECK_STR(a.cpus_str, l.odd);
	CHECK_STR(a.hk_str, l.even);
	t = mk(42, "app", false, l.odd);
	a.tasks = &t;
	a.nr_tasks = 1;
	osn_audit_run(&a);
	snprintf(want, sizeof(want), "isolcpus=domain,managed_irq,%s in /proc/cmdline", l.odd);
	CHECK_STR(ev(&a, "boot/isolcpus"), want);
	CHECK_STR(st(&a, "boot/consistency"), "ok");
	snprintf(want, sizeof(want), "may run on CPUs %s (allowed %s)", l.odd, l.odd);
	CHECK_HAS(ev(&a, "task/42"), want);
	snprintf(want, sizeof(want), "taskset -pc %s 42", l.even);
	CHECK_HAS(fx(&a, "task/42"), want);
	snprintf(want, sizeof(want), "echo %s > /sys/devices/virtual/workqueue/cpumask", l.hkm);
	CHECK_STR(fx(&a, "wq/cpumask"), want);
	osn_audit_print(&a, h_open(&b));
	out = h_close(&b);
	snprintf(want, sizeof(want), "osn audit: CPUs %s (", l.odd);
	CHECK_HAS(out, want);
	free(out);
	osn_audit_free(&a);
	long_lists_free(&l);
}

/*
 * 4096 CPUs (the kernel's NR_CPUS may be 8192): -c every other one
 * (9684 characters), an IRQ and the watchdog allowed there, the
 * workqueues' mask of 1151, a nohz_full= of 6944: each quoted whole.
 */
TEST(long_lists_4096)
{
	struct long_lists l = long_lists(4096);
	char *nohz = every_other(1, 3000), *left = every_other(3001, 4096);
	char *text = malloc(2 * OSN_CPULIST_LEN), *want = malloc(3 * OSN_CPULIST_LEN);
	struct osn_audit_task t;
	struct osn_audit a;
	struct h_buf b;
	char *out;

	new_root();
	put("/sys/devices/system/cpu/possible", "0-4095\n");
	sprintf(text, "ro nohz_full=%s\n", nohz);
	put("/proc/cmdline", text);
	put("/proc/interrupts",
	    "           CPU0       CPU1\n"
	    " 27:          5          7   PCI-MSI 1-edge      nvme0q1\n");
	sprintf(text, "%s\n", l.odd);
	put("/proc/irq/27/smp_affinity_list", text);
	put("/proc/irq/27/effective_affinity_list", "1\n");
	put("/proc/sys/kernel/watchdog_cpumask", text);
	sprintf(text, "%s\n", l.mask);
	put("/sys/devices/virtual/workqueue/cpumask", text);
	CHECK_EQ(osn_audit_init(&a, root, l.odd), 0);
	CHECK_STR(a.cpus_str, l.odd);
	CHECK_STR(a.hk_str, l.even);
	CHECK_STR(a.cpus_from, "-c");	/* not a cut list */
	t = mk(7, "daemon", false, "0-4095");
	a.tasks = &t;
	a.nr_tasks = 1;
	osn_audit_run(&a);
	CHECK_STR(st(&a, "irq/27"), "fail");
	sprintf(want, "nvme0q1: smp_affinity_list %s, effective_affinity_list 1 ", l.odd);
	CHECK_HAS(ev(&a, "irq/27"), want);
	sprintf(want, "echo %s > /proc/irq/27/smp_affinity_list", l.even);
	CHECK_STR(fx(&a, "irq/27"), want);
	CHECK_STR(st(&a, "watchdog/cpumask"), "warn");
	sprintf(want, "%s (/proc/sys/kernel/watchdog_cpumask) includes CPUs %s:", l.odd, l.odd);
	CHECK_HAS(ev(&a, "watchdog/cpumask"), want);
	sprintf(want, "%s (/sys/devices/virtual/workqueue/cpumask) includes CPUs %s:", l.mask, l.odd);
	CHECK_HAS(ev(&a, "wq/cpumask"), want);
	sprintf(want, "echo %s > /sys/devices/virtual/workqueue/cpumask", l.hkm);
	CHECK_STR(fx(&a, "wq/cpumask"), want);
	sprintf(want, "boot with isolcpus=domain,%s, or systemctl set-property --runtime init.scope system.slice user.slice AllowedCPUs=%s",
		l.odd, l.even);
	CHECK_STR(fx(&a, "tasks/unpinned"), want);
	sprintf(want, "nohz_full=%s in /proc/cmdline leaves out CPUs %s", nohz, left);
	CHECK_STR(ev(&a, "boot/nohz_full"), want);
	osn_audit_print_json(&a, h_open(&b));
	out = h_close(&b);
	CHECK(h_json_valid(out));
	sprintf(want, "\"cpus\": \"%s\"", l.odd);
	CHECK_HAS(out, want);
	free(out);
	osn_audit_free(&a);
	long_lists_free(&l);
	free(nohz);
	free(left);
	free(text);
	free(want);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(cmdline);
	RUN(isolcpus);
	RUN(hexmask);
	RUN(choice);
	RUN(longs);
	RUN(interrupts);
	RUN(irqs_thousands);
	RUN(append_whole);
	RUN(swaps);
	RUN(good);
	RUN(bad);
	RUN(malformed);
	RUN(cpus);
	RUN(long_lists_fit);
	RUN(long_lists_256);
	RUN(long_lists_4096);
	rm_tree();
	return h_done(argv[0]);
}
