#!/bin/sh
# timeout: 240
# matrix: shard
# -d TIME covers ceil(TIME / period) periods of the measured CPU, as many
# as TIME of runtime: osn top -d 3 reports 3 periods of 1 s (it reported 2
# while it ended collecting before the last period's osn:sample), and
# -d 2 with 250 ms periods 8, -d 2 with 999 ms periods 3 (the last one
# ending after the deadline); without -d it runs until SIGINT and
# reports.  Where the kernel has upstream osnoise
# (the -rt kernels but 5.10-rt), rtla osnoise top -d 3 runs on the same
# CPU and never reports more periods than osn.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
require_bin jq
cli_setup

# periods_of JSON: "periods runtime_us" of CPU 1
periods_of() {
	cli_json "$1" '.cpus[] | select(.cpu == 1) | "\(.periods) \(.runtime)"'
}

# top_d NAME ARGS...: osn top -c 1 ARGS -q, its text in $CLI_OUT/NAME.txt;
# CPU 1's periods and runtime (us) in N and RT
top_d() {
	_name=$1
	shift
	"$OSN" top -c 1 "$@" -q --json="$CLI_OUT/$_name.json" \
		>"$CLI_OUT/$_name.txt" 2>&1 ||
		{ cat "$CLI_OUT/$_name.txt"; fail "osn top $* failed"; }
	read -r N RT <<EOR
$(periods_of "$CLI_OUT/$_name.json")
EOR
	info "osn top $*: $N periods, runtime $RT us"
}

top_d d3 -d 3
n=$N rt=$RT
assert_eq "$n" 3 "periods of 1 s in -d 3"
# each period runs for its runtime, and overshoots by one clock read
cli_us_ge "$rt" 3000000000 || fail "runtime $rt us < 3 s"
cli_us_ge "$rt" 3600000000 && fail "runtime $rt us > 3.6 s"
grep -Eq '^ +1 #3 ' "$CLI_OUT/d3.txt" || fail "no '#3' in the text: $(cat "$CLI_OUT/d3.txt")"

top_d d2 -p 250000 -r 200000 -d 2
assert_eq "$N" 8 "periods of 250 ms in -d 2"
cli_us_ge "$RT" 1600000000 || fail "runtime $RT us < 8 x 200 ms"

# -d 2 with 999 ms periods: 3 periods, the last ending 0-997 ms after
# the deadline whatever the periods' phase (the workload started in the
# warm-up), so that this run needs the drain after -d (with -d 3 and 1 s
# periods the last period ends before the deadline once the guest is
# quiet, and a drain that stops at the deadline went unnoticed)
top_d d2b -p 999000 -r 900000 -d 2
assert_eq "$N" 3 "periods of 999 ms in -d 2"

# without -d: no period goal; osn runs until SIGINT and reports what it
# collected (it crashed on the first period while -d's counters were
# used without -d)
cli_start "$CLI_OUT/nod.txt" top -c 1 -p 250000 -r 200000 -q --json="$CLI_OUT/nod.json"
cli_wait_collecting osn_top 2
kill -INT "$CLI_PID"
wait "$CLI_PID"
rc=$?
assert_eq "$rc" 0 "exit status of osn top without -d, ended by SIGINT: $(cat "$CLI_OUT/nod.txt")"
n3=$(cli_json "$CLI_OUT/nod.json" '.cpus[] | select(.cpu == 1) | .periods')
info "osn top without -d, SIGINT after 2 s: $n3 periods"
assert_ge "$n3" 1 "periods without -d"

if is_rt && command -v rtla >/dev/null 2>&1 &&
   grep -qw osnoise "$TFS/available_tracers"; then
	osn_unload	# rtla's tracer and osn measure the same CPU: one at a time
	rtla osnoise top -c 1 -d 3 -q >"$CLI_OUT/rtla.txt" 2>&1 ||
		{ cat "$CLI_OUT/rtla.txt"; fail "rtla osnoise top -d 3 failed"; }
	rn=$(sed 's/\x1b\[[0-9;]*m//g' "$CLI_OUT/rtla.txt" |
	     awk '$1 == "1" && $2 ~ /^#/ { sub("#", "", $2); print $2 }')
	info "rtla osnoise top -d 3: ${rn:-no} periods; osn: $n"
	[ -n "$rn" ] || fail "no CPU 1 row in rtla's output: $(cat "$CLI_OUT/rtla.txt")"
	assert_le "$rn" "$n" "rtla's periods <= osn's"
fi
exit 0
