// SPDX-License-Identifier: GPL-2.0
/*
 * compare_cmd.c - osn compare (see compare_cmd.h): its options, the runs
 * loaded and checked against each other, and where each output goes.
 */
#include <errno.h>
#include <string.h>

#include "compare_cmd.h"
#include "util.h"

static const char usage[] =
"usage: osn compare [--json[=FILE]] [--report FILE.html] A.json B.json [C.json ...]\n"
"\n"
"  Compares runs saved by osn top, hist, hwnoise (--json=FILE) side by\n"
"  side, or runs of osn timerlat: per CPU and for all CPUs, availability,\n"
"  max single, samples per second, percentiles, count and time per class\n"
"  and the culprits (--causes), each with its change against A, a verdict\n"
"  per CPU, and what differs in the runs' settings.  See osn-compare(1).\n"
"\n"
"  --json[=FILE]   the comparison as JSON to FILE, or to stdout instead\n"
"                  of the text\n"
"  --report FILE.html  one HTML page: the verdicts, per CPU the runs'\n"
"                  histograms overlaid, their classes and culprits side\n"
"                  by side, the numbers\n";

struct cmp_opts {
	const char *files[OSN_CMP_RUNS];
	size_t n;
	bool json;
	const char *json_file;		/* NULL: stdout */
	const char *report_file;	/* --report, or NULL */
};

static int parse(struct cmp_opts *o, int argc, char **argv)
{
	bool files_only = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (files_only || a[0] != '-' || !a[1]) {
			if (o->n == OSN_CMP_RUNS)
				return osn_err("%d runs at most",
					       OSN_CMP_RUNS);
			o->files[o->n++] = a;
		} else if (!strcmp(a, "--")) {
			files_only = true;
		} else if (!strcmp(a, "--json")) {
			o->json = true;
		} else if (!strncmp(a, "--json=", 7) && a[7]) {
			o->json = true;
			o->json_file = a + 7;
		} else if (!strcmp(a, "--report") && i + 1 < argc) {
			o->report_file = argv[++i];
		} else if (!strncmp(a, "--report=", 9) && a[9]) {
			o->report_file = a + 9;
		} else {
			return osn_err("unknown option '%s' (osn compare -h)",
				       a);
		}
	}
	if (o->n < 2)
		return osn_err("needs two runs at least (osn compare A.json B.json)");
	return 0;
}

/* osnoise runs compare with each other, timerlat runs too, not across. */
static int check_kinds(const struct osn_cmp_run *runs, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (runs[i].kind != runs[0].kind) {
			const struct osn_cmp_run *t = runs[i].kind ==
				OSN_CMP_TIMERLAT ? &runs[i] : &runs[0];
			const struct osn_cmp_run *o = t == runs ? &runs[i] : &runs[0];

			return osn_err("%s is a timerlat run (%s): not comparable with osnoise runs (%s)",
				       t->path, t->tool, o->path);
		}
	return 0;
}

static int write_json(const struct cmp_opts *o, const struct osn_cmp_run *runs,
		      FILE *out)
{
	FILE *f = o->json_file ? fopen(o->json_file, "w") : out;

	if (!f)
		return osn_err("cannot write %s: %s", o->json_file,
			       strerror(errno));
	osn_json_compare(f, runs, o->n);
	if (f != out && fclose(f))
		return osn_err("cannot write %s: %s", o->json_file,
			       strerror(errno));
	return 0;
}

static int write_report(const struct cmp_opts *o,
			const struct osn_cmp_run *runs)
{
	FILE *f = fopen(o->report_file, "w");
	int ret;

	if (!f)
		return osn_err("cannot write %s: %s", o->report_file,
			       strerror(errno));
	ret = osn_report_compare(f, runs, o->n);
	if (fclose(f) && !ret)
		ret = osn_err("cannot write %s: %s", o->report_file,
			      strerror(errno));
	return ret;
}

int osn_compare_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct osn_cmp_run runs[OSN_CMP_RUNS];
	struct cmp_opts o = { .n = 0 };
	size_t loaded = 0;
	int ret = 0;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(usage, out);
		return 0;
	}
	if (parse(&o, argc, argv))
		goto fail;
	for (; loaded < o.n; loaded++)
		if (osn_cmp_load(&runs[loaded], o.files[loaded]))
			goto fail;
	if (check_kinds(runs, o.n))
		goto fail;
	if (!o.json || o.json_file)
		osn_render_compare(out, runs, o.n);
	if (o.json && write_json(&o, runs, out))
		goto fail;
	if (o.report_file && write_report(&o, runs))
		goto fail;
	goto out;
fail:
	fprintf(err, "osn: compare: %s\n", osn_last_err());
	ret = 1;
out:
	for (size_t i = 0; i < loaded; i++)
		osn_cmp_free(&runs[i]);
	return ret;
}
