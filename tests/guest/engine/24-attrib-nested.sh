#!/bin/sh
# timeout: 150
# Nested noise is subtracted: injected 600 us stalls (SCHED_FIFO thread;
# on non-RT kernels also a softirq), during each of which a hard IRQ of
# 250 us runs (the injector's self-IPI, on the irq_work vector), are
# reported with the nested IRQ as an irq_noise irq_work inside each
# thread_noise (softirq_noise), and the nested time is not in them.
# Ground truth, independent of osn's probes: the kernel's own event that
# closes each run (sched_switch from osn_inject/1; softirq_exit of HRTIMER)
# gives its wall time from osn's start; osn's duration must be
# at most that wall time minus 80% of the irq_work inside it (+ 50 us).
# Without the subtraction it is the whole wall time.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
inject_load
eng_setup cpus=1 period_us=100000 runtime_us=100000 threshold_us=20
# arm64: the self-IPI is the IRQ "IPI", seen by irq_handler_entry.
W=$(irq_name irq_work)
[ "$W" != irq_work ] || [ -d "$(tfs events/irq_vectors/irq_work_entry)" ] ||
	fail "no irq_vectors:irq_work tracepoint (engine/12 lists what this kernel lacks)"

N=30 DUR=600 NEST=250
# nested CTX EVENT_ERE EVENT GT_EVENT CLOSE_ERE: inject, then check the
# EVENTs matching EVENT_ERE against the GT_EVENT lines (kernel events)
# matching CLOSE_ERE.
nested() {
	ctx=$1 evre=$2 gt=$4 close=$5
	eng_instance "osn_nest_$ctx" sample_threshold irq_noise "$3"
	for g in $gt; do
		echo 1 >"$ENG_I/events/$g/enable" || fail "enable $g"
	done
	echo 1 >"$ENG_I/tracing_on"
	eng_wait_threads 1
	sleep 0.3
	echo "ctx=$ctx cpu=1 count=$N duration_us=$DUR interval_us=5000 nest_us=$NEST" \
		>"$INJ/inject" || fail "injector rejected nest_us"
	inject_wait 60
	st=$(inject_status)
	info "$st"
	sleep 0.3
	echo 0 >"$ENG_I/tracing_on"
	echo 0 >"$ENG_I/events/osn/enable"
	for g in $gt; do echo 0 >"$ENG_I/events/$g/enable"; done
	eng_wait_threads 0
	assert_eq "$(inject_status done)" $N "$ctx: injections done"
	assert_eq "$(echo "$st" | sed -n 's/.* nested=\([0-9]*\).*/\1/p')" $N "$ctx: nested IRQs run"
	ere=$(echo "$evre" | sed "s|@COMM@|$(inject_status comm)|g")
	grep '\[001\]' "$ENG_I/trace" >/tmp/eng_nest
	# Per EVENT with an irq_work >= NEST inside: its wall time from the
	# kernel's close event, the irq_work time inside, osn's duration.
	set -- $(awk -v evre="$ere" -v cl="$close" -v nest=$((NEST * 1000)) -v w=" irq_noise: $W:" "$ENG_AWK_FUNCS"'
		$0 ~ evre { sd(); if (d >= 0) { n++; S[n] = s; D[n] = d }; next }
		index($0, w) { sd(); if (s >= 0) { ni++; IS[ni] = s; ID[ni] = d }; next }
		$0 ~ cl { nc++; C[nc] = ts() }
		END {
			for (j = 1; j <= n; j++) {
				# the first close at or after the start (us timestamps)
				e = -1
				for (k = 1; k <= nc; k++)
					if (C[k] >= S[j] - 0.000002) { e = C[k]; break }
				if (e < 0) continue
				w = 0
				for (k = 1; k <= ni; k++)
					if (IS[k] >= S[j] && IS[k] <= e) w += ID[k]
				if (w < nest) continue
				m++
				wall = (e - S[j]) * 1e9
				if (D[j] <= wall - 0.8 * w + 50000) ok++
				else if (bad < 3) { bad++; printf "# not subtracted: duration %d ns, wall %.0f ns, irq_work %d ns\n", D[j], wall, w > "/dev/stderr" }
			}
			print m + 0, ok + 0
		}' /tmp/eng_nest)
	info "$ctx: $1 events with a nested irq_work >= ${NEST}us; $2 of them shorter than their wall time by the irq_work"
	assert_ge "$1" $((N * 9 / 10)) "$ctx: events with the nested IRQ inside"
	assert_ge "$2" $((N * 9 / 10)) "$ctx: events with the nested IRQ's time subtracted"
	rm_instance "osn_nest_$ctx"
}
nested thread 'thread_noise: +osn_inject/1:' thread_noise sched/sched_switch \
	'sched_switch: prev_comm=osn_inject/1 '
if ! is_rt; then
	nested softirq 'softirq_noise: +HRTIMER:8 ' softirq_noise irq/softirq_exit \
		'softirq_exit: vec=8 '
fi
exit 0
