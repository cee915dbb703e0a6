// SPDX-License-Identifier: GPL-2.0
/*
 * run_out.c - where a run's output goes (see run.h): the one place that
 * routes text, JSON, the report and the saved trace between stdout,
 * stderr and files.
 */
#include <errno.h>
#include <string.h>

#include "run.h"

void osn_run_out_init(struct osn_tool *t)
{
	struct osn_params *p = t->p;

	t->out.json_stdout = p->json && !p->json_file;
	t->out.text = t->out.json_stdout ? stderr : stdout;
	/* the JSON takes stdout: only the final report, on stdout */
	if (t->out.json_stdout)
		p->quiet = true;
}

bool osn_run_out_text_report(const struct osn_tool *t)
{
	return !t->out.json_stdout;
}

static FILE *open_output(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		osn_err("cannot write %s: %s", path, strerror(errno));
	return f;
}

int osn_run_out_open(struct osn_tool *t)
{
	struct osn_output *o = &t->out;

	if (t->p->json_file) {
		o->json_f = open_output(t->p->json_file);
		if (!o->json_f)
			return -1;
	}
	if (t->p->trace_file) {
		o->trace_f = open_output(t->p->trace_file);
		if (!o->trace_f)
			return -1;
	}
	if (t->p->report_file) {
		o->report_f = open_output(t->p->report_file);
		if (!o->report_f)
			return -1;
	}
	return 0;
}

int osn_run_out_close(struct osn_tool *t, int ret)
{
	struct osn_output *o = &t->out;

	if (o->json_f)
		fclose(o->json_f);
	if (o->report_f)
		fclose(o->report_f);
	if (o->trace_f && fclose(o->trace_f) && ret != 1) {
		osn_warn("cannot write %s: %s", t->p->trace_file,
			 strerror(errno));
		ret = 1;
	}
	return ret;
}

/* The --json destination (stdout or the file); NULL with osn_err(). */
static FILE *json_open(struct osn_tool *t)
{
	if (!t->p->json_file)
		return stdout;
	if (!t->out.json_f)
		osn_err("cannot write %s", t->p->json_file);
	return t->out.json_f;
}

static int json_close(struct osn_tool *t, FILE *f)
{
	if (f == stdout) {
		fflush(f);
		return 0;
	}
	t->out.json_f = NULL;
	if (fclose(f))
		return osn_err("cannot write %s: %s", t->p->json_file,
			       strerror(errno));
	return 0;
}

int osn_run_final_report(struct osn_tool *t, const struct osn_final_report *r)
{
	bool text = osn_run_out_text_report(t);
	struct osn_report_info info;
	FILE *f;

	osn_tool_report_info(t, &info);
	if (text)
		r->table(t);
	if (t->stopped && r->stop)
		r->stop(t);
	else if (t->stopped)
		osn_render_stop(t->out.text, info.why);
	if (info.sources && text)
		osn_render_advice(t->out.text, info.sources);
	if (info.causes && text && r->causes)
		r->causes(t, &info);
	else if (info.events_lost && t->out.json_stdout &&
		 (r->lost_after_stop || !t->stopped))
		osn_render_lost(stderr, info.events_lost);
	if (!t->p->json)
		return 0;
	f = json_open(t);
	if (!f)
		return -1;
	r->json(f, t, &info);
	return json_close(t, f);
}
