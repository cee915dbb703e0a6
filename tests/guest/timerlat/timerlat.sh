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
	grep "\\[001\\] .* irq_noise: $(irq_name local_timer):" "$ENG_I/trace" |
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

# ---- the stop analysis against injected culprits ----
# (timerlat/80-culprit-irq.sh; cli/21-23-timerlat-culprit-*.sh, sharded:
# the analysis is the CLI's, and engine/27 checks the causes beneath it
# on every kernel)
TLC_STALL_US=350000	# each stall: far over TCG's own gaps of 100-140 ms
TLC_T_US=250000		# osn timerlat -T: under the stall less a period
TLC_PERIOD_US=10000
TLC_COUNT=4

# tl_threads_run: some timerlat thread runs.
tl_threads_run() {
	[ -n "$(tl_threads)" ]
}

# tl_culprit_blocks OUT SECTION PART CAUSE: per analysis ("## CPU 1 hit
# stop tracing") in OUT, one line "LAT GAP NAMED SEEN": its thread
# latency and the time no noise event covers, in whole us; NAMED 1 when
# the part PART (or, for a PART ending in ":", any of that name), under
# a heading that matches the ERE SECTION, has a cause line beginning
# with CAUSE, and every other part PART has that line too (a thread
# preempted and resumed keeps its waker); SEEN 1 when the injection is
# anywhere in it: the part PART (when exact), or a cause line beginning
# with CAUSE.
tl_culprit_blocks() {
	awk -v sec="^($2)\$" -v part="$3" -v cause="$4" '
	function endpart() { if (p == part && !pc) miss = 1; p = "" }
	function flush() { endpart(); if (inb) print int(lat), int(gap), named && !miss, seen + 0 }
	/^## CPU 1 hit stop tracing/ { flush(); inb = 1; lat = gap = named = seen = miss = 0; s = ""; next }
	/^## CPU / { flush(); inb = 0; next }
	!inb { next }
	/^  [A-Z][A-Za-z ]*:/ { endpart(); s = $0; sub(/^  /, "", s); sub(/:.*/, "", s) }
	/^---/ { endpart() }
	/^  Thread latency:/ { lat = $3 }
	/^  Not in any noise event:/ { gap = $6 }
	/^    [^ ]/ { endpart(); p = $1; pc = 0; if (p == part) seen = 1 }
	/^      <- / { c = $0; sub(/^      /, "", c)
		if (index(c, cause) == 1) seen = 1
		if (p == part && index(c, cause) == 1) pc = 1
		if (s ~ sec && (p == part || (part ~ /:$/ && index(p, part) == 1)) &&
		    index(c, cause) == 1) named = 1 }
	END { flush() }' "$1"
}

# tl_culprit_stacks OUT PART FN: per analysis in OUT whose blocking
# thread is PART (comm:pid), a line "1" when its stack (-s) has a frame
# of function FN, "0" when not.
tl_culprit_stacks() {
	awk -v part="$2" -v fn="$3" '
	function flush() { if (inb && blk) print st + 0 }
	/^## CPU 1 hit stop tracing/ { flush(); inb = 1; blk = st = sec = 0; next }
	/^## CPU / { flush(); inb = 0; next }
	!inb { next }
	/^  Blocking thread:/ { sec = 1; next }
	/^  Blocking thread stack trace$/ { next }
	/^  [A-Z]/ { sec = 0 }
	sec && /^    [^ ]/ && $1 == part { blk = 1 }
	/^ +-> / && index($2, fn "+") == 1 { st = 1 }
	END { flush() }' "$1"
}

# tl_culprit_nstops OUT: how many analyses OUT holds.
tl_culprit_nstops() {
	grep -c '^## CPU 1 hit stop tracing' "$1"
}

# tl_culprit_printed OUT N: OUT holds more than N analyses.
tl_culprit_printed() {
	[ "$(tl_culprit_nstops "$1")" -gt "$2" ]
}

# tl_culprit_since OUT N: OUT from its (N+1)th analysis on.
tl_culprit_since() {
	awk -v n="$2" '/^## CPU / { k++ } k > n' "$1"
}

# tl_culprit_stall CTX INJ_OPTS SECTION PART CAUSE: one injected stall of
# CTX (INJ_OPTS: more injector options) on CPU 1, then the analyses it
# brought judged by tl_culprit_blocks: counted into _named and _foreign;
# PART and CAUSE may name @PID@, @SRC@ (the injector's thread and its
# sender, comm:pid) and @SRC_CPU@.
tl_culprit_stall() {
	_before=$(tl_culprit_nstops "$_out")
	echo "ctx=$1 cpu=1 count=1 duration_us=$TLC_STALL_US interval_us=$((TLC_STALL_US * 3)) $2" \
		>"$INJ/inject" || fail "inject ctx=$1 $2 rejected"
	# a kernel that cannot set a kthread's priority (5.10): chrt it
	case "$2" in *prio=*)
		_want=${2##*prio=}
		_want=${_want%% *}
		[ "$(inject_status prio)" = "$_want" ] ||
			chrt -f -p "$_want" "$(inject_status pid)" ||
			fail "chrt -f -p $_want of the injector's thread";;
	esac
	inject_wait 30
	info "$(inject_status)"
	assert_eq "$(inject_status ctx_ok)" 1 "the stall in the expected context"
	# its analysis is printed once its functions are named (seconds;
	# over 30 s at times on 6.1-rt-arm64 under TCG)
	if [ "$TLC_DELAYS" = 0 ]; then
		sleep 1
	else
		wait_for 90 tl_culprit_printed "$_out" "$_before"
	fi
	_part=$(echo "$4" | sed "s|@PID@|$(inject_status comm):$(inject_status pid)|")
	_cause=$(echo "$5" | sed "s|@SRC@|$(inject_status src_comm):$(inject_status src_pid)|; s|@SRC_CPU@|$(inject_status src_cpu)|")
	tl_culprit_since "$_out" "$_before" >/tmp/tl_stall
	tl_culprit_blocks /tmp/tl_stall "$3" "$_part" "$_cause" >/tmp/tl_blocks
	# -s (TLC_STACK): the injector's thread, blocking, is in the stack
	# the timer's interrupt saved, under the interrupt's own frames
	if [ -n "$TLC_STACK" ]; then
		for _s in $(tl_culprit_stacks /tmp/tl_stall "$_part" "$TLC_STACK"); do
			_stacks=$((_stacks + 1))
			[ "$_s" = 1 ] || { cat /tmp/tl_stall; fail "-s: the stack of a stop blocked by $_part has no $TLC_STACK frame"; }
		done
	fi
	while read -r _lat _gap _ok _seen; do
		_hits=$((_hits + 1))
		if [ "$_ok" = 1 ]; then
			_named=$((_named + 1))
			# the activation that overlaps a stall waits for all of it
			assert_ge "$_lat" $((TLC_STALL_US - TLC_PERIOD_US)) \
				"thread latency of a stop naming the culprit (us)"
		elif [ "$_seen" = 1 ]; then
			cat /tmp/tl_stall
			fail "stop $_hits has the injection ($3 / $_part / $_cause) but not as the culprit"
		else
			_foreign=$((_foreign + 1))
		fi
	done </tmp/tl_blocks
}

# tl_culprit_attempt CTX INJ_OPTS SECTION PART CAUSE: osn timerlat top
# -T with --on-threshold continue on CPU 1, under TLC_COUNT stalls
# (tl_culprit_stall), each injected once osn printed the last one's
# analysis, so that each finds the stop re-armed.  Each stop whose
# analysis has the injection (SEEN) must name it as the culprit (NAMED),
# with a thread latency of at least the stall less a period, and >= 95 %
# of the stalls must be named.  Returns 0 then (with TLC_DELAYS=0, the
# stalls cannot delay timerlat's thread: when none is named); 2 when
# fewer were named but a stop the injection had no part in came (the
# emulator's gap, alone or inside a thread's run: osn handles it while
# a stall goes by), to retry; fails otherwise.
tl_culprit_attempt() {
	_out=$CLI_OUT/culprit.txt
	cli_start "$_out" timerlat -c 1 -p $TLC_PERIOD_US -T $TLC_T_US \
		${TLC_STACK:+-s $TLC_T_US} --on-threshold continue -q -d 120
	wait_for 30 tl_threads_run || { cat "$_out"; fail "no timerlat thread"; }
	sleep 1
	_named=0 _foreign=0 _hits=0 _stacks=0
	for _k in $(seq $TLC_COUNT); do
		tl_culprit_stall "$@"
	done
	kill -INT "$CLI_PID"
	cli_wait_end
	cat "$_out"
	# 0: each hit continued; 2: a hit (the emulator's, say) came with
	# the SIGINT, before osn could continue it
	case $RC in 0|2) ;; *) fail "exit status $RC";; esac
	info "$_hits stops: $_named name the culprit, $_foreign without the injection; $TLC_COUNT stalls"
	if [ "$TLC_DELAYS" = 0 ]; then
		assert_eq "$_named" 0 "stops naming a stall that cannot delay timerlat"
		return 0
	fi
	if [ $((_named * 100)) -ge $((TLC_COUNT * 95)) ]; then
		[ -z "$TLC_STACK" ] ||
			assert_ge "$_stacks" 1 "stops blocked by the injector, with their stack (-s)"
		return 0
	fi
	[ $_foreign -gt 0 ] && return 2
	fail "$_named stops of $TLC_COUNT stalls name the culprit"
}

# tl_culprit_test CTX INJ_OPTS SECTION PART CAUSE: tl_culprit_attempt,
# retried (twice at most) only after a stop the injection had no part
# in; the test itself on CPU 0.
tl_culprit_test() {
	require_cpus 2
	require_timer_irq
	command -v taskset >/dev/null 2>&1 && taskset -p -c 0 $$ >/dev/null 2>&1
	inject_load
	cli_setup
	for _try in 1 2 3; do
		tl_culprit_attempt "$@"
		[ $? = 0 ] && return 0
		[ $_try = 3 ] && break
		retry_marker "attempt $_try: a stop the injection had no part in hid a stall"
	done
	fail "3 attempts spoiled by stops the injection had no part in"
}
