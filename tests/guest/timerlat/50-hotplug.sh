#!/bin/sh
# timeout: 120
# In a timerlat run, CPU 1 going offline takes timerlat/1 away (its timer
# with it); coming back online restarts it and CPU 1's samples resume.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
require_cpus 2
[ -e /sys/devices/system/cpu/cpu1/online ] || skip "CPU 1 cannot go offline"
tl_setup timerlat_period_us=10000
eng_instance osn_tl50 timerlat_sample
i=$ENG_I
echo 1 >"$i/tracing_on"
tl_wait_threads 2
eng_hotplug_rounds timerlat/ ' timerlat_sample: .*context=1'
echo 0 >"$i/events/osn/enable"
tl_wait_threads 0
exit 0
