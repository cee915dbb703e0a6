#!/bin/sh
# timeout: 300
# matrix: shard
# Knobs changed in a loop while osn runs: REL_CHURN_N (default 8) rounds
# of cpus (1, 0, 0-1, all: the threads must follow), period/runtime pairs
# and thresholds, each read back; then the same with three writers at once
# in the background (thresholds and stop limits, period/runtime pairs,
# options incl. OSNOISE_WORKLOAD on/off) against cpus writes in the
# foreground.  Afterwards the threads match the cpus knob and samples flow.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

N=${REL_CHURN_N:-8}
require_cpus 2
rel_setup
rel_knobs_measure
rel_instance rel_churn 256 sample
I=$REL_INST
rel_wait_threads osn/1
rel_assert_flowing "$I" "before the churn"

# set_pr PERIOD RUNTIME: in an order that is valid from any valid state.
set_pr() {
	osn_knob runtime_us 100
	osn_knob period_us "$1"
	osn_knob runtime_us "$2"
}
threads_of() {	# CPUS -> T
	case $1 in
	0) T=osn/0 ;;
	1) T=osn/1 ;;
	*) T="osn/0 osn/1" ;;
	esac
}

i=0
WRITES=0
while [ $i -lt "$N" ]; do
	set -- 1 0 0-1 all
	shift $((i % 4))
	rel_scan
	old=$REL_THREADS
	osn_knob cpus "$1"
	threads_of "$1"
	rel_wait_restart "$T" "$old"
	set -- "100000 20000" "50000 10000" "200000 20000" "1000 100" "10000 5000"
	shift $((i % 5))
	# shellcheck disable=SC2086
	set_pr $1
	set -- 0 1 5 50 1000 3
	shift $((i % 6))
	osn_knob threshold_us "$1"
	WRITES=$((WRITES + 5))
	i=$((i + 1))
done
info "[$(rel_elapsed)s] $N sequential rounds ($WRITES knob writes)"
rel_flowing "$I" 2 20 || fail "no sample events after the sequential churn"

# Concurrent writers.  Each leaves its knobs in a known state at the end;
# every write of theirs is valid, so a writer that sees one fail exits
# non-zero, and the test checks their exit statuses.
kw() {	# VALUE KNOB
	echo "$1" >"$OSN_PARAMS/$2" || { echo "writer: $2 <- $1 failed"; exit 1; }
}
(
	j=0
	while [ $j -lt $((N * 4)) ]; do
		for t in 0 7 100 1 20; do kw $t threshold_us; done
		kw 10000000 stop_tracing_us
		kw 0 stop_tracing_us
		kw 50000000 stop_tracing_total_us
		kw 0 stop_tracing_total_us
		j=$((j + 1))
	done
	kw 0 threshold_us
) &
w1=$!
(
	j=0
	while [ $j -lt $((N * 2)) ]; do
		for pr in "100000 20000" "50000 5000" "2000 1000" "100000 20000"; do
			# shellcheck disable=SC2086
			set -- $pr
			kw 100 runtime_us
			kw "$1" period_us
			kw "$2" runtime_us
		done
		j=$((j + 1))
	done
) &
w2=$!
(
	j=0
	while [ $j -lt "$N" ]; do
		for o in OSNOISE_PREEMPT_DISABLE NO_OSNOISE_PREEMPT_DISABLE \
			 OSNOISE_IRQ_DISABLE NO_OSNOISE_IRQ_DISABLE NO_OSNOISE_WORKLOAD DEFAULTS; do
			kw $o options
		done
		sleep 0.2
		j=$((j + 1))
	done
	kw DEFAULTS options
) &
w3=$!
on_exit "kill $w1 $w2 $w3"
CW=0
while kill -0 $w1 2>/dev/null || kill -0 $w2 2>/dev/null || kill -0 $w3 2>/dev/null; do
	set -- 0-1 0 1 all
	shift $((CW % 4))
	echo "$1" >"$OSN_PARAMS/cpus" || fail "cpus=$1 rejected during the churn"
	CW=$((CW + 1))
	sleep 0.3
done
wait $w1
r1=$?
wait $w2
r2=$?
wait $w3
r3=$?
info "[$(rel_elapsed)s] background writers done ($r1 $r2 $r3), $CW cpus writes"
assert_eq "$r1 $r2 $r3" "0 0 0" "exit statuses of the concurrent writers"
# Every writer's last writes must have stuck.
assert_eq "$(osn_knob threshold_us) $(osn_knob stop_tracing_us) $(osn_knob stop_tracing_total_us)" "0 0 0" \
	"threshold and stop knobs after the churn"
assert_eq "$(osn_knob period_us) $(osn_knob runtime_us)" "100000 20000" "period/runtime after the churn"
assert_eq "$(osn_knob options)" "OSNOISE_WORKLOAD NO_PANIC_ON_STOP NO_OSNOISE_PREEMPT_DISABLE NO_OSNOISE_IRQ_DISABLE" \
	"options after the churn"
cpus=$(osn_knob cpus)
threads_of "$cpus"
rel_wait_stable "$T"
rel_flowing "$I" 2 20 || fail "no sample events after the concurrent churn (cpus=$cpus)"
CONC=$((N * 4 * 9 + 1 + N * 2 * 12 + N * 6 + 1))

echo 0 >"$I/events/osn/enable"
rel_wait_no_threads
rel_knobs_measure
rel_module_works
figures "knob churn: $N sequential rounds ($WRITES writes, $N thread restarts)," \
	"concurrent: $CONC writes from 3 writers + $CW cpus writes; threads left after stop: 0"
exit 0
