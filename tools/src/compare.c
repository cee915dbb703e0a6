// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - osn compare's runs (see compare.h): the JSON of osn top,
 * hist, hwnoise and timerlat read back with json-c, their numbers as
 * rates, the differences of their settings and the verdicts.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* <json.h> would be ours (-I tools/src): name json-c's by its directory */
#include <json-c/json.h>

#include "compare.h"
#include "json.h"
#include "util.h"

/* A report of 4096 CPUs with every bucket is far below this. */
#define MAX_FILE	(256u << 20)

/* ---- reading ---------------------------------------------------------------- */

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static bool is_num(struct json_object *v)
{
	return v && (json_object_is_type(v, json_type_int) ||
		     json_object_is_type(v, json_type_double));
}

/* A count (0 if absent). */
static uint64_t u64(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);
	double d;

	if (!is_num(v))
		return 0;
	if (json_object_is_type(v, json_type_int))
		return json_object_get_uint64(v);
	d = json_object_get_double(v);
	return d > 0 ? (uint64_t)llround(d) : 0;
}

/* A time in us (osn's unit) as ns; false if absent or null. */
static bool ns(struct json_object *o, const char *key, uint64_t *out)
{
	struct json_object *v = get(o, key);
	double d;

	if (!is_num(v))
		return false;
	d = json_object_get_double(v);
	*out = d > 0 ? (uint64_t)llround(d * 1000) : 0;
	return true;
}

static void str(struct json_object *o, const char *key, char *buf, size_t len)
{
	struct json_object *v = get(o, key);

	osn_strlcpy(buf, v && json_object_is_type(v, json_type_string) ?
		    json_object_get_string(v) : "", len);
}

static void read_culprits(struct osn_cmp_cpu *c, struct json_object *arr)
{
	size_t n = arr && json_object_is_type(arr, json_type_array) ?
		json_object_array_length(arr) : 0;

	c->have |= OSN_CMP_CAUSES;
	/* osn writes them by time, the largest first */
	for (size_t i = 0; i < n && c->ncul < OSN_CMP_CULPRITS; i++) {
		struct json_object *u = json_object_array_get_idx(arr, i);
		struct osn_cmp_culprit *k = &c->cul[c->ncul++];

		str(u, "kind", k->kind, sizeof(k->kind));
		str(u, "function", k->function, sizeof(k->function));
		str(u, "origin_comm", k->origin, sizeof(k->origin));
		k->count = u64(u, "count");
		ns(u, "time", &k->time);
	}
}

/* osn hist's [{index, count}] or timerlat's [[us, count]], in ns */
static int read_buckets(struct osn_cmp_cpu *c, struct json_object *arr,
			uint64_t bucket_us, uint64_t over, uint64_t max)
{
	size_t n = json_object_array_length(arr), k = 0;
	double b = (double)(bucket_us ? bucket_us : 1) * 1000;

	c->bins = calloc(n + 1, sizeof(*c->bins));
	if (!c->bins)
		return osn_err("out of memory");
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		double lo;

		if (json_object_is_type(e, json_type_array)) {
			lo = json_object_get_double(json_object_array_get_idx(e, 0));
			c->bins[k].count = json_object_get_uint64(
				json_object_array_get_idx(e, 1));
		} else {
			lo = (double)u64(e, "index");
			c->bins[k].count = u64(e, "count");
		}
		c->bins[k].lo = lo * 1000;
		c->bins[k].hi = lo * 1000 + b;
		if (c->bins[k].count)
			k++;
	}
	if (over && k) {
		c->bins[k].lo = c->bins[k - 1].hi;
		c->bins[k].hi = (double)max > c->bins[k].lo ? (double)max :
			c->bins[k].lo + b;
		c->bins[k++].count = over;
	}
	c->nbins = k;
	if (k)
		c->have |= OSN_CMP_HIST;
	return 0;
}

static void read_top_cpu(struct osn_cmp_cpu *c, struct json_object *o)
{
	ns(o, "runtime", &c->runtime);
	ns(o, "noise", &c->noise);
	ns(o, "max_single", &c->max_single);
	c->samples = u64(o, "samples");
	for (int k = 0; k < OSN_CLASS_NR; k++) {
		struct json_object *cl = get(o, osn_class_names[k]);

		c->count[k] = u64(cl, "count");
		ns(cl, "time", &c->time[k]);
	}
	c->secs = c->runtime / 1e9;
	c->have |= OSN_CMP_TOP | OSN_CMP_SAMPLES;
}

static int read_hist_cpu(const struct osn_cmp_run *r, struct osn_cmp_cpu *c,
			 struct json_object *o)
{
	struct json_object *b = get(o, "buckets");
	bool all = true;

	c->samples = u64(o, "count");
	ns(o, "max", &c->max_single);
	c->secs = (double)r->duration_s;
	c->have |= OSN_CMP_SAMPLES;
	for (int k = 0; k < OSN_NR_PCT; k++)
		all &= ns(o, osn_pct_names[k], &c->pct[k]);
	if (all)
		c->have |= OSN_CMP_PCT;
	if (b && json_object_is_type(b, json_type_array))
		return read_buckets(c, b, r->bucket_us, u64(o, "over"),
				    c->max_single);
	return 0;
}

static int read_tlat_cpu(const struct osn_cmp_run *r, struct osn_cmp_cpu *c,
			 struct json_object *o)
{
	static const char *const ctx[OSN_CMP_NLAT] = { "irq", "thread" };
	struct json_object *t = get(o, "thread"), *b = get(t, "buckets");

	for (int x = 0; x < OSN_CMP_NLAT; x++) {
		struct json_object *s = get(o, ctx[x]);

		ns(s, "avg", &c->lat_avg[x]);
		ns(s, "max", &c->lat_max[x]);
	}
	c->samples = u64(t, "count");
	c->secs = (double)r->duration_s;
	c->have |= OSN_CMP_LAT;
	if (b && json_object_is_type(b, json_type_array))
		return read_buckets(c, b, r->bucket_us, u64(t, "over"),
				    c->lat_max[OSN_CMP_THREAD_LAT]);
	return 0;
}

static void merge_all(struct osn_cmp_run *r)
{
	struct osn_cmp_cpu *a = &r->all;

	a->cpu = -1;
	a->have = r->ncpus ? ~0u : 0;
	for (size_t i = 0; i < r->ncpus; i++) {
		const struct osn_cmp_cpu *c = &r->cpu[i];

		/* only what every CPU has (percentiles do not add up) */
		a->have &= c->have & (OSN_CMP_TOP | OSN_CMP_SAMPLES | OSN_CMP_LAT);
		for (int x = 0; x < OSN_CMP_NLAT; x++) {
			/* the mean of the CPUs' means, by their activations */
			a->lat_avg[x] = (a->lat_avg[x] * a->samples +
					 c->lat_avg[x] * c->samples) /
				(a->samples + c->samples ? a->samples + c->samples : 1);
			if (c->lat_max[x] > a->lat_max[x])
				a->lat_max[x] = c->lat_max[x];
		}
		a->runtime += c->runtime;
		a->noise += c->noise;
		a->samples += c->samples;
		a->secs += c->secs;
		if (c->max_single > a->max_single)
			a->max_single = c->max_single;
		for (int k = 0; k < OSN_CLASS_NR; k++) {
			a->count[k] += c->count[k];
			a->time[k] += c->time[k];
		}
	}
}

/* One line for a document that is not a run osn compare reads. */
static int check_head(struct osn_cmp_run *r, struct json_object *root)
{
	struct json_object *schema = get(root, "schema");
	int64_t v;

	str(root, "tool", r->tool, sizeof(r->tool));
	if (strncmp(r->tool, "osn ", 4))
		return osn_err("%s: not an osn report (no \"tool\": \"osn ...\"): compare reads the --json of osn top, hist, hwnoise and timerlat",
			       r->path);
	if (!schema)
		return osn_err("%s: an osn report without a schema version, from an older osn: write it again with osn %s",
			       r->path, OSN_VERSION);
	v = json_object_get_int64(schema);
	if (!json_object_is_type(schema, json_type_int) || v < OSN_JSON_SCHEMA)
		return osn_err("%s: osn JSON of an older schema (%s, this osn reads %d): write it again with osn %s",
			       r->path, json_object_get_string(schema),
			       OSN_JSON_SCHEMA, OSN_VERSION);
	if (v > OSN_JSON_SCHEMA)
		return osn_err("%s: osn JSON of a newer schema (%lld, this osn reads %d): compare it with a newer osn",
			       r->path, (long long)v, OSN_JSON_SCHEMA);
	if (!strncmp(r->tool, "osn timerlat", 12))
		r->kind = OSN_CMP_TIMERLAT;
	else if (strcmp(r->tool, "osn top") && strcmp(r->tool, "osn hist") &&
		 strcmp(r->tool, "osn hwnoise"))
		return osn_err("%s: a report of %s, not a run: compare reads the --json of osn top, hist, hwnoise and timerlat",
			       r->path, r->tool);
	return 0;
}

static int read_run(struct osn_cmp_run *r, struct json_object *root)
{
	struct json_object *cfg = get(root, "config"), *cpus = get(root, "cpus");
	struct json_object *causes = get(root, "causes");
	size_t n;

	if (check_head(r, root))
		return -1;
	str(root, "version", r->version, sizeof(r->version));
	str(root, "kernel", r->kernel, sizeof(r->kernel));
	str(cfg, "cpus", r->cpus, sizeof(r->cpus));
	r->duration_s = u64(root, "duration_s");
	r->period_us = u64(cfg, "period_us");
	r->runtime_us = u64(cfg, "runtime_us");
	r->threshold_us = u64(cfg, "threshold_us");
	r->bucket_us = u64(root, "bucket_size_us");
	if (!r->bucket_us)
		r->bucket_us = u64(cfg, "bucket_size_us");
	if (!cpus || !json_object_is_type(cpus, json_type_array))
		return osn_err("%s: an osn report without \"cpus\"", r->path);
	n = json_object_array_length(cpus);
	r->cpu = calloc(n ? n : 1, sizeof(*r->cpu));
	if (!r->cpu)
		return osn_err("out of memory");
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(cpus, i);
		struct osn_cmp_cpu *c = &r->cpu[r->ncpus++];
		char key[16];
		int ret;

		c->cpu = (int)u64(o, "cpu");
		if (r->kind == OSN_CMP_TIMERLAT)
			ret = read_tlat_cpu(r, c, o);
		else if (get(o, "runtime"))
			read_top_cpu(c, o), ret = 0;
		else
			ret = read_hist_cpu(r, c, o);
		if (ret)
			return -1;
		snprintf(key, sizeof(key), "%d", c->cpu);
		if (causes)
			read_culprits(c, get(causes, key));
	}
	merge_all(r);
	return 0;
}

int osn_cmp_parse(struct osn_cmp_run *r, const char *path, const char *text)
{
	enum json_tokener_error jerr;
	struct json_object *root;
	int ret;

	memset(r, 0, sizeof(*r));
	r->path = path;
	root = json_tokener_parse_verbose(text, &jerr);
	if (!root)
		return osn_err("%s: not JSON (%s)", path,
			       jerr == json_tokener_success ? "null" :
			       json_tokener_error_desc(jerr));
	if (!json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return osn_err("%s: not an osn report (not a JSON object)", path);
	}
	ret = read_run(r, root);
	json_object_put(root);
	if (ret)
		osn_cmp_free(r);
	r->path = path;
	return ret;
}

int osn_cmp_load(struct osn_cmp_run *r, const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret;

	memset(r, 0, sizeof(*r));
	r->path = path;
	if (!f)
		return osn_err("%s: cannot read: %s", path, strerror(errno));
	n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(text);
		return osn_err("%s: empty, not an osn report", path);
	}
	if ((size_t)n >= MAX_FILE || (size_t)n != strlen(text)) {
		free(text);
		return osn_err("%s: not an osn report (binary or over %u MB)",
			       path, MAX_FILE >> 20);
	}
	ret = osn_cmp_parse(r, path, text);
	free(text);
	return ret;
}

void osn_cmp_free(struct osn_cmp_run *r)
{
	for (size_t i = 0; r->cpu && i < r->ncpus; i++)
		free(r->cpu[i].bins);
	free(r->cpu);
	memset(r, 0, sizeof(*r));
}

const struct osn_cmp_cpu *osn_cmp_find(const struct osn_cmp_run *r, int cpu)
{
	if (cpu < 0)
		return r->ncpus ? &r->all : NULL;
	for (size_t i = 0; i < r->ncpus; i++)
		if (r->cpu[i].cpu == cpu)
			return &r->cpu[i];
	return NULL;
}

size_t osn_cmp_cpus(const struct osn_cmp_run *runs, size_t n, int *out,
		    size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < runs[i].ncpus; c++) {
			int cpu = runs[i].cpu[c].cpu;
			size_t at = 0;

			while (at < k && out[at] < cpu)
				at++;
			if ((at < k && out[at] == cpu) || k == max)
				continue;
			memmove(out + at + 1, out + at, (k - at) * sizeof(*out));
			out[at] = cpu;
			k++;
		}
	return k;
}

/* ---- the numbers ------------------------------------------------------------ */

static const char *const lat_names[OSN_CMP_NLAT] = { "IRQ", "thread" };

void osn_cmp_metric_name(int m, char *buf, size_t len)
{
	static const char *const fixed[] = {
		[OSN_CM_AVAIL] = "availability", [OSN_CM_NOISE] = "noise",
		[OSN_CM_MAX] = "max single", [OSN_CM_RATE] = "samples",
	};

	if (m < OSN_CM_PCT)
		snprintf(buf, len, "%s", fixed[m]);
	else if (m < OSN_CM_COUNT)
		snprintf(buf, len, "%s", osn_pct_names[m - OSN_CM_PCT]);
	else if (m < OSN_CM_TIME)
		snprintf(buf, len, "%s count", osn_class_titles[m - OSN_CM_COUNT]);
	else if (m < OSN_CM_LAT_AVG)
		snprintf(buf, len, "%s time", osn_class_titles[m - OSN_CM_TIME]);
	else if (m < OSN_CM_LAT_MAX)
		snprintf(buf, len, "%s latency avg", lat_names[m - OSN_CM_LAT_AVG]);
	else
		snprintf(buf, len, "%s latency max", lat_names[m - OSN_CM_LAT_MAX]);
}

void osn_cmp_metric_key(int m, char *buf, size_t len)
{
	char *p;

	osn_cmp_metric_name(m, buf, len);
	for (p = buf; *p; p++)
		*p = *p == ' ' ? '_' : (char)tolower((unsigned char)*p);
}

const char *osn_cmp_metric_unit(int m)
{
	if (m == OSN_CM_AVAIL)
		return "%";
	if (m == OSN_CM_NOISE || (m >= OSN_CM_TIME && m < OSN_CM_LAT_AVG))
		return "ms/s";
	if (m == OSN_CM_RATE || (m >= OSN_CM_COUNT && m < OSN_CM_TIME))
		return "/s";
	return "us";
}

static double rate(double v, double secs)
{
	return secs > 0 ? v / secs : 0;
}

bool osn_cmp_value(const struct osn_cmp_cpu *c, int m, double *v)
{
	bool top = c->have & OSN_CMP_TOP, lat = c->have & OSN_CMP_LAT;

	if (m == OSN_CM_AVAIL || m == OSN_CM_NOISE) {
		if (!top || !c->runtime)
			return false;
		*v = (double)c->noise / (double)c->runtime;
		*v = m == OSN_CM_AVAIL ? 100 * (1 - *v) : 1000 * *v;
	} else if (m == OSN_CM_MAX || m == OSN_CM_RATE) {
		if (!(c->have & OSN_CMP_SAMPLES))
			return false;
		*v = m == OSN_CM_MAX ? c->max_single / 1e3 :
			rate((double)c->samples, c->secs);
	} else if (m < OSN_CM_COUNT) {
		if (!(c->have & OSN_CMP_PCT))
			return false;
		*v = c->pct[m - OSN_CM_PCT] / 1e3;
	} else if (m < OSN_CM_TIME) {
		if (!top)
			return false;
		*v = rate((double)c->count[m - OSN_CM_COUNT], c->secs);
	} else if (m < OSN_CM_LAT_AVG) {
		if (!top)
			return false;
		*v = rate(c->time[m - OSN_CM_TIME] / 1e6, c->secs);
	} else if (m < OSN_CM_LAT_MAX) {
		if (!lat)
			return false;
		*v = c->lat_avg[m - OSN_CM_LAT_AVG] / 1e3;
	} else {
		if (!lat || m >= OSN_CM_NR)
			return false;
		*v = c->lat_max[m - OSN_CM_LAT_MAX] / 1e3;
	}
	return true;
}

bool osn_cmp_change(double a, double b, double *pct)
{
	if (a == 0)
		return false;
	*pct = 100 * (b - a) / a;
	return true;
}

void osn_cmp_fmt(int m, double v, char *buf, size_t len)
{
	if (m == OSN_CM_AVAIL)
		snprintf(buf, len, "%.4f", v);
	else
		svg_fmt_num(v, buf, len);
}

/* ---- differences and verdicts ----------------------------------------------- */

static void add(char *buf, size_t len, int *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add(char *buf, size_t len, int *n, const char *fmt, ...)
{
	size_t at = strlen(buf);
	va_list ap;

	if (*n && at + 2 < len) {
		strcpy(buf + at, "; ");
		at += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	(*n)++;
}

static void diff_str(char *buf, size_t len, int *n, const char *what,
		     const char *a, const char *b)
{
	if (strcmp(a, b))
		add(buf, len, n, "%s %s vs %s", what, a[0] ? a : "?",
		    b[0] ? b : "?");
}

static void diff_u64(char *buf, size_t len, int *n, const char *what,
		     uint64_t a, uint64_t b)
{
	if (a != b)
		add(buf, len, n, "%s %llu vs %llu", what, (unsigned long long)a,
		    (unsigned long long)b);
}

int osn_cmp_differences(const struct osn_cmp_run *a,
			const struct osn_cmp_run *b, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	diff_str(buf, len, &n, "command", a->tool, b->tool);
	diff_str(buf, len, &n, "kernel", a->kernel, b->kernel);
	diff_str(buf, len, &n, "osn", a->version, b->version);
	diff_str(buf, len, &n, "CPUs", a->cpus, b->cpus);
	diff_u64(buf, len, &n, "period_us", a->period_us, b->period_us);
	diff_u64(buf, len, &n, "runtime_us", a->runtime_us, b->runtime_us);
	diff_u64(buf, len, &n, "threshold_us", a->threshold_us, b->threshold_us);
	diff_u64(buf, len, &n, "bucket_size_us", a->bucket_us, b->bucket_us);
	diff_u64(buf, len, &n, "duration_s", a->duration_s, b->duration_s);
	return n;
}

/* A change worth a verdict: 10 % and more than the values' noise floor. */
static bool notable(int m, double a, double b)
{
	double floor = m >= OSN_CM_TIME && m < OSN_CM_LAT_AVG ? 0.01 : 1;

	return fabs(b - a) >= floor && fabs(b - a) >= 0.1 * fmax(a, b);
}

/* The metric of @ca and @cb that changed most among [m0, m1) but @skip. */
static int largest(const struct osn_cmp_cpu *ca, const struct osn_cmp_cpu *cb,
		   int m0, int m1, int skip)
{
	double best = -1, a, b;
	int pick = -1;

	for (int m = m0; m < m1; m++)
		/* a tie goes to the later: Thread, the thread's latency */
		if (m != skip && osn_cmp_value(ca, m, &a) &&
		    osn_cmp_value(cb, m, &b) && fabs(b - a) >= best) {
			best = fabs(b - a);
			pick = m;
		}
	return pick;
}

/* "IRQ time: 1.2 ms/s → 0.05 ms/s (-96 %)"; true if the change is notable */
static bool change_str(const struct osn_cmp_cpu *ca,
		       const struct osn_cmp_cpu *cb, int m, char *buf,
		       size_t len)
{
	char name[32], va[32], vb[32], ch[32] = "";
	const char *unit = osn_cmp_metric_unit(m);
	double x, y, pct;

	osn_cmp_value(ca, m, &x);
	osn_cmp_value(cb, m, &y);
	osn_cmp_metric_name(m, name, sizeof(name));
	osn_cmp_fmt(m, x, va, sizeof(va));
	osn_cmp_fmt(m, y, vb, sizeof(vb));
	if (osn_cmp_change(x, y, &pct))
		snprintf(ch, sizeof(ch), " (%+.0f %%)", pct);
	snprintf(buf, len, "%s: %s %s → %s %s%s", name, va, unit, vb, unit, ch);
	return notable(m, x, y);
}

static void culprits_str(const struct osn_cmp_cpu *c, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->ncul && i < 2 && at < len; i++) {
		const struct osn_cmp_culprit *u = &c->cul[i];

		at += snprintf(buf + at, len - at, "%s%s%s%s%s", i ? ", " : "",
			       u->kind, u->function[0] ? " (" : "",
			       u->function, u->function[0] ? ")" : "");
	}
}

/* The number a verdict is about: a class's time, else a latency, p99, max. */
static int verdict_metric(const struct osn_cmp_cpu *ca,
			  const struct osn_cmp_cpu *cb)
{
	int m = largest(ca, cb, OSN_CM_TIME, OSN_CM_LAT_AVG, -1);

	if (m < 0)
		m = largest(ca, cb, OSN_CM_LAT_MAX, OSN_CM_NR, -1);
	if (m < 0)
		m = largest(ca, cb, OSN_CM_PCT + OSN_P99, OSN_CM_PCT + OSN_P99 + 1, -1);
	if (m < 0)
		m = largest(ca, cb, OSN_CM_MAX, OSN_CM_MAX + 1, -1);
	return m;
}

int osn_cmp_verdict(const struct osn_cmp_run *a, const struct osn_cmp_run *b,
		    int cpu, int *also, char *buf, size_t len)
{
	const struct osn_cmp_cpu *ca = osn_cmp_find(a, cpu);
	const struct osn_cmp_cpu *cb = osn_cmp_find(b, cpu);
	char who[16], first[128], second[128] = "", cul[200];
	double x, y;
	int m, m2 = -1;

	if (also)
		*also = -1;
	if (cpu < 0)
		snprintf(who, sizeof(who), "all CPUs");
	else
		snprintf(who, sizeof(who), "CPU %d", cpu);
	if (!ca || !cb) {
		snprintf(buf, len, "%s: only in %s", who, ca ? a->path : b->path);
		return -1;
	}
	m = verdict_metric(ca, cb);
	if (m < 0) {
		snprintf(buf, len, "%s: no number in common (%s vs %s)", who,
			 a->tool, b->tool);
		return -1;
	}
	culprits_str(cb, cul, sizeof(cul));
	if (!change_str(ca, cb, m, first, sizeof(first))) {
		/* the whole noise says more than its largest class here */
		if (osn_cmp_value(ca, OSN_CM_NOISE, &x) &&
		    osn_cmp_value(cb, OSN_CM_NOISE, &y))
			change_str(ca, cb, m = OSN_CM_NOISE, first, sizeof(first));
		snprintf(buf, len, "%s: no notable change (%s)%s%s", who, first,
			 cul[0] ? "; culprits: " : "", cul);
		return m;
	}
	/* a second class that changed as well, as a class is often not alone */
	if (m >= OSN_CM_TIME && m < OSN_CM_LAT_AVG)
		m2 = largest(ca, cb, OSN_CM_TIME, OSN_CM_LAT_AVG, m);
	if (m2 >= 0 && change_str(ca, cb, m2, second + 2, sizeof(second) - 2)) {
		memcpy(second, "; ", 2);
		if (also)
			*also = m2;
	} else {
		second[0] = '\0';
	}
	osn_cmp_value(ca, m, &x);
	osn_cmp_value(cb, m, &y);
	snprintf(buf, len, "%s %s%s%s%s", who, first, second,
		 cul[0] ? (y < x ? "; what remains: " : "; now led by: ") : "",
		 cul);
	return m;
}
