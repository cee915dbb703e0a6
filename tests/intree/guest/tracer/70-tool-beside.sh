#!/bin/sh
# timeout: 180
# osn's tool beside the tracer: with osn as the top-level current_tracer,
# osn top runs, says that osn is also in use there, and leaves the
# tracer's run going.  The tool pauses the workload before its teardown
# only when no other buffer uses osn; a tracer run counts as a user, as
# enabled osn events do, so after the tool the knob "paused" reads N, the
# tracer's thread is up and its per-period lines keep coming.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
. "$OSN_TESTS/intree/guest/tracer/tracer.sh"
require_cpus 2
[ -x "$OSN" ] || fail "tools/osn is not in the guest"
tr_setup
t=$(tfs)
echo 1 >"$TO/cpus"
echo 100000 >"$TO/period_us"
echo 50000 >"$TO/runtime_us"
: >"$t/trace"
echo osn >"$t/current_tracer" || fail "current_tracer osn refused"
on_exit "echo nop >$t/current_tracer"
eng_wait_threads 1
wait_for 20 tr_has_lines "$t" 2 || fail "no period lines from the tracer in 20 s"

"$OSN" top -c 1 -d 2 -q >/tmp/beside.txt 2>&1 ||
	{ cat /tmp/beside.txt; fail "osn top -c 1 -d 2 failed beside the tracer"; }
grep -q 'osn is also in use (events or tracer) in the top-level buffer' /tmp/beside.txt ||
	{ cat /tmp/beside.txt; fail "osn top did not say that the tracer uses osn"; }
assert_eq "$(cat "$OSN_PARAMS/paused")" N "paused after osn top, with the tracer on"
assert_eq "$(cat "$t/current_tracer")" osn "current_tracer after osn top"
eng_wait_threads 1
: >"$t/trace"
wait_for 20 tr_has_lines "$t" 4 ||
	fail "the tracer wrote fewer than 4 period lines in 20 s after osn top: $(head -c 600 "$t/trace")"
exit 0
