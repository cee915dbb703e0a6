#!/bin/sh
# timeout: 200
# Bad input through tracefs osn/ is refused exactly as through the module
# parameters: for each bad value, both writes fail with the same error,
# and neither changes the knob.  Includes cross-knob rules (runtime >
# period, an atomic option with a long runtime), a 5000-byte write, and a
# write while the tracer measures (the workload thread must stay the same).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/intree/guest/tracer/tracer.sh"
require_cpus 2
tr_setup cpus=1 period_us=200000 runtime_us=100000
I=$(new_instance osn_bad)
echo osn >"$I/current_tracer" || fail "current_tracer osn refused"
eng_wait_threads 1
pid=$(tr_pid osn/1)

long=$(head -c 5000 /dev/zero | tr '\0' 7)
n=0
while IFS='|' read -r knob val; do
	[ -n "$knob" ] || continue
	[ -n "$pid" ] || fail "no osn/1 thread"
	[ "$val" = LONG ] && val=$long
	before=$(cat "$TO/$knob")
	e1=$(tr_werr "$TO/$knob" "$val")
	e2=$(tr_werr "$OSN_PARAMS/$knob" "$val")
	short=$(echo "$val" | cut -c1-20)
	info "$knob <- '$short': osn/ '$e1', parameter '$e2'"
	[ "$e1" != ok ] || fail "osn/$knob accepted '$short'"
	assert_eq "$e1" "$e2" "error of osn/$knob <- '$short' against the parameter's"
	assert_eq "$(cat "$TO/$knob")" "$before" "osn/$knob after the refused '$short'"
	n=$((n + 1))
done <<'LIST'
period_us|abc
period_us|
period_us|-1
period_us|0
period_us|18446744073709551616
period_us|60000001
period_us|0x100
period_us|50000
runtime_us|50
runtime_us|300000
runtime_us|1 2
threshold_us|10000001
threshold_us|%s%s%s
stop_tracing_us|-5
stop_tracing_total_us|1e6
cpus|99
cpus|1-
cpus|,1
cpus|a
cpus|LONG
options|FOO
options|NO_FOO
options|OSNOISE_WORKLOAD FOO
LIST
assert_ge "$n" 23 "bad values tried"

# an atomic option with a runtime over 1 s: period first, then runtime
echo 2000000 >"$TO/period_us" || fail "period_us 2000000"
echo 2000000 >"$TO/runtime_us" || fail "runtime_us 2000000"
e1=$(tr_werr "$TO/options" OSNOISE_IRQ_DISABLE)
e2=$(tr_werr "$OSN_PARAMS/options" OSNOISE_IRQ_DISABLE)
[ "$e1" != ok ] || fail "osn/options accepted OSNOISE_IRQ_DISABLE with a 2 s runtime"
assert_eq "$e1" "$e2" "error of the atomic option"

# the workload went on through all of it
now=$(tr_pid osn/1)
assert_eq "$now" "$pid" "osn/1 after the bad writes"
