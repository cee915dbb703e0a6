#!/bin/sh
# timeout: 30
# matrix: every
# The bench's guest environment is what tests/README.md promises.
. "$OSN_TESTS/guest/lib.sh"

for v in OSN_TESTS OSN_BIN OSN_KO OSN_KVER OSN_RT; do
	eval "val=\${$v:-}"
	[ -n "$val" ] || fail "$v is not set"
	info "$v=$val"
done
[ -d "$OSN_TESTS/guest" ] || fail "OSN_TESTS=$OSN_TESTS has no guest/"
[ -f "$(tfs trace)" ] || fail "tracefs is not mounted at $TFS"
[ -d /sys/kernel/debug/tracing ] || [ -d /sys/kernel/debug/block ] ||
	fail "debugfs is not mounted"
[ -d "$(tfs instances)" ] || fail "no tracefs instances directory"
assert_ge "$(nr_cpus)" 1 "online CPUs"
case $OSN_KVER in
*-rt|*-rt-*)	assert_eq "$OSN_RT" 1 "OSN_RT on $OSN_KVER" ;;
*)	assert_eq "$OSN_RT" 0 "OSN_RT on $OSN_KVER" ;;
esac
assert_eq "$(cat /proc/sys/kernel/panic_on_warn)" 0 "panic_on_warn"
info "kernel $(uname -r), $(nr_cpus) CPUs, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
exit 0
