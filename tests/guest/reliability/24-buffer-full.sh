#!/bin/sh
# timeout: 240
# matrix: shard
# The trace buffer overflows: an instance with a 4 KiB per-CPU buffer gets
# every osn event at the 1 us threshold while hard-IRQ noise is injected on
# CPU 1, with a consuming reader on trace_pipe part of the time and the
# buffer resized under the writer.  osn must keep measuring (same thread,
# events keep coming), lose only what the ring buffer overwrote, and stop
# and restart cleanly afterwards.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

S=${REL_BUF_S:-2}
require_cpus 2
inject_load
rel_setup
rel_knobs_measure
rel_instance rel_full 4 sample_threshold irq_noise softirq_noise thread_noise nmi_noise sample stop
I=$REL_INST
rel_wait_threads osn/1
rel_scan
T=$REL_THREADS
rel_assert_flowing "$I" "at start"

# Noise for the whole test: 100 us hard-IRQ stalls, 5 ms apart, for about
# 3 * REL_BUF_S (default 2) seconds.
inject_start irq $REL_CPU $((S * 600)) 100 5000
on_exit "echo stop >$INJ/inject"

# Phase 1: nobody reads, the ring overwrites itself.
sleep "$S"
rel_stats "$I/per_cpu/cpu$REL_CPU/stats"
ENTRIES=$REL_ENTRIES OVERRUN=$REL_OVERRUN
rel_total "$I" $REL_CPU
info "after $S s without a reader: $REL_TOTAL events written, $ENTRIES kept, $OVERRUN overwritten"
assert_ge "$OVERRUN" 1 "events overwritten (the buffer never filled up?)"
W1=$REL_TOTAL
O1=$OVERRUN
# Phase 2: a consuming reader races with the writer.
R=/tmp/rel-reader
on_exit rm -f "$R"
cat "$I/trace_pipe" >/dev/null 2>"$R" &
reader=$!
on_exit "kill $reader"
sleep "$S"
# Phase 3: resize the buffer under the writer and the reader.
RESIZES=0
while [ $RESIZES -lt $((S * 3)) ]; do
	for kb in 1 64 4 1 16 4; do
		echo $kb >"$I/buffer_size_kb" || fail "buffer_size_kb=$kb"
		RESIZES=$((RESIZES + 1))
		sleep 0.3
	done
done
if kill $reader 2>/dev/null; then
	wait $reader 2>/dev/null
	info "trace_pipe reader still reading at the end"
else
	wait $reader
	info "trace_pipe reader ended by itself (exit $?): $(cat "$R")"
fi
inject_wait $((S * 6 + 60))
info "$(inject_status)"
rel_same_thread "$T" || fail "osn/1 ($T) did not survive the full buffer"
rel_flowing "$I" 2 20 || fail "no events after the buffer filled up"

# (A resize may restart the ring buffer's counters.)
rel_stats "$I/per_cpu/cpu$REL_CPU/stats"
ENTRIES=$REL_ENTRIES OVERRUN=$REL_OVERRUN
rel_total "$I" $REL_CPU
info "at the end: $REL_TOTAL events written, $ENTRIES kept, $OVERRUN overwritten"

echo 0 >"$I/events/osn/enable"
rel_wait_no_threads
rm_instance rel_full
rel_module_works
figures "buffer full: $W1 events written on cpu1 into a 4 KiB buffer in $S s, $O1 overwritten," \
	"$(inject_status done) injections, $RESIZES resizes under the writer; thread kept, threads left after stop: 0"
exit 0
