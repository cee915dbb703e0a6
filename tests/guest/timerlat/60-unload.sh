#!/bin/sh
# timeout: 90
# mode=timerlat given at load: enable/disable 10 times in a row (fast and
# slow), then rmmod: no timerlat/ thread is left (their timers are
# cancelled: a timer left armed would fire into freed module text), the
# module unloads, and loads again.  rmmod during a run is either refused
# (the enabled event pins the module) or stops every thread first.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
require_cpus 2
eng_setup mode=timerlat timerlat_period_us=2000
assert_eq "$(osn_knob mode)" timerlat "mode given at load"
eng_instance osn_tl60 timerlat_sample
i=$ENG_I
n=0
while [ $n -lt 10 ]; do
	echo 1 >"$i/events/osn/timerlat_sample/enable"
	[ $((n % 3)) = 0 ] && tl_wait_threads "$(nr_cpus)"
	echo 0 >"$i/events/osn/timerlat_sample/enable"
	n=$((n + 1))
done
tl_wait_threads 0
echo 1 >"$i/events/osn/timerlat_sample/enable"
tl_wait_threads "$(nr_cpus)"
sleep 0.5
if rmmod osn 2>/dev/null; then
	info "rmmod during the run unloaded osn"
	assert_eq "$(tl_threads | grep -c .)" 0 "timerlat threads after rmmod"
	insmod "$OSN_KO/osn.ko" mode=timerlat || fail "reload"
	echo 1 >"$i/events/osn/timerlat_sample/enable"
	tl_wait_threads "$(nr_cpus)"
else
	info "rmmod during the run refused"
	assert_eq "$(tl_threads | grep -c .)" "$(nr_cpus)" "threads after a refused rmmod"
fi
echo 0 >"$i/events/osn/timerlat_sample/enable"
tl_wait_threads 0
rmmod osn || fail "rmmod after disable"
sleep 0.5
[ -d "$(tfs events/osn)" ] && fail "osn events still listed after rmmod"
insmod "$OSN_KO/osn.ko" mode=timerlat || fail "reload"
echo 1 >"$i/events/osn/timerlat_sample/enable"
tl_wait_threads "$(nr_cpus)"
echo 0 >"$i/events/osn/timerlat_sample/enable"
tl_wait_threads 0
exit 0
