// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - osn monitor's Prometheus text exposition (see metrics.h).
 *
 * Written by hand: Debian has no C client library of Prometheus (the
 * format is a few lines per family: "# HELP", "# TYPE", then one
 * "name{labels} value" line per series, all of a family together).
 */
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "util.h"

int osn_metrics_init(struct osn_metrics *m, int nr_cpus)
{
	m->nr_cpus = nr_cpus;
	m->cpu = calloc(nr_cpus > 0 ? nr_cpus : 1, sizeof(*m->cpu));
	return m->cpu ? 0 : -1;
}

void osn_metrics_free(struct osn_metrics *m)
{
	free(m->cpu);
	m->cpu = NULL;
}

const char *osn_metrics_source(const struct osn_event *ev)
{
	switch (ev->type) {
	case OSN_E_SOFTIRQ:
		return osn_softirq_name(ev->noise.id);
	case OSN_E_NMI:
		return "nmi";
	default:
		return ev->noise.name;
	}
}

static struct osn_msource *find_source(struct osn_mcpu *c, int cls,
				       const char *name)
{
	struct osn_msource *s;
	size_t i;

	for (i = 0; i < c->nsrc; i++)
		if (c->src[i].cls == cls && !strcmp(c->src[i].name, name))
			return &c->src[i];
	if (c->nsrc == OSN_METRICS_SOURCES - OSN_CLASS_NR) {
		/* the last OSN_CLASS_NR slots: one "other" per class */
		name = "other";
		for (i = c->nsrc; i < OSN_METRICS_SOURCES; i++)
			if (c->src[i].cls == cls && c->src[i].name[0])
				return &c->src[i];
		for (i = c->nsrc; c->src[i].name[0]; i++)
			;
	} else {
		i = c->nsrc++;
	}
	s = &c->src[i];
	s->cls = cls;
	osn_strlcpy(s->name, name, sizeof(s->name));
	return s;
}

static void add_sample(struct osn_mcpu *c, const struct osn_event *ev)
{
	c->periods++;
	c->runtime_ns += ev->s.runtime;
	c->noise_ns += ev->s.noise;
	if (ev->s.samples && ev->s.max_sample > c->max_single_ns)
		c->max_single_ns = ev->s.max_sample;
	c->last_runtime_ns = ev->s.runtime;
	c->last_noise_ns = ev->s.noise;
}

void osn_metrics_event(struct osn_metrics *m, const struct osn_event *ev)
{
	int cls = osn_event_class(ev->type);
	struct osn_msource *s;
	struct osn_mcpu *c;

	if (ev->cpu < 0 || ev->cpu >= m->nr_cpus)
		return;
	c = &m->cpu[ev->cpu];
	if (ev->type == OSN_E_SAMPLE) {
		add_sample(c, ev);
		return;
	}
	if (cls < 0)
		return;
	s = find_source(c, cls, osn_metrics_source(ev));
	s->count++;
	s->time_ns += ev->noise.duration;
	if (ev->noise.duration > s->max_ns)
		s->max_ns = ev->noise.duration;
}

void osn_metrics_escape(const char *in, char *out, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	for (; *in; in++) {
		const char *esc = *in == '\\' ? "\\\\" : *in == '"' ? "\\\"" :
				  *in == '\n' ? "\\n" : NULL;
		size_t n = esc ? 2 : 1;

		if (o + n >= len)
			break;
		if (esc)
			memcpy(out + o, esc, 2);
		else
			out[o] = *in;
		o += n;
	}
	out[o] = '\0';
}

/* ns as seconds, exactly: "1.000250000" */
static void put_seconds(FILE *f, uint64_t ns)
{
	fprintf(f, " %llu.%09llu\n", (unsigned long long)(ns / 1000000000ULL),
		(unsigned long long)(ns % 1000000000ULL));
}

static void family(FILE *f, const char *name, const char *type,
		   const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* ---- the families ------------------------------------------------------- */

enum src_value { SRC_COUNT, SRC_TIME, SRC_MAX };

static void sources(FILE *f, const struct osn_metrics_view *v,
		    enum src_value what)
{
	static const char * const names[] = {
		[SRC_COUNT] = "osn_noise_events_total",
		[SRC_TIME] = "osn_noise_seconds_total",
		[SRC_MAX] = "osn_noise_max_seconds",
	};
	static const char * const helps[] = {
		[SRC_COUNT] = "Noises of each source on each measured CPU.",
		[SRC_TIME] = "Time each source stole from each measured CPU (its own part, nested noise excluded).",
		[SRC_MAX] = "The longest single noise of each source on each measured CPU.",
	};

	family(f, names[what], what == SRC_MAX ? "gauge" : "counter",
	       helps[what]);
	for (size_t i = 0; i < v->ncpus; i++) {
		const struct osn_mcpu *c = &v->m->cpu[v->cpus[i]];

		for (size_t k = 0; k < OSN_METRICS_SOURCES; k++) {
			const struct osn_msource *s = &c->src[k];
			char name[2 * OSN_NAME_LEN + 1];

			if (!s->name[0])
				continue;
			osn_metrics_escape(s->name, name, sizeof(name));
			fprintf(f, "%s{cpu=\"%d\",class=\"%s\",source=\"%s\"}",
				names[what], v->cpus[i], osn_class_names[s->cls],
				name);
			if (what == SRC_COUNT)
				fprintf(f, " %llu\n",
					(unsigned long long)s->count);
			else
				put_seconds(f, what == SRC_TIME ? s->time_ns :
						  s->max_ns);
		}
	}
}

enum cpu_value { CPU_PERIODS, CPU_NOISE, CPU_MAX, CPU_LAST, CPU_AVAIL };

/* The workload's per-CPU figures (osn:sample). */
static void per_cpu(FILE *f, const struct osn_metrics_view *v,
		    enum cpu_value what)
{
	static const struct { const char *name, *type, *help; } fam[] = {
		[CPU_PERIODS] = { "osn_periods_total", "counter",
				  "Measuring periods of osn's workload." },
		[CPU_NOISE] = { "osn_period_noise_seconds_total", "counter",
				"Noise osn's workload measured, over all periods." },
		[CPU_MAX] = { "osn_max_single_noise_seconds", "gauge",
			      "The longest single noise osn's workload measured." },
		[CPU_LAST] = { "osn_last_period_noise_seconds", "gauge",
			       "Noise of the last period." },
		[CPU_AVAIL] = { "osn_last_period_available_ratio", "gauge",
				"Share of the last period's runtime left to the workload (0 to 1)." },
	};

	family(f, fam[what].name, fam[what].type, fam[what].help);
	for (size_t i = 0; i < v->ncpus; i++) {
		const struct osn_mcpu *c = &v->m->cpu[v->cpus[i]];
		uint64_t rt = c->last_runtime_ns, nz = c->last_noise_ns;

		fprintf(f, "%s{cpu=\"%d\"}", fam[what].name, v->cpus[i]);
		switch (what) {
		case CPU_PERIODS:
			fprintf(f, " %llu\n", (unsigned long long)c->periods);
			break;
		case CPU_NOISE:
			put_seconds(f, c->noise_ns);
			break;
		case CPU_MAX:
			put_seconds(f, c->max_single_ns);
			break;
		case CPU_LAST:
			put_seconds(f, nz);
			break;
		case CPU_AVAIL:
			fprintf(f, " %.6f\n", !rt ? 1.0 : nz >= rt ? 0.0 :
				(double)(rt - nz) / (double)rt);
			break;
		}
	}
}

static void culprit_labels(FILE *f, int cpu, const struct osn_culprit *p)
{
	char fn[2 * sizeof(p->function_name) + 1];
	char comm[2 * OSN_NAME_LEN + 1];

	if (p->function_name[0])
		osn_metrics_escape(p->function_name, fn, sizeof(fn));
	else if (p->c.function)
		snprintf(fn, sizeof(fn), "0x%llx",
			 (unsigned long long)p->c.function);
	else
		fn[0] = '\0';
	osn_metrics_escape(p->c.origin_comm, comm, sizeof(comm));
	fprintf(f, "{cpu=\"%d\",class=\"%s\",kind=\"%s\",function=\"%s\",origin_comm=\"%s\",origin_cpu=\"%d\"}",
		cpu, p->c.cls >= 0 && p->c.cls < OSN_CLASS_NR ?
		osn_class_names[p->c.cls] : "?",
		p->c.kind >= 0 && p->c.kind < OSN_CAUSE_NR ?
		osn_cause_kind_names[p->c.kind] : "?", fn, comm,
		p->c.origin_cpu);
}

static void culprits(FILE *f, const struct osn_metrics_view *v, bool time)
{
	const char *name = time ? "osn_culprit_seconds_total" :
				  "osn_culprit_noises_total";

	family(f, name, "counter", time ?
	       "Time of the noises each culprit (what ran, sent by which task from which CPU) took part in." :
	       "Noises each culprit (what ran, sent by which task from which CPU) took part in.");
	for (size_t i = 0; i < v->ncpus; i++) {
		int cpu = v->cpus[i];
		const struct osn_cpu_causes *cc;

		if (cpu >= v->causes->nr_cpus)
			continue;
		cc = &v->causes->cpu[cpu];
		for (size_t k = 0; k < cc->n; k++) {
			fputs(name, f);
			culprit_labels(f, cpu, &cc->culprits[k]);
			if (time)
				put_seconds(f, cc->culprits[k].time);
			else
				fprintf(f, " %llu\n",
					(unsigned long long)cc->culprits[k].count);
		}
	}
}

static void gauge(FILE *f, const char *name, const char *help,
		  unsigned long long value, const char *type)
{
	family(f, name, type, help);
	fprintf(f, "%s %llu\n", name, value);
}

int osn_metrics_render(FILE *f, const struct osn_metrics_view *v)
{
	gauge(f, "osn_up", "1 while osn collects on the measured CPUs.",
	      v->up, "gauge");
	gauge(f, "osn_module_loaded", "1 while osn.ko is loaded.",
	      v->module_loaded, "gauge");
	gauge(f, "osn_workload", "1 when osn's threads measure, 0 for probes only.",
	      v->workload, "gauge");
	gauge(f, "osn_module_reloads_total",
	      "Times osn.ko came back after it had been unloaded.",
	      v->reloads, "counter");
	gauge(f, "osn_events_lost_total",
	      "osn events the ring buffer dropped before osn read them.",
	      v->events_lost, "counter");
	family(f, "osn_cpu_measured", "gauge", "The measured CPUs (1 each).");
	for (size_t i = 0; i < v->ncpus; i++)
		fprintf(f, "osn_cpu_measured{cpu=\"%d\"} 1\n", v->cpus[i]);
	sources(f, v, SRC_COUNT);
	sources(f, v, SRC_TIME);
	sources(f, v, SRC_MAX);
	if (v->workload)
		for (int w = CPU_PERIODS; w <= CPU_AVAIL; w++)
			per_cpu(f, v, (enum cpu_value)w);
	if (v->causes) {
		culprits(f, v, false);
		culprits(f, v, true);
	}
	fflush(f);
	return ferror(f) ? -1 : 0;
}
