# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the allocation-failure tests (tests/debug/guest/faults/NN-*.sh),
# sourced after ../../../guest/lib.sh.  Not a test itself (no NN- prefix).

# faults_setup HIGHMEM: let fail-nth (/proc/thread-self/fail-nth) fail
# sleeping slab and page allocations too, quietly; HIGHMEM=Y exempts user
# pages (a whole program's page faults), N counts them.  Put back at exit.
faults_setup() {
	[ -e /proc/self/fail-nth ] || fail "no /proc/self/fail-nth: not the debug kernel"
	_fd=/sys/kernel/debug
	for _a in failslab fail_page_alloc; do
		[ -d $_fd/$_a ] || fail "no $_fd/$_a"
		echo N >$_fd/$_a/ignore-gfp-wait
		echo 0 >$_fd/$_a/verbose
	done
	_hm=$(cat $_fd/fail_page_alloc/ignore-gfp-highmem)
	echo "$1" >$_fd/fail_page_alloc/ignore-gfp-highmem
	echo 0 >$_fd/fail_page_alloc/min-order
	on_exit "echo Y >$_fd/failslab/ignore-gfp-wait; echo Y >$_fd/fail_page_alloc/ignore-gfp-wait; echo $_hm >$_fd/fail_page_alloc/ignore-gfp-highmem"
}
