#!/bin/sh
# Bench self-test (expected: PASS): nothing of 40 is left.
. "$OSN_TESTS/guest/lib.sh"
mod_loaded osn_inject && fail "osn_inject still loaded"
grep -qs '^osn_inject' /proc/[0-9]*/comm && fail "injector thread left"
exit 0
