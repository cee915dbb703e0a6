#!/bin/sh
# timeout: 90
# /dev/osn_timerlat's rules, upstream's timerlat_fd's: the open fails
# with EINVAL while the kernel threads measure (OSNOISE_WORKLOAD), EPERM
# from a thread not pinned to its CPU, EBUSY while another holds the CPU;
# a read from another CPU than the open's fails with EINVAL; a reader
# killed leaves its CPU free for the next; stopping the run SIGKILLs a
# blocked reader, and reads fail with EINVAL once it is over.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
require_cpus 2
tlu=$OSN_BIN/osn_tlu
tl_setup cpus=1 timerlat_period_us=10000
eng_instance osn_tl71 timerlat_sample
echo 1 >"$ENG_I/tracing_on"
tl_wait_threads 1
assert_eq "$("$tlu" 1 1)" "open: EINVAL" "open with the kernel threads running"
echo 0 >"$ENG_I/events/osn/enable"
tl_wait_threads 0

osn_knob options NO_OSNOISE_WORKLOAD
echo 1 >"$ENG_I/events/osn/timerlat_sample/enable"
tl_user_wait_run 1
assert_eq "$("$tlu" 0 1)" "open: EINVAL" "open on CPU 0 (not measured)"
assert_eq "$("$tlu" -u 1 1)" "open: EPERM" "open from an unpinned thread"
assert_eq "$("$tlu" -m 0 1 1)" "read 1: EINVAL" "read from CPU 0 after an open on CPU 1"

"$tlu" 1 0 >/tmp/tl71_a &
a=$!
on_exit "kill -9 $a 2>/dev/null"
tl_user_holds $a /tmp/tl71_a
assert_eq "$("$tlu" 1 1)" "open: EBUSY" "a second open of CPU 1"
kill -9 $a
wait $a
assert_eq "$("$tlu" 1 3)" "reads=3" "reads after the holder was killed"

"$tlu" 1 0 >/tmp/tl71_b &
b=$!
on_exit "kill -9 $b 2>/dev/null"
tl_user_holds $b /tmp/tl71_b
echo 0 >"$ENG_I/events/osn/enable"
wait $b
rc=$?
assert_eq "$rc" 137 "the blocked reader's exit status after the run stopped (SIGKILL)"
assert_eq "$("$tlu" 1 1)" "open: EINVAL" "open with no run"
exit 0
