// SPDX-License-Identifier: GPL-2.0
/*
 * run_cpus.c - the CPUs of a run (see run.h): which are measured, what
 * is read, and where osn itself runs.
 */
#include <stdlib.h>

#include "run.h"
#include "threads.h"

/* The housekeeping CPUs: -H, or the online CPUs not measured. */
static int move_to_housekeeping(struct osn_tool *t,
				const struct osn_cpuset *online)
{
	struct osn_cpuset hk;

	if (t->p->have_hk)
		return osn_set_affinity(&t->p->hk);
	osn_cpuset_and_not(&hk, online, &t->measured);
	return osn_cpuset_empty(&hk) ? 0 : osn_set_affinity(&hk);
}

/* Which CPUs are measured, and what goes to the cpus knob. */
int osn_run_cpus_pick(struct osn_tool *t)
{
	struct osn_cpuset online;
	int n = 0;

	if (osn_online_cpus(&online))
		return osn_err("cannot read the online CPUs");
	osn_cpuset_zero(&t->measured);
	for (int c = 0; c < t->nr_cpus; c++) {
		bool want = t->p->have_cpus ? osn_cpuset_isset(&t->p->cpus, c) : true;

		if (want && osn_cpuset_isset(&online, c))
			osn_cpuset_set(&t->measured, c);
		else if (want && t->p->have_cpus)
			osn_warn("cpu %d is offline: not measured", c);
	}
	if (osn_cpuset_empty(&t->measured))
		return osn_err("-c: none of these cpus is online");
	t->cpus = calloc(t->nr_cpus, sizeof(int));
	if (!t->cpus)
		return osn_err("out of memory");
	for (int c = 0; c < t->nr_cpus; c++)
		if (osn_cpuset_isset(&t->measured, c))
			t->cpus[n++] = c;
	t->ncpus = n;
	if (osn_knob_cpulist(&t->measured, t->cpus_str))
		return -1;
	/*
	 * The buffers the reads open: with -c, the measured CPUs' (osn writes
	 * its events on the CPU it measures); without, every CPU's (one that
	 * comes online later is measured too).
	 */
	if (t->p->have_cpus) {
		t->read_set = osn_cpuset_to_glibc(&t->measured,
						  &t->read_set_size);
		if (!t->read_set)
			return osn_err("out of memory");
	}
	return move_to_housekeeping(t, &online);
}
