#!/bin/sh
# timeout: 300
# matrix: shard
# Auto-stop: osn top -s stops on an injected 300 ms hard-IRQ stall, exits
# 2, prints "osn hit stop tracing" and explains the sample with the
# local_timer irq; -t saves the trace.  osn hist -S stops on a period whose
# noise the injected IRQs made and explains it too.
# The stalls start once osn collects, its stop armed.  TCG itself makes
# long gaps (the vCPU thread descheduled on the host): a run stopped by
# one of those (explained as hw) is retried.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
inject_load
cli_setup

# The test's own processes stay off the measured CPU 1.
taskset -p 1 $$ >/dev/null 2>&1

# run_until_irq_stop OUT MIN_US ARGS...: start osn ARGS (with -D), and
# once it collects (its "reading every" line: the stop is armed; on the
# debug kernel the setup outlasted 36 s of stalls started before it),
# inject ICOUNT x IDUR us hard-IRQ stalls every IIV us on CPU 1, and
# expect the stop to be explained by a local_timer irq of >= MIN_US.  Retried (twice at most)
# only on the emulator's signature: osn exited 2 on a stop whose sample is
# mostly hardware noise (the "hw" row holds at least half of it), an
# unexplained TCG gap; any other outcome is osn's and fails at once.
run_until_irq_stop() {
	_out=$1 _min=$2
	shift 2
	for _try in 1 2 3; do
		cli_start "$_out" "$@" -D
		cli_wait_counting
		inject_start irq 1 "$ICOUNT" "$IDUR" "$IIV"
		cli_wait_end
		echo stop >"$INJ/inject" 2>/dev/null
		inject_wait 60
		info "try $_try: osn $* -> $RC"
		sed 's/^/    | /' "$_out"
		_t=$(awk -v tick="$(irq_name local_timer)" '$1 == "irq" && $2 ~ "^" tick ":" { print $4; exit }' "$_out")
		[ -n "$_t" ] && cli_us_ge "$_t" $((_min * 1000)) && return 0
		[ "$RC" = 2 ] || fail "osn $* exited $RC, not 2 (a stop)"
		_sig=$(cli_stop_hw "$_out") ||
			fail "osn explained the stop's sample ($_sig) without the injected local_timer >= $_min us"
		[ $_try = 3 ] && break
		retry_marker "try $_try: an unexplained emulator gap ($_sig) tripped the stop"
	done
	fail "3 tries were tripped by unexplained emulator gaps"
}

# 1. a single sample > 200 ms, with the trace saved.  The stalls are
# longer than the 100-140 ms gaps that single-threaded TCG and the host
# make on their own (one vCPU runs at a time, for up to 100 ms).
ICOUNT=60 IDUR=300000 IIV=600000
run_until_irq_stop "$CLI_OUT/top.txt" 250000 top -c 1 -p 200000 -r 200000 \
	-T 20 -s 200000 -d 60 -q -t "$CLI_OUT/trace.txt"
o=$CLI_OUT/top.txt
assert_eq "$RC" 2 "exit status of a stop"
grep -q '^osn hit stop tracing$' "$o" || fail "no 'osn hit stop tracing'"
grep -Eq '^  cpu 1: a single noise sample of [0-9.]+ us > stop_tracing_us 200000 us$' "$o" ||
	fail "no stop line for cpu 1"
grep -Eq '^  the sample at [0-9]+\.[0-9]{9} lasted [0-9.]+ us, [0-9]+ interferences?; made of:$' "$o" ||
	fail "no sample line"
grep -q '  Saving trace to ' "$o" || fail "no 'Saving trace to'"
[ -s "$CLI_OUT/trace.txt" ] || fail "no saved trace"
grep -q "irq_noise: $(irq_name local_timer):" "$CLI_OUT/trace.txt" || fail "trace lacks irq_noise"
grep -q 'stop: stop tracing hit' "$CLI_OUT/trace.txt" || fail "trace lacks osn:stop"
assert_eq "$(cli_instances)" "" "instances left"

# 2. a period's total noise over 400 ms: 300 ms stalls every 600 ms in
# 1 s periods.  The quiet periods' noise comes first (the same osn hist,
# 3 s, a stop armed that cannot trip; each period's noise from its
# report's table).  On a kernel where they already hold hundreds of ms no
# total stop tells a stall from the emulator: the debug kernel under TCG,
# where CPU 0's ticks, slow under KASAN and lockdep, keep CPU 1 from
# running for a third to a half of each period (hw noise), and by as much
# again with the host's load: quiet periods of 548 ms in one run, stalled
# ones (500 ms stalls, the injector's longest duty) under 661 ms in the
# next.  There only the stop's firing is checked (the stalls give each
# period at least 400 ms, and a stop that never fires ends at -d with
# exit 0), not what made it up, and the test says so; the matrix's
# kernels, quiet, check both.  (6.1-rt beside two other guests had
# 280-435 ms quiet periods, and a stop that never fired went unseen.)
osn hist -c 1 -p 1000000 -r 1000000 -T 20 -S 990000 -d 3 -q \
	--report "$CLI_OUT/quiet.html" >"$CLI_OUT/quiet.txt" 2>&1 ||
	{ cat "$CLI_OUT/quiet.txt"; fail "osn hist -d 3 (the quiet periods)"; }
bg=$(sed -n '/<table class="num time">/,/<\/table>/p' "$CLI_OUT/quiet.html" |
	sed -n 's|^<tr><td>[^<]*</td><td>\([0-9]*\)[.0-9]*</td>.*|\1|p' | sort -n | tail -n 1)
[ -n "$bg" ] || { cat "$CLI_OUT/quiet.txt"; fail "no period in $CLI_OUT/quiet.html"; }
info "quiet periods: up to $bg us of noise"
if [ "$bg" -ge 200000 ]; then
	info "NOT RUN: the total stop's attribution (-S 400000): the quiet periods hold up to $bg us; its firing only"
	cli_start "$CLI_OUT/hist.txt" hist -c 1 -p 1000000 -r 1000000 -T 20 \
		-S 400000 -d 60 -q -D
	cli_wait_counting
	inject_start irq 1 "$ICOUNT" "$IDUR" "$IIV"
	cli_wait_end
	echo stop >"$INJ/inject" 2>/dev/null
	inject_wait 60
	sed 's/^/    | /' "$CLI_OUT/hist.txt"
	assert_eq "$RC" 2 "exit status of a total stop (noisy quiet periods)"
	grep -Eq "^  cpu 1: the period's noise of [0-9.]+ us > stop_tracing_total_us 400000 us$" \
		"$CLI_OUT/hist.txt" || fail "no total stop line for cpu 1"
	assert_eq "$(cli_instances)" "" "instances left"
	assert_eq "$(cat "$OSN_PARAMS/stop_tracing_total_us")" 0 "stop_tracing_total_us restored"
	exit 0
fi
run_until_irq_stop "$CLI_OUT/hist.txt" 250000 hist -c 1 -p 1000000 -r 1000000 \
	-T 20 -S 400000 -d 60
o=$CLI_OUT/hist.txt
assert_eq "$RC" 2 "exit status of a total stop"
grep -q '^osn hit stop tracing$' "$o" || fail "no 'osn hit stop tracing'"
grep -Eq "^  cpu 1: the period's noise of [0-9.]+ us > stop_tracing_total_us 400000 us$" "$o" ||
	fail "no total stop line for cpu 1"
grep -Eq '^  [0-9]+ noise samples? of the period' "$o" || fail "no period line"
grep -q '^# osn histogram$' "$o" || fail "no histogram before the explanation"
assert_eq "$(cli_instances)" "" "instances left"
assert_eq "$(cat "$OSN_PARAMS/stop_tracing_us")" 0 "stop_tracing_us restored"
assert_eq "$(cat "$OSN_PARAMS/stop_tracing_total_us")" 0 "stop_tracing_total_us restored"
assert_eq "$(cat "$TFS/tracing_on")" 1 "top-level tracing_on restored"
exit 0
