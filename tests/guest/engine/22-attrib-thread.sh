#!/bin/sh
# timeout: 60
# Injected SCHED_FIFO kthread stalls on CPU 1 are reported as thread_noise
# of osn_inject/1 with >= the injected duration, and in thread_time.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
eng_attrib thread thread_noise 'thread_noise: +osn_inject/1:' "thread_time irq_time" 75
