// SPDX-License-Identifier: GPL-2.0
/*
 * run_knobs.c - the module in a run (see run.h): its knobs saved (in the
 * session's journal, restored at the end or by osn cleanup) and written
 * for the run, its options knob checked, its read-only reports read.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "run.h"

/*
 * One read-only report of the module (OSN_PARAM_DIR/name), its first line
 * without the newline; "" when it cannot be read.
 */
void osn_run_read_report(const char *name, char *buf, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", OSN_PARAM_DIR, name);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Longest wait for a report to say Y, and between two looks. */
#define LIVE_WAIT_NS		(5ULL * 1000000000ULL)
#define LIVE_POLL_US		10000

/*
 * The module starts a run, and hooks its cause probes, in its own work
 * item after the events that ask for them are enabled (on PREEMPT_RT
 * under TCG, over a second later): until the report @name says Y, the
 * noise is not seen, or has no culprit.  Wait for it (5 s at most: then
 * a warning that @what, and on).  A module without the report (an older
 * osn.ko): no wait.
 */
void osn_run_wait_report(const char *name, const char *what)
{
	uint64_t end = osn_mono_ns() + LIVE_WAIT_NS;
	char v[8];

	osn_run_read_report(name, v, sizeof(v));
	if (!v[0])
		return;
	while (v[0] != 'Y') {
		if (osn_interrupted)
			return;
		if (osn_mono_ns() >= end) {
			osn_warn("the module says no %s after %llu s: the first noises may be %s",
				 name, LIVE_WAIT_NS / 1000000000ULL, what);
			return;
		}
		usleep(LIVE_POLL_US);
		osn_run_read_report(name, v, sizeof(v));
	}
	osn_debug("module: %s", name);
}

void osn_run_wait_live(struct osn_tool *t)
{
	/* some osn event on in the instance: a run is wanted (or on) */
	if (!osn_event_is_on(t->inst, NULL))
		return;
	osn_run_wait_report(OSN_PARAM_RUNNING, "missed");
	/* osn:noise_cause on in the instance: --causes, a stop armed */
	if (osn_event_is_on(t->inst, OSN_EV_NOISE_CAUSE))
		osn_run_wait_report(OSN_PARAM_CAUSES_LIVE, "without their culprits");
}

/*
 * What the kernel does not let osn see (the module's read-only
 * "unmeasured"): shown in the header, since that time counts as hardware.
 */
void osn_run_knobs_unmeasured(struct osn_tool *t)
{
	osn_run_read_report(OSN_PARAM_UNMEASURED, t->unmeasured, sizeof(t->unmeasured));
}

/* The options knob of the run: the command's, or its command line's. */
static const char *run_options(const struct osn_tool *t)
{
	return t->p->options ? t->p->options : osn_cmd_desc(t->p->cmd)->options;
}

void osn_run_knobs_check(const struct osn_tool *t)
{
	char buf[512], path[PATH_MAX];
	FILE *f;

	if (run_options(t))	/* the run sets the workload option itself */
		return;
	snprintf(path, sizeof(path), "%s/%s", osn_knob_dir(), OSN_KNOB_OPTIONS);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f) &&
	    strstr(buf, "NO_" OSN_OPT_WORKLOAD))
		osn_warn("the module's options have NO_%s: no workload runs, nothing will be measured (echo %s > %s/%s)",
			 OSN_OPT_WORKLOAD, OSN_OPT_WORKLOAD, osn_knob_dir(),
			 OSN_KNOB_OPTIONS);
	fclose(f);
}

/*
 * cpus reads back as a list even in its default mode "all" (every CPU,
 * hotplugged ones included): a saved list of every possible CPU is
 * restored as "all".
 */
static void save_cpus_as_all(struct osn_tool *t, struct osn_knobs *k)
{
	struct osn_cpuset all;
	char list[OSN_KNOB_LEN];

	osn_cpuset_zero(&all);
	for (int c = 0; c < t->nr_cpus; c++)
		osn_cpuset_set(&all, c);
	osn_format_cpulist(&all, list, sizeof(list));
	if (!strcmp(k->saved[OSN_K_CPUS], list))
		osn_strlcpy(k->saved[OSN_K_CPUS], "all",
			    sizeof(k->saved[OSN_K_CPUS]));
}

/* The run's knobs, written (at setup, and when the module came back). */
int osn_run_knobs_write(struct osn_tool *t)
{
	struct osn_knobs *k = &t->session.knobs;
	const char *opts = run_options(t);
	const char *mode = osn_cmd_desc(t->p->cmd)->mode;
	char v[32];

	/*
	 * The mode first: the module takes it only while no run is active,
	 * and osn's instances enable their events after this.  Every
	 * command sets it, so that a timerlat left behind cannot leave
	 * osn top without samples.
	 */
	if (osn_knobs_set_mode(k, mode ? mode : OSN_MODE_OSNOISE))
		return -1;
	if (mode) {
		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)t->p->tlat_period_us);
		if (osn_knobs_set(k, OSN_K_TLAT_PERIOD, v))
			return -1;
		/* -s: the IRQ's stack (osn:timerlat_stack, in -t's trace) */
		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)t->p->stack_us);
		if (osn_knobs_set(k, OSN_K_PRINT_STACK, v))
			return -1;
	}
	if (osn_knobs_set(k, OSN_K_STOP, "0") ||
	    osn_knobs_set(k, OSN_K_STOP_TOTAL, "0") ||
	    osn_knobs_set(k, OSN_K_CPUS, t->cpus_str) ||
	    osn_knobs_set_period_runtime(k, t->p->period_us, t->p->runtime_us) ||
	    (opts && osn_knobs_set(k, OSN_K_OPTIONS, opts)))
		return -1;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)t->p->threshold_us);
	return osn_knobs_set(k, OSN_K_THRESHOLD, v);
}

/*
 * Why pause: what the teardown does next (hist reads, trigger removals,
 * events off, rmdir) waits on every CPU, to take an IPI (text patching)
 * or to pass an RCU grace period, and a CPU that a workload thread keeps
 * busy is slow to.  With 15 CPUs measured, a 16-vCPU TCG guest took
 * 14.7 s to disable the osn events with the threads spinning, 0.03 s with
 * them paused.  rtla's tracer stops its threads at tracing_on 0 alike.
 */
int osn_run_other_users(const struct osn_tool *t, char *who, size_t len)
{
	const char *ours[] = { t->ops->instance, OSN_INST_TRACE, OSN_INST_STOP,
			       NULL };

	return osn_other_users(ours, who, len);
}

void osn_run_knobs_pause(struct osn_tool *t)
{
	char who[512], path[256];

	if (osn_run_other_users(t, who, sizeof(who)) > 0) {
		osn_debug("workload not paused: osn is in use in %s", who);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", OSN_PARAM_DIR, OSN_PARAM_PAUSED);
	osn_debug("write %s: Y", path);
	/* best effort: the teardown works without it, only slower */
	if (osn_write_str(path, "Y"))
		osn_debug("%s", osn_last_err());
}

int osn_run_knobs_set(struct osn_tool *t)
{
	struct osn_knobs *k = &t->session.knobs;

	if (osn_knobs_save(k))
		return -1;
	save_cpus_as_all(t, k);
	osn_session_persist(&t->session);	/* before the first write */
	if (osn_run_knobs_write(t))
		return -1;
	t->threshold_us = t->p->threshold_us ? t->p->threshold_us :
		OSN_DEFAULT_THRESHOLD_US;
	return 0;
}

/*
 * The module's start failure ("start_error": a negative errno, 0 when the
 * last start worked): starting happens in a kernel worker, so the write
 * that enabled the events cannot return it.
 */
static int read_start_error(void)
{
	char buf[32];

	osn_run_read_report(OSN_PARAM_START_ERROR, buf, sizeof(buf));
	return atoi(buf);
}

void osn_run_knobs_warn_no_samples(const struct osn_tool *t)
{
	int err;

	const char *opts = run_options(t);

	if (!(t->collecting && !t->stopped && !t->periods_seen) ||
	    (opts && strstr(opts, "NO_" OSN_OPT_WORKLOAD)))
		return;
	err = read_start_error();
	if (err < 0)
		osn_warn("osn.ko could not start measuring: %s (error %d; see dmesg)",
			 strerror(-err), err);
	else if (t->elapsed_s * 1000000 >= 2 * t->p->period_us + 1000000)
		osn_warn("no %s:%s event in %llu s: is the workload running? (see %s/%s)",
			 OSN_EVENT_SYSTEM, OSN_EV_SAMPLE,
			 (unsigned long long)t->elapsed_s, osn_knob_dir(),
			 OSN_KNOB_OPTIONS);
}
