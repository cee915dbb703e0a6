#!/bin/sh
# timeout: 60
# Injected softirq stalls (soft hrtimer) on CPU 1 are reported as
# softirq_noise HRTIMER; on PREEMPT_RT, where softirqs are threads, as
# thread_noise of the thread that ran the timer (ktimers/1, ksoftirqd/1).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
if is_rt; then
	eng_attrib softirq thread_noise 'thread_noise: +@COMM@:' "thread_time irq_time" 75
else
	eng_attrib softirq softirq_noise 'softirq_noise: +HRTIMER:8 ' "softirq_time irq_time" 75
fi
