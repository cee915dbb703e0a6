/* SPDX-License-Identifier: GPL-2.0 */
/*
 * advise.h - --audit: tie the noise measured to the audit's findings
 * (pure code).
 *
 * osn audit says what in a machine's set-up may disturb the audited CPUs;
 * osn top/hist measure what did.  With --audit, each source of noise seen
 * on a measured CPU (an IRQ, a softirq, a thread) is looked up among the
 * findings that are not ok: a device IRQ's own irq/N finding, a task's
 * task/PID (or its IRQ's, for an IRQ thread), the tick and the timer
 * softirqs' boot/nohz_full, RCU's boot/rcu_nocbs.  A source no finding
 * explains is counted, never given a guessed fix; IPIs are left to
 * --causes, which names their senders.
 */
#ifndef OSN_ADVISE_H
#define OSN_ADVISE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "audit.h"
#include "event.h"
#include "json.h"

/* A source of noise on one CPU, over the run. */
struct osn_source {
	int cpu;
	int cls;			/* enum osn_class */
	int id;				/* IRQ number or vector, softirq, pid */
	char name[OSN_NAME_LEN];	/* irq desc, softirq name, comm */
	uint64_t count;
	uint64_t time;			/* ns, interference-free */
	const struct osn_audit_finding *finding;	/* osn_sources_explain() */
};

struct osn_sources {
	struct osn_source *s;
	size_t n, cap;
	size_t dropped;			/* past OSN_SOURCES_MAX */
};

#define OSN_SOURCES_MAX	4096

/* Feed one event (irq, softirq and thread noise; others are ignored). */
void osn_sources_event(struct osn_sources *ss, const struct osn_event *ev);
void osn_sources_free(struct osn_sources *ss);

/*
 * The finding (warn or fail) that explains noise of class @cls from the
 * source @name/@id, or NULL.
 */
const struct osn_audit_finding *osn_audit_explain(const struct osn_audit *a,
						  int cls, const char *name,
						  int id);

/* Look every source's finding up, and sort them by time, descending. */
void osn_sources_explain(struct osn_sources *ss, const struct osn_audit *a);

/* "osn audit: ..." lines for the sources a finding explains. */
void osn_render_advice(FILE *f, const struct osn_sources *ss);
/* "audit": [{cpu, class, source, id, count, time, check, status, fix}] */
void osn_json_advice(struct osn_json *j, const struct osn_sources *ss);

#endif
