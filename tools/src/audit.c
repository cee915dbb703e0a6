// SPDX-License-Identifier: GPL-2.0
/*
 * audit.c - osn audit's frame (see audit.h and Documentation/isolation.md):
 * which CPUs are audited, reading files under the root, recording the
 * findings and running the check areas (audit_boot.c, audit_affinity.c,
 * audit_system.c).  It only reads files; nothing is written.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "audit_int.h"

#define MAX_UNREADABLE	64

static const char *const status_names[] = {
	[OSN_AUDIT_OK] = "ok",
	[OSN_AUDIT_WARN] = "warn",
	[OSN_AUDIT_FAIL] = "fail",
	[OSN_AUDIT_NA] = "n/a",
};

const char *osn_audit_status_name(enum osn_audit_status s)
{
	return s <= OSN_AUDIT_NA ? status_names[s] : "?";
}

/* ---- reading and findings ---------------------------------------------------- */

void audit_need_root(struct osn_audit *a, const char *path)
{
	for (int i = 0; i < a->nr_unreadable; i++)
		if (!strcmp(a->unreadable[i], path))
			return;
	if (!a->unreadable)
		a->unreadable = calloc(MAX_UNREADABLE, sizeof(*a->unreadable));
	if (a->unreadable && a->nr_unreadable < MAX_UNREADABLE)
		osn_strlcpy(a->unreadable[a->nr_unreadable++], path,
			    sizeof(*a->unreadable));
}

int audit_rd(struct osn_audit *a, const char *path, char *buf, size_t len)
{
	char full[1024];
	size_t o = 0;
	int fd;

	buf[0] = 0;
	snprintf(full, sizeof(full), "%s%s", a->root, path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return RD_ABSENT;
		if (errno == EACCES || errno == EPERM) {
			audit_need_root(a, path);
			return RD_ROOT;
		}
		osn_err("%s: %s", path, strerror(errno));
		return RD_ERR;
	}
	for (;;) {
		ssize_t r = read(fd, buf + o, len - 1 - o);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			buf[0] = 0;
			if (e == EACCES || e == EPERM) {
				audit_need_root(a, path);
				return RD_ROOT;
			}
			osn_err("%s: %s", path, strerror(e));
			return RD_ERR;
		}
		if (!r)
			break;
		o += r;
		if (o == len - 1) {
			char c;

			if (read(fd, &c, 1) == 1) {
				close(fd);
				buf[o] = 0;
				osn_err("%s: longer than %zu bytes", path, len - 1);
				return RD_ERR;
			}
			break;
		}
	}
	close(fd);
	buf[o] = 0;
	return RD_OK;
}

char *audit_chomp(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

void audit_add(struct osn_audit *a, enum osn_audit_status st,
	       const char *check, const char *fix, const char *fmt, ...)
{
	struct osn_audit_finding *f;
	va_list ap;
	int r;

	if (a->n == a->cap) {
		int cap = a->cap ? a->cap * 2 : 64;
		void *p = realloc(a->f, cap * sizeof(*a->f));

		if (!p)
			return;
		a->f = p;
		a->cap = cap;
	}
	f = &a->f[a->n];
	memset(f, 0, sizeof(*f));
	osn_strlcpy(f->check, check, sizeof(f->check));
	f->status = st;
	va_start(ap, fmt);
	r = vasprintf(&f->evidence, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	f->fix = strdup(fix ? fix : "");
	if (!f->fix) {
		free(f->evidence);
		return;
	}
	a->n++;
}

bool audit_unread(struct osn_audit *a, int r, const char *check,
		  const char *path, const char *absent_why)
{
	if (r == RD_OK)
		return false;
	if (r == RD_ABSENT)
		audit_add(a, OSN_AUDIT_NA, check, NULL, "%s: absent (%s)", path,
			  absent_why);
	else if (r == RD_ROOT)
		audit_add(a, OSN_AUDIT_NA, check, NULL, "%s: cannot be read without root",
			  path);
	else
		audit_add(a, OSN_AUDIT_NA, check, NULL, "cannot read %s", osn_last_err());
	return true;
}

void audit_append(char *buf, size_t len, const char *fmt, ...)
{
	static const char more[] = " ...";
	size_t o = strlen(buf), n;
	va_list ap;
	int r;

	if (o >= sizeof(more) - 1 && !strcmp(buf + o - (sizeof(more) - 1), more))
		return;		/* already full */
	va_start(ap, fmt);
	r = vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
	n = r < 0 ? 0 : (size_t)r;
	/* whole pieces only: a cut "cpu12" would name another CPU */
	if (o + n + sizeof(more) <= len)
		return;
	buf[o] = '\0';
	if (o + sizeof(more) <= len)
		strcpy(buf + o, more);
}

/* ---- setup ----------------------------------------------------------------- */

int osn_audit_init(struct osn_audit *a, const char *root, const char *cpus_arg)
{
	char buf[OSN_CPULIST_LEN], v[OSN_AUDIT_CMDLINE_LEN];
	struct osn_cpuset possible, tmp;
	unsigned int fl;
	int r;

	memset(a, 0, sizeof(*a));
	osn_strlcpy(a->root, root ? root : "", sizeof(a->root));
#if defined(__x86_64__) || defined(__i386__)
	a->x86 = true;
#endif
	/* the possible CPUs bound -c (not sysconf: the root may be a fixture) */
	if (audit_rd(a, "/sys/devices/system/cpu/possible", buf, sizeof(buf)) ||
	    osn_parse_cpulist(buf, OSN_MAX_CPUS, &possible)) {
		long nr = sysconf(_SC_NPROCESSORS_CONF);

		osn_cpuset_zero(&possible);
		for (long c = 0; c < (nr > 0 && nr <= OSN_MAX_CPUS ? nr : 1); c++)
			osn_cpuset_set(&possible, (int)c);
	}
	a->nr_cpus = osn_cpuset_last(&possible) + 1;
	/*
	 * The online CPUs: the default audited set, the housekeeping set and
	 * "every CPU" of a task's affinity (which holds active CPUs only).
	 */
	if (audit_rd(a, "/sys/devices/system/cpu/online", buf, sizeof(buf)) ||
	    osn_parse_cpulist(buf, a->nr_cpus, &a->online))
		a->online = possible;

	r = audit_rd(a, "/proc/cmdline", a->cmdline, sizeof(a->cmdline));
	a->have_cmdline = r == RD_OK;
	audit_chomp(a->cmdline);

	if (cpus_arg) {
		if (osn_parse_cpulist(cpus_arg, a->nr_cpus, &a->cpus))
			return osn_err("-c %s", osn_last_err());
		/* a long list is not cut: cpus_str has the CPUs, whole */
		if (strlen(cpus_arg) + 4 > sizeof(a->cpus_from))
			osn_strlcpy(a->cpus_from, "-c", sizeof(a->cpus_from));
		else
			snprintf(a->cpus_from, sizeof(a->cpus_from), "-c %s",
				 cpus_arg);
	} else {
		osn_cpuset_zero(&a->cpus);
		if (osn_cmdline_param(a->cmdline, "nohz_full", v, sizeof(v)) == 2 &&
		    !osn_parse_cpulist(v, a->nr_cpus, &tmp))
			osn_cpuset_or(&a->cpus, &a->cpus, &tmp);
		if (osn_cmdline_param(a->cmdline, "isolcpus", v, sizeof(v)) == 2 &&
		    !osn_parse_isolcpus(v, a->nr_cpus, &fl, &tmp))
			osn_cpuset_or(&a->cpus, &a->cpus, &tmp);
		if (!osn_cpuset_empty(&a->cpus)) {
			osn_strlcpy(a->cpus_from,
				    "isolcpus=/nohz_full= of the kernel command line",
				    sizeof(a->cpus_from));
		} else {
			a->cpus = a->online;
			osn_cpuset_clear(&a->cpus, 0);
			osn_strlcpy(a->cpus_from,
				    "all but CPU 0: no isolcpus=/nohz_full= on the command line",
				    sizeof(a->cpus_from));
		}
	}
	if (osn_cpuset_empty(&a->cpus))
		return osn_err("no CPU to audit: this machine has one CPU");
	osn_cpuset_and_not(&a->hk, &a->online, &a->cpus);
	if (osn_cpuset_empty(&a->hk))
		return osn_err("%s leaves no housekeeping CPU: audit the CPUs to isolate, not all",
			       a->cpus_from);
	osn_format_cpulist(&a->cpus, a->cpus_str, sizeof(a->cpus_str));
	osn_format_cpulist(&a->hk, a->hk_str, sizeof(a->hk_str));
	return 0;
}

void osn_audit_free(struct osn_audit *a)
{
	for (int i = 0; i < a->n; i++) {
		free(a->f[i].evidence);
		free(a->f[i].fix);
	}
	free(a->f);
	free(a->unreadable);
	a->f = NULL;
	a->unreadable = NULL;
	a->n = a->cap = a->nr_unreadable = 0;
}

void osn_audit_run(struct osn_audit *a)
{
	osn_audit_check_boot(a);
	osn_audit_check_irqs(a);
	osn_audit_check_tasks(a);
	osn_audit_check_memory(a);
	osn_audit_check_workqueues(a);
	osn_audit_check_sysctls(a);
	osn_audit_check_power(a);
	osn_audit_check_kernel(a);
}
