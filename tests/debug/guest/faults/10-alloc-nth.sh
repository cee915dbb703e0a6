#!/bin/sh
# timeout: 1500
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

require_bin osn-failnth
[ -e /proc/self/fail-nth ] || fail "no /proc/self/fail-nth: not the debug kernel"
D=/sys/kernel/debug
for a in failslab fail_page_alloc; do
	[ -d $D/$a ] || fail "no $D/$a"
	echo N >$D/$a/ignore-gfp-wait
	echo 0 >$D/$a/verbose
done
echo N >$D/fail_page_alloc/ignore-gfp-highmem
echo 0 >$D/fail_page_alloc/min-order
on_exit "echo Y >$D/failslab/ignore-gfp-wait; echo Y >$D/fail_page_alloc/ignore-gfp-wait"
MAXN=${OSN_FAULT_MAXN:-600}
P=/sys/module/osn/parameters
bad=0

# try OP CLEAN_CHECK UNDO -- FAILNTH_ARGS...: the loop over N.  CLEAN_CHECK
# (a shell command) must hold after each failed attempt; UNDO (a shell
# command) undoes a successful one.  Prints the operation's table row.
try() {
	op=$1 clean=$2 undo=$3
	shift 4
	n=1 nfail=0 errs= notclean=0
	while [ $n -le "$MAXN" ]; do
		out=$(osn-failnth $n "$@" 2>&1)
		rc=$?
		[ $rc = 2 ] && fail "$op: osn-failnth: $out"
		inj=$(event_field "$out" injected)
		if [ $rc = 0 ]; then
			eval "$undo" || fail "$op: cannot undo the successful attempt at N=$n"
			[ "$inj" = 0 ] && break
		else
			[ "$inj" = 1 ] || fail "$op: failed at N=$n with no failure injected: $out"
			nfail=$((nfail + 1))
			e=$(event_field "$out" errno)
			case " $errs " in *" $e "*) ;; *) errs="$errs $e" ;; esac
			if ! eval "$clean"; then
				info "$op: N=$n ($e) left state behind"
				notclean=$((notclean + 1))
			fi
		fi
		n=$((n + 1))
	done
	[ $n -le "$MAXN" ] || fail "$op: still failing at N=$MAXN"
	# The operation works again without injection.
	out=$(osn-failnth 0 "$@" 2>&1) || fail "$op: fails without injection: $out"
	eval "$undo" || fail "$op: cannot undo"
	echo "OSN-FAULT op=$op allocations=$((n - 1)) failed=$nfail errors=${errs# } succeeded_with_failure=$(($n - 1 - nfail)) not_clean=$notclean"
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
