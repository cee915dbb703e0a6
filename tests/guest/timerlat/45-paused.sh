#!/bin/sh
# timeout: 60
# The paused knob in mode=timerlat: Y and the timerlat/1 thread arms no
# timer (no timerlat_sample while paused), its thread still there and the
# run on; N and the samples come again, IRQ and thread.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
require_cpus 2
tl_setup cpus=1 timerlat_period_us=10000
eng_instance osn_tlpause timerlat_sample
i=$ENG_I
echo 1 >"$i/tracing_on"
tl_wait_threads 1
wait_for 10 sh -c "grep -q ' timerlat_sample: ' $i/trace" || fail "no timerlat_sample"

osn_knob paused Y
# The activation in flight may still end; then nothing.
sleep 0.5
n1=$(count_events "$i" timerlat_sample)
sleep 1.5
n2=$(count_events "$i" timerlat_sample)
assert_eq "$n2" "$n1" "timerlat_sample lines over 1.5 s paused (10 ms period)"
assert_eq "$(tl_threads)" timerlat/1 "timerlat threads while paused"
assert_eq "$(osn_knob running)" Y "running while paused"

osn_knob paused N
wait_for 5 sh -c "[ \$(grep -c ' timerlat_sample: ' $i/trace) -ge $((n2 + 4)) ]" ||
	fail "fewer than 4 samples in 5 s after paused=N"
grep ' timerlat_sample: ' "$i/trace" | tail -n +$((n2 + 1)) >/tmp/tl45
grep -q 'context=0$' /tmp/tl45 || fail "no IRQ sample after paused=N"
grep -q 'context=1$' /tmp/tl45 || fail "no thread sample after paused=N"
exit 0
