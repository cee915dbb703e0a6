#!/bin/sh
# timeout: 60
# Bad requests are rejected (EINVAL), a second run while one runs is EBUSY,
# stop aborts a run.
. "$OSN_TESTS/guest/lib.sh"
inject_load

w() {	# write a request; prints the error, returns its status
	( echo "$*" >"$INJ/inject" ) 2>&1
}
bad() {
	if out=$(w "$@"); then
		fail "accepted: '$*'"
	fi
	echo "$out" | grep -q 'Invalid argument' || fail "'$*': expected EINVAL, got: $out"
}
# nmi: bad where the architecture has it, else refused whatever it asks
nmi_bad() {
	case " $INJ_CTXS " in *" nmi "*) bad "$@"; return ;; esac
	if out=$(w "$@"); then
		fail "accepted: '$*'"
	fi
	echo "$out" | grep -q 'not supported' || fail "'$*': expected EOPNOTSUPP, got: $out"
}

bad "ctx=bogus cpu=0 count=1 duration_us=10"
bad "ctx=irq cpu=4096 count=1 duration_us=10"
bad "ctx=irq cpu=$(nr_cpus) count=1 duration_us=10"
bad "ctx=irq cpu=0 count=0 duration_us=10"
bad "ctx=irq cpu=0 count=100001 duration_us=10"
bad "ctx=irq cpu=0 count=1 duration_us=0"
bad "ctx=irq cpu=0 count=1 duration_us=500001"
nmi_bad "ctx=nmi cpu=0 count=1 duration_us=10001"
bad "ctx=irq cpu=0 count=1 duration_us=1000 interval_us=1999"
bad "ctx=irq cpu=0 count=1 duration_us=10 interval_us=109"
bad "ctx=irq cpu=0 count=1 duration_us=10 interval_us=10000001"
bad "ctx=irq count=1 duration_us=10"
bad "cpu=0 count=1 duration_us=10"
bad "ctx=irq cpu=0 count=1 duration_us=10 bogus=1"
bad "ctx=irq cpu=0 count=1 duration_us=10 garbage"
bad "ctx=irq cpu=-1 count=1 duration_us=10"
bad "ctx=irq cpu=0 count=ten duration_us=10"
bad "hello"
bad ""
if [ "$(nr_cpus)" = 1 ]; then
	bad "ctx=ipi cpu=0 count=1 duration_us=10"
	nmi_bad "ctx=nmi cpu=0 count=1 duration_us=10"
fi
assert_eq "$(inject_status runs)" 0 "runs after rejected requests"
assert_eq "$(inject_status state)" idle "state after rejected requests"

# Minimum legal interval, default interval.
inject irq 0 3 100 200
assert_eq "$(inject_status "done")" 3 "done (interval = 2 * duration)"
echo "ctx=irq cpu=0 count=2 duration_us=10" >"$INJ/inject" || fail "default interval rejected"
inject_wait 10
assert_eq "$(inject_status interval_us)" 10000 "default interval_us"

for ctx in $INJ_CTXS; do
	case $ctx in ipi|nmi) [ "$(nr_cpus)" = 1 ] && continue ;; esac
	inject_start $ctx 0 100000 10 10000
	assert_eq "$(inject_status state)" running "$ctx: state while running"
	out=$(w "ctx=irq cpu=0 count=1 duration_us=10") &&
		fail "$ctx: second run accepted while one runs"
	echo "$out" | grep -q 'busy' || fail "$ctx: expected EBUSY, got: $out"
	echo stop >"$INJ/inject" || fail "$ctx: stop rejected"
	assert_eq "$(inject_status state)" idle "$ctx: state after stop"
	d=$(inject_status "done")
	assert_le "$d" 1000 "$ctx: injections done before stop"
	sleep 0.1
	assert_eq "$(inject_status "done")" "$d" "$ctx: injections after stop"
done
# stop when idle is fine.
echo stop >"$INJ/inject" || fail "stop when idle rejected"
exit 0
