#!/bin/sh
# timeout: 60
# print_stack: every thread sample whose latency reaches it (integer us,
# >=) is followed by one osn:timerlat_stack of the timer IRQ's stack
# (kernel addresses), and no other sample is; injected 30 ms hard-IRQ
# stalls make such samples: at a period of 10 ms each stall holds an
# activation due at most 10 ms after its start, late by over 20 ms.  A
# stall that begins while the thread runs, after its sample and before it
# armed the next activation, delays no activation (the thread arms one
# after the stall, as upstream's does): under TCG the thread runs for a
# percent or two of a 10 ms period, so one stall in three may be missed.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
require_cpus 2
inject_load
PRINT_US=20000
COUNT=3
tl_setup cpus=1 print_stack=$PRINT_US timerlat_period_us=10000
eng_instance osn_tl32 timerlat_sample timerlat_stack
i=$ENG_I
echo 1 >"$i/tracing_on"
tl_wait_threads 1
sleep 0.2
inject irq 1 $COUNT 30000 300000
sleep 0.2
echo 0 >"$i/tracing_on"
echo 0 >"$i/events/osn/enable"
tl_wait_threads 0

grep '\[001\]' "$i/trace" >/tmp/tl32
grep ' timerlat_stack: ' /tmp/tl32 | head -n 1 >/tmp/tl32_one
info "$(cat /tmp/tl32_one)"
assert_match "$(cat /tmp/tl32_one)" \
	" timerlat_stack: size=[1-9][0-9]* caller=\{0xffff[0-9a-f]+(,0xffff[0-9a-f]+)*\}\$" \
	"a stack event"
# Pairs: "late" = a thread sample with latency_us >= PRINT_US.
awk -v p=$PRINT_US '
	/ timerlat_stack: / {
		stacks++
		if (!late_prev) { print "stack not after a late thread sample: " $0; bad++ }
		late_prev = 0; pending = 0; next
	}
	/ timerlat_sample: / {
		if (pending) { print "late thread sample without its stack: " prev; bad++ }
		late_prev = 0; pending = 0
		if ($0 ~ /context=1$/) {
			l = $0; sub(/.*timer_latency=/, "", l); sub(/ .*/, "", l)
			if (int(l / 1000) >= p) { late++; late_prev = 1; pending = 1; prev = $0 }
		}
	}
	END {
		if (pending) { print "late thread sample without its stack: " prev; bad++ }
		print "late " late + 0 " stacks " stacks + 0 " bad " bad + 0
	}' /tmp/tl32 >/tmp/tl32_res
cat /tmp/tl32_res
set -- $(tail -n 1 /tmp/tl32_res)
assert_eq "$6" 0 "misplaced or missing stacks"
assert_eq "$4" "$2" "stacks against late thread samples"
assert_ge "$2" $((COUNT - 1)) "late thread samples (one per injected stall, but one)"
exit 0
