#!/bin/sh
# timeout: 90
# --json: osn top and osn hist print one JSON document on stdout (parsed
# by jq) with the documented keys; --json=FILE keeps the text on stdout.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_bin jq
cli_setup
ncpu=$(nr_cpus)

"$OSN" top -d 2 -p 100000 -r 50000 --json >"$CLI_OUT/top.json" 2>"$CLI_OUT/top.err"
assert_eq "$?" 0 "osn top --json"
jq -e . "$CLI_OUT/top.json" >/dev/null || fail "top: not JSON: $(head -c 300 "$CLI_OUT/top.json")"
assert_eq "$(cli_json "$CLI_OUT/top.json" '.tool')" "osn top" "tool"
assert_eq "$(cli_json "$CLI_OUT/top.json" '.cpus | length')" "$ncpu" "top cpus"
assert_eq "$(cli_json "$CLI_OUT/top.json" '.time_unit')" us "time unit"
for k in periods runtime noise cpu_avail_pct max_noise max_single samples \
	 hw.count hw.time nmi.count irq.count irq.time softirq.time thread.time; do
	v=$(cli_json "$CLI_OUT/top.json" ".cpus[0].$k")
	[ "$v" != null ] || fail "top: .cpus[0].$k is null"
done
assert_ge "$(cli_json "$CLI_OUT/top.json" '.total.periods')" "$ncpu" "total periods"
assert_eq "$(cli_json "$CLI_OUT/top.json" '.stop')" null "stop"
assert_eq "$(cli_json "$CLI_OUT/top.json" '.stopped')" false "stopped"

"$OSN" hist -d 2 -p 100000 -r 50000 -b 5 -E 20 --json >"$CLI_OUT/hist.json" 2>"$CLI_OUT/hist.err"
assert_eq "$?" 0 "osn hist --json"
jq -e . "$CLI_OUT/hist.json" >/dev/null || fail "hist: not JSON"
assert_eq "$(cli_json "$CLI_OUT/hist.json" '.tool')" "osn hist" "tool"
assert_eq "$(cli_json "$CLI_OUT/hist.json" '.bucket_size_us')" 5 "bucket size"
assert_eq "$(cli_json "$CLI_OUT/hist.json" '.entries')" 20 "entries"
assert_eq "$(cli_json "$CLI_OUT/hist.json" '.cpus | length')" "$ncpu" "hist cpus"
# every bucket index is a multiple of 5 below 100; counts add up
cli_json "$CLI_OUT/hist.json" '.cpus[] | .buckets[] | .index' |
	awk '$1 % 5 || $1 >= 100 { exit 1 }' || fail "bucket index"
for c in $(seq 0 $((ncpu - 1))); do
	sum=$(cli_json "$CLI_OUT/hist.json" "([.cpus[$c].buckets[].count] | add // 0) + .cpus[$c].over")
	cnt=$(cli_json "$CLI_OUT/hist.json" ".cpus[$c].count")
	assert_eq "$sum" "$cnt" "cpu $c: buckets + over = count"
done

# --json=FILE: text on stdout, JSON in the file
"$OSN" top -d 1 -p 100000 -r 50000 -q --json="$CLI_OUT/t.json" >"$CLI_OUT/t.txt" 2>&1
assert_eq "$?" 0 "osn top --json=FILE"
grep -q 'Operating System Noise' "$CLI_OUT/t.txt" || fail "no text with --json=FILE"
jq -e .cpus "$CLI_OUT/t.json" >/dev/null || fail "--json=FILE: not JSON"
exit 0
