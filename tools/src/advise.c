// SPDX-License-Identifier: GPL-2.0
/*
 * advise.c - --audit: tie the noise measured to the audit's findings.
 * See advise.h.
 */
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "util.h"

void osn_sources_event(struct osn_sources *ss, const struct osn_event *ev)
{
	int cls = osn_event_class(ev->type);
	const char *name;
	struct osn_source *s;

	if (ev->type != OSN_E_IRQ && ev->type != OSN_E_SOFTIRQ &&
	    ev->type != OSN_E_THREAD)
		return;
	name = ev->type == OSN_E_SOFTIRQ ? osn_softirq_name(ev->noise.id) :
					   ev->noise.name;
	for (size_t i = 0; i < ss->n; i++) {
		s = &ss->s[i];
		if (s->cpu == ev->cpu && s->cls == cls && s->id == ev->noise.id &&
		    !strcmp(s->name, name)) {
			s->count++;
			s->time += ev->noise.duration;
			return;
		}
	}
	/* a bound: a fork storm must not grow the tool without end */
	if (ss->n == OSN_SOURCES_MAX) {
		ss->dropped++;
		return;
	}
	if (ss->n == ss->cap) {
		size_t cap = ss->cap ? 2 * ss->cap : 32;
		struct osn_source *n = realloc(ss->s, cap * sizeof(*n));

		if (!n) {
			ss->dropped++;
			return;
		}
		ss->s = n;
		ss->cap = cap;
	}
	s = &ss->s[ss->n++];
	memset(s, 0, sizeof(*s));
	s->cpu = ev->cpu;
	s->cls = cls;
	s->id = ev->noise.id;
	osn_strlcpy(s->name, name, sizeof(s->name));
	s->count = 1;
	s->time = ev->noise.duration;
}

void osn_sources_free(struct osn_sources *ss)
{
	free(ss->s);
	memset(ss, 0, sizeof(*ss));
}

/* The finding @check if it is not ok (warn or fail), else NULL. */
static const struct osn_audit_finding *bad(const struct osn_audit *a,
					   const char *check)
{
	const struct osn_audit_finding *f = osn_audit_find(a, check);

	return f && (f->status == OSN_AUDIT_WARN || f->status == OSN_AUDIT_FAIL) ?
	       f : NULL;
}

/*
 * Device IRQ @irq's finding, if its evidence names @name: the id of an
 * irq_noise is a vector for the CPU's own interrupts (local_timer:236),
 * which must not be taken for IRQ 236 of /proc/interrupts.
 */
static const struct osn_audit_finding *irq_finding(const struct osn_audit *a,
						   int irq, const char *name)
{
	const struct osn_audit_finding *f;
	char check[48];
	size_t n = strlen(name);

	snprintf(check, sizeof(check), "irq/%d", irq);
	f = bad(a, check);
	if (!f || !n)
		return NULL;
	/* the evidence starts with the IRQ's action name(s): "name: ..." */
	return strstr(f->evidence, name) == f->evidence &&
	       (f->evidence[n] == ':' || f->evidence[n] == ',') ? f : NULL;
}

/*
 * A user task allowed on every CPU has no task/PID finding of its own:
 * the audit lists those together (tasks/unpinned).
 */
static bool unpinned_user_task(const struct osn_audit *a, int pid)
{
	for (int i = 0; a->tasks && i < a->nr_tasks; i++) {
		const struct osn_audit_task *t = &a->tasks[i];

		if (t->pid == pid)
			return !t->kthread && osn_cpuset_covers(&t->allowed, &a->online);
	}
	return false;
}

static bool prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

const struct osn_audit_finding *osn_audit_explain(const struct osn_audit *a,
						  int cls, const char *name,
						  int id)
{
	const struct osn_audit_finding *f;
	char check[48];
	int irq;

	switch (cls) {
	case OSN_CLASS_IRQ:
		/*
		 * The tick: x86's local APIC timer vector, or arm64's arch
		 * timer, a per-CPU interrupt (PPI) no affinity can move,
		 * reported by its handler's name and IRQ number.
		 */
		if (!strcmp(name, "local_timer") || !strcmp(name, "arch_timer"))
			return bad(a, "boot/nohz_full");
		return id >= 0 ? irq_finding(a, id, name) : NULL;
	case OSN_CLASS_SOFTIRQ:
		if (!strcmp(name, "TIMER") || !strcmp(name, "HRTIMER") ||
		    !strcmp(name, "SCHED"))
			return bad(a, "boot/nohz_full");
		if (!strcmp(name, "RCU"))
			return bad(a, "boot/rcu_nocbs");
		return NULL;
	case OSN_CLASS_THREAD:
		irq = osn_irq_thread_irq(name);
		if (irq >= 0) {
			snprintf(check, sizeof(check), "irq/%d", irq);
			f = bad(a, check);
			if (f)
				return f;
		}
		snprintf(check, sizeof(check), "task/%d", id);
		f = bad(a, check);
		if (f)
			return f;
		if (unpinned_user_task(a, id))
			return bad(a, "tasks/unpinned");
		if (prefix(name, "rcuc/") || prefix(name, "rcuop/") ||
		    prefix(name, "rcuog/"))
			return bad(a, "boot/rcu_nocbs");
		if (prefix(name, "ktimers/"))
			return bad(a, "boot/nohz_full");
		return NULL;
	default:
		return NULL;
	}
}

static int cmp_time(const void *x, const void *y)
{
	const struct osn_source *a = x, *b = y;

	if (a->time != b->time)
		return a->time < b->time ? 1 : -1;
	return a->cpu - b->cpu;
}

void osn_sources_explain(struct osn_sources *ss, const struct osn_audit *a)
{
	for (size_t i = 0; i < ss->n; i++)
		ss->s[i].finding = osn_audit_explain(a, ss->s[i].cls,
						     ss->s[i].name, ss->s[i].id);
	if (ss->n)
		qsort(ss->s, ss->n, sizeof(*ss->s), cmp_time);
}

static void source_label(char *buf, size_t len, const struct osn_source *s)
{
	if (s->cls == OSN_CLASS_SOFTIRQ)
		snprintf(buf, len, "%s", s->name);
	else
		snprintf(buf, len, "%s:%d", s->name, s->id);
}

void osn_render_advice(FILE *f, const struct osn_sources *ss)
{
	uint64_t other = 0, other_ns = 0;
	char src[OSN_NAME_LEN + 16], v[32];
	size_t shown = 0;

	fprintf(f, "osn audit: the findings behind the noise measured (osn audit for every check)\n");
	for (size_t i = 0; i < ss->n; i++) {
		const struct osn_source *s = &ss->s[i];

		if (!s->finding) {
			other++;
			other_ns += s->time;
			continue;
		}
		source_label(src, sizeof(src), s);
		osn_format_us3(s->time, v, sizeof(v));
		fprintf(f, "  cpu %d %-7s %-24s %7llu x %14s us  %s %s\n",
			s->cpu, osn_class_names[s->cls], src,
			(unsigned long long)s->count, v,
			osn_audit_status_name(s->finding->status),
			s->finding->check);
		fprintf(f, "      %s\n", s->finding->evidence);
		fprintf(f, "      => %s\n", s->finding->fix);
		shown++;
	}
	if (!shown)
		fprintf(f, "  no finding of the audit explains the noise measured\n");
	if (other) {
		osn_format_us3(other_ns, v, sizeof(v));
		fprintf(f, "  %llu other source%s (%s us): no finding explains them%s\n",
			(unsigned long long)other, other == 1 ? "" : "s", v,
			ss->dropped ? " (some sources were not counted: too many)" : "");
	}
}

void osn_json_advice(struct osn_json *j, const struct osn_sources *ss)
{
	char src[OSN_NAME_LEN + 16];

	osn_json_key(j, "audit");
	osn_json_arr_begin(j);
	for (size_t i = 0; i < ss->n; i++) {
		const struct osn_source *s = &ss->s[i];

		source_label(src, sizeof(src), s);
		osn_json_obj_begin(j);
		osn_json_key(j, "cpu");
		osn_json_i64(j, s->cpu);
		osn_json_kstr(j, "class", osn_class_names[s->cls]);
		osn_json_kstr(j, "source", src);
		osn_json_ku64(j, "count", s->count);
		osn_json_kus(j, "time", s->time);
		if (s->finding) {
			osn_json_kstr(j, "check", s->finding->check);
			osn_json_kstr(j, "status",
				      osn_audit_status_name(s->finding->status));
			osn_json_kstr(j, "evidence", s->finding->evidence);
			osn_json_kstr(j, "fix", s->finding->fix);
		} else {
			osn_json_key(j, "check");
			osn_json_null(j);
		}
		osn_json_obj_end(j);
	}
	osn_json_arr_end(j);
}
