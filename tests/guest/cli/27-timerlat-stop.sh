#!/bin/sh
# timeout: 180
# osn timerlat -T below an injected hard-IRQ stall of CPU 1 (400 ms, far
# over TCG's own gaps of 100-140 ms) stops: exit 2, CPU 1's max thread
# latency in the table is at least the stall less a period, and the
# analysis names CPU 1 and the injected IRQ (the hrtimer interrupt,
# local_timer) with most of the stall as IRQ interference.  An attempt
# stopped by an emulator gap (no local_timer in the analysis) is retried.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
[ -d "$TFS/events/irq_vectors/local_timer_entry" ] ||
	skip "no irq_vectors:local_timer tracepoint"
inject_load
cli_setup
STALL_US=400000
tl_running() { grep -q '^timerlat/' /proc/[0-9]*/comm 2>/dev/null; }
PERIOD_US=10000
T_US=250000

attempt() {
	cli_start "$CLI_OUT/stop.txt" timerlat -c 1 -p $PERIOD_US -T $T_US \
		-d 60 -q
	wait_for 30 tl_running ||
		{ cat "$CLI_LOG"; fail "no timerlat thread"; }
	sleep 1
	inject irq 1 1 $STALL_US
	info "$(inject_status)"
	cli_wait_end
	t=$CLI_OUT/stop.txt
	cat "$t"
	assert_eq "$RC" 2 "exit status"
	grep -q '^## CPU 1 hit stop tracing, analyzing it ##$' "$t" ||
		fail "no analysis of CPU 1"
	grep -Eq '^ +local_timer:[0-9]+ ' "$t" || return 1
	return 0
}
n=1
until attempt; do
	[ $n = 3 ] && fail "3 attempts stopped by emulator gaps"
	retry_marker "attempt $n: stopped without the injected IRQ"
	n=$((n + 1))
done
set -- $(sed -n 's/^  1 #[0-9]* *|.*| *[0-9]* *[0-9]* *[0-9]* *\([0-9]*\)$/\1/p' "$t")
assert_ge "${1:-0}" $((STALL_US - PERIOD_US)) "CPU 1's max thread latency (us)"
irq=$(sed -n 's/^ *IRQ interference: *\([0-9]*\)\..*/\1/p' "$t")
assert_ge "${irq:-0}" $((STALL_US - 2 * PERIOD_US)) "IRQ interference (us)"
lat=$(sed -n 's/^ *Thread latency: *\([0-9]*\)\..*/\1/p' "$t")
assert_ge "${lat:-0}" $T_US "analysed thread latency (us)"
assert_eq "$(cat "$OSN_PARAMS/mode")" osnoise "mode after"
assert_eq "$(cat "$OSN_PARAMS/stop_tracing_total_us")" 0 "thread stop after"
exit 0
