#!/bin/sh
# timeout: 600
# Overhead on the rest of the system: a context-switch-heavy workload on
# CPU 0 (stress-ng --switch, bogo ops/s over real time) while
#   none  nothing runs on CPU 1 (idle),
#   busy  a plain busy loop (shell, no tracing) hogs CPU 1,
#   osn   osn measures CPU 1 (osn:sample enabled; period = runtime = 1 s),
#   osncause  the same with osn:noise_cause enabled too: its probes
#         (sched_waking, the workqueue's and the timers' tracepoints, IPI
#         sends) run on every CPU, CPU 0's context switches included,
#         and record origins for CPU 1,
#   up    upstream osnoise measures CPU 1 (same knobs).
# A tracer's probes run on every CPU (sched_switch, IRQ entry/exit); on
# CPU 0 they only find that it is not measured.  "busy" separates that
# from the emulator's own cost of a second busy vCPU.  With BENCH_SCALE=1
# "CPU 1" is every CPU but 0 (one busy loop each).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
require_bin stress-ng
bench_setup

SECS=4
[ "$BENCH_QUICK" = 1 ] && SECS=2
BENCH_BUF_KB=256

workload() {	# -> ops/s (real time) of stress-ng --switch on CPU 0
	sng_ops_s switch "$SECS" /tmp/bench_sng --switch 1
}

busy_pids=
busy_stop() {
	for _p in $busy_pids; do
		kill "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	busy_pids=
}
on_exit busy_stop

measure() {	# COND REP
	m_c=$1 m_rep=$2
	# the tracer, and osn's events: osncause is osn with noise_cause too
	m_tr=$m_c m_ev=sample
	[ "$m_c" = osncause ] && m_tr=osn m_ev="sample noise_cause"
	case $m_c in
	none)	;;
	busy)	for _c in $BCPU_LIST; do
			taskset -c "$_c" sh -c 'while :; do :; done' &
			busy_pids="$busy_pids $!"
		done ;;
	# shellcheck disable=SC2086 # one event per word
	*)	tr_start "$m_tr" bench_ovh 1000000 1000000 5 $m_ev ;;
	esac
	sleep 0.5
	m_ops=$(workload)
	case $m_c in
	none)	;;
	busy)	busy_stop ;;
	*)	tr_stop "$m_tr" bench_ovh
		tr_teardown "$m_tr" bench_ovh ;;
	esac
	if [ -z "$m_ops" ]; then
		info "$m_c: no stress-ng metrics: $(tail -n 5 /tmp/bench_sng)"
		return 0
	fi
	[ "$m_rep" = 1 ] && info "$m_c: $(grep -E ' switch ' /tmp/bench_sng | head -n 1)"
	bench_result overhead "$m_c" "$m_rep" "ops_s=$m_ops"
}

conds="none busy $(bench_tracers)"
osn_have && conds="$conds osncause"
info "conditions: $conds, repeats: $BENCH_REPEATS, ${SECS}s each"
for rep in $(bench_seq "$BENCH_REPEATS"); do
	for c in $(bench_order $((rep - 1)) $conds); do
		measure "$c" "$rep"
	done
done
exit 0
