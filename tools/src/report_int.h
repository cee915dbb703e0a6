/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_int.h - what the --report page's parts share (report.c, the
 * charts and tables; report_summary.c, the verdict and the culprits):
 * the charts' geometry and the table cells.
 */
#ifndef OSN_REPORT_INT_H
#define OSN_REPORT_INT_H

#include "report.h"
#include "util.h"

#define W		760.0	/* chart width */
#define H		220.0	/* chart height */
#define ML		64.0	/* margins: left (y labels), right, top, bottom */
#define MR		16.0
#define MT		26.0
#define MB		36.0
#define NTICKS		16
/* past this many CPUs, one heat map instead of a time chart per CPU */
#define OSN_REPORT_HEAT_CPUS	16

/* report_heat.c: the heat map, its CSS, the shade of a value */
int osn_report_heatmap(FILE *f, const struct osn_report *r);
extern const char osn_report_heat_css[];
int osn_report_heat_level(uint64_t v, uint64_t lo, uint64_t hi);

static inline void us(uint64_t ns, char *buf, size_t len)
{
	osn_format_us3(ns, buf, len);
}

static inline void num(double v, char *buf, size_t len)
{
	svg_fmt_num(v, buf, len);
}

static inline void td_str(FILE *f, const char *s)
{
	fputs("<td>", f);
	svg_escape(f, s);
	fputs("</td>", f);
}

static inline void td_u64(FILE *f, uint64_t v)
{
	fprintf(f, "<td>%llu</td>", (unsigned long long)v);
}

static inline void td_us(FILE *f, uint64_t ns)
{
	char b[32];

	us(ns, b, sizeof(b));
	td_str(f, b);
}

/* The verdict: a line a CPU, at the top of the page. */
void osn_report_verdict(FILE *f, const struct osn_report *r,
			const struct osn_report_info *info);
/* --causes: per CPU, a chart and a table of its top culprits by time. */
void osn_report_culprits(FILE *f, const struct osn_report *r,
			 const struct osn_causes *cs);

#endif
