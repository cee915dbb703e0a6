#!/bin/sh
# timeout: 300
# --json: osn top and osn hist print one JSON document on stdout (parsed
# by jq) with the documented keys; --json=FILE keeps the text on stdout.
# Every CPU is measured (half of each period, to leave room to the rest).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_bin jq
cli_setup
ncpu=$(nr_cpus)

# step NAME ARGS...: osn ARGS (stdout to $CLI_OUT/NAME.json, stderr to
# NAME.err), interrupted after 60 s; prints how long it took.
step() {
	_name=$1
	shift
	_t0=$(now_us)
	timeout -s INT 60 "$OSN" "$@" >"$CLI_OUT/$_name.json" 2>"$CLI_OUT/$_name.err"
	_rc=$?
	info "osn $* -> $_rc in $((($(now_us) - _t0) / 1000)) ms"
	cat "$CLI_OUT/$_name.err"
	assert_eq "$_rc" 0 "exit status of osn $*"
}

step top top -d 2 -p 100000 -r 50000 --json
j=$CLI_OUT/top.json
jq -e . "$j" >/dev/null || fail "top: not JSON: $(head -c 300 "$j")"
jq -e --argjson n "$ncpu" '
	.tool == "osn top" and .time_unit == "us" and (.cpus | length) == $n and
	.stop == null and .stopped == false and .total.periods >= $n and
	([.cpus[] | .periods, .runtime, .noise, .cpu_avail_pct, .max_noise,
	  .max_single, .samples, .hw.count, .hw.time, .nmi.count, .nmi.time,
	  .irq.count, .irq.time, .softirq.count, .softirq.time,
	  .thread.count, .thread.time] | all(. != null))' "$j" >/dev/null ||
	fail "top JSON lacks keys: $(cat "$j")"

step hist hist -d 2 -p 100000 -r 50000 -b 5 -E 20 --json
j=$CLI_OUT/hist.json
jq -e . "$j" >/dev/null || fail "hist: not JSON"
# bucket indexes are multiples of 5 below 100; buckets + over = count
jq -e --argjson n "$ncpu" '
	.tool == "osn hist" and .bucket_size_us == 5 and .entries == 20 and
	(.cpus | length) == $n and
	([.cpus[].buckets[].index] | all(. % 5 == 0 and . < 100)) and
	([.cpus[] | (([.buckets[].count] | add // 0) + .over) == .count] | all)' \
	"$j" >/dev/null || fail "hist JSON: $(cat "$j")"

# --json=FILE: text on stdout, JSON in the file
step tfile top -d 1 -p 100000 -r 50000 -q --json="$CLI_OUT/t.json"
grep -q 'Operating System Noise' "$CLI_OUT/tfile.json" || fail "no text with --json=FILE"
jq -e .cpus "$CLI_OUT/t.json" >/dev/null || fail "--json=FILE: not JSON"
exit 0
