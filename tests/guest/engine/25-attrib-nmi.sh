#!/bin/sh
# timeout: 120
# NMIs injected on CPU 1 while osn measures it are reported as nmi_noise
# of >= the injected duration and in the samples' nmi_count/nmi_time,
# bounded from both sides by the injector's done and stolen_ns (plus the
# background of a quiet window: a TCG guest has no NMI source of its own).
# Ground truth: the injector's "nmi" context (an NMI IPI from CPU 0 whose
# NMI_LOCAL handler busy-waits a known time; done counts the handler runs,
# lost the NMIs that never arrived), the simplest source with a known
# count: QEMU's monitor "nmi" command would need the host, and sysrq-l
# prints backtraces that the bench counts as kernel problems.  The
# injector registers its handler after osn's: the probe on
# nmi:nmi_handler still adds its time to the NMI's duration.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
eng_attrib nmi nmi_noise 'nmi_noise:' nmi_time 100 - -
assert_eq "$(inject_status lost)" 0 "NMIs that never arrived"
exit 0
