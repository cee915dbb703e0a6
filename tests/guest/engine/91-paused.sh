#!/bin/sh
# timeout: 90
# The paused knob: Y puts the running osn/1 thread to sleep (state S, no
# osn:sample while paused) with the run still on (running Y, its thread
# still there); N wakes it (state R, periods again).  A bad value is
# refused and changes nothing.  The end of a run clears it (paused Y,
# the events off: N), and a new run starts unpaused, its thread spinning
# and sampling.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
eng_setup cpus=1 period_us=200000 runtime_us=200000
eng_instance osn_pause sample
i=$ENG_I
echo 1 >"$i/tracing_on"
eng_wait_threads 1
wait_for 10 sh -c "grep -q Y $OSN_PARAMS/running" || fail "the run did not start"

# state PID: the task's state letter (/proc/PID/stat's third field).
state() { awk '{ print $3 }' "/proc/$1/stat"; }
state_is() { [ "$(state "$1")" = "$2" ]; }
pid=$(grep -l '^osn/1$' /proc/[0-9]*/comm | head -n 1 | cut -d/ -f3)
[ -n "$pid" ] || fail "no osn/1 thread"
assert_eq "$(osn_knob paused)" N "paused at the start of a run"
wait_for 5 state_is "$pid" R || fail "osn/1 not running: state $(state "$pid")"

osn_knob paused Y
assert_eq "$(osn_knob paused)" Y "paused after Y"
wait_for 5 state_is "$pid" S || fail "osn/1 not asleep 5 s after paused=Y: state $(state "$pid")"
n1=$(count_events "$i" sample)
sleep 1.5
n2=$(count_events "$i" sample)
assert_eq "$n2" "$n1" "osn:sample lines over 1.5 s paused (200 ms periods)"
assert_eq "$(osn_knob running)" Y "running while paused"
assert_eq "$(osn_nthreads)" 1 "threads while paused"

expect_fail sh -c "echo maybe >$OSN_PARAMS/paused"
assert_eq "$(osn_knob paused)" Y "paused after a refused write"

osn_knob paused N
wait_for 5 state_is "$pid" R || fail "osn/1 not running 5 s after paused=N: state $(state "$pid")"
wait_for 5 sh -c "[ \$(grep -c ' sample: ' $i/trace) -gt $n2 ]" ||
	fail "no osn:sample in 5 s after paused=N"

# A run that ends paused: the next one starts unpaused.
osn_knob paused Y
echo 0 >"$i/events/osn/enable"
wait_for 10 sh -c "grep -q N $OSN_PARAMS/running" || fail "the run did not stop"
assert_eq "$(osn_knob paused)" N "paused once the run stopped"
event_enable "$i" osn/sample
eng_wait_threads 1
wait_for 10 sh -c "grep -q Y $OSN_PARAMS/running" || fail "the run did not start again"
assert_eq "$(osn_knob paused)" N "paused after a new run started"
pid=$(grep -l '^osn/1$' /proc/[0-9]*/comm | head -n 1 | cut -d/ -f3)
wait_for 5 state_is "$pid" R || fail "the new osn/1 not running: state $(state "$pid")"
exit 0
