#!/bin/sh
# timeout: 300
# matrix: shard
# boot: smp8 vm.smp=8
# The module with every CPU but 0 measured at once, on 8 vCPUs (issue
# 35; the boot is cli/32's):
#  A. start and stop: enabling osn/sample starts exactly osn/1..osn/7,
#     disabling it stops them all; each way timed (figures);
#  B. mass hotplug: CPUs 1-7 taken offline all at once (seven writes in
#     parallel), then brought back all at once, 3 rounds: no thread is
#     left for an offline CPU, each comes back exactly once, and samples
#     come from each CPU again;
#  C. many senders: the cause table of CPU 1 written from six CPUs at
#     once: a busybox `yes` pinned on each of CPUs 2-7 writes a pipe read
#     by a `cat` on CPU 1, so every write may wake that cat from its
#     writer's CPU.  The wake-up causes of CPU 1 must name writers (>= 3
#     distinct CPUs), and each names its writer's own CPU: a record torn
#     or mixed up under the contention would name another.  No lockdep
#     report, WARN or hung task (the harness's dmesg rules).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

require_cpus 8
CPUS="osn/1 osn/2 osn/3 osn/4 osn/5 osn/6 osn/7"
rel_setup
on_exit 'for c in 1 2 3 4 5 6 7; do echo 1 >/sys/devices/system/cpu/cpu$c/online; done'
rel_knobs_measure 1-7

# ms: milliseconds of uptime
ms() {
	read -r _ms_t _ </proc/uptime
	_ms_i=${_ms_t%.*}
	_ms_f=${_ms_t#*.}
	echo $((_ms_i * 1000 + ${_ms_f#0} * 10))
}

# A: start and stop
t0=$(ms)
rel_instance rel_many 512 sample
I=$REL_INST
rel_wait_threads "$CPUS" 60
start_ms=$(($(ms) - t0))
for c in 1 2 3 4 5 6 7; do
	rel_flowing "$I" 2 30 $c || fail "no sample events from cpu$c"
done
t0=$(ms)
echo 0 >"$I/events/osn/enable"
rel_wait_no_threads 60
stop_ms=$(($(ms) - t0))
info "A: 7 threads started in $start_ms ms, stopped in $stop_ms ms"

# B: mass hotplug
echo 1 >"$I/events/osn/sample/enable"
rel_wait_threads "$CPUS" 60
for round in 1 2 3; do
	for c in 1 2 3 4 5 6 7; do
		echo 0 >/sys/devices/system/cpu/cpu$c/online &
	done
	wait
	for c in 1 2 3 4 5 6 7; do
		read -r on </sys/devices/system/cpu/cpu$c/online
		assert_eq "$on" 0 "round $round: cpu$c offline"
	done
	rel_wait_threads "" 60
	for c in 1 2 3 4 5 6 7; do
		echo 1 >/sys/devices/system/cpu/cpu$c/online &
	done
	wait
	rel_wait_stable "$CPUS"
	for c in 1 2 3 4 5 6 7; do
		rel_flowing "$I" 2 30 $c ||
			fail "round $round: no sample events from cpu$c after it came back"
	done
	info "B: round $round: 7 CPUs offline and online at once"
done
echo 0 >"$I/events/osn/enable"
rel_wait_no_threads 60

# C: six senders to CPU 1's cause table
osn_knob cpus 1
rel_instance rel_senders 4096 thread_noise noise_cause
C=$REL_INST
rel_wait_threads osn/1
pids= writers=
for c in 2 3 4 5 6 7; do
	rm -f /tmp/many_$c
	mkfifo /tmp/many_$c || fail "mkfifo /tmp/many_$c"
	taskset -c 1 cat /tmp/many_$c >/dev/null &
	pids="$pids $!"
	taskset -c $c yes /tmp/many_$c >/tmp/many_$c &
	pids="$pids $!"
	writers="$writers yes:$!=$c"
done
on_exit "kill $pids; rm -f /tmp/many_[2-7]"
sleep 5
echo 0 >"$C/tracing_on"
kill $pids
wait 2>/dev/null
echo 0 >"$C/events/osn/enable"
rel_wait_no_threads 60

grep ' noise_cause: wakeup ' "$C/trace" | grep '\[001\]' >/tmp/many_causes
total=$(wc -l </tmp/many_causes)
# "origin_cpu N origin yes:PID": each yes's CPU is the one it was pinned to
awk -v want="$writers" '
	BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) { split(w[i], a, "="); cpu[a[1]] = a[2] } }
	{
		oc = ""; o = ""
		for (k = 1; k < NF; k++) {
			if ($k == "origin_cpu") oc = $(k + 1)
			if ($k == "origin") o = $(k + 1)
		}
		if (!(o in cpu)) next
		named++
		if (cpu[o] == oc) { ok++; seen[oc] = 1 } else { bad++; print "wrong: " $0 > "/dev/stderr" }
	}
	END { d = 0; for (c in seen) d++; printf "%d %d %d\n", named + 0, bad + 0, d }' \
	/tmp/many_causes >/tmp/many_sum
read -r named bad distinct </tmp/many_sum
info "C: $total wake-up causes on CPU 1, $named from the writers, $bad with a wrong CPU, $distinct sender CPUs"
assert_eq "$bad" 0 "wake-up causes naming a writer on another CPU than its own"
assert_ge "$distinct" 3 "sender CPUs named in CPU 1's wake-up causes"
figures "7 CPUs: start ${start_ms} ms, stop ${stop_ms} ms; 3 rounds of 7 CPUs" \
	"offline/online at once; $named wake-up causes from 6 senders ($distinct CPUs), 0 wrong"
exit 0
