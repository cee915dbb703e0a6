#!/bin/sh
# timeout: 90
# rmmod while an injection runs (every context) stops it cleanly: the module
# goes away, no injector thread is left, the kernel log stays clean (the
# bench checks dmesg).
. "$OSN_TESTS/guest/lib.sh"
require_ko osn_inject
cpu=$(($(nr_cpus) - 1))

for ctx in $INJ_CTXS; do
	case $ctx in ipi|nmi) [ "$(nr_cpus)" = 1 ] && continue ;; esac
	for dur in 20 2000; do
		inject_load
		inject_start $ctx $cpu 100000 $dur $((dur * 2 + 100))
		sleep 0.3
		assert_eq "$(inject_status state)" running "$ctx: state"
		assert_ge "$(inject_status "done")" 1 "$ctx: injections before rmmod"
		rmmod osn_inject || fail "$ctx: rmmod while running"
		mod_loaded osn_inject && fail "$ctx: still loaded"
		if ps -o comm 2>/dev/null | grep -q '^osn_inject' ||
		   grep -qs '^osn_inject' /proc/[0-9]*/comm; then
			fail "$ctx: injector thread left after rmmod"
		fi
	done
done
exit 0
