#!/bin/sh
# timeout: 900
# Attribution accuracy: 50 x 200 us stalls injected on CPU 1 in hard IRQ
# (hrtimer, local_timer vector), softirq (soft hrtimer; a thread on
# PREEMPT_RT), thread (SCHED_FIFO kthread) and IPI (call_function_single)
# context while one tracer measures CPU 1 (period = runtime = 100 ms,
# threshold 20 us).  One tracer session per repeat covers a background
# window (nothing injected: under TCG ordinary interrupts alone can last
# 200 us and more) and then the four injection runs, each between trace
# markers.  Per context and run:
#   matched   events of the right source (class and name) >= the injected
#             duration inside the injection window
#   sum_ns    their total duration, against the injector's stolen_ns
#   bg, bg_ns the same in the background window (bg_ms long), to subtract
#             at the injection window's length (window_ms)
#   st        sample_threshold events >= the injected duration with
#             interference >= 1 inside the injection window
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
inject_load
bench_setup

COUNT=50
DUR=200
BGWIN=3
[ "$BENCH_QUICK" = 1 ] && COUNT=20 BGWIN=1
BENCH_BUF_KB=8192

# expected CTX COMM: "EVENT ERE" of the right source for CTX (COMM: the
# comm of the task that ran the injections)
expected() {
	case $1 in
	irq)	echo "irq_noise irq_noise: local_timer:" ;;
	softirq)
		if is_rt; then
			echo "thread_noise thread_noise: +$2:"
		else
			echo "softirq_noise softirq_noise: +HRTIMER:8 "
		fi ;;
	thread)	echo "thread_noise thread_noise: +osn_inject/$BCPU:" ;;
	ipi)	echo "irq_noise irq_noise: call_function_single:" ;;
	esac
}

uptime_cs() {
	awk '{ printf "%d\n", $1 * 100 }' /proc/uptime
}

mark() {
	echo "$*" >"$BI/trace_marker"
}

session() {	# TRACER REP
	s_t=$1 s_rep=$2
	tr_start "$s_t" bench_attr 100000 100000 20 \
		sample sample_threshold irq_noise softirq_noise thread_noise nmi_noise
	sleep 0.3
	s_c0=$(uptime_cs)
	mark BENCH_BG_BEGIN
	sleep $BGWIN
	mark BENCH_BG_END
	s_bgms=$((($(uptime_cs) - s_c0) * 10))
	: >/tmp/bench_attr.runs
	for s_c in $ctxs; do
		s_c0=$(uptime_cs)
		mark BENCH_INJ_BEGIN "$s_c"
		inject "$s_c" $BCPU $COUNT $DUR
		mark BENCH_INJ_END "$s_c"
		echo "$s_c $((($(uptime_cs) - s_c0) * 10)) $(inject_status)" >>/tmp/bench_attr.runs
	done
	sleep 0.2
	tr_stop "$s_t" bench_attr
	cp "$BI/trace" /tmp/bench_attr
	tr_teardown "$s_t" bench_attr

	while read -r s_c s_ms s_status; do
		s_done=$(echo "$s_status" | tr ' ' '\n' | sed -n 's/^done=//p')
		s_stolen=$(echo "$s_status" | tr ' ' '\n' | sed -n 's/^stolen_ns=//p')
		s_comm=$(echo "$s_status" | tr ' ' '\n' | sed -n 's/^comm=//p')
		set -- $(expected "$s_c" "$s_comm")
		s_ev=$1
		shift
		s_r=$(awk -v ev=" $s_ev: " -v ere="$*" -v ctx="$s_c" -v m=$((DUR * 1000)) '
			/tracing_mark_write: BENCH_/ {
				w = ""
				if ($0 ~ /BENCH_BG_BEGIN/) w = "bg"
				if ($0 ~ ("BENCH_INJ_BEGIN " ctx "$")) w = "in"
				next
			}
			w == "" { next }
			/LOST [0-9]+ EVENTS/ { lost++ }
			index($0, ev) && $0 ~ ere && match($0, / duration [0-9]+ ns/) {
				d = substr($0, RSTART + 10, RLENGTH - 13) + 0
				if (d >= m) { n[w]++; s[w] += d }
			}
			w == "in" && / sample_threshold: / &&
			    match($0, / duration [0-9]+ ns interference [0-9]+/) {
				split(substr($0, RSTART + 1, RLENGTH - 1), f, " ")
				if (f[2] + 0 >= m && f[5] + 0 >= 1) st++
			}
			END { printf "matched=%d sum_ns=%d bg=%d bg_ns=%d st=%d lost=%d\n",
				n["in"], s["in"], n["bg"], s["bg"], st, lost }' \
			/tmp/bench_attr)
		if [ "$s_rep" = 1 ]; then
			info "$s_t $s_c: $s_status window=${s_ms}ms"
			info "$s_t $s_c: $(grep -E " $s_ev: " /tmp/bench_attr | grep -E -- "$*" | head -n 2 | tr -s ' ')"
		fi
		bench_result "attr_$s_c" "$s_t" "$s_rep" \
			"$s_r done=$s_done stolen_ns=$s_stolen window_ms=$s_ms bg_ms=$s_bgms"
	done </tmp/bench_attr.runs
	[ "$s_rep" = 1 ] && info "$s_t: $(grep -c . /tmp/bench_attr) trace lines, $(grep -c ' sample_threshold: ' /tmp/bench_attr) sample_threshold"
	return 0
}

ctxs="irq softirq thread ipi"
[ -d "$TFS/events/irq_vectors/call_function_single_entry" ] || ctxs="irq softirq thread"
tracers=$(bench_tracers)
info "tracers: $tracers, contexts: $ctxs, $COUNT x ${DUR}us, repeats: $BENCH_REPEATS"
for rep in $(bench_seq "$BENCH_REPEATS"); do
	for t in $(bench_order $((rep - 1)) $tracers); do
		session "$t" "$rep"
	done
done
exit 0
