#!/bin/sh
# timeout: 120
# matrix: shard
# osn timerlat top -U: the module in user-space mode, but osn forks no
# timerlatu/ process; the user's own reader (osn_tlu, pinned to CPU 1)
# opens /dev/osn_timerlat once the run started and its reads are what
# the table shows: Ret user columns whose count is at least the reads
# less one (the first read has no return), exit 0, knobs back.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
require_bin jq
cli_setup
tlu=$OSN_BIN/osn_tlu
[ -x "$tlu" ] || fail "osn_tlu is not in the guest"
knobs() { cli_knobs; echo "mode=$(cat "$OSN_PARAMS/mode")"; }
before=$(knobs)
READS=100
cli_start "$CLI_OUT/top.txt" timerlat top -U -c 1 -p 10000 -d 4 -q \
	--json="$CLI_OUT/top.json"
wait_for 20 sh -c "[ \"\$($tlu 1 1)\" = reads=1 ]" ||
	{ cat "$CLI_LOG"; fail "/dev/osn_timerlat never opened: $("$tlu" 1 1)"; }
assert_eq "$(grep -l '^timerlatu/' /proc/[0-9]*/comm 2>/dev/null | grep -c .)" 0 "timerlatu/ processes with -U"
assert_eq "$(grep -l '^timerlat/' /proc/[0-9]*/comm 2>/dev/null | grep -c .)" 0 "timerlat/ threads with -U"
assert_eq "$("$tlu" 1 $READS)" "reads=$READS" "the reader's reads"
cli_wait_end
cat "$CLI_OUT/top.txt"
assert_eq "$RC" 0 "exit status"
grep -q 'Ret user Timer Latency (us)' "$CLI_OUT/top.txt" || fail "no Ret user columns"
ucount=$(cli_json "$CLI_OUT/top.json" '.cpus[] | select(.cpu == 1) | .user.count')
assert_ge "$ucount" $((READS - 1)) "JSON user count"
assert_eq "$(knobs)" "$before" "knobs after the run"
assert_eq "$(cli_instances)" "" "instances after the run"
exit 0
