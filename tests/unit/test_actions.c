// SPDX-License-Identifier: GPL-2.0
/* --on-threshold / --on-end actions: rtla's syntax, order, continue */
#include <signal.h>
#include <unistd.h>

#include "harness.h"
#include "actions.h"
#include "util.h"

static struct osn_actions a;

static int parse1(const char *spec)
{
	osn_actions_free(&a);
	return osn_actions_parse(&a, spec, "osn_trace.txt");
}

/* Each action that rtla takes, with its arguments. */
TEST(valid)
{
	CHECK_EQ(parse1("trace"), 0);
	CHECK_EQ(a.list[0].type, OSN_ACTION_TRACE);
	CHECK_STR(a.list[0].arg, "osn_trace.txt");
	CHECK(a.has_trace);
	CHECK_EQ(parse1("trace,file=hit.txt"), 0);
	CHECK_STR(a.list[0].arg, "hit.txt");
	/* empty fields are skipped, as by rtla's strtok() */
	CHECK_EQ(parse1("trace,"), 0);
	CHECK_STR(a.list[0].arg, "osn_trace.txt");

	CHECK_EQ(parse1("signal,num=10,pid=123"), 0);
	CHECK_EQ(a.list[0].type, OSN_ACTION_SIGNAL);
	CHECK_EQ(a.list[0].signal, 10);
	CHECK_EQ(a.list[0].pid, 123);
	CHECK(!a.has_trace);
	CHECK_EQ(parse1("signal,pid=parent,num=2"), 0);
	CHECK_EQ(a.list[0].pid, OSN_ACTION_PARENT);
	CHECK_EQ(a.list[0].signal, 2);
	/* rtla does not range-check: kill() tells at the hit */
	CHECK_EQ(parse1("signal,num=99,pid=1"), 0);

	CHECK_EQ(parse1("shell,command=echo hit"), 0);
	CHECK_EQ(a.list[0].type, OSN_ACTION_SHELL);
	CHECK_STR(a.list[0].arg, "echo hit");
	/* deliberate: the command keeps its commas (rtla cuts there) */
	CHECK_EQ(parse1("shell,command=printf %s,%s a b"), 0);
	CHECK_STR(a.list[0].arg, "printf %s,%s a b");

	CHECK_EQ(parse1("continue"), 0);
	CHECK_EQ(a.list[0].type, OSN_ACTION_CONTINUE);
}

/* rtla's "Invalid action" cases */
TEST(invalid)
{
	static const char *const bad[] = {
		"", ",", "bogus", "Trace", "trace,file=", "trace,x=y",
		"trace,file=a,file=b", "signal", "signal,num=10",
		"signal,pid=1", "signal,num=0,pid=1", "signal,num=x,pid=1",
		"signal,num=10,pid=", "signal,num=10,pid=1,x=2",
		"signal,num=10,pid=parents", "shell", "shell,command=",
		"shell,cmd=true", "continue,now",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char want[64];

		CHECK_EQ(parse1(bad[i]), -1);
		CHECK_EQ(a.len, 0);
		snprintf(want, sizeof(want), "Invalid action %s", bad[i]);
		CHECK_STR(osn_last_err(), want);
	}
}

static int saves;
static char saved[4][64];

static int save(void *ctx, const char *file)
{
	(void)ctx;
	osn_strlcpy(saved[saves++ % 4], file, sizeof(saved[0]));
	return 0;
}

static int save_fails(void *ctx, const char *file)
{
	(void)ctx;
	(void)file;
	saves++;
	return osn_err("cannot write");
}

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	got = sig;
}

/*
 * In order, up to continue (what follows it never runs); a failing
 * action ends the list (a continue after it is not reached).
 */
TEST(perform)
{
	osn_actions_free(&a);
	CHECK_EQ(osn_actions_parse(&a, "trace,file=a", NULL), 0);
	CHECK_EQ(osn_actions_parse(&a, "trace,file=b", NULL), 0);
	CHECK_EQ(osn_actions_parse(&a, "continue", NULL), 0);
	CHECK_EQ(osn_actions_parse(&a, "trace,file=c", NULL), 0);
	saves = 0;
	CHECK(osn_actions_perform(&a, save, NULL));
	CHECK_EQ(saves, 2);
	CHECK_STR(saved[0], "a");
	CHECK_STR(saved[1], "b");

	saves = 0;
	CHECK(!osn_actions_perform(&a, save_fails, NULL));
	CHECK_EQ(saves, 1);

	/* a signal to ourselves, then a shell command that fails */
	signal(SIGUSR1, on_usr1);
	osn_actions_free(&a);
	{
		char spec[64];

		snprintf(spec, sizeof(spec), "signal,num=%d,pid=%d", SIGUSR1,
			 (int)getpid());
		CHECK_EQ(osn_actions_parse(&a, spec, NULL), 0);
	}
	CHECK_EQ(osn_actions_parse(&a, "shell,command=exit 3", NULL), 0);
	CHECK_EQ(osn_actions_parse(&a, "continue", NULL), 0);
	got = 0;
	CHECK(!osn_actions_perform(&a, save, NULL));
	CHECK_EQ(got, SIGUSR1);
	signal(SIGUSR1, SIG_DFL);

	/* a pid that does not exist: the list ends there */
	osn_actions_free(&a);
	CHECK_EQ(osn_actions_parse(&a, "signal,num=10,pid=2147483647", NULL), 0);
	CHECK_EQ(osn_actions_parse(&a, "continue", NULL), 0);
	CHECK(!osn_actions_perform(&a, save, NULL));
}

TEST(numbered)
{
	char buf[64];

	osn_numbered_file("t.txt", 0, buf, sizeof(buf));
	CHECK_STR(buf, "t.txt");
	osn_numbered_file("t.txt", 1, buf, sizeof(buf));
	CHECK_STR(buf, "t.txt.1");
	osn_numbered_file("t.txt", 12, buf, sizeof(buf));
	CHECK_STR(buf, "t.txt.12");
}

TEST(full)
{
	osn_actions_free(&a);
	for (int i = 0; i < OSN_MAX_ACTIONS; i++)
		CHECK_EQ(osn_actions_parse(&a, "continue", NULL), 0);
	CHECK_EQ(osn_actions_parse(&a, "continue", NULL), -1);
	CHECK_EQ(osn_actions_add_trace(&a, "x"), -1);
	CHECK_EQ(a.len, OSN_MAX_ACTIONS);
}

int main(int argc, char **argv)
{
	(void)argc;
	RUN(valid);
	RUN(invalid);
	RUN(perform);
	RUN(numbered);
	RUN(full);
	osn_actions_free(&a);
	return h_done(argv[0]);
}
