// SPDX-License-Identifier: GPL-2.0
/*
 * render_timerlat.c - osn timerlat top's table and osn timerlat hist's
 * histogram in rtla timerlat's layouts, their JSON, and the stop
 * analysis (see render.h).  Latencies are shown in whole us, as rtla.
 */
#include <stdlib.h>
#include <string.h>

#include "osn/osn_abi.h"
#include "cmd.h"
#include "render_int.h"
#include "tlat.h"

static const char *const ctx_titles[OSN_TLAT_NCTX] = { "IRQ", "Thr", "Usr" };

/* ns per unit shown: 1000 (us), or 1 with -n */
static unsigned unit_of(const struct osn_tlat_view *v)
{
	return v->unit_ns ? v->unit_ns : 1000;
}

/* "cur min avg max" of one context, each "%9llu", "-" without samples */
static void top_cells(FILE *f, const struct osn_tlat_stat *s, unsigned unit,
		      const char *end)
{
	if (!s->count) {
		fprintf(f, "%9s %9s %9s %9s%s", "-", "-", "-", "-", end);
		return;
	}
	fprintf(f, "%9llu %9llu %9llu %9llu%s",
		(unsigned long long)(s->cur / unit),
		(unsigned long long)(s->min / unit),
		(unsigned long long)(s->sum / s->count / unit),
		(unsigned long long)(s->max / unit), end);
}

void osn_render_tlat_top(FILE *f, const struct osn_tlat_view *v,
			 const struct osn_report_info *info)
{
	char elapsed[32];
	const char *u = osn_tlat_unit(unit_of(v));

	osn_format_elapsed(info->elapsed_s, elapsed, sizeof(elapsed));
	fprintf(f, "%37sTimer Latency\n", "");
	fprintf(f, "%-14s |          IRQ Timer Latency (%s)        |         Thread Timer Latency (%s)",
		elapsed, u, u);
	if (v->user)
		fprintf(f, "      |    Ret user Timer Latency (%s)", u);
	fputc('\n', f);
	fprintf(f, "CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max%s\n",
		v->user ? " |      cur       min       avg       max" : "");
	for (size_t i = 0; i < v->ncpus; i++) {
		const struct osn_tlat_cpu *c = &v->cpu[v->cpus[i]];

		/* as rtla: a CPU without a sample is not shown */
		if (!c->ctx[0].count && !c->ctx[1].count)
			continue;
		fprintf(f, "%3d #%-9llu |", v->cpus[i],
			(unsigned long long)c->ctx[0].count);
		top_cells(f, &c->ctx[0], unit_of(v), " |");
		top_cells(f, &c->ctx[1], unit_of(v), v->user ? " |" : "\n");
		if (v->user)
			top_cells(f, &c->ctx[2], unit_of(v), "\n");
	}
	if (info->unmeasured)
		fprintf(f, "not measured (counts as noise): %s\n",
			info->unmeasured);
}

/*
 * hist's columns: (CPU, context) with samples, the shown contexts; or in
 * the rows layout, each shown context with samples of all the CPUs
 * together (cpu -1: ALL)
 */
struct columns {
	size_t n;
	const struct osn_tlat_stat **s;
	int *cpu, *ctx;
};

static bool ctx_shown(const struct osn_tlat_view *v, int ctx)
{
	const bool shown[OSN_TLAT_NCTX] = { v->irq, v->thread, v->user };

	return shown[ctx];
}

static void column_add(struct columns *c, const struct osn_tlat_stat *s,
		       int cpu, int ctx)
{
	c->s[c->n] = s;
	c->cpu[c->n] = cpu;
	c->ctx[c->n++] = ctx;
}

/* @all: the rows layout's ALL of each context, else NULL (a CPU's) */
static int columns_get(const struct osn_tlat_view *v,
		       const struct osn_tlat_stat *all, struct columns *c)
{
	size_t max = (all ? 1 : v->ncpus) * OSN_TLAT_NCTX;

	c->n = 0;
	c->s = calloc(max ? max : 1, sizeof(*c->s));
	c->cpu = calloc(max ? max : 1, sizeof(*c->cpu));
	c->ctx = calloc(max ? max : 1, sizeof(*c->ctx));
	if (!c->s || !c->cpu || !c->ctx)
		return -1;
	for (int x = 0; all && x < OSN_TLAT_NCTX; x++)
		if (ctx_shown(v, x) && all[x].count)
			column_add(c, &all[x], -1, x);
	for (size_t i = 0; !all && i < v->ncpus; i++)
		for (int x = 0; x < OSN_TLAT_NCTX; x++) {
			const struct osn_tlat_stat *s = &v->cpu[v->cpus[i]].ctx[x];

			if (ctx_shown(v, x) && s->count)
				column_add(c, s, v->cpus[i], x);
		}
	return 0;
}

static void columns_free(struct columns *c)
{
	free(c->s);
	free(c->cpu);
	free(c->ctx);
}

static void hist_header(FILE *f, const struct osn_tlat_view *v,
			const struct columns *c,
			const struct osn_report_info *info)
{
	char elapsed[32];

	osn_format_elapsed(info->elapsed_s, elapsed, sizeof(elapsed));
	fprintf(f, "# osn timerlat histogram\n# Time unit is %s\n",
		unit_of(v) == 1 ? "nanoseconds (ns)" : "microseconds (us)");
	fprintf(f, "# Duration: %s\n", elapsed);
	if (!v->no_index)
		fputs("Index", f);
	for (size_t i = 0; i < c->n; i++) {
		if (c->cpu[i] < 0)
			fprintf(f, "   %s-ALL", ctx_titles[c->ctx[i]]);
		else
			fprintf(f, "   %s-%03d", ctx_titles[c->ctx[i]],
				c->cpu[i]);
	}
	fputc('\n', f);
}

static uint64_t bucket(const struct osn_tlat_stat *s, unsigned b)
{
	return s->buckets ? s->buckets[b] : 0;
}

static void hist_rows(FILE *f, const struct osn_tlat_view *v,
		      const struct columns *c)
{
	for (unsigned b = 0; b < v->entries; b++) {
		uint64_t total = 0;

		for (size_t i = 0; i < c->n; i++)
			total += bucket(c->s[i], b);
		if (!total && !v->with_zeros)
			continue;
		if (!v->no_index)
			fprintf(f, "%-6llu", (unsigned long long)(b * v->bucket_us));
		for (size_t i = 0; i < c->n; i++)
			fprintf(f, "%9llu ", (unsigned long long)bucket(c->s[i], b));
		fputc('\n', f);
	}
}

/* rtla's avg has 2 decimals */
static double avg_of(const struct osn_tlat_view *v,
		     const struct osn_tlat_stat *s)
{
	return (double)s->sum / s->count / unit_of(v);
}

static void hist_summary(FILE *f, const struct osn_tlat_view *v,
			 const struct columns *c)
{
	static const char *const labels[] = {
		"over: ", "count:", "min:  ", "avg:  ", "max:  ",
	};

	for (size_t r = 0; r < sizeof(labels) / sizeof(labels[0]); r++) {
		if (r && v->no_summary)
			break;
		if (!v->no_index)
			fputs(labels[r], f);
		for (size_t i = 0; i < c->n; i++) {
			const struct osn_tlat_stat *s = c->s[i];
			uint64_t val[] = { s->over, s->count, s->min / unit_of(v),
					   0, s->max / unit_of(v) };

			if (r == 3)
				fprintf(f, "%9.2f ", avg_of(v, s));
			else
				fprintf(f, "%9llu ", (unsigned long long)val[r]);
		}
		fputc('\n', f);
	}
}

/* ---- hist's rows layout ----------------------------------------------------- */

/* The ALL of each shown context: every measured CPU's merged. */
static int all_get(const struct osn_tlat_view *v,
		   struct osn_tlat_stat all[OSN_TLAT_NCTX])
{
	for (int x = 0; x < OSN_TLAT_NCTX; x++) {
		if (!ctx_shown(v, x))
			continue;
		all[x].buckets = calloc(v->entries ? v->entries : 1,
					sizeof(*all[x].buckets));
		if (!all[x].buckets)
			return -1;
		for (size_t i = 0; i < v->ncpus; i++)
			osn_tlat_merge(&all[x], &v->cpu[v->cpus[i]].ctx[x],
				       v->entries);
	}
	return 0;
}

static const char *const row_head[] = {
	"CPU", "ctx", "count", "min", "avg", "max", "over",
};

/* Row @r of the table: @s of context @x, "-" where it has no sample. */
static void table_row(struct osn_table *t, int r, const char *label, int x,
		      const struct osn_tlat_view *v,
		      const struct osn_tlat_stat *s)
{
	snprintf(osn_table_cell(t, r, 0), OSN_CELL, "%s", label);
	snprintf(osn_table_cell(t, r, 1), OSN_CELL, "%s", ctx_titles[x]);
	snprintf(osn_table_cell(t, r, 2), OSN_CELL, "%llu",
		 (unsigned long long)s->count);
	for (int k = 3; k < 6 && !s->count; k++)
		strcpy(osn_table_cell(t, r, k), "-");
	if (s->count) {
		snprintf(osn_table_cell(t, r, 3), OSN_CELL, "%llu",
			 (unsigned long long)(s->min / unit_of(v)));
		snprintf(osn_table_cell(t, r, 4), OSN_CELL, "%.2f",
			 avg_of(v, s));
		snprintf(osn_table_cell(t, r, 5), OSN_CELL, "%llu",
			 (unsigned long long)(s->max / unit_of(v)));
	}
	snprintf(osn_table_cell(t, r, 6), OSN_CELL, "%llu",
		 (unsigned long long)s->over);
}

/*
 * A row per (CPU, shown context) with samples, then an ALL row per shown
 * context, with samples or not.
 */
static void cpu_table(FILE *f, const struct osn_tlat_view *v,
		      const struct osn_tlat_stat *all)
{
	static const bool left[ARRAY_SIZE(row_head)];
	struct osn_table t = { 0 };
	struct columns c = { 0 };
	char label[16];
	int r, nall = 0;

	for (int x = 0; x < OSN_TLAT_NCTX; x++)
		nall += ctx_shown(v, x);
	if (!columns_get(v, NULL, &c) &&
	    !osn_table_init(&t, ARRAY_SIZE(row_head), (int)c.n + nall,
			    row_head, left)) {
		for (r = 0; r < (int)c.n; r++) {
			snprintf(label, sizeof(label), "%d", c.cpu[r]);
			table_row(&t, r, label, c.ctx[r], v, c.s[r]);
		}
		for (int x = 0; x < OSN_TLAT_NCTX; x++)
			if (ctx_shown(v, x))
				table_row(&t, r++, "ALL", x, v, &all[x]);
		t.no_head = v->no_header;
		osn_table_layout(&t);
		osn_table_print(f, &t);
	}
	osn_table_free(&t);
	columns_free(&c);
}

/*
 * rtla's columns; or (--layout rows, auto beyond OSN_HIST_COLUMNS_MAX
 * CPUs) a column per context of all the CPUs together, then the table.
 */
void osn_render_tlat_hist(FILE *f, const struct osn_tlat_view *v,
			  const struct osn_report_info *info)
{
	struct osn_tlat_stat all[OSN_TLAT_NCTX] = { 0 };
	bool rows = osn_layout_rows(v->layout, v->ncpus);
	struct columns c = { 0 };

	if ((rows && all_get(v, all)) || columns_get(v, rows ? all : NULL, &c)) {
		fputs("osn: out of memory\n", f);
	} else {
		if (!v->no_header)
			hist_header(f, v, &c, info);
		hist_rows(f, v, &c);
		hist_summary(f, v, &c);
		if (rows && !v->no_summary) {
			fputc('\n', f);
			cpu_table(f, v, all);
		}
	}
	columns_free(&c);
	for (int x = 0; x < OSN_TLAT_NCTX; x++)
		free(all[x].buckets);
}

static void json_ctx(struct osn_json *j, const struct osn_tlat_view *v,
		     const struct osn_tlat_stat *s)
{
	osn_json_obj_begin(j);
	osn_json_ku64(j, "count", s->count);
	osn_json_key(j, "cur");
	s->count ? osn_json_us(j, s->cur) : osn_json_null(j);
	osn_json_key(j, "min");
	s->count ? osn_json_us(j, s->min) : osn_json_null(j);
	osn_json_key(j, "avg");
	s->count ? osn_json_us(j, s->sum / s->count) : osn_json_null(j);
	osn_json_key(j, "max");
	s->count ? osn_json_us(j, s->max) : osn_json_null(j);
	if (s->buckets) {
		osn_json_ku64(j, "over", s->over);
		osn_json_key(j, "buckets");
		osn_json_arr_begin(j);
		for (unsigned b = 0; b < v->entries; b++) {
			if (!s->buckets[b] && !v->with_zeros)
				continue;
			osn_json_arr_begin(j);
			osn_json_u64(j, b * v->bucket_us);
			osn_json_u64(j, s->buckets[b]);
			osn_json_arr_end(j);
		}
		osn_json_arr_end(j);
	}
	osn_json_obj_end(j);
}

void osn_json_tlat(FILE *f, const struct osn_tlat_view *v,
		   const struct osn_report_info *info,
		   const struct osn_tlat_aa *aa)
{
	static const char *const keys[OSN_TLAT_NCTX] = {
		"irq", "thread", "user"
	};
	struct osn_json j;

	osn_json_init(&j, f, true);
	osn_json_obj_begin(&j);
	osn_json_head(&j, osn_cmd_desc(info->params->cmd)->json_tool, info);
	osn_json_key(&j, "cpus");
	osn_json_arr_begin(&j);
	for (size_t i = 0; i < v->ncpus; i++) {
		const struct osn_tlat_cpu *c = &v->cpu[v->cpus[i]];

		osn_json_obj_begin(&j);
		osn_json_ku64(&j, "cpu", v->cpus[i]);
		for (int x = 0; x < OSN_TLAT_NCTX; x++) {
			/* the return from user only with -u/-U */
			if (x == OSN_TLAT_CTX_USER_RET && !v->user)
				continue;
			osn_json_key(&j, keys[x]);
			json_ctx(&j, v, &c->ctx[x]);
		}
		osn_json_obj_end(&j);
	}
	osn_json_arr_end(&j);
	osn_json_ku64(&j, "events_lost", info->events_lost);
	osn_json_kbool(&j, "stopped", info->stopped);
	osn_json_key(&j, "stop");
	if (aa) {
		osn_json_obj_begin(&j);
		osn_json_ku64(&j, "cpu", aa->cpu);
		osn_json_ku64(&j, "seqnum", aa->seqnum);
		osn_json_key(&j, "irq_latency");
		aa->have_irq ? osn_json_us(&j, aa->irq_ns) : osn_json_null(&j);
		osn_json_key(&j, "thread_latency");
		aa->have_thread ? osn_json_us(&j, aa->thread_ns) : osn_json_null(&j);
		osn_json_key(&j, "irq_handler_delay");
		aa->have_timer_irq ? osn_json_us(&j, aa->irq_delay) : osn_json_null(&j);
		osn_json_key(&j, "timerlat_irq");
		aa->have_timer_irq ? osn_json_us(&j, aa->timer_irq_ns) : osn_json_null(&j);
		osn_json_key(&j, "interference");
		osn_json_arr_begin(&j);
		for (size_t i = 0; i < aa->nparts; i++) {
			const struct osn_part *p = &aa->parts[i];

			osn_json_obj_begin(&j);
			osn_json_kstr(&j, "class", osn_class_names[p->cls]);
			osn_json_kstr(&j, "name", p->name);
			osn_json_key(&j, "id");
			osn_json_i64(&j, p->id);
			osn_json_kbool(&j, "blocking", aa->blocking[i]);
			osn_json_ku64(&j, "count", p->count);
			osn_json_kus(&j, "time", p->time);
			osn_json_part_causes(&j, p);
			osn_json_obj_end(&j);
		}
		osn_json_arr_end(&j);
		osn_json_key(&j, "stack");
		osn_json_arr_begin(&j);
		for (size_t i = 0; i < aa->nframes; i++)
			osn_json_str(&j, aa->frames[i]);
		osn_json_arr_end(&j);
		osn_json_obj_end(&j);
	} else {
		osn_json_null(&j);
	}
	osn_json_obj_end(&j);
}

/* ---- the stop analysis ------------------------------------------------------ */

static void us2(FILE *f, const char *label, uint64_t ns, uint64_t total)
{
	fprintf(f, "  %-34s %9llu.%02llu us", label,
		(unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000 / 10));
	if (total)
		fprintf(f, " (%.2f %%)", 100.0 * (double)ns / (double)total);
	fputc('\n', f);
}

/* The parts of one class under their rtla heading, if any. */
static void aa_class(FILE *f, const struct osn_tlat_aa *aa, int cls,
		     bool blocking, const char *title, uint64_t total)
{
	uint64_t sum = 0;
	char label[64];

	for (size_t i = 0; i < aa->nparts; i++)
		if (aa->parts[i].cls == cls && aa->blocking[i] == blocking)
			sum += aa->parts[i].time;
	if (!sum)
		return;
	us2(f, title, sum, total);
	for (size_t i = 0; i < aa->nparts; i++) {
		const struct osn_part *p = &aa->parts[i];

		if (p->cls != cls || aa->blocking[i] != blocking)
			continue;
		label[0] = label[1] = ' ';
		osn_part_source_str(label + 2, sizeof(label) - 2, p);
		us2(f, label, p->time, 0);
		osn_render_part_causes(f, p);
	}
}

void osn_render_tlat_stop(FILE *f, const struct osn_tlat_aa *aa)
{
	uint64_t total, sum = 0;

	if (!aa) {
		fputs("osn hit stop tracing (no activation over the limit was read: see the saved trace)\n",
		      f);
		return;
	}
	total = aa->have_thread ? aa->thread_ns : aa->irq_ns;
	fprintf(f, "## CPU %d hit stop tracing, analyzing it ##\n", aa->cpu);
	if (aa->have_timer_irq)
		us2(f, "IRQ handler delay:", aa->irq_delay, total);
	if (aa->have_irq)
		us2(f, "IRQ latency:", aa->irq_ns, 0);
	if (aa->have_timer_irq && aa->have_thread)
		us2(f, "Timerlat IRQ duration:", aa->timer_irq_ns, total);
	aa_class(f, aa, OSN_CLASS_THREAD, true, "Blocking thread:", total);
	/* rtla's layout: the stack the timer's interrupt saved (-s) */
	if (aa->nframes)
		fputs("  Blocking thread stack trace\n", f);
	for (size_t i = 0; i < aa->nframes; i++)
		fprintf(f, "%14s -> %s\n", "", aa->frames[i]);
	aa_class(f, aa, OSN_CLASS_NMI, false, "NMI interference:", total);
	aa_class(f, aa, OSN_CLASS_IRQ, false, "IRQ interference:", total);
	aa_class(f, aa, OSN_CLASS_SOFTIRQ, false, "Softirq interference:", total);
	aa_class(f, aa, OSN_CLASS_THREAD, false, "Thread interference:", total);
	/*
	 * An IRQ stop turns tracing off in the timer's handler: a handler
	 * it waited behind in the same interrupt ends after the stop.
	 */
	for (size_t i = 0; i < aa->nparts; i++)
		sum += aa->parts[i].time;
	sum += aa->timer_irq_ns;
	/*
	 * What no noise event covers (the IRQ handler delay included):
	 * interrupts off, hardware, a hypervisor, an emulator.
	 */
	if (aa->have_thread && total > sum)
		us2(f, "Not in any noise event:", total - sum, total);
	if (!aa->nparts)
		fputs("  (no noise ended between the expiry and the stop: interrupts\n"
		      "   were off, or the timer's IRQ waited behind a handler that\n"
		      "   was still running at the stop)\n", f);
	fputs("--------------------------------------------------------------------------------\n",
	      f);
	if (aa->have_thread)
		us2(f, "Thread latency:", aa->thread_ns, total);
	else
		us2(f, "IRQ latency:", aa->irq_ns, total);
}

void osn_render_tlat_tasks(FILE *f, const struct osn_cpu_task *tasks,
			   int ntasks)
{
	fputs("Printing CPU tasks:\n", f);
	for (int i = 0; i < ntasks; i++) {
		const struct osn_cpu_task *k = &tasks[i];

		if (k->pid < 0) {
			fprintf(f, "    [%.3d] %24s\n", k->cpu, "(no switch seen)");
			continue;
		}
		fprintf(f, "    [%.3d] %24s:%d", k->cpu, k->comm, k->pid);
		if (k->work[0])
			fprintf(f, " kworker:%s", k->work);
		else if (k->work_fn)
			fprintf(f, " kworker:0x%llx",
				(unsigned long long)k->work_fn);
		fputc('\n', f);
	}
}

void osn_render_tlat_max(FILE *f, const struct osn_tlat_view *v)
{
	uint64_t max = 0;

	/* the thread's latency, as rtla's tracing_max_latency */
	for (size_t i = 0; i < v->ncpus; i++) {
		const struct osn_tlat_cpu *c = &v->cpu[v->cpus[i]];

		for (int x = 0; x < OSN_TLAT_NCTX; x++)
			if (x != 0 && c->ctx[x].count && c->ctx[x].max > max)
				max = c->ctx[x].max;
	}
	fprintf(f, "  Max latency was %llu.%02llu us\n",
		(unsigned long long)(max / 1000),
		(unsigned long long)(max % 1000 / 10));
}
