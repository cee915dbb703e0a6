#!/bin/sh
# timeout: 150
# The tracer works per instance, as upstream's: each instance where osn is
# the current tracer gets its own per-period lines, others none.  It shares
# the run with the osn events: the workload stops only when the last user
# is gone (tracer in any instance, or an enabled osn event), and an
# instance removed with the tracer set stops it there.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/intree/guest/tracer/tracer.sh"
require_cpus 2
tr_setup cpus=1 period_us=100000 runtime_us=50000
t=$(tfs)
: >"$t/trace"
A=$(new_instance osn_a)
B=$(new_instance osn_b)
C=$(new_instance osn_c)
echo osn >"$A/current_tracer" || fail "osn in instance osn_a refused"
echo osn >"$B/current_tracer" || fail "osn in instance osn_b refused"
eng_wait_threads 1
wait_for 20 tr_has_lines "$A" 5 || fail "instance osn_a: fewer than 5 period lines"
wait_for 20 tr_has_lines "$B" 5 || fail "instance osn_b: fewer than 5 period lines"
assert_eq "$(tr_count "$t")" 0 "period lines in the top-level buffer (tracer nop)"
assert_eq "$(tr_count "$C")" 0 "period lines in osn_c (tracer nop)"

# one user less: the run goes on for the other
echo nop >"$A/current_tracer"
: >"$A/trace"
sleep 0.5
assert_eq "$(osn_nthreads)" 1 "workload with the tracer left in osn_b"
: >"$B/trace"
wait_for 10 tr_has_lines "$B" 3 || fail "osn_b stopped getting lines when osn_a left"
assert_eq "$(tr_count "$A")" 0 "lines in osn_a after its echo nop"

# an osn event keeps the run when the last tracer goes
echo 1 >"$C/events/osn/sample/enable"
rm_instance osn_b
sleep 0.5
assert_eq "$(osn_nthreads)" 1 "workload with osn:sample enabled in osn_c"
echo 0 >"$C/events/osn/sample/enable"
eng_wait_threads 0

# removing an instance whose tracer is osn ends its part of the run
echo osn >"$A/current_tracer"
eng_wait_threads 1
rm_instance osn_a
eng_wait_threads 0
