// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - osn hist: per-CPU histogram of the noise samples.
 *
 * The histogram is aggregated in the kernel by a hist trigger on
 * osn:sample_threshold in the tool's instance
 *     hist:keys=cpu,duration.buckets=B:vals=hitcount,duration
 * (B = bucket size in ns), so the tool reads one small table at the end
 * whatever the number of samples.  The duration value sums give the exact
 * average; the osn:sample events (one per CPU per period) give the exact
 * min and max (min_sample, max_sample).
 *
 * The percentiles come from a second trigger on the same event, with
 * buckets 100 times finer (OSN_PCT_FINE, 10 ns at the default -b 1):
 *     hist:keys=duration.buckets=B/100,cpu:vals=hitcount,duration
 * (keys in the other order, so that the kernel does not take it for the
 * first one), read back from the same hist file; the display buckets
 * stay what -b asks for.  See osn_hist_build_fine().
 *
 * Both triggers are described with libtracefs's hist API (trigger_alloc());
 * the commands it cannot write (a :size= and a paused creation) are
 * appended to its text by hand.
 *
 * Kernels built without CONFIG_HIST_TRIGGERS (Debian's 5.10) have no hist
 * file: there the same table is built in the tool from every
 * osn:sample_threshold event of the instance, read once a second, with
 * the same buckets and exact sums; events the buffer lost are reported as
 * such.
 *
 * --causes adds, per culprit (causes.h), a histogram of the durations of
 * the noises it took part in, with the same -b and -E.  No hist trigger
 * can build it (osn:noise_cause has no duration, and a trigger cannot
 * join it to the noise event it explains): it is built here from the
 * linked events, on every kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "osn.h"
#include "run.h"

/* fine buckets for the percentiles: the display bucket / OSN_PCT_FINE */
#define OSN_PCT_FINE	100
/*
 * The map size of the :cont and :pause commands.  The kernel builds (and
 * frees) a whole map for every command it parses, even one that only
 * pauses an existing trigger (the size is not part of the match): with
 * the tables' own sizes, the second command took ~30 ms under TCG, and
 * the second table counted 1% more samples than the first.
 */
#define OSN_HIST_CMD	":size=128"

struct hist {
	struct osn_exact *exact;	/* indexed by cpu */
	struct tracefs_hist *trigger;	/* the display table's */
	char spec[256];			/* its text (trigger_alloc()) */
	struct tracefs_hist *fine_trigger;	/* the percentiles' */
	char fine_spec[256];
	bool in_tool;			/* no hist triggers: kh built here */
	struct osn_khist kh;
	struct osn_khist fine;		/* percentiles: finer buckets */
	struct osn_hist h;
	bool have_h;
	bool paused;			/* not counting: before the start, after the end */
};

static void hist_on_event(struct osn_tool *t, const struct osn_event *ev)
{
	struct hist *h = t->priv;

	if (ev->type == OSN_E_SAMPLE) {
		osn_exact_add_sample(&h->exact[ev->cpu], ev);
	} else if (ev->type == OSN_E_THRESHOLD && h->in_tool) {
		uint64_t d = ev->thr.duration;

		h->kh.hits++;
		if (osn_khist_add(&h->kh, ev->cpu, d - d % h->kh.bucket_ns, 1, d))
			h->kh.dropped++;
		if (osn_khist_add(&h->fine, ev->cpu,
				  d - d % h->fine.bucket_ns, 1, d))
			h->fine.dropped++;
	}
}

/* No hist triggers in this kernel: count every sample_threshold here. */
static int hist_start_in_tool(struct osn_tool *t, struct hist *h)
{
	if (osn_event_enable(t->inst, OSN_EVENT_SYSTEM, OSN_EV_SAMPLE_THRESHOLD))
		return -1;
	h->in_tool = true;
	h->kh.bucket_ns = t->p->bucket_us * 1000;
	h->kh.have_sum = true;
	h->fine.bucket_ns = h->kh.bucket_ns / OSN_PCT_FINE;
	h->fine.have_sum = true;
	t->read_often = true;
	osn_warn("this kernel has no hist triggers (CONFIG_HIST_TRIGGERS): the histogram is built by osn from every %s event, read once a second",
		 OSN_EV_SAMPLE_THRESHOLD);
	return 0;
}

/* The power of two from @min up to @max that holds @want entries. */
static unsigned map_size_for(uint64_t want, unsigned min, unsigned max)
{
	unsigned size = min;

	while (size < want && size < max)
		size *= 2;
	return size;
}

/*
 * The display table: a key per CPU and bucket (the -E buckets and a few
 * past them).  The kernel preallocates size= entries (and a hash table
 * of twice as many slots itself): each costs a few allocations when the
 * trigger is made and removed, which at 64 CPUs under TCG took seconds,
 * so no slack on top of that.
 */
static unsigned map_size(const struct osn_tool *t)
{
	return map_size_for((uint64_t)t->ncpus * (t->p->entries + 64),
			    2048, 131072);
}

/*
 * The fine table: one entry per occupied fine bucket and CPU, so its
 * size follows the spread of the samples, not -E or the CPU count: 16384
 * entries at most (the percentiles of a few thousand distinct fine
 * durations a CPU on 4 CPUs; fewer on more).  When it is full the
 * percentiles of the buckets it missed keep the display resolution (the
 * JSON's percentiles_exact says which).
 */
static unsigned fine_map_size(const struct osn_tool *t)
{
	return map_size_for((uint64_t)t->ncpus * 4096, 8192, 16384);
}

static int hist_init(struct osn_tool *t)
{
	struct hist *h = calloc(1, sizeof(*h));

	if (h)
		h->exact = calloc(t->nr_cpus, sizeof(*h->exact));
	if (!h || !h->exact) {
		free(h);
		return osn_err("out of memory");
	}
	t->priv = h;
	return 0;
}

/* Append "@spec@suffix" to the event's trigger file. */
static int trigger_cmd(struct osn_tool *t, const char *spec, const char *suffix)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "%s%s", spec, suffix);
	return osn_event_trigger(t->inst, OSN_EVENT_SYSTEM,
				 OSN_EV_SAMPLE_THRESHOLD, cmd);
}

/*
 * One table's trigger, described with libtracefs's hist API: the display
 * one (keys cpu, duration.buckets=B) or the fine one (keys duration, cpu:
 * in the other order, so that the kernel does not take it for the display
 * one), with the duration sums or without.  @spec gets its text
 * ("hist:keys=...:vals=..."), as libtracefs writes it.  NULL, or the
 * descriptor (tracefs_hist_free() it).
 */
static struct tracefs_hist *trigger_alloc(struct osn_tool *t, bool fine,
					  bool sums, unsigned long long bucket_ns,
					  char *spec, size_t len)
{
	struct tracefs_hist_axis_cnt cpu = { TRACEFS_HIST_CPU,
					     TRACEFS_HIST_KEY_NORMAL, 0 };
	struct tracefs_hist_axis_cnt dur = { OSN_F_DURATION,
					     TRACEFS_HIST_KEY_BUCKETS,
					     (int)bucket_ns };	/* -b <= 1 s */
	struct tracefs_hist_axis_cnt axes[] = { fine ? dur : cpu,
						fine ? cpu : dur, { NULL } };
	struct tracefs_hist *hist;
	struct trace_seq seq;
	char *b, *e;
	int ret;

	hist = tracefs_hist_alloc_nd_cnt(t->dec.tep, OSN_EVENT_SYSTEM,
					 OSN_EV_SAMPLE_THRESHOLD, axes);
	if (!hist || (sums &&
		      (tracefs_hist_add_value(hist, TRACEFS_HIST_HITCOUNT) ||
		       tracefs_hist_add_value(hist, OSN_F_DURATION)))) {
		tracefs_hist_free(hist);
		osn_err("libtracefs cannot describe a hist trigger on %s:%s",
			OSN_EVENT_SYSTEM, OSN_EV_SAMPLE_THRESHOLD);
		return NULL;
	}
	/*
	 * The trigger's text, for the commands libtracefs 1.6 cannot write
	 * (trigger_create(), hist_start(), hist_pause()): it has no setter
	 * for the map's ":size=" (struct tracefs_hist has a size only
	 * sqlhist sets) and tracefs_hist_start() cannot create a trigger
	 * paused.  tracefs_hist_echo_cmd() is the one call that shows the
	 * text: "echo 'TEXT' > PATH".
	 */
	trace_seq_init(&seq);
	ret = tracefs_hist_echo_cmd(&seq, t->inst, hist, TRACEFS_HIST_CMD_START);
	trace_seq_terminate(&seq);
	b = ret ? NULL : strchr(seq.buffer, '\'');
	e = b ? strstr(b + 1, "' > ") : NULL;
	if (!e || e - b - 1 >= (long)len) {
		trace_seq_destroy(&seq);
		tracefs_hist_free(hist);
		osn_err("libtracefs wrote no hist trigger for %s:%s",
			OSN_EVENT_SYSTEM, OSN_EV_SAMPLE_THRESHOLD);
		return NULL;
	}
	snprintf(spec, len, "%.*s", (int)(e - b - 1), b + 1);
	trace_seq_destroy(&seq);
	return hist;
}

/*
 * Create a table's trigger, paused, with the map size @size: with exact
 * sums first, without them if the kernel refuses.  The descriptor, or
 * NULL with the first error.
 */
static struct tracefs_hist *trigger_create(struct osn_tool *t, char *spec,
					   size_t len, bool fine,
					   unsigned long long bucket_ns,
					   unsigned size)
{
	char first[OSN_ERR_LEN] = "", suffix[32];
	struct tracefs_hist *hist;

	snprintf(suffix, sizeof(suffix), ":size=%u:pause", size);
	for (int sums = 1; sums >= 0; sums--) {
		hist = trigger_alloc(t, fine, sums, bucket_ns, spec, len);
		if (!hist)
			return NULL;
		if (!trigger_cmd(t, spec, suffix))
			return hist;
		tracefs_hist_free(hist);
		osn_err_keep_first(first);
	}
	osn_err("%s", first);	/* the first error says more */
	return NULL;
}

/* Remove a table's trigger (tracefs_hist_destroy()) and free it. */
static void trigger_destroy(struct osn_tool *t, struct tracefs_hist **hist)
{
	if (!*hist)
		return;
	if (tracefs_hist_destroy(t->inst, *hist))
		osn_warn("the hist trigger of %s:%s could not be removed",
			  OSN_EVENT_SYSTEM, OSN_EV_SAMPLE_THRESHOLD);
	tracefs_hist_free(*hist);
	*hist = NULL;
}

/*
 * Both tables are created paused with the instance (ops->events), before
 * the workload starts: the kernel allocates each map as it parses the
 * command, and once the workload runs every CPU is busy, which under TCG
 * made that cost up to 65 % of a CPU in osn hist's first seconds of
 * collection at 32 vCPUs (make bench --scale).  After the module came
 * back (osn_tool_resume()) the old triggers are gone with its events:
 * the descriptors are freed and the tables made again.
 */
static int hist_events(struct osn_tool *t)
{
	unsigned long long bns = t->p->bucket_us * 1000;
	struct hist *h = t->priv;

	tracefs_hist_free(h->trigger);
	tracefs_hist_free(h->fine_trigger);
	h->trigger = h->fine_trigger = NULL;
	h->paused = true;
	if (!tracefs_event_file_exists(t->inst, OSN_EVENT_SYSTEM,
				       OSN_EV_SAMPLE_THRESHOLD, "hist"))
		return 0;
	h->trigger = trigger_create(t, h->spec, sizeof(h->spec), false, bns,
				    map_size(t));
	if (!h->trigger)
		return -1;
	/* best effort: without it, the percentiles are the display edges */
	h->fine_trigger = trigger_create(t, h->fine_spec, sizeof(h->fine_spec),
					 true, bns / OSN_PCT_FINE,
					 fine_map_size(t));
	if (!h->fine_trigger)
		osn_debug("percentiles at the display buckets: %s",
			  osn_last_err());
	return 0;
}

/*
 * Collection starts, after the -t trace was cleared (start_collecting()):
 * both tables start one right after the other, and are paused the same
 * way at the end, before the trace stops (hist_end()): they count the
 * same samples, give or take the few of the moment between two writes,
 * and none that the trace does not hold (cli/85-hist-percentiles).
 */
static int hist_start(struct osn_tool *t)
{
	unsigned long long bns = t->p->bucket_us * 1000;
	struct hist *h = t->priv;

	if (t->causes) {
		osn_causes_set_hist(t->causes, bns, t->p->entries);
		/* the noise events come by hundreds a second: read each tick */
		t->read_often = true;
	}
	if (!h->trigger)
		return hist_start_in_tool(t, h);
	/* not tracefs_hist_continue(): it cannot say OSN_HIST_CMD's size */
	if (trigger_cmd(t, h->spec, OSN_HIST_CMD ":cont") ||
	    (h->fine_trigger &&
	     trigger_cmd(t, h->fine_spec, OSN_HIST_CMD ":cont")))
		return -1;
	h->paused = false;
	return 0;
}

/*
 * The end of counting: both tables paused, in the order they started (not
 * tracefs_hist_pause(): it cannot say OSN_HIST_CMD's size).
 */
static void hist_pause(struct osn_tool *t, struct hist *h)
{
	if (!h->trigger || h->paused)
		return;
	trigger_cmd(t, h->spec, OSN_HIST_CMD ":pause");
	if (h->fine_trigger)
		trigger_cmd(t, h->fine_spec, OSN_HIST_CMD ":pause");
	h->paused = true;
}

/* ops->end: the tables stop counting before the trace stops recording. */
static void hist_end(struct osn_tool *t)
{
	hist_pause(t, t->priv);
}

/*
 * Turn the aggregated tables into what osn hist prints; frees @kh and
 * @fine (NULL: percentiles at the display buckets).
 */
static int hist_build(struct osn_tool *t, struct hist *h, struct osn_khist *kh,
		      struct osn_khist *fine)
{
	int ret = 0;

	if (kh->dropped)
		osn_warn("the %s histogram was full: %llu samples dropped (use a larger -b)",
			 h->in_tool ? "tool's" : "in-kernel",
			 (unsigned long long)kh->dropped);
	if (fine && fine->dropped)
		osn_debug("the percentiles' fine table was full (%llu samples dropped): some percentiles are at the display buckets",
			  (unsigned long long)fine->dropped);
	if (osn_hist_build_fine(&h->h, kh, fine, t->p->entries, t->cpus,
				t->ncpus, h->exact))
		ret = osn_err("out of memory");
	else
		h->have_h = true;
	osn_khist_free(kh);
	if (fine)
		osn_khist_free(fine);
	return ret;
}

/*
 * The whole hist file, NUL-terminated (free() it), read with a buffer of
 * 1 MB and up, not tracefs_event_file_read()'s 8 KB reads: the file of a
 * 32-CPU run holds both tables, megabytes of text, and under TCG each
 * read() on a big machine costs a round of every busy vCPU (issue 35).
 * The kernel formats the file whole at the first read (seq_file), so the
 * size asked only sets how many calls copy it out.
 */
static char *hist_file_read(struct osn_tool *t)
{
	char path[128], *buf = NULL, *more;
	size_t len = 0, cap = 1 << 19;
	ssize_t n = 0;
	int fd;

	snprintf(path, sizeof(path), "events/%s/%s/hist", OSN_EVENT_SYSTEM,
		 OSN_EV_SAMPLE_THRESHOLD);
	fd = tracefs_instance_file_open(t->inst, path, O_RDONLY);
	if (fd < 0)
		return NULL;
	do {
		len += n;
		if (len + 1 >= cap || !buf) {
			cap *= 2;
			more = realloc(buf, cap);
			if (!more) {
				n = -1;
				break;
			}
			buf = more;
		}
		do {
			n = read(fd, buf + len, cap - 1 - len);
		} while (n < 0 && errno == EINTR);
	} while (n > 0);
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

static int hist_finish(struct osn_tool *t)
{
	struct hist *h = t->priv;
	struct osn_khist kh, fine;
	bool fine_ok;
	char *text;
	int ret;

	if (h->in_tool) {
		ret = hist_build(t, h, &h->kh, &h->fine);
		h->in_tool = false;	/* events after the end are not counted */
		return ret;
	}
	if (!h->trigger)
		return 0;
	hist_pause(t, h);
	text = hist_file_read(t);
	if (!text)
		return osn_err("cannot read events/%s/%s/hist",
			       OSN_EVENT_SYSTEM, OSN_EV_SAMPLE_THRESHOLD);
	if (osn_debug_level > 1)
		fprintf(stderr, "%s", text);
	ret = osn_khist_parse_keys(text, t->p->bucket_us * 1000,
				   "!" OSN_F_DURATION, &kh);
	fine_ok = h->fine_trigger != NULL;
	if (!ret && fine_ok &&
	    osn_khist_parse_keys(text, t->p->bucket_us * 1000 / OSN_PCT_FINE,
				 OSN_F_DURATION, &fine)) {
		osn_debug("percentiles at the display buckets: %s",
			  osn_last_err());
		fine_ok = false;
	}
	free(text);
	if (ret)
		return -1;
	ret = hist_build(t, h, &kh, fine_ok ? &fine : NULL);
	trigger_destroy(t, &h->trigger);
	trigger_destroy(t, &h->fine_trigger);
	return ret;
}

static void hist_final_table(struct osn_tool *t)
{
	struct hist *h = t->priv;
	struct osn_report_info info;

	osn_tool_report_info(t, &info);
	osn_render_hist(t->out.text, &h->h, &info);
}

static void hist_final_causes(struct osn_tool *t,
			      const struct osn_report_info *info)
{
	osn_render_hist_causes(t->out.text, info->causes, info,
			       t->p->causes_max);
}

static void hist_final_json(FILE *f, struct osn_tool *t,
			    const struct osn_report_info *info)
{
	struct hist *h = t->priv;

	osn_json_hist(f, &h->h, info);
}

static int hist_report(struct osn_tool *t)
{
	static const struct osn_final_report r = {
		.table = hist_final_table,
		.causes = hist_final_causes,
		.json = hist_final_json,
	};
	struct hist *h = t->priv;

	if (!h->have_h) {
		struct osn_khist kh = { .bucket_ns = t->p->bucket_us * 1000 };

		if (osn_hist_build(&h->h, &kh, t->p->entries, t->cpus, t->ncpus,
				   h->exact))
			return osn_err("out of memory");
		h->have_h = true;
	}
	if (t->rep && osn_report_set_hist(t->rep, &h->h))
		return -1;
	return osn_run_final_report(t, &r);
}

static void hist_destroy(struct osn_tool *t)
{
	struct hist *h = t->priv;

	if (!h)
		return;
	if (h->have_h)
		osn_hist_free(&h->h);
	osn_khist_free(&h->kh);
	osn_khist_free(&h->fine);
	/* finish() removed the triggers; a failed run's go with the instance */
	tracefs_hist_free(h->trigger);
	tracefs_hist_free(h->fine_trigger);
	free(h->exact);
	free(h);
	t->priv = NULL;
}

const struct osn_tool_ops osn_hist_ops = {
	.cmd = OSN_CMD_HIST,
	.instance = OSN_INST_HIST,
	.parts = OSN_PART_STOP | OSN_PART_SAVE | OSN_PART_THREADS |
		 OSN_PART_CAUSES | OSN_PART_AUDIT | OSN_PART_REPORT,
	.init = hist_init,
	.events = hist_events,
	.start = hist_start,
	.end = hist_end,
	.on_event = hist_on_event,
	.finish = hist_finish,
	.report = hist_report,
	.destroy = hist_destroy,
};
