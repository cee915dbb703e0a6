// SPDX-License-Identifier: GPL-2.0
/*
 * run_causes.c - --causes in a run (see run.h): the culprits of the
 * noise (causes.c), from osn:noise_cause and the noise events it links
 * to, ranked and named for the reports.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "osn/osn_abi.h"
#include "run.h"

int osn_run_causes_attach(struct osn_tool *t)
{
	if (!(t->ops->parts & OSN_PART_CAUSES) || !t->p->causes)
		return 0;
	t->causes = malloc(sizeof(*t->causes));
	if (!t->causes || osn_causes_init(t->causes, t->nr_cpus)) {
		free(t->causes);
		t->causes = NULL;
		return osn_err("out of memory");
	}
	return 0;
}

/*
 * --causes: osn:noise_cause and the noise events it links to (by CPU,
 * class and start), in the tool's instance; --audit: the noise events,
 * whose sources it looks up among the audit's findings.
 */
int osn_run_causes_events(struct osn_tool *t)
{
	static const char * const evs[] = {
		OSN_EV_NOISE_CAUSE, OSN_EV_IRQ_NOISE, OSN_EV_SOFTIRQ_NOISE,
		OSN_EV_THREAD_NOISE,
	};

	if (!t->causes && !t->audit)
		return 0;
	if (t->stop)	/* every osn event is on already */
		return 0;
	/* --audit alone: the noise events, for their sources */
	for (size_t i = t->causes ? 0 : 1; i < ARRAY_SIZE(evs); i++)
		if (osn_event_enable(t->inst, OSN_EVENT_SYSTEM, evs[i]))
			return -1;
	return 0;
}

void osn_run_causes_rank(struct osn_tool *t)
{
	if (!t->causes)
		return;
	osn_causes_sort(t->causes);
	osn_decoder_name_culprits(&t->dec, t->causes);
}

void osn_run_causes_free(struct osn_tool *t)
{
	if (!t->causes)
		return;
	osn_causes_free(t->causes);
	free(t->causes);
	t->causes = NULL;
}
