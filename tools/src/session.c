// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - lock, stale-run recovery, signals (see session.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "osn/osn_abi.h"
#include "session.h"
#include "threads.h"
#include "trace.h"
#include "util.h"

volatile sig_atomic_t osn_interrupted;

static void on_signal(int sig)
{
	osn_interrupted = sig;
}

static const int handled[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

void osn_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: sleeps return early */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(handled); i++)
		sigaction(handled[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void handled_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < ARRAY_SIZE(handled); i++)
		sigaddset(set, handled[i]);
}

void osn_signals_block(bool block)
{
	sigset_t set;

	handled_set(&set);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

int osn_signals_ppoll(struct pollfd *fds, nfds_t nfds,
		      const struct timespec *timeout)
{
	sigset_t set, old, during;
	int r, e;

	/*
	 * Blocked from the check until ppoll atomically unblocks them: a
	 * signal landing in between stays pending and ends the wait at once.
	 */
	handled_set(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (osn_interrupted) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		errno = EINTR;
		return -1;
	}
	during = old;
	for (size_t i = 0; i < ARRAY_SIZE(handled); i++)
		sigdelset(&during, handled[i]);
	r = ppoll(fds, nfds, timeout, &during);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return r;
}

static void lock_path(char *buf, size_t len)
{
	struct stat st;

	if (!stat("/run", &st) && S_ISDIR(st.st_mode) && !access("/run", W_OK))
		snprintf(buf, len, "/run/%s", OSN_LOCK_FILE);
	else
		snprintf(buf, len, "/tmp/%s", OSN_LOCK_FILE);
}

/* What a (possibly dead) owner recorded. */
struct record {
	long pid;
	char tool[16];
	char instances[OSN_MAX_INSTANCES][64];
	int ninstances;
	int top_tracing_on;
	struct osn_knobs knobs;
	struct osn_saved_file files[OSN_MAX_SAVED_FILES];
	int nfiles;
};

/* "file PATH VALUE" */
static void load_file_line(struct osn_saved_file *files, int *n,
			   const char *line)
{
	const char *path = line + 5, *sp = strrchr(path, ' ');

	if (*n >= OSN_MAX_SAVED_FILES || !sp || sp == path ||
	    (size_t)(sp - path) >= sizeof(files[0].path))
		return;
	memcpy(files[*n].path, path, (size_t)(sp - path));
	files[*n].path[sp - path] = '\0';
	osn_strlcpy(files[*n].value, sp + 1, sizeof(files[0].value));
	(*n)++;
}

/* The record: knobs, instances and up to OSN_MAX_SAVED_FILES files. */
#define RECORD_MAX	(16384 + OSN_MAX_SAVED_FILES * 128)

static void read_record(int fd, struct record *r)
{
	static char buf[RECORD_MAX];
	char *line, *save = NULL;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	r->top_tracing_on = -1;
	osn_knobs_init(&r->knobs, osn_knob_dir());
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "pid ", 4))
			r->pid = strtol(line + 4, NULL, 10);
		else if (!strncmp(line, "tool ", 5))
			osn_strlcpy(r->tool, line + 5, sizeof(r->tool));
		else if (!strncmp(line, "instance ", 9) &&
			 r->ninstances < OSN_MAX_INSTANCES)
			osn_strlcpy(r->instances[r->ninstances++], line + 9,
				    sizeof(r->instances[0]));
		else if (!strncmp(line, "tracing_on ", 11))
			r->top_tracing_on = atoi(line + 11);
		else if (!strncmp(line, "knob ", 5))
			osn_knobs_load_line(&r->knobs, line);
		else if (!strncmp(line, "file ", 5))
			load_file_line(r->files, &r->nfiles, line);
	}
}

/* Put the saved files back, last changed first; -1 if one failed. */
static int restore_files(const struct osn_saved_file *files, int n)
{
	char first[OSN_ERR_LEN] = "";

	for (int i = n; i-- > 0;) {
		osn_debug("%s <- %s", files[i].path, files[i].value);
		if (osn_write_str(files[i].path, files[i].value))
			osn_err_keep_first(first);
	}
	return first[0] ? osn_err("%s", first) : 0;
}

static const char *const all_instances[] = {
	OSN_INST_TOP, OSN_INST_HIST, OSN_INST_TRACE, OSN_INST_STOP, NULL,
};

/* Undo a dead owner's changes; prints what it does. */
static void recover(const struct record *r)
{
	struct osn_knobs k = r->knobs;
	int found = 0;

	/* instances of the record, and any osn_* left without a record */
	for (int i = 0; i < r->ninstances; i++)
		if (tracefs_instance_exists(r->instances[i]))
			found++;
	for (int i = 0; all_instances[i]; i++)
		if (tracefs_instance_exists(all_instances[i]))
			found++;
	if (!r->pid && !found && !r->nfiles)
		return;
	if (r->pid)
		osn_warn("cleaning up after a previous osn%s%s%s that did not exit cleanly (pid %ld)",
			 r->tool[0] ? " (osn " : "", r->tool,
			 r->tool[0] ? ")" : "", r->pid);
	else
		osn_warn("removing tracefs instances a previous osn left behind");
	for (int i = 0; i < r->ninstances; i++)
		if (osn_instance_remove(r->instances[i]))
			osn_err_print();
	for (int i = 0; all_instances[i]; i++)
		if (osn_instance_remove(all_instances[i]))
			osn_err_print();
	if (!access(osn_knob_dir(), F_OK) && osn_knobs_restore(&k))
		osn_err_print();
	if (restore_files(r->files, r->nfiles))
		osn_err_print();
	if (r->top_tracing_on == 1)
		tracefs_trace_on(NULL);
}

int osn_session_begin(struct osn_session *s, const char *tool)
{
	struct record old;
	struct stat a, b;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->tool = tool;
	s->top_tracing_on = -1;
	osn_knobs_init(&s->knobs, osn_knob_dir());
	lock_path(s->path, sizeof(s->path));

	for (int tries = 0; tries < 10; tries++) {
		s->fd = open(s->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (s->fd < 0)
			return osn_err("cannot open the lock file %s: %s",
				       s->path, strerror(errno));
		if (flock(s->fd, LOCK_EX | LOCK_NB)) {
			if (errno == EWOULDBLOCK) {
				read_record(s->fd, &old);
				osn_err("another osn is running (pid %ld, osn %s): the module's knobs and workload are global, so two runs would measure with each other's settings; wait for it to end or stop it",
					old.pid, old.tool[0] ? old.tool : "?");
			} else {
				osn_err("cannot lock %s: %s", s->path,
					strerror(errno));
			}
			close(s->fd);
			s->fd = -1;
			return -1;
		}
		/* the file may have been unlinked by its owner meanwhile */
		if (!fstat(s->fd, &a) && !stat(s->path, &b) &&
		    a.st_ino == b.st_ino && a.st_dev == b.st_dev)
			break;
		close(s->fd);
		s->fd = -1;
	}
	if (s->fd < 0)
		return osn_err("cannot lock %s", s->path);
	read_record(s->fd, &old);
	recover(&old);
	osn_session_persist(s);
	return 0;
}

void osn_session_persist(struct osn_session *s)
{
	FILE *f;
	int fd;

	if (s->fd < 0)
		return;
	fd = dup(s->fd);
	if (fd < 0)
		return;
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return;
	}
	fprintf(f, "pid %ld\ntool %s\n", (long)getpid(), s->tool);
	for (int i = 0; i < s->ninstances; i++)
		fprintf(f, "instance %s\n", s->instances[i]);
	if (s->top_tracing_on >= 0)
		fprintf(f, "tracing_on %d\n", s->top_tracing_on);
	osn_knobs_dump(&s->knobs, f);
	for (int i = 0; i < s->nfiles; i++)
		fprintf(f, "file %s %s\n", s->files[i].path, s->files[i].value);
	fclose(f);
}

int osn_session_set_file(struct osn_session *s, const char *path,
			 const char *value)
{
	struct osn_saved_file *sf;
	char old[sizeof(sf->value)];

	if (osn_read_str(path, old, sizeof(old)))
		return -1;
	if (!strcmp(old, value))
		return 0;
	if (s->nfiles == OSN_MAX_SAVED_FILES)
		return osn_err("more than %d system files to change",
			       OSN_MAX_SAVED_FILES);
	if (strlen(path) >= sizeof(sf->path))
		return osn_err("%s: path too long", path);
	sf = &s->files[s->nfiles++];
	osn_strlcpy(sf->path, path, sizeof(sf->path));
	osn_strlcpy(sf->value, old, sizeof(sf->value));
	osn_session_persist(s);		/* journal first: a kill restores */
	osn_debug("%s <- %s (was %s)", path, value, old);
	return osn_write_str(path, value);
}

void osn_session_add_instance(struct osn_session *s, const char *name)
{
	if (s->ninstances < OSN_MAX_INSTANCES)
		osn_strlcpy(s->instances[s->ninstances++], name,
			    sizeof(s->instances[0]));
	osn_session_persist(s);
}

/*
 * Until the module's workload threads are gone (5 s at most), a period
 * that began under the run's stop condition may still end over it, and
 * the knobs' restore re-armed the condition (any knob write does): its
 * tracing_off() could come after tracing_on is put back (a slow CPU's
 * 1 s period can outlive the restore).
 */
static void wait_workload_gone(void)
{
	struct osn_thread one;

	for (int i = 0; i < 100; i++) {
		if (osn_find_threads(NULL, &one, 1) <= 0)
			return;
		poll(NULL, 0, 50);
	}
	osn_debug("osn/N threads still run: tracing_on restored all the same");
}

int osn_session_end(struct osn_session *s)
{
	char first[OSN_ERR_LEN] = "";
	int ret = 0;

	if (s->fd < 0)
		return 0;
	/* stop conditions first, so nothing stops while we restore */
	for (int i = 0; i < s->ninstances; i++)
		if (osn_instance_remove(s->instances[i]))
			ret = osn_err_keep_first(first);
	s->ninstances = 0;
	if (!access(osn_knob_dir(), F_OK) && osn_knobs_restore(&s->knobs))
		ret = osn_err_keep_first(first);
	if (restore_files(s->files, s->nfiles))
		ret = osn_err_keep_first(first);
	else
		s->nfiles = 0;
	if (s->top_tracing_on == 1)
		wait_workload_gone();
	if (s->top_tracing_on == 1 && tracefs_trace_is_on(NULL) == 0) {
		osn_debug("tracing_on <- 1 (the module's stop turned it off)");
		tracefs_trace_on(NULL);
	}
	if (!ret) {
		unlink(s->path);
	} else {
		/* keep the record: the next run retries */
		osn_session_persist(s);
	}
	close(s->fd);
	s->fd = -1;
	return ret ? osn_err("%s", first) : 0;
}

int osn_session_cleanup_only(void)
{
	struct osn_session s;

	if (osn_session_begin(&s, "cleanup"))
		return -1;
	return osn_session_end(&s);
}
