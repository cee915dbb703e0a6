#!/bin/sh
# timeout: 60
# timerlat_period_us rejects values out of 100..1000000 (and non-numbers)
# with -EINVAL and keeps its value; mode accepts only osnoise and
# timerlat, and refuses any write with -EBUSY while a run is active in
# either mode: osnoise and timerlat never run at once.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
require_cpus 2
# One measured CPU: an osnoise loop on CPU 0 would slow the shell down.
eng_setup cpus=1
assert_eq "$(osn_knob mode)" osnoise "default mode"
assert_eq "$(osn_knob timerlat_period_us)" 1000 "default timerlat_period_us"

# bad KNOB VALUE ERRNO_TEXT: the write fails with that error and the
# knob keeps its value.  (busybox's echo reports the write's error, its
# printf does not.)
bad() {
	_old=$(osn_knob "$1")
	_err=$( (echo -n "$2" >"$OSN_PARAMS/$1") 2>&1) &&
		fail "knob $1 accepted '$2'"
	assert_match "$_err" "$3" "error of '$2' to $1"
	assert_eq "$(osn_knob "$1")" "$_old" "$1 after bad write '$2'"
}
for v in 0 99 1000001 abc -1 " " 1.5; do
	bad timerlat_period_us "$v" "Invalid argument"
done
bad timerlat_period_us 18446744073709551616 "out of range"
for v in 100 1000000 1000; do
	osn_knob timerlat_period_us $v
	assert_eq "$(osn_knob timerlat_period_us)" $v "timerlat_period_us"
done
for v in foo " " osnoise2 timerlat,osnoise; do
	bad mode "$v" "Invalid argument"
done

# busy_both: a run is active, in mode $1: mode refuses both values.
busy_both() {
	for v in osnoise timerlat; do
		bad mode $v "busy"
	done
	assert_eq "$(osn_knob mode)" "$1" "mode during the run"
}

# A timerlat run: its threads only; mode is held.
osn_knob mode timerlat
eng_instance osn_tl40 timerlat_sample
tl_wait_threads 1
busy_both timerlat
assert_eq "$(osn_nthreads)" 0 "osn/ threads during a timerlat run"
# The period applies while running.
osn_knob timerlat_period_us 5000
echo 0 >"$ENG_I/events/osn/enable"
tl_wait_threads 0
# Released once the run stopped (asynchronously).
wait_for 10 sh -c "echo osnoise >$OSN_PARAMS/mode" 2>/dev/null ||
	fail "mode still refused after the timerlat run"

# An osnoise run: timerlat is refused the same way.
echo 1 >"$ENG_I/events/osn/sample/enable"
eng_wait_threads 1
busy_both osnoise
assert_eq "$(tl_threads | grep -c .)" 0 "timerlat threads during an osnoise run"
echo 0 >"$ENG_I/events/osn/enable"
eng_wait_threads 0
exit 0
