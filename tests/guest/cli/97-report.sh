#!/bin/sh
# timeout: 60
# matrix: shard
# --report FILE.html of osn top and osn hist, with injected hard-IRQ
# stalls on CPU 1: one self-contained page (no script, nothing fetched,
# tags balanced) with one section and one time and one histogram chart per
# measured CPU, a point per period in each line (as many as the table's
# rows), the p50/p99/p99.9/max marks, the injected IRQ time in CPU 1's IRQ
# segment, and (hist) the injected 30 ms samples in the bars of >= 30 ms.
# A run that a stop condition ends (-s 250 ms, 300 ms stalls: whatever
# trips it, a TCG gap included) writes its report too, with the stop
# marked and explained, and the time by source (recorded with -s).
# Each page opens with its verdict, CPU 1's line first (the only CPU).
# osn top --causes charts its culprits: the injector's hrtimer callback
# among them, with at least the injected count.
# The reports go back to the host (build/vm/<kernel>/files/).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
inject_load
cli_setup

# check_page FILE: self-contained and well-formed enough to count on
check_page() {
	[ -s "$1" ] || fail "$1: no report"
	assert_eq "$(head -n 1 "$1")" "<!DOCTYPE html>" "$1: first line"
	assert_eq "$(tail -n 1 "$1")" "</html>" "$1: last line"
	grep -qi '<script' "$1" && fail "$1: has a script"
	grep -qi 'http' "$1" && fail "$1: refers to http"
	for _t in svg table section details; do
		assert_eq "$(grep -o "<$_t[ >]" "$1" | wc -l)" \
			"$(grep -o "</$_t>" "$1" | wc -l)" "$1: <$_t> opened and closed"
	done
	# the verdict, first: CPU 1's availability and its longest noise
	_v=$(grep -n '<section id="verdict">' "$1" | cut -d: -f1)
	[ -n "$_v" ] || fail "$1: no verdict"
	assert_le "$_v" "$(grep -n '<section class="cpu"' "$1" | head -n 1 | cut -d: -f1)" \
		"$1: the verdict's line, before the CPU sections"
	grep -Eq '^<li>CPU 1: [0-9]+\.[0-9]{5} % available; the longest single noise [0-9.]+ (us|ms|s); ' "$1" ||
		fail "$1: no verdict line of CPU 1"
	assert_eq "$(grep -c '<section class="cpu"' "$1")" 1 "$1: CPU sections"
	grep -q '<section class="cpu" id="cpu-1">' "$1" || fail "$1: no section of CPU 1"
	assert_eq "$(grep -c 'class="chart time"' "$1")" 1 "$1: time charts"
	assert_eq "$(grep -c 'class="chart hist"' "$1")" 1 "$1: histogram charts"
	assert_eq "$(grep -c '<polyline' "$1")" 2 "$1: lines (noise, max single)"
	# a point per row of the table under the chart, a row per period
	_pts=$(grep -o '<polyline points="[^"]*"' "$1" | head -n 1 | tr ' ' '\n' | grep -c ,)
	_rows=$(awk '/<table class="num time">/ { on = 1 } on && /^<tr><td>/ { n++ }
		     /<\/table>/ { on = 0 } END { print n + 0 }' "$1")
	assert_eq "$_pts" "$_rows" "$1: points against table rows"
	assert_ge "$_pts" 10 "$1: points (periods of 100 ms in 2 s)"
	assert_eq "$(grep -c 'class="pct"' "$1")" 4 "$1: p50/p99/p99.9/max marks"
	_bars=$(grep -c 'class="bar"' "$1")
	assert_ge "$_bars" 1 "$1: histogram bars"
	assert_le "$_bars" 64 "$1: histogram bars"
	# the injected IRQ time is in CPU 1's IRQ segment (>= 90% of it)
	_irq=$(grep -o 'CPU 1 IRQ: [0-9.]* us' "$1" | head -n 1 | awk '{ print $4 }')
	[ -n "$_irq" ] || fail "$1: no IRQ segment of CPU 1"
	cli_us_ge "$_irq" $(($2 * 9 / 10)) || fail "$1: IRQ $_irq us < 90% of $2 ns"
}

# 2 s hold osn hist's injections below on the matrix's kernels; the debug
# and in-tree kernels (KASAN, lockdep: OSN_TIMEOUT_SCALE=5) need longer.
D=$((2 * ${OSN_TIMEOUT_SCALE:-1}))
# osn top: no -d, ended (SIGINT) once every stall ran, so that each is
# in the run whatever the kernel's speed (a -d 2 run on 6.1 had 11 of its
# 15 stalls' culprits: the last ones came after its end)
cli_start "$CLI_OUT/top.txt" top -c 1 -p 100000 -r 100000 -T 20 -q -D \
	--causes --report "$CLI_OUT/top.html"
cli_wait_counting
inject irq 1 15 20000 50000
done=$(inject_status done)
stolen=$(inject_status stolen_ns)
cli_sigint_settled
rc=$RC
cat "$CLI_OUT/top.txt"
assert_eq "$rc" 0 "osn top exit status (SIGINT)"
grep -q "Report written to $CLI_OUT/top.html" "$CLI_OUT/top.txt" || fail "top did not say where the report is"
check_page "$CLI_OUT/top.html" "$stolen"
grep -q 'Largest sample of each period' "$CLI_OUT/top.html" || fail "top: histogram title"
# --causes: a chart of CPU 1's culprits, whose table has the injector's
# hrtimer callback: in every noise that ran it, so with at least the
# time stolen, and in as many noises as stalls ran, or a few fewer: two
# stalls in one interrupt (the hrtimer's second expiry already due when
# the first stall ends, after an emulator's gap delayed the first) are
# one noise, where a culprit counts once (causes.c)
t=$CLI_OUT/top.html
assert_eq "$(grep -c 'class="chart culprits"' "$t")" 1 "top: culprit charts"
set -- $(sed -n 's|^<tr><td>1</td><td>hrtimer</td><td>inj_timer_fn</td><td>[^<]*</td><td>\([0-9]*\)</td><td>\([0-9]*\).*|\1 \2|p' "$t")
[ $# = 2 ] || fail "top: no culprit row of inj_timer_fn on CPU 1 (count, us)"
info "inj_timer_fn: $1 noises, $2 us; $done stalls, $stolen ns stolen"
assert_le "$1" "$done" "top: inj_timer_fn's count (noises)"
assert_ge "$1" $((done - done / 4)) "top: inj_timer_fn's count (noises)"
assert_ge "$2" $((stolen * 95 / 100000)) "top: inj_timer_fn's time (us)"
grep -Eq '^<li>CPU 1: .*; the top culprit: ' "$t" || fail "top: the verdict names no culprit"
hand_back "$CLI_OUT/top.html" top.html

cli_start "$CLI_OUT/hist.txt" hist -c 1 -p 100000 -r 100000 -T 20 -b 1000 -E 60 \
	-d $D -q -D --report "$CLI_OUT/hist.html"
pid=$CLI_PID
cli_wait_counting
inject irq 1 15 30000 60000
done=$(inject_status done)
stolen=$(inject_status stolen_ns)
wait $pid
rc=$?
cat "$CLI_OUT/hist.txt"
assert_eq "$rc" 0 "osn hist exit status"
check_page "$CLI_OUT/hist.html" "$stolen"
h=$CLI_OUT/hist.html
grep -q 'every noise sample' "$h" || fail "hist: histogram title"
# bars' titles: "[LO, HI) us: COUNT"; the 30 ms samples in bars from 30 ms
n30=$(grep -o '<title>\[[0-9.]*, [0-9.]*) us: [0-9]*</title>' "$h" |
	sed 's/^<title>\[\([0-9.]*\), [0-9.]*) us: \([0-9]*\).*/\1 \2/' |
	awk '$1 + 0 >= 29000 { n += $2 } END { print n + 0 }')
# A stall that a TCG gap lengthened past the range (-E 60: 60 ms) is in
# "over", not in a bar: it counts as one of the injected ones too.
over=$(sed -n 's/^over: *\([0-9]*\).*/\1/p' "$CLI_OUT/hist.txt" | head -n 1)
info "hist: $n30 samples >= 29 ms in the bars, ${over:-0} over the range, $done injected"
assert_ge "$((n30 + ${over:-0}))" $((done * 9 / 10)) "samples of >= 30 ms in the bars or over"
assert_ge "$n30" $((done / 2)) "samples of >= 30 ms in the bars"
hand_back "$h" hist.html

# a stop condition ends the run: the report is written all the same
# (injected once osn collects: with a stop armed, its setup first reads
# the kernel's symbols, seconds under TCG)
cli_start "$CLI_OUT/stop.txt" top -c 1 -p 100000 -r 100000 -T 20 -s 250000 \
	-d 5 -q --report "$CLI_OUT/stop.html"
cli_wait_collecting osn_top 0
inject_start irq 1 3 300000 600000
wait $CLI_PID
rc=$?
echo stop >"$INJ/inject" 2>/dev/null
inject_wait 30
cat "$CLI_OUT/stop.txt"
assert_eq "$rc" 2 "osn top -s exit status (a stop)"
s=$CLI_OUT/stop.html
assert_eq "$(tail -n 1 "$s")" "</html>" "stop: last line"
grep -q '<td>stop condition hit</td>' "$s" || fail "stop: exit reason"
grep -q '<pre class="why">osn hit stop tracing' "$s" || fail "stop: no explanation"
assert_eq "$(grep -c '<circle' "$s")" 1 "stop: marks"
assert_eq "$(grep -c 'class="chart source"' "$s")" 1 "stop: chart by source"
grep -q '^<tr><td>1</td><td>irq</td>' "$s" || fail "stop: no IRQ source of CPU 1 in the table"
hand_back "$s" stop.html
exit 0
