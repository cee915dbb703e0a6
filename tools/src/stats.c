// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - statistics of the osn CLI (see stats.h).  Pure code.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

const char * const osn_class_names[OSN_CLASS_NR] = {
	"hw", "nmi", "irq", "softirq", "thread",
};
const char * const osn_class_titles[OSN_CLASS_NR] = {
	"HW", "NMI", "IRQ", "Softirq", "Thread",
};
const char * const osn_cause_kind_names[OSN_CAUSE_NR] = {
	"wakeup", "work", "timer", "hrtimer", "ipi", "tlb", "resched",
};
const unsigned osn_pct_permille[OSN_NR_PCT] = { 500, 900, 990, 999 };
const char * const osn_pct_names[OSN_NR_PCT] = {
	"p50", "p90", "p99", "p99.9",
};

/* ---- top -------------------------------------------------------------- */

void osn_stats_add_sample(struct osn_cpu_stats *st, const struct osn_event *ev)
{
	if (ev->type != OSN_E_SAMPLE)
		return;
	st->periods++;
	st->runtime += ev->s.runtime;
	st->noise += ev->s.noise;
	if (ev->s.noise > st->max_noise)
		st->max_noise = ev->s.noise;
	if (ev->s.max_sample > st->max_single)
		st->max_single = ev->s.max_sample;
	if (ev->s.samples) {
		if (!st->samples || ev->s.min_sample < st->min_single)
			st->min_single = ev->s.min_sample;
		st->samples += ev->s.samples;
	}
	for (int c = 0; c < OSN_CLASS_NR; c++) {
		st->count[c] += ev->s.count[c];
		st->time[c] += ev->s.time[c];
	}
	st->self += ev->s.self;
}

void osn_stats_merge(struct osn_cpu_stats *a, const struct osn_cpu_stats *b)
{
	a->periods += b->periods;
	a->runtime += b->runtime;
	a->noise += b->noise;
	if (b->max_noise > a->max_noise)
		a->max_noise = b->max_noise;
	if (b->max_single > a->max_single)
		a->max_single = b->max_single;
	if (b->samples) {
		if (!a->samples || b->min_single < a->min_single)
			a->min_single = b->min_single;
		a->samples += b->samples;
	}
	for (int c = 0; c < OSN_CLASS_NR; c++) {
		a->count[c] += b->count[c];
		a->time[c] += b->time[c];
	}
	a->self += b->self;
}

uint64_t osn_stats_avail_e5(const struct osn_cpu_stats *st)
{
	unsigned __int128 free_ns;
	uint64_t noise;

	if (!st->runtime)
		return 10000000;
	noise = st->noise > st->runtime ? st->runtime : st->noise;
	free_ns = st->runtime - noise;
	return (uint64_t)(free_ns * 10000000 / st->runtime);
}

/* ---- in-kernel histogram ------------------------------------------------ */

/*
 * Index of @cpu in h->cpus (sorted by cpu), or where it would go: a binary
 * search, as every line of a hist file looks its CPU up (a table has
 * lines for every CPU and bucket, sorted by hitcount, not by CPU).
 */
static size_t khist_index(const struct osn_khist *h, int cpu)
{
	size_t lo = 0, hi = h->ncpus;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (h->cpus[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct osn_khist_cpu *khist_cpu(struct osn_khist *h, int cpu)
{
	size_t i = khist_index(h, cpu);
	struct osn_khist_cpu *c;

	if (i < h->ncpus && h->cpus[i].cpu == cpu)
		return &h->cpus[i];
	if (h->ncpus == h->cap) {
		size_t ncap = h->cap ? h->cap * 2 : 8;

		c = realloc(h->cpus, ncap * sizeof(*c));
		if (!c)
			return NULL;
		h->cpus = c;
		h->cap = ncap;
	}
	c = h->cpus;
	memmove(&c[i + 1], &c[i], (h->ncpus - i) * sizeof(*c));
	memset(&c[i], 0, sizeof(*c));
	c[i].cpu = cpu;
	h->ncpus++;
	return &c[i];
}

const struct osn_khist_cpu *osn_khist_find(const struct osn_khist *h, int cpu)
{
	size_t i = khist_index(h, cpu);

	return i < h->ncpus && h->cpus[i].cpu == cpu ? &h->cpus[i] : NULL;
}

int osn_khist_add(struct osn_khist *h, int cpu, uint64_t lo, uint64_t count,
		  uint64_t sum)
{
	struct osn_khist_cpu *c = khist_cpu(h, cpu);
	size_t lo_i = 0, hi_i;

	if (!c)
		return -1;
	/* binary search for lo */
	hi_i = c->n;
	while (lo_i < hi_i) {
		size_t mid = (lo_i + hi_i) / 2;

		if (c->b[mid].lo < lo)
			lo_i = mid + 1;
		else
			hi_i = mid;
	}
	if (lo_i < c->n && c->b[lo_i].lo == lo) {
		c->b[lo_i].count += count;
		c->b[lo_i].sum += sum;
		return 0;
	}
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 16;
		struct osn_kbucket *nb = realloc(c->b, ncap * sizeof(*nb));

		if (!nb)
			return -1;
		c->b = nb;
		c->cap = ncap;
	}
	memmove(&c->b[lo_i + 1], &c->b[lo_i], (c->n - lo_i) * sizeof(*c->b));
	c->b[lo_i].lo = lo;
	c->b[lo_i].count = count;
	c->b[lo_i].sum = sum;
	c->n++;
	return 0;
}

void osn_khist_free(struct osn_khist *h)
{
	for (size_t i = 0; i < h->ncpus; i++)
		free(h->cpus[i].b);
	free(h->cpus);
	h->cpus = NULL;
	h->ncpus = 0;
	h->cap = 0;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int read_u64(const char **pp, uint64_t *v)
{
	const char *p = skip_ws(*pp);
	char *end;

	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	*v = strtoull(p, &end, 10);
	if (errno)
		return -1;
	*pp = end;
	return 0;
}

/* One "{ ... } hitcount: N  duration: S" line. */
static int parse_entry(const char *line, const char *eol, uint64_t bucket_ns,
		       struct osn_khist *h, bool *sum_seen)
{
	char buf[512], *tok, *save = NULL;
	const char *close = memchr(line, '}', eol - line);
	const char *p;
	uint64_t cpu = UINT64_MAX, lo = UINT64_MAX, count, sum = 0;
	size_t len;

	if (!close)
		return -1;
	len = close - line - 1;
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, line + 1, len);
	buf[len] = '\0';
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		const char *name = skip_ws(tok), *val;
		size_t nlen;

		if (!colon)
			return -1;
		nlen = colon - name;
		val = skip_ws(colon + 1);
		if (nlen >= 3 && !strncmp(colon - 3, "cpu", 3)) {
			if (read_u64(&val, &cpu))
				return -1;
		} else if (nlen >= 8 && !strncmp(name, "duration", 8)) {
			if (*val == '~')
				val++;
			if (read_u64(&val, &lo))
				return -1;
			/* plain (non-bucket) key: put it in its bucket */
			if (bucket_ns)
				lo = lo / bucket_ns * bucket_ns;
		}
	}
	if (cpu == UINT64_MAX || lo == UINT64_MAX)
		return -1;
	p = strstr(close, "hitcount:");
	if (!p || p > eol)
		return -1;
	p += strlen("hitcount:");
	if (read_u64(&p, &count))
		return -1;
	p = strstr(p, "duration:");
	if (p && p < eol) {
		p += strlen("duration:");
		if (read_u64(&p, &sum))
			return -1;
		*sum_seen = true;
	}
	if (cpu > 1000000)
		return -1;
	return osn_khist_add(h, (int)cpu, lo, count, sum);
}

/*
 * A "# trigger info: hist:keys=K..." line: does K begin with @keys (with a
 * leading '!': not begin with the rest)?
 */
static bool trigger_info_keys(const char *p, const char *keys)
{
	static const char info[] = "# trigger info:";
	bool neg = keys[0] == '!';
	const char *k;

	if (strncmp(p, info, strlen(info)))
		return false;
	k = skip_ws(p + strlen(info));
	if (strncmp(k, "hist:keys=", 10))
		return false;
	keys += neg;
	return !strncmp(k + 10, keys, strlen(keys)) != neg;
}

int osn_khist_parse(const char *text, uint64_t bucket_ns, struct osn_khist *h)
{
	return osn_khist_parse_keys(text, bucket_ns, NULL, h);
}

int osn_khist_parse_keys(const char *text, uint64_t bucket_ns,
			 const char *keys, struct osn_khist *h)
{
	const char *line = text;
	bool sum_seen = false, any_line = false, all_sum = true;
	bool mine = true;	/* in the table asked for */
	int lineno = 0;

	memset(h, 0, sizeof(*h));
	h->bucket_ns = bucket_ns;
	if (!text)
		return osn_err("no histogram");
	while (*line) {
		const char *eol = strchr(line, '\n');
		const char *p;

		if (!eol)
			eol = line + strlen(line);
		lineno++;
		p = skip_ws(line);
		if (keys && !strncmp(p, "# trigger info:", 15))
			mine = trigger_info_keys(p, keys);
		if (!mine) {
			line = *eol ? eol + 1 : eol;
			continue;
		}
		if (*p == '{') {
			bool s = false;

			if (parse_entry(p, eol, bucket_ns, h, &s)) {
				osn_khist_free(h);
				return osn_err("histogram line %d is not a cpu/duration entry",
					       lineno);
			}
			any_line = true;
			sum_seen |= s;
			all_sum &= s;
		} else if (!strncmp(p, "Hits:", 5)) {
			p += 5;
			read_u64(&p, &h->hits);
		} else if (!strncmp(p, "Entries:", 8)) {
			p += 8;
			read_u64(&p, &h->entries);
		} else if (!strncmp(p, "Dropped:", 8)) {
			p += 8;
			read_u64(&p, &h->dropped);
		}
		line = *eol ? eol + 1 : eol;
	}
	h->have_sum = any_line ? (sum_seen && all_sum) : true;
	return 0;
}

/* ---- exact values --------------------------------------------------------- */

void osn_exact_add_sample(struct osn_exact *x, const struct osn_event *ev)
{
	if (ev->type != OSN_E_SAMPLE || !ev->s.samples)
		return;
	if (!x->samples || ev->s.min_sample < x->min)
		x->min = ev->s.min_sample;
	if (!x->samples || ev->s.max_sample > x->max)
		x->max = ev->s.max_sample;
	x->samples += ev->s.samples;
	x->noise += ev->s.noise;
}

/* ---- display histogram ---------------------------------------------------- */

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * The bucket of @b (@n of them, sorted) that holds the sample of rank
 * ceil(@permille * total / 1000); @below gets the count before it.
 */
static const struct osn_kbucket *rank_bucket(const struct osn_kbucket *b,
					     size_t n, unsigned permille,
					     uint64_t *rank, uint64_t *below)
{
	uint64_t total = 0, r, cum = 0;

	for (size_t i = 0; i < n; i++)
		total += b[i].count;
	if (!total)
		return NULL;
	r = (uint64_t)(((unsigned __int128)total * permille + 999) / 1000);
	if (!r)
		r = 1;
	for (size_t i = 0; i < n; i++) {
		if (cum + b[i].count >= r) {
			*rank = r;
			*below = cum;
			return &b[i];
		}
		cum += b[i].count;
	}
	return NULL;
}

/*
 * Percentile @p of one CPU, as exact as what is known of the sample of
 * its rank: the min or the max, a bucket's only sample with its sum, the
 * fine table's bucket (which counts the same samples, give or take the
 * few of the moment between the two triggers' creation), else the
 * display bucket's edge.
 */
static void percentile(struct osn_hist_cpu *hc,
		       const struct osn_khist_cpu *kc, uint64_t bns,
		       bool have_sum, const struct osn_khist_cpu *fc,
		       const struct osn_khist *fine, int p)
{
	unsigned pm = osn_pct_permille[p];
	const struct osn_kbucket *b, *f;
	uint64_t r = 0, below = 0, v;
	bool exact = false;

	b = rank_bucket(kc->b, kc->n, pm, &r, &below);
	if (!b) {		/* cannot be: count is the sum of the buckets */
		hc->pct[p] = hc->max;
		return;
	}
	v = b->lo + bns;
	if (r == hc->count && hc->max_exact) {
		v = hc->max;
		exact = true;
	} else if (r == 1 && hc->min_exact) {
		v = hc->min;
		exact = true;
	} else if (b->count == 1 && have_sum) {
		v = b->sum;
		exact = true;
	} else if (fine && fc &&
		   (f = rank_bucket(fc->b, fc->n, pm, &r, &below))) {
		v = f->count == 1 && fine->have_sum ? f->sum :
			f->lo + fine->bucket_ns;
		exact = true;
	}
	hc->pct[p] = clamp_u64(v, hc->min, hc->max);
	hc->pct_exact[p] = exact;
}

/*
 * The average: exact from the sums of the table (@sum) or of the samples
 * (@x) when they count the same, else from the buckets' middles; within
 * min and max.
 */
static void build_avg(struct osn_hist_cpu *hc, const struct osn_khist_cpu *kc,
		      const struct osn_khist *kh, const struct osn_exact *x,
		      uint64_t sum)
{
	uint64_t bns = kh->bucket_ns;

	if (kh->have_sum) {
		hc->avg = (sum + hc->count / 2) / hc->count;
		hc->avg_exact = true;
	} else if (x) {
		hc->avg = (x->noise + x->samples / 2) / x->samples;
		hc->avg_exact = x->samples == hc->count;
	} else {
		unsigned __int128 mid = 0;

		for (size_t i = 0; i < kc->n; i++)
			mid += (unsigned __int128)kc->b[i].count *
				(kc->b[i].lo + bns / 2);
		hc->avg = (uint64_t)(mid / hc->count);
	}
	if (hc->avg < hc->min)
		hc->avg = hc->min;
	if (hc->avg > hc->max)
		hc->avg = hc->max;
}

static void build_cpu(struct osn_hist_cpu *hc, const struct osn_khist_cpu *kc,
		      const struct osn_khist *kh, unsigned entries,
		      const struct osn_exact *x, const struct osn_khist *fine)
{
	const struct osn_khist_cpu *fc = fine ? osn_khist_find(fine, hc->cpu) :
		NULL;
	uint64_t bns = kh->bucket_ns, sum = 0;
	const struct osn_kbucket *first = NULL, *last = NULL;

	for (size_t i = 0; kc && i < kc->n; i++) {
		const struct osn_kbucket *b = &kc->b[i];
		uint64_t idx = bns ? b->lo / bns : 0;

		if (!b->count)
			continue;
		if (idx < entries)
			hc->rows[idx] += b->count;
		else
			hc->over += b->count;
		hc->count += b->count;
		sum += b->sum;
		if (!first)
			first = b;
		last = b;
	}
	if (!hc->count)
		return;
	if (x && !x->samples)
		x = NULL;

	/* min */
	if (kh->have_sum && first->count == 1) {
		hc->min = first->sum;
		hc->min_exact = true;
	} else if (x && x->min >= first->lo && x->min < first->lo + bns) {
		hc->min = x->min;
		hc->min_exact = true;
	} else {
		hc->min = x ? clamp_u64(x->min, first->lo, first->lo + bns - 1) :
			first->lo;
	}
	/* max */
	if (kh->have_sum && last->count == 1) {
		hc->max = last->sum;
		hc->max_exact = true;
	} else if (x && x->max >= last->lo && x->max < last->lo + bns) {
		hc->max = x->max;
		hc->max_exact = true;
	} else {
		hc->max = x ? clamp_u64(x->max, last->lo, last->lo + bns - 1) :
			last->lo + bns - 1;
	}
	build_avg(hc, kc, kh, x, sum);
	if (fine && fine->dropped)
		fine = NULL;	/* full: it does not have every sample */
	hc->pct_count = hc->count;
	if (fine) {
		hc->pct_count = 0;
		for (size_t i = 0; fc && i < fc->n; i++)
			hc->pct_count += fc->b[i].count;
	}
	for (int p = 0; p < OSN_NR_PCT; p++)
		percentile(hc, kc, bns, kh->have_sum, fc, fine, p);
}

/* @cpu's display rows (up to its last non-empty bucket) and numbers. */
static int build_one(struct osn_hist *out, struct osn_hist_cpu *hc, int cpu,
		     const struct osn_khist *kh, const struct osn_khist *fine,
		     unsigned entries, const struct osn_exact *x)
{
	const struct osn_khist_cpu *kc = osn_khist_find(kh, cpu);
	uint64_t last = 0;

	for (size_t k = 0; kc && k < kc->n; k++) {
		uint64_t idx = kh->bucket_ns ? kc->b[k].lo / kh->bucket_ns : 0;

		if (kc->b[k].count && idx < entries && idx + 1 > last)
			last = idx + 1;
	}
	hc->cpu = cpu;
	hc->nrows = (unsigned)last;
	hc->rows = calloc(last ? last : 1, sizeof(*hc->rows));
	if (!hc->rows)
		return -1;
	if (hc->nrows > out->nrows)
		out->nrows = hc->nrows;
	build_cpu(hc, kc, kh, entries, x, fine);
	return 0;
}

static int cmp_lo(const void *a, const void *b)
{
	const struct osn_kbucket *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * The buckets of @kh's CPUs in @cpus as one CPU's, -1 (ALL), into @all:
 * gathered, sorted and merged (a sort, not one insertion each: a table
 * of 256 CPUs may hold tens of thousands of buckets).
 */
static int khist_all(const struct osn_khist *kh, const int *cpus,
		     size_t ncpus, struct osn_khist *all)
{
	struct osn_khist_cpu *c;
	size_t n = 0, m = 0;

	*all = *kh;
	all->cpus = c = calloc(1, sizeof(*c));
	all->ncpus = all->cap = c ? 1 : 0;
	for (size_t i = 0; i < ncpus; i++) {
		const struct osn_khist_cpu *kc = osn_khist_find(kh, cpus[i]);

		n += kc ? kc->n : 0;
	}
	if (!c || !(c->b = malloc((n ? n : 1) * sizeof(*c->b))))
		return -1;
	c->cpu = -1;
	c->cap = n ? n : 1;
	for (size_t i = 0; i < ncpus; i++) {
		const struct osn_khist_cpu *kc = osn_khist_find(kh, cpus[i]);

		if (kc && kc->n)
			memcpy(&c->b[m], kc->b, kc->n * sizeof(*kc->b));
		m += kc ? kc->n : 0;
	}
	qsort(c->b, m, sizeof(*c->b), cmp_lo);
	for (size_t i = 0; i < m; i++) {
		if (c->n && c->b[c->n - 1].lo == c->b[i].lo) {
			c->b[c->n - 1].count += c->b[i].count;
			c->b[c->n - 1].sum += c->b[i].sum;
		} else {
			c->b[c->n++] = c->b[i];
		}
	}
	return 0;
}

/*
 * ALL: the samples of every CPU of @cpus as those of one CPU, built as
 * a CPU is, from the tables merged and the exact extremes and sums of
 * them all.
 */
static int build_all(struct osn_hist *out, const struct osn_khist *kh,
		     const struct osn_khist *fine, unsigned entries,
		     const int *cpus, size_t ncpus,
		     const struct osn_exact *exact)
{
	struct osn_khist ka = { 0 }, fa = { 0 };
	struct osn_exact x = { 0 };
	int r;

	for (size_t i = 0; exact && i < ncpus; i++) {
		const struct osn_exact *e = &exact[cpus[i]];

		if (!e->samples)
			continue;
		if (!x.samples || e->min < x.min)
			x.min = e->min;
		if (!x.samples || e->max > x.max)
			x.max = e->max;
		x.samples += e->samples;
		x.noise += e->noise;
	}
	r = khist_all(kh, cpus, ncpus, &ka);
	if (!r && fine)
		r = khist_all(fine, cpus, ncpus, &fa);
	if (!r)
		r = build_one(out, &out->all, -1, &ka, fine ? &fa : NULL,
			      entries, exact ? &x : NULL);
	osn_khist_free(&ka);
	osn_khist_free(&fa);
	return r;
}

int osn_hist_build(struct osn_hist *out, const struct osn_khist *kh,
		   unsigned entries, const int *cpus, size_t ncpus,
		   const struct osn_exact *exact)
{
	return osn_hist_build_fine(out, kh, NULL, entries, cpus, ncpus, exact);
}

int osn_hist_build_fine(struct osn_hist *out, const struct osn_khist *kh,
			const struct osn_khist *fine, unsigned entries,
			const int *cpus, size_t ncpus,
			const struct osn_exact *exact)
{
	memset(out, 0, sizeof(*out));
	if (fine && (!fine->bucket_ns || !kh->bucket_ns ||
		     kh->bucket_ns % fine->bucket_ns))
		fine = NULL;	/* the buckets do not nest */
	out->bucket_ns = kh->bucket_ns;
	out->pct_res_ns = fine ? fine->bucket_ns : 0;
	out->entries = entries;
	out->cpus = calloc(ncpus ? ncpus : 1, sizeof(*out->cpus));
	if (!out->cpus)
		return -1;
	out->ncpus = ncpus;
	for (size_t i = 0; i < ncpus; i++) {
		if (build_one(out, &out->cpus[i], cpus[i], kh, fine, entries,
			      exact ? &exact[cpus[i]] : NULL)) {
			osn_hist_free(out);
			return -1;
		}
	}
	if (build_all(out, kh, fine, entries, cpus, ncpus, exact)) {
		osn_hist_free(out);
		return -1;
	}
	return 0;
}

void osn_hist_free(struct osn_hist *h)
{
	for (size_t i = 0; i < h->ncpus; i++)
		free(h->cpus[i].rows);
	free(h->all.rows);
	h->all.rows = NULL;
	free(h->cpus);
	h->cpus = NULL;
	h->ncpus = 0;
}
