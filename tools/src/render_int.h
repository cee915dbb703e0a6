/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_int.h - what the renderers (render*.c) share: a right-aligned
 * text table, the JSON head and tail of every command's report, and the
 * histogram bodies that --causes draws again per culprit.  A new
 * command's renderer (render_<cmd>.c) builds on these.
 */
#ifndef OSN_RENDER_INT_H
#define OSN_RENDER_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "render.h"

/* ---- render.c --------------------------------------------------------------- */

#define OSN_CELL	40		/* bytes of a cell, its NUL included */

struct osn_table {
	int ncols, nrows;
	const char *const *head;	/* column titles */
	const bool *left;		/* left-aligned columns */
	char *cells;
	int *w;
	bool no_head;			/* osn_table_print() without the titles */
};

/* -1 when out of memory (osn_table_free() it all the same) */
int osn_table_init(struct osn_table *t, int ncols, int nrows,
		   const char *const *head, const bool *left);
void osn_table_free(struct osn_table *t);
/* The cell of row @r, column @c: OSN_CELL bytes to write. */
char *osn_table_cell(struct osn_table *t, int r, int c);
/* Compute the column widths; the table's width. */
int osn_table_layout(struct osn_table *t);
void osn_table_print(FILE *f, struct osn_table *t);

/* "schema", "tool", "version", "kernel", "duration_s", "time_unit", "config" */
void osn_json_head(struct osn_json *j, const char *tool,
		   const struct osn_report_info *info);
/* "events_lost", "stopped", "stop", then "causes" and "advice" if any */
void osn_json_tail(struct osn_json *j, const struct osn_report_info *info);

/* ---- render_hist.c ------------------------------------------------------------ */

/* The rows of @h's histogram and its first @nsum summary rows. */
void osn_hist_body(FILE *f, const struct osn_hist *h,
		   const struct osn_params *p, int nsum);
/* --layout rows, or auto with more than OSN_HIST_COLUMNS_MAX @ncpus. */
bool osn_layout_rows(enum osn_layout l, size_t ncpus);
/* One column's buckets, as JSON. */
void osn_json_buckets(struct osn_json *j, const struct osn_hist *h,
		      const struct osn_hist_cpu *c, bool with_zeros);

/* ---- render_causes.c ---------------------------------------------------------- */

/* A part's source: "name:id", or "name" (an NMI, no id). */
void osn_part_source_str(char *buf, size_t len, const struct osn_part *p);
/* Under a part, one "<- kind function, verb origin (xN)" line a cause. */
void osn_render_part_causes(FILE *f, const struct osn_part *p);
/* A part's "causes" and "other_causes". */
void osn_json_part_causes(struct osn_json *j, const struct osn_part *p);
/* "causes": the culprits of each measured CPU. */
void osn_json_culprits(struct osn_json *j, const struct osn_report_info *info);

#endif
