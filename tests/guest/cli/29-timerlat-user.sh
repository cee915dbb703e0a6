#!/bin/sh
# timeout: 120
# matrix: shard
# osn timerlat top -u: -u with -k is one error line, exit 1; -u -c 1 -d 3
# forks one timerlatu/1 process, bound to CPU 1, SCHED_FIFO 95, while
# the module runs in user-space mode (NO_OSNOISE_WORKLOAD, no timerlat/
# thread); the table has rtla's Ret user columns, CPU 1's holding
# numbers (its JSON "user" count > 0), the return's min >= the thread's;
# exit 0; then no timerlatu/ process is left and every knob is back,
# also after a SIGKILL of osn and osn cleanup.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
require_bin jq
cli_setup
knobs() { cli_knobs; echo "mode=$(cat "$OSN_PARAMS/mode")"; }
tlu_pids() {
	grep -lx "$1" /proc/[0-9]*/comm 2>/dev/null | sed -n 's,^/proc/\([0-9]*\)/comm$,\1,p'
}
tlu_count() { tlu_pids "$1" | grep -c .; }
before=$(knobs)

"$OSN" timerlat top -u -k -d 1 >"$CLI_OUT/bad.out" 2>"$CLI_OUT/bad.err"
assert_eq "$?" 1 "exit status of -u -k"
cli_one_line "$CLI_OUT/bad.err" || fail "-u -k: $(cat "$CLI_OUT/bad.err")"
grep -q 'kernel or user threads, not both' "$CLI_OUT/bad.err" ||
	fail "-u -k: $(cat "$CLI_OUT/bad.err")"
assert_eq "$(knobs)" "$before" "knobs after -u -k"

cli_start "$CLI_OUT/top.txt" timerlat top -u -c 1 -p 10000 -d 3 -q \
	--json="$CLI_OUT/top.json"
wait_for 20 sh -c "[ -n \"\$(grep -lx timerlatu/1 /proc/[0-9]*/comm 2>/dev/null)\" ]" ||
	{ cat "$CLI_LOG"; fail "no timerlatu/1 process"; }
pid=$(tlu_pids timerlatu/1)
info "timerlatu/1: pid $pid"
assert_eq "$(tlu_count timerlatu/1)" 1 "timerlatu/1 processes"
assert_eq "$(tlu_count timerlatu/0)" 0 "timerlatu/0 processes (CPU 0 not measured)"
# policy (1: SCHED_FIFO) and rt_priority, fields 41 and 40 of stat
wait_for 5 sh -c "[ \"\$(awk '{ print \$41, \$40 }' /proc/$pid/stat)\" = '1 95' ]" ||
	fail "timerlatu/1's policy and priority: $(awk '{ print $41, $40 }' /proc/$pid/stat)"
assert_eq "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$pid/status)" 1 "timerlatu/1's CPUs"
assert_match "$(cat "$OSN_PARAMS/options")" "NO_OSNOISE_WORKLOAD" "options during the run"
assert_eq "$(grep -l '^timerlat/' /proc/[0-9]*/comm 2>/dev/null | grep -c .)" 0 "timerlat/ threads during the run"
cli_wait_end
t=$CLI_OUT/top.txt
cat "$t"
assert_eq "$RC" 0 "exit status"
grep -Eq '^ +0 00:00:0[0-9] +\| +IRQ Timer Latency \(us\) +\| +Thread Timer Latency \(us\) +\| +Ret user Timer Latency \(us\)$' "$t" ||
	fail "no duration line with Ret user"
grep -Eq '^CPU COUNT +(\| +cur +min +avg +max +){2}\| +cur +min +avg +max$' "$t" ||
	fail "no header with the Ret user columns"
set -- $(sed -n 's/^  1 #\([0-9]*\) *|\(.*\)|\(.*\)|\(.*\)$/\1 \2 \3 \4/p' "$t")
[ $# = 13 ] || fail "CPU 1's row is not 'count | 4 IRQ | 4 thread | 4 user': $*"
info "count $1 thread min $7 user cur/min/avg/max ${10} ${11} ${12} ${13}"
assert_ge "$1" 10 "activations in 3 s of 10 ms"
assert_ge "${13}" "${12}" "user max >= avg"
assert_ge "${12}" "${11}" "user avg >= min"
# a return comes after its activation's thread sample
assert_ge "${11}" "$7" "user min >= thread min"
j=$CLI_OUT/top.json
ucount=$(cli_json "$j" '.cpus[] | select(.cpu == 1) | .user.count')
assert_ge "$ucount" 1 "JSON user count"
assert_eq "$(tlu_count timerlatu/1)" 0 "timerlatu/1 processes after the run"
assert_eq "$(knobs)" "$before" "knobs after the run"
assert_eq "$(cli_instances)" "" "instances after the run"

# SIGKILL of osn: its timerlatu/N die with it, osn cleanup puts the
# knobs back from the session's journal.
cli_start "$CLI_OUT/kill.txt" timerlat -u -c 1 -p 2000 -q
wait_for 30 sh -c "[ -n \"\$(grep -lx timerlatu/1 /proc/[0-9]*/comm 2>/dev/null)\" ]" ||
	{ cat "$CLI_LOG"; fail "no timerlatu/1 process"; }
kill -KILL $CLI_PID
wait $CLI_PID 2>/dev/null
wait_for 10 sh -c "! grep -qx timerlatu/1 /proc/[0-9]*/comm 2>/dev/null" ||
	fail "timerlatu/1 outlived a SIGKILL of osn"
"$OSN" cleanup || fail "osn cleanup"
assert_eq "$(knobs)" "$before" "knobs after SIGKILL and osn cleanup"
assert_eq "$(cli_instances)" "" "instances after osn cleanup"
exit 0
