// SPDX-License-Identifier: GPL-2.0
/*
 * audit_affinity.c - osn audit's checks of what may run on the audited
 * CPUs: the IRQs' affinities ("irq/..."), the tasks and kthreads allowed
 * there ("task/...", "tasks/...") and irqbalance.
 */
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "audit_int.h"

/* ---- IRQs ----------------------------------------------------------------- */

/* What the lines of /proc/interrupts add up to. */
struct irq_scan {
	int *cols, ncols;	/* the CPU of each column */
	uint64_t *counts;	/* a line's counts, one a column */
	int nirq, nbad, worst;
	/*
	 * The IRQs that may run on the audited CPUs, " 27 28 ...": a
	 * stream, as a big machine's may be thousands (a fixed buffer cut
	 * the list, and a cut number named another IRQ in the fix).
	 */
	FILE *list;
	char *list_text;
	size_t list_len;
};

/* One line of /proc/interrupts: a finding if its IRQ may run on the CPUs. */
static void check_irq_line(struct osn_audit *a, struct irq_scan *s,
			   const char *line)
{
	char path[1024], aff[OSN_CPULIST_LEN], eff[OSN_CPULIST_LEN], check[48];
	char irq[32], desc[512], name[128], fix[OSN_AUDIT_FIX_LEN];
	struct osn_cpuset as, es;
	bool have_eff, touch_aff, touch_eff;
	uint64_t on = 0;
	int r;

	if (osn_parse_irq_line(line, s->ncols, irq, sizeof(irq), s->counts,
			       desc, sizeof(desc), name, sizeof(name))) {
		audit_add(a, OSN_AUDIT_NA, "irq/parse", NULL, "%s", osn_last_err());
		return;
	}
	if (!isdigit((unsigned char)irq[0]))
		return;		/* per-CPU (LOC, RES, ...) or ERR/MIS */
	s->nirq++;
	for (int i = 0; i < s->ncols; i++)
		if (osn_cpuset_isset(&a->cpus, s->cols[i]))
			on += s->counts[i];
	snprintf(check, sizeof(check), "irq/%s", irq);
	snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list", irq);
	r = audit_rd(a, path, aff, sizeof(aff));
	if (r == RD_ABSENT)
		return;		/* freed since /proc/interrupts was read */
	if (audit_unread(a, r, check, path, ""))
		return;
	if (osn_parse_cpulist(audit_chomp(aff), OSN_MAX_CPUS, &as)) {
		audit_add(a, OSN_AUDIT_NA, check, NULL, "%s: %s", path, osn_last_err());
		return;
	}
	/* effective_affinity_list: 4.13+, and not for every chip */
	snprintf(path, sizeof(path), "/proc/irq/%s/effective_affinity_list", irq);
	r = audit_rd(a, path, eff, sizeof(eff));
	have_eff = r == RD_OK && *audit_chomp(eff) &&
		   !osn_parse_cpulist(eff, OSN_MAX_CPUS, &es);
	touch_aff = osn_cpuset_intersects(&as, &a->cpus);
	touch_eff = have_eff && osn_cpuset_intersects(&es, &a->cpus);
	if (!touch_aff && !touch_eff)
		return;
	s->nbad++;
	if (s->list)
		fprintf(s->list, " %s", irq);
	snprintf(fix, sizeof(fix), "echo %s > /proc/irq/%s/smp_affinity_list",
		 a->hk_str, irq);
	/* it lands there (effective), or only may (affinity) */
	r = touch_eff || (!have_eff && on) ? OSN_AUDIT_FAIL : OSN_AUDIT_WARN;
	if (r > s->worst)
		s->worst = r;
	audit_add(a, r, check, fix,
		  "%s: smp_affinity_list %s, effective_affinity_list %s (/proc/irq/%s/); %llu interrupts on CPUs %s (/proc/interrupts: %s)",
		  name, aff, have_eff ? eff : "-", irq, (unsigned long long)on,
		  a->cpus_str, desc);
}

/* /proc/interrupts could not be opened: say why (errno). */
static void irqs_unread(struct osn_audit *a)
{
	int r = errno == ENOENT ? RD_ABSENT :
		errno == EACCES ? RD_ROOT : RD_ERR;

	if (r == RD_ROOT)
		audit_need_root(a, "/proc/interrupts");
	if (r == RD_ERR)
		osn_err("/proc/interrupts: %s", strerror(errno));
	audit_unread(a, r, "irq", "/proc/interrupts", "no procfs?");
}

void osn_audit_check_irqs(struct osn_audit *a)
{
	struct irq_scan s = { .worst = OSN_AUDIT_OK };
	char path[1024], *fix = NULL, *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/interrupts", a->root);
	f = fopen(path, "r");
	if (!f) {
		irqs_unread(a);
		return;
	}
	s.cols = calloc(OSN_MAX_CPUS, sizeof(*s.cols));
	s.counts = calloc(OSN_MAX_CPUS, sizeof(*s.counts));
	s.list = open_memstream(&s.list_text, &s.list_len);
	if (!s.cols || !s.counts || !s.list)
		goto out;
	if (getline(&line, &cap, f) < 0) {
		audit_add(a, OSN_AUDIT_NA, "irq", NULL, "/proc/interrupts is empty");
		goto out;
	}
	s.ncols = osn_parse_irq_header(line, s.cols, OSN_MAX_CPUS);
	if (s.ncols < 0) {
		audit_add(a, OSN_AUDIT_NA, "irq", NULL, "%s", osn_last_err());
		goto out;
	}
	/* getline: a line holds a count per CPU, 11 characters each */
	while (getline(&line, &cap, f) >= 0)
		check_irq_line(a, &s, line);
	if (!s.nbad) {
		audit_add(a, OSN_AUDIT_OK, "irq", NULL,
			  "no IRQ's affinity touches CPUs %s (%d IRQs in /proc/interrupts)",
			  a->cpus_str, s.nirq);
	} else {
		/* the stream's text is complete once it is closed */
		if (fclose(s.list) ||
		    asprintf(&fix, "for i in%s; do echo %s > /proc/irq/$i/smp_affinity_list; done",
			     s.list_text, a->hk_str) < 0)
			fix = NULL;
		s.list = NULL;
		audit_add(a, s.worst, "irq", fix,
			  "%d of %d IRQs may run on CPUs %s (irq/N above)",
			  s.nbad, s.nirq, a->cpus_str);
	}
out:
	if (s.list)
		fclose(s.list);
	free(s.list_text);
	free(fix);
	free(line);
	free(s.cols);
	free(s.counts);
	fclose(f);
}

/* ---- tasks ----------------------------------------------------------------- */

static const char *policy_name(int p)
{
	switch (p) {
	case SCHED_OTHER: return "OTHER";
	case SCHED_FIFO: return "FIFO";
	case SCHED_RR: return "RR";
#ifdef SCHED_BATCH
	case SCHED_BATCH: return "BATCH";
#endif
#ifdef SCHED_IDLE
	case SCHED_IDLE: return "IDLE";
#endif
	case 6: return "DEADLINE";
	default: return "?";
	}
}

/*
 * A per-CPU kthread that must be there: bound to one CPU and named after
 * it ("ksoftirqd/3", "migration/3", "cpuhp/3", "rcuc/3", "ktimers/3",
 * "kworker/3:1H").
 */
static bool percpu_kthread(const struct osn_audit_task *t)
{
	int cpu = osn_cpuset_last(&t->allowed);
	const char *s = strrchr(t->comm, '/');
	char *end;
	long n;

	if (!t->kthread || osn_cpuset_count(&t->allowed) != 1 || !s)
		return false;
	n = strtol(s + 1, &end, 10);
	if (end == s + 1 || n != cpu)
		return false;
	return !*end || (*end == ':' && !strncmp(t->comm, "kworker/", 8));
}

/* How to move @t off the audited CPUs. */
static void task_fix(const struct osn_audit *a, const struct osn_audit_task *t,
		     const char *wqmask, char *fix, size_t len)
{
	int irqn = t->kthread ? osn_irq_thread_irq(t->comm) : -1;

	if (irqn >= 0)
		snprintf(fix, len,
			 "echo %s > /proc/irq/%d/smp_affinity_list (the thread follows its IRQ)",
			 a->hk_str, irqn);
	else if (t->kthread && !strncmp(t->comm, "kworker/u", 9))
		snprintf(fix, len,
			 "echo %s > /sys/devices/virtual/workqueue/cpumask",
			 wqmask);
	else if (t->no_setaffinity)
		snprintf(fix, len,
			 "none: PF_NO_SETAFFINITY, the kernel places it (workqueue rescuers run only when their workqueue is starved of workers)");
	else
		snprintf(fix, len, "taskset -pc %s %d%s", a->hk_str,
			 t->pid, t->kthread ? "" :
			 " (unless it is the workload these CPUs are for)");
}

void osn_audit_check_tasks(struct osn_audit *a)
{
	char fix[OSN_AUDIT_FIX_LEN], check[48], al[OSN_CPULIST_LEN];
	char percpu[512] = "", users[512] = "", wqmask[OSN_HEXMASK_LEN];
	int npercpu = 0, nusers = 0, irqbalance = -1;

	if (!a->tasks) {
		audit_add(a, OSN_AUDIT_NA, "irqbalance", NULL, "tasks not read: %s",
			  a->tasks_why ? a->tasks_why : "?");
		audit_add(a, OSN_AUDIT_NA, "tasks", NULL, "tasks not read: %s",
			  a->tasks_why ? a->tasks_why : "?");
		return;
	}
	osn_format_hexmask(&a->hk, wqmask, sizeof(wqmask));
	for (int i = 0; i < a->nr_tasks; i++) {
		const struct osn_audit_task *t = &a->tasks[i];

		if (!t->kthread && !strcmp(t->comm, "irqbalance"))
			irqbalance = t->pid;
		if (!osn_cpuset_intersects(&t->allowed, &a->cpus))
			continue;
		osn_format_cpulist(&t->allowed, al, sizeof(al));
		snprintf(check, sizeof(check), "task/%d", t->pid);
		if (percpu_kthread(t)) {
			if (npercpu++ < LIST_MAX)
				audit_append(percpu, sizeof(percpu), " %s", t->comm);
			continue;
		}
		if (!t->kthread && osn_cpuset_covers(&t->allowed, &a->online)) {
			if (nusers++ < LIST_MAX)
				audit_append(users, sizeof(users), " %s(%d)", t->comm, t->pid);
			continue;
		}
		task_fix(a, t, wqmask, fix, sizeof(fix));
		audit_add(a, OSN_AUDIT_WARN, check, fix,
			  "%s %s (pid %d, state %c, %s %d) may run on CPUs %s (allowed %s)",
			  t->kthread ? "kthread" : "task", t->comm, t->pid,
			  t->state ? t->state : '?', policy_name(t->policy), t->prio,
			  a->cpus_str, al);
	}
	if (irqbalance >= 0)
		audit_add(a, OSN_AUDIT_WARN, "irqbalance",
			  "systemctl stop irqbalance, or IRQBALANCE_BANNED_CPULIST=<audited CPUs> in /etc/default/irqbalance",
			  "irqbalance runs (pid %d): it rewrites IRQ affinities", irqbalance);
	else
		audit_add(a, OSN_AUDIT_OK, "irqbalance", NULL, "irqbalance is not running");
	audit_add(a, OSN_AUDIT_OK, "tasks/percpu", NULL,
		  "%d per-CPU kthreads bound to CPUs %s, which must be there:%s%s",
		  npercpu, a->cpus_str, percpu, npercpu > LIST_MAX ? " ..." : "");
	if (nusers) {
		snprintf(fix, sizeof(fix),
			 "boot with isolcpus=domain,%s, or systemctl set-property --runtime init.scope system.slice user.slice AllowedCPUs=%s",
			 a->cpus_str, a->hk_str);
		audit_add(a, OSN_AUDIT_WARN, "tasks/unpinned", fix,
			  "%d user tasks allowed on every CPU may run on CPUs %s:%s%s",
			  nusers, a->cpus_str, users, nusers > LIST_MAX ? " ..." : "");
	} else {
		audit_add(a, OSN_AUDIT_OK, "tasks/unpinned", NULL,
			  "no user task is allowed on every CPU");
	}
}
