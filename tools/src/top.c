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
#include "run.h"

struct top {
	struct osn_cpu_stats *stats;	/* indexed by cpu */
};

static void top_on_event(struct osn_tool *t, const struct osn_event *ev)
{
	struct top *top = t->priv;

	if (ev->type != OSN_E_SAMPLE)
		return;
#ifdef OSN_MUTANT_CLI_WRONG_CPU
	/* mutant (make check-mutants): another CPU's statistics */
	osn_stats_add_sample(&top->stats[ev->cpu ? ev->cpu - 1 : 0], ev);
#else
	osn_stats_add_sample(&top->stats[ev->cpu], ev);
#endif
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
		fputs("\033[H\033[2J", t->out.text);
	osn_render_top(t->out.text, &v, &info);
	fflush(t->out.text);
}

static void top_tick(struct osn_tool *t)
{
	if (t->p->quiet)
		return;
	print_table(t, isatty(fileno(t->out.text)) && !osn_debug_level);
	/* nobody reads us any more (osn top | head): end the run cleanly */
	if (ferror(t->out.text))
		osn_interrupted = SIGPIPE;
}

static void top_final_table(struct osn_tool *t)
{
	print_table(t, !t->p->quiet && isatty(fileno(t->out.text)) &&
		    !osn_debug_level);
}

static void top_final_causes(struct osn_tool *t,
			     const struct osn_report_info *info)
{
	osn_render_causes(t->out.text, info->causes, t->cpus, t->ncpus, 10);
}

static void top_final_json(FILE *f, struct osn_tool *t,
			   const struct osn_report_info *info)
{
	struct top *top = t->priv;
	struct osn_top_view v = {
		.stats = top->stats, .cpus = t->cpus, .ncpus = t->ncpus,
	};

	osn_json_top(f, &v, info);
}

static int top_report(struct osn_tool *t)
{
	static const struct osn_final_report r = {
		.table = top_final_table,
		.causes = top_final_causes,
		.json = top_final_json,
		.lost_after_stop = true,
	};

	return osn_run_final_report(t, &r);
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
	.parts = OSN_PART_STOP | OSN_PART_SAVE |	\
		 OSN_PART_THREADS | OSN_PART_CAUSES |	\
		 OSN_PART_AUDIT | OSN_PART_REPORT,	\
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
 * rtla hwnoise is rtla osnoise top with OSNOISE_IRQ_DISABLE (set by its
 * entry in the command table, cmds.c, with its runtime share and its
 * table of HW and NMI only).
 */
const struct osn_tool_ops osn_hwnoise_ops = {
	.cmd = OSN_CMD_HWNOISE,
	.instance = OSN_INST_TOP,
	TOP_CALLBACKS,
};
