#!/bin/sh
# timeout: 120
# NMIs sent to CPU 1 (sysrq-l: the all-CPU backtrace NMI) while osn
# measures it are reported as nmi_noise and counted in the samples.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
command -v taskset >/dev/null || skip "no taskset"
[ -w /proc/sysrq-trigger ] || skip "no /proc/sysrq-trigger"
eng_setup cpus=1 period_us=100000 runtime_us=100000 threshold_us=20
i=$(eng_instance osn_nmi nmi_noise sample)
old=$(cat /proc/sys/kernel/sysrq)
on_exit "echo $old >/proc/sys/kernel/sysrq"
echo 1 >/proc/sys/kernel/sysrq
echo 1 >"$i/tracing_on"
eng_wait_threads 1
sleep 0.3
N=5
n=0
while [ $n -lt $N ]; do
	# From CPU 0: on CPU 1 the backtrace would be taken without an NMI.
	taskset -c 0 sh -c 'echo l >/proc/sysrq-trigger' ||
		fail "sysrq-l from CPU 0"
	sleep 0.3
	n=$((n + 1))
done
sleep 0.3
echo 0 >"$i/tracing_on"
echo 0 >"$i/events/osn/enable"
eng_wait_threads 0
nmis=$(grep ' nmi_noise: ' "$i/trace" | grep -c '\[001\]')
grep ' nmi_noise: ' "$i/trace" | head -n 2 | while IFS= read -r l; do info "$l"; done
eng_lines "$i" sample >/tmp/eng_sa
cnt=$(eng_sum_field /tmp/eng_sa NMI)
info "nmi_noise events on CPU 1: $nmis, sample NMI counts: $cnt"
[ "$nmis" -ge $((N - 1)) ] || fail "only $nmis nmi_noise events for $N NMIs"
[ "$cnt" -ge "$nmis" ] || fail "samples count $cnt NMIs, events $nmis"
exit 0
