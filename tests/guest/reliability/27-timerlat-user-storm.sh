#!/bin/sh
# timeout: 180
# matrix: shard
# timerlat's user-space mode under churn: a reader loop per CPU (each
# reopening /dev/osn_timerlat as soon as it lost it), a third task that
# opens, migrates and reads, while the foreground, REL_TLU_N (default
# 6) rounds long, turns the run off and on, switches OSNOISE_WORKLOAD
# (kernel threads, then user mode again), changes the period and takes
# CPU 1 offline and back.  The kernel must stay quiet (the run's dmesg
# check); afterwards a reader on each CPU gets its activations, and once
# the run is off no device is held and no reader is left.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
N=${REL_TLU_N:-6}
require_cpus 2
tlu=$OSN_BIN/osn_tlu
hp=/sys/devices/system/cpu/cpu1/online
tl_setup timerlat_period_us=2000
osn_knob options NO_OSNOISE_WORKLOAD
eng_instance osn_tl27 timerlat_sample
on_exit "[ -e $hp ] && echo 1 >$hp"
: >/tmp/tl27_stop
# loop CPU ARGS...: osn_tlu ARGS... again and again until the stop file
# is removed.
loop() {
	while [ -e /tmp/tl27_stop ]; do
		"$tlu" "$@" >/dev/null 2>&1
	done
}
loop -b 300 0 50 &
r0=$!
loop 1 30 &
r1=$!
loop -m 0 1 5 &
rmig=$!
on_exit "rm -f /tmp/tl27_stop; kill $r0 $r1 $rmig 2>/dev/null"
for round in $(seq 1 "$N"); do
	echo 0 >"$ENG_I/events/osn/enable"
	sleep 0.3
	echo 1 >"$ENG_I/events/osn/timerlat_sample/enable"
	sleep 0.5
	osn_knob timerlat_period_us $((1000 + round * 500))
	osn_knob options OSNOISE_WORKLOAD
	sleep 0.3
	osn_knob options NO_OSNOISE_WORKLOAD
	sleep 0.3
	if [ -e $hp ]; then
		echo 0 >$hp || fail "round $round: offline cpu1"
		sleep 0.3
		echo 1 >$hp || fail "round $round: online cpu1"
	fi
	sleep 0.5
done
rm -f /tmp/tl27_stop
wait $r0 $r1 $rmig 2>/dev/null
info "readers stopped"
: >"$ENG_I/trace"
echo 1 >"$ENG_I/tracing_on"
for c in 0 1; do
	tl_user_wait_run $c
	assert_eq "$("$tlu" $c 20)" reads=20 "CPU $c's reads after the storm"
done
for c in 000 001; do
	assert_ge "$(grep -c "\[$c\] .* timerlat_sample: .*context=2" "$ENG_I/trace")" 19 \
		"user-ret samples of CPU $c after the storm"
done
"$tlu" 1 0 >/tmp/tl27_last &
last=$!
tl_user_holds $last /tmp/tl27_last
echo 0 >"$ENG_I/events/osn/enable"
wait $last
assert_eq "$?" 137 "the last reader's exit status when the run stopped"
assert_eq "$(ls -l /proc/[0-9]*/fd 2>/dev/null | grep -c osn_timerlat)" 0 "open files of /dev/osn_timerlat"
exit 0
