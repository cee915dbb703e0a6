#!/bin/sh
# timeout: 120
# NMIs injected on CPU 1 while osn measures it are reported as nmi_noise
# and counted in the samples' nmi_count/nmi_time.  Needs an injector with
# an "nmi" context (an NMI IPI whose NMI_LOCAL handler busy-waits); the
# only other NMI source of a TCG guest, sysrq-l, prints backtraces that
# the bench counts as kernel problems.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
inject_load
eng_setup cpus=1 period_us=100000 runtime_us=100000 threshold_us=20
eng_instance osn_nmi nmi_noise sample
i=$ENG_I
echo 1 >"$i/tracing_on"
eng_wait_threads 1
sleep 0.3
N=20
DUR=50
echo "ctx=nmi cpu=1 count=$N duration_us=$DUR interval_us=5000" >"$INJ/inject" 2>/dev/null ||
	skip "the injector has no nmi context"
inject_wait 60
info "$(inject_status)"
sleep 0.3
echo 0 >"$i/tracing_on"
echo 0 >"$i/events/osn/enable"
eng_wait_threads 0
grep ' nmi_noise: ' "$i/trace" | grep '\[001\]' >/tmp/eng_nmi
nmis=$(grep -c . /tmp/eng_nmi)
long=$(eng_duration_ge /tmp/eng_nmi $((DUR * 1000)))
eng_lines "$i" sample >/tmp/eng_sa
cnt=$(eng_sum_field /tmp/eng_sa NMI)
info "nmi_noise on CPU 1: $nmis ($long >= ${DUR}us), sample NMI count: $cnt"
[ $((nmis * 100)) -ge $((N * 95)) ] || fail "only $nmis nmi_noise events for $N NMIs"
[ "$cnt" -ge "$nmis" ] || fail "samples count $cnt NMIs, events $nmis"
# The same durations, summed, are the samples' nmi_time.
dsum=$(sed -n 's/.* duration \([0-9]*\) ns.*/\1/p' /tmp/eng_nmi |
	awk '{ s += $1 } END { printf "%.0f\n", s }')
nt=$(eng_sum_field /tmp/eng_sa nmi_time)
info "nmi_noise time $dsum ns, samples' nmi_time $nt ns"
[ $((nt * 100)) -ge $((dsum * 95)) ] ||
	fail "samples' nmi_time $nt ns < 95% of the nmi_noise time $dsum ns"
# The injector registers its handler after osn's: the probe on
# nmi:nmi_handler still adds its time to the NMI's duration.
[ $((long * 100)) -ge $((N * 95)) ] || fail "only $long nmi_noise >= ${DUR}us"
exit 0
