#!/bin/sh
# timeout: 120
# A stop condition follows its knob as it is now, not the workload's
# snapshot of the period's start.  Periods of 2 s (runtime = period);
# stop_tracing_us is 300 ms when a period starts:
#   - control: a 400 ms hard-IRQ stall on CPU 1 turns tracing_on off;
#   - then 0 is written to the knob in the middle of a period (what osn
#     top does when it puts the knobs back at its exit; any knob write
#     re-arms the stop), and the same stall in the same period must leave
#     tracing_on alone, although the sample is recorded.
# (Before, the second stall turned tracing off: the leftover stop that a
# tool's restore raced with.)  300 ms is above TCG's 100-140 ms gaps.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
inject_load
eng_setup cpus=1 period_us=2000000 runtime_us=2000000 threshold_us=20
t=$(tfs)
on_exit "echo 1 >$t/tracing_on"
eng_instance osn_live sample sample_threshold stop
i=$ENG_I
echo 1 >"$i/tracing_on"
eng_wait_threads 1
STOP_US=300000
INJ_US=400000

# next_period: wait (6 s) until an osn:sample event more: a period began.
next_period() {
	_n0=$(count_events "$i" sample)
	_end=$(($(now_us) + 6000000))
	while [ "$(count_events "$i" sample)" = "$_n0" ]; do
		[ "$(now_us)" -lt "$_end" ] || fail "no period ended in 6 s"
		sleep 0.02
	done
}

# the control: the knob set for the whole period
echo 1 >"$t/tracing_on"
osn_knob stop_tracing_us $STOP_US
next_period
inject irq 1 1 $INJ_US 1000000
assert_eq "$(cat "$t/tracing_on")" 0 "tracing_on after a $INJ_US us stall with stop_tracing_us $STOP_US"
info "control: $(grep ' stop: ' "$i/trace" | tail -n 1)"

# the knob back to 0 in the middle of a period
echo 1 >"$t/tracing_on"
osn_knob stop_tracing_us $STOP_US
next_period
osn_knob stop_tracing_us 0
: >"$i/trace"
inject irq 1 1 $INJ_US 1000000
sleep 0.2
d=$(eng_lines "$i" sample_threshold | sed -n 's/.* duration \([0-9]*\) ns.*/\1/p' |
	sort -n | tail -n 1)
info "largest sample after the write: ${d:-none} ns"
assert_ge "${d:-0}" $((INJ_US * 1000)) "the stall's sample in the period"
assert_eq "$(count_events "$i" stop)" 0 "osn:stop events after stop_tracing_us was set to 0"
assert_eq "$(cat "$t/tracing_on")" 1 "tracing_on after the stall, with stop_tracing_us 0 written mid-period"
exit 0
