#!/bin/sh
# timeout: 120
# stop_tracing_us below injected hard-IRQ stalls stops tracing on the
# IRQ latency (osn:stop "single"), freezing the top-level buffer right
# after the IRQ sample; see tl_stop_test.  The IRQ latency is the stall
# only when the timer expires inside it after the interrupt began: under
# TCG the interrupt comes a few ms late and runs every timer expired by
# then, so the period is long (100 ms) against that, the stall (500 ms,
# the injector's longest) longer than the stop plus a period, and 4
# stalls make a miss unlikely.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
tl_stop_test stop_tracing_us single 0 100000 500000 4
exit 0
