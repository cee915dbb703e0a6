#!/bin/sh
# timeout: 120
# matrix: every
# osn.ko loads, exposes the ABI's events and fields, starts a workload
# thread per selected CPU when an osn event is enabled, reports periods,
# and stops the threads when the last osn event is disabled.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"

require_cpus 2
eng_setup period_us=100000 runtime_us=50000

for ev in sample_threshold irq_noise softirq_noise thread_noise nmi_noise sample stop noise_cause; do
	[ -e "$(tfs events/osn/$ev/format)" ] || fail "no event osn/$ev"
done
# Each event's fields, in order, as include/osn/osn_abi.h lists them
# (OSN_FIELDS_<EVENT>, packed at /osn/include by run-kernel.sh).
abi=/osn/include/osn_abi.h
[ -r "$abi" ] || fail "no $abi in the guest"
abi_fields() {	# EVENT: the header's list (string literals joined)
	awk -v m="OSN_FIELDS_$(echo "$1" | tr a-z A-Z)" '
		$1 == "#define" && $2 == m { on = 1 }
		on { s = s $0; if ($0 !~ /\\$/) on = 0 }
		END { gsub(/"[ \t\\]*"/, "", s); sub(/^[^"]*"/, "", s); sub(/".*/, "", s); print s }' "$abi"
}
fmt() { sed -n 's/^[[:space:]]*field:[^;]* \([a-z_]*\)\(\[[0-9]*\]\)\{0,1\};.*/\1/p' "$(tfs events/osn/$1/format)" | grep -v '^common_' | tr '\n' ' ' | sed 's/ $//'; }
for ev in sample_threshold irq_noise softirq_noise thread_noise nmi_noise sample stop noise_cause; do
	want=$(abi_fields $ev)
	[ -n "$want" ] || fail "no OSN_FIELDS for $ev in $abi"
	assert_eq "$(fmt $ev)" "$want" "fields of osn/$ev (format file vs osn_abi.h)"
done

# One version: the module's is the header's OSN_VERSION.
want=$(sed -n 's/^#define OSN_VERSION[[:space:]]*"\(.*\)".*/\1/p' "$abi")
assert_eq "$(cat /sys/module/osn/version 2>/dev/null)" "$want" "module version (OSN_VERSION)"

assert_eq "$(osn_nthreads)" 0 "threads before enable"
eng_instance osn_t10 sample
i=$ENG_I
echo 1 >"$i/tracing_on"
eng_wait_threads "$(nr_cpus)"
osn_threads | grep -qx osn/0 || fail "no osn/0"
osn_threads | grep -qx osn/1 || fail "no osn/1"

wait_for 10 sh -c "[ \$(grep -c ' sample: ' $i/trace) -ge 4 ]" ||
	fail "no sample events: $(head -n 20 $i/trace)"
line=$(eng_lines "$i" sample | tail -n 1)
info "$line"
assert_match "$line" 'runtime [0-9]+ noise [0-9]+ avail [0-9]+\.[0-9]{5} max [0-9]+ min [0-9]+ samples [0-9]+ HW' "sample line"
rt=$(echo "$line" | sed -n 's/.*runtime \([0-9]*\) .*/\1/p')
assert_ge "$rt" 50000000 "runtime ns of a period"

# The loop's own cost: ns per clock read outside noise, smallest gap seen.
eng_lines "$i" sample | awk '{ for (k = 1; k < NF; k++) v[$k] = $(k + 1)
	rt += v["runtime"] - v["noise"]; lp += v["loops"]
	if (v["min_gap"] > 0 && (mg == 0 || v["min_gap"] < mg)) mg = v["min_gap"] }
	END { if (lp) printf "# loop resolution: %.0f ns per iteration, min_gap %d ns\n", rt / lp, mg }'
event_enable "$i" osn/sample 0
eng_wait_threads 0
exit 0
