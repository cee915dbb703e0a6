// SPDX-License-Identifier: GPL-2.0
/*
 * top.c - osn top: per-CPU summary of the OS noise, refreshed once a
 * second, from the osn:sample events (one per CPU per period); and
 * osn hwnoise, the same with interrupts off.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "osn.h"
#include "tool.h"

struct top {
	struct osn_cpu_stats *stats;	/* indexed by cpu */
};

static void top_on_event(struct osn_tool *t, const struct osn_event *ev)
{
	struct top *top = t->priv;

	if (ev->type != OSN_E_SAMPLE)
		return;
	osn_stats_add_sample(&top->stats[ev->cpu], ev);
}

static void print_table(struct osn_tool *t, bool clear)
{
	struct top *top = t->priv;
	struct osn_top_view v = {
		.stats = top->stats, .cpus = t->cpus, .ncpus = t->ncpus,
	};
	struct osn_report_info info;

	osn_tool_report_info(t, &info);
	if (clear)
		fputs("\033[H\033[2J", t->text);
	osn_render_top(t->text, &v, &info);
	fflush(t->text);
}

static void top_tick(struct osn_tool *t)
{
	if (t->p->quiet)
		return;
	print_table(t, isatty(fileno(t->text)) && !osn_debug_level);
	/* nobody reads us any more (osn top | head): end the run cleanly */
	if (ferror(t->text))
		osn_interrupted = SIGPIPE;
}

static int top_report(struct osn_tool *t)
{
	struct top *top = t->priv;
	struct osn_report_info info;

	osn_tool_report_info(t, &info);
	if (!(t->p->json && !t->p->json_file))
		print_table(t, !t->p->quiet && isatty(fileno(t->text)) &&
			    !osn_debug_level);
	if (t->stopped)
		osn_render_stop(t->text, info.why);
	if (info.sources && !(t->p->json && !t->p->json_file))
		osn_render_advice(t->text, info.sources);
	if (info.causes && !(t->p->json && !t->p->json_file))
		osn_render_causes(t->text, info.causes, t->cpus, t->ncpus, 10);
	else if (info.events_lost && t->p->json && !t->p->json_file)
		osn_render_lost(stderr, info.events_lost);
	if (t->p->json) {
		struct osn_top_view v = {
			.stats = top->stats, .cpus = t->cpus, .ncpus = t->ncpus,
		};
		FILE *f = osn_tool_json_open(t);

		if (!f)
			return -1;
		osn_json_top(f, &v, &info);
		if (osn_tool_json_close(t, f))
			return -1;
	}
	return 0;
}

static int top_init(struct osn_tool *t)
{
	struct top *top = calloc(1, sizeof(*top));

	if (top)
		top->stats = calloc(t->nr_cpus, sizeof(*top->stats));
	if (!top || !top->stats) {
		free(top);
		return osn_err("out of memory");
	}
	t->priv = top;
	return 0;
}

static void top_destroy(struct osn_tool *t)
{
	struct top *top = t->priv;

	if (top)
		free(top->stats);
	free(top);
	t->priv = NULL;
}

/* what osn top and osn hwnoise do alike */
#define TOP_CALLBACKS					\
	.init = top_init,				\
	.on_event = top_on_event,			\
	.tick = top_tick,				\
	.report = top_report,				\
	.destroy = top_destroy

const struct osn_tool_ops osn_top_ops = {
	.cmd = OSN_CMD_TOP,
	.instance = OSN_INST_TOP,
	TOP_CALLBACKS,
};

/*
 * osn hwnoise: osn top with interrupts off in the measuring window, as
 * rtla hwnoise is rtla osnoise top with OSNOISE_IRQ_DISABLE; the table
 * shows HW and NMI only (render.c, by the command).
 */
const struct osn_tool_ops osn_hwnoise_ops = {
	.cmd = OSN_CMD_HWNOISE,
	.instance = OSN_INST_TOP,
	.options = OSN_OPT_IRQ_DISABLE,
	TOP_CALLBACKS,
};
