#!/bin/sh
# timeout: 2400
# Allocation failures (debug kernel, CONFIG_FAULT_INJECTION): each
# operation a user does to osn is run with its Nth memory allocation
# failing (osn-failnth: /proc/thread-self/fail-nth, counting slab and page
# allocations, sleeping ones included), for every N that is one of osn's
# own allocations: those made with osn's code on the stack (a dry run
# traces every allocation with its stack: faults.sh), until the operation
# succeeds with no failure injected.  Every failed attempt must return an
# error to the writer and leave nothing behind (module state, knob value,
# threads, instance); after it the same operation without injection must
# work.  The trace of each attempt also checks that the allocation that
# failed was osn's.  Leaks are checked by kmemleak after the test
# (guest-init.sh), warnings by the log judge.
# Prints one OSN-FAULT line per operation: the table of
# Documentation/reliability.md.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/debug/guest/faults/faults.sh"

require_bin osn-failnth
faults_setup N
faults_trace_setup
P=/sys/module/osn/parameters
bad=0

# try OP CLEAN_CHECK UNDO -- FAILNTH_ARGS...: a traced dry run counts the
# operation's allocations (K) and finds osn's own among them; then each of
# those fails in turn (all of them up to 3 * EDGE; else the first and last
# EDGE and EDGE evenly spaced between: under KASAN and TCG one attempt
# takes seconds).  CLEAN_CHECK (a shell command) must hold after each
# failed attempt; UNDO (a shell command) undoes a successful one.  Prints
# the operation's table row.
EDGE=${OSN_FAULT_EDGE:-16}

# aim N ATTEMPT [ARGS...]: "ATTEMPT N ARGS..." until the allocation it
# failed was osn's.
# ATTEMPT sets $who (osn when it was) and $n2 (where osn's $i-th
# allocation was in its trace).  A kernel thread's allocations (cpuhp/N,
# osn's worker) vary a little from run to run: when the Nth was not osn's,
# aim again at where osn's $i-th was, at most 3 times; $again counts the
# aims, $n is the last N tried.
aim() {
	n=$1 _aim_f=$2
	shift 2
	_aim_a=0
	while :; do
		_aim_a=$((_aim_a + 1))
		"$_aim_f" "$n" "$@"
		[ "$who" = osn ] && break
		info "$op: N=$n was not osn's allocation this time (${who:-not reached}); osn's #$i was N=${n2:-none}"
		[ $_aim_a -lt 3 ] && [ -n "$n2" ] && [ "$n2" != "$n" ] || break
		n=$n2
		again=$((again + 1))
	done
}

# try_attempt N FAILNTH_ARGS...: try()'s operation with the Nth allocation
# failing; sets $out, $rc, $who, $n2 for aim().  An attempt whose failed
# allocation was not osn's is undone (or checked clean) here.
try_attempt() {
	_ta_n=$1
	shift
	out=$(faults_traced "$_ta_n" "$@")
	rc=$?
	[ $rc = 2 ] && fail "$op: osn-failnth: $out"
	calls=$(faults_calls)
	who=$(echo "$calls" | awk -v n="$_ta_n" '$1 == n { print $2 }')
	n2=$(echo "$calls" | awk -v i="$i" '$2 == "osn" && ++j == i { print $1 }')
	[ "$who" = osn ] && return 0
	if [ $rc = 0 ]; then
		eval "$undo" || fail "$op: cannot undo the attempt at N=$_ta_n"
	elif ! eval "$clean"; then
		info "$op: N=$_ta_n left state behind"
		notclean=$((notclean + 1))
	fi
}

try() {
	op=$1 clean=$2 undo=$3
	shift 4
	out=$(faults_traced 0 count "$@") || fail "$op: the dry run failed: $out"
	k=$(event_field "$out" allocations)
	calls=$(faults_calls) || fail "$op: the trace of the dry run lost its start"
	eval "$undo" || fail "$op: cannot undo the dry run"
	[ "${k:-0}" -gt 0 ] || fail "$op: the dry run counted no allocation"
	traced=$(echo "$calls" | grep -c .)
	[ "$traced" = "$k" ] ||
		fail "$op: fail-nth counted $k allocations, the trace $traced"
	nths=$(echo "$calls" | awk '$2 == "osn" { print $1 }')
	m=$(echo "$nths" | grep -c .)
	[ "$m" -gt 0 ] || info "$op: none of its $k allocations is osn's"
	stride=1
	[ "$m" -le $((3 * EDGE)) ] || stride=$(((m - 2 * EDGE) / EDGE + 1))
	i=0 tried=0 nfail=0 nok=0 errs= notclean=0 missed=0 again=0
	for n in $nths; do
		i=$((i + 1))
		if [ $i -gt "$EDGE" ] && [ $i -le $((m - EDGE)) ] &&
			[ $(((i - EDGE) % stride)) != 0 ]; then
			continue
		fi
		aim "$n" try_attempt "$@"
		tried=$((tried + 1))
		if [ "$who" != osn ]; then
			missed=$((missed + 1))
			continue
		fi
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
	done
	# The operation works again without injection.
	out=$(osn-failnth 0 "$@" 2>&1) || fail "$op: fails without injection: $out"
	eval "$undo" || fail "$op: cannot undo"
	echo "OSN-FAULT op=$op allocations=$k osn=$m tried=$tried failed=$nfail errors=${errs# } succeeded_anyway=$nok not_clean=$notclean aimed_again=$again missed=$missed"
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

# -- the start of a run, which osn's unbound worker does after the enable
# returned (it registers the probes and creates the CPUs' threads).  No
# writer's fail-nth reaches it, and which worker takes it is not known in
# advance: every unbound worker (kworker/u*) is armed with the same N, and
# the trace of the dry run gives the Ns that are osn's in the worker that
# took the start.  The kretprobes tell which allocation each attempt
# failed; one that was not osn's is counted as missed.
arm_kworkers() {
	for _t in $(faults_tids 'kworker/u*'); do
		echo "$1" >"/proc/$_t/task/$_t/fail-nth" 2>/dev/null
	done
}
on_exit arm_kworkers 0
# The worker that ran osn's code in the trace.
osn_worker() {
	awk '/ (slab|page): \(/ { pid = $1; sub(/.*-/, "", pid); next }
	/^ => .*\[osn\]/ { print pid; exit }' "$FT/trace"
}
start_ended() { [ "$(cat $P/start_error)" != 0 ] || eng_nthreads_is 1; }
# start_run N: enable, with the Nth allocation of every unbound worker
# failing, until the start ended; sets $worker and $left (what is left of
# its fail-nth count).
start_run() {
	echo >"$FT/trace"
	echo 1 >"$FT/tracing_on"
	echo "osn-failnth: armed" >"$FT/trace_marker"
	arm_kworkers "$1"
	echo 1 >"$inst/events/osn/sample/enable"
	wait_for 30 start_ended || fail "start: the start did not end (N=$1)"
	worker=$(osn_worker)
	left=$(cat "/proc/$worker/task/$worker/fail-nth" 2>/dev/null)
	arm_kworkers 0
	echo "osn-failnth: disarmed" >"$FT/trace_marker"
	echo 0 >"$FT/tracing_on"
	[ -n "$worker" ] || fail "start: no worker ran osn's code (N=$1)"
}
# start_off: disable, no thread left.
start_off() {
	echo 0 >"$inst/events/osn/sample/enable"
	wait_for 10 eng_nthreads_is 0 || fail "start: threads left after the disable"
}
assert_eq "$(cat $P/start_error)" 0 "start_error before the start row"
start_run 1000000000
k=$((1000000000 - ${left:-1000000000}))
calls=$(OSN_FAILNTH_TASK=$worker faults_calls) || fail "start: the trace lost its start"
start_off
nths=$(echo "$calls" | awk '$2 == "osn" { print $1 }')
m=$(echo "$nths" | grep -c .)
[ "$m" -gt 0 ] || fail "start: none of the worker's $k allocations is osn's"
op=start tried=0 nfail=0 nok=0 missed=0 notclean=0 again=0 i=0
# start_attempt N: one start with N armed, judged and undone; sets $who
# (osn when the allocation that failed was osn's) and $n2 (where osn's
# ith allocation was in this attempt's trace).
start_attempt() {
	start_run "$1"
	f=$(faults_failed)
	case "$f" in *"faults_failed: osn=0 "*) who=kernel ;; *) who=osn ;; esac
	n2=$(OSN_FAILNTH_TASK=$worker faults_calls | awk -v i="$i" '$2 == "osn" && ++j == i { print $1 }')
	if eng_nthreads_is 1; then
		outcome=ok
		[ $who = osn ] && info "start: N=$1 succeeded anyway; the failed allocation:" \
			$(echo "$f" | sed -n 's/^ => \([^+]*\)+.*/\1/p' | sed -n '2,7p')
		start_off
		return
	fi
	outcome=failed
	assert_eq "$(cat $P/start_error)" -12 "start_error after N=$1 failed"
	if ! wait_for 10 eng_nthreads_is 0; then
		info "start: N=$1 left threads: $(osn_threads | tr '\n' ' ')"
		notclean=$((notclean + 1))
	fi
	# Then a start without injection works (and clears start_error,
	# which start_run needs).
	start_off
	echo 1 >"$inst/events/osn/sample/enable"
	wait_for 30 eng_nthreads_is 1 && [ "$(cat $P/start_error)" = 0 ] ||
		fail "start: after N=$1, a start without injection failed: start_error=$(cat $P/start_error)"
	start_off
}
for n in $nths; do
	i=$((i + 1))
	aim "$n" start_attempt
	tried=$((tried + 1))
	if [ $who != osn ]; then
		missed=$((missed + 1))
		continue
	fi
	if [ $outcome = ok ]; then nok=$((nok + 1)); else nfail=$((nfail + 1)); fi
done
echo "OSN-FAULT op=start allocations=$k osn=$m tried=$tried failed=$nfail errors=ENOMEM succeeded_anyway=$nok not_clean=$notclean aimed_again=$again missed=$missed"
[ $notclean = 0 ] || bad=$((bad + 1))

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
# ... and failing in CPU 1's hotplug thread, cpuhp/1, which runs osn's
# online callback (it creates the CPU's workload thread).  A failure there
# does not fail the CPU: it comes online without osn's thread
# (20-fail-function.sh checks what dmesg says); the next online brings it.
cpuhp1=$(faults_tids cpuhp/1)
[ -n "$cpuhp1" ] || fail "no cpuhp/1 thread"
export OSN_FAILNTH_TASK=$cpuhp1
try hotplug-cpuhp offline1 "echo 0 >/sys/devices/system/cpu/cpu1/online && wait_for 10 eng_nthreads_is 1" \
	-- write /sys/devices/system/cpu/cpu1/online 1
unset OSN_FAILNTH_TASK
echo 1 >/sys/devices/system/cpu/cpu1/online
eng_wait_threads 2
echo 0 >"$inst/events/osn/sample/enable"

[ $bad = 0 ] || fail "$bad operations left state behind after a failed allocation"
exit 0
