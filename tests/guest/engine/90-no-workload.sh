#!/bin/sh
# timeout: 120
# With NO_OSNOISE_WORKLOAD there is no osn thread, but the probes report
# the noise of the selected CPUs: injected IRQs on CPU 1 show up as
# irq_noise, a user task on CPU 1 as thread_noise; nothing for CPU 0.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
inject_load
eng_setup cpus=1 options=NO_OSNOISE_WORKLOAD threshold_us=20
eng_instance osn_nowl irq_noise thread_noise
i=$ENG_I
echo 1 >"$i/tracing_on"
eng_wait_running
assert_eq "$(osn_nthreads)" 0 "threads without workload"
inject irq 1 20 200 2000
command -v taskset >/dev/null || fail "no taskset in the guest"
taskset -c 1 sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' &
tp=$!
wait $tp || fail "the user task on CPU 1 failed"
echo 0 >"$i/tracing_on"
echo 0 >"$i/events/osn/enable"
n=$(grep " irq_noise: $(irq_name local_timer):" "$i/trace" | grep '\[001\]' >/tmp/eng_nw; eng_duration_ge /tmp/eng_nw 200000)
assert_ge "$n" 19 "irq_noise >= 200us on CPU 1 without workload"
# The user task is noise to CPU 1: a thread_noise of it, on CPU 1.
grep '\[001\]' "$i/trace" | grep -Eq " thread_noise: +sh:$tp " ||
	fail "no thread_noise for the user task sh:$tp on CPU 1: $(grep ' thread_noise: ' "$i/trace" | tail -n 5)"
assert_eq "$(grep -E ' (irq_noise|thread_noise): ' "$i/trace" | grep -c '\[000\]')" 0 "events on CPU 0"
exit 0
