#!/bin/sh
# Bench self-test (expected: PASS): lib.sh removes instances made in $(...).
. "$OSN_TESTS/guest/lib.sh"
i=$(new_instance fromsubshell)
[ -d "$i" ] || fail "no instance $i"
echo 1 >"$i/events/sched/sched_switch/enable"
exit 0
