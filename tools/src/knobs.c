// SPDX-License-Identifier: GPL-2.0
/*
 * knobs.c - module knobs: read, write, save, restore (see knobs.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs.h"
#include "util.h"

const char * const osn_knob_names[OSN_NR_KNOBS] = {
	[OSN_K_CPUS]		= OSN_KNOB_CPUS,
	[OSN_K_PERIOD]		= OSN_KNOB_PERIOD_US,
	[OSN_K_RUNTIME]		= OSN_KNOB_RUNTIME_US,
	[OSN_K_THRESHOLD]	= OSN_KNOB_THRESHOLD_US,
	[OSN_K_STOP]		= OSN_KNOB_STOP_TRACING_US,
	[OSN_K_STOP_TOTAL]	= OSN_KNOB_STOP_TRACING_TOTAL_US,
	[OSN_K_OPTIONS]		= OSN_KNOB_OPTIONS,
	[OSN_K_MODE]		= OSN_KNOB_MODE,
	[OSN_K_TLAT_PERIOD]	= OSN_KNOB_TIMERLAT_PERIOD_US,
	[OSN_K_PRINT_STACK]	= OSN_KNOB_PRINT_STACK,
};

void osn_knobs_init(struct osn_knobs *k, const char *dir)
{
	memset(k, 0, sizeof(*k));
	osn_strlcpy(k->dir, dir, sizeof(k->dir));
}

static void knob_path(const struct osn_knobs *k, enum osn_knob_id id,
		      char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", k->dir, osn_knob_names[id]);
}

int osn_read_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return osn_err("cannot read %s: %s", path, strerror(errno));
	n = read(fd, buf, len - 1);
	if (n < 0) {
		osn_err("cannot read %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int osn_knob_read(const struct osn_knobs *k, enum osn_knob_id id, char *buf,
		  size_t len)
{
	char path[512];

	knob_path(k, id, path, sizeof(path));
	return osn_read_str(path, buf, len);
}

/*
 * @val to @path: -1 with errno (EIO: a short write), *@opened false when
 * the file could not even be opened
 */
static int write_fd_str(const char *path, const char *val, bool *opened)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, e;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	*opened = fd >= 0;
	if (fd < 0)
		return -1;
	n = write(fd, val, len);
	e = errno;
	if (close(fd) && n >= 0) {
		n = -1;
		e = errno;
	}
	errno = n < 0 ? e : EIO;
	return n >= 0 && (size_t)n == len ? 0 : -1;
}

int osn_write_str(const char *path, const char *val)
{
	bool opened;

	if (write_fd_str(path, val, &opened))
		return osn_err("cannot write %s to %s: %s", val, path,
			       strerror(errno));
	return 0;
}

/* errno of the last failed write, for osn_knobs_set_mode() */
static int last_write_errno;

int osn_knob_write(const struct osn_knobs *k, enum osn_knob_id id,
		   const char *val)
{
	char path[512];
	bool opened;

	knob_path(k, id, path, sizeof(path));
	osn_debug("%s <- '%s'", path, val);
	if (!write_fd_str(path, val, &opened))
		return 0;
	last_write_errno = errno;
	if (!opened)
		return osn_err("cannot write %s: %s", path, strerror(errno));
	return osn_err("the module rejected %s=%s: %s", osn_knob_names[id],
		       val, strerror(last_write_errno));
}

int osn_knobs_save(struct osn_knobs *k)
{
	for (int i = 0; i < OSN_NR_KNOBS; i++) {
		if (osn_knob_read(k, i, k->saved[i], sizeof(k->saved[i])))
			return -1;
		k->have_saved[i] = true;
	}
	return 0;
}

int osn_knobs_set(struct osn_knobs *k, enum osn_knob_id id, const char *val)
{
	char cur[OSN_KNOB_LEN];

	if (!osn_knob_read(k, id, cur, sizeof(cur)) && !strcmp(cur, val))
		return 0;
	k->changed[id] = true;
	return osn_knob_write(k, id, val);
}

int osn_knobs_set_period_runtime(struct osn_knobs *k, unsigned long long period,
				 unsigned long long runtime)
{
	char cur[OSN_KNOB_LEN], p[32], r[32];
	unsigned long long cur_period = 0;

	if (!osn_knob_read(k, OSN_K_PERIOD, cur, sizeof(cur)))
		cur_period = strtoull(cur, NULL, 10);
	snprintf(p, sizeof(p), "%llu", period);
	snprintf(r, sizeof(r), "%llu", runtime);
	if (runtime <= cur_period) {
		if (osn_knobs_set(k, OSN_K_RUNTIME, r) ||
		    osn_knobs_set(k, OSN_K_PERIOD, p))
			return -1;
	} else {
		if (osn_knobs_set(k, OSN_K_PERIOD, p) ||
		    osn_knobs_set(k, OSN_K_RUNTIME, r))
			return -1;
	}
	return 0;
}

int osn_knobs_set_mode(struct osn_knobs *k, const char *mode)
{
	/* the module stops a run asynchronously: 2 s at most */
	for (int i = 0; i < 200; i++) {
		if (!osn_knobs_set(k, OSN_K_MODE, mode))
			return 0;
		if (last_write_errno != EBUSY)
			return -1;
		usleep(10000);
	}
	return -1;
}

static void restore_one(struct osn_knobs *k, enum osn_knob_id id, char *first)
{
	if (!k->changed[id] || !k->have_saved[id])
		return;
	if (osn_knobs_set(k, id, k->saved[id]))
		osn_err_keep_first(first);
	else
		k->changed[id] = false;
}

static void restore_period_runtime(struct osn_knobs *k, char *first)
{
	if (!(k->changed[OSN_K_PERIOD] || k->changed[OSN_K_RUNTIME]) ||
	    !k->have_saved[OSN_K_PERIOD] || !k->have_saved[OSN_K_RUNTIME])
		return;
	if (osn_knobs_set_period_runtime(k,
			strtoull(k->saved[OSN_K_PERIOD], NULL, 10),
			strtoull(k->saved[OSN_K_RUNTIME], NULL, 10))) {
		osn_err_keep_first(first);
	} else {
		k->changed[OSN_K_PERIOD] = false;
		k->changed[OSN_K_RUNTIME] = false;
	}
}

/* @opts (as options reads back) sets interrupts or preemption off. */
static bool atomic_options(const char *opts)
{
	const char *const atomic[] = { OSN_OPT_IRQ_DISABLE,
				       OSN_OPT_PREEMPT_DISABLE };
	char buf[OSN_KNOB_LEN], *w, *save = NULL;

	osn_strlcpy(buf, opts, sizeof(buf));
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		for (size_t i = 0; i < ARRAY_SIZE(atomic); i++)
			if (!strcmp(w, atomic[i]))
				return true;
	return false;
}

int osn_knobs_restore(struct osn_knobs *k)
{
	char first[OSN_ERR_LEN] = "";
	/*
	 * The module refuses runtime_us > 1 s while an atomic option is
	 * set: options that clear them go first (the saved runtime may be
	 * long), options that set them last (the saved runtime is short).
	 */
	bool options_last = k->have_saved[OSN_K_OPTIONS] &&
			    atomic_options(k->saved[OSN_K_OPTIONS]);

	restore_one(k, OSN_K_STOP, first);
	restore_one(k, OSN_K_STOP_TOTAL, first);
	restore_one(k, OSN_K_PRINT_STACK, first);
	restore_one(k, OSN_K_THRESHOLD, first);
	if (!options_last)
		restore_one(k, OSN_K_OPTIONS, first);
	restore_period_runtime(k, first);
	if (options_last)
		restore_one(k, OSN_K_OPTIONS, first);
	restore_one(k, OSN_K_CPUS, first);
	restore_one(k, OSN_K_TLAT_PERIOD, first);
	if (k->changed[OSN_K_MODE] && k->have_saved[OSN_K_MODE]) {
		if (osn_knobs_set_mode(k, k->saved[OSN_K_MODE]))
			osn_err_keep_first(first);
		else
			k->changed[OSN_K_MODE] = false;
	}
	return first[0] ? osn_err("%s", first) : 0;
}

void osn_knobs_dump(const struct osn_knobs *k, FILE *f)
{
	for (int i = 0; i < OSN_NR_KNOBS; i++)
		if (k->have_saved[i])
			fprintf(f, "knob %s %s\n", osn_knob_names[i], k->saved[i]);
}

int osn_knobs_load_line(struct osn_knobs *k, const char *line)
{
	const char *name, *val;
	size_t nlen;

	if (strncmp(line, "knob ", 5))
		return -1;
	name = line + 5;
	val = strchr(name, ' ');
	if (!val)
		return -1;
	nlen = val - name;
	val++;
	for (int i = 0; i < OSN_NR_KNOBS; i++) {
		if (strlen(osn_knob_names[i]) == nlen &&
		    !strncmp(osn_knob_names[i], name, nlen)) {
			size_t vl = strcspn(val, "\n");

			if (vl >= sizeof(k->saved[i]))
				return -1;
			memcpy(k->saved[i], val, vl);
			k->saved[i][vl] = '\0';
			k->have_saved[i] = true;
			k->changed[i] = true;
			return 0;
		}
	}
	return -1;
}

int osn_knob_cpulist(const struct osn_cpuset *set, char *buf)
{
	size_t n = osn_format_cpulist(set, buf, OSN_CPUS_MAX_LEN + 1);

	if (n > OSN_CPUS_MAX_LEN)
		return osn_err("the list of the %d CPUs to measure is %zu characters even written compactly; the module's cpus knob takes %d at most (one sysfs write): measure fewer CPUs, or ranges of them",
			       osn_cpuset_count(set), n, OSN_CPUS_MAX_LEN);
	return 0;
}
