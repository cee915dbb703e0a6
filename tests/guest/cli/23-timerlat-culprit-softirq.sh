#!/bin/sh
# timeout: 400
# matrix: shard
# osn timerlat -T's analysis names the softirq callback that delayed
# timerlat's thread: 4 injected 350 ms stalls of the injector's soft
# hrtimer callback on CPU 1, which runs in the HRTIMER softirq at the
# exit of an interrupt, before the woken thread; each stop names it
# (HRTIMER:8 under "Softirq interference", <- hrtimer inj_timer_fn).  On
# PREEMPT_RT the softirq runs in a thread below timerlat's FIFO 95, which
# preempts it: no stop may name it there (see tl_culprit_test in
# timerlat.sh).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
is_rt && TLC_DELAYS=0
tl_culprit_test softirq "" "Softirq interference" "HRTIMER:8" \
	"<- hrtimer inj_timer_fn,"
exit 0
