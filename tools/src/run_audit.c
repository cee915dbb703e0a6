// SPDX-License-Identifier: GPL-2.0
/*
 * run_audit.c - --audit in a run (see run.h): the noise sources seen
 * during the run, tied after it to the findings of osn audit (audit.c).
 */
#include <stdlib.h>

#include "run.h"

int osn_run_audit_attach(struct osn_tool *t)
{
	if (!(t->ops->parts & OSN_PART_AUDIT) || !t->p->audit)
		return 0;
	t->audit = calloc(1, sizeof(*t->audit));
	return t->audit ? 0 : osn_err("out of memory");
}

void osn_run_audit_event(struct osn_tool *t, const struct osn_event *ev)
{
	if (t->audit)
		osn_sources_event(&t->audit->sources, ev);
}

/*
 * --audit: read the system after the run (not before: reading every
 * task's /proc files would be noise of the run itself; and tasks that
 * appeared during it are seen), and tie the sources seen and the stop
 * explanation's parts to its findings.  An audit that cannot run (every
 * CPU measured: no housekeeping CPU) says why and the run goes on.
 */
void osn_run_audit_end(struct osn_tool *t)
{
	struct osn_audit_run *ar = t->audit;
	struct osn_explanation *why = osn_run_stop_why(t);

	if (!ar)
		return;
	if (osn_audit_init(&ar->audit, NULL, t->cpus_str)) {
		osn_warn("--audit: %s", osn_last_err());
		return;
	}
	ar->tasks = osn_audit_read_tasks(&ar->audit.nr_tasks,
					 &ar->audit.tasks_why);
	ar->audit.tasks = ar->tasks;
	osn_audit_run(&ar->audit);
	ar->done = true;
	osn_sources_explain(&ar->sources, &ar->audit);
	if (why)
		for (size_t i = 0; i < why->nparts; i++) {
			struct osn_part *p = &why->parts[i];

			p->finding = osn_audit_explain(&ar->audit, p->cls,
						       p->name, p->id);
		}
}

const struct osn_sources *osn_run_audit_sources(const struct osn_tool *t)
{
	return t->audit && t->audit->done ? &t->audit->sources : NULL;
}

void osn_run_audit_free(struct osn_tool *t)
{
	struct osn_audit_run *ar = t->audit;

	if (!ar)
		return;
	osn_sources_free(&ar->sources);
	if (ar->done)
		osn_audit_free(&ar->audit);
	free(ar->tasks);
	free(ar);
	t->audit = NULL;
}
