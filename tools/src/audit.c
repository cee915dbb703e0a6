// SPDX-License-Identifier: GPL-2.0
/*
 * audit.c - osn audit: the checks and their parsers (see audit.h and
 * Documentation/isolation.md).  It only reads files; nothing is written.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "json.h"

#define MAX_UNREADABLE	64
/* Idle states whose exit latency exceeds this are reported (us). */
#define IDLE_LATENCY_US	10
/* Names listed in an aggregated line */
#define LIST_MAX	8

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

/* ---- parsers ------------------------------------------------------------- */

int osn_cmdline_param(const char *cmdline, const char *name, char *val,
		      size_t len)
{
	size_t nlen = strlen(name);
	const char *p = cmdline;
	int found = 0;

	while (p && *p) {
		const char *w, *e;
		bool quote = false;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		/* a word ends at a space outside quotes (the kernel's next_arg) */
		w = p;
		while (*p && (quote || !isspace((unsigned char)*p))) {
			if (*p == '"')
				quote = !quote;
			p++;
		}
		e = p;
		if (e - w == 2 && !strncmp(w, "--", 2))
			break;	/* the rest goes to init */
		if ((size_t)(e - w) < nlen || strncmp(w, name, nlen))
			continue;
		if (w + nlen == e) {
			found = 1;
			if (len)
				val[0] = 0;
		} else if (w[nlen] == '=') {
			size_t o = 0;

			found = 2;
			for (const char *c = w + nlen + 1; c < e; c++)
				if (*c != '"' && o + 1 < len)
					val[o++] = *c;
			if (len)
				val[o] = 0;
		}
	}
	return found;
}

int osn_parse_isolcpus(const char *val, int nr_cpus, unsigned int *flags,
		       struct osn_cpuset *set)
{
	const char *p = val;

	*flags = 0;
	osn_cpuset_zero(set);
	/* flags are words before the first digit: domain,managed_irq,nohz */
	while (*p && !isdigit((unsigned char)*p)) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);

		if (n == 6 && !strncmp(p, "domain", 6))
			*flags |= OSN_ISOL_DOMAIN;
		else if (n == 11 && !strncmp(p, "managed_irq", 11))
			*flags |= OSN_ISOL_MANAGED_IRQ;
		else if (n == 4 && !strncmp(p, "nohz", 4))
			*flags |= OSN_ISOL_NOHZ;
		else
			return osn_err("isolcpus='%s': unknown flag '%.*s'", val,
				       (int)n, p);
		if (!c)
			return osn_err("isolcpus='%s': no cpu list after the flags",
				       val);
		p = c + 1;
	}
	/* the kernel: no flag given means domain */
	if (!*flags)
		*flags = OSN_ISOL_DOMAIN;
	if (osn_parse_cpulist(p, nr_cpus, set))
		return osn_err("isolcpus='%s': %s", val, osn_last_err());
	return 0;
}

int osn_parse_hexmask(const char *s, struct osn_cpuset *set)
{
	/*
	 * The kernel's bitmap format (bitmap_print_to_pagebuf, %*pb): 32-bit
	 * hex words, most significant first, separated by commas.  Neither
	 * libc nor the libraries osn links parse it.
	 */
	size_t len = strlen(s);
	int bit = 0;

	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	osn_cpuset_zero(set);
	if (!len)
		return osn_err("empty cpu mask");
	for (size_t i = len; i-- > 0;) {
		int v;

		if (s[i] == ',')
			continue;
		if (!isxdigit((unsigned char)s[i]))
			return osn_err("'%.*s' is not a hex cpu mask", (int)(len < 40 ? len : 40), s);
		v = isdigit((unsigned char)s[i]) ? s[i] - '0' :
			tolower((unsigned char)s[i]) - 'a' + 10;
		for (int b = 0; b < 4; b++, bit++)
			if (v & (1 << b)) {
				if (bit >= OSN_MAX_CPUS)
					return osn_err("cpu mask '%.*s...' is too wide",
						       (int)(len < 40 ? len : 40), s);
				osn_cpuset_set(set, bit);
			}
	}
	return 0;
}

void osn_format_hexmask(const struct osn_cpuset *set, char *buf, size_t len)
{
	int last = osn_cpuset_last(set);
	int words = last < 0 ? 1 : last / 32 + 1;
	size_t o = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (int w = words - 1; w >= 0; w--) {
		uint32_t v = 0;
		int r;

		for (int b = 0; b < 32; b++)
			if (osn_cpuset_isset(set, w * 32 + b))
				v |= 1U << b;
		r = snprintf(buf + o, len - o, w == words - 1 ? "%x" : ",%08x", v);
		if (r < 0 || (size_t)r >= len - o)
			return;
		o += r;
	}
}

int osn_parse_choice(const char *s, char open, char *out, size_t len)
{
	char close = open == '[' ? ']' : ')';
	const char *a = strchr(s, open), *b;

	if (!a || !(b = strchr(a + 1, close)) || b == a + 1)
		return osn_err("'%.40s' has no %cselected%c word", s, open, close);
	if (strchr(b + 1, open))
		return osn_err("'%.40s' has more than one %cselected%c word", s,
			       open, close);
	if ((size_t)(b - a - 1) >= len)
		return osn_err("'%.40s': selected word too long", s);
	memcpy(out, a + 1, b - a - 1);
	out[b - a - 1] = 0;
	return 0;
}

int osn_parse_long(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	if (end == s || errno)
		return osn_err("'%.40s' is not a number", s);
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return osn_err("'%.40s' is not a number", s);
	return 0;
}

int osn_parse_irq_header(const char *line, int *cols, int max)
{
	const char *p = line;
	int n = 0;

	for (;;) {
		char *end;
		long cpu;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			break;
		if (strncmp(p, "CPU", 3))
			return osn_err("/proc/interrupts header: '%.40s' is not CPUn", p);
		errno = 0;
		cpu = strtol(p + 3, &end, 10);
		if (end == p + 3 || errno || cpu < 0 || cpu >= OSN_MAX_CPUS ||
		    (*end && !isspace((unsigned char)*end)))
			return osn_err("/proc/interrupts header: '%.40s' is not CPUn", p);
		if (n >= max)
			return osn_err("/proc/interrupts header: more than %d CPUs", max);
		cols[n++] = (int)cpu;
		p = end;
	}
	if (!n)
		return osn_err("/proc/interrupts: no CPU in the header");
	return n;
}

int osn_parse_irq_line(const char *line, int ncols, char *irq, size_t irqlen,
		       uint64_t *counts, char *desc, size_t desclen,
		       char *name, size_t namelen)
{
	const char *p = line, *colon = strchr(line, ':');
	size_t o = 0, last = 0;
	int i;

	while (*p == ' ')
		p++;
	if (!colon || colon == p || (size_t)(colon - p) >= irqlen)
		return osn_err("/proc/interrupts: malformed line '%.60s'", line);
	for (const char *c = p; c < colon; c++)
		if (isspace((unsigned char)*c))
			return osn_err("/proc/interrupts: malformed line '%.60s'", line);
	memcpy(irq, p, colon - p);
	irq[colon - p] = 0;
	p = colon + 1;
	for (i = 0; i < ncols; i++) {
		char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		errno = 0;
		counts[i] = strtoull(p, &end, 10);
		if (errno || (*end && !isspace((unsigned char)*end)))
			return osn_err("/proc/interrupts: bad count in line '%.60s'", line);
		p = end;
	}
	/* a numbered IRQ has every column; ERR:/MIS: have one */
	if (i < ncols && isdigit((unsigned char)irq[0]))
		return osn_err("/proc/interrupts: IRQ %s has %d of %d counts (truncated?)",
			       irq, i, ncols);
	for (; i < ncols; i++)
		counts[i] = 0;
	/* the rest, spaces squeezed */
	if (desclen)
		desc[0] = 0;
	while (*p && o + 1 < desclen) {
		if (isspace((unsigned char)*p)) {
			while (isspace((unsigned char)*p))
				p++;
			if (*p && o) {
				desc[o++] = ' ';
				last = o;
			}
			continue;
		}
		desc[o++] = *p++;
	}
	if (desclen)
		desc[o] = 0;
	osn_strlcpy(name, desc + last, namelen);
	return 0;
}

int osn_parse_swaps(const char *text)
{
	const char *p = text;
	int n = 0;

	if (strncmp(text, "Filename", 8))
		return osn_err("/proc/swaps: no 'Filename' header");
	while ((p = strchr(p, '\n'))) {
		p++;
		while (*p == ' ')
			p++;
		if (*p && *p != '\n') {
			if (*p != '/')
				return osn_err("/proc/swaps: malformed line '%.40s'", p);
			n++;
		}
	}
	return n;
}

/* ---- reading --------------------------------------------------------------- */

enum { RD_OK = 0, RD_ABSENT = -1, RD_ROOT = -2, RD_ERR = -3 };

static void need_root(struct osn_audit *a, const char *path)
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

/*
 * Read @path (under the root) into @buf; RD_ABSENT if it does not exist,
 * RD_ROOT if only root may read it (noted), RD_ERR otherwise (osn_err).
 * A file longer than @len - 1 is an error, not silently cut.
 */
static int rd(struct osn_audit *a, const char *path, char *buf, size_t len)
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
			need_root(a, path);
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
				need_root(a, path);
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

/* Trailing newline and spaces off. */
static char *chomp(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

static void add(struct osn_audit *a, enum osn_audit_status st,
		const char *check, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void add(struct osn_audit *a, enum osn_audit_status st,
		const char *check, const char *fix, const char *fmt, ...)
{
	struct osn_audit_finding *f;
	va_list ap;

	if (a->n == a->cap) {
		int cap = a->cap ? a->cap * 2 : 64;
		void *p = realloc(a->f, cap * sizeof(*a->f));

		if (!p)
			return;
		a->f = p;
		a->cap = cap;
	}
	f = &a->f[a->n++];
	memset(f, 0, sizeof(*f));
	osn_strlcpy(f->check, check, sizeof(f->check));
	f->status = st;
	va_start(ap, fmt);
	vsnprintf(f->evidence, sizeof(f->evidence), fmt, ap);
	va_end(ap);
	if (fix)
		osn_strlcpy(f->fix, fix, sizeof(f->fix));
}

/*
 * A finding for a file that could not be read: n/a with why.  Returns
 * true if it added one (the file is absent only when @absent_ok is false).
 */
static bool add_unread(struct osn_audit *a, int r, const char *check,
		       const char *path, const char *absent_why)
{
	if (r == RD_OK)
		return false;
	if (r == RD_ABSENT)
		add(a, OSN_AUDIT_NA, check, NULL, "%s: absent (%s)", path,
		    absent_why);
	else if (r == RD_ROOT)
		add(a, OSN_AUDIT_NA, check, NULL, "%s: cannot be read without root",
		    path);
	else
		add(a, OSN_AUDIT_NA, check, NULL, "cannot read %s", osn_last_err());
	return true;
}

/* ---- setup ----------------------------------------------------------------- */

int osn_audit_init(struct osn_audit *a, const char *root, const char *cpus_arg)
{
	char buf[4096], v[4096];
	struct osn_cpuset possible, tmp;
	unsigned int fl;
	int r;

	memset(a, 0, sizeof(*a));
	osn_strlcpy(a->root, root ? root : "", sizeof(a->root));
#if defined(__x86_64__) || defined(__i386__)
	a->x86 = true;
#endif
	/* the possible CPUs bound -c (not sysconf: the root may be a fixture) */
	if (rd(a, "/sys/devices/system/cpu/possible", buf, sizeof(buf)) ||
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
	if (rd(a, "/sys/devices/system/cpu/online", buf, sizeof(buf)) ||
	    osn_parse_cpulist(buf, a->nr_cpus, &a->online))
		a->online = possible;

	r = rd(a, "/proc/cmdline", a->cmdline, sizeof(a->cmdline));
	a->have_cmdline = r == RD_OK;
	chomp(a->cmdline);

	if (cpus_arg) {
		if (osn_parse_cpulist(cpus_arg, a->nr_cpus, &a->cpus))
			return osn_err("-c %s", osn_last_err());
		snprintf(a->cpus_from, sizeof(a->cpus_from), "-c %s", cpus_arg);
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
	free(a->f);
	free(a->unreadable);
	a->f = NULL;
	a->unreadable = NULL;
	a->n = a->cap = a->nr_unreadable = 0;
}

/* ---- boot parameters ---------------------------------------------------------- */

/*
 * A cpulist parameter: "boot/NAME" says whether it covers the audited
 * CPUs.  Returns 1 and fills @set when it is given and parses.
 */
static int boot_cpulist(struct osn_audit *a, const char *name, const char *why,
			struct osn_cpuset *set)
{
	char v[4096], check[48], fix[OSN_AUDIT_FIX_LEN];
	struct osn_cpuset miss;
	int r = osn_cmdline_param(a->cmdline, name, v, sizeof(v));

	snprintf(check, sizeof(check), "boot/%s", name);
	snprintf(fix, sizeof(fix), "boot with %s=%s", name, a->cpus_str);
	if (r == 0) {
		add(a, OSN_AUDIT_WARN, check, fix, "no %s= in /proc/cmdline (%s)",
		    name, why);
		return 0;
	}
	if (r == 1 && !strcmp(name, "rcu_nocbs")) {
		/* 5.20+: a bare rcu_nocbs makes every CPU offloadable */
		add(a, OSN_AUDIT_OK, check, NULL,
		    "rcu_nocbs without a list in /proc/cmdline: every CPU may be offloaded");
		osn_cpuset_zero(set);
		for (int c = 0; c < a->nr_cpus; c++)
			osn_cpuset_set(set, c);
		return 1;
	}
	if (r == 1 || osn_parse_cpulist(v, a->nr_cpus, set)) {
		add(a, OSN_AUDIT_FAIL, check, fix,
		    "%s='%s' in /proc/cmdline does not parse: %s (the kernel ignores it)",
		    name, v, r == 1 ? "no cpu list" : osn_last_err());
		return 0;
	}
	osn_cpuset_and_not(&miss, &a->cpus, set);
	if (osn_cpuset_empty(&miss)) {
		add(a, OSN_AUDIT_OK, check, NULL, "%s=%s in /proc/cmdline", name, v);
	} else {
		char m[256];

		osn_format_cpulist(&miss, m, sizeof(m));
		add(a, OSN_AUDIT_WARN, check, fix,
		    "%s=%s in /proc/cmdline leaves out CPUs %s", name, v, m);
	}
	return 1;
}

/* A flag parameter that should be given (nosoftlockup, rcu_nocb_poll...). */
static void boot_flag(struct osn_audit *a, const char *name, const char *want,
		      const char *why)
{
	char v[256], check[48], fix[OSN_AUDIT_FIX_LEN];
	int r = osn_cmdline_param(a->cmdline, name, v, sizeof(v));

	snprintf(check, sizeof(check), "boot/%s", name);
	snprintf(fix, sizeof(fix), "boot with %s%s%s", name, want ? "=" : "",
		 want ? want : "");
	if (r && (!want || (r == 2 && !strcmp(v, want))))
		add(a, OSN_AUDIT_OK, check, NULL, "%s%s%s in /proc/cmdline", name,
		    r == 2 ? "=" : "", r == 2 ? v : "");
	else if (r == 2)
		add(a, OSN_AUDIT_WARN, check, fix, "%s=%s in /proc/cmdline (%s)",
		    name, v, why);
	else
		add(a, OSN_AUDIT_WARN, check, fix, "no %s%s%s in /proc/cmdline (%s)",
		    name, want ? "=" : "", want ? want : "", why);
}

static void check_boot(struct osn_audit *a)
{
	struct osn_cpuset isol, nohz, nocb, irqa, x;
	bool has_isol = false, has_nohz, has_nocb, has_irqa = false;
	char v[4096], fix[OSN_AUDIT_FIX_LEN], s1[256], s2[256];
	unsigned int fl = 0;
	int r;

	if (!a->have_cmdline) {
		add(a, OSN_AUDIT_NA, "boot", NULL, "cannot read /proc/cmdline");
		return;
	}
	/* isolcpus, with its flags */
	snprintf(fix, sizeof(fix), "boot with isolcpus=domain,managed_irq,%s",
		 a->cpus_str);
	r = osn_cmdline_param(a->cmdline, "isolcpus", v, sizeof(v));
	if (!r) {
		add(a, OSN_AUDIT_WARN, "boot/isolcpus", fix,
		    "no isolcpus= in /proc/cmdline (the scheduler balances tasks onto CPUs %s)",
		    a->cpus_str);
	} else if (r == 1 || osn_parse_isolcpus(v, a->nr_cpus, &fl, &isol)) {
		add(a, OSN_AUDIT_FAIL, "boot/isolcpus", fix,
		    "isolcpus='%s' in /proc/cmdline does not parse: %s", v,
		    r == 1 ? "no cpu list" : osn_last_err());
	} else {
		has_isol = true;
		osn_cpuset_and_not(&x, &a->cpus, &isol);
		osn_format_cpulist(&x, s1, sizeof(s1));
		if (!osn_cpuset_empty(&x))
			add(a, OSN_AUDIT_WARN, "boot/isolcpus", fix,
			    "isolcpus=%s in /proc/cmdline leaves out CPUs %s", v, s1);
		else if (!(fl & OSN_ISOL_DOMAIN))
			add(a, OSN_AUDIT_WARN, "boot/isolcpus", fix,
			    "isolcpus=%s in /proc/cmdline: flags without 'domain' keep the CPUs in the scheduler domains",
			    v);
		else if (!(fl & OSN_ISOL_MANAGED_IRQ))
			add(a, OSN_AUDIT_WARN, "boot/isolcpus", fix,
			    "isolcpus=%s in /proc/cmdline: no 'managed_irq' flag: managed (multiqueue) IRQs may target CPUs %s",
			    v, a->cpus_str);
		else
			add(a, OSN_AUDIT_OK, "boot/isolcpus", NULL,
			    "isolcpus=%s in /proc/cmdline", v);
	}
	has_nohz = boot_cpulist(a, "nohz_full",
				"the scheduler tick runs on every CPU", &nohz);
	has_nocb = boot_cpulist(a, "rcu_nocbs",
				"RCU callbacks run on the CPUs that queued them", &nocb);

	/* irqaffinity: the default affinity of IRQs, the housekeeping CPUs */
	snprintf(fix, sizeof(fix), "boot with irqaffinity=%s", a->hk_str);
	r = osn_cmdline_param(a->cmdline, "irqaffinity", v, sizeof(v));
	if (!r) {
		add(a, OSN_AUDIT_WARN, "boot/irqaffinity", fix,
		    "no irqaffinity= in /proc/cmdline (new IRQs may target every CPU)");
	} else if (r == 1 || osn_parse_cpulist(v, a->nr_cpus, &irqa)) {
		add(a, OSN_AUDIT_FAIL, "boot/irqaffinity", fix,
		    "irqaffinity='%s' in /proc/cmdline does not parse: %s", v,
		    r == 1 ? "no cpu list" : osn_last_err());
	} else if (osn_cpuset_intersects(&irqa, &a->cpus)) {
		has_irqa = true;
		osn_cpuset_and(&x, &irqa, &a->cpus);
		osn_format_cpulist(&x, s1, sizeof(s1));
		add(a, OSN_AUDIT_FAIL, "boot/irqaffinity", fix,
		    "irqaffinity=%s in /proc/cmdline includes audited CPUs %s", v, s1);
	} else {
		has_irqa = true;
		add(a, OSN_AUDIT_OK, "boot/irqaffinity", NULL,
		    "irqaffinity=%s in /proc/cmdline", v);
	}
	boot_flag(a, "rcu_nocb_poll", NULL,
		  "the rcuog kthreads are woken from the offloaded CPUs");
	boot_flag(a, "skew_tick", "1",
		  "the CPUs' ticks fire together and contend on jiffies_lock");
	boot_flag(a, "nosoftlockup", NULL,
		  "the soft-lockup detector's hrtimer fires on every CPU");
	boot_flag(a, "nowatchdog", NULL,
		  "the watchdogs' hrtimer and perf NMI fire on every CPU");
	if (a->x86)
		boot_flag(a, "tsc", "reliable",
			  "the clocksource watchdog checks the TSC periodically; only if the TSC is known stable");
	else
		add(a, OSN_AUDIT_NA, "boot/tsc", NULL, "tsc=reliable is x86 only");

	/* consistency among the lists that were given */
	if (!has_isol && !has_nohz && !has_nocb && !has_irqa) {
		add(a, OSN_AUDIT_NA, "boot/consistency", NULL,
		    "no isolation parameter in /proc/cmdline");
		return;
	}
	if (has_nohz && has_nocb && !osn_cpuset_covers(&nocb, &nohz)) {
		osn_cpuset_and_not(&x, &nohz, &nocb);
		osn_format_cpulist(&x, s1, sizeof(s1));
		snprintf(fix, sizeof(fix), "boot with rcu_nocbs= including %s", s1);
		add(a, OSN_AUDIT_WARN, "boot/consistency", fix,
		    "nohz_full CPUs %s are not in rcu_nocbs", s1);
	} else if (has_isol && has_nohz &&
		   (!osn_cpuset_covers(&isol, &nohz) ||
		    !osn_cpuset_covers(&nohz, &isol))) {
		osn_format_cpulist(&isol, s1, sizeof(s1));
		osn_format_cpulist(&nohz, s2, sizeof(s2));
		snprintf(fix, sizeof(fix), "boot with the same list in isolcpus= and nohz_full=");
		add(a, OSN_AUDIT_WARN, "boot/consistency", fix,
		    "isolcpus CPUs %s differ from nohz_full CPUs %s", s1, s2);
	} else if (has_irqa &&
		   ((has_isol && osn_cpuset_intersects(&irqa, &isol)) ||
		    (has_nohz && osn_cpuset_intersects(&irqa, &nohz)))) {
		osn_format_cpulist(&irqa, s1, sizeof(s1));
		add(a, OSN_AUDIT_FAIL, "boot/consistency",
		    "boot with irqaffinity= naming only housekeeping CPUs",
		    "irqaffinity=%s includes isolated CPUs", s1);
	} else if (has_nohz && osn_cpuset_covers(&nohz, &a->hk) &&
		   osn_cpuset_covers(&nohz, &a->cpus)) {
		add(a, OSN_AUDIT_FAIL, "boot/consistency",
		    "boot with nohz_full= leaving one CPU for housekeeping",
		    "nohz_full names every CPU: no housekeeping CPU is left");
	} else {
		add(a, OSN_AUDIT_OK, "boot/consistency", NULL,
		    "the isolation parameters given agree");
	}
}

/* ---- IRQs ----------------------------------------------------------------- */

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t o = strlen(buf);
	va_list ap;

	if (o + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
}

/* "irq/27-virtio0": the IRQ of a threaded handler, -1 if not one. */
int osn_irq_thread_irq(const char *comm)
{
	char *end;
	long n;

	if (strncmp(comm, "irq/", 4) || !isdigit((unsigned char)comm[4]))
		return -1;
	n = strtol(comm + 4, &end, 10);
	return *end == '-' ? (int)n : -1;
}

static void check_irqs(struct osn_audit *a)
{
	char path[1024], aff[4096], eff[4096], *line = NULL;
	size_t cap = 0;
	char irq[32], desc[512], name[128], fix[OSN_AUDIT_FIX_LEN];
	int *cols = NULL, ncols = 0, nirq = 0, nbad = 0, worst = OSN_AUDIT_OK;
	char list[512] = "";
	uint64_t *counts = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/interrupts", a->root);
	f = fopen(path, "r");
	if (!f) {
		int r = errno == ENOENT ? RD_ABSENT :
			errno == EACCES ? RD_ROOT : RD_ERR;

		if (r == RD_ROOT)
			need_root(a, "/proc/interrupts");
		if (r == RD_ERR)
			osn_err("/proc/interrupts: %s", strerror(errno));
		add_unread(a, r, "irq", "/proc/interrupts", "no procfs?");
		return;
	}
	cols = calloc(OSN_MAX_CPUS, sizeof(*cols));
	counts = calloc(OSN_MAX_CPUS, sizeof(*counts));
	if (!cols || !counts)
		goto out;
	if (getline(&line, &cap, f) < 0) {
		add(a, OSN_AUDIT_NA, "irq", NULL, "/proc/interrupts is empty");
		goto out;
	}
	ncols = osn_parse_irq_header(line, cols, OSN_MAX_CPUS);
	if (ncols < 0) {
		add(a, OSN_AUDIT_NA, "irq", NULL, "%s", osn_last_err());
		goto out;
	}
	/* getline: a line holds a count per CPU, 11 characters each */
	while (getline(&line, &cap, f) >= 0) {
		struct osn_cpuset as, es, x;
		bool have_eff, touch_aff, touch_eff;
		uint64_t on = 0;
		char check[48], xs[256];
		int r;

		if (osn_parse_irq_line(line, ncols, irq, sizeof(irq), counts,
				       desc, sizeof(desc), name, sizeof(name))) {
			add(a, OSN_AUDIT_NA, "irq/parse", NULL, "%s", osn_last_err());
			continue;
		}
		if (!isdigit((unsigned char)irq[0]))
			continue;	/* per-CPU (LOC, RES, ...) or ERR/MIS */
		nirq++;
		for (int i = 0; i < ncols; i++)
			if (osn_cpuset_isset(&a->cpus, cols[i]))
				on += counts[i];
		snprintf(check, sizeof(check), "irq/%s", irq);
		snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list", irq);
		r = rd(a, path, aff, sizeof(aff));
		if (r == RD_ABSENT)
			continue;	/* freed since /proc/interrupts was read */
		if (add_unread(a, r, check, path, ""))
			continue;
		if (osn_parse_cpulist(chomp(aff), OSN_MAX_CPUS, &as)) {
			add(a, OSN_AUDIT_NA, check, NULL, "%s: %s", path, osn_last_err());
			continue;
		}
		/* effective_affinity_list: 4.13+, and not for every chip */
		snprintf(path, sizeof(path), "/proc/irq/%s/effective_affinity_list", irq);
		r = rd(a, path, eff, sizeof(eff));
		have_eff = r == RD_OK && *chomp(eff) &&
			   !osn_parse_cpulist(eff, OSN_MAX_CPUS, &es);
		touch_aff = osn_cpuset_intersects(&as, &a->cpus);
		touch_eff = have_eff && osn_cpuset_intersects(&es, &a->cpus);
		if (!touch_aff && !touch_eff)
			continue;
		nbad++;
		append(list, sizeof(list) - 8, " %s", irq);
		osn_cpuset_and(&x, have_eff ? &es : &as, &a->cpus);
		osn_format_cpulist(&x, xs, sizeof(xs));
		snprintf(fix, sizeof(fix), "echo %s > /proc/irq/%s/smp_affinity_list",
			 a->hk_str, irq);
		/* it lands there (effective), or only may (affinity) */
		r = touch_eff || (!have_eff && on) ? OSN_AUDIT_FAIL : OSN_AUDIT_WARN;
		if (r > worst)
			worst = r;
		add(a, r, check, fix,
		    "%s: smp_affinity_list %s, effective_affinity_list %s (/proc/irq/%s/); %llu interrupts on CPUs %s (/proc/interrupts: %s)",
		    name, aff, have_eff ? eff : "-", irq, (unsigned long long)on,
		    a->cpus_str, desc);
	}
	if (!nbad)
		add(a, OSN_AUDIT_OK, "irq", NULL,
		    "no IRQ's affinity touches CPUs %s (%d IRQs in /proc/interrupts)",
		    a->cpus_str, nirq);
	else {
		snprintf(fix, sizeof(fix),
			 "for i in%s; do echo %s > /proc/irq/$i/smp_affinity_list; done",
			 list, a->hk_str);
		add(a, worst, "irq", fix, "%d of %d IRQs may run on CPUs %s (irq/N above)",
		    nbad, nirq, a->cpus_str);
	}
out:
	free(line);
	free(cols);
	free(counts);
	fclose(f);
}

/* ---- tasks ----------------------------------------------------------------- */

static const char *policy_name(int p)
{
	switch (p) {
	case SCHED_OTHER: return "OTHER";
	case SCHED_FIFO: return "FIFO";
	case SCHED_RR: return "RR";
#ifdef SCHED_BATCH
	case SCHED_BATCH: return "BATCH";
#endif
#ifdef SCHED_IDLE
	case SCHED_IDLE: return "IDLE";
#endif
	case 6: return "DEADLINE";
	default: return "?";
	}
}

/*
 * A per-CPU kthread that must be there: bound to one CPU and named after
 * it ("ksoftirqd/3", "migration/3", "cpuhp/3", "rcuc/3", "ktimers/3",
 * "kworker/3:1H").
 */
static bool percpu_kthread(const struct osn_audit_task *t)
{
	int cpu = osn_cpuset_last(&t->allowed);
	const char *s = strrchr(t->comm, '/');
	char *end;
	long n;

	if (!t->kthread || osn_cpuset_count(&t->allowed) != 1 || !s)
		return false;
	n = strtol(s + 1, &end, 10);
	if (end == s + 1 || n != cpu)
		return false;
	return !*end || (*end == ':' && !strncmp(t->comm, "kworker/", 8));
}

static void check_tasks(struct osn_audit *a)
{
	char fix[OSN_AUDIT_FIX_LEN], check[48], al[256], percpu[512] = "", users[512] = "";
	char wqmask[256];
	int npercpu = 0, nusers = 0, irqbalance = -1;

	if (!a->tasks) {
		add(a, OSN_AUDIT_NA, "irqbalance", NULL, "tasks not read: %s",
		    a->tasks_why ? a->tasks_why : "?");
		add(a, OSN_AUDIT_NA, "tasks", NULL, "tasks not read: %s",
		    a->tasks_why ? a->tasks_why : "?");
		return;
	}
	osn_format_hexmask(&a->hk, wqmask, sizeof(wqmask));
	for (int i = 0; i < a->nr_tasks; i++) {
		const struct osn_audit_task *t = &a->tasks[i];
		int irqn;

		if (!t->kthread && !strcmp(t->comm, "irqbalance"))
			irqbalance = t->pid;
		if (!osn_cpuset_intersects(&t->allowed, &a->cpus))
			continue;
		osn_format_cpulist(&t->allowed, al, sizeof(al));
		snprintf(check, sizeof(check), "task/%d", t->pid);
		if (percpu_kthread(t)) {
			if (npercpu++ < LIST_MAX)
				append(percpu, sizeof(percpu), " %s", t->comm);
			continue;
		}
		if (!t->kthread && osn_cpuset_covers(&t->allowed, &a->online)) {
			if (nusers++ < LIST_MAX)
				append(users, sizeof(users), " %s(%d)", t->comm, t->pid);
			continue;
		}
		irqn = t->kthread ? osn_irq_thread_irq(t->comm) : -1;
		if (irqn >= 0)
			snprintf(fix, sizeof(fix),
				 "echo %s > /proc/irq/%d/smp_affinity_list (the thread follows its IRQ)",
				 a->hk_str, irqn);
		else if (t->kthread && !strncmp(t->comm, "kworker/u", 9))
			snprintf(fix, sizeof(fix),
				 "echo %s > /sys/devices/virtual/workqueue/cpumask",
				 wqmask);
		else if (t->no_setaffinity)
			snprintf(fix, sizeof(fix),
				 "none: PF_NO_SETAFFINITY, the kernel places it (workqueue rescuers run only when their workqueue is starved of workers)");
		else
			snprintf(fix, sizeof(fix), "taskset -pc %s %d%s", a->hk_str,
				 t->pid, t->kthread ? "" :
				 " (unless it is the workload these CPUs are for)");
		add(a, OSN_AUDIT_WARN, check, fix,
		    "%s %s (pid %d, state %c, %s %d) may run on CPUs %s (allowed %s)",
		    t->kthread ? "kthread" : "task", t->comm, t->pid,
		    t->state ? t->state : '?', policy_name(t->policy), t->prio,
		    a->cpus_str, al);
	}
	if (irqbalance >= 0)
		add(a, OSN_AUDIT_WARN, "irqbalance",
		    "systemctl stop irqbalance, or IRQBALANCE_BANNED_CPULIST=<audited CPUs> in /etc/default/irqbalance",
		    "irqbalance runs (pid %d): it rewrites IRQ affinities", irqbalance);
	else
		add(a, OSN_AUDIT_OK, "irqbalance", NULL, "irqbalance is not running");
	add(a, OSN_AUDIT_OK, "tasks/percpu", NULL,
	    "%d per-CPU kthreads bound to CPUs %s, which must be there:%s%s",
	    npercpu, a->cpus_str, percpu, npercpu > LIST_MAX ? " ..." : "");
	if (nusers) {
		snprintf(fix, sizeof(fix),
			 "boot with isolcpus=domain,%s, or systemctl set-property --runtime init.scope system.slice user.slice AllowedCPUs=%s",
			 a->cpus_str, a->hk_str);
		add(a, OSN_AUDIT_WARN, "tasks/unpinned", fix,
		    "%d user tasks allowed on every CPU may run on CPUs %s:%s%s",
		    nusers, a->cpus_str, users, nusers > LIST_MAX ? " ..." : "");
	} else {
		add(a, OSN_AUDIT_OK, "tasks/unpinned", NULL,
		    "no user task is allowed on every CPU");
	}
}

/* ---- memory, sysctls, workqueues -------------------------------------------- */

/* A file with one integer: how it compares with @good. */
static void check_int(struct osn_audit *a, const char *check, const char *path,
		      const char *absent_why, bool (*good)(long),
		      const char *fix, const char *why)
{
	char buf[256];
	long v;
	int r = rd(a, path, buf, sizeof(buf));

	if (add_unread(a, r, check, path, absent_why))
		return;
	if (osn_parse_long(chomp(buf), &v)) {
		add(a, OSN_AUDIT_NA, check, NULL, "%s: %s", path, osn_last_err());
		return;
	}
	if (good(v))
		add(a, OSN_AUDIT_OK, check, NULL, "%ld (%s)", v, path);
	else
		add(a, OSN_AUDIT_WARN, check, fix, "%ld (%s): %s", v, path, why);
}

static bool is_zero(long v) { return v == 0; }
static bool is_one(long v) { return v == 1; }
static bool not_one(long v) { return v != 1; }
static bool ge_10(long v) { return v >= 10; }
static bool is_minus1(long v) { return v < 0; }

/* A choice file ("always [madvise] never"): warn on @bad. */
static void check_choice(struct osn_audit *a, const char *check,
			 const char *path, const char *bad, const char *fix,
			 const char *why)
{
	char buf[512], sel[64];
	int r = rd(a, path, buf, sizeof(buf));

	if (add_unread(a, r, check, path, "no CONFIG_TRANSPARENT_HUGEPAGE"))
		return;
	if (osn_parse_choice(chomp(buf), '[', sel, sizeof(sel))) {
		add(a, OSN_AUDIT_NA, check, NULL, "%s: %s", path, osn_last_err());
		return;
	}
	if (!strcmp(sel, bad))
		add(a, OSN_AUDIT_WARN, check, fix, "%s (%s): %s", sel, path, why);
	else
		add(a, OSN_AUDIT_OK, check, NULL, "%s (%s)", sel, path);
}

static void check_memory(struct osn_audit *a)
{
	char buf[8192];
	int r, n;

	check_choice(a, "mem/thp_enabled", "/sys/kernel/mm/transparent_hugepage/enabled",
		     "always",
		     "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled (boot: transparent_hugepage=madvise)",
		     "khugepaged scans and collapses pages of every task");
	check_choice(a, "mem/thp_defrag", "/sys/kernel/mm/transparent_hugepage/defrag",
		     "always",
		     "echo madvise > /sys/kernel/mm/transparent_hugepage/defrag",
		     "page faults compact memory synchronously");
	check_int(a, "mem/ksm", "/sys/kernel/mm/ksm/run", "no CONFIG_KSM", not_one,
		  "echo 0 > /sys/kernel/mm/ksm/run",
		  "ksmd scans memory and merges pages");
	r = rd(a, "/proc/swaps", buf, sizeof(buf));
	if (!add_unread(a, r, "mem/swap", "/proc/swaps", "no CONFIG_SWAP")) {
		n = osn_parse_swaps(buf);
		if (n < 0)
			add(a, OSN_AUDIT_NA, "mem/swap", NULL, "%s", osn_last_err());
		else if (n)
			add(a, OSN_AUDIT_WARN, "mem/swap", "swapoff -a",
			    "%d swap areas (/proc/swaps): kswapd and swap-ins stall tasks",
			    n);
		else
			add(a, OSN_AUDIT_OK, "mem/swap", NULL, "no swap (/proc/swaps)");
	}
	check_int(a, "mem/stat_interval", "/proc/sys/vm/stat_interval", "", ge_10,
		  "sysctl -w vm.stat_interval=10",
		  "the vmstat worker runs on each CPU every interval (seconds)");
	/* cgroup v1 only: moving a task moves its memory charges */
	r = rd(a, "/sys/fs/cgroup/memory/memory.move_charge_at_immigrate", buf,
	       sizeof(buf));
	if (r == RD_ABSENT)
		add(a, OSN_AUDIT_NA, "mem/move_charge", NULL,
		    "no cgroup v1 memory controller at /sys/fs/cgroup/memory");
	else
		check_int(a, "mem/move_charge",
			  "/sys/fs/cgroup/memory/memory.move_charge_at_immigrate",
			  "", is_zero,
			  "echo 0 > /sys/fs/cgroup/memory/memory.move_charge_at_immigrate",
			  "moving a task between cgroups moves its charges");
}

static void check_workqueues(struct osn_audit *a)
{
	const char *dir = "/sys/devices/virtual/workqueue";
	char buf[4096], path[1024], full[1024], fix[OSN_AUDIT_FIX_LEN], hkm[256];
	struct osn_cpuset m;
	struct dirent *d;
	int n = 0, bad = 0;
	DIR *dp;
	int r;

	osn_format_hexmask(&a->hk, hkm, sizeof(hkm));
	snprintf(fix, sizeof(fix), "echo %s > %s/cpumask", hkm, dir);
	snprintf(path, sizeof(path), "%s/cpumask", dir);
	r = rd(a, path, buf, sizeof(buf));
	if (!add_unread(a, r, "wq/cpumask", path, "no sysfs?")) {
		if (osn_parse_hexmask(buf, &m))
			add(a, OSN_AUDIT_NA, "wq/cpumask", NULL, "%s: %s", path,
			    osn_last_err());
		else if (osn_cpuset_intersects(&m, &a->cpus))
			add(a, OSN_AUDIT_WARN, "wq/cpumask", fix,
			    "%s (%s) includes CPUs %s: unbound kworkers run there",
			    chomp(buf), path, a->cpus_str);
		else
			add(a, OSN_AUDIT_OK, "wq/cpumask", NULL, "%s (%s)",
			    chomp(buf), path);
	}
	/* the workqueues with WQ_SYSFS have their own cpumask */
	snprintf(full, sizeof(full), "%s%s", a->root, dir);
	dp = opendir(full);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		char check[48];

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpumask", dir, d->d_name);
		if (rd(a, path, buf, sizeof(buf)) != RD_OK)
			continue;
		n++;
		snprintf(check, sizeof(check), "wq/%.40s", d->d_name);
		if (osn_parse_hexmask(buf, &m)) {
			add(a, OSN_AUDIT_NA, check, NULL, "%s: %s", path, osn_last_err());
			continue;
		}
		if (!osn_cpuset_intersects(&m, &a->cpus))
			continue;
		bad++;
		snprintf(fix, sizeof(fix), "echo %s > %s", hkm, path);
		add(a, OSN_AUDIT_WARN, check, fix, "%s (%s) includes CPUs %s",
		    chomp(buf), path, a->cpus_str);
	}
	closedir(dp);
	if (!bad)
		add(a, OSN_AUDIT_OK, "wq/queues", NULL,
		    "none of the %d workqueues with a cpumask in %s includes CPUs %s",
		    n, dir, a->cpus_str);
}

static void check_sysctls(struct osn_audit *a)
{
	char buf[4096], fix[OSN_AUDIT_FIX_LEN];
	struct osn_cpuset m, x;
	long on = 1;
	int r;

	check_int(a, "kernel/timer_migration", "/proc/sys/kernel/timer_migration",
		  "no CONFIG_SMP or CONFIG_NO_HZ_COMMON", is_zero,
		  "sysctl -w kernel.timer_migration=0",
		  "timers may be pulled across CPUs");
	check_int(a, "rcu/expedited", "/sys/kernel/rcu_expedited", "no RCU knobs",
		  is_zero, "echo 0 > /sys/kernel/rcu_expedited",
		  "every grace period is expedited: IPIs to every CPU");
	check_int(a, "rcu/normal", "/sys/kernel/rcu_normal", "no RCU knobs", is_one,
		  "echo 1 > /sys/kernel/rcu_normal (boot: rcupdate.rcu_normal_after_boot=1)",
		  "expedited grace periods send IPIs to every non-idle CPU");
	check_int(a, "sched/rt_runtime", "/proc/sys/kernel/sched_rt_runtime_us",
		  "no CONFIG_RT_GROUP_SCHED knobs", is_minus1,
		  "sysctl -w kernel.sched_rt_runtime_us=-1",
		  "RT throttling stops RT tasks for the rest of each period");
	check_int(a, "watchdog/nmi", "/proc/sys/kernel/nmi_watchdog",
		  "no CONFIG_HARDLOCKUP_DETECTOR", is_zero,
		  "sysctl -w kernel.nmi_watchdog=0 (boot: nmi_watchdog=0)",
		  "the hard-lockup detector's perf NMI fires on every CPU");
	/* watchdog_cpumask matters only while the watchdog runs */
	r = rd(a, "/proc/sys/kernel/watchdog", buf, sizeof(buf));
	if (r == RD_OK && osn_parse_long(chomp(buf), &on))
		on = 1;
	r = rd(a, "/proc/sys/kernel/watchdog_cpumask", buf, sizeof(buf));
	if (add_unread(a, r, "watchdog/cpumask", "/proc/sys/kernel/watchdog_cpumask",
		       "no CONFIG_LOCKUP_DETECTOR"))
		return;
	if (osn_parse_cpulist(chomp(buf), OSN_MAX_CPUS, &m)) {
		add(a, OSN_AUDIT_NA, "watchdog/cpumask", NULL,
		    "/proc/sys/kernel/watchdog_cpumask: %s", osn_last_err());
		return;
	}
	osn_cpuset_and(&x, &m, &a->cpus);
	snprintf(fix, sizeof(fix),
		 "sysctl -w kernel.watchdog_cpumask=%s (boot: nowatchdog)", a->hk_str);
	if (!on)
		add(a, OSN_AUDIT_OK, "watchdog/cpumask", NULL,
		    "watchdog off (/proc/sys/kernel/watchdog 0)");
	else if (!osn_cpuset_empty(&x))
		add(a, OSN_AUDIT_WARN, "watchdog/cpumask", fix,
		    "%s (/proc/sys/kernel/watchdog_cpumask) includes CPUs %s: the watchdog hrtimer fires there",
		    buf, a->cpus_str);
	else
		add(a, OSN_AUDIT_OK, "watchdog/cpumask", NULL,
		    "%s (/proc/sys/kernel/watchdog_cpumask)", buf);
}

/* ---- CPU power -------------------------------------------------------------- */

static void check_power(struct osn_audit *a)
{
	char path[256], buf[256], gov[512] = "", deep[640] = "", fix[OSN_AUDIT_FIX_LEN];
	int ncpufreq = 0, nidle = 0, nbadgov = 0, nbadidle = 0;

	for (int c = 0; c < a->nr_cpus; c++) {
		long lat = -1, dis = 0;
		char name[64];

		if (!osn_cpuset_isset(&a->cpus, c))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
		if (rd(a, path, buf, sizeof(buf)) == RD_OK) {
			ncpufreq++;
			if (strcmp(chomp(buf), "performance")) {
				if (nbadgov++ < LIST_MAX)
					append(gov, sizeof(gov), " cpu%d:%s", c, buf);
			}
		}
		for (int s = 0; s < 32; s++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
				 c, s);
			if (rd(a, path, buf, sizeof(buf)) != RD_OK)
				break;
			if (!s)
				nidle++;
			if (osn_parse_long(chomp(buf), &lat))
				continue;
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
				 c, s);
			if (rd(a, path, buf, sizeof(buf)) != RD_OK ||
			    osn_parse_long(chomp(buf), &dis))
				dis = 0;
			if (dis || lat <= IDLE_LATENCY_US)
				continue;
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
				 c, s);
			if (rd(a, path, name, sizeof(name)) != RD_OK)
				osn_strlcpy(name, "?", sizeof(name));
			if (nbadidle++ < LIST_MAX)
				append(deep, sizeof(deep), " cpu%d:%s(%ld us)", c,
				       chomp(name), lat);
		}
	}
	if (!ncpufreq)
		add(a, OSN_AUDIT_NA, "cpu/governor", NULL,
		    "no cpufreq on CPUs %s (/sys/devices/system/cpu/cpuN/cpufreq absent)",
		    a->cpus_str);
	else if (nbadgov) {
		snprintf(fix, sizeof(fix), "cpupower -c %s frequency-set -g performance",
			 a->cpus_str);
		add(a, OSN_AUDIT_WARN, "cpu/governor", fix,
		    "governor not performance (cpuN/cpufreq/scaling_governor):%s%s: frequency changes stall the CPU",
		    gov, nbadgov > LIST_MAX ? " ..." : "");
	} else {
		add(a, OSN_AUDIT_OK, "cpu/governor", NULL,
		    "performance on CPUs %s (cpuN/cpufreq/scaling_governor)",
		    a->cpus_str);
	}
	if (!nidle)
		add(a, OSN_AUDIT_NA, "cpu/idle", NULL,
		    "no cpuidle states on CPUs %s (/sys/devices/system/cpu/cpuN/cpuidle absent)",
		    a->cpus_str);
	else if (nbadidle) {
		snprintf(fix, sizeof(fix),
			 "cpupower -c %s idle-set -D %d (boot: processor.max_cstate=1 intel_idle.max_cstate=0)",
			 a->cpus_str, IDLE_LATENCY_US);
		add(a, OSN_AUDIT_WARN, "cpu/idle", fix,
		    "idle states with exit latency > %d us enabled (cpuN/cpuidle/stateK):%s%s",
		    IDLE_LATENCY_US, deep, nbadidle > LIST_MAX ? " ..." : "");
	} else {
		add(a, OSN_AUDIT_OK, "cpu/idle", NULL,
		    "no enabled idle state exits in more than %d us on CPUs %s",
		    IDLE_LATENCY_US, a->cpus_str);
	}
}

/* ---- the kernel itself ----------------------------------------------------- */

static void check_kernel(struct osn_audit *a)
{
	const char *pfix =
		"boot with preempt=full (PREEMPT_DYNAMIC kernels), or a PREEMPT_RT kernel";
	char buf[4096], sel[64];
	int r;

	/* preemption model: debugfs (root), else /sys/kernel/realtime, uname -v */
	r = rd(a, "/sys/kernel/debug/sched/preempt", buf, sizeof(buf));
	if (r == RD_OK && !osn_parse_choice(chomp(buf), '(', sel, sizeof(sel))) {
		if (!strcmp(sel, "full") || !strcmp(sel, "rt"))
			add(a, OSN_AUDIT_OK, "kernel/preempt", NULL,
			    "%s (/sys/kernel/debug/sched/preempt: %s)", sel, buf);
		else
			add(a, OSN_AUDIT_WARN, "kernel/preempt", pfix,
			    "%s (/sys/kernel/debug/sched/preempt: %s): kernel code runs unpreempted for long",
			    sel, buf);
	} else if (rd(a, "/sys/kernel/realtime", buf, sizeof(buf)) == RD_OK &&
		   !strcmp(chomp(buf), "1")) {
		add(a, OSN_AUDIT_OK, "kernel/preempt", NULL,
		    "PREEMPT_RT (/sys/kernel/realtime 1)");
	} else if (rd(a, "/proc/sys/kernel/version", buf, sizeof(buf)) == RD_OK) {
		chomp(buf);
		if (strstr(buf, "PREEMPT_RT"))
			add(a, OSN_AUDIT_OK, "kernel/preempt", NULL,
			    "PREEMPT_RT (/proc/sys/kernel/version: %s)", buf);
		else if (strstr(buf, "PREEMPT_DYNAMIC"))
			add(a, OSN_AUDIT_NA, "kernel/preempt", NULL,
			    "PREEMPT_DYNAMIC (/proc/sys/kernel/version: %s); the model in force is in /sys/kernel/debug/sched/preempt%s",
			    buf, r == RD_ROOT ? ", which needs root" :
			    r == RD_ABSENT ? " (debugfs not mounted)" : "");
		else if (strstr(buf, " PREEMPT "))
			add(a, OSN_AUDIT_OK, "kernel/preempt", NULL,
			    "PREEMPT (/proc/sys/kernel/version: %s)", buf);
		else
			add(a, OSN_AUDIT_WARN, "kernel/preempt", pfix,
			    "no PREEMPT (/proc/sys/kernel/version: %s)", buf);
	} else {
		add(a, OSN_AUDIT_NA, "kernel/preempt", NULL,
		    "neither /sys/kernel/debug/sched/preempt nor /proc/sys/kernel/version could be read");
	}

	/* /sys/devices/system/cpu/nohz_full exists with CONFIG_NO_HZ_FULL */
	r = rd(a, "/sys/devices/system/cpu/nohz_full", buf, sizeof(buf));
	if (r == RD_OK)
		add(a, OSN_AUDIT_OK, "kernel/no_hz_full", NULL,
		    "CONFIG_NO_HZ_FULL=y (/sys/devices/system/cpu/nohz_full: %s)",
		    chomp(buf));
	else if (r == RD_ABSENT)
		add(a, OSN_AUDIT_WARN, "kernel/no_hz_full",
		    "a kernel built with CONFIG_NO_HZ_FULL=y",
		    "no /sys/devices/system/cpu/nohz_full: CONFIG_NO_HZ_FULL is off, nohz_full= does nothing");
	else
		add_unread(a, r, "kernel/no_hz_full", "/sys/devices/system/cpu/nohz_full", "");

	/* upstream osnoise: osn's numbers can be compared with rtla's */
	r = rd(a, "/sys/kernel/tracing/available_tracers", buf, sizeof(buf));
	if (r == RD_ABSENT)
		r = rd(a, "/sys/kernel/debug/tracing/available_tracers", buf,
		       sizeof(buf));
	if (r == RD_OK && strstr(buf, "osnoise"))
		add(a, OSN_AUDIT_OK, "kernel/osnoise", NULL,
		    "the osnoise tracer is available (available_tracers): rtla osnoise top -c %s measures the same CPUs for comparison",
		    a->cpus_str);
	else if (r == RD_OK)
		add(a, OSN_AUDIT_NA, "kernel/osnoise", NULL,
		    "no osnoise in available_tracers (CONFIG_OSNOISE_TRACER off)");
	else
		add_unread(a, r, "kernel/osnoise", "/sys/kernel/tracing/available_tracers",
			   "tracefs not mounted");
}

void osn_audit_run(struct osn_audit *a)
{
	check_boot(a);
	check_irqs(a);
	check_tasks(a);
	check_memory(a);
	check_workqueues(a);
	check_sysctls(a);
	check_power(a);
	check_kernel(a);
}

/* ---- output ---------------------------------------------------------------- */

const struct osn_audit_finding *osn_audit_find(const struct osn_audit *a,
					       const char *check)
{
	for (int i = 0; i < a->n; i++)
		if (!strcmp(a->f[i].check, check))
			return &a->f[i];
	return NULL;
}

int osn_audit_exit_status(const struct osn_audit *a)
{
	for (int i = 0; i < a->n; i++)
		if (a->f[i].status == OSN_AUDIT_FAIL)
			return 1;
	return 0;
}

static void counts(const struct osn_audit *a, int c[4])
{
	c[0] = c[1] = c[2] = c[3] = 0;
	for (int i = 0; i < a->n; i++)
		c[a->f[i].status]++;
}

void osn_audit_print(const struct osn_audit *a, FILE *f)
{
	int c[4];

	fprintf(f, "osn audit: CPUs %s (%s); housekeeping CPUs %s\n",
		a->cpus_str, a->cpus_from, a->hk_str[0] ? a->hk_str : "none");
	for (int i = 0; i < a->n; i++) {
		const struct osn_audit_finding *x = &a->f[i];

		fprintf(f, "%-4s  %-22s %s", osn_audit_status_name(x->status),
			x->check, x->evidence);
		if (x->fix[0])
			fprintf(f, "  => fix: %s", x->fix);
		fputc('\n', f);
	}
	if (a->nr_unreadable) {
		fputs("not read without root:", f);
		for (int i = 0; i < a->nr_unreadable; i++)
			fprintf(f, " %s", a->unreadable[i]);
		fputc('\n', f);
	}
	counts(a, c);
	fprintf(f, "%d ok, %d warn, %d fail, %d n/a\n", c[0], c[1], c[2], c[3]);
}

void osn_audit_print_json(const struct osn_audit *a, FILE *f)
{
	struct osn_json j;
	int c[4];

	osn_json_init(&j, f, true);
	osn_json_obj_begin(&j);
	osn_json_kstr(&j, "cpus", a->cpus_str);
	osn_json_kstr(&j, "cpus_from", a->cpus_from);
	osn_json_kstr(&j, "housekeeping", a->hk_str);
	osn_json_key(&j, "checks");
	osn_json_arr_begin(&j);
	for (int i = 0; i < a->n; i++) {
		const struct osn_audit_finding *x = &a->f[i];

		osn_json_obj_begin(&j);
		osn_json_kstr(&j, "check", x->check);
		osn_json_kstr(&j, "status", osn_audit_status_name(x->status));
		osn_json_kstr(&j, "evidence", x->evidence);
		osn_json_key(&j, "fix");
		if (x->fix[0])
			osn_json_str(&j, x->fix);
		else
			osn_json_null(&j);
		osn_json_obj_end(&j);
	}
	osn_json_arr_end(&j);
	osn_json_key(&j, "not_read_without_root");
	osn_json_arr_begin(&j);
	for (int i = 0; i < a->nr_unreadable; i++)
		osn_json_str(&j, a->unreadable[i]);
	osn_json_arr_end(&j);
	counts(a, c);
	osn_json_key(&j, "summary");
	osn_json_obj_begin(&j);
	osn_json_ku64(&j, "ok", c[0]);
	osn_json_ku64(&j, "warn", c[1]);
	osn_json_ku64(&j, "fail", c[2]);
	osn_json_ku64(&j, "n/a", c[3]);
	osn_json_obj_end(&j);
	osn_json_ku64(&j, "exit_status", osn_audit_exit_status(a));
	osn_json_obj_end(&j);
}
