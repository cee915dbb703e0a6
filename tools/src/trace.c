// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - tracefs and ring-buffer I/O of the osn CLI (see trace.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "osn/osn_abi.h"
#include "causes.h"
#include "explain.h"
#include "tlat.h"
#include "trace.h"
#include "util.h"

/* ---- environment ---------------------------------------------------------- */

int osn_check_env(void)
{
	const char *path = NULL;
	char *dir;
	struct stat st;
	int r;

	if (geteuid() != 0)
		return osn_err("must be run as root (tracefs and the module's knobs are root-only)");
	/*
	 * Say why it was not found: tracefs may well be mounted, with the
	 * read of /proc/mounts failing (faults/30 makes it fail).
	 */
	errno = 0;
	r = tracefs_tracing_dir_is_mounted(true, &path);
	if (r < 1 || !tracefs_tracing_dir())
		return osn_err("no mounted tracefs found, and mounting it failed (%s): run 'mount -t tracefs nodev /sys/kernel/tracing'",
			       errno ? strerror(errno) : "no error given");
	if (stat(OSN_PARAM_DIR, &st))
		return osn_err("module not loaded: run 'modprobe %s'",
			       OSN_MODULE_NAME);
	dir = tracefs_get_tracing_file("events/" OSN_EVENT_SYSTEM);
	r = dir ? stat(dir, &st) : -1;
	tracefs_put_tracing_file(dir);
	if (r)
		return osn_err("module %s is loaded but tracefs has no events/%s: reload it ('rmmod %s; modprobe %s')",
			       OSN_MODULE_NAME, OSN_EVENT_SYSTEM, OSN_MODULE_NAME,
			       OSN_MODULE_NAME);
	return 0;
}

/*
 * Where the knobs are: tracefs osn/ when osn is built into the kernel as a
 * tracer (kernel/osn_tracer.c), else the module parameters.  Both files of
 * a knob call the same kernel code, so either would do; the tracer's is
 * the interface of record on such a kernel.  Decided once per process.
 */
const char *osn_knob_dir(void)
{
	static char dir[PATH_MAX];
	const char *tfs;
	char probe[PATH_MAX + 16];

	if (dir[0])
		return dir;
	tfs = tracefs_tracing_dir();
	if (tfs) {
		snprintf(probe, sizeof(probe), "%s/%s/%s", tfs, OSN_TRACER_DIR,
			 OSN_KNOB_PERIOD_US);
		if (!access(probe, F_OK)) {
			snprintf(dir, sizeof(dir), "%s/%s", tfs, OSN_TRACER_DIR);
			osn_debug("knobs: the built-in tracer's %s", dir);
			return dir;
		}
	}
	osn_strlcpy(dir, OSN_PARAM_DIR, sizeof(dir));
	osn_debug("knobs: the module's %s", dir);
	return dir;
}

/* ---- decoding ----------------------------------------------------------------- */

/* One event's format into @tep; false if it has none or it does not parse. */
static bool load_format(struct tep_handle *tep, const char *sys,
			const char *event)
{
	int size = 0;
	char *buf = tracefs_event_file_read(NULL, sys, event, "format", &size);
	bool ok = buf && !tep_parse_event(tep, buf, size, sys);

	free(buf);
	return ok;
}

/*
 * A tep handle with the ring buffer's page header and the osn events'
 * formats, and the two of the kernel's that --dump-tasks reads, nothing
 * else.  tracefs_local_events_system() does the same but then also reads
 * and parses /proc/kallsyms (over 100 000 symbols), saved_cmdlines and
 * printk_formats, which osn never uses (its events carry their names as
 * strings): 0.3 s of CPU at every start on a host, seconds under TCG.
 * libtracefs 1.6 has no call for the headers alone (tracefs_load_headers()
 * came later).
 */
static struct tep_handle *load_osn_formats(void)
{
	struct tep_handle *tep = tep_alloc();
	char **events = NULL, *buf;
	int size = 0, ok = 0, n = 0;

	if (!tep)
		return NULL;
	buf = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (buf && !tep_parse_header_page(tep, buf, size, sizeof(long)))
		ok = 1;
	/*
	 * The kernel's long, which the page header does not set: the size of
	 * osn:timerlat_stack's addresses.  osn runs on the kernel it traces,
	 * built for its architecture (x86-64, arm64: both 64-bit).
	 */
	tep_set_long_size(tep, sizeof(long));
	free(buf);
	if (ok)
		events = tracefs_system_events(NULL, OSN_EVENT_SYSTEM);
	for (int i = 0; events && events[i]; i++)
		n += load_format(tep, OSN_EVENT_SYSTEM, events[i]);
	tracefs_list_free(events);
	if (!n) {
		tep_free(tep);
		return NULL;
	}
	load_format(tep, OSN_SWITCH_SYSTEM, OSN_SWITCH_EVENT);
	load_format(tep, OSN_WORK_SYSTEM, OSN_WORK_EVENT);
	return tep;
}

int osn_decoder_init(struct osn_decoder *d)
{
	struct tep_handle *tep = load_osn_formats();

	memset(d, 0, sizeof(*d));
	if (!tep)
		return osn_err("cannot load the formats of events/%s",
			       OSN_EVENT_SYSTEM);
	return osn_decoder_bind(d, tep);
}

/*
 * The names of the causes' functions, from /proc/kallsyms, read once per
 * batch of new addresses when something is to be named (a stop's
 * explanation, the --causes tables): never at setup, so that a run whose
 * stop is never hit pays nothing, and never a whole symbol table.
 *
 * Not libtraceevent's tep_parse_kallsyms() + tep_find_function(): they
 * parse and sort all of the 100 000+ symbols, 0.3 s of CPU on a host and
 * 5-9 s under TCG, at every start of a run that might name a function.  A
 * cause's function is always a symbol's own address (the work, timer or
 * call function pointer), so one pass over the file comparing addresses
 * with the few wanted (exact match) names them all.
 */
static struct osn_sym *sym_slot(struct osn_decoder *d, uint64_t addr)
{
	struct osn_sym *n;

	for (size_t i = 0; i < d->nsyms; i++)
		if (d->syms[i].addr == addr)
			return &d->syms[i];
	if (d->nsyms == OSN_MAX_SYMS)
		return NULL;	/* a bound: left as an address */
	if (d->nsyms == d->capsyms) {
		size_t cap = d->capsyms ? 2 * d->capsyms : 32;

		n = realloc(d->syms, cap * sizeof(*n));
		if (!n)
			return NULL;
		d->syms = n;
		d->capsyms = cap;
	}
	n = &d->syms[d->nsyms++];
	memset(n, 0, sizeof(*n));
	n->addr = addr;
	return n;
}

/* One pass over /proc/kallsyms for every address not looked up yet. */
static void lookup_syms(struct osn_decoder *d)
{
	char line[512], name[sizeof(d->syms[0].name)];
	size_t todo = 0;
	FILE *f;

	for (size_t i = 0; i < d->nsyms; i++)
		todo += !d->syms[i].looked;
	if (!todo)
		return;
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		osn_debug("cannot read /proc/kallsyms: cause functions stay addresses");
	while (f && todo && fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type;

		if (sscanf(line, "%llx %c %63s", &addr, &type, name) != 3 || !addr)
			continue;	/* kptr_restrict: every address is 0 */
		for (size_t i = 0; i < d->nsyms; i++) {
			struct osn_sym *y = &d->syms[i];

			if (y->looked || y->addr != addr)
				continue;
			osn_strlcpy(y->name, name, sizeof(y->name));
			y->looked = true;
			todo--;
		}
	}
	if (f)
		fclose(f);
	for (size_t i = 0; i < d->nsyms; i++)	/* not found: an address */
		d->syms[i].looked = true;
}

static void want_function(struct osn_decoder *d, uint64_t addr)
{
	if (addr)
		sym_slot(d, addr);
}

static void name_function(struct osn_decoder *d, uint64_t addr, char *buf,
			  size_t len)
{
	struct osn_sym *y;

	if (!addr)
		return;
	y = sym_slot(d, addr);
	if (y && y->name[0])
		osn_strlcpy(buf, y->name, len);
}

void osn_decoder_name_parts(struct osn_decoder *d, struct osn_part *parts,
			    size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < parts[i].ncauses; k++)
			want_function(d, parts[i].causes[k].c.function);
	lookup_syms(d);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < parts[i].ncauses; k++) {
			struct osn_part_cause *pc = &parts[i].causes[k];

			name_function(d, pc->c.function, pc->function_name,
				      sizeof(pc->function_name));
		}
}

void osn_decoder_name_causes(struct osn_decoder *d, struct osn_explanation *x)
{
	osn_decoder_name_parts(d, x->parts, x->nparts);
}

/* One pass over /proc/kallsyms: the nearest text symbol at or below each. */
void osn_name_frames(const uint64_t *addr, size_t n, char (*names)[64])
{
	uint64_t *best = calloc(n ? n : 1, sizeof(*best));
	char line[512], name[64];
	FILE *f = best ? fopen("/proc/kallsyms", "r") : NULL;

	for (size_t i = 0; i < n; i++)
		snprintf(names[i], sizeof(names[i]), "0x%llx",
			 (unsigned long long)addr[i]);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type;

		if (sscanf(line, "%llx %c %63s", &a, &type, name) != 3 || !a ||
		    (type != 't' && type != 'T'))
			continue;
		for (size_t i = 0; i < n; i++) {
			if (a > addr[i] || a <= best[i])
				continue;
			best[i] = a;
			snprintf(names[i], sizeof(names[i]), "%.40s+0x%llx", name,
				 (unsigned long long)(addr[i] - a));
		}
	}
	if (f)
		fclose(f);
	free(best);
}

void osn_decoder_name_tasks(struct osn_decoder *d, struct osn_cpu_task *tasks,
			    int n)
{
	for (int i = 0; i < n; i++)
		want_function(d, tasks[i].work_fn);
	lookup_syms(d);
	for (int i = 0; i < n; i++)
		name_function(d, tasks[i].work_fn, tasks[i].work,
			      sizeof(tasks[i].work));
}

void osn_decoder_name_culprits(struct osn_decoder *d, struct osn_causes *cs)
{
	for (int c = 0; c < cs->nr_cpus; c++)
		for (size_t k = 0; k < cs->cpu[c].n; k++)
			want_function(d, cs->cpu[c].culprits[k].c.function);
	lookup_syms(d);
	for (int c = 0; c < cs->nr_cpus; c++)
		for (size_t k = 0; k < cs->cpu[c].n; k++) {
			struct osn_culprit *u = &cs->cpu[c].culprits[k];

			name_function(d, u->c.function, u->function_name,
				      sizeof(u->function_name));
		}
}

/* ---- instances ------------------------------------------------------------------ */

static void dbg(const char *inst, const char *what, const char *val)
{
	osn_debug("instances/%s/%s <- '%s'", inst, what, val);
}

static const char *iname(struct tracefs_instance *inst)
{
	const char *n = inst ? tracefs_instance_get_name(inst) : NULL;

	return n ? n : "(top)";
}

/* The last line of the instance's error_log, for a failed write. */
static void last_error(struct tracefs_instance *inst, char *buf, size_t len)
{
	char *e = tracefs_error_last(inst);

	buf[0] = '\0';
	if (e) {
		char *nl;

		/* keep the first line ("[...] hist:...: error: <what>") */
		nl = strchr(e, '\n');
		if (nl)
			*nl = '\0';
		snprintf(buf, len, " (%s)", e);
		free(e);
	}
}

struct tracefs_instance *osn_instance_new(const char *name)
{
	struct tracefs_instance *inst;

	if (tracefs_instance_exists(name)) {
		osn_err("tracefs instance %s already exists", name);
		return NULL;
	}
	osn_debug("mkdir instances/%s", name);
	inst = tracefs_instance_create(name);
	if (!inst)
		osn_err("cannot create tracefs instance %s: %s", name,
			strerror(errno));
	return inst;
}

static void remove_triggers(struct tracefs_instance *inst, const char *sys,
			    const char *event)
{
	char *text = tracefs_event_file_read(inst, sys, event, "trigger", NULL);
	char *line, *save = NULL;

	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char cmd[1024];
		char *sfx;

		if (line[0] == '#' || !line[0])
			continue;
		if (!strncmp(line, "hist:", 5)) {
			snprintf(cmd, sizeof(cmd), "!%s", line);
			sfx = strstr(cmd, " [active]");
			if (!sfx)
				sfx = strstr(cmd, " [paused]");
			if (sfx)
				*sfx = '\0';
		} else {
			/* "traceoff:unlimited if ..." -> "!traceoff" */
			size_t n = strcspn(line, ": ");

			if (!strncmp(line, "enable_", 7) ||
			    !strncmp(line, "disable_", 8)) {
				/* enable_event:sys:event:count */
				char *c1 = strchr(line, ':');
				char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
				char *c3 = c2 ? strchr(c2 + 1, ':') : NULL;

				n = c3 ? (size_t)(c3 - line) : strcspn(line, " ");
			}
			snprintf(cmd, sizeof(cmd), "!%.*s", (int)n, line);
		}
		dbg(iname(inst), "events/.../trigger", cmd);
		tracefs_event_file_append(inst, sys, event, "trigger", cmd);
	}
	free(text);
}

int osn_instance_remove(const char *name)
{
	struct tracefs_instance *inst;
	char **events;
	int r;

	if (!tracefs_instance_exists(name))
		return 0;
	inst = tracefs_instance_alloc(NULL, name);
	if (!inst)
		return osn_err("cannot open tracefs instance %s", name);
	/* stop recording first, then undo what osn may have set up */
	tracefs_trace_off(inst);
	events = tracefs_system_events(NULL, OSN_EVENT_SYSTEM);
	for (int i = 0; events && events[i]; i++)
		remove_triggers(inst, OSN_EVENT_SYSTEM, events[i]);
	tracefs_list_free(events);
	dbg(name, "events/enable", "0");
	tracefs_instance_file_write(inst, "events/enable", "0");
	osn_debug("rmdir instances/%s", name);
	r = tracefs_instance_destroy(inst);
	/*
	 * EBUSY: someone has one of its files open (a `cat trace_pipe`, a
	 * monitoring script's poll): give them a second to let go.
	 */
	for (int i = 0; r && errno == EBUSY && i < 10; i++) {
		osn_debug("instances/%s busy, retrying", name);
		usleep(100000);
		r = tracefs_instance_destroy(inst);
	}
	if (r && tracefs_instance_exists(name)) {
		osn_err("cannot remove tracefs instance %s: %s", name,
			strerror(errno));
		tracefs_instance_free(inst);
		return -1;
	}
	tracefs_instance_free(inst);
	return 0;
}

bool osn_event_is_on(struct tracefs_instance *inst, const char *event)
{
	char file[128], *v;
	bool on;

	if (event)
		snprintf(file, sizeof(file), "events/%s/%s/enable",
			 OSN_EVENT_SYSTEM, event);
	else
		snprintf(file, sizeof(file), "events/%s/enable",
			 OSN_EVENT_SYSTEM);
	v = tracefs_instance_file_read(inst, file, NULL);
	/* the system's file: "X" when some of its events are on */
	on = v && (v[0] == '1' || v[0] == 'X');
	free(v);
	return on;
}

int osn_event_enable(struct tracefs_instance *inst, const char *sys,
		     const char *event)
{
	osn_debug("instances/%s: enable %s:%s", iname(inst), sys,
		  event ? event : "*");
	if (tracefs_event_enable(inst, sys, event))
		return osn_err("cannot enable event %s%s%s: %s", sys,
			       event ? ":" : "", event ? event : "",
			       errno == ENOENT || errno == 0 ? "no such event" :
			       strerror(errno));
	return 0;
}

static int event_file_write(struct tracefs_instance *inst, const char *sys,
			    const char *event, const char *file,
			    const char *val, bool append)
{
	char e[512];
	int r;

	dbg(iname(inst), file, val);
	tracefs_error_clear(inst);
	if (append)
		r = tracefs_event_file_append(inst, sys, event, file, val);
	else
		r = tracefs_event_file_write(inst, sys, event, file, val);
	if (r < 0) {
		int saved = errno;

		last_error(inst, e, sizeof(e));
		return osn_err("the kernel rejected %s '%s' on %s:%s: %s%s",
			       file, val, sys, event, strerror(saved), e);
	}
	return 0;
}

int osn_event_filter(struct tracefs_instance *inst, const char *sys,
		     const char *event, const char *filter)
{
	return event_file_write(inst, sys, event, "filter", filter, false);
}

int osn_event_trigger(struct tracefs_instance *inst, const char *sys,
		      const char *event, const char *trigger)
{
	return event_file_write(inst, sys, event, "trigger", trigger, true);
}

int osn_event_trigger_remove(struct tracefs_instance *inst, const char *sys,
			     const char *event, const char *trigger)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "!%s", trigger);
	dbg(iname(inst), "trigger", cmd);
	return tracefs_event_file_append(inst, sys, event, "trigger", cmd) < 0 ?
		-1 : 0;
}

int osn_instance_write(struct tracefs_instance *inst, const char *file,
		       const char *val)
{
	dbg(iname(inst), file, val);
	if (tracefs_instance_file_write(inst, file, val) < 0)
		return osn_err("the kernel rejected %s=%s in instance %s: %s",
			       file, val, iname(inst), strerror(errno));
	return 0;
}

/* Write @size bytes of @text (freed) to @f, named @path in messages. */
static int write_text(char *text, int size, FILE *f, const char *path)
{
	if (size > 0 && fwrite(text, 1, size, f) != (size_t)size) {
		osn_err("cannot write %s: %s", path, strerror(errno));
		free(text);
		return -1;
	}
	free(text);
	if (fflush(f))
		return osn_err("cannot write %s: %s", path, strerror(errno));
	return 0;
}

int osn_save_trace(struct tracefs_instance *inst, FILE *f, const char *path)
{
	int size = 0;
	char *text = tracefs_instance_file_read(inst, "trace", &size);

	if (!text)
		return osn_err("cannot read the trace of instance %s",
			       iname(inst));
	return write_text(text, size, f, path);
}

/* One -e event's hist file to <system>_<event>_hist.txt (rtla's name). */
static int save_event_hist(struct tracefs_instance *inst,
			   const struct osn_event_opt *e, FILE *msg)
{
	char path[sizeof(e->system) + sizeof(e->event) + 16];
	int size = 0;
	char *text;
	FILE *f;

	snprintf(path, sizeof(path), "%s_%s_hist.txt", e->system, e->event);
	fprintf(msg, "  Saving event %s:%s hist to %s\n", e->system, e->event,
		path);
	text = tracefs_event_file_read(inst, e->system, e->event, "hist",
				       &size);
	if (!text)
		return osn_err("cannot read the hist of %s:%s in instance %s",
			       e->system, e->event, iname(inst));
	f = fopen(path, "w");
	if (!f) {
		osn_err("cannot write %s: %s", path, strerror(errno));
		free(text);
		return -1;
	}
	if (write_text(text, size, f, path)) {
		fclose(f);
		return -1;
	}
	if (fclose(f))
		return osn_err("cannot write %s: %s", path, strerror(errno));
	return 0;
}

int osn_save_event_hists(struct tracefs_instance *inst,
			 const struct osn_event_opt *events, int n, FILE *msg)
{
	for (int i = 0; i < n; i++)
		if (events[i].trigger &&
		    !strncmp(events[i].trigger, "hist:", 5) &&
		    save_event_hist(inst, &events[i], msg))
			return -1;
	return 0;
}

/*
 * Whether @inst (NULL: the top level) has osn's in-tree tracer as its
 * current_tracer (a kernel with CONFIG_OSN_TRACER=y): that run holds the
 * workload as an enabled osn event does.  False where the file cannot be
 * read.
 */
static bool osn_tracer_is_current(struct tracefs_instance *inst)
{
	char *cur = tracefs_instance_file_read(inst, "current_tracer", NULL);
	bool on;

	if (!cur)
		return false;
	cur[strcspn(cur, "\n")] = '\0';
	on = !strcmp(cur, OSN_TRACER_NAME);
	free(cur);
	return on;
}

/* Whether @inst (NULL: the top level) uses osn: its events or tracer. */
static bool osn_buffer_uses_osn(struct tracefs_instance *inst)
{
	return osn_event_is_on(inst, NULL) || osn_tracer_is_current(inst);
}

int osn_other_users(const char *const *ours, char *who, size_t wholen)
{
	char **names = tracefs_instances(NULL);
	int n = 0;

	who[0] = '\0';
	if (osn_buffer_uses_osn(NULL)) {
		snprintf(who, wholen, "the top-level buffer");
		n++;
	}
	for (int i = 0; names && names[i]; i++) {
		struct tracefs_instance *inst;
		bool mine = false;

		for (int k = 0; ours[k]; k++)
			if (!strcmp(ours[k], names[i]))
				mine = true;
		if (mine)
			continue;
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (inst && osn_buffer_uses_osn(inst)) {
			size_t l = strlen(who);

			snprintf(who + l, wholen - l, "%sinstance %s",
				 l ? ", " : "", names[i]);
			n++;
		}
		tracefs_instance_free(inst);
	}
	tracefs_list_free(names);
	return n;
}
