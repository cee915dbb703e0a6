#!/bin/sh
# timeout: 120
# CPU 1 going offline while osn runs takes its thread away; coming back
# online restarts it and its events resume.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
[ -e /sys/devices/system/cpu/cpu1/online ] || skip "CPU 1 cannot go offline"
eng_setup period_us=50000 runtime_us=40000
eng_instance osn_hp sample
i=$ENG_I
echo 1 >"$i/tracing_on"
eng_wait_threads 2
eng_hotplug_rounds osn/ ' sample: '
echo 0 >"$i/events/osn/enable"
eng_wait_threads 0
exit 0
