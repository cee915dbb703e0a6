#!/bin/sh
# timeout: 120
# osn.ko loads, exposes the ABI's events and fields, starts a workload
# thread per selected CPU when an osn event is enabled, reports periods,
# and stops the threads when the last osn event is disabled.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"

require_cpus 2
eng_setup period_us=100000 runtime_us=50000

for ev in sample_threshold irq_noise softirq_noise thread_noise nmi_noise sample stop; do
	[ -e "$(tfs events/osn/$ev/format)" ] || fail "no event osn/$ev"
done
fmt() { sed -n 's/^[[:space:]]*field:[^;]* \([a-z_]*\)\(\[[0-9]*\]\)\{0,1\};.*/\1/p' "$(tfs events/osn/$1/format)" | tr '\n' ' '; }
for f in start duration interference; do fmt sample_threshold | grep -qw $f || fail "sample_threshold lacks $f"; done
for f in desc vector start duration; do fmt irq_noise | grep -qw $f || fail "irq_noise lacks $f"; done
for f in vector start duration; do fmt softirq_noise | grep -qw $f || fail "softirq_noise lacks $f"; done
for f in comm pid start duration; do fmt thread_noise | grep -qw $f || fail "thread_noise lacks $f"; done
for f in start duration; do fmt nmi_noise | grep -qw $f || fail "nmi_noise lacks $f"; done
for f in runtime noise max_sample min_sample samples hw_count nmi_count irq_count \
	 softirq_count thread_count hw_time nmi_time irq_time softirq_time thread_time \
	 loops min_gap; do
	fmt sample | grep -qw $f || fail "sample lacks $f"
done
for f in reason value threshold; do fmt stop | grep -qw $f || fail "stop lacks $f"; done

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
