// SPDX-License-Identifier: GPL-2.0
/*
 * run_causes.c - --causes in a run (see run.h): the culprits of the
 * noise (causes.c), from osn:noise_cause and the noise events it links
 * to, ranked and named for the reports.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

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

/* Longest wait for the cause probes, and between two looks. */
#define CAUSES_WAIT_NS		(5ULL * 1000000000ULL)
#define CAUSES_POLL_US		10000

static bool causes_live(void)
{
	char v[8];

	osn_run_read_report(OSN_PARAM_CAUSES_LIVE, v, sizeof(v));
	return v[0] == 'Y';
}

/*
 * osn:noise_cause is on (--causes, or a stop to explain): the module
 * hooks the cause probes in its own work item, after the run's events
 * went on, so wait until it says they are hooked: else the first noises
 * of the run have no culprit (on PREEMPT_RT under TCG, the hrtimer
 * probe came over a second after collection began, and a test's 15
 * injected stalls all went without theirs).  A kernel that does not say
 * (an older osn.ko) or takes longer than the wait: a warning, and on.
 */
void osn_run_causes_wait(struct osn_tool *t)
{
	uint64_t end = osn_mono_ns() + CAUSES_WAIT_NS;
	char v[8];

	/* osn:noise_cause on in the instance: --causes, a stop armed */
	if (!osn_event_is_on(t->inst, OSN_EV_NOISE_CAUSE))
		return;
	osn_run_read_report(OSN_PARAM_CAUSES_LIVE, v, sizeof(v));
	if (!v[0])
		return;		/* an osn.ko without the report */
	while (!causes_live()) {
		if (osn_interrupted)
			return;
		if (osn_mono_ns() >= end) {
			osn_warn("the module's cause probes are not hooked after %llu s: the first noises may lack their culprits",
				 CAUSES_WAIT_NS / 1000000000ULL);
			return;
		}
		usleep(CAUSES_POLL_US);
	}
	osn_debug("cause probes hooked");
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
