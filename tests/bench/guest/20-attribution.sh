#!/bin/sh
# timeout: 600
# Attribution accuracy: 50 x 200 us stalls injected on CPU 1 in hard IRQ
# (hrtimer, local_timer vector), softirq (soft hrtimer; a thread on
# PREEMPT_RT), thread (SCHED_FIFO kthread) and IPI (call_function_single)
# context while one tracer measures CPU 1 (period = runtime = 100 ms,
# threshold 20 us).  Trace markers split each run into the injection
# window and a window of the same length right after it, with nothing
# injected (background: under TCG, ordinary timer interrupts alone can
# last 200 us).  Per run:
#   matched  events of the right source (class and name) with a duration
#            >= the injected one, inside the injection window
#   sum_ns   their total duration, against the injector's stolen_ns
#   bg, bg_ns  the same in the background window
#   st       sample_threshold events >= the injected duration with
#            interference >= 1, inside the injection window
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
inject_load
bench_setup

COUNT=50
DUR=200
[ "$BENCH_QUICK" = 1 ] && COUNT=20
BENCH_BUF_KB=4096

# expected CTX: "EVENT ERE" of the right source for CTX (@COMM@: the
# injecting task's comm, known after the run)
expected() {
	case $1 in
	irq)	echo "irq_noise irq_noise: local_timer:" ;;
	softirq)
		if is_rt; then
			echo "thread_noise thread_noise: +@COMM@:"
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
	echo "$1" >"$BI/trace_marker"
}

attrib() {	# TRACER CTX REP
	a_t=$1 a_c=$2 a_rep=$3
	tr_start "$a_t" bench_attr 100000 100000 20 \
		sample sample_threshold irq_noise softirq_noise thread_noise nmi_noise
	sleep 0.3
	a_t0=$(uptime_cs)
	mark BENCH_INJ_BEGIN
	inject "$a_c" $BCPU $COUNT $DUR
	mark BENCH_INJ_END
	a_cs=$(($(uptime_cs) - a_t0))
	a_done=$(inject_status done)
	a_stolen=$(inject_status stolen_ns)
	a_comm=$(inject_status comm)
	a_status=$(inject_status)
	# the background window: as long as the injection took
	sleep "$(awk -v c=$a_cs 'BEGIN { printf "%.2f", c / 100 }')"
	mark BENCH_BG_END
	sleep 0.2
	tr_stop "$a_t" bench_attr
	cp "$BI/trace" /tmp/bench_attr
	tr_teardown "$a_t" bench_attr

	set -- $(expected "$a_c")
	a_ev=$1
	shift
	a_ere=$(echo "$*" | sed "s|@COMM@|$a_comm|g")
	a_r=$(awk -v ev=" $a_ev: " -v ere="$a_ere" -v m=$((DUR * 1000)) '
		/tracing_mark_write: BENCH_INJ_BEGIN/ { w = "in"; next }
		/tracing_mark_write: BENCH_INJ_END/ { w = "bg"; next }
		/tracing_mark_write: BENCH_BG_END/ { w = ""; next }
		w == "" { next }
		/ LOST [0-9]+ EVENTS/ { lost++ }
		index($0, ev) && $0 ~ ere && match($0, / duration [0-9]+ ns/) {
			d = substr($0, RSTART + 10, RLENGTH - 13) + 0
			if (d >= m) { n[w]++; s[w] += d }
		}
		w == "in" && / sample_threshold: / && match($0, / duration [0-9]+ ns interference [0-9]+/) {
			split(substr($0, RSTART + 1, RLENGTH - 1), f, " ")
			if (f[2] + 0 >= m && f[5] + 0 >= 1) st++
		}
		END { printf "matched=%d sum_ns=%d bg=%d bg_ns=%d st=%d lost=%d\n",
			n["in"], s["in"], n["bg"], s["bg"], st, lost }' /tmp/bench_attr)
	if [ "$a_rep" = 1 ]; then
		info "$a_t $a_c: $a_status window=${a_cs}0ms"
		info "$a_t $a_c: $(grep -E " $a_ev: " /tmp/bench_attr | grep -E -- "$a_ere" | head -n 2 | tr -s ' ')"
	fi
	bench_result "attr_$a_c" "$a_t" "$a_rep" "$a_r done=$a_done stolen_ns=$a_stolen window_ms=${a_cs}0"
}

ctxs="irq softirq thread ipi"
[ -d "$TFS/events/irq_vectors/call_function_single_entry" ] || ctxs="irq softirq thread"
tracers=$(bench_tracers)
info "tracers: $tracers, contexts: $ctxs, repeats: $BENCH_REPEATS"
for rep in $(bench_seq "$BENCH_REPEATS"); do
	for c in $ctxs; do
		for t in $(bench_order $((rep - 1)) $tracers); do
			attrib "$t" "$c" "$rep"
		done
	done
done
exit 0
