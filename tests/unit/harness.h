/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - the unit tests' tiny assertion harness.
 *
 *	TEST(name) { CHECK(x); CHECK_EQ(a, b); CHECK_STR(a, b); }
 *	int main(int argc, char **argv) { RUN(name); return h_done(argv[0]); }
 *
 * Each binary prints "<binary>: N passed, N failed"; tests/unit/run.sh adds
 * them up.  Golden files live in tests/unit/golden/; run with
 * OSN_UPDATE_GOLDEN=1 to (re)write them (such a run fails: it checks nothing).
 */
#ifndef OSN_HARNESS_H
#define OSN_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int h_pass, h_fail;
static const char *h_test;

#define CHECK(cond) do {						\
	if (cond) {							\
		h_pass++;						\
	} else {							\
		h_fail++;						\
		printf("  FAIL %s (%s:%d): %s\n", h_test, __FILE__,	\
		       __LINE__, #cond);				\
	}								\
} while (0)

#define CHECK_EQ(a, b) do {						\
	unsigned long long _a = (unsigned long long)(a);		\
	unsigned long long _b = (unsigned long long)(b);		\
	if (_a == _b) {							\
		h_pass++;						\
	} else {							\
		h_fail++;						\
		printf("  FAIL %s (%s:%d): %s == %llu, expected %s == %llu\n", \
		       h_test, __FILE__, __LINE__, #a, _a, #b, _b);	\
	}								\
} while (0)

#define CHECK_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (_a && _b && !strcmp(_a, _b)) {				\
		h_pass++;						\
	} else {							\
		h_fail++;						\
		printf("  FAIL %s (%s:%d): %s is \"%s\", expected \"%s\"\n", \
		       h_test, __FILE__, __LINE__, #a, _a ? _a : "(null)", \
		       _b ? _b : "(null)");				\
	}								\
} while (0)

/* substring */
#define CHECK_HAS(hay, needle) do {					\
	const char *_h = (hay), *_n = (needle);				\
	if (_h && strstr(_h, _n)) {					\
		h_pass++;						\
	} else {							\
		h_fail++;						\
		printf("  FAIL %s (%s:%d): \"%s\" does not contain \"%s\"\n", \
		       h_test, __FILE__, __LINE__, _h ? _h : "(null)", _n); \
	}								\
} while (0)

#define TEST(name) static void name(void)
#define RUN(name) do { h_test = #name; name(); } while (0)

static inline int h_done(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	printf("%s: %d passed, %d failed\n", base ? base + 1 : argv0, h_pass,
	       h_fail);
	return h_fail ? 1 : 0;
}

/* ---- captured output ------------------------------------------------------ */

struct h_buf {
	char *text;
	size_t len;
	FILE *f;
};

static inline FILE *h_open(struct h_buf *b)
{
	b->text = NULL;
	b->len = 0;
	b->f = open_memstream(&b->text, &b->len);
	return b->f;
}

static inline char *h_close(struct h_buf *b)
{
	fclose(b->f);
	return b->text;
}

#ifndef OSN_UNIT_DIR
#define OSN_UNIT_DIR "tests/unit"
#endif

/* Compare @text with golden/@name (or write it with OSN_UPDATE_GOLDEN=1). */
static inline void h_golden(const char *name, const char *text, int line)
{
	char path[1024];
	FILE *f;
	char *want = NULL;
	size_t cap = 0, n;

	snprintf(path, sizeof(path), "%s/golden/%s", OSN_UNIT_DIR, name);
	if (getenv("OSN_UPDATE_GOLDEN")) {
		/*
		 * Writing a golden file checks nothing: it counts as a failure,
		 * so that an update run can never pass as a test run.
		 */
		f = fopen(path, "w");
		if (f) {
			fputs(text, f);
			fclose(f);
		}
		h_fail++;
		printf("  FAIL %s (line %d): OSN_UPDATE_GOLDEN is set: wrote %s, checked nothing\n",
		       h_test, line, path);
		return;
	}
	f = fopen(path, "r");
	if (!f) {
		h_fail++;
		printf("  FAIL %s (line %d): no golden file %s (OSN_UPDATE_GOLDEN=1 writes it)\n",
		       h_test, line, path);
		return;
	}
	n = getdelim(&want, &cap, '\0', f);
	fclose(f);
	if (n != (size_t)-1 && !strcmp(want, text)) {
		h_pass++;
	} else {
		const char *a = text, *b = want ? want : "";
		int ln = 1;

		while (*a && *a == *b) {
			if (*a == '\n')
				ln++;
			a++;
			b++;
		}
		h_fail++;
		printf("  FAIL %s (line %d): output differs from %s at line %d\n"
		       "---- got ----\n%s---- expected ----\n%s-------------\n",
		       h_test, line, path, ln, text, want ? want : "");
	}
	free(want);
}
#define CHECK_GOLDEN(name, text) h_golden(name, text, __LINE__)

#endif
