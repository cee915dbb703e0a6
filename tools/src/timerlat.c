// SPDX-License-Identifier: GPL-2.0
/*
 * timerlat.c - osn timerlat top and osn timerlat hist: the module in
 * mode=timerlat (set and restored with the other knobs, run_knobs.c),
 * its osn:timerlat_sample events read from the tool's buffer, as rtla's
 * tracefs mode does.  Both commands take every sample in user space
 * (rather than a kernel hist trigger, as osn hist does): top needs each
 * sample for its exact min/avg/max anyway, hist's buckets are the same
 * few adds, and the same code runs on every kernel, 5.10 included.
 * After a stop (-i, -T, -a), the activation that hit it is analysed
 * from the CPU's recent osn events (tlat.c), as rtla's auto-analysis.
 * -k (the default) has the module's timerlat/N threads measure; -u and
 * -U its user-space mode (NO_OSNOISE_WORKLOAD), -u with osn's own
 * timerlatu/N processes (tlat_user.c), both with the return from user.
 * --aa-only prints the analysis alone, --no-aa none; --dump-tasks adds
 * the task on each measured CPU at the stop, as rtla's: the last one
 * sched:sched_switch put there, and the function of the work a kworker
 * started (workqueue:workqueue_execute_start), read with osn's events.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "osn.h"
#include "run.h"
#include "threads.h"
#include "tlat.h"
#include "tlat_user.h"

/* -s: the last stack a CPU's timer interrupt saved, as read */
struct tlat_stack {
	uint64_t ts;
	unsigned n;
	uint64_t addr[OSN_TLAT_STACK_DEPTH];
};

struct tlat {
	struct osn_tlat_cpu *cpu;	/* indexed by cpu */
	uint64_t *buckets;		/* hist: every column's, in one block */
	struct osn_tlat_aa aa;		/* the stop's analysis */
	bool have_aa;
	struct osn_tlat_user *user;	/* -u: the timerlatu/N processes */
	struct tlat_stack *stack;	/* -s: per CPU */
	struct osn_cpu_task *cur;	/* --dump-tasks: per CPU, as it goes */
	struct osn_cpu_task *tasks;	/* at the stop, per measured CPU */
	int ntasks;
};

static void tlat_view(const struct osn_tool *t, struct osn_tlat_view *v)
{
	const struct tlat *tl = t->priv;
	const struct osn_params *p = t->p;

	memset(v, 0, sizeof(*v));
	v->cpu = tl->cpu;
	v->cpus = t->cpus;
	v->ncpus = t->ncpus;
	v->bucket_us = p->bucket_us;
	v->entries = p->entries;
	v->irq = !p->no_irq;
	v->thread = !p->no_thread;
	v->user = p->tlat_threads != OSN_TLAT_KERNEL;
	v->with_zeros = p->with_zeros;
	v->no_summary = p->no_summary;
	v->no_header = p->no_header;
	v->no_index = p->no_index;
	v->unit_ns = p->nano ? 1 : 1000;
	v->layout = p->layout;
}

/* --dump-tasks: the task switched in on a CPU, and a kworker's work */
static void tlat_on_task(struct tlat *tl, const struct osn_event *ev)
{
	struct osn_cpu_task *k = &tl->cur[ev->cpu];

	if (ev->type == OSN_E_WORK) {
		k->work_fn = ev->work.function;
		return;
	}
	k->pid = ev->sw.pid;
	osn_strlcpy(k->comm, ev->sw.comm, sizeof(k->comm));
	k->work_fn = 0;
}

/* -s: the frames, copied out of the record */
static void tlat_on_stack(struct tlat *tl, const struct osn_event *ev)
{
	struct tlat_stack *s = &tl->stack[ev->cpu];
	const unsigned char *p = ev->stack.frames;

	s->ts = ev->ts;
	s->n = 0;
	for (unsigned i = 0; p && i < ev->stack.n && i < OSN_TLAT_STACK_DEPTH;
	     i++) {
		uint64_t a64 = 0;
		uint32_t a32 = 0;

		if (ev->stack.size == 4) {
			memcpy(&a32, p + 4 * i, 4);
			a64 = a32;
		} else {
			memcpy(&a64, p + 8 * i, 8);
		}
		s->addr[s->n++] = a64;
	}
}

static void tlat_on_event(struct osn_tool *t, const struct osn_event *ev)
{
	struct tlat *tl = t->priv;

	if (ev->cpu < 0 || ev->cpu >= t->nr_cpus)
		return;
	if (ev->type == OSN_E_TLAT)
		osn_tlat_add(&tl->cpu[ev->cpu], ev, t->p->bucket_us,
			     t->p->entries, t->p->nano ? 1 : 1000);
	else if (ev->type == OSN_E_STACK && tl->stack)
		tlat_on_stack(tl, ev);
	else if (osn_event_is_context(ev->type) && tl->cur)
		tlat_on_task(tl, ev);
}

/*
 * The context events in the tool's instance, from setup on: -s's stack,
 * --dump-tasks' kernel events (as rtla's aa enables them).  Enabled at
 * the start of collection instead, the first activation could hit the
 * stop before its thread's switch was recorded.
 */
static int tlat_events(struct osn_tool *t)
{
	if (t->p->stack_us && osn_event_enable(t->inst, OSN_EVENT_SYSTEM,
					       OSN_EV_TIMERLAT_STACK))
		return -1;
	if (!t->p->dump_tasks)
		return 0;
	if (!osn_decoder_has(&t->dec, OSN_E_SWITCH))
		return osn_err("--dump-tasks: this kernel has no %s:%s event as osn reads it",
			       OSN_SWITCH_SYSTEM, OSN_SWITCH_EVENT);
	if (osn_event_enable(t->inst, OSN_SWITCH_SYSTEM, OSN_SWITCH_EVENT))
		return -1;
	/* without it, a kworker is named without its work */
	if (osn_decoder_has(&t->dec, OSN_E_WORK) &&
	    osn_event_enable(t->inst, OSN_WORK_SYSTEM, OSN_WORK_EVENT))
		return -1;
	return 0;
}

/*
 * -u: the timerlatu/N processes, once the event that starts the run is
 * on (they wait for the run's start themselves).
 */
static int tlat_start(struct osn_tool *t)
{
	struct tlat *tl = t->priv;
	const struct osn_params *p = t->p;

	/* a thousand samples a second per CPU: read every tick */
	t->read_often = true;
	if (osn_event_enable(t->inst, OSN_EVENT_SYSTEM,
			     OSN_EV_TIMERLAT_SAMPLE))
		return -1;
	if (p->tlat_threads != OSN_TLAT_USER || tl->user)
		return 0;
	tl->user = osn_tlat_user_start(t->cpus, t->ncpus, &p->sched, p->cgroup,
				       p->cgroup_path);
	return tl->user ? 0 : -1;
}

static void tlat_tick(struct osn_tool *t)
{
	struct tlat *tl = t->priv;

	osn_tlat_user_reap(tl->user);
}

static void print_top(struct osn_tool *t, bool clear)
{
	struct osn_report_info info;
	struct osn_tlat_view v;

	tlat_view(t, &v);
	osn_tool_report_info(t, &info);
	if (clear)
		fputs("\033[H\033[2J", t->out.text);
	osn_render_tlat_top(t->out.text, &v, &info);
	fflush(t->out.text);
}

static void top_tick(struct osn_tool *t)
{
	tlat_tick(t);
	if (t->p->quiet)
		return;
	print_top(t, isatty(fileno(t->out.text)) && !osn_debug_level);
	/* nobody reads us any more (osn timerlat | head): end cleanly */
	if (ferror(t->out.text))
		osn_interrupted = SIGPIPE;
}

static void top_table(struct osn_tool *t)
{
	struct osn_tlat_view v;

	if (t->p->aa_only) {	/* the analysis only; rtla's line without */
		tlat_view(t, &v);
		if (!t->stopped)
			osn_render_tlat_max(t->out.text, &v);
		return;
	}
	print_top(t, !t->p->quiet && isatty(fileno(t->out.text)) &&
		  !osn_debug_level);
}

static void hist_table(struct osn_tool *t)
{
	struct osn_report_info info;
	struct osn_tlat_view v;

	tlat_view(t, &v);
	osn_tool_report_info(t, &info);
	osn_render_tlat_hist(t->out.text, &v, &info);
}

/*
 * The CPU that hit the stop: osn:stop's, else the latest activation
 * over a limit among the measured CPUs.
 */
static void tlat_analyse(struct osn_tool *t)
{
	struct tlat *tl = t->priv;
	uint64_t irq = t->p->stop_us * 1000, thr = t->p->stop_total_us * 1000;
	struct osn_stop *st = t->stop;
	struct osn_tlat_aa aa;

	tl->have_aa = false;
	if (!st || !t->stopped || !st->rings || t->p->no_aa)
		return;
	if (st->have_ev && st->ev.cpu >= 0 && st->ev.cpu < t->nr_cpus) {
		tl->have_aa = !osn_tlat_analyze(&st->rings[st->ev.cpu],
						st->ev.cpu, irq, thr, &tl->aa);
		return;
	}
	for (size_t i = 0; i < t->ncpus; i++)
		if (!osn_tlat_analyze(&st->rings[t->cpus[i]], t->cpus[i], irq,
				      thr, &aa) &&
		    (!tl->have_aa || aa.expiry > tl->aa.expiry)) {
			tl->aa = aa;
			tl->have_aa = true;
		}
}

/*
 * --dump-tasks: the task on each measured CPU at the stop (the tool's
 * instance stopped with it: the last events read are the stop's).
 */
static void tlat_read_tasks(struct osn_tool *t)
{
	struct tlat *tl = t->priv;

	tl->ntasks = 0;
	if (!tl->cur || !t->stopped)
		return;
	for (size_t i = 0; i < t->ncpus; i++)
		tl->tasks[tl->ntasks++] = tl->cur[t->cpus[i]];
	osn_decoder_name_tasks(&t->dec, tl->tasks, tl->ntasks);
}

/*
 * The analysis's names: its causes' functions, and the stack its CPU's
 * timer interrupt saved for this activation (-s: emitted at the IRQ for
 * an IRQ stop, after the thread's sample for a thread's; older stacks
 * are another activation's).
 */
static void tlat_name_aa(struct osn_tool *t)
{
	struct tlat *tl = t->priv;
	const struct tlat_stack *s;

	if (!tl->have_aa)
		return;
	osn_decoder_name_parts(&t->dec, tl->aa.parts, tl->aa.nparts);
	tl->aa.nframes = 0;
	if (!tl->stack || tl->aa.cpu < 0 || tl->aa.cpu >= t->nr_cpus)
		return;
	s = &tl->stack[tl->aa.cpu];
	if (!s->n || s->ts < tl->aa.expiry)
		return;
	osn_name_frames(s->addr, s->n, tl->aa.frames);
	tl->aa.nframes = s->n;
}

/* The analysis with its causes' functions named. */
static int tlat_finish(struct osn_tool *t)
{
	struct tlat *tl = t->priv;

	/* collection is over: nothing more to measure */
	tlat_read_tasks(t);
	osn_tlat_user_stop(tl->user);
	tl->user = NULL;
	tlat_analyse(t);
	tlat_name_aa(t);
	return 0;
}

static void tlat_stop(struct osn_tool *t)
{
	struct tlat *tl = t->priv;

	if (t->p->no_aa)
		fputs("osn timerlat hit stop tracing\n", t->out.text);
	else
		osn_render_tlat_stop(t->out.text, tl->have_aa ? &tl->aa : NULL);
	if (t->p->dump_tasks)
		osn_render_tlat_tasks(t->out.text, tl->tasks, tl->ntasks);
}

/* --on-threshold continue: each hit's analysis as it comes. */
static void tlat_hit_print(struct osn_tool *t)
{
	tlat_read_tasks(t);
	tlat_name_aa(t);
	tlat_stop(t);
}

static void tlat_json(FILE *f, struct osn_tool *t,
		      const struct osn_report_info *info)
{
	struct tlat *tl = t->priv;
	struct osn_tlat_view v;

	tlat_view(t, &v);
	osn_json_tlat(f, &v, info, tl->have_aa ? &tl->aa : NULL);
}

static int top_report(struct osn_tool *t)
{
	static const struct osn_final_report r = {
		.table = top_table,
		.stop = tlat_stop,
		.json = tlat_json,
		.lost_after_stop = true,
	};

	return osn_run_final_report(t, &r);
}

static int hist_report(struct osn_tool *t)
{
	static const struct osn_final_report r = {
		.table = hist_table,
		.stop = tlat_stop,
		.json = tlat_json,
		.lost_after_stop = true,
	};

	return osn_run_final_report(t, &r);
}

static int tlat_init_tasks(const struct osn_tool *t, struct tlat *tl)
{
	if (!t->p->dump_tasks)
		return 0;
	tl->cur = calloc(t->nr_cpus, sizeof(*tl->cur));
	tl->tasks = calloc(t->nr_cpus, sizeof(*tl->tasks));
	if (!tl->cur || !tl->tasks)
		return -1;
	for (int c = 0; c < t->nr_cpus; c++) {
		tl->cur[c].cpu = c;
		tl->cur[c].pid = -1;
	}
	return 0;
}

static int tlat_init(struct osn_tool *t)
{
	struct tlat *tl = calloc(1, sizeof(*tl));
	bool hist = osn_cmd_desc(t->ops->cmd)->hist_config;
	size_t per_cpu = (size_t)t->p->entries * OSN_TLAT_NCTX;

	if (!tl)
		return osn_err("out of memory");
	t->priv = tl;
	tl->cpu = calloc(t->nr_cpus, sizeof(*tl->cpu));
	if (t->p->stack_us)
		tl->stack = calloc(t->nr_cpus, sizeof(*tl->stack));
	if (!tl->cpu || (t->p->stack_us && !tl->stack) ||
	    tlat_init_tasks(t, tl))
		return osn_err("out of memory");
	if (!hist)
		return 0;
	tl->buckets = calloc((size_t)t->nr_cpus * per_cpu, sizeof(uint64_t));
	if (!tl->buckets)
		return osn_err("out of memory");
	for (int c = 0; c < t->nr_cpus; c++)
		for (int x = 0; x < OSN_TLAT_NCTX; x++)
			tl->cpu[c].ctx[x].buckets = tl->buckets + c * per_cpu +
				(size_t)x * t->p->entries;
	return 0;
}

static void tlat_destroy(struct osn_tool *t)
{
	struct tlat *tl = t->priv;

	if (tl) {
		osn_tlat_user_stop(tl->user);
		free(tl->buckets);
		free(tl->cpu);
		free(tl->cur);
		free(tl->tasks);
		free(tl->stack);
	}
	free(tl);
	t->priv = NULL;
}

#define TLAT_CALLBACKS					\
	.parts = OSN_PART_STOP | OSN_PART_SAVE | OSN_PART_THREADS, \
	.init = tlat_init,				\
	.events = tlat_events,				\
	.start = tlat_start,				\
	.on_event = tlat_on_event,			\
	.finish = tlat_finish,				\
	.hit_analyse = tlat_analyse,			\
	.hit_print = tlat_hit_print,			\
	.destroy = tlat_destroy

const struct osn_tool_ops osn_tlat_top_ops = {
	.cmd = OSN_CMD_TLAT_TOP,
	.instance = OSN_INST_TOP,
	.tick = top_tick,
	.report = top_report,
	TLAT_CALLBACKS,
};

const struct osn_tool_ops osn_tlat_hist_ops = {
	.cmd = OSN_CMD_TLAT_HIST,
	.instance = OSN_INST_HIST,
	.tick = tlat_tick,
	.report = hist_report,
	TLAT_CALLBACKS,
};
