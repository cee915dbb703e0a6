#!/bin/sh
# timeout: 600
# TEMPORARY: does toggling the irq_vectors/irq/sched tracepoints (the ones
# osn hooks) without osn crash the TCG guest?  Not part of the suite.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"
inst=$TFS/instances/int3
mkdir $inst
on_exit rmdir $inst
i=0
N=${REPRO_N:-1500}
# keep both CPUs taking interrupts and page faults
( while :; do cat /proc/meminfo >/dev/null; done ) &
bg=$!
on_exit "kill $bg"
while [ $i -lt $N ]; do
	echo 1 > $inst/events/irq_vectors/local_timer_entry/enable
	echo 1 > $inst/events/irq_vectors/local_timer_exit/enable
	echo 1 > $inst/events/irq/irq_handler_entry/enable
	echo 1 > $inst/events/sched/sched_switch/enable
	echo 0 > $inst/events/irq_vectors/local_timer_entry/enable
	echo 0 > $inst/events/irq_vectors/local_timer_exit/enable
	echo 0 > $inst/events/irq/irq_handler_entry/enable
	echo 0 > $inst/events/sched/sched_switch/enable
	i=$((i + 1))
	[ $((i % 100)) = 0 ] && info "[$(rel_elapsed)s] $i rounds"
done
echo 0 > $inst/events/enable
figures "tracepoint toggles without osn: $((N * 8)) writes, no crash"
