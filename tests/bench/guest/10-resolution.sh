#!/bin/sh
# timeout: 300
# Loop resolution: what each tracer's measuring loop can see on CPU 1 at
# the lowest threshold (1 us), one tracer at a time, alternating.
#   loop   osn: ns per loop iteration (runtime / loops of its osn:sample
#          events) and the smallest gap between two clock reads (min_gap);
#          oslat: ns per iteration of its user-space loop (duration /
#          iterations bucketed), and its min/avg.  Upstream does not expose
#          its loop count (12-loopcost.sh estimates it).
#          osncause: osn with osn:noise_cause enabled too (its probes on
#          the wake-up, workqueue, timer and IPI tracepoints): the same
#          figures, so that the cause event's cost to the loop shows.
#   floor  per-period summaries only (osn:sample; upstream's osnoise
#          tracer entries), threshold 1 us: % of CPU available, i.e. how
#          much of the window the loop itself reports as noise.
#   res_ev the noise samples themselves (sample_threshold events, counted
#          by an in-kernel hist trigger, 100 ns buckets) at 1 us: samples
#          per second and the smallest sample.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
bench_setup

if [ "$BENCH_QUICK" = 1 ]; then
	NPER=1 WIN=1 OSLAT_D=1
else
	NPER=2 WIN=2 OSLAT_D=3
fi
BENCH_BUF_KB=1024

n_osn_samples() {
	grep -c ' sample: runtime ' "$BI/trace"
}
n_up_summaries() {
	up_summaries "$BI/trace" | grep -c .
}
have_osn_samples() {
	[ "$(n_osn_samples)" -ge "$1" ]
}
have_up_summaries() {
	[ "$(n_up_summaries)" -ge "$1" ]
}

# resolution osn|up REP: one session at threshold 1 us.  First the
# per-period summaries only (osn:sample; upstream's tracer entries): the
# "floor".  Then, in the same session, sample_threshold is enabled with a
# hist trigger (100 ns buckets) read twice $WIN s apart: samples/s and the
# smallest sample.  The trigger goes before the tracer stops (a trigger
# keeps its event registered).
HTRIG='hist:keys=duration.buckets=100:sort=duration:size=8192'
hist_hits() {
	awk '/^ *Hits: / { print $2 }' "$1"
}
resolution() {
	fl_t=$1 fl_rep=$2
	# the tracer, and osn's events: osncause is osn with noise_cause too
	fl_tr=$fl_t fl_ev=sample
	[ "$fl_t" = osncause ] && fl_tr=osn fl_ev="sample noise_cause"
	# shellcheck disable=SC2086 # one event per word
	tr_start "$fl_tr" bench_res 1000000 1000000 1 $fl_ev
	case $fl_tr in
	osn) bwait 30 have_osn_samples $NPER || info "osn: fewer than $NPER samples"
	     fl_s=osn ;;
	up)  bwait 30 have_up_summaries $NPER || info "up: fewer than $NPER summaries"
	     fl_s=osnoise ;;
	esac
	cp "$BI/trace" /tmp/bench_floor
	fl_h=$BI/events/$fl_s/sample_threshold
	fl_hok=0
	if echo "$HTRIG" >"$fl_h/trigger" 2>/dev/null; then
		fl_hok=1
		echo 1 >"$fl_h/enable" || fail "enable $fl_s/sample_threshold"
		sleep 0.3
		cat "$fl_h/hist" >/tmp/bench_hist0
		fl_t0=$(uptime_ms)
		sleep $WIN
		cat "$fl_h/hist" >/tmp/bench_hist
		fl_t1=$(uptime_ms)
		echo "!$HTRIG" >"$fl_h/trigger" 2>/dev/null
	else
		info "$fl_t: hist trigger rejected"
	fi
	tr_stop "$fl_tr" bench_res
	# what the loop did while the events were on (osn: its sample events)
	[ "$fl_rep" = 1 ] && [ "$fl_tr" = osn ] &&
		info "osn samples during the events: $(grep ' sample: runtime ' "$BI/trace" | tail -n 2 |
			sed 's/.* sample: //' | cut -d' ' -f1-14 | tr '\n' '|')"
	tr_teardown "$fl_tr" bench_res

	# the floor: complete periods (runtime >= 0.9 s) from before the events
	if [ "$fl_tr" = osn ]; then
		osn_samples /tmp/bench_floor >/tmp/bench_floor.s
		[ "$fl_rep" = 1 ] && info "osn sample: $(head -n 1 /tmp/bench_floor.s)"
		fl_r=$(awk '{ for (i = 1; i < NF; i += 2) v[$i] = $(i + 1) + 0
			if (v["runtime"] < 900000000) next
			n++; rt += v["runtime"]; no += v["noise"]; lo += v["loops"]
			sa += v["samples"]
			if (v["min"] > 0 && (mn == "" || v["min"] < mn)) mn = v["min"]
			if (mg == "" || v["min_gap"] < mg) mg = v["min_gap"] }
			END { if (!n || !lo) exit
			  printf "periods=%d ns_loop=%.1f ns_loop_quiet=%.1f min_gap=%d avail=%.4f samples_s=%.0f min_sample=%s\n",
			    n, rt / lo, (lo > sa ? (rt - no) / (lo - sa) : 0), mg, 100 * (rt - no) / rt,
			    sa * 1e9 / rt, mn == "" ? "nan" : mn }' /tmp/bench_floor.s)
		if [ -n "$fl_r" ]; then
			bench_result floor "$fl_t" "$fl_rep" "$fl_r"
			bench_result loop "$fl_t" "$fl_rep" "$(echo "$fl_r" | tr ' ' '\n' |
				grep -E '^(ns_loop|ns_loop_quiet|min_gap)=' | tr '\n' ' ')"
		else
			info "osn: no full period: $(head -n 3 /tmp/bench_floor.s)"
		fi
	else
		up_summaries /tmp/bench_floor >/tmp/bench_floor.s
		[ "$fl_rep" = 1 ] && info "up summary: $(head -n 1 /tmp/bench_floor.s)"
		fl_r=$(awk '$1 >= 900000 { n++; rt += $1; no += $2
				if ($4 > mx) mx = $4; hw += $5; irq += $7; th += $9 }
			END { if (!n) exit
			  printf "periods=%d avail=%.4f max_us=%d hw=%d irq=%d thread=%d\n",
			    n, 100 * (rt - no) / rt, mx, hw, irq, th }' /tmp/bench_floor.s)
		if [ -n "$fl_r" ]; then
			bench_result floor up "$fl_rep" "$fl_r"
		else
			info "up: no full period: $(grep -v '^#' /tmp/bench_floor | head -n 3)"
		fi
	fi

	[ $fl_hok = 1 ] || return 0
	[ "$fl_rep" = 1 ] && info "$fl_t hist: $(grep -m 2 '{' /tmp/bench_hist | tr -s ' ' | tr '\n' ' ')"
	fl_r=$(awk -v ms=$((fl_t1 - fl_t0)) -v h0="$(hist_hits /tmp/bench_hist0)" '
		/^\{ duration: ~ / && min == "" { split($4, a, "-"); min = a[1] }
		/^ *Hits: / { hits = $2 - h0 } /^ *Dropped: / { drop = $2 }
		END { printf "hits=%d dropped=%d elapsed_ms=%d samples_s=%.0f min_sample=%s\n",
			hits, drop, ms, ms ? hits * 1000 / ms : 0, min == "" ? "nan" : min }' /tmp/bench_hist)
	bench_result res_ev "$fl_t" "$fl_rep" "$fl_r"
}

uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# oslat_loop REP: oslat's user-space loop on CPU 1, for reference
oslat_loop() {
	timeout $((OSLAT_D + 30)) oslat -D $OSLAT_D -c $BCPU -C $HCPU >/tmp/bench_oslat 2>&1 ||
		{ info "oslat failed: $(tail -n 3 /tmp/bench_oslat)"; return 0; }
	ol_r=$(awk '/^ *[0-9]+ \(us\):/ { n += $3 }
		/Minimum:/ { mn = $2 } /Average:/ { av = $2 } /Maximum:/ { mx = $2 }
		/Duration:/ { d = $2 }
		END { if (!n) exit
		  printf "ns_loop=%.1f min_us=%s avg_us=%s max_us=%s loops=%d\n",
			d * 1e9 / n, mn, av, mx, n }' /tmp/bench_oslat)
	[ -n "$ol_r" ] || { info "oslat: no histogram: $(tail -n 5 /tmp/bench_oslat)"; return 0; }
	bench_result loop oslat "$1" "$ol_r"
}

have_oslat=0
command -v oslat >/dev/null && have_oslat=1
tracers=$(bench_tracers)
osn_have && tracers="$tracers osncause"
[ $have_oslat = 1 ] && tracers="$tracers oslat"
info "tracers: $tracers, repeats: $BENCH_REPEATS"
for rep in $(bench_seq "$BENCH_REPEATS"); do
	for t in $(bench_order $((rep - 1)) $tracers); do
		case $t in
		oslat)	oslat_loop "$rep" ;;
		*)	resolution "$t" "$rep" ;;
		esac
	done
done
exit 0
