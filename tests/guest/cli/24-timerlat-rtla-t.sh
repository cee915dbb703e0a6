#!/bin/sh
# timeout: 240
# matrix: shard
# rtla's own tests/timerlat.t (tools/tracing/rtla/tests, the version with
# the actions tests), each command line run as `osn timerlat` in place of
# `rtla timerlat`, with rtla's expected exit status and output pattern.
# What differs, on purpose, and why:
#  - -d 10s is -d 2s: the guest's time budget; what is asserted is the
#    same (a run to its end, or a stop long before it);
#  - osn's default trace file is osn_trace.txt, not timerlat_trace.txt,
#    and its histogram's title "# osn timerlat histogram", not "# RTLA
#    timerlat histogram": the patterns say osn's names;
#  - osn timerlat top has no ALL row (per-CPU rows only): the failed
#    action's "1" is followed by the table's title line instead.
# The thresholds (2-10 us) are below any TCG activation's latency: the
# stops come at once, as rtla's tests expect on real hardware.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
cli_setup
cd "$CLI_OUT" || fail "no $CLI_OUT"
knobs() { cli_knobs; for k in mode timerlat_period_us print_stack; do
	echo "$k=$(cat "$OSN_PARAMS/$k")"; done; }
before=$(knobs)
n=0

# check DESC ARGS [RC [PATTERN]]: osn ARGS (ARGS as rtla's: eval'ed) ends
# with RC (default 0) and its output has a line matching PATTERN (ERE)
check() {
	n=$((n + 1))
	rm -f osn_trace.txt custom_filename.txt
	_t0=$(now_us)
	eval "\"$OSN\" $2" >"out.$n" 2>&1 </dev/null
	_rc=$?
	info "$n. $1: osn $2: exit $_rc, $((($(now_us) - _t0) / 1000)) ms"
	if [ "$_rc" != "${3:-0}" ]; then
		cat "out.$n"
		fail "$1: exit $_rc, expected ${3:-0}"
	fi
	if [ -n "$4" ] && ! grep -Eq -- "$4" "out.$n"; then
		cat "out.$n"
		fail "$1: no line matches /$4/"
	fi
}

# Basic tests
check "verify help page" \
	"timerlat --help"
check "verify -s/--stack" \
	"timerlat top -s 3 -T 10 -t" 2
# osn's -s: the timer IRQ's stack (osn:timerlat_stack) in the saved trace
grep -q 'timerlat_stack: size=[1-9]' osn_trace.txt ||
	fail "-s 3: no timerlat_stack in the saved trace"
check "verify -P/--priority" \
	"timerlat top -P F:1 -c 0 -d 2s -q"
check "test in nanoseconds" \
	"timerlat top -i 2 -c 0 -n -d 2s" 2 "Timer Latency \(ns\)"
check "set the automatic trace mode" \
	"timerlat top -a 5 --dump-tasks" 2 "^Printing CPU tasks:$"
check "print the auto-analysis if hits the stop tracing condition" \
	"timerlat top --aa-only 5" 2 "hit stop tracing, analyzing it"
check "disable auto-analysis" \
	"timerlat top -s 3 -T 10 -t --no-aa" 2
grep -q 'analyzing it' "out.$n" && fail "--no-aa printed the analysis"
check "verify -c/--cpus" \
	"timerlat hist -c 0 -d 2s" 0 "^Index +IRQ-000 +Thr-000$"
check "hist test in nanoseconds" \
	"timerlat hist -i 2 -c 0 -n -d 2s" 2 "^# Time unit is nanoseconds \(ns\)$"

# Actions tests
check "trace output through -t" \
	"timerlat hist -T 2 -t" 2 "^  Saving trace to osn_trace.txt$"
check "trace output through -t with custom filename" \
	"timerlat hist -T 2 -t custom_filename.txt" 2 "^  Saving trace to custom_filename.txt$"
check "trace output through -A trace" \
	"timerlat hist -T 2 --on-threshold trace" 2 "^  Saving trace to osn_trace.txt$"
check "trace output through -A trace with custom filename" \
	"timerlat hist -T 2 --on-threshold trace,file=custom_filename.txt" 2 "^  Saving trace to custom_filename.txt$"
check "exec command" \
	"timerlat hist -T 2 --on-threshold shell,command='echo TestOutput'" 2 "^TestOutput$"
check "multiple actions" \
	"timerlat hist -T 2 --on-threshold shell,command='echo -n 1' --on-threshold shell,command='echo 2'" 2 "^12$"
check "hist stop at failed action" \
	"timerlat hist -T 2 --on-threshold shell,command='echo -n 1; false' --on-threshold shell,command='echo -n 2'" 2 "^1# osn timerlat histogram$"
check "top stop at failed action" \
	"timerlat top -T 2 --on-threshold shell,command='echo -n 1; false' --on-threshold shell,command='echo -n 2'" 2 "^1 +Timer Latency$"
check "hist with continue" \
	"timerlat hist -T 2 -d 1s --on-threshold shell,command='echo TestOutput' --on-threshold continue" 0 "^TestOutput$"
check "top with continue" \
	"timerlat top -q -T 2 -d 1s --on-threshold shell,command='echo TestOutput' --on-threshold continue" 0 "^TestOutput$"
check "hist with trace output at end" \
	"timerlat hist -d 1s --on-end trace" 0 "^  Saving trace to osn_trace.txt$"
check "top with trace output at end" \
	"timerlat top -d 1s --on-end trace" 0 "^  Saving trace to osn_trace.txt$"

assert_eq "$(knobs)" "$before" "knobs after rtla's command lines"
assert_eq "$(cli_instances)" "" "instances after rtla's command lines"
exit 0
