#!/bin/sh
# timeout: 90
# Enable/disable 20 times in a row (fast and slow), then rmmod: no osn/
# thread left, the module unloads, and loads again.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
eng_setup period_us=20000 runtime_us=10000
eng_instance osn_unl sample nmi_noise
i=$ENG_I
n=0
while [ $n -lt 20 ]; do
	echo 1 >"$i/events/osn/sample/enable"
	[ $((n % 4)) = 0 ] && eng_wait_threads "$(nr_cpus)"
	echo 0 >"$i/events/osn/sample/enable"
	n=$((n + 1))
done
echo 0 >"$i/events/osn/enable"
eng_wait_threads 0
# Last state wins after a burst.
echo 1 >"$i/events/osn/sample/enable"
echo 0 >"$i/events/osn/sample/enable"
echo 1 >"$i/events/osn/sample/enable"
eng_wait_threads "$(nr_cpus)"
echo 0 >"$i/events/osn/sample/enable"
eng_wait_threads 0
rmmod osn || fail "rmmod after disable"
assert_eq "$(osn_nthreads)" 0 "threads after rmmod"
[ -d "$(tfs events/osn)" ] && fail "osn events still listed after rmmod"
insmod "$OSN_KO/osn.ko" || fail "reload"
echo 1 >"$i/events/osn/sample/enable"
eng_wait_threads "$(nr_cpus)"
echo 0 >"$i/events/osn/sample/enable"
eng_wait_threads 0
exit 0
