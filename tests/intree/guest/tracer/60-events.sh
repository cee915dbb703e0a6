#!/bin/sh
# timeout: 150
# The events stay as in the module build: with the tracer and osn:sample
# in one buffer, each period gives an osn:sample event followed by the
# tracer's line for the same CPU, and the line's numbers are the event's
# (ns to us): runtime, noise, max, and the five interference counts.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/intree/guest/tracer/tracer.sh"
require_cpus 2
tr_setup cpus=1 period_us=100000 runtime_us=50000
I=$(new_instance osn_ev)
echo 1 >"$I/events/osn/sample/enable"
echo osn >"$I/current_tracer" || fail "current_tracer osn refused"
eng_wait_threads 1
wait_for 20 tr_has_lines "$I" 10 || fail "fewer than 10 period lines"
echo 0 >"$I/tracing_on"
grep -v '^#' "$I/trace" >/tmp/tr_ev
res=$(awk '
	/ sample: runtime / {
		for (i = 1; i < NF; i++) v[$i] = $(i + 1)
		want = sprintf("%d %d %d %d %d %d %d %d", int(v["runtime"] / 1000),
			int(v["noise"] / 1000), int(v["max"] / 1000), v["HW"], v["NMI"],
			v["IRQ"], v["SIRQ"], v["THREAD"])
		pending = 1
		next
	}
	pending && /: [0-9]+ +[0-9]+ +[0-9]+\.[0-9]+ / {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		got = $(i + 1) " " $(i + 2) " " $(i + 4) " " $(i + 5) " " $(i + 6) " " $(i + 7) " " $(i + 8) " " $(i + 9)
		if (got == want) ok++; else { bad++; print "event " want " line " got > "/dev/stderr" }
		pending = 0
	}
	END { print ok + 0, bad + 0 }' /tmp/tr_ev 2>/tmp/tr_ev.err)
info "pairs matching, differing: $res"
head -n 3 /tmp/tr_ev.err
set -- $res
assert_ge "$1" 8 "periods whose line matches its osn:sample event"
assert_eq "$2" 0 "periods whose line differs from its osn:sample event"
