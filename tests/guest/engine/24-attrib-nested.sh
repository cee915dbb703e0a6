#!/bin/sh
# timeout: 150
# Nested noise is subtracted: an injected 600 us stall (SCHED_FIFO thread;
# on non-RT kernels also a softirq) during which a hard IRQ of 250 us runs
# (the injector's self-IPI, on the irq_work vector) is reported as an
# irq_noise irq_work of >= 250 us inside a thread_noise (softirq_noise) of
# the interference-free length, 600 - 250 us, not 600 us.
# Ground truth: the injector's own count of nested IRQs and their time.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
inject_load
eng_setup cpus=1 period_us=100000 runtime_us=100000 threshold_us=20
[ -d "$(tfs events/irq_vectors/irq_work_entry)" ] ||
	fail "no irq_vectors:irq_work tracepoint (engine/12 lists what this kernel lacks)"

N=30 DUR=600 NEST=250
# nested CTX EVENT_ERE: inject, then check the EVENTs matching EVENT_ERE.
nested() {
	ctx=$1 evre=$2
	eng_instance "osn_nest_$ctx" sample_threshold irq_noise "$3"
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
	eng_wait_threads 0
	assert_eq "$(inject_status done)" $N "$ctx: injections done"
	assert_eq "$(echo "$st" | sed -n 's/.* nested=\([0-9]*\).*/\1/p')" $N "$ctx: nested IRQs run"
	ere=$(echo "$evre" | sed "s|@COMM@|$(inject_status comm)|g")
	grep '\[001\]' "$ENG_I/trace" >/tmp/eng_nest
	# For each EVENT of at least the nested IRQ's length: is an irq_work
	# irq_noise of >= NEST inside it, and is the EVENT's own duration
	# DUR - NEST (+ 150 us for the switch and TCG) rather than DUR?
	set -- $(awk -v evre="$ere" -v nest=$((NEST * 1000)) -v max=$(((DUR - NEST + 150) * 1000)) '
		function sd(k) {
			s = -1; d = -1
			for (k = 1; k < NF; k++) {
				if ($k == "start") s = $(k + 1) + 0
				if ($k == "duration") d = $(k + 1) + 0
			}
		}
		$0 ~ evre { sd(); if (d >= nest) { n++; S[n] = s; D[n] = d } ; next }
		/ irq_noise: irq_work:/ { sd(); if (d >= nest) { ni++; IS[ni] = s } }
		END {
			for (j = 1; j <= n; j++) {
				e = S[j] + (D[j] + 2 * nest) / 1e9
				for (k = 1; k <= ni; k++)
					if (IS[k] >= S[j] && IS[k] <= e) { inside++; break }
				if (D[j] <= max) sub_ok++
			}
			print n + 0, inside + 0, sub_ok + 0
		}' /tmp/eng_nest)
	info "$ctx: $1 events >= ${NEST}us; $2 with an irq_work >= ${NEST}us inside; $3 of <= $((DUR - NEST + 150))us"
	assert_ge "$2" $((N * 9 / 10)) "$ctx: events with the nested IRQ inside"
	assert_ge "$3" $((N * 9 / 10)) "$ctx: events without the nested IRQ's time"
	rm_instance "osn_nest_$ctx"
}
nested thread 'thread_noise: +osn_inject/1:' thread_noise
if ! is_rt; then
	nested softirq 'softirq_noise: +HRTIMER:8 ' softirq_noise
fi
exit 0
