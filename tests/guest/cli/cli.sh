# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the CLI tests (tests/guest/cli/NN-*.sh), sourced after
# ../lib.sh.  Not a test itself (no NN- prefix).

OSN=$OSN_BIN/osn
CLI_OUT=/tmp/osn-cli
CLI_KNOBS="cpus period_us runtime_us threshold_us stop_tracing_us stop_tracing_total_us options paused"

# cli_setup [INSMOD PARAMS...]: the CLI binary must be there; load osn;
# at exit, stop any osn still running and undo what it left.
cli_setup() {
	[ -x "$OSN" ] || skip "tools/osn is not in the guest"
	osn_load "$@"
	rm -rf "$CLI_OUT"
	mkdir -p "$CLI_OUT"
	on_exit osn_knobs_default
	on_exit cli_cleanup
}

# cli_cleanup: kill the osn processes this test started, then let
# `osn cleanup` undo what they left (instances, knobs).
cli_cleanup() {
	for _p in $(pidof osn 2>/dev/null); do
		kill -KILL "$_p" 2>/dev/null
	done
	"$OSN" cleanup >/dev/null 2>&1
	for _i in osn_top osn_hist osn_trace; do
		rm_instance "$_i"
	done
}

# cli_knobs: every knob as NAME=VALUE, one a line.
cli_knobs() {
	for _k in $CLI_KNOBS; do
		echo "$_k=$(cat "$OSN_PARAMS/$_k")"
	done
}

# cli_instances: the CLI's tracefs instances that exist now.
cli_instances() {
	ls "$TFS/instances" 2>/dev/null | grep -E '^osn_(top|hist|trace|stop)$'
}

# cli_osn_enabled: instances (or "top") where an osn event is enabled.
cli_osn_enabled() {
	_e=$(cat "$TFS/events/osn/enable" 2>/dev/null)
	[ "$_e" = 0 ] || echo top
	for _d in "$TFS"/instances/*; do
		[ -d "$_d/events/osn" ] || continue
		_e=$(cat "$_d/events/osn/enable")
		[ "$_e" = 0 ] || basename "$_d"
	done
}

# cli_start OUT ARGS...: run osn ARGS in the background, stdout and
# stderr to OUT; CLI_PID is its pid.
cli_start() {
	CLI_LOG=$1
	shift
	"$OSN" "$@" >"$CLI_LOG" 2>&1 &
	CLI_PID=$!
}

# cli_wait_end: wait (60 s at most) for the osn of cli_start to end by
# itself (a stop, -d), then SIGINT it; RC is its exit status.  Asleep in
# wait, with a timer, not polling: a fork and exec every 100 ms keeps
# CPU 0 busy on a slow kernel, and single-threaded TCG then runs the
# measured CPU 1 half the time (hardware noise, 52 % of a period on the
# debug kernel).
cli_wait_end() {
	setsid sh -c 'sleep 60; kill -INT "$1"' timer "$CLI_PID" </dev/null >/dev/null 2>&1 &
	_timer=$!
	wait $CLI_PID
	RC=$?
	kill -KILL -$_timer 2>/dev/null
	wait $_timer 2>/dev/null
}

# cli_sigint_settled: end the osn of cli_start with SIGINT once the last
# injected noise has been written and read (its kworker switched out, its
# period ended): 1.5 s, not 0.5, as a host that stalls the whole guest for
# a while can give CPU 0 its turn first when the guest goes on.  Used
# instead of -d where osn must outlast an injection whatever the kernel's
# speed.  RC is its exit status.
cli_sigint_settled() {
	sleep 1.5
	kill -INT "$CLI_PID"
	wait "$CLI_PID"
	RC=$?
}

# cli_is_collecting INSTANCE: the instance exists and workload threads run.
cli_is_collecting() {
	[ -d "$TFS/instances/$1" ] && [ "$(osn_nthreads)" -ge 1 ] &&
		[ "$(cat "$TFS/instances/$1/events/osn/sample/enable" 2>/dev/null)" = 1 ]
}

# cli_wait_collecting INSTANCE [EXTRA_S]: wait (30 s) until the osn started
# by cli_start has set up INSTANCE and the workload runs, then EXTRA_S
# more (default 1).  Fails with osn's output if it ended first.
cli_wait_collecting() {
	_n=300
	while ! cli_is_collecting "$1"; do
		if ! kill -0 "$CLI_PID" 2>/dev/null; then
			wait "$CLI_PID"
			echo "osn exited ($?) before collecting:"
			cat "$CLI_LOG"
			fail "osn did not start ($1)"
		fi
		_n=$((_n - 1))
		[ $_n -gt 0 ] || { cat "$CLI_LOG"; fail "osn did not start in 30 s ($1)"; }
		sleep 0.1
	done
	sleep "${2:-1}"
}

# cli_wait_counting: wait (30 s) until the osn of cli_start, run with -D,
# says that collection began ("reading every"): from then on every sample
# counts.  cli_wait_collecting's signs (the instance, its sample event, the
# threads) show at setup, and what comes before collection begins (the
# warm-up's last read, seconds on a slow kernel) is dropped.
cli_wait_counting() {
	wait_for 30 grep -q 'osn: debug: reading every' "$CLI_LOG" ||
		{ cat "$CLI_LOG"; fail "osn did not begin collecting in 30 s"; }
}

# cli_inject_collecting INSTANCE INJECT-ARGS...: once the osn of cli_start
# collects in INSTANCE (30 s at most: setup is slow under TCG), and 0.5 s
# more, inject_start INJECT-ARGS
# (its sender: inject_status once it ended).  Injected only then: a noise
# that began before osn's events were on has no cause to show, and the
# module hooks the cause probes in its own work item (osn_apply_state()).
cli_inject_collecting() {
	_inst=$1
	shift
	wait_for 30 cli_is_collecting "$_inst" ||
		fail "osn did not start collecting ($_inst)"
	sleep 0.5
	inject_start "$@"
}

# cli_stop_hw OUT: true when the stop explained in OUT is the emulator's
# signature, a sample (or, stopped on a period's total, a period) mostly
# of hardware noise (the "hw" row holds at least half of it): unexplained
# TCG gaps, the one reason to retry.  Prints "HW of LEN us".
cli_stop_hw() {
	_len=$(sed -n -e 's/.* lasted \([0-9.]*\) us,.*/\1/p' \
		-e 's/.* noise samples\{0,1\} of the period add up to \([0-9.]*\) us.*/\1/p' "$1" |
		head -n 1)
	_hw=$(awk '$1 == "hw" { print $NF; exit }' "$1")
	echo "${_hw:-0} of ${_len:-0} us"
	awk -v l="${_len:-0}" -v h="${_hw:-0}" 'BEGIN { exit !(l > 0 && h * 2 >= l) }'
}
# cli_json FILE FILTER: jq -r FILTER FILE (fails the test on a jq error).
cli_json() {
	jq -r "$2" "$1" || fail "jq '$2' $1"
}

# cli_us_ge US_DECIMAL MIN_NS: true if US_DECIMAL (e.g. 1234.567) us >= MIN_NS ns.
cli_us_ge() {
	awk -v us="$1" -v ns="$2" 'BEGIN { exit !(us * 1000 >= ns) }'
}

# cli_one_line FILE: FILE has exactly one line, starting with "osn: ".
cli_one_line() {
	[ "$(grep -c . "$1")" = 1 ] && grep -q '^osn: ' "$1"
}
