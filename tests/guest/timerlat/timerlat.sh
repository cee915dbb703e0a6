# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the timerlat tests (tests/guest/timerlat/NN-*.sh), sourced
# after ../lib.sh and ../engine/engine.sh.  Not a test itself (no NN-).

# tl_setup [INSMOD PARAMS...]: load osn in mode=timerlat (and clean up at
# exit), the test itself on CPU 0 (see eng_setup).
tl_setup() {
	eng_setup "$@"
	osn_knob mode timerlat
}

# tl_threads: the comms of the running timerlat threads, one a line.
tl_threads() {
	eng_prefix_threads timerlat/
}

# tl_wait_threads N: wait (10 s) until exactly N timerlat/ threads run.
tl_wait_threads() {
	eng_wait_prefix timerlat/ "$1"
}

# tl_samples FILE CPU CONTEXT: "ts latency seqnum" of the timerlat_sample
# lines of CPU (3 digits, e.g. 001) and CONTEXT (0 irq, 1 thread) in FILE.
tl_samples() {
	grep " \[$2\] .* timerlat_sample: .* context=$3\$" "$1" |
		sed -n 's/.* \([0-9]*\.[0-9]*\): timerlat_sample: timer_latency=\([0-9]*\) seqnum=\([0-9]*\) context=.*/\1 \2 \3/p'
}

# tl_stop_test KNOB REASON CONTEXT PERIOD_US INJ_US COUNT: KNOB
# (stop_tracing_us or stop_tracing_total_us) at 300 ms, below COUNT
# injected hard-IRQ stalls of INJ_US on CPU 1, stops tracing on the
# latency of CONTEXT (0 irq, 1 thread): osn:stop REASON with that
# sample's latency as its value is the last osn line of the frozen
# top-level buffer, right after the sample; the thread keeps running; an
# instance keeps recording and has exactly one osn:stop; its irq_noise
# explains the latency (a local_timer stall >= INJ_US between the
# activation's expiry, less the stall, and the sample).  An attempt is
# retried (twice at most) only when no irq_noise explains the stop: the
# emulator's own gap.
tl_stop_test() {
	_knob=$1 _reason=$2 _ctx=$3 _inj=$5 _cnt=$6
	require_cpus 2
	inject_load
	tl_setup cpus=1 timerlat_period_us="$4"
	_t=$(tfs)
	echo 0 >"$_t/tracing_on"
	on_exit "echo 0 >$_t/events/osn/enable; echo 1 >$_t/tracing_on; : >$_t/trace"
	for _e in timerlat_sample stop; do echo 1 >"$_t/events/osn/$_e/enable"; done
	eng_instance osn_tlstop timerlat_sample irq_noise stop
	echo 1 >"$ENG_I/tracing_on"
	tl_wait_threads 1
	for _n in 1 2 3; do
		tl_stop_attempt
		[ $? = 0 ] && return 0
		[ $_n = 3 ] && break
		retry_marker "attempt $_n: an unexplained emulator gap tripped the stop"
	done
	fail "3 attempts were tripped by unexplained emulator gaps"
}

TL_STOP_US=300000
tl_stop_attempt() {
	: >"$_t/trace"
	: >"$ENG_I/trace"
	echo 1 >"$_t/tracing_on"
	osn_knob "$_knob" $TL_STOP_US	# (re-)arms the stop
	inject irq 1 "$_cnt" "$_inj" $((_inj * 5 / 2))
	osn_knob "$_knob" 0
	assert_eq "$(cat "$_t/tracing_on")" 0 "tracing_on after the stop"
	assert_eq "$(tl_threads)" timerlat/1 "threads after the stop"
	assert_eq "$(grep -c ' stop: ' "$ENG_I/trace")" 1 "osn:stop events in the instance"
	grep -E ' (timerlat_sample|stop): ' "$_t/trace" | tail -n 2 >/tmp/tl_stop
	_stop=$(tail -n 1 /tmp/tl_stop)
	_smp=$(head -n 1 /tmp/tl_stop)
	info "sample: $_smp"
	info "stop: $_stop"
	assert_match "$_stop" " stop: stop tracing hit: $_reason noise [0-9]+ ns > threshold ${TL_STOP_US}000 ns" \
		"last osn line of the frozen buffer"
	assert_match "$_smp" " timerlat_sample: timer_latency=[0-9]+ seqnum=[0-9]+ context=$_ctx\$" \
		"the sample before the stop"
	_lat=$(echo "$_smp" | sed 's/.*timer_latency=\([0-9]*\) .*/\1/')
	_val=$(echo "$_stop" | sed 's/.* noise \([0-9]*\) ns.*/\1/')
	assert_eq "$_val" "$_lat" "stop value against the sample's latency"
	assert_ge "$_lat" $((TL_STOP_US * 1000)) "latency that stopped"
	# The sample's time and its expiry on the trace clock; the stall may
	# begin before the expiry (IRQ latency) or after the timer IRQ, in
	# the same late interrupt under TCG (thread latency).
	set -- $(echo "$_smp" | awk -v l="$_lat" "$ENG_AWK_FUNCS"'{ printf "%.6f %.6f\n", ts(), ts() - l / 1e9 }')
	grep '\[001\] .* irq_noise: local_timer:' "$ENG_I/trace" |
		awk -v t="$1" -v e="$2" -v min=$((_inj * 1000)) "$ENG_AWK_FUNCS"'
		{ sd(); if (s <= t && s >= e - min / 1e9 - 0.01 && d >= min) { print; exit } }' >/tmp/tl_cause
	info "cause: $(cat /tmp/tl_cause)"
	[ -s /tmp/tl_cause ] && return 0
	grep '\[001\] .* irq_noise: ' "$ENG_I/trace" |
		awk "$ENG_AWK_FUNCS"'{ sd(); if (d >= 1e8) print "# irq_noise >= 100 ms: " $0 }' | head -n 5
	return 2
}

# tl_user_wait_run CPU: wait (10 s) until a user-space mode run lets a
# thread pinned to CPU open /dev/osn_timerlat (the run starts in a
# kernel worker, after the write that enabled its events).
tl_user_wait_run() {
	wait_for 10 tl_user_opens "$1" ||
		fail "/dev/osn_timerlat never opened on CPU $1: $("$OSN_BIN/osn_tlu" "$1" 1)"
}
tl_user_opens() {
	[ "$("$OSN_BIN/osn_tlu" "$1" 1)" = reads=1 ]
}

# tl_user_holds PID OUT: wait (10 s) until process PID has
# /dev/osn_timerlat open; else fail with its output, file OUT.
tl_user_holds() {
	wait_for 10 sh -c "ls -l /proc/$1/fd 2>/dev/null | grep -q osn_timerlat" ||
		fail "reader $1 never opened /dev/osn_timerlat: $(cat "$2")"
}
