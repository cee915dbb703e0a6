#!/bin/sh
# timeout: 60
# matrix: every
# osn_inject.ko loads, exposes its debugfs files, reports idle, unloads.
. "$OSN_TESTS/guest/lib.sh"
require_ko osn_inject

for _ in 1 2 3; do
	inject_load
	[ -w "$INJ/inject" ] || fail "no $INJ/inject"
	[ -r "$INJ/status" ] || fail "no $INJ/status"
	st=$(inject_status)
	info "status: $st"
	assert_eq "$(inject_status state)" idle "state after load"
	assert_eq "$(inject_status "done")" 0 "done after load"
	assert_eq "$(inject_status runs)" 0 "runs after load"
	inject_unload || fail "rmmod osn_inject"
	mod_loaded osn_inject && fail "osn_inject still loaded after rmmod"
	[ -e "$INJ" ] && fail "$INJ left behind after rmmod"
done
exit 0
