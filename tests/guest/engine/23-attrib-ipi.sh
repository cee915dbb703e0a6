#!/bin/sh
# timeout: 120
# Injected IPI stalls (smp_call_function_single from CPU 0) on CPU 1 are
# reported as irq_noise call_function_single (or call_function: the kernel
# runs every queued cross-CPU call from whichever of the two vectors comes
# first).
# Ground truth: csd:csd_function_entry of the injector's function where the
# kernel has it (6.2+).  Without it (5.10, 6.1), the kernel's own events of
# the two call-function vectors, recorded in the trace independently of
# osn's probes: they also carry remote wake-ups, but those are short, so
# only the injections fall inside a long irq_noise.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
# arm64 (kernel/osn_arch.h): every IPI is the IRQ "IPI"; without csd
# (6.1) the ground truth is ipi:ipi_entry of the function-call IPI.
if [ "$(uname -m)" = aarch64 ]; then
	ere="irq_noise: $(irq_name call_function):"
	gt=ipi/ipi_entry gtere='ipi_entry: [(]Function call interrupts[)]'
else
	[ -d "$(tfs events/irq_vectors/call_function_single_entry)" ] ||
		skip "no irq_vectors:call_function_single tracepoint"
	ere='irq_noise: call_function(_single)?:'
	gt="irq_vectors/call_function_single_entry irq_vectors/call_function_entry"
	gtere='call_function(_single)?_entry: vector='
fi
if [ -d "$(tfs events/csd/csd_function_entry)" ]; then
	eng_attrib ipi irq_noise "$ere" irq_time 100 \
		csd/csd_function_entry 'csd_function_entry: func=inj_busy_ipi'
else
	eng_attrib ipi irq_noise "$ere" irq_time 100 "$gt" "$gtere"
fi
