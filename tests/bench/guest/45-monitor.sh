#!/bin/sh
# timeout: 600
# What `osn monitor` costs: its own CPU, pinned to CPU 0, while it watches
# CPU 1 with its defaults (probes only, HTTP on 127.0.0.1:9627, the
# textfile every 15 s) and is scraped every $SCRAPE s, Prometheus's
# default scrape interval (15 s), by busybox wget:
#   low   nothing injected: the guest's own ticks and wake-ups on CPU 1,
#   high  5 us hard-IRQ stalls injected on CPU 1 as fast as the injector
#         allows (one per ms at most: inject_start), each a noise the
#         monitor counts, at most 100000 of them;
# run_pct = CPU time in % of one CPU over $SECS s (/proc/PID/schedstat's
# on-CPU ns, a scheduler clock: no tick sampling), wake-ups per second
# (voluntary context switches), the scrapes that failed, its RSS.  The
# issue's bound is 0.5 % of one CPU at the default scrape interval.
# Under TCG every figure is an upper bound: how much slower the emulated
# CPU runs user-space code is measured here too ("speed": stress-ng's
# integer CPU method on CPU 0, bogo ops/s; tests/bench/run.sh runs the same
# binary on the host, and report.py gives the ratio).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
inject_load
bench_setup

osn_have || skip "osn.ko cannot load on $OSN_KVER"
[ -x "$OSN" ] || skip "no osn binary"
[ -d /proc/sys/net/ipv4 ] || skip "this kernel has no IPv4 (CONFIG_INET): no HTTP endpoint"
command -v wget >/dev/null || skip "no wget in the guest"

SCRAPE=15
SECS=60
if [ "$BENCH_QUICK" = 1 ]; then
	SCRAPE=5 SECS=10
elif [ "$BENCH_SCALE" = 1 ]; then
	# one boot per vCPU count (run.sh --scale): shorter windows
	SECS=30
fi
REPS=${BENCH_TOOL_REPEATS:-3}
[ "$REPS" -le "$BENCH_REPEATS" ] || REPS=$BENCH_REPEATS
URL=http://127.0.0.1:9627/metrics
D=/tmp/bench_textfile

lo_up

mon_pid=
mon_stop() {
	[ -n "$mon_pid" ] || return 0
	kill -INT "$mon_pid" 2>/dev/null
	wait "$mon_pid" 2>/dev/null
	mon_pid=
}
on_exit mon_stop
on_exit 'echo stop >"$INJ/inject"'

cpu_ns() {	# PID -> ns on a CPU so far
	awk '{ print $1 }' "/proc/$1/schedstat" 2>/dev/null
}
scrape() {	# -> true when GET /metrics returned osn_up
	wget -q -O /tmp/bench_m.prom "$URL" 2>/dev/null &&
		grep -q '^osn_up ' /tmp/bench_m.prom
}

# window REP FIG: $SECS s of the running monitor, scraped every $SCRAPE s
window() {
	w_c0=$(cpu_ns "$mon_pid") w_w0=$(wakeups "$mon_pid") w_t0=$(now_us)
	w_fail=0 w_n=0 w_s=0
	while [ $w_s -lt "$SECS" ]; do
		scrape || w_fail=$((w_fail + 1))
		w_n=$((w_n + 1))
		sleep "$SCRAPE"
		w_s=$((w_s + SCRAPE))
	done
	w_c1=$(cpu_ns "$mon_pid") w_w1=$(wakeups "$mon_pid") w_t1=$(now_us)
	[ -n "$w_c0" ] && [ -n "$w_c1" ] || { info "$2: the monitor is gone"; return 1; }
	w_us=$((w_t1 - w_t0))
	bench_result "$2" osn "$1" "$(awk -v c=$((w_c1 - w_c0)) -v us=$w_us \
		-v w=$((w_w1 - w_w0)) -v n=$w_n -v f=$w_fail -v s="$SCRAPE" \
		-v rss="$(awk '/^VmRSS:/ { print $2 }' "/proc/$mon_pid/status")" 'BEGIN {
		printf "run_pct=%.3f cpu_ms=%.1f secs=%.1f wakeups_s=%.2f scrapes=%d failed=%d scrape_s=%d rss_kb=%d\n",
			100 * c / 1000 / us, c / 1e6, us / 1e6, w * 1e6 / us, n, f, s, rss }')"
}

run() {	# REP
	rm -rf "$D"
	mkdir -p "$D"
	taskset -c $HCPU "$OSN" monitor -c $BCPUS --listen 127.0.0.1:9627 \
		--textfile "$D" >/tmp/bench_mon.log 2>&1 &
	mon_pid=$!
	bwait 60 scrape || { info "monitor: no osn_up on $URL: $(tail -n 5 /tmp/bench_mon.log)"; mon_stop; return 0; }
	sleep 1
	window "$1" monitor_low || { mon_stop; return 0; }
	inject_start irq $BCPU 100000 5 150
	sleep 1
	r_i0=$(inject_status "done")
	window "$1" monitor_high
	r_i1=$(inject_status "done")
	echo stop >"$INJ/inject"
	inject_wait 30
	scrape && [ "$1" = 1 ] &&
		info "monitor: local_timer on CPU $BCPU: $(grep "^osn_noise_events_total{cpu=\"$BCPU\",class=\"irq\",source=\"local_timer\"}" /tmp/bench_m.prom)"
	info "monitor: injected $((r_i1 - r_i0)) IRQs during the high window"
	mon_stop
	[ "$1" = 1 ] && info "monitor log: $(tail -n 3 /tmp/bench_mon.log | tr '\n' '|')"
}

# speed: the same user-space code as tests/bench/run.sh times on the host
sp_s=5
[ "$BENCH_QUICK" = 1 ] && sp_s=2
sp=$(sng_ops_s cpu $sp_s /tmp/bench_speed --cpu 1 --cpu-method int64)
if [ -n "$sp" ]; then
	bench_result speed guest 1 "ops_s=$sp"
else
	info "stress-ng --cpu: no metrics: $(tail -n 3 /tmp/bench_speed)"
fi

info "repeats: $REPS, ${SECS}s per window, a scrape every ${SCRAPE}s"
for rep in $(bench_seq "$REPS"); do
	run "$rep"
done
exit 0
