#!/bin/sh
# Bench self-test (expected: PASS): the runner cleaned up after 10 and 20.
. "$OSN_TESTS/guest/lib.sh"
mod_loaded osn_inject && fail "osn_inject still loaded"
[ -d "$(tfs instances/leaky)" ] && fail "instance leaky still there"
exit 0
