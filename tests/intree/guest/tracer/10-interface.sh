#!/bin/sh
# timeout: 120
# Built in, osn is an ftrace tracer: "osn" is in available_tracers, tracefs
# osn/ has the knobs (TR_KNOBS) and nothing else, each reads what its module
# parameter reads, and a value written on either side reads back on the
# other (one value, two files).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/intree/guest/tracer/tracer.sh"
tr_setup

grep -qw osn "$TFS/available_tracers" ||
	fail "no osn in available_tracers: $(cat "$TFS/available_tracers")"
assert_eq "$(ls "$TO" | tr '\n' ' ')" "$TR_KNOBS " "files in osn/"
for k in $TR_KNOBS; do
	assert_eq "$(cat "$TO/$k")" "$(cat "$OSN_PARAMS/$k")" "$k: osn/ against the parameter"
done
assert_eq "$(cat "$TO/period_us")" 1000000 "default period_us"

# tracefs -> parameter
echo 200000 >"$TO/runtime_us" || fail "osn/runtime_us refused 200000"
echo 500000 >"$TO/period_us" || fail "osn/period_us refused 500000"
echo 1 >"$TO/cpus" || fail "osn/cpus refused 1"
echo 7 >"$TO/threshold_us" || fail "osn/threshold_us refused 7"
echo NO_OSNOISE_WORKLOAD >"$TO/options" || fail "osn/options refused NO_OSNOISE_WORKLOAD"
assert_eq "$(cat "$OSN_PARAMS/period_us")" 500000 "period_us parameter after the osn/ write"
assert_eq "$(cat "$OSN_PARAMS/runtime_us")" 200000 "runtime_us parameter"
assert_eq "$(cat "$OSN_PARAMS/cpus")" 1 "cpus parameter"
assert_eq "$(cat "$OSN_PARAMS/threshold_us")" 7 "threshold_us parameter"
assert_match "$(cat "$OSN_PARAMS/options")" "NO_OSNOISE_WORKLOAD" "options parameter"
# parameter -> tracefs
echo 300000 >"$OSN_PARAMS/stop_tracing_us"
echo 900000 >"$OSN_PARAMS/stop_tracing_total_us"
echo OSNOISE_WORKLOAD >"$OSN_PARAMS/options"
assert_eq "$(cat "$TO/stop_tracing_us")" 300000 "osn/stop_tracing_us after the parameter write"
assert_eq "$(cat "$TO/stop_tracing_total_us")" 900000 "osn/stop_tracing_total_us"
assert_eq "$(cat "$TO/options")" "$(cat "$OSN_PARAMS/options")" "osn/options"
# root only, as the rest of tracefs
assert_eq "$(stat -c %a "$TO/period_us")" 640 "mode of osn/period_us"
expect_fail as_nobody "echo 1 >$TO/threshold_us"
assert_eq "$(cat "$TO/threshold_us")" 7 "threshold_us after an unprivileged write"
