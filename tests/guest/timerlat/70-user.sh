#!/bin/sh
# timeout: 90
# matrix: every
# User-space mode (mode=timerlat, NO_OSNOISE_WORKLOAD): no timerlat/
# thread starts; a thread pinned to CPU 1 reading /dev/osn_timerlat gets
# one activation per read: the IRQ and thread samples of a seqnum, then,
# at its next read, the return from user (context 2) of the same seqnum.
# The reader spins a known BUSY_US in user space between reads: each
# return exceeds its thread latency by at least that, and no CPU but 1
# has samples.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
require_cpus 2
PERIOD_US=10000
BUSY_US=2000
READS=150
tl_setup cpus=1 timerlat_period_us=$PERIOD_US
osn_knob options NO_OSNOISE_WORKLOAD
eng_instance osn_tl70 timerlat_sample
tl_user_wait_run 1
echo 1 >"$ENG_I/tracing_on"
assert_eq "$(tl_threads)" "" "timerlat threads in user-space mode"
out=$("$OSN_BIN/osn_tlu" -b $BUSY_US 1 $READS)
assert_eq "$out" "reads=$READS" "the reader's reads"
echo 0 >"$ENG_I/tracing_on"
cp "$ENG_I/trace" /tmp/tl70
assert_eq "$(grep -c '\[000\] .* timerlat_sample: ' /tmp/tl70)" 0 "samples from CPU 0"
tl_samples /tmp/tl70 001 0 >/tmp/tl70_irq
tl_samples /tmp/tl70 001 1 >/tmp/tl70_thr
tl_samples /tmp/tl70 001 2 >/tmp/tl70_ret
nirq=$(grep -c . /tmp/tl70_irq)
nthr=$(grep -c . /tmp/tl70_thr)
nret=$(grep -c . /tmp/tl70_ret)
info "CPU 1: $nirq IRQ, $nthr thread, $nret user-ret samples"
# One activation per read (a read waits for its own); the first read
# returns no user-ret, the last return is never read back.
assert_eq "$nthr" $READS "thread samples"
assert_eq "$nret" $((READS - 1)) "user-ret samples"
assert_eq "$nirq" $READS "IRQ samples"
# Every user-ret has its activation's thread sample, and returns at
# least BUSY_US after it: latency(ret) - latency(thread) >= BUSY_US.
bad=$(awk -v b=$((BUSY_US * 1000)) 'NR == FNR { thr[$3] = $2; next }
	!($3 in thr) { print "no thread sample: " $0; n++; next }
	$2 - thr[$3] < b { print "returned early: " $0 " thread " thr[$3]; n++ }
	END { print n + 0 }' /tmp/tl70_thr /tmp/tl70_ret)
echo "$bad" | sed '$d' | head -n 5
assert_eq "$(echo "$bad" | tail -n 1)" 0 "user-ret samples without their thread sample or under BUSY_US"
# And a return belongs to the activation before the next one.
assert_eq "$(awk '{ print $3 }' /tmp/tl70_ret | sort -n | uniq -d | grep -c .)" 0 "seqnums with two user-ret samples"
exit 0
