#!/bin/sh
# timeout: 300
# matrix: shard
# osn leaves no trace: knobs, instances, osn events and the top-level
# tracing_on are as before after a normal end, SIGINT and SIGTERM; after
# SIGKILL the next run cleans up (and says so); a second concurrent osn
# says why it cannot run.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
cli_setup

# non-default values, to see them restored exactly
osn_knob runtime_us 400000
osn_knob period_us 500000
osn_knob threshold_us 3
osn_knob cpus 0
before=$(cli_knobs)
info "before: $(echo $before)"
# stop limits TCG's own hiccups never reach: armed, never hit
ARGS="-c 1 -p 200000 -r 100000 -T 5 -s 100000000 -S 200000000"

check_clean() {	# WHAT
	assert_eq "$(cli_knobs)" "$before" "knobs after $1"
	assert_eq "$(cli_instances)" "" "instances after $1"
	assert_eq "$(cli_osn_enabled)" "" "osn events enabled after $1"
	assert_eq "$(cat "$TFS/tracing_on")" 1 "tracing_on after $1"
	assert_eq "$(osn_nthreads)" 0 "workload threads after $1"
	[ -e /run/osn.lock ] && fail "lock file left after $1"
	return 0
}

# normal end
"$OSN" top $ARGS -d 2 -q >"$CLI_OUT/1.txt" 2>&1
rc=$?
cat "$CLI_OUT/1.txt"
assert_eq "$rc" 0 "exit status"
wait_for 5 eval '[ "$(osn_nthreads)" = 0 ]'
check_clean "a normal end"

# SIGINT and SIGTERM
for sig in INT TERM; do
	cli_start "$CLI_OUT/$sig.txt" hist $ARGS -d 60
	pid=$CLI_PID
	cli_wait_collecting osn_hist
	# while it runs: its knobs are in effect
	assert_eq "$(osn_knob cpus)" 1 "cpus while running"
	assert_eq "$(osn_knob stop_tracing_us)" 100000000 "stop_tracing_us while running"
	kill -$sig $pid
	wait $pid
	rc=$?
	cat "$CLI_OUT/$sig.txt"
	assert_eq "$rc" 0 "exit status after SIG$sig"
	grep -q '^# osn histogram' "$CLI_OUT/$sig.txt" || fail "no report after SIG$sig"
	wait_for 5 eval '[ "$(osn_nthreads)" = 0 ]'
	check_clean "SIG$sig"
done

# a second osn while one runs
cli_start "$CLI_OUT/first.txt" top $ARGS -d 60 -q
pid=$CLI_PID
cli_wait_collecting osn_top
"$OSN" hist -d 1 >/dev/null 2>"$CLI_OUT/second.err"
rc=$?
info "second: $(cat "$CLI_OUT/second.err")"
assert_eq "$rc" 1 "exit status of a second osn"
grep -q "^osn: another osn is running (pid $pid, osn top)" "$CLI_OUT/second.err" ||
	fail "second osn: $(cat "$CLI_OUT/second.err")"

# SIGKILL: everything stays ...
kill -KILL $pid
wait $pid 2>/dev/null
[ -n "$(cli_instances)" ] || fail "SIGKILL: expected the instance to stay"
assert_eq "$(osn_knob cpus)" 1 "cpus after SIGKILL"
# ... until the next run, which cleans up first
"$OSN" top -p 100000 -r 50000 -d 1 -q >"$CLI_OUT/after.txt" 2>&1
rc=$?
cat "$CLI_OUT/after.txt"
assert_eq "$rc" 0 "exit status of the run after SIGKILL"
grep -q "osn: cleaning up after a previous osn (osn top) that did not exit cleanly (pid $pid)" \
	"$CLI_OUT/after.txt" || fail "no cleanup message"
wait_for 5 eval '[ "$(osn_nthreads)" = 0 ]'
check_clean "SIGKILL and a rerun"

# SIGKILL then `osn cleanup`
cli_start "$CLI_OUT/k.txt" top $ARGS -d 60 -q
pid=$CLI_PID
cli_wait_collecting osn_top
kill -KILL $pid
wait $pid 2>/dev/null
"$OSN" cleanup 2>"$CLI_OUT/cleanup.err"
assert_eq "$?" 0 "osn cleanup"
wait_for 5 eval '[ "$(osn_nthreads)" = 0 ]'
check_clean "SIGKILL and osn cleanup"
exit 0
