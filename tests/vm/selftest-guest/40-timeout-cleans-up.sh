#!/bin/sh
# timeout: 5
# Bench self-test (expected: FAIL by timeout): on_exit handlers run when the
# runner kills a test at its limit, the injector run is stopped.
. "$OSN_TESTS/guest/lib.sh"
inject_load
inject_start thread 1 100000 100 1000
sleep 100
