#!/bin/sh
# timeout: 240
# Memory pressure while osn measures CPU 1: stress-ng --vm holds 60% of the
# available memory and churns another 15% (page cache dropped, reclaim) while
# REL_MEM_INJ (default 100) x 200 us hard-IRQ stalls are injected on CPU 1.  osn must keep its
# thread and its samples, and still explain >= 95% of the injections: each
# injection (timestamped by a filtered hrtimer_expire_entry event) must lie
# inside an irq_noise event of >= 200 us.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

require_cpus 2
require_bin stress-ng
inject_load
rel_setup
rel_knobs_measure
# Measure all the time (runtime = period): every injection hits a window.
osn_knob period_us 100000
osn_knob runtime_us 100000
osn_knob threshold_us 20
rel_instance rel_mem 1024
I=$REL_INST
# Only the injections' irq_noise events (>= 200 us) and the periods.
echo 'duration >= 200000' >"$I/events/osn/irq_noise/filter" || fail "irq_noise filter"
rel_truth_enable "$I"
event_enable "$I" osn/irq_noise
event_enable "$I" osn/sample
rel_wait_threads osn/1
rel_scan
T=$REL_THREADS
rel_assert_flowing "$I" "before the pressure"

rel_meminfo
avail0=$REL_MEMAVAIL
hold=$((REL_MEMAVAIL * 60 / 100))
churn=$((REL_MEMAVAIL * 15 / 100))
info "MemAvailable ${avail0} kB: one vm worker holds ${hold} kB, one churns ${churn} kB"
# The holder faults its memory in once and sleeps; the churner keeps
# allocating, dirtying and freeing on both CPUs, so reclaim never settles.
stress-ng --vm 1 --vm-bytes "${hold}k" --vm-hang 0 --timeout 300s \
	--oomable >/tmp/rel-stress.log 2>&1 &
holder=$!
on_exit "kill $holder"
# Faulting the memory in is slow under TCG: wait until it is taken.
low() {
	rel_meminfo
	[ "$REL_MEMAVAIL" -lt $((avail0 * 50 / 100)) ]
}
rel_wait_s 90 low || info "MemAvailable only down to $REL_MEMAVAIL kB after 90 s"
taskset 3 stress-ng --vm 1 --vm-bytes "${churn}k" --timeout 300s \
	--oomable >>/tmp/rel-stress.log 2>&1 &
stress=$!
on_exit "kill $stress"
sleep 2
rel_meminfo
info "[$(rel_elapsed)s] MemAvailable $REL_MEMAVAIL kB: injecting"
NINJ=${REL_MEM_INJ:-100}
inject_start irq $REL_CPU $NINJ 200 50000
minavail=$avail0
while ! inject_idle; do
	rel_meminfo
	[ "$REL_MEMAVAIL" -lt "$minavail" ] && minavail=$REL_MEMAVAIL
	sleep 0.5
done
done_n=$(inject_status done)
info "$(inject_status)"
rel_same_thread "$T" || fail "osn/1 ($T) did not survive the memory pressure"
rel_flowing "$I" 2 20 || fail "no sample events under memory pressure"
kill -TERM $stress $holder
wait $stress
src=$?
wait $holder
info "stress-ng exit $src: $(tail -n 2 /tmp/rel-stress.log | tr '\n' ' ')"
sleep 0.5
echo 0 >"$I/events/osn/enable"
echo 0 >"$I/events/timer/enable"
rel_wait_no_threads
cp "$I/trace" /tmp/rel-mem-trace
on_exit rm -f /tmp/rel-mem-trace
rel_attrib /tmp/rel-mem-trace $REL_CPU 200000
n=$REL_MATCHED
info "injections seen: $REL_SEEN of $done_n, inside an irq_noise >= 200 us: $n;" \
	"irq_noise >= 200 us: $(grep -c ' irq_noise: ' /tmp/rel-mem-trace);" \
	"MemAvailable min ${minavail} kB of ${avail0} kB"
assert_eq "$done_n" "$NINJ" "injections done"
assert_eq "$REL_SEEN" "$done_n" "injections seen in the trace"
[ $((n * 100)) -ge $((done_n * 95)) ] ||
	fail "only $n of $done_n injections explained by osn under memory pressure"
oom=$(dmesg | grep -c 'Killed process')
rm_instance rel_mem
rel_module_works
rm -f /tmp/rel-stress.log
figures "memory pressure: MemAvailable down to ${minavail} of ${avail0} kB, $oom OOM kills," \
	"$n/$done_n injections attributed, thread kept"
exit 0
