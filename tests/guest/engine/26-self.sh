#!/bin/sh
# timeout: 120
# osn's own work stays out of the gaps and is reported as the period's
# self time.  At a threshold of 1 us, below what writing one event costs
# under TCG, a sample used to make the next: the gap after it began where
# it ended and held its recording (noise = the whole window, all of it
# "hardware").  Now a sample that follows another at once begins after
# the first one's recording: back-to-back pairs (start = the previous
# start + duration) are only those whose recording something interrupted,
# a few in a hundred; osn:sample's self is > 0 in every period with
# samples, and noise + self <= runtime.
# Also, on the same data (at 1 us TCG gives the loop gaps with no
# interference): each period's samples, noise, max, HW count and HW time
# are those of its sample_threshold events, HW being exactly the ones
# with interference 0, inside which no noise event starts
# (eng_check_periods); there is at least one.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
eng_setup
osn_knob cpus 1
osn_knob runtime_us 100000
osn_knob period_us 100000
osn_knob threshold_us 1
eng_instance osn_self sample sample_threshold irq_noise softirq_noise thread_noise nmi_noise
echo 1 >"$ENG_I/tracing_on"
sleep 1
echo 0 >"$ENG_I/tracing_on"
grep '\[001\]' "$ENG_I/trace" >/tmp/self-all.txt
grep ' sample: ' /tmp/self-all.txt >/tmp/self-s.txt
grep ' sample_threshold: ' /tmp/self-all.txt >/tmp/self-t.txt
np=$(grep -c . /tmp/self-s.txt)
nt=$(grep -c . /tmp/self-t.txt)
info "$np periods, $nt samples"
[ "$np" -ge 3 ] || fail "only $np periods in 1 s of 100 ms periods"
[ "$nt" -ge 100 ] || fail "only $nt samples at 1 us: too few to judge"

# every period with samples did osn work: self > 0, noise + self <= runtime
awk '{
	for (i = 1; i < NF; i++) v[$i] = $(i + 1)
	if (v["samples"] > 0 && v["self"] <= 0) { print "self 0 with samples: " $0; bad++ }
	if (v["noise"] + v["self"] > v["runtime"]) { print "noise + self > runtime: " $0; bad++ }
	s += v["self"]; r += v["runtime"]
} END {
	printf "# self %d ns of %d ns of runtime\n", s, r
	exit bad > 0
}' /tmp/self-s.txt || fail "osn:sample self out of bounds"

# back-to-back samples: the start (s.ns) of one is the previous start +
# its duration
awk '{
	for (i = 1; i < NF; i++) {
		if ($i == "start") { split($(i + 1), t, "."); st = t[1] * 1e9 + t[2] }
		if ($i == "duration") d = $(i + 1)
	}
	if (n++ && st == pend) adj++
	pend = st + d
} END {
	printf "# %d of %d pairs back to back\n", adj, n - 1
	exit !(adj * 100 <= (n - 1) * 10)
}' /tmp/self-t.txt || fail "more than 10% of the samples begin where the previous one ended"

hw=$(eng_check_periods /tmp/self-all.txt) || { echo "$hw"; fail "periods disagree with their samples"; }
info "$hw samples without interference (HW)"
assert_ge "$hw" 1 "HW samples at 1 us"
exit 0
