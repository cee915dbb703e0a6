// SPDX-License-Identifier: GPL-2.0
/*
 * run_stop.c - the stop conditions (-s, -S; see run.h): every osn event
 * in the tool's instance, kept per CPU to explain a stop; the stop watch
 * that wakes the collect loop at once; the module's stop knobs armed, and
 * re-armed after a hit with continue.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "run.h"

/*
 * The events kept per measured CPU to explain a stop (struct osn_event,
 * 144 bytes each): RING_BUDGET shared among the CPUs, between RING_MIN
 * and RING_MAX each, so 1 to 64 CPUs take at most 9.4 MB and 256 CPUs
 * 38 MB (1024 events each: a stop's sample window rarely holds more than a
 * few dozen).  The pages are touched only as events come.
 */
#define RING_BUDGET	65536
#define RING_MIN	1024
#define RING_MAX	16384

int osn_run_stop_attach(struct osn_tool *t)
{
	if (!(t->ops->parts & OSN_PART_STOP) ||
	    !(t->p->stop_us || t->p->stop_total_us))
		return 0;
	t->stop = calloc(1, sizeof(*t->stop));
	if (!t->stop)
		return osn_err("out of memory");
	t->stop->watch_fd = -1;
	return 0;
}

/* traceoff on osn:stop, recording the stop event itself when possible */
int osn_run_stop_traceoff(struct tracefs_instance *inst)
{
	if (!osn_event_trigger(inst, OSN_EVENT_SYSTEM, OSN_EV_STOP,
			       "traceoff if " OSN_F_REASON " < 256"))
		return 0;
	return osn_event_trigger(inst, OSN_EVENT_SYSTEM, OSN_EV_STOP,
				 "traceoff");
}

/*
 * The stop watch: an instance with osn:stop alone enabled, whose
 * trace_pipe becomes readable when a stop condition fires, so that the
 * loop wakes up at once instead of at its next tick.  Set up after the
 * tool's instance, so that osn:stop's probe for that instance (which
 * records the stop and turns the instance off) runs before this one's.
 * Best effort: without it, the next tick finds the stop (as rtla does).
 */
void osn_run_stop_watch(struct osn_tool *t)
{
	struct osn_stop *st = t->stop;

	if (!st)
		return;
	st->winst = osn_tool_new_instance(t, OSN_INST_STOP);
	if (!st->winst)
		goto fail;
	/* a page per CPU is plenty; wake on the first event (no watermark) */
	if (osn_instance_write(st->winst, "buffer_size_kb", "4"))
		osn_debug("%s", osn_last_err());
	if (tracefs_file_exists(st->winst, "buffer_percent"))
		osn_instance_write(st->winst, "buffer_percent", "0");
	if (osn_event_enable(st->winst, OSN_EVENT_SYSTEM, OSN_EV_STOP))
		goto fail;
	st->watch_fd = tracefs_instance_file_open(st->winst, "trace_pipe",
						  O_RDONLY | O_NONBLOCK);
	if (st->watch_fd < 0) {
		osn_err("cannot open instances/%s/trace_pipe", OSN_INST_STOP);
		goto fail;
	}
	return;
fail:
	osn_debug("no stop watch (%s): a stop is seen at the next tick",
		  osn_last_err());
}

static void close_stop_watch(struct osn_stop *st)
{
	if (st->watch_fd >= 0)
		close(st->watch_fd);
	st->watch_fd = -1;
}

/*
 * Empty the stop watch's buffer, so that it sleeps again; a watch that
 * cannot be emptied is closed rather than left to wake the loop in vain.
 */
static void drain_stop_watch(struct osn_stop *st)
{
	char buf[4096];

	for (int i = 0; i < 64; i++) {
		ssize_t n = read(st->watch_fd, buf, sizeof(buf));

		if (!n || (n < 0 && (errno == EAGAIN || errno == EINTR)))
			return;
		if (n < 0)
			break;
	}
	osn_debug("the stop watch does not empty: closed");
	close_stop_watch(st);
}

/* The recent osn events of each measured CPU, to explain a stop. */
static int alloc_rings(struct osn_tool *t, struct osn_stop *st)
{
	size_t cap = RING_BUDGET / (t->ncpus ? t->ncpus : 1);

	cap = cap < RING_MIN ? RING_MIN : cap > RING_MAX ? RING_MAX : cap;
	st->rings = calloc(t->nr_cpus, sizeof(*st->rings));
	if (!st->rings)
		return osn_err("out of memory");
	for (size_t i = 0; i < t->ncpus; i++)
		if (osn_ring_init(&st->rings[t->cpus[i]], cap))
			return osn_err("out of memory");
	return 0;
}

int osn_run_stop_events(struct osn_tool *t)
{
	const struct osn_params *p = t->p;
	char filter[64];

	if (p->stop_us && !p->stop_total_us) {
		/* only the offending samples are needed */
		snprintf(filter, sizeof(filter), OSN_F_DURATION " >= %llu",
			 (unsigned long long)p->stop_us * 1000);
		if (osn_event_filter(t->inst, OSN_EVENT_SYSTEM,
				     OSN_EV_SAMPLE_THRESHOLD, filter))
			return -1;
	}
	if (osn_event_enable(t->inst, OSN_EVENT_SYSTEM, NULL) ||
	    osn_run_stop_traceoff(t->inst))
		return -1;
	return alloc_rings(t, t->stop);
}

int osn_run_stop_watch_fd(const struct osn_tool *t)
{
	return t->stop ? t->stop->watch_fd : -1;
}

void osn_run_stop_woke(struct osn_tool *t, bool broken)
{
	if (broken)
		close_stop_watch(t->stop);
	else
		drain_stop_watch(t->stop);
}

void osn_run_stop_event(struct osn_tool *t, const struct osn_event *ev)
{
	struct osn_stop *st = t->stop;

	if (!st)
		return;
	if (st->rings && ev->cpu >= 0 && ev->cpu < t->nr_cpus)
		osn_ring_push(&st->rings[ev->cpu], ev);
	if (ev->type == OSN_E_STOP && t->collecting) {
		if (!st->have_ev) {
			st->ev = *ev;
			st->have_ev = true;
		}
		t->stopped = true;
	}
}

int osn_run_stop_arm(struct osn_tool *t)
{
	struct osn_knobs *k = &t->session.knobs;
	char v[32];

	if (!t->stop)
		return 0;
	t->session.top_tracing_on = tracefs_trace_is_on(NULL);
	osn_session_persist(&t->session);
	if (t->p->stop_us) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)t->p->stop_us);
		if (osn_knobs_set(k, OSN_K_STOP, v))
			return -1;
	}
	if (t->p->stop_total_us) {
		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)t->p->stop_total_us);
		if (osn_knobs_set(k, OSN_K_STOP_TOTAL, v))
			return -1;
	}
	return 0;
}

bool osn_run_stop_instance_off(struct osn_tool *t)
{
	return t->stop && tracefs_trace_is_on(t->inst) == 0;
}

static void explain_cpus(struct osn_tool *t, struct osn_stop *st)
{
	int reason = t->p->stop_us ? OSN_STOP_SINGLE : OSN_STOP_TOTAL;
	uint64_t thr = (t->p->stop_us ? t->p->stop_us : t->p->stop_total_us) * 1000;

	if (!st->rings)
		return;
	if (st->have_ev) {
		int c = st->ev.cpu;

		if (c >= 0 && c < t->nr_cpus &&
		    !osn_explain(&st->rings[c], &st->ev, reason, thr, &st->why))
			st->have_why = true;
		else {
			/* keep what the stop event says */
			osn_explain(NULL, &st->ev, reason, thr, &st->why);
			st->have_why = true;
		}
		return;
	}
	/* no osn:stop recorded: the most recent over-threshold sample */
	if (reason == OSN_STOP_SINGLE) {
		uint64_t best_ts = 0;

		for (size_t i = 0; i < t->ncpus; i++) {
			struct osn_explanation x;

			if (!osn_explain(&st->rings[t->cpus[i]], NULL, reason, thr, &x) &&
			    x.have_sample && x.start >= best_ts) {
				best_ts = x.start;
				st->why = x;
				st->have_why = true;
			}
		}
	}
}

/* Mark the stop in --report's charts. */
static void mark_stop(struct osn_tool *t, struct osn_stop *st)
{
	if (st->have_why || st->have_ev)
		osn_run_report_stop(t, st->have_why ? st->why.cpu : st->ev.cpu);
}

/* Explain the stop from the per-CPU histories; mark it in --report's. */
void osn_run_stop_explain(struct osn_tool *t)
{
	struct osn_stop *st = t->stop;

	if (!st || !t->stopped)
		return;
	explain_cpus(t, st);
	if (st->have_why)
		osn_decoder_name_causes(&t->dec, &st->why);
	mark_stop(t, st);
}

/*
 * After a hit, with continue: the tool's and the trace's instances back on
 * (the trace emptied, so that each saved file holds its own hit), the
 * top-level buffer that the module turns off, and, if @fire_again, the
 * module's stop conditions (re-armed by any write of their knobs).
 */
static int rearm_stop(struct osn_tool *t, struct osn_stop *st, bool fire_again)
{
	struct osn_knobs *k = &t->session.knobs;
	char v[32];

	t->stopped = false;
	st->have_ev = false;
	st->have_why = false;
	if (osn_run_save_rearm(t))
		return -1;
	if (tracefs_trace_on(t->inst) ||
	    (t->session.top_tracing_on == 1 && tracefs_trace_on(NULL)))
		return osn_err("cannot restart tracing after a stop");
	if (!fire_again)
		return 0;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)
		 (t->p->stop_us ? t->p->stop_us : t->p->stop_total_us));
	return osn_knob_write(k, t->p->stop_us ? OSN_K_STOP : OSN_K_STOP_TOTAL, v);
}

/*
 * A stop condition hit during collection: the --on-threshold actions
 * (and -t's trace).  With continue, the hit is explained now and the
 * collection goes on, the stop condition re-armed unless @last (past -d,
 * where hits coming faster than they are handled would hold the run
 * forever); else it ends, explained in the report.  Returns 1 to go on, 0
 * to end, -1 on error.
 */
int osn_run_stop_hit(struct osn_tool *t, bool last)
{
	struct osn_stop *st = t->stop;
	bool have_why;
	int ret;

	if (!osn_run_save_on_threshold(t))
		return 0;
	if (t->ops->hit_analyse && t->ops->hit_print) {
		t->ops->hit_analyse(t);
		ret = rearm_stop(t, st, !last);
		t->ops->hit_print(t);
		fflush(t->out.text);
		return ret ? -1 : 1;
	}
	explain_cpus(t, st);
	mark_stop(t, st);
	/*
	 * Re-armed before the causes' functions are named (a pass over
	 * /proc/kallsyms, seconds under TCG), so that the next hit is not
	 * missed meanwhile; st->why stays as it is until the next hit, which
	 * is handled after this one.
	 */
	have_why = st->have_why;
	ret = rearm_stop(t, st, !last);
	if (have_why)
		osn_decoder_name_causes(&t->dec, &st->why);
	osn_render_stop(t->out.text, have_why ? &st->why : NULL);
	fflush(t->out.text);
	return ret ? -1 : 1;
}

struct osn_explanation *osn_run_stop_why(const struct osn_tool *t)
{
	return t->stop && t->stop->have_why ? &t->stop->why : NULL;
}

void osn_run_stop_free(struct osn_tool *t)
{
	struct osn_stop *st = t->stop;

	if (!st)
		return;
	close_stop_watch(st);	/* an open trace_pipe keeps its instance */
	if (st->winst)
		tracefs_instance_free(st->winst);
	if (st->rings)
		for (int c = 0; c < t->nr_cpus; c++)
			osn_ring_free(&st->rings[c]);
	free(st->rings);
	free(st);
	t->stop = NULL;
}
