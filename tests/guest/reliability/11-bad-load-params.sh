#!/bin/sh
# timeout: 240
# matrix: shard
# insmod osn.ko with bad parameters: each load must fail, leave no module
# and no osn/ thread behind; then a plain load works.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

require_ko osn
mod_loaded osn && fail "osn already loaded (a previous test leaked it)"
on_exit osn_unload

TRIED=0
REJECTED=0
PROBLEMS=
# (An unknown parameter is not in the list: the kernel ignores those with
# a warning, checked below.)
for p in period_us=abc period_us=0 period_us=60000001 period_us=18446744073709551616 \
	 runtime_us=2000000 runtime_us=50 "period_us=1000 runtime_us=2000" \
	 threshold_us=10000001 threshold_us=-1 stop_tracing_us=18446744073709552 \
	 stop_tracing_total_us=1e3 cpus=99 cpus=3-1 cpus= options=FOO options=NO_ \
	 "options=OSNOISE_IRQ_DISABLE period_us=2000000 runtime_us=2000000" \
	 "period_us=2000000 runtime_us=2000000 options=OSNOISE_PREEMPT_DISABLE"; do
	TRIED=$((TRIED + 1))
	# shellcheck disable=SC2086
	if insmod "$OSN_KO/osn.ko" $p 2>/dev/null; then
		info "PROBLEM: insmod osn.ko $p succeeded"
		PROBLEMS="$PROBLEMS$REL_NL  insmod osn.ko $p succeeded"
		rmmod osn
		continue
	fi
	mod_loaded osn && fail "insmod osn.ko $p failed but osn is loaded"
	REJECTED=$((REJECTED + 1))
done
rel_scan
assert_eq "$REL_NTHREADS" 0 "osn threads after the failed loads"

# The same module loads fine afterwards (an unknown parameter is ignored
# with a warning, the knobs keep their defaults) and runs.
dmesg_mark
osn_load no_such_knob=1
dmesg_since | grep -q "unknown parameter 'no_such_knob' ignored" ||
	fail "no warning for the unknown parameter: $(dmesg_since | tail -n 3)"
assert_eq "$(osn_knob period_us) $(osn_knob runtime_us) $(osn_knob cpus)" "1000000 1000000 0-1" \
	"knobs after loading with an unknown parameter"
on_exit osn_knobs_default
rel_knobs_measure
rel_module_works
figures "bad insmod parameter sets tried: $TRIED, rejected: $REJECTED"
[ -z "$PROBLEMS" ] || fail "bad load parameters accepted:$PROBLEMS"
exit 0
