#!/bin/sh
# timeout: 120
# Injected SCHED_FIFO kthread stalls on CPU 1 are reported as thread_noise
# of osn_inject/1 with >= the injected duration, and in thread_time.
# Ground truth: the switches to osn_inject/1 (sched:sched_switch).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
eng_attrib thread thread_noise 'thread_noise: +osn_inject/1:' "thread_time irq_time" 75 \
	sched/sched_switch 'sched_switch: .*==> next_comm=osn_inject/1 '
