// SPDX-License-Identifier: GPL-2.0
/*
 * audit_boot.c - osn audit's "boot/" checks: the isolation parameters of
 * the kernel command line (isolcpus=, nohz_full=, rcu_nocbs=,
 * irqaffinity=, the flags) and whether they agree with each other.
 */
#include <stdio.h>
#include <string.h>

#include "audit.h"
#include "audit_int.h"

/*
 * A cpulist parameter: "boot/NAME" says whether it covers the audited
 * CPUs.  Returns 1 and fills @set when it is given and parses.
 */
static int boot_cpulist(struct osn_audit *a, const char *name, const char *why,
			struct osn_cpuset *set)
{
	char v[OSN_AUDIT_CMDLINE_LEN], check[48], fix[OSN_AUDIT_FIX_LEN];
	struct osn_cpuset miss;
	int r = osn_cmdline_param(a->cmdline, name, v, sizeof(v));

	snprintf(check, sizeof(check), "boot/%s", name);
	snprintf(fix, sizeof(fix), "boot with %s=%s", name, a->cpus_str);
	if (r == 0) {
		audit_add(a, OSN_AUDIT_WARN, check, fix, "no %s= in /proc/cmdline (%s)",
			  name, why);
		return 0;
	}
	if (r == 1 && !strcmp(name, "rcu_nocbs")) {
		/* 5.20+: a bare rcu_nocbs makes every CPU offloadable */
		audit_add(a, OSN_AUDIT_OK, check, NULL,
			  "rcu_nocbs without a list in /proc/cmdline: every CPU may be offloaded");
		osn_cpuset_zero(set);
		for (int c = 0; c < a->nr_cpus; c++)
			osn_cpuset_set(set, c);
		return 1;
	}
	if (r == 1 || osn_parse_cpulist(v, a->nr_cpus, set)) {
		audit_add(a, OSN_AUDIT_FAIL, check, fix,
			  "%s='%s' in /proc/cmdline does not parse: %s (the kernel ignores it)",
			  name, v, r == 1 ? "no cpu list" : osn_last_err());
		return 0;
	}
	osn_cpuset_and_not(&miss, &a->cpus, set);
	if (osn_cpuset_empty(&miss)) {
		audit_add(a, OSN_AUDIT_OK, check, NULL, "%s=%s in /proc/cmdline", name, v);
	} else {
		char m[OSN_CPULIST_LEN];

		osn_format_cpulist(&miss, m, sizeof(m));
		audit_add(a, OSN_AUDIT_WARN, check, fix,
			  "%s=%s in /proc/cmdline leaves out CPUs %s", name, v, m);
	}
	return 1;
}

/* A flag parameter that should be given (nosoftlockup, rcu_nocb_poll...). */
static void boot_flag(struct osn_audit *a, const char *name, const char *want,
		      const char *why)
{
	char v[256], check[48], fix[OSN_AUDIT_FIX_LEN];
	int r = osn_cmdline_param(a->cmdline, name, v, sizeof(v));

	snprintf(check, sizeof(check), "boot/%s", name);
	snprintf(fix, sizeof(fix), "boot with %s%s%s", name, want ? "=" : "",
		 want ? want : "");
	if (r && (!want || (r == 2 && !strcmp(v, want))))
		audit_add(a, OSN_AUDIT_OK, check, NULL, "%s%s%s in /proc/cmdline", name,
			  r == 2 ? "=" : "", r == 2 ? v : "");
	else if (r == 2)
		audit_add(a, OSN_AUDIT_WARN, check, fix, "%s=%s in /proc/cmdline (%s)",
			  name, v, why);
	else
		audit_add(a, OSN_AUDIT_WARN, check, fix, "no %s%s%s in /proc/cmdline (%s)",
			  name, want ? "=" : "", want ? want : "", why);
}

/* The CPU lists of the command line, those that were given and parse. */
struct boot_lists {
	struct osn_cpuset isol, nohz, nocb, irqa;
	bool has_isol, has_nohz, has_nocb, has_irqa;
};

/* isolcpus=, with its flags */
static void boot_isolcpus(struct osn_audit *a, struct boot_lists *b)
{
	char v[OSN_AUDIT_CMDLINE_LEN], fix[OSN_AUDIT_FIX_LEN];
	char s1[OSN_CPULIST_LEN];
	struct osn_cpuset x;
	unsigned int fl = 0;
	int r;

	snprintf(fix, sizeof(fix), "boot with isolcpus=domain,managed_irq,%s",
		 a->cpus_str);
	r = osn_cmdline_param(a->cmdline, "isolcpus", v, sizeof(v));
	if (!r) {
		audit_add(a, OSN_AUDIT_WARN, "boot/isolcpus", fix,
			  "no isolcpus= in /proc/cmdline (the scheduler balances tasks onto CPUs %s)",
			  a->cpus_str);
		return;
	}
	if (r == 1 || osn_parse_isolcpus(v, a->nr_cpus, &fl, &b->isol)) {
		audit_add(a, OSN_AUDIT_FAIL, "boot/isolcpus", fix,
			  "isolcpus='%s' in /proc/cmdline does not parse: %s", v,
			  r == 1 ? "no cpu list" : osn_last_err());
		return;
	}
	b->has_isol = true;
	osn_cpuset_and_not(&x, &a->cpus, &b->isol);
	osn_format_cpulist(&x, s1, sizeof(s1));
	if (!osn_cpuset_empty(&x))
		audit_add(a, OSN_AUDIT_WARN, "boot/isolcpus", fix,
			  "isolcpus=%s in /proc/cmdline leaves out CPUs %s", v, s1);
	else if (!(fl & OSN_ISOL_DOMAIN))
		audit_add(a, OSN_AUDIT_WARN, "boot/isolcpus", fix,
			  "isolcpus=%s in /proc/cmdline: flags without 'domain' keep the CPUs in the scheduler domains",
			  v);
	else if (!(fl & OSN_ISOL_MANAGED_IRQ))
		audit_add(a, OSN_AUDIT_WARN, "boot/isolcpus", fix,
			  "isolcpus=%s in /proc/cmdline: no 'managed_irq' flag: managed (multiqueue) IRQs may target CPUs %s",
			  v, a->cpus_str);
	else
		audit_add(a, OSN_AUDIT_OK, "boot/isolcpus", NULL,
			  "isolcpus=%s in /proc/cmdline", v);
}

/* irqaffinity=: the default affinity of IRQs, the housekeeping CPUs */
static void boot_irqaffinity(struct osn_audit *a, struct boot_lists *b)
{
	char v[OSN_AUDIT_CMDLINE_LEN], fix[OSN_AUDIT_FIX_LEN];
	char s1[OSN_CPULIST_LEN];
	struct osn_cpuset x;
	int r;

	snprintf(fix, sizeof(fix), "boot with irqaffinity=%s", a->hk_str);
	r = osn_cmdline_param(a->cmdline, "irqaffinity", v, sizeof(v));
	if (!r) {
		audit_add(a, OSN_AUDIT_WARN, "boot/irqaffinity", fix,
			  "no irqaffinity= in /proc/cmdline (new IRQs may target every CPU)");
	} else if (r == 1 || osn_parse_cpulist(v, a->nr_cpus, &b->irqa)) {
		audit_add(a, OSN_AUDIT_FAIL, "boot/irqaffinity", fix,
			  "irqaffinity='%s' in /proc/cmdline does not parse: %s", v,
			  r == 1 ? "no cpu list" : osn_last_err());
	} else if (osn_cpuset_intersects(&b->irqa, &a->cpus)) {
		b->has_irqa = true;
		osn_cpuset_and(&x, &b->irqa, &a->cpus);
		osn_format_cpulist(&x, s1, sizeof(s1));
		audit_add(a, OSN_AUDIT_FAIL, "boot/irqaffinity", fix,
			  "irqaffinity=%s in /proc/cmdline includes audited CPUs %s", v, s1);
	} else {
		b->has_irqa = true;
		audit_add(a, OSN_AUDIT_OK, "boot/irqaffinity", NULL,
			  "irqaffinity=%s in /proc/cmdline", v);
	}
}

/* Consistency among the lists that were given. */
static void boot_consistency(struct osn_audit *a, const struct boot_lists *b)
{
	char fix[OSN_AUDIT_FIX_LEN], s1[OSN_CPULIST_LEN], s2[OSN_CPULIST_LEN];
	struct osn_cpuset x;

	if (!b->has_isol && !b->has_nohz && !b->has_nocb && !b->has_irqa) {
		audit_add(a, OSN_AUDIT_NA, "boot/consistency", NULL,
			  "no isolation parameter in /proc/cmdline");
		return;
	}
	if (b->has_nohz && b->has_nocb && !osn_cpuset_covers(&b->nocb, &b->nohz)) {
		osn_cpuset_and_not(&x, &b->nohz, &b->nocb);
		osn_format_cpulist(&x, s1, sizeof(s1));
		snprintf(fix, sizeof(fix), "boot with rcu_nocbs= including %s", s1);
		audit_add(a, OSN_AUDIT_WARN, "boot/consistency", fix,
			  "nohz_full CPUs %s are not in rcu_nocbs", s1);
	} else if (b->has_isol && b->has_nohz &&
		   (!osn_cpuset_covers(&b->isol, &b->nohz) ||
		    !osn_cpuset_covers(&b->nohz, &b->isol))) {
		osn_format_cpulist(&b->isol, s1, sizeof(s1));
		osn_format_cpulist(&b->nohz, s2, sizeof(s2));
		snprintf(fix, sizeof(fix), "boot with the same list in isolcpus= and nohz_full=");
		audit_add(a, OSN_AUDIT_WARN, "boot/consistency", fix,
			  "isolcpus CPUs %s differ from nohz_full CPUs %s", s1, s2);
	} else if (b->has_irqa &&
		   ((b->has_isol && osn_cpuset_intersects(&b->irqa, &b->isol)) ||
		    (b->has_nohz && osn_cpuset_intersects(&b->irqa, &b->nohz)))) {
		osn_format_cpulist(&b->irqa, s1, sizeof(s1));
		audit_add(a, OSN_AUDIT_FAIL, "boot/consistency",
			  "boot with irqaffinity= naming only housekeeping CPUs",
			  "irqaffinity=%s includes isolated CPUs", s1);
	} else if (b->has_nohz && osn_cpuset_covers(&b->nohz, &a->hk) &&
		   osn_cpuset_covers(&b->nohz, &a->cpus)) {
		audit_add(a, OSN_AUDIT_FAIL, "boot/consistency",
			  "boot with nohz_full= leaving one CPU for housekeeping",
			  "nohz_full names every CPU: no housekeeping CPU is left");
	} else {
		audit_add(a, OSN_AUDIT_OK, "boot/consistency", NULL,
			  "the isolation parameters given agree");
	}
}

void osn_audit_check_boot(struct osn_audit *a)
{
	struct boot_lists b = { 0 };

	if (!a->have_cmdline) {
		audit_add(a, OSN_AUDIT_NA, "boot", NULL, "cannot read /proc/cmdline");
		return;
	}
	boot_isolcpus(a, &b);
	b.has_nohz = boot_cpulist(a, "nohz_full",
				  "the scheduler tick runs on every CPU", &b.nohz);
	b.has_nocb = boot_cpulist(a, "rcu_nocbs",
				  "RCU callbacks run on the CPUs that queued them",
				  &b.nocb);
	boot_irqaffinity(a, &b);
	boot_flag(a, "rcu_nocb_poll", NULL,
		  "the rcuog kthreads are woken from the offloaded CPUs");
	boot_flag(a, "skew_tick", "1",
		  "the CPUs' ticks fire together and contend on jiffies_lock");
	boot_flag(a, "nosoftlockup", NULL,
		  "the soft-lockup detector's hrtimer fires on every CPU");
	boot_flag(a, "nowatchdog", NULL,
		  "the watchdogs' hrtimer and perf NMI fire on every CPU");
	if (a->x86)
		boot_flag(a, "tsc", "reliable",
			  "the clocksource watchdog checks the TSC periodically; only if the TSC is known stable");
	else
		audit_add(a, OSN_AUDIT_NA, "boot/tsc", NULL, "tsc=reliable is x86 only");
	boot_consistency(a, &b);
}
