#!/bin/sh
# timeout: 240
# matrix: shard
# Memory pressure while osn measures CPU 1: stress-ng --vm holds 60% of the
# available memory and churns another 15% (page cache dropped, reclaim) while
# REL_MEM_INJ (default 40) x 200 us stalls are injected on CPU 1 in hard
# IRQ context, then as many in softirq context.  osn must keep its thread
# and its samples, and still explain >= 95% of the injections: each one
# (timestamped by a filtered hrtimer_expire_entry event) must lie inside an
# irq_noise event of >= 200 us, resp. a softirq_noise HRTIMER event or, on
# PREEMPT_RT where softirqs run in threads, a thread_noise event of the
# thread that ran it (ktimers/1 or ksoftirqd/1).
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
# Only noise events of >= 200 us, the periods and the injections' timer.
for ev in irq_noise softirq_noise thread_noise; do
	echo 'duration >= 200000' >"$I/events/osn/$ev/filter" || fail "$ev filter"
	event_enable "$I" osn/$ev
done
rel_truth_enable "$I"
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
stress-ng --vm 1 --vm-bytes "${hold}k" --vm-hang 0 --timeout 900s \
	--oomable >/tmp/rel-stress.log 2>&1 &
holder=$!
on_exit "kill $holder"
# Faulting the memory in is slow under TCG: wait until it is taken.
low() {
	rel_meminfo
	[ "$REL_MEMAVAIL" -lt $((avail0 * 50 / 100)) ]
}
rel_wait_s 90 low || info "MemAvailable only down to $REL_MEMAVAIL kB after 90 s"
taskset 3 stress-ng --vm 1 --vm-bytes "${churn}k" --timeout 900s \
	--oomable >>/tmp/rel-stress.log 2>&1 &
stress=$!
on_exit "kill $stress"
sleep 2
rel_meminfo
info "[$(rel_elapsed)s] MemAvailable $REL_MEMAVAIL kB: injecting"
NINJ=${REL_MEM_INJ:-40}
minavail=$avail0
# phase CTX: NINJ x 200 us in CTX on CPU 1, 50 ms apart, under pressure.
phase() {
	echo "rel-phase-$1" >"$I/trace_marker"
	inject_start "$1" $REL_CPU $NINJ 200 50000
	while ! inject_idle; do
		rel_meminfo
		[ "$REL_MEMAVAIL" -lt "$minavail" ] && minavail=$REL_MEMAVAIL
		sleep 0.5
	done
	info "$(inject_status)"
	assert_eq "$(inject_status done)" "$NINJ" "$1 injections done"
}
phase irq
phase softirq
# Softirqs are threads on PREEMPT_RT: the injector says which task ran them.
SOFT_COMM=$(inject_status comm)
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
on_exit rm -f /tmp/rel-mem-irq /tmp/rel-mem-softirq
awk '/ tracing_mark_write: rel-phase-softirq/ { soft = 1 }
     { print > (soft ? "/tmp/rel-mem-softirq" : "/tmp/rel-mem-irq") }' "$I/trace"

rel_attrib /tmp/rel-mem-irq $REL_CPU 200000 irq_noise "$(irq_name local_timer):"
info "irq: injections seen: $REL_SEEN of $NINJ, inside an irq_noise >= 200 us: $REL_MATCHED" \
	"(irq_noise >= 200 us: $(grep -c ' irq_noise: ' /tmp/rel-mem-irq))"
assert_eq "$REL_SEEN" "$NINJ" "irq injections seen in the trace"
[ $((REL_MATCHED * 100)) -ge $((NINJ * 95)) ] ||
	fail "only $REL_MATCHED of $NINJ hard-IRQ injections explained by osn under memory pressure"
IRQ_M=$REL_MATCHED

if is_rt; then
	# The soft hrtimer runs in a thread: thread_noise of that thread.
	[ "$SOFT_COMM" != - ] || fail "PREEMPT_RT, but the softirq injections ran in no task"
	rel_attrib /tmp/rel-mem-softirq $REL_CPU 200000 thread_noise "$SOFT_COMM:"
	SOFT_EV="thread_noise $SOFT_COMM"
else
	rel_attrib /tmp/rel-mem-softirq $REL_CPU 200000 softirq_noise HRTIMER:
	SOFT_EV="softirq_noise HRTIMER"
fi
info "softirq: injections seen: $REL_SEEN of $NINJ, inside a $SOFT_EV >= 200 us: $REL_MATCHED" \
	"(softirq_noise/thread_noise >= 200 us: $(grep -Ec ' (softirq|thread)_noise: ' /tmp/rel-mem-softirq))"
assert_eq "$REL_SEEN" "$NINJ" "softirq injections seen in the trace"
[ $((REL_MATCHED * 100)) -ge $((NINJ * 95)) ] ||
	fail "only $REL_MATCHED of $NINJ softirq injections explained as $SOFT_EV under memory pressure"
SOFT_M=$REL_MATCHED
info "MemAvailable min ${minavail} kB of ${avail0} kB"
oom=$(dmesg | grep -c 'Killed process')
rm_instance rel_mem
rel_module_works
rm -f /tmp/rel-stress.log
figures "memory pressure: MemAvailable down to ${minavail} of ${avail0} kB, $oom OOM kills;" \
	"explained: hard IRQ $IRQ_M/$NINJ as irq_noise, softirq $SOFT_M/$NINJ as $SOFT_EV; thread kept"
exit 0
