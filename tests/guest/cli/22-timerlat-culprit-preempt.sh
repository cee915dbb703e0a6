#!/bin/sh
# timeout: 400
# matrix: shard
# osn timerlat -T's analysis names the thread that held preemption off,
# and who woke it from where: 4 injected 350 ms stalls of the injector's
# osn_inj_wake/1 (FIFO 50, under timerlat's 95) busy-waiting with
# preemption off, woken by its sender on CPU 0, each stop naming it with
# that waker, as the blocking thread (running at the expiry) or as
# thread interference (switched in before a late timer interrupt) (see
# tl_culprit_test in timerlat.sh).  With -s, each stop whose blocking
# thread is the injector's has its kthread function, inj_sleeper_fn, in
# the stack the timer's interrupt saved.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
TLC_STACK=inj_sleeper_fn
tl_culprit_test preempt "" "Blocking thread|Thread interference" \
	"@PID@" "<- wakeup, woken by @SRC@ on CPU @SRC_CPU@ "
exit 0
