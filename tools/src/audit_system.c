// SPDX-License-Identifier: GPL-2.0
/*
 * audit_system.c - osn audit's checks of the kernel's settings and build:
 * memory ("mem/..."), workqueue masks ("wq/..."), sysctls ("kernel/...",
 * "rcu/...", "sched/...", "watchdog/..."), CPU power ("cpu/...") and the
 * kernel's preemption model, NO_HZ_FULL and osnoise ("kernel/...").
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "audit.h"
#include "audit_int.h"

/* Idle states whose exit latency exceeds this are reported (us). */
#define IDLE_LATENCY_US	10

/* ---- memory, sysctls, workqueues -------------------------------------------- */

/* A file with one integer: how it compares with @good. */
static void check_int(struct osn_audit *a, const char *check, const char *path,
		      const char *absent_why, bool (*good)(long),
		      const char *fix, const char *why)
{
	char buf[256];
	long v;
	int r = audit_rd(a, path, buf, sizeof(buf));

	if (audit_unread(a, r, check, path, absent_why))
		return;
	if (osn_parse_long(audit_chomp(buf), &v)) {
		audit_add(a, OSN_AUDIT_NA, check, NULL, "%s: %s", path, osn_last_err());
		return;
	}
	if (good(v))
		audit_add(a, OSN_AUDIT_OK, check, NULL, "%ld (%s)", v, path);
	else
		audit_add(a, OSN_AUDIT_WARN, check, fix, "%ld (%s): %s", v, path, why);
}

static bool is_zero(long v) { return v == 0; }
static bool is_one(long v) { return v == 1; }
static bool not_one(long v) { return v != 1; }
static bool ge_10(long v) { return v >= 10; }
static bool is_minus1(long v) { return v < 0; }

/* A choice file ("always [madvise] never"): warn on @bad. */
static void check_choice(struct osn_audit *a, const char *check,
			 const char *path, const char *bad, const char *fix,
			 const char *why)
{
	char buf[512], sel[64];
	int r = audit_rd(a, path, buf, sizeof(buf));

	if (audit_unread(a, r, check, path, "no CONFIG_TRANSPARENT_HUGEPAGE"))
		return;
	if (osn_parse_choice(audit_chomp(buf), '[', sel, sizeof(sel))) {
		audit_add(a, OSN_AUDIT_NA, check, NULL, "%s: %s", path, osn_last_err());
		return;
	}
	if (!strcmp(sel, bad))
		audit_add(a, OSN_AUDIT_WARN, check, fix, "%s (%s): %s", sel, path, why);
	else
		audit_add(a, OSN_AUDIT_OK, check, NULL, "%s (%s)", sel, path);
}

void osn_audit_check_memory(struct osn_audit *a)
{
	char buf[8192];
	int r, n;

	check_choice(a, "mem/thp_enabled", "/sys/kernel/mm/transparent_hugepage/enabled",
		     "always",
		     "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled (boot: transparent_hugepage=madvise)",
		     "khugepaged scans and collapses pages of every task");
	check_choice(a, "mem/thp_defrag", "/sys/kernel/mm/transparent_hugepage/defrag",
		     "always",
		     "echo madvise > /sys/kernel/mm/transparent_hugepage/defrag",
		     "page faults compact memory synchronously");
	check_int(a, "mem/ksm", "/sys/kernel/mm/ksm/run", "no CONFIG_KSM", not_one,
		  "echo 0 > /sys/kernel/mm/ksm/run",
		  "ksmd scans memory and merges pages");
	r = audit_rd(a, "/proc/swaps", buf, sizeof(buf));
	if (!audit_unread(a, r, "mem/swap", "/proc/swaps", "no CONFIG_SWAP")) {
		n = osn_parse_swaps(buf);
		if (n < 0)
			audit_add(a, OSN_AUDIT_NA, "mem/swap", NULL, "%s", osn_last_err());
		else if (n)
			audit_add(a, OSN_AUDIT_WARN, "mem/swap", "swapoff -a",
				  "%d swap areas (/proc/swaps): kswapd and swap-ins stall tasks",
				  n);
		else
			audit_add(a, OSN_AUDIT_OK, "mem/swap", NULL, "no swap (/proc/swaps)");
	}
	check_int(a, "mem/stat_interval", "/proc/sys/vm/stat_interval", "", ge_10,
		  "sysctl -w vm.stat_interval=10",
		  "the vmstat worker runs on each CPU every interval (seconds)");
	/* cgroup v1 only: moving a task moves its memory charges */
	r = audit_rd(a, "/sys/fs/cgroup/memory/memory.move_charge_at_immigrate", buf,
		     sizeof(buf));
	if (r == RD_ABSENT)
		audit_add(a, OSN_AUDIT_NA, "mem/move_charge", NULL,
			  "no cgroup v1 memory controller at /sys/fs/cgroup/memory");
	else
		check_int(a, "mem/move_charge",
			  "/sys/fs/cgroup/memory/memory.move_charge_at_immigrate",
			  "", is_zero,
			  "echo 0 > /sys/fs/cgroup/memory/memory.move_charge_at_immigrate",
			  "moving a task between cgroups moves its charges");
}

void osn_audit_check_workqueues(struct osn_audit *a)
{
	const char *dir = "/sys/devices/virtual/workqueue";
	/* buf: a mask of NR_CPUS 8192, 2304 bytes, fits */
	char buf[4096], path[1024], full[1024], fix[OSN_AUDIT_FIX_LEN];
	char hkm[OSN_HEXMASK_LEN];
	struct osn_cpuset m;
	struct dirent *d;
	int n = 0, bad = 0;
	DIR *dp;
	int r;

	osn_format_hexmask(&a->hk, hkm, sizeof(hkm));
	snprintf(fix, sizeof(fix), "echo %s > %s/cpumask", hkm, dir);
	snprintf(path, sizeof(path), "%s/cpumask", dir);
	r = audit_rd(a, path, buf, sizeof(buf));
	if (!audit_unread(a, r, "wq/cpumask", path, "no sysfs?")) {
		if (osn_parse_hexmask(buf, &m))
			audit_add(a, OSN_AUDIT_NA, "wq/cpumask", NULL, "%s: %s", path,
				  osn_last_err());
		else if (osn_cpuset_intersects(&m, &a->cpus))
			audit_add(a, OSN_AUDIT_WARN, "wq/cpumask", fix,
				  "%s (%s) includes CPUs %s: unbound kworkers run there",
				  audit_chomp(buf), path, a->cpus_str);
		else
			audit_add(a, OSN_AUDIT_OK, "wq/cpumask", NULL, "%s (%s)",
				  audit_chomp(buf), path);
	}
	/* the workqueues with WQ_SYSFS have their own cpumask */
	snprintf(full, sizeof(full), "%s%s", a->root, dir);
	dp = opendir(full);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		char check[48];

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpumask", dir, d->d_name);
		if (audit_rd(a, path, buf, sizeof(buf)) != RD_OK)
			continue;
		n++;
		snprintf(check, sizeof(check), "wq/%.40s", d->d_name);
		if (osn_parse_hexmask(buf, &m)) {
			audit_add(a, OSN_AUDIT_NA, check, NULL, "%s: %s", path, osn_last_err());
			continue;
		}
		if (!osn_cpuset_intersects(&m, &a->cpus))
			continue;
		bad++;
		snprintf(fix, sizeof(fix), "echo %s > %s", hkm, path);
		audit_add(a, OSN_AUDIT_WARN, check, fix, "%s (%s) includes CPUs %s",
			  audit_chomp(buf), path, a->cpus_str);
	}
	closedir(dp);
	if (!bad)
		audit_add(a, OSN_AUDIT_OK, "wq/queues", NULL,
			  "none of the %d workqueues with a cpumask in %s includes CPUs %s",
			  n, dir, a->cpus_str);
}

void osn_audit_check_sysctls(struct osn_audit *a)
{
	char buf[OSN_CPULIST_LEN], fix[OSN_AUDIT_FIX_LEN];
	struct osn_cpuset m, x;
	long on = 1;
	int r;

	check_int(a, "kernel/timer_migration", "/proc/sys/kernel/timer_migration",
		  "no CONFIG_SMP or CONFIG_NO_HZ_COMMON", is_zero,
		  "sysctl -w kernel.timer_migration=0",
		  "timers may be pulled across CPUs");
	check_int(a, "rcu/expedited", "/sys/kernel/rcu_expedited", "no RCU knobs",
		  is_zero, "echo 0 > /sys/kernel/rcu_expedited",
		  "every grace period is expedited: IPIs to every CPU");
	check_int(a, "rcu/normal", "/sys/kernel/rcu_normal", "no RCU knobs", is_one,
		  "echo 1 > /sys/kernel/rcu_normal (boot: rcupdate.rcu_normal_after_boot=1)",
		  "expedited grace periods send IPIs to every non-idle CPU");
	check_int(a, "sched/rt_runtime", "/proc/sys/kernel/sched_rt_runtime_us",
		  "no CONFIG_RT_GROUP_SCHED knobs", is_minus1,
		  "sysctl -w kernel.sched_rt_runtime_us=-1",
		  "RT throttling stops RT tasks for the rest of each period");
	check_int(a, "watchdog/nmi", "/proc/sys/kernel/nmi_watchdog",
		  "no CONFIG_HARDLOCKUP_DETECTOR", is_zero,
		  "sysctl -w kernel.nmi_watchdog=0 (boot: nmi_watchdog=0)",
		  "the hard-lockup detector's perf NMI fires on every CPU");
	/* watchdog_cpumask matters only while the watchdog runs */
	r = audit_rd(a, "/proc/sys/kernel/watchdog", buf, sizeof(buf));
	if (r == RD_OK && osn_parse_long(audit_chomp(buf), &on))
		on = 1;
	r = audit_rd(a, "/proc/sys/kernel/watchdog_cpumask", buf, sizeof(buf));
	if (audit_unread(a, r, "watchdog/cpumask", "/proc/sys/kernel/watchdog_cpumask",
			 "no CONFIG_LOCKUP_DETECTOR"))
		return;
	if (osn_parse_cpulist(audit_chomp(buf), OSN_MAX_CPUS, &m)) {
		audit_add(a, OSN_AUDIT_NA, "watchdog/cpumask", NULL,
			  "/proc/sys/kernel/watchdog_cpumask: %s", osn_last_err());
		return;
	}
	osn_cpuset_and(&x, &m, &a->cpus);
	snprintf(fix, sizeof(fix),
		 "sysctl -w kernel.watchdog_cpumask=%s (boot: nowatchdog)", a->hk_str);
	if (!on)
		audit_add(a, OSN_AUDIT_OK, "watchdog/cpumask", NULL,
			  "watchdog off (/proc/sys/kernel/watchdog 0)");
	else if (!osn_cpuset_empty(&x))
		audit_add(a, OSN_AUDIT_WARN, "watchdog/cpumask", fix,
			  "%s (/proc/sys/kernel/watchdog_cpumask) includes CPUs %s: the watchdog hrtimer fires there",
			  buf, a->cpus_str);
	else
		audit_add(a, OSN_AUDIT_OK, "watchdog/cpumask", NULL,
			  "%s (/proc/sys/kernel/watchdog_cpumask)", buf);
}

/* ---- CPU power -------------------------------------------------------------- */

/* What the CPUs' cpufreq and cpuidle files add up to. */
struct power_scan {
	int ncpufreq, nidle, nbadgov, nbadidle;
	char gov[512];		/* the CPUs not at "performance" */
	char deep[640];		/* their enabled idle states that exit late */
};

static void cpu_governor(struct osn_audit *a, int c, struct power_scan *p)
{
	char path[256], buf[256];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
	if (audit_rd(a, path, buf, sizeof(buf)) != RD_OK)
		return;
	p->ncpufreq++;
	if (strcmp(audit_chomp(buf), "performance") &&
	    p->nbadgov++ < LIST_MAX)
		audit_append(p->gov, sizeof(p->gov), " cpu%d:%s", c, buf);
}

/* CPU @c's enabled idle states that exit in more than IDLE_LATENCY_US. */
static void cpu_idle_states(struct osn_audit *a, int c, struct power_scan *p)
{
	char path[256], buf[256], name[64];
	long lat = -1, dis = 0;

	for (int s = 0; s < 32; s++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
			 c, s);
		if (audit_rd(a, path, buf, sizeof(buf)) != RD_OK)
			break;
		if (!s)
			p->nidle++;
		if (osn_parse_long(audit_chomp(buf), &lat))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
			 c, s);
		if (audit_rd(a, path, buf, sizeof(buf)) != RD_OK ||
		    osn_parse_long(audit_chomp(buf), &dis))
			dis = 0;
		if (dis || lat <= IDLE_LATENCY_US)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
			 c, s);
		if (audit_rd(a, path, name, sizeof(name)) != RD_OK)
			osn_strlcpy(name, "?", sizeof(name));
		if (p->nbadidle++ < LIST_MAX)
			audit_append(p->deep, sizeof(p->deep), " cpu%d:%s(%ld us)",
				     c, audit_chomp(name), lat);
	}
}

void osn_audit_check_power(struct osn_audit *a)
{
	struct power_scan p = { 0 };
	char fix[OSN_AUDIT_FIX_LEN];

	for (int c = 0; c < a->nr_cpus; c++) {
		if (!osn_cpuset_isset(&a->cpus, c))
			continue;
		cpu_governor(a, c, &p);
		cpu_idle_states(a, c, &p);
	}
	if (!p.ncpufreq)
		audit_add(a, OSN_AUDIT_NA, "cpu/governor", NULL,
			  "no cpufreq on CPUs %s (/sys/devices/system/cpu/cpuN/cpufreq absent)",
			  a->cpus_str);
	else if (p.nbadgov) {
		snprintf(fix, sizeof(fix), "cpupower -c %s frequency-set -g performance",
			 a->cpus_str);
		audit_add(a, OSN_AUDIT_WARN, "cpu/governor", fix,
			  "governor not performance (cpuN/cpufreq/scaling_governor):%s%s: frequency changes stall the CPU",
			  p.gov, p.nbadgov > LIST_MAX ? " ..." : "");
	} else {
		audit_add(a, OSN_AUDIT_OK, "cpu/governor", NULL,
			  "performance on CPUs %s (cpuN/cpufreq/scaling_governor)",
			  a->cpus_str);
	}
	if (!p.nidle)
		audit_add(a, OSN_AUDIT_NA, "cpu/idle", NULL,
			  "no cpuidle states on CPUs %s (/sys/devices/system/cpu/cpuN/cpuidle absent)",
			  a->cpus_str);
	else if (p.nbadidle) {
		snprintf(fix, sizeof(fix),
			 "cpupower -c %s idle-set -D %d (boot: processor.max_cstate=1 intel_idle.max_cstate=0)",
			 a->cpus_str, IDLE_LATENCY_US);
		audit_add(a, OSN_AUDIT_WARN, "cpu/idle", fix,
			  "idle states with exit latency > %d us enabled (cpuN/cpuidle/stateK):%s%s",
			  IDLE_LATENCY_US, p.deep, p.nbadidle > LIST_MAX ? " ..." : "");
	} else {
		audit_add(a, OSN_AUDIT_OK, "cpu/idle", NULL,
			  "no enabled idle state exits in more than %d us on CPUs %s",
			  IDLE_LATENCY_US, a->cpus_str);
	}
}

/* ---- the kernel itself ----------------------------------------------------- */

void osn_audit_check_kernel(struct osn_audit *a)
{
	const char *pfix =
		"boot with preempt=full (PREEMPT_DYNAMIC kernels), or a PREEMPT_RT kernel";
	char buf[4096], sel[64];
	int r;

	/* preemption model: debugfs (root), else /sys/kernel/realtime, uname -v */
	r = audit_rd(a, "/sys/kernel/debug/sched/preempt", buf, sizeof(buf));
	if (r == RD_OK && !osn_parse_choice(audit_chomp(buf), '(', sel, sizeof(sel))) {
		if (!strcmp(sel, "full") || !strcmp(sel, "rt"))
			audit_add(a, OSN_AUDIT_OK, "kernel/preempt", NULL,
				  "%s (/sys/kernel/debug/sched/preempt: %s)", sel, buf);
		else
			audit_add(a, OSN_AUDIT_WARN, "kernel/preempt", pfix,
				  "%s (/sys/kernel/debug/sched/preempt: %s): kernel code runs unpreempted for long",
				  sel, buf);
	} else if (audit_rd(a, "/sys/kernel/realtime", buf, sizeof(buf)) == RD_OK &&
		   !strcmp(audit_chomp(buf), "1")) {
		audit_add(a, OSN_AUDIT_OK, "kernel/preempt", NULL,
			  "PREEMPT_RT (/sys/kernel/realtime 1)");
	} else if (audit_rd(a, "/proc/sys/kernel/version", buf, sizeof(buf)) == RD_OK) {
		audit_chomp(buf);
		if (strstr(buf, "PREEMPT_RT"))
			audit_add(a, OSN_AUDIT_OK, "kernel/preempt", NULL,
				  "PREEMPT_RT (/proc/sys/kernel/version: %s)", buf);
		else if (strstr(buf, "PREEMPT_DYNAMIC"))
			audit_add(a, OSN_AUDIT_NA, "kernel/preempt", NULL,
				  "PREEMPT_DYNAMIC (/proc/sys/kernel/version: %s); the model in force is in /sys/kernel/debug/sched/preempt%s",
				  buf, r == RD_ROOT ? ", which needs root" :
				  r == RD_ABSENT ? " (debugfs not mounted)" : "");
		else if (strstr(buf, " PREEMPT "))
			audit_add(a, OSN_AUDIT_OK, "kernel/preempt", NULL,
				  "PREEMPT (/proc/sys/kernel/version: %s)", buf);
		else
			audit_add(a, OSN_AUDIT_WARN, "kernel/preempt", pfix,
				  "no PREEMPT (/proc/sys/kernel/version: %s)", buf);
	} else {
		audit_add(a, OSN_AUDIT_NA, "kernel/preempt", NULL,
			  "neither /sys/kernel/debug/sched/preempt nor /proc/sys/kernel/version could be read");
	}

	/* /sys/devices/system/cpu/nohz_full exists with CONFIG_NO_HZ_FULL */
	r = audit_rd(a, "/sys/devices/system/cpu/nohz_full", buf, sizeof(buf));
	if (r == RD_OK)
		audit_add(a, OSN_AUDIT_OK, "kernel/no_hz_full", NULL,
			  "CONFIG_NO_HZ_FULL=y (/sys/devices/system/cpu/nohz_full: %s)",
			  audit_chomp(buf));
	else if (r == RD_ABSENT)
		audit_add(a, OSN_AUDIT_WARN, "kernel/no_hz_full",
			  "a kernel built with CONFIG_NO_HZ_FULL=y",
			  "no /sys/devices/system/cpu/nohz_full: CONFIG_NO_HZ_FULL is off, nohz_full= does nothing");
	else
		audit_unread(a, r, "kernel/no_hz_full", "/sys/devices/system/cpu/nohz_full", "");

	/* upstream osnoise: osn's numbers can be compared with rtla's */
	r = audit_rd(a, "/sys/kernel/tracing/available_tracers", buf, sizeof(buf));
	if (r == RD_ABSENT)
		r = audit_rd(a, "/sys/kernel/debug/tracing/available_tracers", buf,
			     sizeof(buf));
	if (r == RD_OK && strstr(buf, "osnoise"))
		audit_add(a, OSN_AUDIT_OK, "kernel/osnoise", NULL,
			  "the osnoise tracer is available (available_tracers): rtla osnoise top -c %s measures the same CPUs for comparison",
			  a->cpus_str);
	else if (r == RD_OK)
		audit_add(a, OSN_AUDIT_NA, "kernel/osnoise", NULL,
			  "no osnoise in available_tracers (CONFIG_OSNOISE_TRACER off)");
	else
		audit_unread(a, r, "kernel/osnoise", "/sys/kernel/tracing/available_tracers",
			     "tracefs not mounted");
}
