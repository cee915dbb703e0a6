#!/bin/sh
# timeout: 240
# matrix: shard
# osn hist's percentiles are the values, not the display buckets' edges:
# with 10 us buckets, each of p50/p90/p99/p99.9 of CPU 1 lies within the
# fine resolution (bucket / 100 = 100 ns) above the exact percentile of
# the samples that the -t trace of the same run saved
# (osn:sample_threshold, one line per sample) for the same samples.
# (Before, p50 printed 10.000 for samples of 1-2 us.)
# Threshold 20 us: few enough samples under TCG for the trace to keep
# every one of them.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
require_bin jq
cli_setup

j=$CLI_OUT/hist.json
# -D -D: the hist file as the kernel printed it, to stderr
"$OSN" hist -c 1 -T 20 -b 10 -E 12 -d 3 --trace-buffer-size 8192 -D -D \
	-t "$CLI_OUT/trace.txt" --json="$j" >"$CLI_OUT/hist.txt" \
	2>"$CLI_OUT/hist.err" || { cat "$CLI_OUT/hist.txt" "$CLI_OUT/hist.err"; fail "osn hist failed"; }
cat "$CLI_OUT/hist.txt"
if [ -e "$TFS/events/osn/sample_threshold/hist" ]; then
	# two tables, both paused before the read (the :cont and :pause
	# commands matched them, and made no table of their own)
	grep '# trigger info:' "$CLI_OUT/hist.err"
	assert_eq "$(grep -c '# trigger info: hist:' "$CLI_OUT/hist.err")" 2 "tables in the hist file"
	assert_eq "$(grep -c '# trigger info: hist:.*\[paused\]' "$CLI_OUT/hist.err")" 2 "paused tables"
fi
count=$(cli_json "$j" '.cpus[0].count')
res=$(cli_json "$j" '.percentile_resolution_us')
exact=$(cli_json "$j" '.cpus[0].percentiles_exact')
info "count $count, percentile resolution $res us, exact $exact"
[ "$count" -ge 20 ] 2>/dev/null || fail "only $count samples: too few to judge"
awk -v r="$res" 'BEGIN { exit !(r == 0.1) }' || fail "percentile resolution $res us, not 0.1"
assert_eq "$exact" true "percentiles_exact"

# The exact durations of CPU 1, in time order (ns).  The trace holds a
# few tenths of a second more than the histogram (it records from setup
# to the end, the hist triggers from the start of collection to the final
# read): the samples of the percentiles' table are a contiguous run of
# them, so every pXX must lie within the pXX of those runs, plus the fine
# resolution.
grep -E '^ +[^ ].*\[001\].* sample_threshold: ' "$CLI_OUT/trace.txt" |
	sed -E 's/.* duration ([0-9]+) ns.*/\1/' >"$CLI_OUT/d.txt"
n=$(grep -c . "$CLI_OUT/d.txt")
info "trace: $n samples of CPU 1"
[ "$n" -ge "$count" ] || fail "trace has $n samples, hist $count: trace lost samples"
# "index rank" of each sample, rank in ascending duration order
awk '{ print $1, NR }' "$CLI_OUT/d.txt" | sort -n -k1,1 -k2,2 |
	awk '{ print $2, NR, $1 }' | sort -n -k1,1 >"$CLI_OUT/ranks.txt"
pc=$(cli_json "$j" '.cpus[0].percentile_count')
info "percentiles over $pc samples"
# The two tables start and stop by two commands written one after the
# other: the samples of the moment between them are in one table only.
# Under TCG on a loaded host that moment can be a whole scheduling gap of
# the vCPU (100-140 ms; 2.6 % of a 3 s run was seen on 6.12-rt): allow
# 200 ms of samples at the run's rate (-d 3).  Which samples the fine
# table holds is checked below, run by run.
tol=$((5 + count * 2 / 30))
[ "$pc" -ge $((count - tol)) ] && [ "$pc" -le $((count + tol)) ] ||
	fail "percentiles over $pc samples, the histogram has $count (tolerance $tol)"
# The percentiles' table holds a run of pc consecutive samples of the
# trace (a sample or two at the very end may miss the trace): per
# percentile, the smallest and the largest sample of rank k - 2 .. k + 2,
# k = ceil(p * pc), over every run of pc (a Fenwick tree over the ranks
# gives each run's k-th smallest).
awk -v w="$pc" '
function low(i,   b) { b = 1; while (i % (b * 2) == 0) b *= 2; return b }
function add(i, x) { for (; i <= n; i += low(i)) t[i] += x }
function kth(k,   pos, b) {
	pos = 0
	for (b = top; b > 0; b = int(b / 2))
		if (pos + b <= n && t[pos + b] < k) { pos += b; k -= t[pos] }
	return pos + 1
}
{ rk[NR] = $2; val[$2] = $3 }
END {
	n = NR; top = 1; while (top * 2 <= n) top *= 2
	if (w > n) w = n
	split("500 900 990 999", pm, " ")
	for (q = 1; q <= 4; q++) {
		k = int((w * pm[q] + 999) / 1000)
		ka[q] = k > 2 ? k - 2 : 1
		kb[q] = k + 2 <= w ? k + 2 : w
	}
	for (i = 1; i <= w; i++) add(rk[i], 1)
	for (s = 1; ; s++) {
		for (q = 1; q <= 4; q++) {
			v = val[kth(ka[q])]
			if (!(q in lo) || v < lo[q]) lo[q] = v
			v = val[kth(kb[q])]
			if (!(q in hi) || v > hi[q]) hi[q] = v
		}
		if (s + w > n) break
		add(rk[s], -1); add(rk[s + w], 1)
	}
	for (q = 1; q <= 4; q++) print pm[q], lo[q], hi[q]
}' "$CLI_OUT/ranks.txt" >"$CLI_OUT/exact.txt" || fail "awk failed"
cat "$CLI_OUT/exact.txt"

for p in 500:p50 900:p90 990:p99 999:p99.9; do
	pm=${p%%:*} name=${p#*:}
	v=$(cli_json "$j" ".cpus[0][\"$name\"]")
	read -r _ lo hi <<EOR
$(awk -v pm="$pm" '$1 == pm' "$CLI_OUT/exact.txt")
EOR
	info "$name: osn $v us, the exact ones $lo..$hi ns"
	# osn gives the upper edge of a 100 ns bucket, or the value itself
	awk -v v="$v" -v lo="$lo" -v hi="$hi" \
		'BEGIN { v = int(v * 1000 + 0.5); exit !(v >= lo && v <= hi + 100) }' ||
		fail "$name $v us is not within 100 ns above the exact $lo..$hi ns"
	# (a 9-digit value touches its label: "p99.9:16480.742")
	tv=$(sed -n "s/^$name: *\([^ ]*\) .*/\1/p" "$CLI_OUT/hist.txt")
	awk -v a="$tv" -v b="$v" 'BEGIN { exit !(a == b) }' ||
		fail "text $name is '$tv', JSON $v"
done
exit 0
