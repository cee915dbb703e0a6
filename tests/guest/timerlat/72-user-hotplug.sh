#!/bin/sh
# timeout: 90
# User-space mode and CPU hotplug: CPU 1 going offline ends the thread
# blocked in its read of /dev/osn_timerlat: SIGKILLed, or, if its timer
# woke it after the scheduler had moved it off CPU 1 (the CPU inactive,
# osn's callback not run yet), its read fails with EINVAL; back online,
# a new thread opens CPU 1 again and its activations resume.  Three
# rounds.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
require_cpus 2
[ -e /sys/devices/system/cpu/cpu1/online ] || skip "CPU 1 cannot go offline"
tlu=$OSN_BIN/osn_tlu
tl_setup cpus=1 timerlat_period_us=10000
osn_knob options NO_OSNOISE_WORKLOAD
eng_instance osn_tl72 timerlat_sample
on_exit 'echo 1 >/sys/devices/system/cpu/cpu1/online'
echo 1 >"$ENG_I/tracing_on"
for round in 1 2 3; do
	tl_user_wait_run 1
	"$tlu" 1 0 >/tmp/tl72 &
	r=$!
	tl_user_holds $r /tmp/tl72
	sleep 0.3
	echo 0 >/sys/devices/system/cpu/cpu1/online || fail "offline cpu1"
	wait $r
	rc=$?
	info "round $round: reader exit status $rc: $(cat /tmp/tl72)"
	[ $rc = 137 ] || assert_match "$rc $(cat /tmp/tl72)" '^3 read [0-9]+: EINVAL$' \
		"round $round: the reader's end after CPU 1 went offline"
	: >"$ENG_I/trace"
	echo 1 >/sys/devices/system/cpu/cpu1/online || fail "online cpu1"
	tl_user_wait_run 1
	assert_eq "$("$tlu" 1 5)" reads=5 "round $round: reads after CPU 1 came back"
	assert_ge "$(grep -c '\[001\] .* timerlat_sample: .*context=2' "$ENG_I/trace")" 4 \
		"round $round: user-ret samples from CPU 1 after it came back"
done
exit 0
