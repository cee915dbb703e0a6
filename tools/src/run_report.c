// SPDX-License-Identifier: GPL-2.0
/*
 * run_report.c - --report in a run (see run.h): the report's data
 * (report.c) from the start of collection, the stop marked in its
 * charts, the HTML page at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "osn/osn_abi.h"
#include "run.h"

int osn_run_report_start(struct osn_tool *t)
{
	if (!(t->ops->parts & OSN_PART_REPORT) || !t->out.report_f)
		return 0;
	t->rep = malloc(sizeof(*t->rep));
	if (!t->rep || osn_report_init(t->rep, t->cpus, t->ncpus,
				       t->nr_cpus)) {
		free(t->rep);
		t->rep = NULL;
		return osn_err("out of memory");
	}
	t->rep->period_us = t->p->period_us;
	t->rep->runtime_us = t->p->runtime_us;
	return 0;
}

void osn_run_report_stop(struct osn_tool *t, int cpu)
{
	if (t->rep)
		osn_report_stop(t->rep, cpu);
}

int osn_run_report_write(struct osn_tool *t)
{
	struct osn_report_meta meta = { .version = OSN_VERSION };
	struct osn_report_info info;
	struct utsname u;
	int ret;

	if (!t->out.report_f || !t->rep)
		return 0;
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	meta.host = u.nodename;
	meta.kernel = u.release;
	meta.exit_reason = t->stopped ? "stop condition hit" :
		osn_interrupted ? "interrupted (signal)" :
		t->p->duration_s ? "duration (-d) reached" : "ended";
	osn_tool_report_info(t, &info);
	ret = osn_report_write(t->out.report_f, t->rep, &info, &meta);
	if (fclose(t->out.report_f) && !ret)
		ret = osn_err("cannot write %s: %s", t->p->report_file,
			      strerror(errno));
	t->out.report_f = NULL;
	if (!ret)
		fprintf(t->out.text, "  Report written to %s\n",
			t->p->report_file);
	return ret;
}

void osn_run_report_free(struct osn_tool *t)
{
	if (t->rep)
		osn_report_free(t->rep);
	free(t->rep);
	t->rep = NULL;
}
