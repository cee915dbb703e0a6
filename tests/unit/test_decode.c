// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c: ring-buffer records into struct osn_event, through formats
 * written here the way tracefs shows the module's (kernel/osn_trace.h):
 * every field is read by its name, so a field added to an event, or the
 * fields reordered, changes nothing; a missing field, or one of another
 * kind, is an error that names it, never a silent 0.
 */
#include <stdbool.h>

#include "harness.h"
#include "decode.h"
#include "util.h"

struct fld {
	const char *type;	/* "u64", "int", "char" (array or __data_loc) */
	const char *name;
	int size;
	int arr;		/* char NAME[arr] */
	bool dyn;		/* __data_loc char[] NAME (__string) */
	bool sign;
};

#define U64(n)		{ "u64", n, 8, 0, false, false }
#define INT(n)		{ "int", n, 4, 0, false, true }
#define UINT(n)		{ "unsigned int", n, 4, 0, false, false }
#define PID(n)		{ "pid_t", n, 4, 0, false, true }
#define ULONG(n)	{ "unsigned long", n, sizeof(long), 0, false, false }
#define COMM(n)		{ "char", n, 16, 16, false, false }
#define STRING(n)	{ "char", n, 4, 0, true, false }
#define LONGS(n)	{ "unsigned long", n, 4, 0, true, false }
#define MAX_FIELDS	20

struct ev_spec {
	const char *name;
	int id;
	struct fld f[MAX_FIELDS];	/* ends at a NULL name */
};

/* The module's events, their fields in kernel/osn_trace.h's order. */
static const struct ev_spec specs[] = {
	{ "sample_threshold", 501,
	  { U64("start"), U64("duration"), U64("interference") } },
	{ "irq_noise", 502,
	  { STRING("desc"), INT("vector"), U64("start"), U64("duration") } },
	{ "softirq_noise", 503,
	  { INT("vector"), U64("start"), U64("duration") } },
	{ "thread_noise", 504,
	  { COMM("comm"), PID("pid"), U64("start"), U64("duration") } },
	{ "nmi_noise", 505, { U64("start"), U64("duration") } },
	{ "sample", 506,
	  { U64("runtime"), U64("noise"), U64("max_sample"),
	    U64("min_sample"), U64("samples"), U64("hw_count"),
	    U64("nmi_count"), U64("irq_count"), U64("softirq_count"),
	    U64("thread_count"), U64("hw_time"), U64("nmi_time"),
	    U64("irq_time"), U64("softirq_time"), U64("thread_time"),
	    U64("loops"), U64("min_gap"), U64("self") } },
	{ "stop", 507, { INT("reason"), U64("value"), U64("threshold") } },
	{ "noise_cause", 508,
	  { COMM("origin_comm"), INT("kind"), INT("class"), U64("start"),
	    ULONG("function"), INT("origin_cpu"), PID("origin_pid") } },
	{ "timerlat_sample", 509,
	  { U64("timer_latency"), UINT("seqnum"), INT("context") } },
	{ "timerlat_stack", 510, { UINT("size"), LONGS("caller") } },
};

/* How the formats differ from the module's. */
struct variant {
	bool reorder;		/* a field added first, the others reversed */
	const char *drop_event;
	const char *drop_field;
	const char *as_array;	/* this field becomes char[8] */
	const char *as_u64;	/* this field becomes a u64 */
};

/* One event as formatted: its fields in order, with their offsets. */
struct layout {
	const struct ev_spec *spec;
	struct fld f[MAX_FIELDS + 1];
	int off[MAX_FIELDS + 1];
	int n, size;
};

static struct layout layouts[ARRAY_SIZE(specs)];

static void lay_out(struct layout *l, const struct ev_spec *e,
		    const struct variant *v)
{
	static const struct fld added = U64("added");
	int n = 0, pos = 8;

	while (e->f[n].name)
		n++;
	l->spec = e;
	l->n = 0;
	if (v->reorder)
		l->f[l->n++] = added;
	for (int i = 0; i < n; i++) {
		struct fld f = e->f[v->reorder ? n - 1 - i : i];

		if (v->drop_field && !strcmp(f.name, v->drop_field))
			continue;
		if (v->as_array && !strcmp(f.name, v->as_array))
			f = (struct fld){ "char", f.name, 8, 8, false, false };
		if (v->as_u64 && !strcmp(f.name, v->as_u64))
			f = (struct fld)U64(f.name);
		l->f[l->n++] = f;
	}
	for (int i = 0; i < l->n; i++) {
		l->off[i] = pos;
		pos += l->f[i].size;
	}
	l->size = pos;
}

static int parse_format(struct tep_handle *tep, const struct layout *l)
{
	char buf[4096];
	int o;

	o = snprintf(buf, sizeof(buf),
		     "name: %s\nID: %d\nformat:\n"
		     "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		     "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		     "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		     "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n",
		     l->spec->name, l->spec->id);
	for (int i = 0; i < l->n; i++) {
		const struct fld *f = &l->f[i];

		if (f->dyn)
			o += snprintf(buf + o, sizeof(buf) - o,
				      "\tfield:__data_loc %s[] %s;\toffset:%d;\tsize:4;\tsigned:0;\n",
				      f->type, f->name, l->off[i]);
		else if (f->arr)
			o += snprintf(buf + o, sizeof(buf) - o,
				      "\tfield:char %s[%d];\toffset:%d;\tsize:%d;\tsigned:0;\n",
				      f->name, f->arr, l->off[i], f->size);
		else
			o += snprintf(buf + o, sizeof(buf) - o,
				      "\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
				      f->type, f->name, l->off[i], f->size, f->sign);
	}
	o += snprintf(buf + o, sizeof(buf) - o, "\nprint fmt: \"%s\"\n",
		      l->spec->name);
	return tep_parse_event(tep, buf, o, "osn") ? -1 : 0;
}

/* A tep handle with the osn formats of @v; NULL if one does not parse. */
static struct tep_handle *formats(const struct variant *v)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN :
			       TEP_LITTLE_ENDIAN);
	/* as the page header sets it: the size of the stack's addresses */
	tep_set_long_size(tep, sizeof(long));
	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		lay_out(&layouts[i], &specs[i], v);
		if (v->drop_event && !strcmp(specs[i].name, v->drop_event))
			continue;
		if (parse_format(tep, &layouts[i])) {
			tep_free(tep);
			return NULL;
		}
	}
	return tep;
}

/* A record of one event: its fields set by name. */
struct rec {
	const struct layout *l;
	unsigned char data[512];
	int len;
	struct tep_record r;
};

static void rec_init(struct rec *x, const char *event)
{
	memset(x, 0, sizeof(*x));
	for (size_t i = 0; i < ARRAY_SIZE(specs); i++)
		if (!strcmp(layouts[i].spec->name, event))
			x->l = &layouts[i];
	x->len = x->l->size;
	memcpy(x->data, &(unsigned short){ (unsigned short)x->l->spec->id }, 2);
	x->r.data = x->data;
	x->r.cpu = 3;
	x->r.ts = 123456789;
}

static int field_at(const struct rec *x, const char *name)
{
	for (int i = 0; i < x->l->n; i++)
		if (!strcmp(x->l->f[i].name, name))
			return i;
	return -1;
}

static void put(struct rec *x, const char *name, long long v)
{
	int i = field_at(x, name);
	uint64_t u = (uint64_t)v;
	uint32_t w = (uint32_t)u;

	if (i < 0)
		return;
	if (x->l->f[i].size == 8)
		memcpy(x->data + x->l->off[i], &u, 8);
	else
		memcpy(x->data + x->l->off[i], &w, 4);
}

static void put_str(struct rec *x, const char *name, const char *s)
{
	int i = field_at(x, name);
	size_t n = strlen(s) + 1;

	if (i < 0)
		return;
	if (x->l->f[i].dyn) {
		uint32_t loc = (uint32_t)(n << 16) | (uint32_t)x->len;

		memcpy(x->data + x->len, s, n);
		x->len += n;
		memcpy(x->data + x->l->off[i], &loc, 4);
	} else {
		osn_strlcpy((char *)x->data + x->l->off[i], s, x->l->f[i].size);
	}
}

/* A __data_loc array of @n longs */
static void put_longs(struct rec *x, const char *name, const unsigned long *v,
		      size_t n)
{
	int i = field_at(x, name);
	size_t bytes = n * sizeof(long);
	uint32_t loc = (uint32_t)(bytes << 16) | (uint32_t)x->len;

	if (i < 0)
		return;
	memcpy(x->data + x->len, v, bytes);
	x->len += bytes;
	memcpy(x->data + x->l->off[i], &loc, 4);
}

static int decode(const struct osn_decoder *d, struct rec *x,
		  struct osn_event *ev)
{
	struct tep_event *e = tep_find_event(d->tep, x->l->spec->id);

	x->r.size = x->len;
	return e ? osn_decode(d, e, &x->r, ev) : -1;
}

/* Every field of every event, as the formats of @v place them. */
static void decodes_every_event(const struct variant *v)
{
	static const char *const cls[] = { "hw", "nmi", "irq", "softirq",
					   "thread" };
	struct tep_handle *tep = formats(v);
	struct osn_decoder d;
	struct osn_event ev;
	struct rec x;
	char name[32];

	CHECK(tep != NULL);
	if (!tep)
		return;
	CHECK_EQ(osn_decoder_bind(&d, tep), 0);

	rec_init(&x, "sample");
	put(&x, "runtime", 1000000);
	put(&x, "noise", 2000);
	put(&x, "max_sample", 300);
	put(&x, "min_sample", 4);
	put(&x, "samples", 50);
	put(&x, "loops", 777);
	put(&x, "min_gap", 888);
	put(&x, "self", 99);
	for (int c = 0; c < OSN_CLASS_NR; c++) {
		snprintf(name, sizeof(name), "%s_count", cls[c]);
		put(&x, name, 10 + c);
		snprintf(name, sizeof(name), "%s_time", cls[c]);
		put(&x, name, 100 + c);
	}
	CHECK_EQ(decode(&d, &x, &ev), 0);
	CHECK_EQ(ev.type, OSN_E_SAMPLE);
	CHECK_EQ(ev.cpu, 3);
	CHECK_EQ(ev.ts, 123456789);
	CHECK_EQ(ev.s.runtime, 1000000);
	CHECK_EQ(ev.s.noise, 2000);
	CHECK_EQ(ev.s.max_sample, 300);
	CHECK_EQ(ev.s.min_sample, 4);
	CHECK_EQ(ev.s.samples, 50);
	CHECK_EQ(ev.s.self, 99);
	CHECK_EQ(ev.s.count[OSN_CLASS_HW], 10 + OSN_CLASS_HW);
	CHECK_EQ(ev.s.count[OSN_CLASS_THREAD], 10 + OSN_CLASS_THREAD);
	CHECK_EQ(ev.s.time[OSN_CLASS_NMI], 100 + OSN_CLASS_NMI);
	CHECK_EQ(ev.s.time[OSN_CLASS_SOFTIRQ], 100 + OSN_CLASS_SOFTIRQ);
	CHECK_EQ(ev.s.time[OSN_CLASS_IRQ], 100 + OSN_CLASS_IRQ);

	rec_init(&x, "sample_threshold");
	put(&x, "start", 5);
	put(&x, "duration", 6);
	put(&x, "interference", 7);
	CHECK_EQ(decode(&d, &x, &ev), 0);
	CHECK_EQ(ev.type, OSN_E_THRESHOLD);
	CHECK(ev.thr.start == 5 && ev.thr.duration == 6 &&
	      ev.thr.interference == 7);

	rec_init(&x, "irq_noise");
	put_str(&x, "desc", "virtio0-input.0");
	put(&x, "vector", 27);
	put(&x, "start", 1111);
	put(&x, "duration", 222);
	CHECK_EQ(decode(&d, &x, &ev), 0);
	CHECK_EQ(ev.type, OSN_E_IRQ);
	CHECK(ev.noise.start == 1111 && ev.noise.duration == 222);
	CHECK_EQ(ev.noise.id, 27);
	CHECK_STR(ev.noise.name, "virtio0-input.0");

	rec_init(&x, "softirq_noise");
	put(&x, "vector", 7);
	put(&x, "start", 1);
	put(&x, "duration", 2);
	CHECK_EQ(decode(&d, &x, &ev), 0);
	CHECK_EQ(ev.type, OSN_E_SOFTIRQ);
	CHECK(ev.noise.id == 7 && ev.noise.start == 1 && ev.noise.duration == 2);
	CHECK_STR(ev.noise.name, "");

	rec_init(&x, "thread_noise");
	put_str(&x, "comm", "kworker/3:1");
	put(&x, "pid", 4242);
	put(&x, "start", 3);
	put(&x, "duration", 4);
	CHECK_EQ(decode(&d, &x, &ev), 0);
	CHECK_EQ(ev.type, OSN_E_THREAD);
	CHECK(ev.noise.id == 4242 && ev.noise.start == 3 &&
	      ev.noise.duration == 4);
	CHECK_STR(ev.noise.name, "kworker/3:1");

	rec_init(&x, "nmi_noise");
	put(&x, "start", 8);
	put(&x, "duration", 9);
	CHECK_EQ(decode(&d, &x, &ev), 0);
	CHECK_EQ(ev.type, OSN_E_NMI);
	CHECK(ev.noise.start == 8 && ev.noise.duration == 9);
	CHECK_EQ(ev.noise.id, -1);

	rec_init(&x, "stop");
	put(&x, "reason", 2);
	put(&x, "value", 123456);
	put(&x, "threshold", 100000);
	CHECK_EQ(decode(&d, &x, &ev), 0);
	CHECK_EQ(ev.type, OSN_E_STOP);
	CHECK(ev.stop.reason == 2 && ev.stop.value == 123456 &&
	      ev.stop.threshold == 100000);

	rec_init(&x, "noise_cause");
	put_str(&x, "origin_comm", "unknown");
	put(&x, "kind", 1);
	put(&x, "class", OSN_CLASS_THREAD);
	put(&x, "start", 1111);
	put(&x, "function", 0xffffffff81000000LL);
	put(&x, "origin_cpu", -1);
	put(&x, "origin_pid", -1);
	CHECK_EQ(decode(&d, &x, &ev), 0);
	CHECK_EQ(ev.type, OSN_E_CAUSE);
	CHECK(ev.cause.kind == 1 && ev.cause.cls == OSN_CLASS_THREAD);
	CHECK_EQ(ev.cause.start, 1111);
	CHECK_EQ(ev.cause.function, sizeof(long) == 8 ?
		 0xffffffff81000000ULL : 0x81000000ULL);
	CHECK_EQ(ev.cause.origin_cpu, -1);
	CHECK_EQ(ev.cause.origin_pid, -1);
	CHECK_STR(ev.cause.origin_comm, "unknown");


	{
		const unsigned long frames[] = { 0xffffffff81000010UL,
						 0xffffffff81000020UL,
						 0xffffffff81000030UL };
		uint64_t got;

		rec_init(&x, "timerlat_stack");
		put(&x, "size", 3);
		put_longs(&x, "caller", frames, 3);
		CHECK_EQ(decode(&d, &x, &ev), 0);
		CHECK_EQ(ev.type, OSN_E_STACK);
		CHECK_EQ(ev.stack.n, 3);
		CHECK_EQ(ev.stack.size, sizeof(long));
		memcpy(&got, (const char *)ev.stack.frames + 2 * sizeof(long),
		       sizeof(got));
		CHECK_EQ(got, frames[2]);
		/* a size past what the record holds: what it holds */
		put(&x, "size", 9);
		CHECK_EQ(decode(&d, &x, &ev), 0);
		CHECK_EQ(ev.stack.n, 3);
	}
	osn_decoder_free(&d);
}

TEST(module_formats)
{
	struct variant v = { 0 };

	decodes_every_event(&v);
}

/* A field added before the others, and every event's fields reversed. */
TEST(fields_by_name)
{
	struct variant v = { .reorder = true };

	decodes_every_event(&v);
}

/* A record of another event is not an osn event. */
TEST(other_event)
{
	struct variant v = { 0 };
	struct tep_handle *tep = formats(&v);
	const char *other = "name: other\nID: 900\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:u64 start;\toffset:8;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"other\"\n";
	unsigned char data[16] = { 0x84, 0x03 };	/* 900 */
	struct tep_record r = { .data = data, .size = sizeof(data) };
	struct osn_decoder d;
	struct osn_event ev;

	CHECK(tep && !tep_parse_event(tep, other, strlen(other), "foo"));
	if (!tep)
		return;
	CHECK_EQ(osn_decoder_bind(&d, tep), 0);
	CHECK_EQ(osn_decode(&d, tep_find_event(d.tep, 900), &r, &ev), -1);
	osn_decoder_free(&d);
}

/* What the decoder says when the formats are not the module's. */
static const char *bind_error(const struct variant *v)
{
	struct tep_handle *tep = formats(v);
	struct osn_decoder d;

	if (!tep)
		return "formats do not parse";
	if (!osn_decoder_bind(&d, tep)) {
		osn_decoder_free(&d);
		return "bound";
	}
	CHECK(d.tep == NULL);	/* freed */
	return osn_last_err();
}

TEST(missing_or_wrong)
{
	struct variant v = { .drop_field = "self" };

	CHECK_STR(bind_error(&v),
		  "event osn:sample has no field 'self': module and tool versions differ");
	v = (struct variant){ .drop_field = "origin_pid", .reorder = true };
	CHECK_STR(bind_error(&v),
		  "event osn:noise_cause has no field 'origin_pid': module and tool versions differ");
	v = (struct variant){ .drop_event = "stop" };
	CHECK_STR(bind_error(&v),
		  "the module has no event osn:stop: module and tool versions differ");
	v = (struct variant){ .as_array = "runtime" };
	CHECK_HAS(bind_error(&v),
		  "event osn:sample: field 'runtime' (char");
	CHECK_HAS(osn_last_err(), "is not a number");
	v = (struct variant){ .as_u64 = "desc" };
	CHECK_STR(bind_error(&v),
		  "event osn:irq_noise: field 'desc' (u64, 8 bytes) is not a string: module and tool versions differ");
	/* loops and min_gap are not read: their absence is no error */
	v = (struct variant){ .drop_field = "loops" };
	CHECK_STR(bind_error(&v), "bound");
}

/* 6.1's sched_switch and workqueue_execute_start, as tracefs shows them */
static const char sched_switch_fmt[] =
	"name: sched_switch\nID: 316\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"next_comm=%s\", REC->next_comm\n";
static const char work_start_fmt[] =
	"name: workqueue_execute_start\nID: 420\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"work struct %p\", REC->work\n";

/*
 * --dump-tasks' kernel events: optional (the osn formats alone bind, the
 * two types absent), decoded by name when present, and dropped, not an
 * error, when one lacks a field osn reads.
 */
TEST(task_events)
{
	struct variant v = { 0 };
	struct tep_handle *tep = formats(&v);
	unsigned char sw[64] = { 0 }, wk[24] = { 0 };
	struct tep_record r = { .cpu = 2, .ts = 77 };
	uint64_t fn = 0xffffffffc0001230ULL;
	int pid = 4711;
	struct osn_decoder d;
	struct osn_event ev;
	char *bad;

	CHECK(tep != NULL);
	if (!tep)
		return;
	CHECK_EQ(osn_decoder_bind(&d, tep), 0);
	CHECK(!osn_decoder_has(&d, OSN_E_SWITCH));
	CHECK(!osn_decoder_has(&d, OSN_E_WORK));
	CHECK(osn_decoder_has(&d, OSN_E_TLAT));
	osn_decoder_free(&d);

	tep = formats(&v);
	CHECK(tep && !tep_parse_event(tep, sched_switch_fmt,
				      strlen(sched_switch_fmt), "sched"));
	CHECK(tep && !tep_parse_event(tep, work_start_fmt,
				      strlen(work_start_fmt), "workqueue"));
	if (!tep)
		return;
	CHECK_EQ(osn_decoder_bind(&d, tep), 0);
	CHECK(osn_decoder_has(&d, OSN_E_SWITCH) && osn_decoder_has(&d, OSN_E_WORK));
	memcpy(sw, &(unsigned short){ 316 }, 2);
	memcpy(sw + 8, "prev-task", 10);
	memcpy(sw + 40, "kworker/2:1H", 13);
	memcpy(sw + 56, &pid, 4);
	r.data = sw;
	r.size = sizeof(sw);
	CHECK_EQ(osn_decode(&d, tep_find_event(d.tep, 316), &r, &ev), 0);
	CHECK_EQ(ev.type, OSN_E_SWITCH);
	CHECK_EQ(ev.cpu, 2);
	CHECK_EQ(ev.sw.pid, 4711);
	CHECK_STR(ev.sw.comm, "kworker/2:1H");
	memcpy(wk, &(unsigned short){ 420 }, 2);
	memcpy(wk + 8, &(uint64_t){ 0xffff888001234560ULL }, 8);
	memcpy(wk + 16, &fn, 8);
	r.data = wk;
	r.size = sizeof(wk);
	CHECK_EQ(osn_decode(&d, tep_find_event(d.tep, 420), &r, &ev), 0);
	CHECK_EQ(ev.type, OSN_E_WORK);
	CHECK_EQ(ev.work.function, fn);
	CHECK(osn_event_is_context(ev.type) && !osn_event_is_context(OSN_E_TLAT));
	osn_decoder_free(&d);

	/* a sched_switch without next_comm: no task names, no error */
	bad = strdup(sched_switch_fmt);
	CHECK(bad && strstr(bad, "next_comm[16]"));
	if (!bad)
		return;
	memcpy(strstr(bad, "next_comm[16]"), "next_name", 9);
	tep = formats(&v);
	CHECK(tep && !tep_parse_event(tep, bad, strlen(bad), "sched"));
	free(bad);
	if (!tep)
		return;
	CHECK_EQ(osn_decoder_bind(&d, tep), 0);
	CHECK(!osn_decoder_has(&d, OSN_E_SWITCH));
	CHECK_EQ(d.id[OSN_E_SWITCH], -1);
	osn_decoder_free(&d);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(module_formats);
	RUN(fields_by_name);
	RUN(other_event);
	RUN(task_events);
	RUN(missing_or_wrong);
	return h_done(argv[0]);
}
