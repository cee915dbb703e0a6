#!/bin/sh
# timeout: 120
# Injected hard-IRQ stalls (hrtimer, local_timer vector) on CPU 1 are
# reported as irq_noise local_timer of >= the injected duration, as
# sample_threshold with interference, and in the samples' irq_time.
# Ground truth: the expiry of the injector's timer (timer:hrtimer_expire_entry).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
# arm64: the tick is the IRQ "arch_timer", seen by irq_handler_entry.
require_timer_irq
T=$(irq_name local_timer)
eng_attrib irq irq_noise "irq_noise: $T:" irq_time 100 \
	timer/hrtimer_expire_entry 'hrtimer_expire_entry: .*function=inj_timer_fn'
