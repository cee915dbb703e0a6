#!/bin/sh
# timeout: 400
# osn timerlat -T's analysis names the hard-IRQ callback that held the
# timer's interrupt: 4 injected 350 ms stalls in the injector's hard
# hrtimer callback on CPU 1, each stop naming it (local_timer under "IRQ
# interference", <- hrtimer inj_timer_fn) with a thread latency of at
# least the stall less a period (see tl_culprit_test in timerlat.sh).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
tl_culprit_test irq "" "IRQ interference" "$(irq_name local_timer):" "<- hrtimer inj_timer_fn,"
exit 0
