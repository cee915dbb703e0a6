/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_cmd.h - osn compare A.json B.json [C.json ...]: the command
 * (compare_cmd.c) and its outputs (render_compare.c text and JSON,
 * report_compare.c the HTML page).  Pure: it reads files and writes to
 * the FILE *s it is given, so the unit tests run it whole.
 */
#ifndef OSN_COMPARE_CMD_H
#define OSN_COMPARE_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "compare.h"

/* argv[0] is "compare"; 0, or 1 after one line "osn: compare: ..." on @err. */
int osn_compare_main(int argc, char **argv, FILE *out, FILE *err);

/* "A", "B", ... */
const char *osn_cmp_label(size_t i);
/* @m of @cpu in @r (osn_cmp_find() + osn_cmp_value()). */
bool osn_find_value(const struct osn_cmp_run *r, int cpu, int m, double *v);

/* The runs, what differs, the verdicts, the tables per CPU. */
void osn_render_compare(FILE *f, const struct osn_cmp_run *runs, size_t n);
/* Does a run have @m on @cpu, other than 0?  (The tables' rows.) */
bool osn_cmp_row_shown(const struct osn_cmp_run *runs, size_t n, int cpu,
		       int m);
/*
 * The --report page: the verdicts, the runs, per CPU the histograms
 * overlaid, the classes and culprits side by side, the numbers.  0, or
 * -1 with osn_err() when @f had an error.
 */
int osn_report_compare(FILE *f, const struct osn_cmp_run *runs, size_t n);
/* The same as one JSON document ("schema": OSN_CMP_SCHEMA). */
void osn_json_compare(FILE *f, const struct osn_cmp_run *runs, size_t n);

#endif
