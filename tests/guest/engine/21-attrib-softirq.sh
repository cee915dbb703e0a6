#!/bin/sh
# timeout: 120
# Injected softirq stalls (soft hrtimer) on CPU 1 are reported as
# softirq_noise HRTIMER; on PREEMPT_RT, where softirqs are threads, as
# thread_noise of the thread that ran the timer (ktimers/1, ksoftirqd/1).
# Ground truth: the expiry of the injector's timer (timer:hrtimer_expire_entry).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
gt='hrtimer_expire_entry: .*function=inj_timer_fn'
if is_rt; then
	eng_attrib softirq thread_noise 'thread_noise: +@COMM@:' "thread_time irq_time" 75 \
		timer/hrtimer_expire_entry "$gt"
else
	eng_attrib softirq softirq_noise 'softirq_noise: +HRTIMER:8 ' "softirq_time irq_time" 75 \
		timer/hrtimer_expire_entry "$gt"
fi
