#!/bin/sh
# timeout: 120
# Knobs given at load time are applied, in any order; a bad one (garbage,
# out of range, offline CPU, inconsistent runtime/period) fails the load
# cleanly: no module left behind, and a good load works afterwards.
. "$OSN_TESTS/guest/lib.sh"
require_ko osn
mod_loaded osn && fail "osn already loaded"
on_exit osn_unload

for bad in "cpus=99" "cpus=" "cpus=0-" "cpus=abc" "period_us=10" \
	   "period_us=60000001" "runtime_us=99" "threshold_us=10000001" \
	   "period_us=1000 runtime_us=2000" "options=BOGUS" \
	   "options=OSNOISE_IRQ_DISABLE period_us=2000000 runtime_us=2000000" \
	   "stop_tracing_us=-1"; do
	# shellcheck disable=SC2086
	if insmod "$OSN_KO/osn.ko" $bad 2>/dev/null; then
		rmmod osn
		fail "load with '$bad' succeeded"
	fi
	mod_loaded osn && fail "osn loaded after failed '$bad'"
done

# Order does not matter at load: runtime before the period it needs.
insmod "$OSN_KO/osn.ko" runtime_us=2000000 period_us=3000000 cpus=1 \
	threshold_us=7 options=NO_OSNOISE_WORKLOAD || fail "good load failed"
assert_eq "$(osn_knob runtime_us)" 2000000 runtime_us
assert_eq "$(osn_knob period_us)" 3000000 period_us
assert_eq "$(osn_knob cpus)" 1 cpus
assert_eq "$(osn_knob threshold_us)" 7 threshold_us
assert_match "$(osn_knob options)" '(^| )NO_OSNOISE_WORKLOAD( |$)' options
rmmod osn || fail "rmmod"
exit 0
