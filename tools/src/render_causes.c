// SPDX-License-Identifier: GPL-2.0
/*
 * render_causes.c - what explains the noise, as text and as JSON (see
 * render.h): the stop explanation and the culprits of --causes.
 */
#include <string.h>

#include "osn/osn_abi.h"
#include "render_int.h"

void osn_part_source_str(char *buf, size_t len, const struct osn_part *p)
{
	if (p->cls == OSN_CLASS_NMI || p->id < 0)
		snprintf(buf, len, "%s", p->name);
	else
		snprintf(buf, len, "%s:%d", p->name, p->id);
}

/* A cause's function: its symbol, else its address, else "" (none). */
static void function_str(char *buf, size_t len, const char *name,
			 uint64_t addr)
{
	if (name[0])
		snprintf(buf, len, "%s", name);
	else if (addr)
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
	else
		buf[0] = '\0';
}

static void cause_function(char *buf, size_t len, const struct osn_part_cause *pc)
{
	function_str(buf, len, pc->function_name, pc->c.function);
}

static const char *cause_kind(int kind)
{
	return kind >= 0 && kind < OSN_CAUSE_NR ? osn_cause_kind_names[kind] : "?";
}

/* "comm:pid (CPU n)", "[irq] (CPU n)", or "unknown" */
static void origin_str(char *buf, size_t len, const struct osn_cause *c)
{
	if (c->origin_cpu < 0)
		snprintf(buf, len, "unknown");
	else if (c->origin_pid < 0)
		snprintf(buf, len, "%s (CPU %d)", c->origin_comm, c->origin_cpu);
	else
		snprintf(buf, len, "%s:%d (CPU %d)", c->origin_comm,
			 c->origin_pid, c->origin_cpu);
}

const char *osn_culprit_kind(const struct osn_culprit *u)
{
	return cause_kind(u->c.kind);
}

void osn_culprit_function(char *buf, size_t len, const struct osn_culprit *u)
{
	function_str(buf, len, u->function_name, u->c.function);
	if (!buf[0])
		snprintf(buf, len, "-");
}

void osn_culprit_origin(char *buf, size_t len, const struct osn_culprit *u)
{
	origin_str(buf, len, &u->c);
}

void osn_render_causes(FILE *f, const struct osn_causes *cs, const int *cpus,
		       size_t ncpus, size_t max)
{
	char fn[80], who[80], v[32];

	fprintf(f, "osn causes: what ran in the noise and who sent it, by time (osn:noise_cause)\n");
	for (size_t i = 0; i < ncpus; i++) {
		const struct osn_cpu_causes *cc;
		size_t n;

		if (cpus[i] < 0 || cpus[i] >= cs->nr_cpus)
			continue;
		cc = &cs->cpu[cpus[i]];
		fprintf(f, "  cpu %d:%s\n", cpus[i], cc->n ? "" : " (no cause recorded)");
		if (!cc->n)
			continue;
		fprintf(f, "    %-8s %-28s %-32s %7s %14s\n", "kind", "function",
			"origin", "count", "time (us)");
		n = max && cc->n > max ? max : cc->n;
		for (size_t k = 0; k < n; k++) {
			const struct osn_culprit *u = &cc->culprits[k];

			osn_culprit_function(fn, sizeof(fn), u);
			osn_culprit_origin(who, sizeof(who), u);
			osn_format_us3(u->time, v, sizeof(v));
			fprintf(f, "    %-8s %-28s %-32s %7llu %14s\n",
				osn_culprit_kind(u), fn, who,
				(unsigned long long)u->count, v);
		}
		if (n < cc->n)
			fprintf(f, "    (%zu more)\n", cc->n - n);
	}
}

/*
 * osn hist --causes: per measured CPU, its top culprits' histograms side
 * by side, as osn hist's own table (rows: buckets; one column a culprit,
 * named in the header above it).
 */
void osn_render_hist_causes(FILE *f, const struct osn_causes *cs,
			    const struct osn_report_info *info, size_t max)
{
	const struct osn_params *p = info->params;
	bool header = !(p && p->no_header), no_index = p && p->no_index;
	char fn[80], who[80], label[32];

	if (header)
		fprintf(f, "\n# osn causes: per culprit, the durations of the noises it took part in (osn:noise_cause)\n");
	for (size_t i = 0; i < info->ncpus; i++) {
		const struct osn_cpu_causes *cc;
		struct osn_hist h;
		size_t n;

		if (info->cpus[i] < 0 || info->cpus[i] >= cs->nr_cpus)
			continue;
		cc = &cs->cpu[info->cpus[i]];
		n = max && cc->n > max ? max : cc->n;
		if (!n) {
			if (header)
				fprintf(f, "# cpu %d: no cause recorded\n",
					info->cpus[i]);
			continue;
		}
		if (osn_causes_hist(cs, cc, n, &h)) {
			fprintf(f, "# cpu %d: out of memory\n", info->cpus[i]);
			continue;
		}
		if (header) {
			fprintf(f, "# cpu %d: its %zu top culprits by time (of %zu)\n",
				info->cpus[i], n, cc->n);
			for (size_t k = 0; k < n; k++) {
				const struct osn_culprit *u = &cc->culprits[k];

				function_str(fn, sizeof(fn), u->function_name,
					     u->c.function);
				origin_str(who, sizeof(who), &u->c);
				fprintf(f, "#   cause-%zu: %s %s <- %s\n", k + 1,
					cause_kind(u->c.kind), fn[0] ? fn : "-",
					who);
			}
			if (!no_index)
				fprintf(f, "Index");
			for (size_t k = 0; k < n; k++) {
				snprintf(label, sizeof(label), "cause-%zu", k + 1);
				fprintf(f, " %9s", label);
			}
			fprintf(f, "\n");
		}
		osn_hist_body(f, &h, p, 4);	/* count, min, avg, max */
		osn_hist_free(&h);
	}
}

/*
 * A culprit's "histogram" (osn hist --causes): {count, over, min, avg,
 * max, buckets: [{index, count}]}, as osn hist's "cpus" entries.
 */
static void json_culprit_hist(struct osn_json *j, const struct osn_hist *h,
			      const struct osn_hist_cpu *c, bool with_zeros)
{
	osn_json_key(j, "histogram");
	osn_json_obj_begin(j);
	osn_json_ku64(j, "count", c->count);
	osn_json_ku64(j, "over", c->over);
	osn_json_kus(j, "min", c->min);
	osn_json_kus(j, "avg", c->avg);
	osn_json_kus(j, "max", c->max);
	osn_json_buckets(j, h, c, with_zeros);
	osn_json_obj_end(j);
}

/* "causes": {"CPU": [{kind, function, function_addr, origin_*, count, time}]} */
void osn_json_culprits(struct osn_json *j, const struct osn_report_info *info)
{
	const struct osn_causes *cs = info->causes;
	bool with_zeros = info->params && info->params->with_zeros;
	char fn[80], key[16];

	osn_json_key(j, "causes");
	osn_json_obj_begin(j);
	for (size_t i = 0; i < info->ncpus; i++) {
		const struct osn_cpu_causes *cc;
		struct osn_hist h = { 0 };
		bool have_h;

		if (info->cpus[i] < 0 || info->cpus[i] >= cs->nr_cpus)
			continue;
		cc = &cs->cpu[info->cpus[i]];
		/* osn hist --causes: every culprit's histogram */
		have_h = cs->bucket_ns && !osn_causes_hist(cs, cc, 0, &h);
		snprintf(key, sizeof(key), "%d", info->cpus[i]);
		osn_json_key(j, key);
		osn_json_arr_begin(j);
		for (size_t k = 0; k < cc->n; k++) {
			const struct osn_culprit *u = &cc->culprits[k];

			function_str(fn, sizeof(fn), u->function_name, u->c.function);
			osn_json_obj_begin(j);
			osn_json_kstr(j, "kind", cause_kind(u->c.kind));
			osn_json_kstr(j, "function", fn);
			osn_json_ku64(j, "function_addr", u->c.function);
			osn_json_key(j, "origin_cpu");
			osn_json_i64(j, u->c.origin_cpu);
			osn_json_key(j, "origin_pid");
			osn_json_i64(j, u->c.origin_pid);
			osn_json_kstr(j, "origin_comm", u->c.origin_comm);
			osn_json_ku64(j, "count", u->count);
			osn_json_kus(j, "time", u->time);
			if (have_h)
				json_culprit_hist(j, &h, &h.cpus[k], with_zeros);
			osn_json_obj_end(j);
		}
		osn_json_arr_end(j);
		if (have_h)
			osn_hist_free(&h);
	}
	osn_json_obj_end(j);
}

/* How the origin made the cause happen. */
static const char *cause_verb(int kind)
{
	switch (kind) {
	case OSN_CAUSE_WAKEUP:
		return "woken by";
	case OSN_CAUSE_WORK:
		return "queued by";
	case OSN_CAUSE_TIMER:
	case OSN_CAUSE_HRTIMER:
		return "armed by";
	default:
		return "sent by";
	}
}

/*
 * "work vmstat_update, queued by stress-ng:4711 on CPU 0 (x3)" under its
 * part: what ran in the noise and who sent it (osn:noise_cause).
 */
void osn_render_part_causes(FILE *f, const struct osn_part *p)
{
	char fn[80], who[64];

	for (size_t k = 0; k < p->ncauses; k++) {
		const struct osn_part_cause *pc = &p->causes[k];
		const struct osn_cause *c = &pc->c;

		cause_function(fn, sizeof(fn), pc);
		if (c->origin_cpu < 0)
			snprintf(who, sizeof(who), "origin unknown");
		else if (c->origin_pid < 0)
			snprintf(who, sizeof(who), "%s %s on CPU %d",
				 cause_verb(c->kind), c->origin_comm,
				 c->origin_cpu);
		else
			snprintf(who, sizeof(who), "%s %s:%d on CPU %d",
				 cause_verb(c->kind), c->origin_comm,
				 c->origin_pid, c->origin_cpu);
		fprintf(f, "      <- %s%s%s%s, %s (x%llu)\n",
			cause_kind(c->kind),
			fn[0] ? " " : "", fn,
			c->kind == OSN_CAUSE_TLB ? " (TLB shootdown)" : "",
			who, (unsigned long long)pc->count);
	}
	if (p->other_causes)
		fprintf(f, "      <- (%llu more causes)\n",
			(unsigned long long)p->other_causes);
}

/* "100" for whole microseconds, else "100.250" */
static void us_short(char *buf, size_t len, uint64_t ns)
{
	if (ns % 1000 == 0)
		snprintf(buf, len, "%llu", (unsigned long long)(ns / 1000));
	else
		osn_format_us3(ns, buf, len);
}

void osn_render_stop(FILE *f, const struct osn_explanation *x)
{
	char v[32], t[32], src[64];

	fprintf(f, "osn hit stop tracing\n");
	if (!x)
		return;
	if (!x->have_stop && !x->have_sample && !x->nsamples) {
		fprintf(f, "  no osn:stop event in osn's buffer: cannot explain the stop\n");
		return;
	}
	osn_format_us3(x->value, v, sizeof(v));
	us_short(t, sizeof(t), x->threshold);
	if (x->reason == OSN_STOP_SINGLE)
		fprintf(f, "  cpu %d: a single noise sample of %s us > %s %s us\n",
			x->cpu, v, OSN_KNOB_STOP_TRACING_US, t);
	else
		fprintf(f, "  cpu %d: the period's noise of %s us > %s %s us\n",
			x->cpu, v, OSN_KNOB_STOP_TRACING_TOTAL_US, t);

	if (x->reason == OSN_STOP_SINGLE) {
		if (!x->have_sample) {
			fprintf(f, "  the sample is not in osn's buffer%s: cannot explain it\n",
				x->truncated ? " (too many events)" : "");
			return;
		}
		osn_format_us3(x->duration, v, sizeof(v));
		fprintf(f, "  the sample at %llu.%09llu lasted %s us, %llu interference%s; made of:\n",
			(unsigned long long)(x->start / 1000000000),
			(unsigned long long)(x->start % 1000000000), v,
			(unsigned long long)x->interference,
			x->interference == 1 ? "" : "s");
	} else {
		if (!x->nsamples) {
			fprintf(f, "  no noise sample of the period is in osn's buffer: cannot explain it\n");
			return;
		}
		osn_format_us3(x->noise, v, sizeof(v));
		fprintf(f, "  %llu noise sample%s of the period%s add up to %s us; made of:\n",
			(unsigned long long)x->nsamples,
			x->nsamples == 1 ? "" : "s",
			x->truncated ? " (history truncated)" : "", v);
	}
	fprintf(f, "    %-8s %-28s %7s %14s\n", "class", "source", "count",
		"time (us)");
	for (size_t i = 0; i < x->nparts; i++) {
		const struct osn_part *p = &x->parts[i];

		osn_part_source_str(src, sizeof(src), p);
		osn_format_us3(p->time, v, sizeof(v));
		fprintf(f, "    %-8s %-28s %7llu %14s\n", osn_class_names[p->cls],
			src, (unsigned long long)p->count, v);
		osn_render_part_causes(f, p);
		if (p->finding)
			fprintf(f, "      => %s: %s (osn audit %s)\n",
				p->finding->check, p->finding->fix,
				osn_audit_status_name(p->finding->status));
	}
	if (x->other_count) {
		osn_format_us3(x->other_time, v, sizeof(v));
		fprintf(f, "    %-8s %-28s %7llu %14s\n", "...", "(other sources)",
			(unsigned long long)x->other_count, v);
	}
	if (x->hw) {
		osn_format_us3(x->hw, v, sizeof(v));
		fprintf(f, "    %-8s %-28s %7llu %14s\n", "hw",
			"(no event: hardware)", (unsigned long long)x->hw_samples, v);
	}
	if (!x->nparts && !x->other_count && !x->hw)
		fprintf(f, "    (nothing)\n");
	if (x->explained > x->noise) {
		osn_format_us3(x->explained - x->noise, v, sizeof(v));
		fprintf(f, "  note: the events add up to %s us more than the noise (overlapping events)\n",
			v);
	}
}

/* A part's "causes": [{kind, function, function_addr, origin_*, count}] */
void osn_json_part_causes(struct osn_json *j, const struct osn_part *p)
{
	char fn[80];

	osn_json_key(j, "causes");
	osn_json_arr_begin(j);
	for (size_t k = 0; k < p->ncauses; k++) {
		const struct osn_part_cause *pc = &p->causes[k];

		cause_function(fn, sizeof(fn), pc);
		osn_json_obj_begin(j);
		osn_json_kstr(j, "kind", cause_kind(pc->c.kind));
		osn_json_kstr(j, "function", fn);
		osn_json_ku64(j, "function_addr", pc->c.function);
		osn_json_key(j, "origin_cpu");
		osn_json_i64(j, pc->c.origin_cpu);
		osn_json_key(j, "origin_pid");
		osn_json_i64(j, pc->c.origin_pid);
		osn_json_kstr(j, "origin_comm", pc->c.origin_comm);
		osn_json_ku64(j, "count", pc->count);
		osn_json_obj_end(j);
	}
	osn_json_arr_end(j);
	osn_json_ku64(j, "other_causes", p->other_causes);
}

void osn_json_explanation(struct osn_json *j, const struct osn_explanation *x)
{
	char src[64];

	osn_json_obj_begin(j);
	osn_json_key(j, "cpu");
	osn_json_i64(j, x->cpu);
	osn_json_kstr(j, "reason",
		      x->reason == OSN_STOP_SINGLE ? "single" : "total");
	osn_json_kbool(j, "have_stop_event", x->have_stop);
	osn_json_kus(j, "value", x->value);
	osn_json_kus(j, "threshold", x->threshold);
	osn_json_key(j, "sample");
	if (x->have_sample) {
		osn_json_obj_begin(j);
		osn_json_ku64(j, "start_ns", x->start);
		osn_json_kus(j, "duration", x->duration);
		osn_json_ku64(j, "interference", x->interference);
		osn_json_obj_end(j);
	} else {
		osn_json_null(j);
	}
	osn_json_ku64(j, "samples", x->nsamples);
	osn_json_kus(j, "noise", x->noise);
	osn_json_key(j, "parts");
	osn_json_arr_begin(j);
	for (size_t i = 0; i < x->nparts; i++) {
		const struct osn_part *p = &x->parts[i];

		osn_part_source_str(src, sizeof(src), p);
		osn_json_obj_begin(j);
		osn_json_kstr(j, "class", osn_class_names[p->cls]);
		osn_json_kstr(j, "name", p->name);
		osn_json_key(j, "id");
		osn_json_i64(j, p->id);
		osn_json_kstr(j, "source", src);
		osn_json_ku64(j, "count", p->count);
		osn_json_kus(j, "time", p->time);
		osn_json_part_causes(j, p);
		if (p->finding) {
			osn_json_key(j, "finding");
			osn_json_obj_begin(j);
			osn_json_kstr(j, "check", p->finding->check);
			osn_json_kstr(j, "status",
				      osn_audit_status_name(p->finding->status));
			osn_json_kstr(j, "fix", p->finding->fix);
			osn_json_obj_end(j);
		}
		osn_json_obj_end(j);
	}
	osn_json_arr_end(j);
	osn_json_key(j, "other");
	osn_json_obj_begin(j);
	osn_json_ku64(j, "count", x->other_count);
	osn_json_kus(j, "time", x->other_time);
	osn_json_obj_end(j);
	osn_json_kus(j, "hw", x->hw);
	osn_json_ku64(j, "hw_samples", x->hw_samples);
	osn_json_kbool(j, "truncated", x->truncated);
	osn_json_obj_end(j);
}
