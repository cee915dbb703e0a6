# SPDX-License-Identifier: GPL-2.0
#
# result.sh - sourced by the host checks that report one OSN-TEST line per
# check (abi-check.sh, arch-check.sh, vm/shard-check.sh), in the guest
# tests' form, so that run-host.sh counts them alike.
#   result NAME ok|WHY    one check's result (WHY: why it failed)
#   result_end            "N passed, N failed"; status 0 if none failed
# RESULT_PREFIX (e.g. "abi/") is put before every NAME.
pass=0 fail=0

result() {
	if [ "$2" = ok ]; then
		echo "OSN-TEST: PASS ${RESULT_PREFIX:-}$1"
		pass=$((pass + 1))
	else
		echo "OSN-TEST-NOTE: ${RESULT_PREFIX:-}$1 $2"
		echo "OSN-TEST: FAIL ${RESULT_PREFIX:-}$1"
		fail=$((fail + 1))
	fi
}

result_end() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
}
