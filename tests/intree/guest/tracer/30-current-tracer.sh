#!/bin/sh
# timeout: 150
# echo osn > current_tracer starts the workload on the CPUs of osn/cpus and
# writes one line per CPU and period into the buffer, under upstream
# osnoise's header: runtime about runtime_us, noise <= runtime, the %
# available computed from them, max single noise <= noise.  The raw option
# prints the same numbers bare.  The lines name the thread (osn/1-PID:
# the tracer saves comms; upstream prints <...>).  echo nop stops it.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/intree/guest/tracer/tracer.sh"
require_cpus 2
tr_setup
t=$(tfs)
echo 1 >"$TO/cpus"
echo 100000 >"$TO/period_us"
echo 50000 >"$TO/runtime_us"
assert_eq "$(osn_nthreads)" 0 "workload threads before the tracer"
: >"$t/trace"
echo osn >"$t/current_tracer" || fail "current_tracer osn refused"
assert_eq "$(cat "$t/current_tracer")" osn "current_tracer"
eng_wait_threads 1
assert_eq "$(osn_threads)" osn/1 "workload thread"
wait_for 20 tr_has_lines "$t" 8 || fail "fewer than 8 period lines in 20 s: $(head -c 600 "$t/trace")"

grep -q '^#           TASK-PID      CPU# |||||   TIMESTAMP    IN US       IN US  AVAILABLE  IN US     HW    NMI    IRQ   SIRQ THREAD$' "$t/trace" ||
	fail "no osnoise-style header: $(head -n 12 "$t/trace")"
tr_lines "$t" >/tmp/tr_lines
info "$(head -n 3 /tmp/tr_lines)"
# every line: osn/1 on CPU 1, numbers consistent with each other
bad=$(awk '{
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
	rt = $(i + 1); noise = $(i + 2); pct = $(i + 3); max = $(i + 4)
	want = (rt > 0) ? (rt - noise) * 100 / rt : 0
	d = pct - want; if (d < 0) d = -d
	if ($1 !~ /-[0-9]+$/ || $2 != "[001]" || rt < 49000 || rt > 300000 ||
	    noise > rt || max > noise || d > 0.0001)
		print
	}' /tmp/tr_lines)
[ -z "$bad" ] || fail "inconsistent period lines: $(echo "$bad" | head -n 3)"
# the tracer saves the comms: the lines name the workload thread
assert_eq "$(awk '$1 !~ /^osn\/1-[0-9]+$/' /tmp/tr_lines | head -n 3)" "" "lines not from osn/1"

# the raw option: the same fields, no header, no percentage
echo 1 >"$t/options/raw"
on_exit "echo 0 >$t/options/raw"
# (the raw prefix: pid, cpu, timestamp; then the line's 8 numbers)
raw=$(grep -Ev '^#' "$t/trace" | grep -Ec '^[0-9]+ 1 [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+$')
echo 0 >"$t/options/raw"
assert_ge "$raw" 8 "raw period lines"

echo nop >"$t/current_tracer"
eng_wait_threads 0
: >"$t/trace"
sleep 0.5
assert_eq "$(tr_count "$t")" 0 "period lines after echo nop"
