// SPDX-License-Identifier: GPL-2.0
/*
 * audit_print.c - osn audit's results: the findings looked up, the exit
 * status, and the text and JSON reports.
 */
#include <string.h>

#include "audit.h"
#include "json.h"

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
	osn_json_ku64(&j, "schema", OSN_JSON_SCHEMA);
	osn_json_kstr(&j, "tool", "osn audit");
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
