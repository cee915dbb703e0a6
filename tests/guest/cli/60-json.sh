#!/bin/sh
# timeout: 300
# matrix: shard
# --json: osn top and osn hist print one JSON document on stdout (parsed
# by jq) with the documented keys; --json=FILE keeps the text on stdout.
# Every CPU is measured (half of each period, to leave room to the rest).
# A task whose comm is UTF-8 ("zajos-é") comes out in the stop's parts as
# the same bytes (not \u00c3\u00a9 mojibake).
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

# A UTF-8 comm, end to end: a busy shell named "zajos-é" (set through
# /proc/self/comm) shares the last CPU with osn/N (both SCHED_OTHER, about
# half each), so the first 1 s period's noise passes -S 250 ms and the stop
# is explained with that thread.  The test's shell stays off that CPU.
c=$((ncpu - 1))
name=$(printf 'zajos-\303\251')
taskset -p 1 $$ >/dev/null 2>&1
taskset -c "$c" sh -c 'printf "zajos-\303\251" >/proc/self/comm && while :; do :; done' &
busy=$!
on_exit "kill $busy 2>/dev/null"
wait_for 5 sh -c "[ \"\$(cat /proc/$busy/comm)\" = '$name' ]" ||
	fail "the busy shell's comm is $(cat /proc/$busy/comm 2>&1), not $name"
_t0=$(now_us)
timeout -s INT 60 "$OSN" top -c "$c" -p 1000000 -r 1000000 -S 250000 -d 20 -q --json \
	>"$CLI_OUT/utf8.json" 2>"$CLI_OUT/utf8.err"
rc=$?
kill $busy 2>/dev/null
info "osn top -S 250000 --json -> $rc in $((($(now_us) - _t0) / 1000)) ms"
cat "$CLI_OUT/utf8.err"
assert_eq "$rc" 2 "exit status of a stop"
j=$CLI_OUT/utf8.json
jq -e . "$j" >/dev/null || fail "utf8: not JSON: $(head -c 300 "$j")"
got=$(cli_json "$j" '[.stop.parts[] | select(.class == "thread") | .name] | join(",")')
info "thread parts of the stop: $got"
case ",$got," in
*",$name,"*) ;;
*) fail "no thread part named $name in the stop: $(cli_json "$j" .stop)" ;;
esac
# the bytes themselves in the file, not a \u escape
grep -q "\"name\": \"$name\"" "$j" || fail "$name is not written as its UTF-8 bytes: $(grep '"name"' "$j")"
exit 0
