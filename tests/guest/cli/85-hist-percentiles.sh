#!/bin/sh
# timeout: 240
# osn hist's percentiles are the values, not the display buckets' edges:
# with 10 us buckets, each of p50/p90/p99/p99.9 of CPU 1 lies within the
# fine resolution (bucket / 100 = 100 ns) above the exact percentile of
# the samples that the -t trace of the same run saved
# (osn:sample_threshold, one line per sample) at that rank, give or take
# the few samples of the edges of the run.  (Before, p50 printed 10.000 for samples of 1-2 us.)
# Threshold 20 us: few enough samples under TCG for the trace to keep
# every one of them.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
require_bin jq
cli_setup

j=$CLI_OUT/hist.json
"$OSN" hist -c 1 -T 20 -b 10 -E 12 -d 4 --trace-buffer-size 8192 \
	-t "$CLI_OUT/trace.txt" --json="$j" >"$CLI_OUT/hist.txt" 2>&1 ||
	{ cat "$CLI_OUT/hist.txt"; fail "osn hist failed"; }
cat "$CLI_OUT/hist.txt"
count=$(cli_json "$j" '.cpus[0].count')
res=$(cli_json "$j" '.percentile_resolution_us')
exact=$(cli_json "$j" '.cpus[0].percentiles_exact')
info "count $count, percentile resolution $res us, exact $exact"
[ "$count" -ge 20 ] 2>/dev/null || fail "only $count samples: too few to judge"
awk -v r="$res" 'BEGIN { exit !(r == 0.1) }' || fail "percentile resolution $res us, not 0.1"
assert_eq "$exact" true "percentiles_exact"

# the exact durations of CPU 1, sorted (ns)
grep -E '^ +[^ ].*\[001\].* sample_threshold: ' "$CLI_OUT/trace.txt" |
	sed -E 's/.* duration ([0-9]+) ns.*/\1/' | sort -n >"$CLI_OUT/d.txt"
n=$(grep -c . "$CLI_OUT/d.txt")
info "trace: $n samples of CPU 1"
# the trace starts before and ends after the hist trigger: allow the
# samples of the edges, but no more
[ "$n" -ge "$count" ] || fail "trace has $n samples, hist $count: trace lost samples"
[ "$n" -le $((count + count / 50 + 5)) ] || fail "trace has $n samples, hist $count"

for p in 500:p50 900:p90 990:p99 999:p99.9; do
	pm=${p%%:*} name=${p#*:}
	v=$(cli_json "$j" ".cpus[0][\"$name\"]")
	# exact percentile at rank ceil(p * count) of the trace's samples,
	# give or take the samples of the edges: those the trace has and the
	# hist not, and those the percentiles' table (whose trigger is set
	# a moment after the display one's) may miss
	r=$(( (count * pm + 999) / 1000 ))
	slack=$(( 5 + count / 200 ))
	lo_r=$(( r - slack ))
	hi_r=$(( r + n - count + slack ))
	[ "$lo_r" -ge 1 ] || lo_r=1
	[ "$hi_r" -le "$n" ] || hi_r=$n
	lo=$(sed -n "${lo_r}p" "$CLI_OUT/d.txt")
	hi=$(sed -n "${hi_r}p" "$CLI_OUT/d.txt")
	info "$name: osn $v us, exact $lo..$hi ns (ranks $lo_r..$hi_r of $n)"
	awk -v v="$v" -v lo="$lo" -v hi="$hi" -v r=100 \
		'BEGIN { exit !(v * 1000 + 0.5 >= lo - r && v * 1000 <= hi + r + 0.5) }' ||
		fail "$name $v us is not within 100 ns of the exact $lo..$hi ns"
	grep -Eq "^$name: *$v " "$CLI_OUT/hist.txt" ||
		fail "text $name is not $v: $(grep "^$name" "$CLI_OUT/hist.txt")"
done
exit 0
