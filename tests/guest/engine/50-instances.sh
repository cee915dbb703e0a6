#!/bin/sh
# timeout: 120
# Two tracefs instances enable osn events at once: both receive events,
# disabling one keeps the other running, disabling both stops the threads.
# A filter and a trigger on osn events work as on any event.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
eng_setup cpus=1 period_us=50000 runtime_us=40000
eng_instance osn_a sample
a=$ENG_I
eng_instance osn_b sample sample_threshold
b=$ENG_I
echo 'runtime > 0' >"$b/events/osn/sample/filter" || fail "filter on osn/sample"
echo 1 >"$a/tracing_on"
echo 1 >"$b/tracing_on"
eng_wait_threads 1
wait_for 10 sh -c "grep -q ' sample: ' $a/trace && grep -q ' sample: ' $b/trace" ||
	fail "both instances should get sample events"
echo 'traceoff:1 if duration > 0' >"$b/events/osn/sample_threshold/trigger" ||
	fail "trigger on osn/sample_threshold"
on_exit "echo '!traceoff:1 if duration > 0' >$b/events/osn/sample_threshold/trigger 2>/dev/null"
# The traceoff trigger of b stopped b at its first sample_threshold.
wait_for 10 sh -c "[ \$(cat $b/tracing_on) = 0 ]" || fail "traceoff trigger did not fire"

# A trigger keeps its event registered (soft mode), like an enable.
echo '!traceoff:1 if duration > 0' >"$b/events/osn/sample_threshold/trigger"
echo 0 >"$b/events/osn/enable"
sleep 0.5
eng_wait_threads 1
n1=$(grep -c ' sample: ' "$a/trace")
sleep 0.5
n2=$(grep -c ' sample: ' "$a/trace")
[ "$n2" -gt "$n1" ] || fail "instance a stopped getting samples after b was disabled"

echo 0 >"$a/events/osn/enable"
eng_wait_threads 0
exit 0
