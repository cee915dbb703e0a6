// SPDX-License-Identifier: GPL-2.0
/*
 * tool.c - the run of a measuring command (see tool.h): setup, the one
 * collect loop, the end and teardown, with the session's journal; the
 * parts of the run (run.h) are called at their points.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>

#include "osn/osn_abi.h"
#include "run.h"

#define TICK_NS		1000000000ULL	/* read, and refresh, once a second */
#define MAX_READ_NS	(60 * TICK_NS)	/* hist: longest gap between reads */
#define DRAIN_NS	10000000ULL	/* after -d: read every 10 ms ... */
#define DRAIN_GRACE_NS	TICK_NS		/* ... for a period and 1 s at most */
#define SAMPLE_BYTES	256		/* osn:sample in the buffer, rounded up */

enum wake {
	WAKE_SIGNAL = -1,	/* osn_interrupted */
	WAKE_DEADLINE,
	WAKE_WATCH,		/* @fd readable */
	WAKE_WATCH_BROKEN,	/* @fd in error: stop watching it */
};

/*
 * One sleep until @deadline_ns (CLOCK_MONOTONIC), a handled signal, or
 * @fd (-1: none) readable, whichever comes first.
 */
static enum wake wait_until(uint64_t deadline_ns, int fd)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct timespec ts;
		uint64_t now = osn_mono_ns();
		int r;

		if (osn_interrupted)
			return WAKE_SIGNAL;
		if (now >= deadline_ns)
			return WAKE_DEADLINE;
		osn_timeout_until(now, deadline_ns, &ts);
		r = osn_signals_ppoll(&pfd, fd >= 0 ? 1 : 0, &ts);
		if (r > 0)
			return pfd.revents & POLLIN ? WAKE_WATCH :
						      WAKE_WATCH_BROKEN;
		if (r < 0 && errno != EINTR)	/* ENOMEM: sleep anyway */
			nanosleep(&ts, NULL);
		/* timeout, or a signal osn does not handle: check again */
	}
}

bool osn_tool_sleep_ms(unsigned ms)
{
	return wait_until(osn_mono_ns() + (uint64_t)ms * 1000000ULL, -1) ==
		WAKE_DEADLINE && !osn_interrupted;
}

static void dispatch(const struct osn_event *ev, void *ctx)
{
	struct osn_tool *t = ctx;

	/* a period: osnoise's summary, or a timerlat activation's end */
	bool period = ev->type == OSN_E_SAMPLE ||
		(ev->type == OSN_E_TLAT &&
		 ev->tlat.context == OSN_TLAT_CTX_THREAD);

	/*
	 * The stack and --dump-tasks' events are no measurement: the
	 * command's alone, on the measured CPUs, before collection too (the
	 * task on a CPU at a stop may have been switched in during the
	 * warm-up).
	 */
	if (osn_event_is_context(ev->type)) {
		if (osn_cpuset_isset(&t->measured, ev->cpu))
			t->ops->on_event(t, ev);
		return;
	}
	osn_run_stop_event(t, ev);
	if (period)
		t->periods_seen++;
	if (!t->collecting || !osn_cpuset_isset(&t->measured, ev->cpu))
		return;
	/* -d: a CPU's periods past the goal belong to no report */
	if (t->period_goal) {
		if (t->cpu_periods[ev->cpu] >= t->period_goal)
			return;
		if (period)
			t->cpu_periods[ev->cpu]++;
	}
	if (t->causes)
		osn_causes_event(t->causes, ev);
	osn_run_audit_event(t, ev);
	t->ops->on_event(t, ev);
	if (t->rep)
		osn_report_event(t->rep, ev);
}

/*
 * Read what the tool's instance holds.  While the instance records, a read
 * lasts at most one read interval: where events come faster than they are
 * parsed (osn hist without hist triggers at a low threshold), the loop must
 * still see the end of -d and signals.
 */
int osn_tool_read(struct osn_tool *t)
{
	/* no formats: osn.ko went away under osn monitor, nothing to read */
	if (!t->dec.tep)
		return 0;
	if (osn_reader_read(&t->reader, t->inst, &t->dec, t->read_set,
			    t->read_set_size, dispatch, t, &t->missed,
			    t->read_ns ? t->read_ns : TICK_NS) < 0)
		return -1;
	return 0;
}

/* For the JSON reports, which osn compare reads side by side. */
static const char *kernel_release(void)
{
	static struct utsname u;

	if (!u.release[0] && uname(&u))
		return NULL;
	return u.release;
}

void osn_tool_report_info(const struct osn_tool *t,
			  struct osn_report_info *info)
{
	memset(info, 0, sizeof(*info));
	info->params = t->p;
	info->elapsed_s = t->elapsed_s;
	info->events_lost = t->lost > t->missed ? t->lost : t->missed;
	info->cpus_str = t->cpus_str;
	info->kernel = kernel_release();
	info->threshold_us = t->threshold_us;
	info->stopped = t->stopped;
	info->why = osn_run_stop_why(t);
	info->unmeasured = t->unmeasured[0] ? t->unmeasured : NULL;
	info->causes = t->causes;
	info->sources = osn_run_audit_sources(t);
	info->cpus = t->cpus;
	info->ncpus = t->ncpus;
}

struct tracefs_instance *osn_tool_new_instance(struct osn_tool *t,
					       const char *name)
{
	osn_session_add_instance(&t->session, name);
	return osn_instance_new(name);
}

/*
 * How often collection reads the tool's instance: every tick when
 * something must be seen at once (top's refresh, every osn event kept to
 * explain a stop), else often enough that the per-period summaries never
 * fill more than a quarter of the buffer.
 */
static uint64_t read_interval(struct osn_tool *t)
{
	unsigned long long kb;
	const char *ex;
	char *s;

	if (t->ops->tick || t->stop || t->read_often)
		return TICK_NS;
	s = tracefs_instance_file_read(t->inst, "buffer_size_kb", NULL);
	if (!s)
		return TICK_NS;
	/* "7 (expanded: 1408)" until the buffer is first used */
	ex = strstr(s, "expanded:");
	kb = strtoull(ex ? ex + strlen("expanded:") : s, NULL, 10);
	free(s);
	return osn_drain_interval_ns(kb, t->p->period_us, SAMPLE_BYTES,
				     TICK_NS, MAX_READ_NS);
}

/* The tool's instance and -t's, with --trace-buffer-size. */
static int create_instances(struct osn_tool *t)
{
	const struct osn_params *p = t->p;
	char kb[32];

	t->inst = osn_tool_new_instance(t, t->ops->instance);
	if (!t->inst || osn_run_save_instance(t))
		return -1;
	if (!p->buffer_kb)
		return 0;
	snprintf(kb, sizeof(kb), "%llu", (unsigned long long)p->buffer_kb);
	if (osn_instance_write(t->inst, "buffer_size_kb", kb))
		return -1;
	return t->saves && t->saves->tinst ?
		osn_instance_write(t->saves->tinst, "buffer_size_kb", kb) : 0;
}

/*
 * The tool's instance: per-period samples, and for a stop condition every
 * osn event (to explain the stop).  ops->events first: hist's triggers are
 * made before any osn event starts the workload (hist_events()).
 */
static int setup_tool_events(struct osn_tool *t)
{
	if ((t->ops->events && t->ops->events(t)) || osn_run_causes_events(t))
		return -1;
	if (!t->stop)
		return osn_event_enable(t->inst, OSN_EVENT_SYSTEM, OSN_EV_SAMPLE);
	return osn_run_stop_events(t);
}

static int setup_instances(struct osn_tool *t)
{
	if (create_instances(t) || osn_decoder_init(&t->dec))
		return -1;
	if (setup_tool_events(t) || osn_run_save_events(t))
		return -1;
	osn_run_stop_watch(t);
	return 0;
}

/* ---- the run ---------------------------------------------------------------- */

static void tool_init(struct osn_tool *t, const struct osn_tool_ops *ops,
		      struct osn_params *p, int nr_cpus)
{
	memset(t, 0, sizeof(*t));
	t->session.fd = -1;	/* no session yet: nothing to end */
	t->dma_fd = -1;
	t->p = p;
	t->ops = ops;
	t->nr_cpus = nr_cpus;
	osn_run_out_init(t);
	tracefs_set_loglevel(osn_debug_level > 1 ? TEP_LOG_ALL : TEP_LOG_NONE);
	tep_set_loglevel(osn_debug_level > 1 ? TEP_LOG_ALL : TEP_LOG_NONE);
}

/* setup: everything the run changes, each step undone by tool_teardown() */
static int tool_setup(struct osn_tool *t)
{
	char who[512];

	if ((t->ops->init && t->ops->init(t)) || osn_check_env())
		return -1;
	osn_signals_install();
	if (osn_session_begin(&t->session, osn_cmd_name(t->ops->cmd)) ||
	    osn_run_out_open(t) || osn_run_cpus_pick(t))
		return -1;
	/* the parts the command allows and the options ask for (-C's
	 * cgroup checked here, before anything changes) */
	if (osn_run_threads_attach(t) || osn_run_stop_attach(t) ||
	    osn_run_save_attach(t) || osn_run_causes_attach(t) ||
	    osn_run_audit_attach(t))
		return -1;
	osn_run_knobs_check(t);
	osn_run_knobs_unmeasured(t);
	if (osn_run_other_users(t, who, sizeof(who)) > 0)
		osn_warn("osn is also in use (events or tracer) in %s: it shares the workload and sees this run's settings",
			 who);
	if (osn_run_knobs_set(t) || osn_run_tune_set(t) ||
	    setup_instances(t) || osn_run_threads_setup(t))
		return -1;
	return 0;
}

/*
 * The module came back after an unload (osn monitor): its knobs are its
 * defaults and the instance's osn events are off.  The run's knobs are
 * written again (what setup saved stays what teardown restores), the
 * events' formats read again (their ids may have changed), and
 * ops->events and ops->start enable its events again.
 */
int osn_tool_resume(struct osn_tool *t)
{
	osn_decoder_free(&t->dec);
	if (osn_run_knobs_write(t) || osn_decoder_init(&t->dec) ||
	    (t->ops->events && t->ops->events(t)))
		return -1;
	return t->ops->start ? t->ops->start(t) : 0;
}

static int read_instance(struct osn_tool *t)
{
	if (osn_tool_read(t))
		return osn_err("cannot read instance %s", t->ops->instance);
	return 0;
}

/*
 * warm-up: the workload runs, nothing is collected (read once a second
 * all the same, so that the buffer does not overflow; what it produced is
 * dropped at the end)
 */
static int warm_up(struct osn_tool *t)
{
	uint64_t t0 = osn_mono_ns(), next_tick = t0 + TICK_NS;
	uint64_t end = osn_end_ns(t0, t->p->warmup_s);

	while (end && wait_until(osn_next_deadline(next_tick, end), -1) ==
		      WAKE_DEADLINE) {
		uint64_t now = osn_mono_ns();

		if (now >= end || osn_tool_read(t))
			break;
		next_tick = osn_next_tick(next_tick, TICK_NS, now);
	}
	return read_instance(t);
}

/*
 * -d TIME covers ceil(TIME / period) periods of each measured CPU, the
 * first ones to end once collection began: the count rtla shows for the
 * same -d, whichever side of the deadline the last period ends (a period
 * outlasts its runtime by the last clock read, and the workload may start
 * a little after the collection).  0 without -d.
 */
static int set_period_goal(struct osn_tool *t)
{
	uint64_t d_us, period_us = osn_params_period_us(t->p);

	if (!t->p->duration_s || !period_us)
		return 0;
	d_us = t->p->duration_s > UINT64_MAX / 1000000ULL ? UINT64_MAX :
		t->p->duration_s * 1000000ULL;
	t->period_goal = d_us / period_us + (d_us % period_us != 0);
	t->cpu_periods = calloc(t->nr_cpus, sizeof(*t->cpu_periods));
	if (!t->cpu_periods)
		return osn_err("out of memory");
	return 0;
}

/* Every measured CPU reported its -d periods. */
static bool period_goal_reached(const struct osn_tool *t)
{
	size_t i;

	for (i = 0; i < t->ncpus; i++)
		if (t->cpu_periods[t->cpus[i]] < t->period_goal)
			return false;
	return true;
}

static int start_collecting(struct osn_tool *t)
{
	if (set_period_goal(t) || osn_run_save_rearm(t) || osn_run_stop_arm(t) ||
	    (t->ops->start && t->ops->start(t)) || osn_run_report_start(t))
		return -1;
	t->collecting = true;
	t->t0_ns = osn_mono_ns();
	t->read_ns = read_interval(t);
	osn_debug("reading every %llu ms",
		  (unsigned long long)(t->read_ns / 1000000));
	return 0;
}

/*
 * A tick of the collection: read, and refresh (top).  The refresh counts
 * lost events from the records' missed counts; the ring buffer's exact
 * overrun comes from each CPU's stats file at the end (read_last(),
 * osn_reader_lost()): reading them every second would cost a system call
 * per CPU, as much again as reading the events.
 */
static int collect_tick(struct osn_tool *t)
{
	if (read_instance(t))
		return -1;
	if (!t->stopped && t->ops->tick)
		t->ops->tick(t);
	return 0;
}

/*
 * After the end of -d: read every DRAIN_NS until each measured CPU has
 * reported its -d periods (set_period_goal()), for one period and
 * DRAIN_GRACE_NS at most (a CPU whose thread cannot run reports nothing).
 * Returns 1 when collection is over, 0 to go on, -1 on error.
 */
static int drain_periods(struct osn_tool *t, uint64_t now, uint64_t end,
			 uint64_t *next_tick)
{
	uint64_t limit = end + osn_params_period_us(t->p) * 1000ULL +
			 DRAIN_GRACE_NS;
	size_t i;

	if (read_instance(t))
		return -1;
	/* a hit in those periods: the loop runs its actions at once */
	if (t->stopped) {
		*next_tick = now;
		return 0;
	}
	if (!t->period_goal || period_goal_reached(t))
		return 1;
	if (now < limit) {
		*next_tick = now + DRAIN_NS;
		return 0;
	}
	for (i = 0; i < t->ncpus; i++)
		if (t->cpu_periods[t->cpus[i]] < t->period_goal)
			osn_debug("CPU %d: %llu of the %llu periods of -d",
				  t->cpus[i],
				  (unsigned long long)t->cpu_periods[t->cpus[i]],
				  (unsigned long long)t->period_goal);
	return 1;
}

/*
 * Asleep until the next tick (read, refresh: once a second, or as seldom
 * as read_interval() allows), the end of -d, a signal or the stop watch.
 * A stop is also seen at the tick (the instance turned off, or osn:stop
 * read), as when there is no stop watch.  Past the end of -d, the periods
 * still running are waited for (drain_periods()).
 */
static int collect_loop(struct osn_tool *t)
{
	uint64_t next_tick = t->t0_ns + t->read_ns;
	uint64_t end = osn_end_ns(t->t0_ns, t->p->duration_s);
	bool draining = false;

	while (!osn_interrupted) {
		enum wake w = wait_until(draining ? next_tick :
					 osn_next_deadline(next_tick, end),
					 osn_run_stop_watch_fd(t));
		bool over;
		uint64_t now;
		int r;

		if (w == WAKE_SIGNAL)
			break;
		if (w == WAKE_WATCH || w == WAKE_WATCH_BROKEN)
			osn_run_stop_woke(t, w == WAKE_WATCH_BROKEN);
		now = osn_mono_ns();
		t->elapsed_s = (now - t->t0_ns) / 1000000000ULL;
		over = end && now >= end;
		if (osn_run_stop_instance_off(t))
			t->stopped = true;
		if (over && !t->stopped) {
			draining = true;
			r = drain_periods(t, now, end, &next_tick);
			if (r)
				return r < 0 ? -1 : 0;
			continue;
		}
		if (now >= next_tick || t->stopped || over) {
			next_tick = osn_next_tick(next_tick, t->read_ns, now);
			if (collect_tick(t))
				return -1;
		}
		/* a hit; with continue, then on (past -d: back to the drain) */
		if (t->stopped) {
			r = osn_run_stop_hit(t, over);
			if (r <= 0)
				return r;
		}
	}
	return 0;
}

/* collect: warm-up, then collection until -d, a stop or a signal */
static int tool_collect(struct osn_tool *t)
{
	/* before the warm-up, whose last read drops what came meanwhile */
	osn_run_wait_live(t);
	if (warm_up(t))
		return -1;
	if (osn_interrupted)
		return 0;
	if (start_collecting(t) || collect_loop(t))
		return -1;
	return 0;
}

/*
 * The last events (the stop and what led to it).  The instances are
 * turned off first, so that this read and the trace's save end: nothing
 * after the end of the collection is counted or saved.  The workload
 * threads are paused then, before the teardown's costly steps.
 */
static void read_last(struct osn_tool *t)
{
	if (t->collecting && t->ops->end)
		t->ops->end(t);
	tracefs_trace_off(t->inst);
	osn_run_save_stop(t);
	osn_run_knobs_pause(t);
	if (t->dec.tep)		/* NULL: osn.ko went away (osn monitor) */
		osn_reader_read(&t->reader, t->inst, &t->dec, t->read_set,
				t->read_set_size, dispatch, t, &t->missed, 0);
	t->lost = osn_reader_lost(t->reader);
	if (t->collecting)
		t->elapsed_s = (osn_mono_ns() - t->t0_ns) / 1000000000ULL;
	osn_run_stop_explain(t);
}

/* The end of collection: the last read, the reports, the saved trace. */
static int tool_report(struct osn_tool *t)
{
	const struct osn_tool_ops *ops = t->ops;

	read_last(t);
	osn_run_causes_rank(t);
	osn_run_audit_end(t);
	if ((ops->finish && ops->finish(t)) || (ops->report && ops->report(t)) ||
	    osn_run_report_write(t))
		return -1;
	osn_run_knobs_warn_no_samples(t);
	if (osn_run_save_end(t))
		return -1;
	fflush(t->out.text);
	return 0;
}

/*
 * teardown: the one error path.  Reports the error that ended the run
 * (@ret 1), then undoes setup in reverse order from wherever it got to:
 * tracefs and the knobs restored by the session, outputs, ops->init.
 * Returns the exit status.
 */
static int tool_teardown(struct osn_tool *t, int ret)
{
	osn_signals_block(true);
	if (ret == 1)
		osn_err_print();
	osn_run_audit_free(t);
	osn_run_causes_free(t);
	osn_run_stop_free(t);
	osn_decoder_free(&t->dec);
	osn_reader_free(&t->reader);
	osn_run_save_free(t);
	if (t->inst)
		tracefs_instance_free(t->inst);
	osn_run_tune_free(t);
	if (osn_session_end(&t->session)) {
		osn_warn("could not restore everything: %s (run 'osn cleanup')",
			 osn_last_err());
		ret = 1;
	}
	ret = osn_run_out_close(t, ret);
	osn_run_report_free(t);
	osn_run_threads_free(t);
	free(t->cpus);
	CPU_FREE(t->read_set);
	free(t->cpu_periods);
	if (t->ops->destroy)
		t->ops->destroy(t);
	return ret;
}

static int run(const struct osn_tool_ops *ops, struct osn_params *p,
	       int nr_cpus)
{
	struct osn_tool tool;
	int ret = 1;

	tool_init(&tool, ops, p, nr_cpus);
	if (!tool_setup(&tool) && !tool_collect(&tool) && !tool_report(&tool))
		ret = tool.stopped ? 2 : 0;
	return tool_teardown(&tool, ret);
}

int osn_tool_main(const struct osn_tool_ops *ops, int argc, char **argv,
		  int nr_cpus)
{
	struct osn_params p;

	int ret = 0;

	if (osn_parse_args(ops->cmd, argc, argv, nr_cpus, &p)) {
		osn_err_print();
		ret = 1;
	} else if (p.help) {
		osn_usage(ops->cmd, stdout);
	} else if (p.version) {
		printf("osn " OSN_VERSION "\n");
	} else {
		osn_debug_level = p.debug;
		ret = run(ops, &p, nr_cpus);
	}
	osn_params_free(&p);
	return ret;
}
