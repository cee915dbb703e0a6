#!/bin/sh
# timeout: 150
# Nested noise is subtracted: injected 600 us stalls (SCHED_FIFO thread;
# on non-RT kernels also a softirq), during each of which a hard IRQ of
# 250 us runs (the injector's self-IPI, on the irq_work vector), are
# reported with the nested IRQ as an irq_noise irq_work inside each
# thread_noise (softirq_noise), and the nested time is not in them.
# Ground truth: the injector's own wall time of the injections (stolen_ns,
# nested IRQs included: TCG stretches them) and of the nested IRQs
# (nest_ns).  The events that hold a nested IRQ must add up to at most
# stolen - 80% of nest_ns (+ 300 us a switch); without the subtraction
# they add up to about stolen.
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
	stolen=$(echo "$st" | sed -n 's/.* stolen_ns=\([0-9]*\).*/\1/p')
	nestns=$(echo "$st" | sed -n 's/.* nest_ns=\([0-9]*\).*/\1/p')
	# The EVENTs with an irq_work irq_noise of >= NEST inside: how many,
	# the sum of their durations, and the sum of those irq_works.
	set -- $(awk -v evre="$ere" -v nest=$((NEST * 1000)) '
		function sd(k) {
			s = -1; d = -1
			for (k = 1; k < NF; k++) {
				if ($k == "start") s = $(k + 1) + 0
				if ($k == "duration") d = $(k + 1) + 0
			}
		}
		$0 ~ evre { sd(); if (d >= 0) { n++; S[n] = s; D[n] = d }; next }
		/ irq_noise: irq_work:/ { sd(); if (d >= nest) { ni++; IS[ni] = s; ID[ni] = d } }
		END {
			for (j = 1; j <= n; j++) {
				e = S[j] + (D[j] + 4 * nest) / 1e9
				for (k = 1; k <= ni; k++)
					if (!U[k] && IS[k] >= S[j] && IS[k] <= e) {
						U[k] = 1; m++; sum += D[j]; isum += ID[k]; break
					}
			}
			printf "%d %.0f %.0f\n", m, sum, isum
		}' /tmp/eng_nest)
	limit=$((stolen - nestns * 8 / 10 + N * 300000))
	info "$ctx: $1 events with a nested irq_work >= ${NEST}us, $2 ns in all (limit $limit: stolen $stolen - 80% of nested $nestns + ${N}x300us); their irq_works: $3 ns"
	assert_ge "$1" $((N * 9 / 10)) "$ctx: events with the nested IRQ inside"
	[ "$2" -le "$limit" ] ||
		fail "$ctx: the events hold the nested IRQs' time: $2 ns > $limit ns"
	[ "$3" -ge $((nestns * 8 / 10)) ] ||
		fail "$ctx: the nested irq_works add up to $3 ns < 80% of the injector's $nestns ns"
	rm_instance "osn_nest_$ctx"
}
nested thread 'thread_noise: +osn_inject/1:' thread_noise
if ! is_rt; then
	nested softirq 'softirq_noise: +HRTIMER:8 ' softirq_noise
fi
exit 0
