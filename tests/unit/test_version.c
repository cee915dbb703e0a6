// SPDX-License-Identifier: GPL-2.0
/*
 * One version: OSN_VERSION (osn --version, the module's MODULE_VERSION) is
 * what the man pages' .TH lines, dkms.conf's PACKAGE_VERSION and
 * debian/changelog say.  The
 * files are read from the source tree (OSN_TOP_DIR, set by tools/Makefile).
 */
#include <ctype.h>
#include <glob.h>

#include "harness.h"
#include "osn/osn_abi.h"

#ifndef OSN_TOP_DIR
#define OSN_TOP_DIR "."
#endif

/* The first line of @path that starts with @prefix, in @buf; NULL if none. */
static char *find_line(const char *path, const char *prefix, char *buf,
		       size_t len)
{
	FILE *f = fopen(path, "r");
	char *found = NULL;

	if (!f)
		return NULL;
	while (!found && fgets(buf, len, f))
		if (!strncmp(buf, prefix, strlen(prefix)))
			found = buf;
	fclose(f);
	if (found)
		found[strcspn(found, "\n")] = '\0';
	return found;
}

/*
 * Argument @n (from 0) of a roff request line ".TH OSN 1 "2025" "osn 0.1.0"",
 * quotes removed, in @out; "" when there are fewer.
 */
static void roff_arg(const char *line, int n, char *out, size_t len)
{
	const char *p = line + strcspn(line, " \t");

	out[0] = '\0';
	for (int i = 0; *p; i++) {
		const char *start;
		size_t l;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (*p == '"') {
			start = ++p;
			l = strcspn(p, "\"");
		} else {
			start = p;
			l = strcspn(p, " \t");
		}
		p = start + l + (start[l] == '"');
		if (i == n) {
			snprintf(out, len, "%.*s", (int)l, start);
			return;
		}
	}
}

TEST(roff_arg_parsing)
{
	char v[64];

	roff_arg(".TH OSN 1 \"2025\" \"osn 1.2.3\" \"User Commands\"", 3, v,
		 sizeof(v));
	CHECK_STR(v, "osn 1.2.3");
	roff_arg(".TH OSN 1", 3, v, sizeof(v));
	CHECK_STR(v, "");
}

TEST(man_pages)
{
	char line[512], v[128];
	glob_t g;

	CHECK_EQ(glob(OSN_TOP_DIR "/Documentation/man/*.1", 0, NULL, &g), 0);
	CHECK(g.gl_pathc >= 3);		/* osn, osn-top, osn-hist */
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *th = find_line(g.gl_pathv[i], ".TH ", line,
					   sizeof(line));

		CHECK_HAS(th, ".TH ");
		roff_arg(th ? th : "", 3, v, sizeof(v));
		if (strcmp(v, "osn " OSN_VERSION))
			printf("  %s: .TH says \"%s\", OSN_VERSION is %s\n",
			       g.gl_pathv[i], v, OSN_VERSION);
		CHECK_STR(v, "osn " OSN_VERSION);
	}
	globfree(&g);
}

/* VALUE or "VALUE" -> VALUE, in place */
static char *unquote(char *s)
{
	size_t l = strlen(s);

	if (l >= 2 && s[0] == '"' && s[l - 1] == '"') {
		s[l - 1] = '\0';
		return s + 1;
	}
	return s;
}

TEST(dkms_conf)
{
	const char *path = OSN_TOP_DIR "/dkms.conf";
	char line[512];
	char *v = find_line(path, "PACKAGE_VERSION=", line, sizeof(line));

	CHECK(v);
	if (!v)
		return;
	v = unquote(v + strlen("PACKAGE_VERSION="));
	if (strcmp(v, OSN_VERSION))
		printf("  %s: PACKAGE_VERSION is \"%s\", OSN_VERSION is %s\n",
		       path, v, OSN_VERSION);
	CHECK_STR(v, OSN_VERSION);
}

/* debian/changelog's first entry, "osn (VERSION) ...", is OSN_VERSION. */
TEST(debian_changelog)
{
	const char *path = OSN_TOP_DIR "/debian/changelog";
	char line[512], v[128] = "";

	CHECK(find_line(path, "osn (", line, sizeof(line)));
	sscanf(line, "osn (%127[^)])", v);
	if (strcmp(v, OSN_VERSION))
		printf("  %s: version is \"%s\", OSN_VERSION is %s\n",
		       path, v, OSN_VERSION);
	CHECK_STR(v, OSN_VERSION);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(roff_arg_parsing);
	RUN(man_pages);
	RUN(dkms_conf);
	RUN(debian_changelog);
	return h_done(argv[0]);
}
