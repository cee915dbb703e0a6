#!/bin/sh
# timeout: 2400
# Allocation failures (debug kernel, CONFIG_FAULT_INJECTION): each
# operation a user does to osn is run with its Nth memory allocation
# failing (osn-failnth: /proc/thread-self/fail-nth, counting slab and page
# allocations, sleeping ones included), for N = 1, 2, ... until the
# operation succeeds with no failure injected.  Every failed attempt must
# return an error to the writer and leave nothing behind (module state,
# knob value, threads, instance); after it the same operation without
# injection must work.  Leaks are checked by kmemleak after the test
# (guest-init.sh), warnings by the log judge.
# Prints one OSN-FAULT line per operation: the table of
# Documentation/reliability.md.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/debug/guest/faults/faults.sh"

require_bin osn-failnth
faults_setup N
P=/sys/module/osn/parameters
bad=0

# count ARGS...: how many allocations the operation makes (fail-nth armed
# far away, then read back), or 0; the operation is done for real.
count_allocs() {
	out=$(osn-failnth 0 count "$@" 2>&1) || return 1
	event_field "$out" allocations
}

# try OP CLEAN_CHECK UNDO -- FAILNTH_ARGS...: fail the Nth allocation of the
# operation, for N = 1 .. K (K: its allocations, counted by a dry run).
# Every N when K <= 3 * EDGE; else every N of the first and last EDGE (the
# syscall's own setup, and the end: a module's init, the work it queues)
# and EDGE evenly spaced between: under KASAN and TCG one attempt takes
# seconds, and the kernel's allocations in the middle (the loader's, the
# ring buffer's) are not osn's.  CLEAN_CHECK (a shell command) must hold
# after each failed attempt; UNDO (a shell command) undoes a successful
# one.  Prints the operation's table row.
EDGE=${OSN_FAULT_EDGE:-16}
try() {
	op=$1 clean=$2 undo=$3
	shift 4
	k=$(count_allocs "$@") || fail "$op: the dry run failed"
	eval "$undo" || fail "$op: cannot undo the dry run"
	[ "${k:-0}" -gt 0 ] || fail "$op: the dry run counted no allocation"
	stride=1
	[ "$k" -le $((3 * EDGE)) ] || stride=$(((k - 2 * EDGE) / EDGE + 1))
	n=1 tried=0 nfail=0 nok=0 errs= notclean=0
	while [ $n -le "$k" ]; do
		out=$(osn-failnth $n "$@" 2>&1)
		rc=$?
		[ $rc = 2 ] && fail "$op: osn-failnth: $out"
		tried=$((tried + 1))
		if [ $rc = 0 ]; then
			nok=$((nok + 1))
			eval "$undo" || fail "$op: cannot undo the successful attempt at N=$n"
		else
			[ "$(event_field "$out" injected)" = 1 ] ||
				fail "$op: failed at N=$n with no failure injected: $out"
			nfail=$((nfail + 1))
			e=$(event_field "$out" errno)
			case " $errs " in *" $e "*) ;; *) errs="$errs $e" ;; esac
			if ! eval "$clean"; then
				info "$op: N=$n ($e) left state behind"
				notclean=$((notclean + 1))
			fi
		fi
		if [ $n -lt "$EDGE" ] || [ $n -ge $((k - EDGE)) ]; then
			n=$((n + 1))
		else
			n=$((n + stride))
		fi
	done
	# The operation works again without injection.
	out=$(osn-failnth 0 "$@" 2>&1) || fail "$op: fails without injection: $out"
	eval "$undo" || fail "$op: cannot undo"
	echo "OSN-FAULT op=$op allocations=$k tried=$tried failed=$nfail errors=${errs# } succeeded_anyway=$nok not_clean=$notclean"
	[ $notclean = 0 ] || bad=$((bad + 1))
}

# -- load: insmod with its Nth allocation failing -----------------------------
no_osn() { ! mod_loaded osn && [ ! -d "$TFS/events/osn" ] && [ "$(osn_nthreads)" = 0 ]; }
try load no_osn "rmmod osn" -- insmod "$OSN_KO/osn.ko"

osn_load cpus=0 period_us=100000 runtime_us=50000
inst=$(new_instance osn_faults)

# -- knob writes: the value stays what it was -------------------------------
try cpus '[ "$(cat $P/cpus)" = 0 ]' "echo 0 >$P/cpus" -- write $P/cpus 0-1
try options '[ "$(cat $P/options)" = "$(echo OSNOISE_WORKLOAD NO_PANIC_ON_STOP NO_OSNOISE_PREEMPT_DISABLE NO_OSNOISE_IRQ_DISABLE)" ]' \
	"echo DEFAULTS >$P/options" -- write $P/options NO_OSNOISE_WORKLOAD

# -- enabling an osn event in an instance: the event stays off and no run
# starts (the start itself runs in a worker: 20-fail-function.sh) ----------
stopped() {
	[ "$(cat $inst/events/osn/sample/enable)" = 0 ] &&
		wait_for 10 eng_nthreads_is 0
}
try enable stopped "echo 0 >$inst/events/osn/sample/enable && stopped" -- write $inst/events/osn/sample/enable 1

# -- CPU hotplug while osn runs on the CPU: it comes back with its thread --
require_cpus 2
osn_knob cpus 0-1
echo 1 >"$inst/events/osn/sample/enable"
eng_wait_threads 2
echo 0 >/sys/devices/system/cpu/cpu1/online || fail "cannot offline CPU 1"
on_exit "echo 1 >/sys/devices/system/cpu/cpu1/online"
offline1() { [ "$(cat /sys/devices/system/cpu/cpu1/online)" = 0 ] && wait_for 10 eng_nthreads_is 1; }
try hotplug offline1 "wait_for 10 eng_nthreads_is 2 && echo 0 >/sys/devices/system/cpu/cpu1/online && wait_for 10 eng_nthreads_is 1" \
	-- write /sys/devices/system/cpu/cpu1/online 1
echo 1 >/sys/devices/system/cpu/cpu1/online
eng_wait_threads 2
echo 0 >"$inst/events/osn/sample/enable"

[ $bad = 0 ] || fail "$bad operations left state behind after a failed allocation"
exit 0
