#!/bin/sh
# timeout: 120
# matrix: shard
# osn timerlat hist -c 1: rtla's layout (header, Index IRQ-001 Thr-001,
# bucket rows, over/count/min/avg/max) whose bucket rows and over add up
# to each column's count; --no-irq leaves the thread column alone.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
cli_setup

"$OSN" timerlat hist -c 1 -p 10000 -d 2 -b 100 -E 20 >"$CLI_OUT/h.txt" 2>&1
rc=$?
h=$CLI_OUT/h.txt
cat "$h"
assert_eq "$rc" 0 "exit status"
grep -q '^# osn timerlat histogram$' "$h" || fail "no title"
grep -q '^# Time unit is microseconds (us)$' "$h" || fail "no unit"
grep -Eq '^# Duration: +0 00:00:0[0-9]$' "$h" || fail "no duration"
grep -Eq '^Index +IRQ-001 +Thr-001$' "$h" || fail "no column header"
# per column: sum of the bucket rows and over == count, count >= 20
awk '
	/^[0-9]+ / { for (i = 2; i <= NF; i++) s[i] += $i; next }
	/^over:/ { for (i = 2; i <= NF; i++) s[i] += $i; next }
	/^count:/ { for (i = 2; i <= NF; i++) { c[i] = $i; n = NF } }
	END {
		if (n != 3) { print "bad count row"; exit 1 }
		for (i = 2; i <= n; i++) {
			if (c[i] != s[i]) { print "column " i ": " s[i] " != " c[i]; exit 1 }
			if (c[i] < 20) { print "column " i ": count " c[i]; exit 1 }
		}
	}' "$h" || fail "histogram does not add up"
for r in min avg max; do
	grep -Eq "^$r: +[0-9.]+ +[0-9.]+ \$" "$h" || fail "no $r row"
done

"$OSN" timerlat hist -c 1 -p 10000 -d 1 --no-irq --no-summary >"$CLI_OUT/h2.txt" 2>&1
rc=$?
cat "$CLI_OUT/h2.txt"
assert_eq "$rc" 0 "exit status (--no-irq)"
grep -Eq '^Index +Thr-001$' "$CLI_OUT/h2.txt" || fail "--no-irq: columns"
grep -q '^count:' "$CLI_OUT/h2.txt" && fail "--no-summary: a count row"
assert_eq "$(cat "$OSN_PARAMS/mode")" osnoise "mode after"
exit 0
