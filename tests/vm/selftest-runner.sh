#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# selftest-runner.sh [KERNEL] - self-test of the guest runner (guest-init.sh)
# in a real VM (default 6.1, ~30 s): tests/vm/selftest-guest/ leaks a
# module and an instance, times out, skips; the runner must report each
# and clean up after them.  Ends with "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
k=${1:-6.1}
work=$(cd "$here/../.." && pwd)/build/vm/selftest-$k
out=$(OSN_VM_WORK=$work OSN_GUEST_DIR=vm/selftest-guest OSN_VM_NO_TOOLS=1 \
	OSN_TESTS_FILTER="" "$here/run-kernel.sh" "$k" 2>&1)
log=$(echo "$out" | sed -n 's/^OSN-RESULT .* log=//p')
log=${log:-$work/console.log}
pass=0 fail=0
expect() {	# ERE description
	if grep -Eq -- "$1" "$log"; then
		echo "ok - $2"; pass=$((pass + 1))
	else
		echo "not ok - $2 (no /$1/ in $log)"; fail=$((fail + 1))
	fi
}
expect '^OSN-TEST-NOTE: 10-leak-module left the guest dirty: module osn_inject \(removed\)' "leaked module reported and removed"
expect '^OSN-TEST: FAIL 10-leak-module ' "leaking test fails"
expect '^OSN-TEST-NOTE: 20-leak-instance left the guest dirty: instance leaky' "leaked instance reported"
expect '^OSN-TEST: PASS 25-lib-removes-instances ' "lib.sh removes a test's instances"
expect '^OSN-TEST: PASS 30-clean ' "runner cleaned up after leaks"
expect '^OSN-TEST-NOTE: 40-timeout-cleans-up timed out after 5s' "timeout reported"
expect '^OSN-TEST: FAIL 40-timeout-cleans-up ' "timed out test fails"
expect '^OSN-TEST: PASS 50-after-timeout ' "on_exit handlers ran on timeout"
expect '^OSN-TEST-NOTE: 60-skip skipped: SKIP: not here' "skip reason"
expect '^OSN-TEST: SKIP 60-skip ' "skip counted"
expect '^OSN-GUEST-DONE' "guest done"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
