#!/bin/sh
# timeout: 1200
# Timer latency on CPU 1, period 1000 us, one tracer at a time:
#   osn   osn in mode=timerlat, its osn:timerlat_sample events in an
#         instance (kthread timerlat/1, SCHED_FIFO 95),
#   up    upstream's timerlat tracer in an instance (its own timerlat/1
#         kthread; the trace's "context irq|thread timer_latency" lines),
#   cyclictest  the user-space reference (one SCHED_FIFO 95 thread on
#         CPU 1, clock_nanosleep; thread latency only, 1 us buckets).
# Three figures per repeat, each with the tracers taking turns:
#   tl_idle  latencies with nothing else running: min/avg/p99/max of the
#            IRQ (irq_*) and thread (thr_*) latency, samples per second;
#   tl_inj   the same while the injector stalls CPU 1 in hard IRQ
#            $COUNT times for $DUR us (a hard hrtimer busy-waiting, as
#            tests/guest/timerlat/20-irq-stall.sh): the activation due in
#            a stall waits for its end, so each stall yields one thread
#            latency near its length (and an IRQ latency as long, unless
#            the stall began before the thread armed that activation).
#            *_top is the median of the $COUNT largest latencies, which an
#            odd emulator gap cannot move as it moves the max; stall_us
#            is the injector's longest stall;
#   tl_cost  what the tracer costs the measured CPU: stress-ng --cpu on
#            CPU 1 (bogo ops/s, real time) with the tracer ("none": none);
#   tl_rest  what it costs the rest of the system: stress-ng --switch on
#            CPU 0 (context switches, bogo ops/s) while CPU 1 is
#            measured: a tracer's probes on the scheduler and interrupt
#            tracepoints run on every CPU, and on CPU 0 only find that it
#            is not measured (as 30-overhead.sh for osnoise).
# Latencies in us.  Figures are reported, never asserted.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
require_bin stress-ng
inject_load
bench_setup

PERIOD=1000
SECS=6
COST_SECS=5
[ "$BENCH_QUICK" = 1 ] && SECS=3 COST_SECS=3
COUNT=5
DUR=10000
# The stalls' phase against the period steps by a fifth of it from one
# stall to the next: the activation due in a stall has its timer armed
# only if the thread ran after the previous one before the stall began,
# so the IRQ latency a stall yields depends on that phase, and with an
# interval a multiple of the period all stalls of a run would share it.
INTERVAL=$((300000 + PERIOD / COUNT))
# the injected window: COUNT stalls INTERVAL apart, with room either side
INJ_SECS=$((COUNT * INTERVAL / 1000000 + 3))
# a cyclictest histogram wide enough for the stalls (overflows count at
# its max)
CT_HIST_US=$((DUR * 5))
# shellcheck disable=SC2034 # read by bench_instance
BENCH_BUF_KB=2048
BCPU3=$(printf '%03d' $BCPU)

have_up_tl() {
	up_have && grep -qw timerlat "$TFS/available_tracers" 2>/dev/null
}

tracers=
osn_have && tracers=osn
have_up_tl && tracers="$tracers up"
command -v cyclictest >/dev/null 2>&1 && tracers="$tracers cyclictest"
[ -n "$tracers" ] || skip "no timerlat tracer here"
if osn_have; then
	osn_knob mode timerlat
fi
if have_up_tl; then
	_tlp=$(cat "$UPD/timerlat_period_us")
	on_exit "echo $_tlp >$UPD/timerlat_period_us"
fi

tl_no_threads() {
	! comm_running '^timerlat/'
}

# tl_start osn|up NAME: the tracer on CPU $BCPU in instance NAME.
tl_start() {
	case $1 in
	osn)	echo $BCPU >"$OSN_PARAMS/cpus" || fail "osn cpus"
		echo $PERIOD >"$OSN_PARAMS/timerlat_period_us" || fail "osn timerlat_period_us"
		bench_instance "$2" rm_instance
		echo 1 >"$BI/events/osn/timerlat_sample/enable" || fail "enable osn/timerlat_sample" ;;
	up)	echo $BCPU >"$UPD/cpus" || fail "osnoise/cpus"
		echo $PERIOD >"$UPD/timerlat_period_us" || fail "osnoise/timerlat_period_us"
		bench_instance "$2" up_teardown
		echo timerlat >"$BI/current_tracer" || fail "current_tracer=timerlat" ;;
	esac
	echo 1 >"$BI/tracing_on"
	bwait 20 comm_running "^timerlat/$BCPU\$" || fail "no timerlat/$BCPU thread ($1)"
}

# tl_stop osn|up NAME FILE: stop, the instance's trace in FILE, teardown.
tl_stop() {
	echo 0 >"$BI/tracing_on"
	cp "$BI/trace" "$3"
	case $1 in
	osn)	echo 0 >"$BI/events/enable"
		rm_instance "$2" ;;
	up)	up_teardown "$2" ;;
	esac
	bwait 20 tl_no_threads || info "timerlat threads still running after $1"
}

# tl_parse FILE: "ts context latency_ns" of CPU $BCPU's samples, from
# osn:timerlat_sample or upstream's timerlat lines (context 0 irq, 1
# thread).  The timestamp ends at the line's first ": ".
tl_parse() {
	awk -v cpu=" [$BCPU3] " 'index($0, cpu) {
		ts = $0; sub(/: .*/, "", ts); sub(/.* /, "", ts)
		if (match($0, /timer_latency=[0-9]+ seqnum=[0-9]+ context=[01]/)) {
			s = substr($0, RSTART, RLENGTH)
			ctx = substr(s, length(s), 1)
			sub(/ .*/, "", s); sub(/.*=/, "", s)
		} else if (match($0, /context +(irq|thread) +timer_latency +[0-9]+/)) {
			s = substr($0, RSTART, RLENGTH)
			ctx = (s ~ /irq/) ? 0 : 1
			sub(/.* /, "", s)
		} else
			next
		print ts, ctx, s
	}' "$1"
}

# lat_stats PREFIX SECS: from "latency_ns [ts]" lines on stdin, the
# key=value figures PREFIX_{n,n_s,min,avg,p99,max,top} in us; the rate
# over the span of the timestamps, or over SECS without them.
lat_stats() {
	sort -n | awk -v p="$1" -v secs="$2" -v k=$COUNT '
	{ n++; v[n] = $1; sum += $1
	  if (NF > 1) { if (!t0 || $2 < t0) t0 = $2; if ($2 > t1) t1 = $2 } }
	END {
		if (!n) exit
		rate = t1 > t0 ? (n - 1) / (t1 - t0) : (secs > 0 ? n / secs : 0)
		i = int(0.99 * n); if (i < 0.99 * n) i++
		j = n - int(k / 2); if (j < 1) j = 1
		printf "%s_n=%d %s_n_s=%.1f %s_min=%.2f %s_avg=%.2f %s_p99=%.2f %s_max=%.2f %s_top=%.2f\n",
			p, n, p, rate, p, v[1] / 1e3, p, sum / n / 1e3, p, v[i] / 1e3,
			p, v[n] / 1e3, p, v[j] / 1e3
	}'
}

# trace_figs FILE: the irq_* and thr_* figures of a tracer's trace.
trace_figs() {
	tl_parse "$1" >/tmp/tl_samples
	_i=$(awk '$2 == 0 { print $3, $1 }' /tmp/tl_samples | lat_stats irq 0)
	_t=$(awk '$2 == 1 { print $3, $1 }' /tmp/tl_samples | lat_stats thr 0)
	echo "$_i $_t"
}

# ct_run SECS: cyclictest on CPU $BCPU for SECS s (in the background,
# its pid in CT_PID, JSON in /tmp/ct.json).
ct_run() {
	rm -f /tmp/ct.json
	cyclictest -q -m -a $BCPU -t 1 -p 95 -i $PERIOD -D "$1" --mainaffinity=$HCPU \
		-h $CT_HIST_US --histfile=/dev/null --json=/tmp/ct.json >/tmp/ct.out 2>&1 &
	CT_PID=$!
}

# ct_figs SECS: the thr_* figures of the last cyclictest run, once it
# has ended (its histogram expanded; overflows at its max).
ct_figs() {
	[ -s /tmp/ct.json ] || { info "cyclictest: no JSON: $(tail -n 3 /tmp/ct.out)"; return 0; }
	jq -r '.thread["0"] | "\(.cycles) \(.max)", (.histogram | to_entries[] | "\(.key) \(.value)")' \
		/tmp/ct.json | awk 'NR == 1 { cyc = $1; max = $2; next }
		{ for (i = 0; i < $2; i++) print $1 * 1000; seen += $2 }
		END { for (; seen < cyc; seen++) print max * 1000 }' | lat_stats thr "$1"
}

# latency FIG REP TRACER: one window of FIG (tl_idle or tl_inj).
latency() {
	l_fig=$1 l_rep=$2 l_tr=$3
	l_secs=$SECS
	[ "$l_fig" = tl_inj ] && l_secs=$INJ_SECS
	case $l_tr in
	cyclictest)	ct_run "$l_secs" ;;
	*)		tl_start "$l_tr" bench_tl ;;
	esac
	l_extra=
	if [ "$l_fig" = tl_inj ]; then
		sleep 0.5
		inject irq $BCPU $COUNT $DUR $INTERVAL
		l_extra="stall_us=$(($(inject_status max_ns) / 1000)) stalls=$(inject_status "done")"
		[ "$l_tr" = cyclictest ] && ! kill -0 $CT_PID 2>/dev/null &&
			info "cyclictest ended before the injection did"
		[ "$l_tr" = cyclictest ] || sleep 0.5
	else
		[ "$l_tr" = cyclictest ] || sleep "$l_secs"
	fi
	case $l_tr in
	cyclictest)	wait $CT_PID
			l_figs=$(ct_figs "$l_secs") ;;
	*)		tl_stop "$l_tr" bench_tl /tmp/tl_trace
			l_figs=$(trace_figs /tmp/tl_trace) ;;
	esac
	if [ -z "$l_figs" ]; then
		info "$l_fig $l_tr: no samples"
		return 0
	fi
	bench_result "$l_fig" "$l_tr" "$l_rep" "$l_figs $l_extra"
}

# cost FIG REP COND: while COND measures CPU $BCPU, stress-ng --cpu on
# it (tl_cost) or --switch on CPU 0 (tl_rest).
cost() {
	c_fig=$1 c_rep=$2 c_tr=$3
	case $c_tr in
	none)	;;
	cyclictest)	ct_run $((COST_SECS + 5)) ;;
	*)	tl_start "$c_tr" bench_tl ;;
	esac
	sleep 0.5
	if [ "$c_fig" = tl_cost ]; then
		c_ops=$(sng_ops_s_on $BCPU cpu "$COST_SECS" /tmp/bench_sng --cpu 1 --cpu-method int64)
	else
		c_ops=$(sng_ops_s_on 0 switch "$COST_SECS" /tmp/bench_sng --switch 1)
	fi
	case $c_tr in
	none)	;;
	cyclictest)	kill -INT $CT_PID 2>/dev/null; wait $CT_PID ;;
	*)	tl_stop "$c_tr" bench_tl /dev/null ;;
	esac
	if [ -z "$c_ops" ]; then
		info "$c_tr: no stress-ng metrics: $(tail -n 5 /tmp/bench_sng)"
		return 0
	fi
	bench_result "$c_fig" "$c_tr" "$c_rep" "ops_s=$c_ops"
}

info "tracers: $tracers, period $PERIOD us, ${SECS}s idle, $COUNT x $DUR us stalls," \
	"stress-ng ${COST_SECS}s, repeats: $BENCH_REPEATS"
for rep in $(bench_seq "$BENCH_REPEATS"); do
	# shellcheck disable=SC2086
	for t in $(bench_order $((rep - 1)) $tracers); do
		latency tl_idle "$rep" "$t"
	done
	# shellcheck disable=SC2086
	for t in $(bench_order $((rep - 1)) $tracers); do
		latency tl_inj "$rep" "$t"
	done
	# shellcheck disable=SC2086
	for t in $(bench_order $((rep - 1)) none $tracers); do
		cost tl_cost "$rep" "$t"
	done
	# shellcheck disable=SC2086
	for t in $(bench_order $((rep - 1)) none $tracers); do
		cost tl_rest "$rep" "$t"
	done
done
exit 0
