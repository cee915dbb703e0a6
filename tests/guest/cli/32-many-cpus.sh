#!/bin/sh
# timeout: 180
# matrix: shard
# boot: smp8 vm.smp=8
# The layouts for many CPUs, on 8 vCPUs with 7 measured, named one by
# one (-c 1,2,3,4,5,6,7: the module's cpus knob gets "1-7").  osn top
# --group 4: rows 1-4, 5-7 and ALL only, each the sum of its CPUs' JSON
# periods and IRQ counts, Worst the JSON's CPU of the lowest
# availability; osn top --summary: the ALL rows only; osn hist --layout
# rows: the histogram of them all (Index ALL), a row per CPU 1-7 with
# its JSON count, ALL with their sum, every line of the table as wide
# as its title; osn timerlat hist --layout rows: IRQ-ALL and Thr-ALL, a
# row per CPU and context with its JSON count, ALL Thr their sum; osn
# top -q's read() calls a second, bounded (the reader asks an empty
# CPU once a read).  The JSON keeps its keys.  The
# boot is its own (smp8): it was cli/25-sparse-cpus', brought to 8
# vCPUs, but cli/25's comparison of two CPUs' own IRQ time does not hold
# at 8 on trixie-rt-arm64.  It costs one boot on 6.1, on the other
# kernel of the day and on the arm64 kernel of make check.
# Half of each period measured (-r 50000): single-threaded TCG runs one
# vCPU at a time, and osn itself on CPU 0 needs some of it.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 8
require_bin jq
cli_setup

# run NAME ARGS...: osn ARGS for 2 s, text to NAME.txt, JSON to NAME.json
run() {
	_n=$1
	shift
	cli_start "$CLI_OUT/$_n.txt" "$@" -c 1,2,3,4,5,6,7 -p 100000 -r 50000 \
		-d 2 --json="$CLI_OUT/$_n.json"
	cli_wait_end
	cat "$CLI_OUT/$_n.txt"
	assert_eq "$RC" 0 "osn $* exit status"
	assert_eq "$(cli_json "$CLI_OUT/$_n.json" '.config.cpus')" "1-7" \
		"osn $*: the cpus knob (JSON config.cpus)"
	assert_eq "$(cli_json "$CLI_OUT/$_n.json" '[.cpus[].cpu] | join(",")')" \
		"1,2,3,4,5,6,7" "osn $*: JSON cpus"
}

# the first block's row LABEL of FILE: its words
row() {
	awk -v l="$2" '$1 == l && $2 ~ /^#/ { print; exit }' "$1"
}

# 1. osn top --group 4
run top top --group 4 -q
j=$CLI_OUT/top.json t=$CLI_OUT/top.txt
keys=$(cli_json "$j" '.cpus[0] | keys | join(",")')
assert_eq "$keys" "cpu,cpu_avail_pct,hw,irq,max_noise,max_single,min_single,nmi,noise,periods,runtime,samples,self,softirq,thread" \
	"top JSON: a CPU's keys"
assert_eq "$(cli_json "$j" '.total | keys | length')" 14 "top JSON: total's keys"
grep -Eq '^ *CPU +Period .* Worst +Worst Aval$' "$t" || fail "top: no Worst columns"
grep -Eq '^ *[0-9]+ +#' "$t" && fail "top --group 4: a row of one CPU"
for g in 1-4:1,2,3,4 5-7:5,6,7 ALL:1,2,3,4,5,6,7; do
	l=${g%%:*} c=${g#*:}
	set -- $(row "$t" "$l")
	[ $# = 9 ] || fail "top: row $l has $# words, not 9: '$*'"
	want=$(cli_json "$j" "[.cpus[] | select(.cpu | IN($c)) | .periods] | add")
	assert_eq "$2" "#$want" "top: periods of row $l (JSON's CPUs $c)"
	irq=$(awk -v l="$l" '/^ *CPU +HW +HW us/ { b = 1; next } b && $1 == l { print $6 }' "$t")
	want=$(cli_json "$j" "[.cpus[] | select(.cpu | IN($c)) | .irq.count] | add")
	assert_eq "$irq" "$want" "top: IRQ count of row $l"
	worst=$(cli_json "$j" "[.cpus[] | select(.cpu | IN($c))] | min_by(.cpu_avail_pct) | .cpu")
	info "row $l: periods $2, IRQs $irq, worst CPU $8 at $9 % (JSON: $worst)"
	assert_eq "$8" "$worst" "top: Worst of row $l"
done
assert_eq "$(cli_json "$j" '.total.periods')" "$(row "$t" ALL | awk '{ print substr($2, 2) }')" \
	"top: ALL's periods against JSON total"

# 2. osn top --summary: the ALL rows only
run sum top --summary -q
t=$CLI_OUT/sum.txt
n=$(grep -cE '^ *([0-9]|ALL)' "$t")
assert_eq "$n" 2 "top --summary: rows (ALL in each block)"
row "$t" ALL | grep -q . || fail "top --summary: no ALL row"

# 3. osn hist --layout rows
run hist hist --layout rows -b 10 -E 20
j=$CLI_OUT/hist.json t=$CLI_OUT/hist.txt
keys=$(cli_json "$j" '.cpus[0] | keys | join(",")')
assert_eq "$keys" "avg,avg_exact,buckets,count,cpu,max,max_exact,min,min_exact,over,p50,p90,p99,p99.9,percentile_count,percentiles_exact" \
	"hist JSON: a CPU's keys"
grep -Eq '^Index +ALL$' "$t" || fail "hist: no 'Index ALL' line"
grep -q 'CPU-00' "$t" && fail "hist --layout rows: rtla's columns"
grep -Eq '^CPU +count +min +avg +max +p50 +p90 +p99 +p99.9 +over$' "$t" ||
	fail "hist: no title of the table of rows"
for c in 1 2 3 4 5 6 7; do
	got=$(awk -v c="$c" '$1 == c && NF == 10 { print $2 }' "$t")
	assert_eq "$got" "$(cli_json "$j" ".cpus[] | select(.cpu == $c) | .count")" \
		"hist: count of CPU $c's row"
done
set -- $(awk '$1 == "ALL" && NF == 10 { print $2, $10 }' "$t")
assert_eq "$1 $2" "$(cli_json "$j" '[([.cpus[].count] | add), ([.cpus[].over] | add)] | join(" ")')" \
	"hist: ALL's count and over"
# right-aligned: the table's lines are as wide as its title
w=$(awk '/^CPU +count/ { t = 1 } t { print length }' "$t" | sort -u | wc -l)
assert_eq "$w" 1 "hist: widths of the table's lines"

# 4. osn timerlat hist --layout rows: a column per context (IRQ-ALL,
# Thr-ALL), then a row per CPU and context with its JSON count, and ALL
cli_start "$CLI_OUT/tl.txt" timerlat hist -c 1,2,3,4,5,6,7 -p 100000 -d 2 \
	--layout rows --json="$CLI_OUT/tl.json"
cli_wait_end
j=$CLI_OUT/tl.json t=$CLI_OUT/tl.txt
cat "$t"
assert_eq "$RC" 0 "osn timerlat hist --layout rows exit status"
grep -Eq '^Index +IRQ-ALL +Thr-ALL$' "$t" || fail "timerlat hist: no 'Index IRQ-ALL Thr-ALL' line"
grep -q 'IRQ-00' "$t" && fail "timerlat hist --layout rows: rtla's columns"
grep -Eq '^CPU +ctx +count +min +avg +max +over$' "$t" ||
	fail "timerlat hist: no title of the table of rows"
for c in 1 2 3 4 5 6 7; do
	for x in IRQ:irq Thr:thread; do
		got=$(awk -v c="$c" -v x="${x%%:*}" '$1 == c && $2 == x { print $3 }' "$t")
		assert_eq "$got" "$(cli_json "$j" ".cpus[] | select(.cpu == $c) | .${x#*:}.count")" \
			"timerlat hist: count of CPU $c's ${x%%:*} row"
	done
done
got=$(awk '$1 == "ALL" && $2 == "Thr" { print $3 }' "$t")
assert_eq "$got" "$(cli_json "$j" '[.cpus[].thread.count] | add')" "timerlat hist: ALL Thr count"

# 5. osn top -q reads each measured CPU's buffer about twice a second
# (once for its osn:sample, once to find it empty), not once more for
# every record taken from another CPU: the read() calls of 4 s of
# collection (/proc/PID/io's syscr, all files), per second: 13 on 6.1,
# 33 when the reader asked again (at 7 CPUs; it grows with their square)
cli_start "$CLI_OUT/reads.txt" top -c 1,2,3,4,5,6,7 -q -d 12 -D
cli_wait_counting
sleep 1
r0=$(awk '/^syscr:/ { print $2 }' /proc/$CLI_PID/io)
read -r u0 _ </proc/uptime
sleep 4
r1=$(awk '/^syscr:/ { print $2 }' /proc/$CLI_PID/io)
read -r u1 _ </proc/uptime
kill -INT "$CLI_PID"
cli_wait_end
rate=$(awk -v r="$((r1 - r0))" -v a="$u0" -v b="$u1" 'BEGIN { printf "%d\n", r / (b - a) }')
info "osn top -c 1-7 -q: $((r1 - r0)) read() calls in $u0..$u1 s: $rate a second"
assert_le "$rate" 22 "read() calls a second while osn top -q collects 7 CPUs"
exit 0
