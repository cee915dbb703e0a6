#!/bin/sh
# timeout: 600
# Failures where no writer's fail-nth reaches (debug kernel, fail_function
# on the functions osn lists with ALLOW_ERROR_INJECTION): a run starts in
# a kernel worker and a CPU's workload in the CPU hotplug thread.
#  - osn_probes_hook() failing: the start fails, start_error says why,
#    dmesg says how to retry, no thread runs, osn top says it could not
#    start; disabling and re-enabling works.
#  - osn_workload_create() failing for the Nth CPU of the start (the
#    kthread could not be created): the whole start fails the same way.
#  - the same for a CPU coming back online while osn runs: the CPU comes
#    online without its workload (failing the CPU would be worse), dmesg
#    says so, the other CPUs go on.
# Prints OSN-FAULT lines for the table of Documentation/reliability.md.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"

require_cpus 2
FF=/sys/kernel/debug/fail_function
[ -d $FF ] || fail "no $FF: not the debug kernel"

# arm FUNC NTH: FUNC's NTH call (counting from now) returns -ENOMEM.
arm() {
	echo "$1" >$FF/inject || fail "fail_function refuses $1 (not in the error-injection list?)"
	# retval is read as an unsigned hex number: -ENOMEM in two's complement.
	echo 0xfffffffffffffff4 >$FF/$1/retval || fail "cannot set the retval of $1"
	echo 100 >$FF/probability
	echo "$2" >$FF/interval
	echo 1 >$FF/times
	echo 0 >$FF/verbose
	echo N >$FF/task-filter
}
disarm() { echo >$FF/inject; }
on_exit disarm

osn_load cpus=0-1 period_us=100000 runtime_us=50000
inst=$(new_instance osn_ff)
P=/sys/module/osn/parameters
assert_eq "$(cat $P/start_error)" 0 "start_error before any start"

start_fails() {	# FUNC NTH
	dmesg_mark
	arm "$1" "$2"
	echo 1 >"$inst/events/osn/sample/enable"
	wait_for 10 sh -c "[ \"\$(cat $P/start_error)\" = -12 ]" ||
		fail "$1 #$2 failing: start_error is $(cat $P/start_error), not -12"
	wait_for 10 eng_nthreads_is 0 || fail "$1 #$2 failing: threads left: $(osn_threads | tr '\n' ' ')"
	dmesg_since | grep -q "osn: cannot start: -12" || fail "$1 #$2 failing: dmesg does not say the start failed"
	disarm
	echo 0 >"$inst/events/osn/sample/enable"
	echo 1 >"$inst/events/osn/sample/enable"
	eng_wait_threads 2
	assert_eq "$(cat $P/start_error)" 0 "start_error after a start that worked"
	echo 0 >"$inst/events/osn/sample/enable"
	wait_for 10 eng_nthreads_is 0 || fail "threads left after disable"
	echo "OSN-FAULT op=start fails=$1#$2 outcome=start_error=-12,no-thread,re-enable-works"
}
start_fails osn_probes_hook 1
start_fails osn_workload_create 1
start_fails osn_workload_create 2

# osn top says why it measures nothing.
require_bin osn
arm osn_probes_hook 1
out=$(osn top -c 0-1 -d 3 2>&1)
disarm
echo "$out" | grep -q "could not start measuring: .*error -12" ||
	fail "osn top does not say the start failed: $out"
echo "OSN-FAULT op=osn-top fails=osn_probes_hook#1 outcome=message"

# A CPU coming back online: its workload cannot start.
echo 1 >"$inst/events/osn/sample/enable"
eng_wait_threads 2
echo 0 >/sys/devices/system/cpu/cpu1/online || fail "cannot offline CPU 1"
on_exit "echo 1 >/sys/devices/system/cpu/cpu1/online"
wait_for 10 eng_nthreads_is 1 || fail "CPU 1's thread did not stop"
dmesg_mark
arm osn_workload_create 1
echo 1 >/sys/devices/system/cpu/cpu1/online || fail "CPU 1 did not come online with osn failing"
disarm
dmesg_since | grep -q "osn: cannot start the workload of CPU 1: -12" ||
	fail "dmesg does not say CPU 1's workload failed"
assert_eq "$(osn_nthreads)" 1 "threads (CPU 1 without its workload)"
osn_threads | grep -qx osn/0 || fail "CPU 0's thread is gone"
echo "OSN-FAULT op=hotplug fails=osn_workload_create#1 outcome=cpu-online,no-thread-on-it,dmesg"
# The next disable/enable brings it back.
echo 0 >"$inst/events/osn/sample/enable"
echo 1 >"$inst/events/osn/sample/enable"
eng_wait_threads 2
echo 0 >"$inst/events/osn/sample/enable"
exit 0
