#!/bin/sh
# timeout: 1200
# Self-noise at low thresholds: does recording a sample make the next one?
# Per tracer and threshold T (1, 2, 5, 10 us) on CPU 1, period = runtime =
# 1 s, with sample_threshold events on (recorded in the tracer's instance,
# and counted by two hist triggers: every sample with its duration, and
# those with no interference, i.e. "hardware"), over $WIN s:
#   samples_s  noise samples per second
#   noise_pct  share of the window reported as noise (sum of the samples)
#   hw_pct     share reported as hardware noise
# once with nothing injected ("quiet"), once while the injector steals
# 5 us in hard IRQ every 150 us ("inj", as fast as the emulated timer
# manages): truth_pct is the share the injector measured it stole, and
# added_vs_truth = (noise_pct - the quiet run's noise_pct) / truth_pct (1
# when each injected stall is reported once, at its length, and adds no
# noise of the tracer's own).
# osn also reports its own work (osn:sample self, self_pct).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
bench_setup
inject_load
on_exit 'echo stop >"$INJ/inject"'

if [ "$BENCH_QUICK" = 1 ]; then
	WIN=1 THRESHOLDS="1 10"
else
	WIN=3 THRESHOLDS="1 2 5 10"
fi
BENCH_BUF_KB=2048
T_ALL='hist:keys=cpu:vals=hitcount,duration:size=128'
T_HW='hist:keys=cpu:vals=hitcount,duration:size=256 if interference == 0'

uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# hist_cpu FILE: "hits sum_ns" of CPU $BCPU in one hist table (0 0 if none)
hist_cpu() {
	awk -v c="$BCPU" '$1 == "{" && $2 ~ /cpu/ && $3 + 0 == c && $4 == "}" {
		for (i = 5; i < NF; i++) {
			if ($i == "hitcount:") h = $(i + 1)
			if ($i == "duration:") s = $(i + 1)
		}
	} END { printf "%.0f %.0f\n", h, s }' "$1"
}

# hist_delta N: "hits sum_ns" that table N (1: every sample, 2: no
# interference) gained between the two reads
hist_delta() {
	# shellcheck disable=SC2046
	set -- $(hist_cpu /tmp/bench_sn0."$1") $(hist_cpu /tmp/bench_sn1."$1")
	echo $(($3 - $1)) $(($4 - $2))
}

# selfnoise TRACER T inj|quiet REP
selfnoise() {
	sn_t=$1 sn_thr=$2 sn_c=$3 sn_rep=$4
	tr_start "$sn_t" bench_self 1000000 1000000 "$sn_thr" sample
	case $sn_t in osn) sn_s=osn ;; up) sn_s=osnoise ;; esac
	sn_e=$BI/events/$sn_s/sample_threshold
	if ! echo "$T_ALL" >"$sn_e/trigger" || ! echo "$T_HW" >>"$sn_e/trigger"; then
		info "$sn_t: hist trigger rejected"
		tr_stop "$sn_t" bench_self
		tr_teardown "$sn_t" bench_self
		return 0
	fi
	echo 1 >"$sn_e/enable" || fail "enable $sn_s/sample_threshold"
	if [ "$sn_c" = inj ]; then
		echo "ctx=irq cpu=$BCPU count=100000 duration_us=5 interval_us=150" \
			>"$INJ/inject" || fail "injection rejected"
	fi
	sleep 0.5
	cat "$sn_e/hist" >/tmp/bench_sn0
	sn_st0=$(inject_status stolen_ns)
	sn_t0=$(uptime_ms)
	sleep $WIN
	cat "$sn_e/hist" >/tmp/bench_sn1
	sn_st1=$(inject_status stolen_ns)
	sn_t1=$(uptime_ms)
	[ "$sn_c" = inj ] && { echo stop >"$INJ/inject"; inject_wait 30; }
	echo "!$T_HW" >>"$sn_e/trigger"
	echo "!$T_ALL" >>"$sn_e/trigger"
	tr_stop "$sn_t" bench_self
	# the two tables: .1 every sample, .2 those with no interference
	for f in /tmp/bench_sn0 /tmp/bench_sn1; do
		awk -v o="$f" '/^# event histogram/ { n++; t = o ".1" }
			/^# trigger info: .*interference == 0/ { t = o ".2" }
			{ b[n] = b[n] $0 "\n"; tt[n] = t }
			END { for (i = 1; i <= n; i++) printf "%s", b[i] > tt[i] }' "$f"
	done
	read -r a s <<EOR
$(hist_delta 1)
EOR
	read -r h hs <<EOR
$(hist_delta 2)
EOR
	[ "$sn_rep" = 1 ] && info "$sn_t T=$sn_thr $sn_c: $a samples, $h with no interference, $((sn_t1 - sn_t0)) ms"
	sn_self=
	if [ "$sn_t" = osn ]; then
		sn_self=$(osn_samples "$BI/trace" | awk '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1)
			if (v["runtime"] >= 900000000) { rt += v["runtime"]; se += v["self"] } }
			END { if (rt) printf "self_pct=%.4f", 100 * se / rt }')
	fi
	tr_teardown "$sn_t" bench_self
	# the quiet run of the same tracer, threshold and repeat came just
	# before: what the injection added, against what it stole
	eval "sn_q=\${sn_quiet_$sn_t:-}"
	sn_r=$(awk -v ms=$((sn_t1 - sn_t0)) -v a="$a" -v s="$s" \
		-v h="$h" -v hs="$hs" -v st=$((${sn_st1:-0} - ${sn_st0:-0})) \
		-v c="$sn_c" -v q="$sn_q" 'BEGIN {
		w = ms * 1e6
		printf "samples_s=%.0f noise_pct=%.4f hw_pct=%.4f hw_samples_s=%.0f",
			a * 1000 / ms, 100 * s / w, 100 * hs / w, h * 1000 / ms
		if (c == "inj") {
			printf " truth_pct=%.4f", 100 * st / w
			if (q != "" && st > 0)
				printf " added_vs_truth=%.4f", (100 * s / w - q) / (100 * st / w)
		}
	}')
	[ "$sn_c" = quiet ] && eval "sn_quiet_$sn_t=$(echo "$sn_r" | sed -n 's/.*noise_pct=\([^ ]*\).*/\1/p')"
	bench_result "self_${sn_c}_$sn_thr" "$sn_t" "$sn_rep" "$sn_r $sn_self"
}

tracers=$(bench_tracers)
info "tracers: $tracers, thresholds: $THRESHOLDS, repeats: $BENCH_REPEATS"
for rep in $(bench_seq "$BENCH_REPEATS"); do
	for thr in $THRESHOLDS; do
		for c in quiet inj; do
			for t in $(bench_order $((rep - 1)) $tracers); do
				selfnoise "$t" "$thr" "$c" "$rep"
			done
		done
	done
done
exit 0
