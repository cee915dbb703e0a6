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
# arm64 (no NMI a module can measure or send): the degradation instead.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
if [ "$(uname -m)" = aarch64 ]; then
	# The degradation (kernel/osn_arch.h): arm64's pseudo-NMIs are not
	# measured, so osn says "nmi" is unmeasured and reports no NMI at
	# all rather than a wrong number, and the injector has no NMI to
	# send (no handler chain a module can join).
	eng_setup cpus=1 period_us=100000 runtime_us=50000
	assert_eq "$(cut -d, -f1 /sys/module/osn/parameters/unmeasured)" nmi \
		"the first class osn cannot measure on arm64"
	inject_load
	expect_fail sh -c "echo 'ctx=nmi cpu=1 count=1 duration_us=100' >$INJ/inject"
	eng_instance osn_nmi nmi_noise sample
	echo 1 >"$ENG_I/tracing_on"
	eng_wait_threads 1
	sleep 2
	echo 0 >"$ENG_I/tracing_on"
	echo 0 >"$ENG_I/events/osn/enable"
	eng_wait_threads 0
	n=$(grep -c ' sample: ' "$ENG_I/trace")
	info "$n samples"
	assert_ge "$n" 1 "samples in 2 s"
	assert_eq "$(grep -c 'nmi_noise:' "$ENG_I/trace")" 0 "nmi_noise events on arm64"
	assert_eq "$(grep ' sample: ' "$ENG_I/trace" | grep -cv ' NMI 0 ')" 0 \
		"samples with an NMI count on arm64"
	exit 0
fi
eng_attrib nmi nmi_noise 'nmi_noise:' nmi_time 100 - -
assert_eq "$(inject_status lost)" 0 "NMIs that never arrived"
exit 0
