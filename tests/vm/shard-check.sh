#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# shard-check.sh - the sharded matrix of make check (shard_plan in
# tests/vm/common.sh, tests/README.md), as host tests:
#   - plan/partition: on a day, each sharded test goes to exactly one kernel
#     of the matrix other than OSN_SHARD_MAIN;
#   - plan/balance: the kernels' shares differ by one test at most;
#   - plan/cover: in nine days in a row, each sharded test has been on each
#     of the nine other kernels;
#   - plan/moves: two days in a row give every test another kernel;
#   - plan/twins: twin kernels (OSN_TWINS) compute the same plan, dealing
#     every test neither sharded nor "matrix: every" to one of the two,
#     alternately, and to the other one the next day;
#   - header/kernel-side: no test of the areas that check the kernel's side
#     (engine/, timerlat/, injector/, vm/) is sharded;
#   - guest/skip: guest-init.sh's selected() leaves out what OSN_SKIP
#     names, and only that.
# Ends with "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/common.sh"
. "$OSN_ROOT/tests/result.sh"

day=$(shard_day)
others=$(for k in $OSN_ALL_KERNELS; do [ "$k" = "$OSN_SHARD_MAIN" ] || echo "$k"; done)
nothers=$(echo "$others" | wc -l)
sharded=$(cd "$OSN_ROOT/tests" && for t in guest/*/[0-9]*.sh; do
	is_sharded "$t" && echo "$t"; done)
nsharded=$(echo "$sharded" | grep -c .)
plan=$(shard_plan "$day")

why=ok
[ "$nsharded" -gt 0 ] || why="no test has the '# matrix: shard' header"
[ "$(echo "$plan" | awk '{ print $1 }')" = "$sharded" ] ||
	why="the plan's tests are not the sharded tests, once each"
bad=$(echo "$plan" | awk '{ print $2 }' | sort -u | grep -vxF "$others")
[ -z "$bad" ] || why="tests given to kernels outside the others: $bad"
result plan/partition "$why"

why=ok
counts=$(echo "$plan" | awk '{ print $2 }' | sort | uniq -c | awk '{ print $1 }' | sort -n)
lo=$(echo "$counts" | head -n 1) hi=$(echo "$counts" | tail -n 1)
[ "$nsharded" -lt "$nothers" ] || [ "$(echo "$counts" | wc -l)" = "$nothers" ] ||
	why="only $(echo "$counts" | wc -l) of $nothers kernels get tests"
[ $((hi - lo)) -le 1 ] || why="shares from $lo to $hi tests"
result plan/balance "$why"

why=ok
cover=$(for d in $(seq "$day" $((day + nothers - 1))); do shard_plan "$d"; done |
	sort -u | awk '{ n[$1]++ } END { for (t in n) print t, n[t] }')
short=$(echo "$cover" | awk -v n="$nothers" '$2 != n { print $1 }')
[ -z "$short" ] || why="not on every kernel in $nothers days: $short"
[ "$(echo "$cover" | grep -c .)" = "$nsharded" ] || why="the plans of $nothers days miss tests"
result plan/cover "$why"

why=ok
same=$(join <(echo "$plan" | sort) <(shard_plan $((day + 1)) | sort) |
	awk '$2 == $3 { print $1 }')
[ -z "$same" ] || why="on the same kernel two days in a row: $same"
result plan/moves "$why"

why=ok
side=$(echo "$sharded" | grep -E '^guest/(engine|timerlat|injector|vm)/')
[ -z "$side" ] || why="kernel-side tests sharded: $side"
result header/kernel-side "$why"

# The twins: both compute the same plan, which deals every test neither
# sharded nor "# matrix: every" to one of the two, and the other one the
# next day.
why=ok
for pair in $OSN_TWINS; do
	a=${pair%%:*} b=${pair#*:}
	[ "$(twin_of "$a")" = "$b" ] && [ "$(twin_of "$b")" = "$a" ] ||
		{ why="$a and $b are not each other's twin"; break; }
	pa=$(twin_plan "$day" "$a")
	[ "$pa" = "$(twin_plan "$day" "$b")" ] || { why="$a and $b disagree on the plan"; break; }
	split=$(cd "$OSN_ROOT/tests" && for t in guest/*/[0-9]*.sh; do
		case $(matrix_tag "$t") in shard|every) ;; *) echo "$t" ;; esac; done)
	[ "$(echo "$pa" | awk '{ print $1 }')" = "$split" ] ||
		{ why="$a's plan is not the unsharded tests, once each"; break; }
	bad=$(echo "$pa" | awk -v a="$a" -v b="$b" '$2 != a && $2 != b')
	[ -z "$bad" ] || { why="tests dealt outside $a and $b: $bad"; break; }
	n=$(echo "$pa" | awk -v a="$a" '$2 == a' | wc -l)
	[ $((2 * n - $(echo "$pa" | wc -l))) -ge -1 ] && [ $((2 * n - $(echo "$pa" | wc -l))) -le 1 ] ||
		{ why="$a gets $n of $(echo "$pa" | wc -l) tests"; break; }
	same=$(join <(echo "$pa" | sort) <(twin_plan $((day + 1)) "$a" | sort) |
		awk '$2 == $3 { print $1 }')
	[ -z "$same" ] || { why="on the same twin two days in a row: $same"; break; }
done
[ -n "$(twin_of "$OSN_SHARD_MAIN")" ] && why="the main kernel has a twin"
result plan/twins "$why"

why=ok
# The guest's selected(), as guest-init.sh defines it.
eval "$(sed -n '/^selected() {/,/^}/p' "$OSN_ROOT/tests/vm/guest-init.sh")"
# shellcheck disable=SC2034
OSN_FILTER='' OSN_SKIP=' guest/cli/10-errors.sh guest/cli/60-json.sh'
selected guest/cli/10-errors.sh && why="a test in OSN_SKIP is selected"
selected guest/cli/60-json.sh && why="the last test in OSN_SKIP is selected"
selected guest/cli/10-errors || why="a prefix of an OSN_SKIP entry is left out"
selected guest/cli/20-top-irq.sh || why="a test not in OSN_SKIP is left out"
# shellcheck disable=SC2034
OSN_FILTER=engine/
selected guest/engine/10-load-enable-disable.sh || why="OSN_FILTER no longer selects"
selected guest/cli/20-top-irq.sh && why="OSN_FILTER no longer filters"
result guest/skip "$why"

result_end
