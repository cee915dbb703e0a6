#!/bin/sh
# timeout: 120
# osn watching CPU 1 only: no osn/0 thread, and nothing reported for CPU 0
# even while CPU 0 is busy with injected IRQ and thread noise.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
inject_load
eng_setup cpus=1 period_us=100000 runtime_us=100000 threshold_us=20
eng_instance osn_cpus sample_threshold irq_noise softirq_noise thread_noise nmi_noise sample stop
i=$ENG_I
echo 1 >"$i/tracing_on"
eng_wait_threads 1
assert_eq "$(osn_threads)" osn/1 "threads"
inject irq 0 30 200 2000
inject thread 0 30 200 2000
sleep 0.3
echo 0 >"$i/tracing_on"
echo 0 >"$i/events/osn/enable"
eng_wait_threads 0
n=$(grep -E ' (sample_threshold|irq_noise|softirq_noise|thread_noise|nmi_noise|sample|stop): ' "$i/trace" | grep -c '\[000\]')
assert_eq "$n" 0 "osn events on CPU 0"
m=$(grep -cE ' \[001\] .* sample: ' "$i/trace")
assert_ge "$m" 1 "sample events on CPU 1"
exit 0
