#!/bin/sh
# timeout: 120
# stop_tracing_total_us below an injected hard-IRQ stall stops tracing on
# the thread latency (osn:stop "total"), freezing the top-level buffer
# right after the thread sample; see tl_stop_test.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
tl_stop_test stop_tracing_total_us total 1 1000 400000 2
exit 0
