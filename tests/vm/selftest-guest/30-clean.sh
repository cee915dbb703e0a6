#!/bin/sh
# Bench self-test (expected: PASS): nothing of 10, 20, 25 is left.
. "$OSN_TESTS/guest/lib.sh"
mod_loaded osn_inject && fail "osn_inject still loaded"
[ -d "$(tfs instances/leaky)" ] && fail "instance leaky still there"
[ -d "$(tfs instances/fromsubshell)" ] && fail "instance fromsubshell still there"
exit 0
