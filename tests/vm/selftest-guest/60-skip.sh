#!/bin/sh
# Bench self-test (expected: SKIP with reason "not here").
. "$OSN_TESTS/guest/lib.sh"
skip "not here"
