#!/bin/sh
# timeout: 120
# Injected IPI stalls (smp_call_function_single from CPU 0) on CPU 1 are
# reported as irq_noise call_function_single.
# Ground truth: irq_vectors:call_function_single_entry on CPU 1.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
[ -d "$(tfs events/irq_vectors/call_function_single_entry)" ] ||
	skip "no irq_vectors:call_function_single tracepoint"
eng_attrib ipi irq_noise 'irq_noise: call_function_single:' irq_time 100 \
	irq_vectors/call_function_single_entry 'call_function_single_entry: '
