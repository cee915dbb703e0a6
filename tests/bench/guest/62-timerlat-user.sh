#!/bin/sh
# timeout: 600
# User-space timerlat threads on CPU 1, period 1000 us: `osn timerlat
# hist -u` (osn.ko's /dev/osn_timerlat, a timerlatu/1 process) against
# `rtla timerlat hist -u` (upstream's timerlat_fd, since 6.5), the tools
# taking turns, rotated from one repeat to the next.  Each tool runs with
# -E large enough for no sample to overflow (1 us buckets) and ends on
# SIGINT; its histogram gives per context (irq, thr, usr: the return
# from user) n, min, median, p99, max (min and max the tool's own rows,
# median and p99 from the buckets), in us:
#   tlu_idle  $SECS s with nothing else running,
#   tlu_inj   while the injector stalls CPU 1 in hard IRQ $COUNT times
#             for $DUR us (as 60-timerlat.sh); *_top is the median of
#             the $COUNT largest latencies, stall_us the longest stall.
# Where rtla -u cannot run (no timerlat_fd, an rtla without -u), one
# "tlu_na tracer=rtla why=..." line says so instead of a number.
# Figures are reported, never asserted.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
inject_load
bench_setup

PERIOD=1000
SECS=5
[ "$BENCH_QUICK" = 1 ] && SECS=2
COUNT=5
DUR=10000
# as 60-timerlat.sh: the stalls' phase steps by a fifth of the period
INTERVAL=$((300000 + PERIOD / COUNT))
# 1 us buckets up to 200 ms: above a stall and the emulator's gaps
ENTRIES=200000

tools=
[ -x "$OSN" ] && osn_have && [ -e /dev/osn_timerlat ] && tools=osn
why=
if ! command -v rtla >/dev/null 2>&1; then
	why=no_rtla
elif [ ! -e "$UPD/per_cpu/cpu$BCPU/timerlat_fd" ]; then
	why=no_timerlat_fd_in_this_kernel
elif ! rtla timerlat hist --help 2>&1 | grep -q -- '--user-threads'; then
	why=rtla_without_-u
else
	tools="$tools rtla"
fi
[ -z "$why" ] || { info "rtla timerlat -u: n/a ($why)"; bench_result tlu_na rtla 1 "why=$why"; }
[ -n "$tools" ] || skip "neither osn nor rtla timerlat -u can run here"

on_exit bench_kill_tools osn_hist timerlat_hist
on_exit 'echo stop >"$INJ/inject"'

# hist_figs FILE: from a timerlat hist table (rtla's layout, both tools),
# the PREFIX_{n,min,med,p99,max,top,over} figures of irq, thr and usr.
hist_figs() {
	awk -v k=$COUNT '
	/^Index/ { for (i = 2; i <= NF; i++) { c = substr($i, 1, 3)
			col[i] = c == "IRQ" ? "irq" : c == "Thr" ? "thr" : c == "Usr" ? "usr" : "" }
		nc = NF; next }
	!nc { next }
	/^[0-9]+ / { for (i = 2; i <= nc; i++) if (col[i] != "" && $i > 0) {
			c = col[i]; m = ++nb[c]; idx[c, m] = $1; cnt[c, m] = $i; tot[c] += $i }
		next }
	/^over:/ { for (i = 2; i <= nc; i++) over[col[i]] = $i; next }
	/^min:/ { for (i = 2; i <= nc; i++) mn[col[i]] = $i; next }
	/^max:/ { for (i = 2; i <= nc; i++) mx[col[i]] = $i; next }
	function rank(c, r,   m, s) {	# the value of the r-th smallest
		s = 0
		for (m = 1; m <= nb[c]; m++) { s += cnt[c, m]; if (s >= r) return idx[c, m] }
		return mx[c]		# an overflow
	}
	END {
		split("irq thr usr", cs, " ")
		for (j = 1; j <= 3; j++) {
			c = cs[j]; n = tot[c] + over[c]
			if (!n) continue
			r50 = int(0.5 * n); if (r50 < 0.5 * n) r50++
			r99 = int(0.99 * n); if (r99 < 0.99 * n) r99++
			rt = n - int(k / 2); if (rt < 1) rt = 1
			printf "%s_n=%d %s_min=%s %s_med=%s %s_p99=%s %s_max=%s %s_top=%s %s_over=%d ",
				c, n, c, mn[c], c, rank(c, r50), c, rank(c, r99), c, mx[c],
				c, rank(c, rt), c, over[c] + 0
		}
	}' "$1"
}

# run FIG REP TOOL: one window of FIG (tlu_idle or tlu_inj) with TOOL.
run() {
	r_fig=$1 r_rep=$2 r_tool=$3
	set -- "$r_tool" timerlat hist -u -c $BCPU -p $PERIOD -E $ENTRIES -d 1h
	[ "$r_tool" = osn ] && set -- "$OSN" timerlat hist -u -c $BCPU -p $PERIOD -E $ENTRIES -d 1h
	taskset -c $HCPU "$@" >/tmp/tlu_out 2>&1 &
	r_pid=$!
	if ! bwait $((30 * ${OSN_TIMEOUT_SCALE:-1})) comm_running "^timerlatu/$BCPU\$"; then
		info "$r_tool: no timerlatu/$BCPU: $(tail -n 5 /tmp/tlu_out)"
		kill -INT $r_pid 2>/dev/null
		wait $r_pid
		return 0
	fi
	sleep 0.5
	r_extra=
	if [ "$r_fig" = tlu_inj ]; then
		inject irq $BCPU $COUNT $DUR $INTERVAL
		r_extra="stall_us=$(($(inject_status max_ns) / 1000)) stalls=$(inject_status "done")"
		sleep 0.5
	else
		sleep $SECS
	fi
	kill -INT $r_pid 2>/dev/null
	r_n=0
	while kill -0 $r_pid 2>/dev/null && [ $r_n -lt 300 ]; do
		sleep 0.1
		r_n=$((r_n + 1))
	done
	kill -0 $r_pid 2>/dev/null && { info "$r_tool did not stop on SIGINT"; kill -KILL $r_pid; }
	wait $r_pid
	r_rc=$?
	r_figs=$(hist_figs /tmp/tlu_out)
	# a tool that failed (rtla -u aborting) may leave half a table: no
	# figure from it
	[ "$r_rc" = 0 ] && grep -q '^max:' /tmp/tlu_out || r_figs=
	if [ -z "$r_figs" ] || [ "$r_rep" = 1 ]; then
		info "$r_tool $r_fig: rc=$r_rc, the end of its output:"
		grep -Ev '^[0-9]+ ' /tmp/tlu_out | tail -n 8 | sed 's/^/#   /'
	fi
	[ -n "$r_figs" ] || return 0
	bench_result "$r_fig" "$r_tool" "$r_rep" "$r_figs rc=$r_rc $r_extra"
}

info "tools: $tools, period $PERIOD us, ${SECS}s idle, $COUNT x $DUR us stalls, repeats: $BENCH_REPEATS"
for rep in $(bench_seq "$BENCH_REPEATS"); do
	for fig in tlu_idle tlu_inj; do
		# shellcheck disable=SC2086
		for t in $(bench_order $((rep - 1)) $tools); do
			run $fig "$rep" "$t"
		done
	done
done
exit 0
