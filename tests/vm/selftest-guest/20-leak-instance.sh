#!/bin/sh
# Bench self-test (expected: FAIL, "left the guest dirty: instance leaky").
. "$OSN_TESTS/guest/lib.sh"
mkdir "$(tfs instances/leaky)"
exit 0
