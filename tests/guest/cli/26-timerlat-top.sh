#!/bin/sh
# timeout: 120
# osn timerlat top: a bad period is one error line, exit 1, nothing
# changed; -c 1 -d 3 prints rtla's layout with one row, CPU 1's, whose
# count is about d/period and whose IRQ and thread columns hold numbers
# (the same as its JSON's) with min <= avg <= max, the thread's min >= the IRQ's; then every
# knob is back, the mode osnoise again, also after a SIGKILL and osn
# cleanup.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
require_bin jq
cli_setup
knobs() { cli_knobs; echo "mode=$(cat "$OSN_PARAMS/mode")";
	echo "timerlat_period_us=$(cat "$OSN_PARAMS/timerlat_period_us")"; }
before=$(knobs)
assert_eq "$(cat "$OSN_PARAMS/mode")" osnoise "mode before"

"$OSN" timerlat -p 50 -d 1 >"$CLI_OUT/bad.out" 2>"$CLI_OUT/bad.err"
assert_eq "$?" 1 "exit status of -p 50"
cli_one_line "$CLI_OUT/bad.err" || fail "-p 50: $(cat "$CLI_OUT/bad.err")"
grep -q 'period must be 100..1000000 us' "$CLI_OUT/bad.err" ||
	fail "-p 50: $(cat "$CLI_OUT/bad.err")"
[ -s "$CLI_OUT/bad.out" ] && fail "-p 50 printed on stdout"
assert_eq "$(knobs)" "$before" "knobs after -p 50"
assert_eq "$(cli_instances)" "" "instances after -p 50"

# 10 ms: what TCG keeps up with; -d 3 is 300 activations at most
"$OSN" timerlat top -c 1 -p 10000 -d 3 -q --json="$CLI_OUT/top.json" \
	>"$CLI_OUT/top.txt" 2>&1
rc=$?
t=$CLI_OUT/top.txt
cat "$t"
assert_eq "$rc" 0 "exit status"
grep -q '^ *Timer Latency$' "$t" || fail "no title"
grep -Eq '^ +0 00:00:0[0-9] +\| +IRQ Timer Latency \(us\) +\| +Thread Timer Latency \(us\)$' "$t" ||
	fail "no duration line"
grep -Eq '^CPU COUNT +\| +cur +min +avg +max \| +cur +min +avg +max$' "$t" ||
	fail "no header"
assert_eq "$(grep -Ec '^ +[0-9]+ #' "$t")" 1 "CPU rows"
set -- $(sed -n 's/^  1 #\([0-9]*\) *|\(.*\)|\(.*\)$/\1 \2 \3/p' "$t")
[ $# = 9 ] || fail "CPU 1's row is not 'count | 4 IRQ | 4 thread': $*"
info "count $1 irq cur/min/avg/max $2 $3 $4 $5 thread $6 $7 $8 $9"
assert_ge "$1" 30 "activations in 3 s of 10 ms"
assert_le "$1" 300 "activations (at most -d / -p)"
assert_ge "$5" "$4" "IRQ max >= avg"
assert_ge "$4" "$3" "IRQ avg >= min"
assert_ge "$9" "$8" "thread max >= avg"
assert_ge "$8" "$7" "thread avg >= min"
# an activation's thread latency includes its IRQ's (the last IRQ may
# have no thread sample yet when the run ends: no such bound on max)
assert_ge "$7" "$3" "thread min >= IRQ min"
# the JSON report of the same run: CPU 1 alone, the same count and max
j=$CLI_OUT/top.json
assert_eq "$(cli_json "$j" '.tool')" "osn timerlat top" "JSON tool"
assert_eq "$(cli_json "$j" '.config.period_us')" 10000 "JSON period"
assert_eq "$(cli_json "$j" '[.cpus[] | select(.irq.count > 0)] | length')" 1 "JSON CPUs with samples"
assert_eq "$(cli_json "$j" '.cpus[] | select(.cpu == 1) | .irq.count')" "$1" "JSON IRQ count"
assert_eq "$(cli_json "$j" '.cpus[] | select(.cpu == 1) | .thread.max | floor')" "$9" "JSON thread max"

assert_eq "$(knobs)" "$before" "knobs after the run"
assert_eq "$(cli_instances)" "" "instances after the run"
assert_eq "$(cat "$OSN_PARAMS/mode")" osnoise "mode after"

# SIGKILL in the middle of a run: osn cleanup puts the mode and the
# period back from the session's journal.  Killed once it collects:
# killed while it creates its instance, 6.1's ring buffer allocation
# fails and WARNs (trace_rb_cpu_prepare), which is the kernel's.
cli_start "$CLI_OUT/kill.txt" timerlat -c 1 -p 2000 -q
wait_for 30 grep -qx 1 "$TFS/instances/osn_top/events/osn/timerlat_sample/enable" ||
	{ cat "$CLI_LOG"; fail "the run did not start collecting"; }
assert_eq "$(cat "$OSN_PARAMS/timerlat_period_us")" 2000 "period during the run"
assert_eq "$(cat "$OSN_PARAMS/mode")" timerlat "mode during the run"
kill -KILL $CLI_PID
wait $CLI_PID 2>/dev/null
"$OSN" cleanup || fail "osn cleanup"
assert_eq "$(knobs)" "$before" "knobs after SIGKILL and osn cleanup"
assert_eq "$(cli_instances)" "" "instances after osn cleanup"
exit 0
