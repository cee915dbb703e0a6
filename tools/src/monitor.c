// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - osn monitor: osn's accounting as Prometheus metrics, for as
 * long as it runs (metrics.c renders them).
 *
 * Probes only by default (the module's NO_OSNOISE_WORKLOAD: the CPUs stay
 * the user's), every osn noise event of the measured CPUs counted per
 * source; with --workload, osn's threads measure too (osn:sample).  Once a
 * second the exposition is rendered; HTTP clients (libmicrohttpd, in its
 * own thread) get the last one; --textfile writes it every --interval.
 * The module may be unloaded under it: the metrics say so (osn_up 0,
 * osn_module_loaded 0, the counters kept) and the run picks up again when
 * it comes back (osn_tool_resume()).
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "osn/osn_abi.h"
#include "metrics.h"
#include "osn.h"
#include "run.h"

#define OSN_INST_MONITOR	"osn_monitor"
#define TEXTFILE_NAME		"osn.prom"
#define CONTENT_TYPE		"text/plain; version=0.0.4; charset=utf-8"

struct monitor {
	struct osn_metrics m;
	bool loaded;			/* osn.ko was there at the last tick */
	bool up;			/* our events are on */
	bool warned;			/* a failed resume was reported */
	bool started;			/* the first monitor_start() is done */
	bool away;			/* osn.ko went away since it was set up */
	uint64_t reloads;
	uint64_t next_file_s;		/* CLOCK_MONOTONIC s of the next write */
	struct MHD_Daemon *httpd;
	pthread_mutex_t lock;		/* text, len: shared with httpd */
	char *text;
	size_t len;
};

/* ---- HTTP ------------------------------------------------------------------- */

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status,
			     const char *text, size_t len, const char *type)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, (void *)text,
					    MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* GET /metrics: the last exposition (libmicrohttpd's thread). */
static enum MHD_Result serve(void *cls, struct MHD_Connection *conn,
			     const char *url, const char *method,
			     const char *version, const char *upload_data,
			     size_t *upload_data_size, void **con_cls)
{
	static const char not_found[] = "osn monitor: see /metrics\n";
	struct monitor *mon = cls;
	enum MHD_Result ret;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)con_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "", 0,
			     "text/plain");
	if (strcmp(url, "/metrics"))
		return reply(conn, MHD_HTTP_NOT_FOUND, not_found,
			     sizeof(not_found) - 1, "text/plain");
	pthread_mutex_lock(&mon->lock);
	ret = reply(conn, MHD_HTTP_OK, mon->text ? mon->text : "", mon->len,
		    CONTENT_TYPE);
	pthread_mutex_unlock(&mon->lock);
	return ret;
}

/* --listen ADDR:PORT ([V6]:PORT): the socket address, resolved numerically */
static struct addrinfo *listen_addr(const char *spec)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
	};
	struct addrinfo *ai = NULL;
	const char *colon = strrchr(spec, ':');
	char host[128];
	size_t n;
	int r;

	if (!colon || colon == spec || !colon[1] ||
	    (size_t)(colon - spec) >= sizeof(host)) {
		osn_err("--listen '%s' is not ADDR:PORT (e.g. 127.0.0.1:9627, [::1]:9627)",
			spec);
		return NULL;
	}
	n = (size_t)(colon - spec);
	if (spec[0] == '[' && spec[n - 1] == ']') {
		memcpy(host, spec + 1, n - 2);
		host[n - 2] = '\0';
	} else {
		memcpy(host, spec, n);
		host[n] = '\0';
	}
	r = getaddrinfo(host, colon + 1, &hints, &ai);
	if (r) {
		osn_err("--listen '%s': %s", spec, gai_strerror(r));
		return NULL;
	}
	return ai;
}

static int start_http(struct osn_tool *t, struct monitor *mon)
{
	struct addrinfo *ai = listen_addr(t->p->listen);
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD;
	int e;

	if (!ai)
		return -1;
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* the handled signals stay with the main thread (its ppoll) */
	osn_signals_block(true);
	mon->httpd = MHD_start_daemon(flags, 0, NULL, NULL, serve, mon,
				      MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				      MHD_OPTION_CONNECTION_LIMIT, 16U,
				      MHD_OPTION_CONNECTION_TIMEOUT, 10U,
				      MHD_OPTION_END);
	e = errno;
	osn_signals_block(false);
	freeaddrinfo(ai);
	if (!mon->httpd)
		return osn_err("cannot listen on %s: %s", t->p->listen,
			       strerror(e));
	osn_debug("serving http://%s/metrics", t->p->listen);
	return 0;
}

/* ---- the exposition ------------------------------------------------------- */

static void render(struct osn_tool *t, struct monitor *mon)
{
	struct osn_metrics_view v = {
		.m = &mon->m, .cpus = t->cpus, .ncpus = t->ncpus,
		.up = mon->up, .module_loaded = mon->loaded,
		.workload = t->p->workload,
		.events_lost = t->missed, .reloads = mon->reloads,
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (t->causes) {
		osn_run_causes_rank(t);
		v.causes = t->causes;
	}
	f = open_memstream(&text, &len);
	if (!f)
		return;
	if (osn_metrics_render(f, &v)) {
		fclose(f);
		free(text);
		return;
	}
	fclose(f);
	pthread_mutex_lock(&mon->lock);
	free(mon->text);
	mon->text = text;
	mon->len = len;
	pthread_mutex_unlock(&mon->lock);
}

/*
 * DIR/osn.prom, atomically (node_exporter's textfile collector must never
 * read half a file): a temporary file in DIR, then rename().
 */
static int write_textfile(struct osn_tool *t, struct monitor *mon)
{
	const char *dir = t->p->textfile_dir;
	char tmp[4096], dst[4096];
	ssize_t w = 0;
	int fd;

	snprintf(dst, sizeof(dst), "%s/" TEXTFILE_NAME, dir);
	snprintf(tmp, sizeof(tmp), "%s/." TEXTFILE_NAME ".XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0)
		return osn_err("cannot write in %s: %s", dir, strerror(errno));
	pthread_mutex_lock(&mon->lock);
	if (mon->len)
		w = write(fd, mon->text, mon->len);
	pthread_mutex_unlock(&mon->lock);
	if (w < 0 || (size_t)w != mon->len || fchmod(fd, 0644) ||
	    close(fd) || rename(tmp, dst)) {
		int e = errno;

		unlink(tmp);
		return osn_err("cannot write %s: %s", dst, strerror(e));
	}
	return 0;
}

static void publish(struct osn_tool *t, struct monitor *mon, bool force)
{
	uint64_t now = osn_mono_ns() / 1000000000ULL;

	render(t, mon);
	if (!t->p->textfile_dir || (!force && now < mon->next_file_s))
		return;
	mon->next_file_s = now + t->p->interval_s;
	if (write_textfile(t, mon))
		osn_warn("%s", osn_last_err());
}

/* ---- the module under us ---------------------------------------------------- */

/* osn.ko is loaded and its events are in tracefs (not on its way out) */
static bool module_loaded(void)
{
	struct stat st;
	char *dir;
	bool ok;

	if (stat(OSN_PARAM_DIR, &st))
		return false;
	dir = tracefs_get_tracing_file("events/" OSN_EVENT_SYSTEM);
	ok = dir && !stat(dir, &st);
	tracefs_put_tracing_file(dir);
	return ok;
}

/* Our instance's osn events are still on (off: the module was reloaded). */
static bool events_on(struct osn_tool *t)
{
	return osn_event_is_on(t->inst, OSN_EV_IRQ_NOISE);
}

/*
 * Once a second: follow the module (gone: report it; back, even between
 * two ticks: set it up again), then publish.
 */
static void check_module(struct osn_tool *t, struct monitor *mon)
{
	if (!module_loaded()) {
		if (mon->loaded)
			osn_warn("%s.ko was unloaded: waiting for it to come back",
				 OSN_MODULE_NAME);
		mon->loaded = mon->up = false;
		mon->away = true;
		return;
	}
	mon->loaded = true;
	if (mon->up && events_on(t))
		return;
	if (mon->up)		/* unloaded and loaded again between two ticks */
		mon->away = true;
	mon->up = false;
	if (osn_tool_resume(t)) {
		if (!mon->warned)
			osn_warn("%s.ko is back but osn could not resume: %s (trying again every second)",
				 OSN_MODULE_NAME, osn_last_err());
		mon->warned = true;
		return;
	}
	if (mon->away)
		mon->reloads++;
	osn_warn("%s.ko is back: measuring again", OSN_MODULE_NAME);
	mon->away = mon->warned = false;
	mon->up = true;
}

/* ---- the ops ------------------------------------------------------------------ */

static int monitor_init(struct osn_tool *t)
{
	struct monitor *mon;

	/* osn_parse_args() refused the options of a run that ends */
	mon = calloc(1, sizeof(*mon));
	if (!mon || osn_metrics_init(&mon->m, t->nr_cpus)) {
		free(mon);
		return osn_err("out of memory");
	}
	pthread_mutex_init(&mon->lock, NULL);
	t->priv = mon;
	return 0;
}

/* collection starts (or starts again after a reload): our events on */
static int monitor_start(struct osn_tool *t)
{
	static const char * const noise[] = {
		OSN_EV_IRQ_NOISE, OSN_EV_SOFTIRQ_NOISE, OSN_EV_THREAD_NOISE,
		OSN_EV_NMI_NOISE, OSN_EV_SAMPLE,
	};
	struct monitor *mon = t->priv;

	for (size_t i = 0; i < ARRAY_SIZE(noise); i++)
		if (osn_event_enable(t->inst, OSN_EVENT_SYSTEM, noise[i]))
			return -1;
	if (t->p->causes &&
	    osn_event_enable(t->inst, OSN_EVENT_SYSTEM, OSN_EV_NOISE_CAUSE))
		return -1;
	/* up only once the module measures: its probes hooked */
	osn_run_wait_live(t);
	if (mon->started)	/* osn_tool_resume(): check_module() goes on */
		return 0;
	if (t->p->listen && start_http(t, mon))
		return -1;
	mon->started = mon->loaded = mon->up = true;
	publish(t, mon, true);
	return 0;
}

static void monitor_on_event(struct osn_tool *t, const struct osn_event *ev)
{
	struct monitor *mon = t->priv;

	osn_metrics_event(&mon->m, ev);
}

static void monitor_tick(struct osn_tool *t)
{
	struct monitor *mon = t->priv;

	check_module(t, mon);
	publish(t, mon, false);
}

/* The end: the textfile says osn is no longer up. */
static int monitor_report(struct osn_tool *t)
{
	struct monitor *mon = t->priv;

	mon->up = false;
	mon->loaded = module_loaded();
	render(t, mon);
	if (t->p->textfile_dir && write_textfile(t, mon))
		return -1;
	return 0;
}

static void monitor_destroy(struct osn_tool *t)
{
	struct monitor *mon = t->priv;

	if (!mon)
		return;
	if (mon->httpd)
		MHD_stop_daemon(mon->httpd);
	pthread_mutex_destroy(&mon->lock);
	free(mon->text);
	osn_metrics_free(&mon->m);
	free(mon);
	t->priv = NULL;
}

const struct osn_tool_ops osn_monitor_ops = {
	.cmd = OSN_CMD_MONITOR,
	.instance = OSN_INST_MONITOR,
	/* it runs until stopped (cmds.c): no stop, trace, audit or report */
	.parts = OSN_PART_THREADS | OSN_PART_CAUSES,
	.init = monitor_init,
	.start = monitor_start,
	.on_event = monitor_on_event,
	.tick = monitor_tick,
	.report = monitor_report,
	.destroy = monitor_destroy,
};
