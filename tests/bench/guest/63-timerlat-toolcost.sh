#!/bin/sh
# timeout: 600
# Tool cost of timerlat: `osn timerlat top -q -d $SECS` against `rtla
# timerlat top -q -d $SECS`, both pinned to CPU 0, measuring CPU 1 (with
# BENCH_SCALE=1 every CPU but 0) with the kernel's timerlat threads (osn -k; rtla's own default where it
# has no -k, its -k where it has), period 1000 us, nothing injected.
# The tools take turns, rotated from one repeat to the next:
#   tlt_cost  cpu_ms: the tool's CPU time, user + sys, start to exit
#             (busybox time -p), wall_ms, and hwm_kb: its peak RSS
#             (VmHWM of /proc/PID/status, read until it exits).
# Figures are reported, never asserted.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
bench_setup

PERIOD=1000
SECS=5
[ "$BENCH_QUICK" = 1 ] && SECS=2

tools=
[ -x "$OSN" ] && osn_have && tools=osn
command -v rtla >/dev/null 2>&1 && up_have &&
	grep -qw timerlat "$TFS/available_tracers" && tools="$tools rtla"
[ -n "$tools" ] || skip "neither osn nor rtla timerlat can run here"
rtla_k=
rtla timerlat top --help 2>&1 | grep -q -- '--kernel-threads' && rtla_k=-k

on_exit bench_kill_tools osn_top timerlat_top

uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# run REP TOOL
run() {
	r_rep=$1 r_tool=$2
	case $r_tool in
	osn)	set -- "$OSN" timerlat top -k ;;
	rtla)	set -- rtla timerlat top $rtla_k ;;
	esac
	set -- "$@" -q -c $BCPUS -p $PERIOD -d ${SECS}s
	mem_settle
	r_t0=$(uptime_ms)
	busybox time -p -o /tmp/tlt_time taskset -c $HCPU "$@" >/tmp/tlt_out 2>&1 &
	r_tpid=$!
	r_pid= r_hwm=
	while kill -0 $r_tpid 2>/dev/null; do
		[ -n "$r_pid" ] || r_pid=$(pidof "$r_tool" | awk '{ print $1 }')
		if [ -n "$r_pid" ]; then
			r_h=$(awk '/^VmHWM:/ { print $2 }' /proc/$r_pid/status 2>/dev/null)
			[ -n "$r_h" ] && r_hwm=$r_h
		fi
		sleep 0.2
	done
	wait $r_tpid
	r_rc=$?
	r_t1=$(uptime_ms)
	r_cpu=$(cputime_ms /tmp/tlt_time)
	if [ "$r_rep" = 1 ] || [ -z "$r_hwm" ] || [ "$r_rc" != 0 ]; then
		info "$r_tool: rc=$r_rc cpu=${r_cpu}ms hwm=${r_hwm}kB: $*"
		sed 's/\x1b\[[0-9;]*m//g' /tmp/tlt_out | grep -v '^ *$' | tail -n 6 | sed 's/^/#   /'
	fi
	bench_result tlt_cost "$r_tool" "$r_rep" \
		"cpu_ms=$r_cpu wall_ms=$((r_t1 - r_t0)) hwm_kb=${r_hwm:-nan} rc=$r_rc"
}

info "tools: $tools (rtla ${rtla_k:-without -k}), ${SECS}s each, repeats: $BENCH_REPEATS"
for rep in $(bench_seq "$BENCH_REPEATS"); do
	# shellcheck disable=SC2086
	for t in $(bench_order $((rep - 1)) $tools); do
		run "$rep" "$t"
	done
done
exit 0
