#!/bin/sh
# timeout: 60
# matrix: every
# mode=timerlat with cpus=1: enabling osn:timerlat_sample starts one
# thread timerlat/1 (no osn/ thread); its samples come from CPU 1 only,
# in IRQ/thread pairs of one seqnum; their number over the window matches
# timerlat_period_us (skipped activations make fewer under TCG, never
# more, and every expiry is a whole number of periods after the last, and
# a skip follows a thread that ran late); disabling the event stops the
# thread.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
require_cpus 2
PERIOD_US=10000
tl_setup cpus=1 timerlat_period_us=$PERIOD_US
eng_instance osn_tl10 timerlat_sample
i=$ENG_I
echo 1 >"$i/tracing_on"
tl_wait_threads 1
assert_eq "$(tl_threads)" timerlat/1 "timerlat threads"
assert_eq "$(osn_nthreads)" 0 "osn/ threads in mode=timerlat"
sleep 2
echo 0 >"$i/tracing_on"
echo 0 >"$i/events/osn/enable"
tl_wait_threads 0

cp "$i/trace" /tmp/tl10
n0=$(grep -c '\[000\] .* timerlat_sample: ' /tmp/tl10)
assert_eq "$n0" 0 "samples from CPU 0 (not selected)"
tl_samples /tmp/tl10 001 0 >/tmp/tl10_irq
tl_samples /tmp/tl10 001 1 >/tmp/tl10_thr
nirq=$(grep -c . /tmp/tl10_irq)
nthr=$(grep -c . /tmp/tl10_thr)
info "CPU 1: $nirq IRQ samples, $nthr thread samples"
assert_ge "$nirq" 20 "IRQ samples in 2 s at ${PERIOD_US} us"
# Every thread sample has the IRQ sample of its seqnum, and every IRQ
# sample but possibly the last (the run stopped before its thread ran)
# has its thread sample.
awk '{ print $3 }' /tmp/tl10_irq | sort -n >/tmp/tl10_si
awk '{ print $3 }' /tmp/tl10_thr | sort -n >/tmp/tl10_st
# not_in A B: lines of B not in A.
not_in() {
	awk 'NR == FNR { a[$1]; next } !($1 in a) { n++ } END { print n + 0 }' "$1" "$2"
}
unpaired=$(not_in /tmp/tl10_si /tmp/tl10_st)
assert_eq "$unpaired" 0 "thread samples without their IRQ sample"
lonely=$(not_in /tmp/tl10_st /tmp/tl10_si)
assert_le "$lonely" 1 "IRQ samples without their thread sample"
# seqnums count activations: consecutive from 1.
assert_eq "$(head -n 1 /tmp/tl10_si)" 1 "first seqnum"
assert_eq "$(tail -n 1 /tmp/tl10_si)" "$nirq" "last seqnum"
# The period: each activation's expiry (timestamp minus latency) is a
# whole number of periods after the previous one (more than one when the
# emulator stalled the vCPU: those are skipped), within 20% of a period
# (the two clocks' reads are a few us apart).  An emulator gap between an
# activation's clock read and its event's write displaces that one
# estimate: the intervals before and after it are off, the one across it
# is whole.  Such displaced estimates may be 5% of them (a loaded host
# splits more), other intervals off the period 2%: a wrong period puts
# every interval off, which neither allows.  The count is at most the
# window over the period (+10%), at least a quarter of it (a loaded host
# skips many).
awk -v p=$PERIOD_US '
function off(d) { return d < 0.5 || d - int(d + 0.5) > 0.2 || int(d + 0.5) - d > 0.2 }
{ e[NR] = $1 - $2 / 1e9; line[NR] = $0 }
END {
	for (i = 2; i <= NR; i++) {
		d = (e[i] - e[i - 1]) * 1e6 / p
		if (!off(d)) { n += int(d + 0.5); continue }
		if (i < NR && !off((e[i + 1] - e[i - 1]) * 1e6 / p)) {
			print "displaced estimate: " line[i]
			n += int((e[i + 1] - e[i - 1]) * 1e6 / p + 0.5); moved++; i++
			continue
		}
		print "expiry " d " periods after the previous: " line[i]; bad++
		n += int(d + 0.5)
	}
	print "skipped " n - (NR - 1) " displaced " moved + 0 " bad " bad + 0
}' /tmp/tl10_irq >/tmp/tl10_per
cat /tmp/tl10_per
assert_le "$(tail -n 1 /tmp/tl10_per | awk '{ print $6 }')" $((nirq / 50 + 2)) "expiries off the period"
assert_le "$(tail -n 1 /tmp/tl10_per | awk '{ print $4 }')" $((nirq / 20 + 2)) "displaced expiry estimates"
# A skipped activation is one whose time had passed when the thread armed
# the timer again: the thread of the activation before it ran (its sample
# written) more than a period after that one's expiry.  A skip without such
# a late thread is either an emulator stall between the sample and the
# re-arm (rare), or a timer armed too far ahead (every skip).
awk -v p=$PERIOD_US '
NR == FNR { tt[$3] = $1; next }
{
	e = $1 - $2 / 1e9
	if (n++ && (e - pe) * 1e6 >= 1.5 * p) {
		skips++
		if (!(ps in tt) || (tt[ps] - pe) * 1e6 < 0.8 * p) {
			print "skipped with no late thread before: " $0; bad++
		}
	}
	pe = e; ps = $3
}
END { print "skips " skips + 0 " unexplained " bad + 0 }' /tmp/tl10_thr /tmp/tl10_irq >/tmp/tl10_skip
tail -n 1 /tmp/tl10_skip
assert_le "$(tail -n 1 /tmp/tl10_skip | awk '{ print $4 }')" $((nirq / 20 + 2)) "skipped activations with no late thread"
exp=$(awk -v p=$PERIOD_US 'NR == 1 { f = $1 } { l = $1 }
	END { printf "%d\n", (l - f) * 1e6 / p + 1 }' /tmp/tl10_irq)
info "expected about $exp activations from the timestamps"
assert_ge $((nirq * 100)) $((exp * 25)) "IRQ samples x100 against expected"
assert_le $((nirq * 100)) $((exp * 110)) "IRQ samples x100 against expected"
# A latency is never negative and under the period almost always: the
# thread's is at least its IRQ's for the same seqnum.
bad=$(awk 'NR == FNR { irq[$3] = $2; next }
	($3 in irq) && $2 < irq[$3] { n++ } END { print n + 0 }' /tmp/tl10_irq /tmp/tl10_thr)
assert_eq "$bad" 0 "thread latencies below their IRQ latency"
exit 0
