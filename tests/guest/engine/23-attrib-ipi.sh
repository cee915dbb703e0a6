#!/bin/sh
# timeout: 120
# Injected IPI stalls (smp_call_function_single from CPU 0) on CPU 1 are
# reported as irq_noise call_function_single.
# Ground truth: csd:csd_function_entry of the injector's function where
# the kernel has it (6.2+), else every irq_vectors:call_function_single_entry
# on CPU 1 (which also counts the kernel's own IPIs).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
[ -d "$(tfs events/irq_vectors/call_function_single_entry)" ] ||
	skip "no irq_vectors:call_function_single tracepoint"
if [ -d "$(tfs events/csd/csd_function_entry)" ]; then
	eng_attrib ipi irq_noise 'irq_noise: call_function_single:' irq_time 100 \
		csd/csd_function_entry 'csd_function_entry: func=inj_busy_ipi'
else
	eng_attrib ipi irq_noise 'irq_noise: call_function_single:' irq_time 100 \
		irq_vectors/call_function_single_entry 'call_function_single_entry: '
fi
