// SPDX-License-Identifier: GPL-2.0
/*
 * tool.c - the life of an osn run, shared by top and hist (see tool.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "threads.h"
#include "tool.h"

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
#define TICK_NS		1000000000ULL	/* read, and refresh, once a second */
#define MAX_READ_NS	(60 * TICK_NS)	/* hist: longest gap between reads */
#define DRAIN_NS	10000000ULL	/* after -d: read every 10 ms ... */
#define DRAIN_GRACE_NS	TICK_NS		/* ... for a period and 1 s at most */
#define SAMPLE_BYTES	256		/* osn:sample in the buffer, rounded up */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

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
		uint64_t now = now_ns();
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
	return wait_until(now_ns() + (uint64_t)ms * 1000000ULL, -1) ==
		WAKE_DEADLINE && !osn_interrupted;
}

static void dispatch(const struct osn_event *ev, void *ctx)
{
	struct osn_tool *t = ctx;

	if (t->rings && ev->cpu >= 0 && ev->cpu < t->nr_cpus)
		osn_ring_push(&t->rings[ev->cpu], ev);
	if (ev->type == OSN_E_STOP && t->stop_armed && t->collecting) {
		if (!t->have_stop_ev) {
			t->stop_ev = *ev;
			t->have_stop_ev = true;
		}
		t->stopped = true;
	}
	if (ev->type == OSN_E_SAMPLE)
		t->periods_seen++;
	if (!t->collecting || !osn_cpuset_isset(&t->measured, ev->cpu))
		return;
	/* -d: a CPU's periods past the goal belong to no report */
	if (t->period_goal) {
		if (t->cpu_periods[ev->cpu] >= t->period_goal)
			return;
		if (ev->type == OSN_E_SAMPLE)
			t->cpu_periods[ev->cpu]++;
	}
	if (t->have_causes)
		osn_causes_event(&t->causes, ev);
	if (t->p->audit)
		osn_sources_event(&t->sources, ev);
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
	if (osn_read_events(t->inst, &t->dec, t->read_set, t->read_set_size,
			    dispatch, t, &t->missed,
			    t->read_ns ? t->read_ns : TICK_NS) < 0)
		return -1;
	return 0;
}

void osn_tool_report_info(const struct osn_tool *t,
			  struct osn_report_info *info)
{
	memset(info, 0, sizeof(*info));
	info->params = t->p;
	info->elapsed_s = t->elapsed_s;
	info->events_lost = t->lost > t->missed ? t->lost : t->missed;
	info->cpus_str = t->cpus_str;
	info->threshold_us = t->threshold_us;
	info->stopped = t->stopped;
	info->why = t->have_why ? &t->why : NULL;
	info->unmeasured = t->unmeasured[0] ? t->unmeasured : NULL;
	info->causes = t->have_causes ? &t->causes : NULL;
	info->sources = t->have_audit ? &t->sources : NULL;
	info->cpus = t->cpus;
	info->ncpus = t->ncpus;
}

FILE *osn_tool_json_open(struct osn_tool *t)
{
	if (!t->p->json_file)
		return stdout;
	if (!t->json_f)
		osn_err("cannot write %s", t->p->json_file);
	return t->json_f;
}

int osn_tool_json_close(struct osn_tool *t, FILE *f)
{
	if (f == stdout) {
		fflush(f);
		return 0;
	}
	t->json_f = NULL;
	if (fclose(f))
		return osn_err("cannot write %s: %s", t->p->json_file,
			       strerror(errno));
	return 0;
}

static FILE *open_output(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		osn_err("cannot write %s: %s", path, strerror(errno));
	return f;
}

/* Output files are opened before anything changes: a bad path fails early. */
static int open_outputs(struct osn_tool *t)
{
	if (t->p->json_file) {
		t->json_f = open_output(t->p->json_file);
		if (!t->json_f)
			return -1;
	}
	if (t->p->trace_file) {
		t->trace_f = open_output(t->p->trace_file);
		if (!t->trace_f)
			return -1;
	}
	if (t->p->report_file) {
		t->report_f = open_output(t->p->report_file);
		if (!t->report_f)
			return -1;
	}
	return 0;
}

/* The housekeeping CPUs: -H, or the online CPUs not measured. */
static int move_to_housekeeping(struct osn_tool *t,
				const struct osn_cpuset *online)
{
	struct osn_cpuset hk;

	if (t->p->have_hk)
		return osn_set_affinity(&t->p->hk);
	osn_cpuset_zero(&hk);
	for (int c = 0; c < t->nr_cpus; c++)
		if (osn_cpuset_isset(online, c) &&
		    !osn_cpuset_isset(&t->measured, c))
			osn_cpuset_set(&hk, c);
	return osn_cpuset_empty(&hk) ? 0 : osn_set_affinity(&hk);
}

/* Which CPUs are measured, and what goes to the cpus knob. */
static int pick_cpus(struct osn_tool *t)
{
	struct osn_cpuset online;
	char list[OSN_CPUS_MAX_LEN + 1];
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
	osn_format_cpulist(&t->measured, list, sizeof(list));
	osn_strlcpy(t->cpus_str, list, sizeof(t->cpus_str));
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

/*
 * One read-only report of the module (OSN_PARAM_DIR/name), its first line
 * without the newline; "" when it cannot be read.
 */
static void read_report(const char *name, char *buf, size_t len)
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

/*
 * What the kernel does not let osn see (the module's read-only
 * "unmeasured"): shown in the header, since that time counts as hardware.
 */
static void read_unmeasured(struct osn_tool *t)
{
	read_report(OSN_PARAM_UNMEASURED, t->unmeasured, sizeof(t->unmeasured));
}

/* The options knob of the run: the command's, or its command line's. */
static const char *run_options(const struct osn_tool *t)
{
	return t->p->options ? t->p->options : t->ops->options;
}

static void check_options_knob(const struct osn_tool *t)
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
static int write_knobs(struct osn_tool *t)
{
	struct osn_knobs *k = &t->session.knobs;
	const char *opts = run_options(t);
	char v[32];

	if (osn_knobs_set(k, OSN_K_STOP, "0") ||
	    osn_knobs_set(k, OSN_K_STOP_TOTAL, "0") ||
	    osn_knobs_set(k, OSN_K_CPUS, t->cpus_str) ||
	    osn_knobs_set_period_runtime(k, t->p->period_us, t->p->runtime_us) ||
	    (opts && osn_knobs_set(k, OSN_K_OPTIONS, opts)))
		return -1;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)t->p->threshold_us);
	return osn_knobs_set(k, OSN_K_THRESHOLD, v);
}

static int set_knobs(struct osn_tool *t)
{
	struct osn_knobs *k = &t->session.knobs;

	if (osn_knobs_save(k))
		return -1;
	save_cpus_as_all(t, k);
	osn_session_persist(&t->session);	/* before the first write */
	if (write_knobs(t))
		return -1;
	t->threshold_us = t->p->threshold_us ? t->p->threshold_us :
		OSN_DEFAULT_THRESHOLD_US;
	return 0;
}

static int arm_stop(struct osn_tool *t)
{
	struct osn_knobs *k = &t->session.knobs;
	char v[32];

	if (!t->stop_armed)
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

/* An instance of osn's, recorded in the session before it exists. */
static struct tracefs_instance *new_instance(struct osn_tool *t,
					     const char *name)
{
	osn_session_add_instance(&t->session, name);
	return osn_instance_new(name);
}

/* traceoff on osn:stop, recording the stop event itself when possible */
static int add_traceoff(struct tracefs_instance *inst)
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
static void setup_stop_watch(struct osn_tool *t)
{
	t->winst = new_instance(t, OSN_INST_STOP);
	if (!t->winst)
		goto fail;
	/* a page per CPU is plenty; wake on the first event (no watermark) */
	if (osn_instance_write(t->winst, "buffer_size_kb", "4"))
		osn_debug("%s", osn_last_err());
	if (tracefs_file_exists(t->winst, "buffer_percent"))
		osn_instance_write(t->winst, "buffer_percent", "0");
	if (osn_event_enable(t->winst, OSN_EVENT_SYSTEM, OSN_EV_STOP))
		goto fail;
	t->watch_fd = tracefs_instance_file_open(t->winst, "trace_pipe",
						 O_RDONLY | O_NONBLOCK);
	if (t->watch_fd < 0) {
		osn_err("cannot open instances/%s/trace_pipe", OSN_INST_STOP);
		goto fail;
	}
	return;
fail:
	osn_debug("no stop watch (%s): a stop is seen at the next tick",
		  osn_last_err());
}

static void close_stop_watch(struct osn_tool *t)
{
	if (t->watch_fd >= 0)
		close(t->watch_fd);
	t->watch_fd = -1;
}

/*
 * Empty the stop watch's buffer, so that it sleeps again; a watch that
 * cannot be emptied is closed rather than left to wake the loop in vain.
 */
static void drain_stop_watch(struct osn_tool *t)
{
	char buf[4096];

	for (int i = 0; i < 64; i++) {
		ssize_t n = read(t->watch_fd, buf, sizeof(buf));

		if (!n || (n < 0 && (errno == EAGAIN || errno == EINTR)))
			return;
		if (n < 0)
			break;
	}
	osn_debug("the stop watch does not empty: closed");
	close_stop_watch(t);
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

	if (t->ops->tick || t->stop_armed || t->read_often)
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

	t->inst = new_instance(t, t->ops->instance);
	if (!t->inst)
		return -1;
	if (p->on_threshold.has_trace || p->on_end.has_trace) {
		t->tinst = new_instance(t, OSN_INST_TRACE);
		if (!t->tinst)
			return -1;
	}
	if (!p->buffer_kb)
		return 0;
	snprintf(kb, sizeof(kb), "%llu", (unsigned long long)p->buffer_kb);
	if (osn_instance_write(t->inst, "buffer_size_kb", kb))
		return -1;
	return t->tinst ? osn_instance_write(t->tinst, "buffer_size_kb", kb) : 0;
}

/* The recent osn events of each measured CPU, to explain a stop. */
static int alloc_rings(struct osn_tool *t)
{
	size_t cap = RING_BUDGET / (t->ncpus ? t->ncpus : 1);

	cap = cap < RING_MIN ? RING_MIN : cap > RING_MAX ? RING_MAX : cap;
	t->rings = calloc(t->nr_cpus, sizeof(*t->rings));
	if (!t->rings)
		return osn_err("out of memory");
	for (size_t i = 0; i < t->ncpus; i++)
		if (osn_ring_init(&t->rings[t->cpus[i]], cap))
			return osn_err("out of memory");
	return 0;
}

static void free_rings(struct osn_tool *t)
{
	osn_sources_free(&t->sources);
	if (t->have_audit) {
		osn_audit_free(&t->audit);
		t->have_audit = false;
	}
	free(t->audit_tasks);
	t->audit_tasks = NULL;
	if (t->have_causes) {
		osn_causes_free(&t->causes);
		t->have_causes = false;
	}
	if (!t->rings)
		return;
	for (int c = 0; c < t->nr_cpus; c++)
		osn_ring_free(&t->rings[c]);
	free(t->rings);
	t->rings = NULL;
}

/*
 * --causes: osn:noise_cause and the noise events it links to (by CPU,
 * class and start), in the tool's instance; --audit: the noise events,
 * whose sources it looks up among the audit's findings.
 */
static int setup_causes(struct osn_tool *t)
{
	static const char * const evs[] = {
		OSN_EV_NOISE_CAUSE, OSN_EV_IRQ_NOISE, OSN_EV_SOFTIRQ_NOISE,
		OSN_EV_THREAD_NOISE,
	};

	if (!t->p->causes && !t->p->audit)
		return 0;
	if (t->p->causes) {
		if (osn_causes_init(&t->causes, t->nr_cpus))
			return osn_err("out of memory");
		t->have_causes = true;
	}
	if (t->stop_armed)	/* every osn event is on already */
		return 0;
	/* --audit alone: the noise events, for their sources */
	for (size_t i = t->p->causes ? 0 : 1; i < sizeof(evs) / sizeof(evs[0]); i++)
		if (osn_event_enable(t->inst, OSN_EVENT_SYSTEM, evs[i]))
			return -1;
	return 0;
}

/*
 * The tool's instance: per-period samples, and for a stop condition every
 * osn event (to explain the stop).
 */
static int setup_tool_events(struct osn_tool *t)
{
	const struct osn_params *p = t->p;
	char filter[64];

	if (setup_causes(t))
		return -1;
	if (!t->stop_armed)
		return osn_event_enable(t->inst, OSN_EVENT_SYSTEM, OSN_EV_SAMPLE);
	if (p->stop_us && !p->stop_total_us) {
		/* only the offending samples are needed */
		snprintf(filter, sizeof(filter), OSN_F_DURATION " >= %llu",
			 (unsigned long long)p->stop_us * 1000);
		if (osn_event_filter(t->inst, OSN_EVENT_SYSTEM,
				     OSN_EV_SAMPLE_THRESHOLD, filter))
			return -1;
	}
	if (osn_event_enable(t->inst, OSN_EVENT_SYSTEM, NULL) ||
	    add_traceoff(t->inst))
		return -1;
	return alloc_rings(t);
}

/* -e sys[:event] in -t's instance, with its --filter and --trigger */
static int setup_trace_event(struct osn_tool *t, const struct osn_event_opt *e)
{
	const char *ev = e->event[0] ? e->event : NULL;

	if (osn_event_enable(t->tinst, e->system, ev))
		return -1;
	if ((e->filter || e->trigger) && !ev)
		return osn_err("%s needs -e sys:event, not a whole system (%s)",
			       e->filter ? "--filter" : "--trigger", e->system);
	if (e->filter && osn_event_filter(t->tinst, e->system, ev, e->filter))
		return -1;
	if (e->trigger &&
	    osn_event_trigger(t->tinst, e->system, ev, e->trigger))
		return -1;
	return 0;
}

/* -t: every osn event, the -e events, stopped with the tool */
static int setup_trace_events(struct osn_tool *t)
{
	if (!t->tinst)
		return 0;
	for (int i = 0; i < t->p->nevents; i++)
		if (setup_trace_event(t, &t->p->events[i]))
			return -1;
	if (osn_event_enable(t->tinst, OSN_EVENT_SYSTEM, NULL))
		return -1;
	return t->stop_armed ? add_traceoff(t->tinst) : 0;
}

static int setup_instances(struct osn_tool *t)
{
	if (create_instances(t) || osn_decoder_init(&t->dec))
		return -1;
	if (setup_tool_events(t) || setup_trace_events(t))
		return -1;
	if (t->stop_armed)
		setup_stop_watch(t);
	return 0;
}

/* Up to 10 s for the osn/N threads of the measured CPUs; how many came. */
static int wait_for_threads(struct osn_tool *t, struct osn_thread *th)
{
	int n = 0;

	for (int tries = 0; tries < 100; tries++) {
		n = osn_find_threads(&t->measured, th, (int)t->ncpus);
		if (n >= (int)t->ncpus || !osn_tool_sleep_ms(100))
			break;
	}
	return n;
}

static int sched_threads(struct osn_tool *t, const struct osn_thread *th,
			 int n, const char *prio)
{
	for (int i = 0; i < n; i++) {
		osn_debug("sched_setattr(%s%d, pid %d, %s)", OSN_THREAD_PREFIX,
			  th[i].cpu, (int)th[i].pid, prio);
		if (osn_apply_sched(th[i].pid, &t->p->sched))
			return osn_err("-P %s on %s%d (pid %d): %s", prio,
				       OSN_THREAD_PREFIX, th[i].cpu,
				       (int)th[i].pid, strerror(errno));
	}
	return 0;
}

/*
 * -C: each thread to the cgroup (rtla's set_comm_cgroup()).  The kernel
 * refuses to migrate a kthread bound to its CPU (PF_NO_SETAFFINITY:
 * EINVAL), and osn/N is one: osn says so and runs on with the threads
 * where they are.  rtla osnoise -C ends the same way, silently: it looks
 * for osnoise/N before tracing starts them, finds none and moves nothing
 * (7.2).  Any other refusal is an error, rtla's.
 */
static int cgroup_threads(struct osn_tool *t, const struct osn_thread *th,
			  int n)
{
	for (int i = 0; i < n; i++) {
		osn_debug("-C: %s%d (pid %d)", OSN_THREAD_PREFIX, th[i].cpu,
			  (int)th[i].pid);
		if (!osn_cgroup_move(t->cgroup_fd, th[i].pid))
			continue;
		if (errno != EINVAL)
			return osn_err("Failed to move threads to cgroup: %s%d (pid %d): %s",
				       OSN_THREAD_PREFIX, th[i].cpu,
				       (int)th[i].pid, strerror(errno));
		osn_warn("-C: the kernel does not move %s%d (pid %d), a kthread bound to its CPU (%s): the workload threads stay in their cgroup",
			 OSN_THREAD_PREFIX, th[i].cpu, (int)th[i].pid,
			 strerror(errno));
		return 0;
	}
	return 0;
}

/* -P, -C: wait for the osn/N threads, then sched_setattr each, then -C. */
static int setup_threads(struct osn_tool *t)
{
	const struct osn_params *p = t->p;
	struct osn_thread *th;
	char prio[64] = "";
	int n, ret;

	if (p->sched.policy == OSN_SCHED_NONE && !p->cgroup)
		return 0;
	th = calloc(t->ncpus, sizeof(*th));
	if (!th)
		return osn_err("out of memory");
	n = wait_for_threads(t, th);
	if (p->sched.policy != OSN_SCHED_NONE)
		osn_format_sched(&p->sched, prio, sizeof(prio));
	if ((p->sched.policy == OSN_SCHED_FIFO ||
	     p->sched.policy == OSN_SCHED_RR) &&
	    p->runtime_us == p->period_us)
		osn_warn("-P %s with runtime = period: the measured CPUs run nothing else but what real-time throttling allows (their timers and kthreads starve); consider -r < -p",
			 prio);
	if (n <= 0) {
		osn_err("%s: no workload thread %sN for cpus %.200s appeared in 10 s",
			prio[0] ? "-P" : "-C", OSN_THREAD_PREFIX, t->cpus_str);
		free(th);
		return osn_interrupted ? 0 : -1;
	}
	if (n < (int)t->ncpus)
		osn_warn("-P/-C: only %d of %zu workload threads found", n,
			 t->ncpus);
	ret = (prio[0] && sched_threads(t, th, n, prio)) ||
	      (p->cgroup && cgroup_threads(t, th, n)) ? -1 : 0;
	free(th);
	return ret;
}

/* @file's count of saves during this run, or NULL if it has none. */
static struct osn_saved *find_saved(struct osn_tool *t, const char *file)
{
	for (unsigned i = 0; i < t->nsaved; i++)
		if (!strcmp(t->saved[i].file, file))
			return &t->saved[i];
	return NULL;
}

/*
 * Save the trace to @file, or to @file.N for its N-th save of the run
 * (osn_numbered_file()); -t's file was opened before the run.
 */
static int save_trace_to(void *ctx, const char *file)
{
	struct osn_tool *t = ctx;
	struct osn_saved *s = find_saved(t, file);
	char name[4096];
	FILE *f;
	int ret;

	if (!s) {
		if (t->nsaved == sizeof(t->saved) / sizeof(t->saved[0]))
			return osn_err("too many trace files");
		s = &t->saved[t->nsaved++];
		s->file = file;
		s->n = 0;
	}
	osn_numbered_file(file, s->n++, name, sizeof(name));
	fprintf(t->text, "  Saving trace to %s\n", name);
	if (s->n == 1 && t->trace_f && !strcmp(file, t->p->trace_file))
		return osn_save_trace(t->tinst, t->trace_f, name);
	f = fopen(name, "w");
	if (!f)
		return osn_err("cannot write %s: %s", name, strerror(errno));
	ret = osn_save_trace(t->tinst, f, name);
	if (fclose(f) && !ret)
		ret = osn_err("cannot write %s: %s", name, strerror(errno));
	return ret;
}

static bool tool_instance_off(struct osn_tool *t)
{
	return t->stop_armed && tracefs_trace_is_on(t->inst) == 0;
}

static void explain_cpus(struct osn_tool *t);

/* Mark the stop in --report's charts. */
static void mark_stop(struct osn_tool *t)
{
	if (t->rep && (t->have_why || t->have_stop_ev))
		osn_report_stop(t->rep, t->have_why ? t->why.cpu :
				t->stop_ev.cpu);
}

/* Explain the stop from the per-CPU histories; mark it in --report's. */
static void explain(struct osn_tool *t)
{
	explain_cpus(t);
	if (t->have_why)
		osn_decoder_name_causes(&t->dec, &t->why);
	mark_stop(t);
}

static void explain_cpus(struct osn_tool *t)
{
	int reason = t->p->stop_us ? OSN_STOP_SINGLE : OSN_STOP_TOTAL;
	uint64_t thr = (t->p->stop_us ? t->p->stop_us : t->p->stop_total_us) * 1000;

	if (!t->rings)
		return;
	if (t->have_stop_ev) {
		int c = t->stop_ev.cpu;

		if (c >= 0 && c < t->nr_cpus &&
		    !osn_explain(&t->rings[c], &t->stop_ev, reason, thr, &t->why))
			t->have_why = true;
		else {
			/* keep what the stop event says */
			osn_explain(NULL, &t->stop_ev, reason, thr, &t->why);
			t->have_why = true;
		}
		return;
	}
	/* no osn:stop recorded: the most recent over-threshold sample */
	if (reason == OSN_STOP_SINGLE) {
		uint64_t best_ts = 0;

		for (size_t i = 0; i < t->ncpus; i++) {
			struct osn_explanation x;

			if (!osn_explain(&t->rings[t->cpus[i]], NULL, reason, thr, &x) &&
			    x.have_sample && x.start >= best_ts) {
				best_ts = x.start;
				t->why = x;
				t->have_why = true;
			}
		}
	}
}

/*
 * After a hit, with continue: the tool's and the trace's instances back on
 * (the trace emptied, so that each saved file holds its own hit), the
 * top-level buffer that the module turns off, and, if @fire_again, the
 * module's stop conditions (re-armed by any write of their knobs).
 */
static int rearm_stop(struct osn_tool *t, bool fire_again)
{
	struct osn_knobs *k = &t->session.knobs;
	char v[32];

	t->stopped = false;
	t->have_stop_ev = false;
	t->have_why = false;
	if (t->tinst && (tracefs_instance_file_clear(t->tinst, "trace") ||
			 tracefs_trace_on(t->tinst)))
		return osn_err("cannot restart instance %s", OSN_INST_TRACE);
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
static int on_threshold(struct osn_tool *t, bool last)
{
	bool have_why;
	int ret;

	if (!osn_actions_perform(&t->p->on_threshold, save_trace_to, t))
		return 0;
	explain_cpus(t);
	mark_stop(t);
	/*
	 * Re-armed before the causes' functions are named (a pass over
	 * /proc/kallsyms, seconds under TCG), so that the next hit is not
	 * missed meanwhile; t->why stays as it is until the next hit, which
	 * is handled after this one.
	 */
	have_why = t->have_why;
	ret = rearm_stop(t, !last);
	if (have_why)
		osn_decoder_name_causes(&t->dec, &t->why);
	osn_render_stop(t->text, have_why ? &t->why : NULL);
	fflush(t->text);
	return ret ? -1 : 1;
}

/* ---- the run ---------------------------------------------------------------- */

static void tool_init(struct osn_tool *t, const struct osn_tool_ops *ops,
		      struct osn_params *p, int nr_cpus)
{
	memset(t, 0, sizeof(*t));
	t->watch_fd = -1;
	t->cgroup_fd = -1;
	t->session.fd = -1;	/* no session yet: nothing to end */
	t->p = p;
	t->ops = ops;
	t->nr_cpus = nr_cpus;
	t->text = p->json && !p->json_file ? stderr : stdout;
	t->stop_armed = p->stop_us || p->stop_total_us;
	if (p->json && !p->json_file)
		p->quiet = true;
	tracefs_set_loglevel(osn_debug_level > 1 ? TEP_LOG_ALL : TEP_LOG_NONE);
	tep_set_loglevel(osn_debug_level > 1 ? TEP_LOG_ALL : TEP_LOG_NONE);
}

/* setup: everything the run changes, each step undone by tool_teardown() */
static int tool_setup(struct osn_tool *t)
{
	const char *ours[] = { t->ops->instance, OSN_INST_TRACE, OSN_INST_STOP,
			       NULL };
	char who[512];

	if ((t->ops->init && t->ops->init(t)) || osn_check_env())
		return -1;
	osn_signals_install();
	if (osn_session_begin(&t->session, osn_cmd_name(t->ops->cmd)) ||
	    open_outputs(t) || pick_cpus(t))
		return -1;
	/* -C's cgroup is checked before anything changes */
	if (t->p->cgroup) {
		t->cgroup_fd = osn_cgroup_open(t->p->cgroup_path);
		if (t->cgroup_fd < 0)
			return -1;
	}
	check_options_knob(t);
	read_unmeasured(t);
	if (osn_other_users(ours, who, sizeof(who)) > 0)
		osn_warn("osn events are also enabled in %s: they share the workload and see this run's settings",
			 who);
	if (set_knobs(t) || setup_instances(t) || setup_threads(t))
		return -1;
	return 0;
}

/*
 * The module came back after an unload (osn monitor): its knobs are its
 * defaults and the instance's osn events are off.  The run's knobs are
 * written again (what setup saved stays what teardown restores), the
 * events' formats read again (their ids may have changed), and
 * ops->start enables its events again.
 */
int osn_tool_resume(struct osn_tool *t)
{
	osn_decoder_free(&t->dec);
	if (write_knobs(t) || osn_decoder_init(&t->dec))
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
	uint64_t t0 = now_ns(), next_tick = t0 + TICK_NS;
	uint64_t end = osn_end_ns(t0, t->p->warmup_s);

	while (end && wait_until(osn_next_deadline(next_tick, end), -1) ==
		      WAKE_DEADLINE) {
		uint64_t now = now_ns();

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
	uint64_t d_us;

	if (!t->p->duration_s || !t->p->period_us)
		return 0;
	d_us = t->p->duration_s > UINT64_MAX / 1000000ULL ? UINT64_MAX :
		t->p->duration_s * 1000000ULL;
	t->period_goal = d_us / t->p->period_us +
			 (d_us % t->p->period_us != 0);
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
	if (set_period_goal(t) || arm_stop(t) ||
	    (t->ops->start && t->ops->start(t)))
		return -1;
	if (t->report_f) {
		t->rep = malloc(sizeof(*t->rep));
		if (!t->rep || osn_report_init(t->rep, t->cpus, t->ncpus,
					       t->nr_cpus)) {
			free(t->rep);
			t->rep = NULL;
			return osn_err("out of memory");
		}
		t->rep->period_us = t->p->period_us;
		t->rep->runtime_us = t->p->runtime_us;
	}
	t->collecting = true;
	t->t0_ns = now_ns();
	t->read_ns = read_interval(t);
	osn_debug("reading every %llu ms",
		  (unsigned long long)(t->read_ns / 1000000));
	return 0;
}

/*
 * A tick of the collection: read, and refresh (top).  The refresh counts
 * lost events from the records' missed counts; the ring buffer's exact
 * overrun comes from each CPU's stats file at the end (read_last()):
 * reading them every second cost an open, read and close per CPU, as much
 * again as reading the events (osn top used 2.5 times rtla's CPU with 7
 * CPUs measured).
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
	uint64_t limit = end + t->p->period_us * 1000ULL + DRAIN_GRACE_NS;
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
					 t->watch_fd);
		bool over;
		uint64_t now;
		int r;

		if (w == WAKE_SIGNAL)
			break;
		if (w == WAKE_WATCH)
			drain_stop_watch(t);
		else if (w == WAKE_WATCH_BROKEN)
			close_stop_watch(t);
		now = now_ns();
		t->elapsed_s = (now - t->t0_ns) / 1000000000ULL;
		over = end && now >= end;
		if (tool_instance_off(t))
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
			r = on_threshold(t, over);
			if (r <= 0)
				return r;
		}
	}
	return 0;
}

/* collect: warm-up, then collection until -d, a stop or a signal */
static int tool_collect(struct osn_tool *t)
{
	if (warm_up(t))
		return -1;
	if (osn_interrupted)
		return 0;
	if (start_collecting(t) || collect_loop(t))
		return -1;
	return 0;
}

/*
 * The last events (the stop and what led to it).  The instance is turned
 * off first, so that this read ends: nothing after the end of the
 * collection is counted.
 */
static void read_last(struct osn_tool *t)
{
	tracefs_trace_off(t->inst);
	if (t->dec.tep)		/* NULL: osn.ko went away (osn monitor) */
		osn_read_events(t->inst, &t->dec, t->read_set,
				t->read_set_size, dispatch, t, &t->missed, 0);
	t->lost = osn_instance_lost(t->inst, t->nr_cpus);
	if (t->collecting)
		t->elapsed_s = (now_ns() - t->t0_ns) / 1000000000ULL;
	if (t->stopped)
		explain(t);
}

/*
 * The module's start failure ("start_error": a negative errno, 0 when the
 * last start worked): starting happens in a kernel worker, so the write
 * that enabled the events cannot return it.
 */
static int read_start_error(void)
{
	char buf[32];

	read_report(OSN_PARAM_START_ERROR, buf, sizeof(buf));
	return atoi(buf);
}

static void warn_no_samples(const struct osn_tool *t)
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

/*
 * -t's trace when no hit saved it (rtla saves none then: osn keeps what
 * -t and -e asked for), then the --on-end actions, whether a stop
 * condition was hit or not (as rtla).
 */
static int save_trace(struct osn_tool *t)
{
	if (t->p->trace_file && !find_saved(t, t->p->trace_file) &&
	    save_trace_to(t, t->p->trace_file))
		return -1;
	osn_actions_perform(&t->p->on_end, save_trace_to, t);
	return 0;
}

/* --report: the HTML page (ops->report added what the command has). */
static int write_report(struct osn_tool *t)
{
	struct osn_report_meta meta = { .version = OSN_VERSION };
	struct osn_report_info info;
	struct utsname u;
	int ret;

	if (!t->report_f || !t->rep)
		return 0;
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	meta.host = u.nodename;
	meta.kernel = u.release;
	meta.exit_reason = t->stopped ? "stop condition hit" :
		osn_interrupted ? "interrupted (signal)" :
		t->p->duration_s ? "duration (-d) reached" : "ended";
	osn_tool_report_info(t, &info);
	ret = osn_report_write(t->report_f, t->rep, &info, &meta);
	if (fclose(t->report_f) && !ret)
		ret = osn_err("cannot write %s: %s", t->p->report_file,
			      strerror(errno));
	t->report_f = NULL;
	if (!ret)
		fprintf(t->text, "  Report written to %s\n", t->p->report_file);
	return ret;
}

/*
 * --audit: read the system after the run (not before: reading every
 * task's /proc files would be noise of the run itself; and tasks that
 * appeared during it are seen), and tie the sources seen and the stop
 * explanation's parts to its findings.  An audit that cannot run (every
 * CPU measured: no housekeeping CPU) says why and the run goes on.
 */
static void run_audit(struct osn_tool *t)
{
	if (osn_audit_init(&t->audit, NULL, t->cpus_str)) {
		osn_warn("--audit: %s", osn_last_err());
		return;
	}
	t->audit_tasks = osn_audit_read_tasks(&t->audit.nr_tasks,
					      &t->audit.tasks_why);
	t->audit.tasks = t->audit_tasks;
	osn_audit_run(&t->audit);
	t->have_audit = true;
	osn_sources_explain(&t->sources, &t->audit);
	if (t->have_why)
		for (size_t i = 0; i < t->why.nparts; i++) {
			struct osn_part *p = &t->why.parts[i];

			p->finding = osn_audit_explain(&t->audit, p->cls,
						       p->name, p->id);
		}
}

/* The end of collection: the last read, the reports, the saved trace. */
static int tool_report(struct osn_tool *t)
{
	const struct osn_tool_ops *ops = t->ops;

	read_last(t);
	if (t->have_causes) {
		osn_causes_sort(&t->causes);
		osn_decoder_name_culprits(&t->dec, &t->causes);
	}
	if (t->p->audit)
		run_audit(t);
	if ((ops->finish && ops->finish(t)) || (ops->report && ops->report(t)) ||
	    write_report(t))
		return -1;
	warn_no_samples(t);
	if (save_trace(t) ||
	    (t->tinst && osn_save_event_hists(t->tinst, t->p->events,
					      t->p->nevents, t->text)))
		return -1;
	fflush(t->text);
	return 0;
}

static void free_instances(struct osn_tool *t)
{
	close_stop_watch(t);	/* an open trace_pipe keeps its instance */
	if (t->winst)
		tracefs_instance_free(t->winst);
	if (t->tinst)
		tracefs_instance_free(t->tinst);
	if (t->inst)
		tracefs_instance_free(t->inst);
}

static int close_outputs(struct osn_tool *t, int ret)
{
	if (t->json_f)
		fclose(t->json_f);
	if (t->report_f)
		fclose(t->report_f);
	if (t->rep)
		osn_report_free(t->rep);
	free(t->rep);
	if (t->trace_f && fclose(t->trace_f) && ret != 1) {
		osn_warn("cannot write %s: %s", t->p->trace_file,
			 strerror(errno));
		ret = 1;
	}
	return ret;
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
	free_rings(t);
	osn_decoder_free(&t->dec);
	free_instances(t);
	if (osn_session_end(&t->session)) {
		osn_warn("could not restore everything: %s (run 'osn cleanup')",
			 osn_last_err());
		ret = 1;
	}
	ret = close_outputs(t, ret);
	if (t->cgroup_fd >= 0)
		close(t->cgroup_fd);
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
