#!/bin/sh
# timeout: 400
# matrix: shard
# osn timerlat -T's analysis names the thread above timerlat's FIFO 95
# that delayed it, and who woke that thread from where: 4 injected
# 350 ms stalls of the injector's osn_inj_wake/1 at FIFO 96, woken by its
# sender on CPU 0, each stop naming it with that waker, as the blocking
# thread (running at the expiry) or as thread interference (woken
# between the expiry and timerlat's thread) (see tl_culprit_test in
# timerlat.sh).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
tl_culprit_test wakeup "prio=96" "Blocking thread|Thread interference" \
	"@PID@" "<- wakeup, woken by @SRC@ on CPU @SRC_CPU@ "
exit 0
