#!/bin/sh
# timeout: 1800
# Self-noise at low thresholds: does recording a sample make the next one?
# Per tracer and threshold T (1, 2, 5, 10 us) on CPU 1, period = runtime =
# 1 s, with sample_threshold events on (recorded in the tracer's instance,
# and counted by three hist triggers: every sample with its duration, those
# with no interference, i.e. "hardware", and those shorter than $CAP_NS):
#   samples_s  noise samples per second
#   noise_pct  share of the window reported as noise (sum of the samples)
#   hw_pct     share reported as hardware noise
#   cap_pct    share in samples shorter than $CAP_NS
#
# "quiet": one session with nothing injected, over $WIN s; osn also reports
# its own work there (osn:sample self, self_pct).
#
# Injected noise: a second session alternates phases of $PH s, $ROUNDS
# times each, in an order reversed every round so that a drift of the
# emulator's speed hits all alike: nothing injected, the injector stealing
# 1 us ("cal") and 5 us ("inj") in hard IRQ every 150 us (as fast as the
# emulated timer manages).  Per injection (inj_s a second), added_us is the
# noise it added to the session's quiet phases and stolen_us what the
# injector measured it stole; added_vs_truth = the noise share added /
# the share stolen (1 when each injected stall is reported once, at its
# length, and the tracer adds no noise of its own).  report.py holds the
# difference between "inj" and "cal" in added_us to the difference in
# stolen_us: the emulated cost of the interrupt itself (its entry, exit
# and timer reprogramming, the same in both) cancels out of it.
#
# The single-threaded emulator leaves a vCPU for up to 140 ms at a time,
# inside whatever sample is open and inside the injector's spin alike; a
# handful of those dominate any sum.  added_cap_us and stolen_cap_us are
# the same figures over the samples, and the injector's spins, shorter
# than $CAP_NS (the injector's short and short_ns).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
bench_setup
inject_load
on_exit 'echo stop >"$INJ/inject"'

if [ "$BENCH_QUICK" = 1 ]; then
	WIN=1 PH=1 ROUNDS=1 THRESHOLDS="1 10"
else
	WIN=3 PH=0.5 ROUNDS=6 THRESHOLDS="1 2 5 10"
fi
BENCH_BUF_KB=2048
CAP_NS=100000	# the injector's INJ_SHORT_NS
T_ALL='hist:keys=cpu:vals=hitcount,duration:size=128'
T_HW='hist:keys=cpu:vals=hitcount,duration:size=256 if interference == 0'
T_CAP="hist:keys=cpu:vals=hitcount,duration:size=512 if duration < $CAP_NS"
# The samples with one interference (an injection, mostly) by duration, in
# 100 ns buckets: their 10th and 50th percentiles (q10_us, q50_us).  Under
# TCG an injected interrupt's sample is its emulated cost plus, often, the
# wait for something else (a 40 us tail that comes and goes with the
# host's load); with the host to itself the low percentiles are the
# interrupt alone, and move by the payload.  Optional: .buckets needs
# Linux 6.0.
T_Q="hist:keys=duration.buckets=100:vals=hitcount:size=2048 if interference == 1 && duration < $CAP_NS"

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

# sn_snap: "ms a s h hs ca cs st n sst sn": the time, the three tables'
# hits and sums on CPU $BCPU (every sample, no interference, under
# $CAP_NS), and the injector's stolen_ns, done, short_ns and short; the
# fourth table's buckets ("low_ns count" lines) in /tmp/bench_sn.q
sn_snap() {
	rm -f /tmp/bench_sn.4
	cat "$sn_e/hist" >/tmp/bench_sn
	awk -v o=/tmp/bench_sn '/^# event histogram/ { n++; t = o ".1" }
		/^# trigger info: .*interference == 0/ { t = o ".2" }
		/^# trigger info: .*duration < / { t = o ".3" }
		/^# trigger info: .*buckets/ { t = o ".4" }
		{ b[n] = b[n] $0 "\n"; tt[n] = t }
		END { for (i = 1; i <= n; i++) printf "%s", b[i] > tt[i] }' /tmp/bench_sn
	echo "$(uptime_ms) $(hist_cpu /tmp/bench_sn.1) $(hist_cpu /tmp/bench_sn.2)" \
		"$(hist_cpu /tmp/bench_sn.3)" \
		"$(tr ' ' '\n' <"$INJ/status" | awk -F= '$1 == "stolen_ns" { st = $2 }
			$1 == "done" { n = $2 } $1 == "short_ns" { sst = $2 }
			$1 == "short" { sn = $2 }
			END { printf "%.0f %.0f %.0f %.0f\n", st, n, sst, sn }')"
	touch /tmp/bench_sn.4
	awk '{ lo = ""; c = 0
		for (i = 1; i < NF; i++) {
			if ($i == "~") { split($(i + 1), r, "-"); lo = r[1] }
			if ($i == "hitcount:") c = $(i + 1)
		}
		if (lo != "") print lo, c }' /tmp/bench_sn.4 >/tmp/bench_sn.q
}

# sn_phase C SECS: one phase of condition C (quiet, cal, inj) in the
# running session; what it gained is added to /tmp/bench_acc.C
sn_phase() {
	case $1 in
	inj) sp_us=5 ;;
	cal) sp_us=1 ;;
	*) sp_us= ;;
	esac
	if [ -n "$sp_us" ]; then
		echo "ctx=irq cpu=$BCPU count=100000 duration_us=$sp_us interval_us=150" \
			>"$INJ/inject" || fail "injection rejected"
	fi
	sleep 0.2
	sp_l0=$(sn_snap)
	cp /tmp/bench_sn.q /tmp/bench_sn.q0
	sleep "$2"
	sp_l1=$(sn_snap)
	# the buckets' gains, added to the condition's
	touch /tmp/bench_q."$1"
	awk 'FILENAME == ARGV[1] { v[$1] -= $2; next } { v[$1] += $2 }
		END { for (k in v) if (v[k]) print k, v[k] }' \
		/tmp/bench_sn.q0 /tmp/bench_sn.q /tmp/bench_q."$1" >/tmp/bench_q.new
	mv /tmp/bench_q.new /tmp/bench_q."$1"
	[ -n "$sp_us" ] && { echo stop >"$INJ/inject"; inject_wait 30; }
	[ -f /tmp/bench_acc."$1" ] || echo "0 0 0 0 0 0 0 0 0 0 0" >/tmp/bench_acc."$1"
	printf '%s\n%s\n%s\n' "$(cat /tmp/bench_acc."$1")" "$sp_l0" "$sp_l1" |
		awk '{ for (i = 1; i <= NF; i++) v[NR, i] = $i }
		END { for (i = 1; i <= 11; i++)
			printf "%.0f%s", v[1, i] + v[3, i] - v[2, i], i < 11 ? " " : "\n" }' \
		>/tmp/bench_acc."$1".new
	mv /tmp/bench_acc."$1".new /tmp/bench_acc."$1"
}

# sn_figs C: the figures of condition C from its sums; cal and inj against
# the quiet phases of the same session
sn_figs() {
	sf_q=
	[ "$1" = quiet ] || sf_q=$(cat /tmp/bench_acc.quiet)
	echo "$(cat /tmp/bench_acc."$1") $sf_q" | awk '{
		ms = $1; a = $2; s = $3; h = $4; hs = $5; cs = $7
		st = $8; n = $9; sst = $10; sn = $11
		w = ms * 1e6
		printf "samples_s=%.0f noise_pct=%.4f hw_pct=%.4f hw_samples_s=%.0f cap_pct=%.4f",
			a * 1000 / ms, 100 * s / w, 100 * hs / w, h * 1000 / ms, 100 * cs / w
		if (NF < 22 || n == 0 || $12 == 0)
			exit
		# the quiet phases: their noise rate, every sample and under the cap
		qr = $14 / ($12 * 1e6); qcr = $18 / ($12 * 1e6)
		printf " q_noise_pct=%.4f truth_pct=%.4f", 100 * qr, 100 * st / w
		if (st > 0)
			printf " added_vs_truth=%.4f", (s - qr * w) / st
		printf " inj_s=%.0f stolen_us=%.3f added_us=%.3f",
			n * 1000 / ms, st / n / 1000, (s - qr * w) / n / 1000
		if (sn > 0)
			printf " stolen_cap_us=%.3f short_share=%.4f added_cap_us=%.3f",
				sst / sn / 1000, sn / n, (cs - qcr * w) / sn / 1000
	}'
	# percentiles of the one-interference samples: the bucket's middle
	sort -n /tmp/bench_q."$1" | awk '{ lo[NR] = $1; c[NR] = $2; t += $2 }
		END {
			if (t < 100)
				exit
			for (i = 1; i <= NR; i++) {
				cum += c[i]
				if (q10 == "" && cum >= 0.1 * t) q10 = lo[i] + 50
				if (q50 == "" && cum >= 0.5 * t) q50 = lo[i] + 50
			}
			printf " q_samples=%d q10_us=%.2f q50_us=%.2f", t, q10 / 1000, q50 / 1000
		}'
}

# sn_session TRACER T REP quiet|inj: one tracer session
sn_session() {
	ss_t=$1 ss_thr=$2 ss_rep=$3
	tr_start "$ss_t" bench_self 1000000 1000000 "$ss_thr" sample
	case $ss_t in osn) ss_s=osn ;; up) ss_s=osnoise ;; esac
	sn_e=$BI/events/$ss_s/sample_threshold
	if ! echo "$T_ALL" >"$sn_e/trigger" || ! echo "$T_HW" >>"$sn_e/trigger" ||
		! echo "$T_CAP" >>"$sn_e/trigger"; then
		info "$ss_t: hist trigger rejected"
		tr_stop "$ss_t" bench_self
		tr_teardown "$ss_t" bench_self
		return 0
	fi
	echo "$T_Q" >>"$sn_e/trigger" || info "$ss_t: no percentiles (.buckets rejected)"
	echo 1 >"$sn_e/enable" || fail "enable $ss_s/sample_threshold"
	rm -f /tmp/bench_acc.* /tmp/bench_q.*
	if [ "$4" = quiet ]; then
		sn_phase quiet "$WIN"
	else
		for r in $(bench_seq "$ROUNDS"); do
			if [ $((r % 2)) = 1 ]; then
				ss_order="quiet cal inj"
			else
				ss_order="inj cal quiet"
			fi
			for c in $ss_order; do
				sn_phase "$c" "$PH"
			done
		done
	fi
	echo "!$T_Q" >>"$sn_e/trigger" 2>/dev/null
	echo "!$T_CAP" >>"$sn_e/trigger"
	echo "!$T_HW" >>"$sn_e/trigger"
	echo "!$T_ALL" >>"$sn_e/trigger"
	tr_stop "$ss_t" bench_self
	ss_self=
	if [ "$4" = quiet ] && [ "$ss_t" = osn ]; then
		ss_self=$(osn_samples "$BI/trace" | awk '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1)
			if (v["runtime"] >= 900000000) { rt += v["runtime"]; se += v["self"] } }
			END { if (rt) printf "self_pct=%.4f", 100 * se / rt }')
	fi
	tr_teardown "$ss_t" bench_self
	if [ "$4" = quiet ]; then
		ss_c=quiet
	else
		ss_c="cal inj"
	fi
	for c in $ss_c; do
		ss_r=$(sn_figs "$c")
		[ "$ss_rep" = 1 ] && info "$ss_t T=$ss_thr $c: $ss_r"
		bench_result "self_${c}_$ss_thr" "$ss_t" "$ss_rep" "$ss_r $ss_self"
	done
}

tracers=$(bench_tracers)
info "tracers: $tracers, thresholds: $THRESHOLDS, repeats: $BENCH_REPEATS"
for rep in $(bench_seq "$BENCH_REPEATS"); do
	for thr in $THRESHOLDS; do
		for sess in quiet inj; do
			for t in $(bench_order $((rep - 1)) $tracers); do
				sn_session "$t" "$thr" "$rep" "$sess"
			done
		done
	done
done
exit 0
