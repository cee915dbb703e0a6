#!/bin/sh
# timeout: 300
# matrix: shard
# CPU hotplug while osn measures the CPU: REL_HOTPLUG_N (default 20)
# offline/online cycles of CPU 1 with cpus=1 (its thread must go and come
# back exactly once), REL_HOTPLUG_N / 4 with cpus=0-1 (osn/0 must stay the
# same task), then REL_HOTPLUG_N / 2 cycles racing with enable/disable of
# the osn events.
# Afterwards: sample events from CPU 1, no thread left after the stop.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

N=${REL_HOTPLUG_N:-20}
require_hotplug
rel_setup
rel_knobs_measure
rel_instance rel_hp 256 sample
I=$REL_INST
rel_wait_threads osn/1
rel_assert_flowing "$I" "before hotplug"

# A: cpus=1, the measured CPU goes away and comes back.
i=0
while [ $i -lt "$N" ]; do
	rel_cpu_online 0 || fail "cycle $i: cannot offline cpu1"
	rel_wait_threads "" 20
	rel_cpu_online 1 || fail "cycle $i: cannot online cpu1"
	rel_wait_threads osn/1 20
	i=$((i + 1))
done
A=$i
rel_flowing "$I" 2 20 1 || fail "no sample events from cpu1 after $A hotplug cycles"
info "[$(rel_elapsed)s] cpus=1: $A offline/online cycles"

# B: cpus=0-1, CPU 0's thread is not disturbed by CPU 1 coming and going.
rel_scan
old=$REL_THREADS
osn_knob cpus 0-1
rel_wait_restart "osn/0 osn/1" "$old"
rel_scan
for t in $REL_THREADS; do
	case $t in osn/0=*) t0=$t ;; esac
done
i=0
while [ $i -lt $((N / 4)) ]; do
	rel_cpu_online 0 || fail "cycle $i: cannot offline cpu1"
	rel_wait_threads osn/0 20
	rel_cpu_online 1 || fail "cycle $i: cannot online cpu1"
	rel_wait_threads "osn/0 osn/1" 20
	rel_same_thread "$t0" || fail "cycle $i: osn/0 ($t0) restarted by cpu1 hotplug"
	i=$((i + 1))
done
B=$i
rel_flowing "$I" 2 20 1 || fail "no sample events from cpu1 after the cpus=0-1 cycles"
info "[$(rel_elapsed)s] cpus=0-1: $B cycles, osn/0 untouched"

# C: hotplug in the background while the events are enabled and disabled.
(
	j=0
	while [ $j -lt $((N / 2)) ]; do
		echo 0 >"$REL_HOTPLUG" 2>/dev/null
		echo 1 >"$REL_HOTPLUG" 2>/dev/null
		j=$((j + 1))
	done
) &
hp=$!
on_exit "kill $hp; echo 1 >$REL_HOTPLUG"
C=0
while kill -0 $hp 2>/dev/null; do
	echo 0 >"$I/events/osn/sample/enable"
	echo 1 >"$I/events/osn/sample/enable"
	C=$((C + 1))
	sleep 0.1
done
wait $hp
rel_cpu_online 1 || fail "cpu1 does not come back online"
rel_wait_stable "osn/0 osn/1"
rel_flowing "$I" 2 20 1 || fail "no sample events from cpu1 after hotplug raced with enable/disable"
info "[$(rel_elapsed)s] $((N / 2)) background cycles raced with $C disable/enable pairs"

echo 0 >"$I/events/osn/enable"
rel_wait_no_threads
rel_module_works
figures "hotplug: $A cycles measuring cpu1, $B cycles with cpus=0-1 (osn/0 untouched)," \
	"$((N / 2)) cycles racing $C disable/enable pairs; threads left after stop: 0"
exit 0
