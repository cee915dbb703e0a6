#!/bin/sh
# timeout: 300
# matrix: shard
# osn compare names the IRQ class that injected stalls grew: two runs of
# osn top on CPU 1 saved with --json, 8 s each, the second with 50 x 25
# ms of injected hard-IRQ stalls over its first 4-6 s (about 160 ms per
# second more IRQ time, where the guest's own IRQ time under TCG moves by
# up to 120 ms/s between two runs; the stalls add about as much thread
# noise, so the verdict may name Thread first and IRQ second: a compare
# that did not name IRQ would fail).  The JSON says the same, with the
# noisy run's IRQ time at least 90 % of what was injected; both runs carry
# this kernel's release; the --report page is written and handed back.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
require_bin jq
inject_load
cli_setup

q=$CLI_OUT/quiet.json
n=$CLI_OUT/noisy.json
"$OSN" top -c 1 -p 100000 -r 100000 -d 8 -q --json="$q" >"$CLI_OUT/quiet.txt" 2>&1 ||
	{ cat "$CLI_OUT/quiet.txt"; fail "the quiet run failed"; }
cli_start "$CLI_OUT/noisy.txt" top -c 1 -p 100000 -r 100000 -d 8 -q --json="$n"
pid=$CLI_PID
cli_inject_collecting osn_top irq 1 50 25000 80000
inject_wait 60
stolen=$(inject_status stolen_ns)
info "$(inject_status)"
wait "$pid"
assert_eq "$?" 0 "exit status of the noisy run"
assert_eq "$(inject_status "done")" 50 "injections done"
assert_eq "$(cli_json "$n" '.schema')" 1 "schema of osn top's JSON"
assert_eq "$(cli_json "$n" '.kernel')" "$(uname -r)" "kernel in osn top's JSON"

"$OSN" compare "$q" "$n" --json="$CLI_OUT/cmp.json" --report "$CLI_OUT/cmp.html" \
	>"$CLI_OUT/cmp.txt" 2>"$CLI_OUT/cmp.err"
rc=$?
cat "$CLI_OUT/cmp.txt" "$CLI_OUT/cmp.err"
assert_eq "$rc" 0 "exit status of osn compare"
[ -s "$CLI_OUT/cmp.err" ] && fail "osn compare wrote to stderr"

# the text: CPU 1's verdict names the IRQ time going up, first or as the
# second class that changed (the stalls add thread noise too under TCG);
# no % when A had none
v=$(grep '^  CPU 1 ' "$CLI_OUT/cmp.txt")
info "verdict: $v"
assert_match "$v" '^  CPU 1 (.*; )?IRQ time: [0-9.]+ ms/s → [0-9.]+ ms/s( \(\+[0-9]+ %\))?(;|$)'
# the same command, settings and kernel (the elapsed seconds may differ)
grep -E '^  B differs from A: .*(command|kernel|osn|CPUs|period_us|runtime_us|threshold_us)' \
	"$CLI_OUT/cmp.txt" && fail "runs of the same settings and kernel said to differ"

# the JSON: the same verdict, and the noisy run's IRQ time per second of
# runtime at least 90 % of the injected time per second
c=$CLI_OUT/cmp.json
assert_eq "$(cli_json "$c" '.against_a[0].verdicts[0].cpu')" 1 "verdict's CPU"
assert_eq "$(cli_json "$c" '[.against_a[0].verdicts[0] | .metric, .also] | index("irq_time") != null')" \
	true "IRQ time among the verdict's numbers"
a=$(cli_json "$c" '.cpus[0].metrics.irq_time.values[0]')
b=$(cli_json "$c" '.cpus[0].metrics.irq_time.values[1]')
rt=$(cli_json "$n" '.cpus[0].runtime')
info "IRQ time $a -> $b ms/s, runtime $rt us, stolen $stolen ns"
awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > a) }' || fail "IRQ time did not go up: $a -> $b ms/s"
# b ms/s * runtime s = IRQ ms of the run >= 90 % of the stolen ms
awk -v b="$b" -v rt="$rt" -v s="$stolen" 'BEGIN { exit !(b * rt / 1e6 >= 0.9 * s / 1e6) }' ||
	fail "IRQ time $b ms/s over $rt us is under 90 % of the stolen $stolen ns"

# the page: the verdict at the top, CPU 1 and all CPUs, the class bars
h=$CLI_OUT/cmp.html
grep -Eq '^<li>CPU 1 (.*; )?IRQ time: [0-9.]+ ms/s → ' "$h" || fail "no CPU 1 IRQ verdict in the page"
assert_eq "$(grep -c '<section class="cpu"' "$h")" 2 "CPU sections of the page"
assert_eq "$(grep -c 'class="chart classes"' "$h")" 2 "class charts of the page"
hand_back "$h" compare.html
exit 0
