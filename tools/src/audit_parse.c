// SPDX-License-Identifier: GPL-2.0
/*
 * audit_parse.c - osn audit's parsers of the text it reads: the kernel
 * command line, isolcpus=, hex CPU masks, choice files, /proc/interrupts,
 * /proc/swaps and IRQ thread names (see audit.h).  Strings in, values
 * out: no file is read here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"

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
