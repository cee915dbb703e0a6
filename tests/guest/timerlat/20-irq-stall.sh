#!/bin/sh
# timeout: 90
# Injected hard-IRQ stalls (a hard hrtimer busy-waiting 30 ms) on the
# measured CPU: for each one, the timerlat thread's first sample after
# it is an activation pending at its end, with a thread latency of at
# least the stall minus one period, and an irq_noise local_timer of at
# least the stall's length, starting at it, explains it.  Ground truth: the
# expiry of the injector's timer (timer:hrtimer_expire_entry).  The
# assertions are lower bounds located at each stall: TCG's own gaps can
# only add latency elsewhere.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/timerlat/timerlat.sh"
require_cpus 2
require_timer_irq
inject_load
PERIOD_US=2000
DUR_US=30000
COUNT=5
tl_setup cpus=1 timerlat_period_us=$PERIOD_US
eng_instance osn_tl20 timerlat_sample irq_noise
i=$ENG_I
echo 1 >"$i/events/timer/hrtimer_expire_entry/enable" || fail "enable hrtimer_expire_entry"
echo 1 >"$i/tracing_on"
tl_wait_threads 1
sleep 0.3
inject irq 1 $COUNT $DUR_US 300000
done=$(inject_status done)
info "$(inject_status)"
sleep 0.2
echo 0 >"$i/tracing_on"
echo 0 >"$i/events/osn/enable"
echo 0 >"$i/events/timer/hrtimer_expire_entry/enable"
tl_wait_threads 0
assert_eq "$done" $COUNT "injections done"

grep '\[001\]' "$i/trace" >/tmp/tl20
# For each ground-truth line (T): the stall ends after T + stall and the
# thread cannot run inside it, so the first thread sample after T +
# stall records the activation pending at its end, which expired (its
# timestamp minus its latency) before T + stall and at most a period
# after T if the thread was asleep: latency >= stall - period (emulator
# gaps only add to it).  And an irq_noise local_timer starting in
# [T - 10 ms, T] of duration >= stall.
awk -v dur=$DUR_US -v per=$PERIOD_US -v tick="$(irq_name local_timer)" "$ENG_AWK_FUNCS"'
	{ nl++; LT[nl] = ts(); LL[nl] = $0 }
	/ hrtimer_expire_entry: .*function=inj_timer_fn/ {
		g++; G[g] = ts(); R[g] = ($1 ~ /^timerlat\/1-/)
	}
	/ timerlat_sample: .*context=1$/ {
		t = ts(); l = $0; sub(/.*timer_latency=/, "", l); sub(/ .*/, "", l)
		n++; TS[n] = t; LAT[n] = l + 0
	}
	$0 ~ " irq_noise: " tick ":" { sd(); m++; S[m] = s; D[m] = d }
	END {
		for (i = 1; i <= g; i++) {
			thr = 0; irq = 0; end = G[i] + dur / 1e6
			for (j = 1; j <= n && TS[j] < end; j++) ;
			if (j <= n && TS[j] - LAT[j] / 1e9 <= end &&
			    LAT[j] >= (dur - per) * 1000) thr = 1
			for (j = 1; j <= m; j++)
				if (S[j] >= G[i] - 0.01 && S[j] <= G[i] + 1e-4 &&
				    D[j] >= dur * 1000) irq = 1
			if (!thr && R[i]) {
				print "the stall at " G[i] " hit the running thread"
				nr++
			} else if (!thr) {
				print "no thread latency for the stall at " G[i] ", the trace around it:"
				for (j = 1; j <= nl; j++)
					if (LT[j] >= G[i] - 0.005 && LT[j] <= end + 0.005)
						print "  " LL[j]
			}
			if (!irq) print "no irq_noise for the stall at " G[i]
			nt += thr; ni += irq
		}
		print "stalls " g " explained_thread " nt " explained_irq " ni " running " nr + 0
	}' /tmp/tl20 >/tmp/tl20_res
cat /tmp/tl20_res
set -- $(tail -n 1 /tmp/tl20_res)
assert_eq "$2" $COUNT "ground-truth stalls seen"
# A stall that interrupts the running thread (the expiry line's current
# task is timerlat/1) may land after it read the clock and before it
# wrote its sample: that activation is not late, and the thread re-arms
# past the stall.  Every other stall must be explained: the old bar (all
# but one) failed once on trixie-rt-arm64 with two stalls unexplained and
# nothing kept to say where they landed; a miss now prints its trace.
assert_eq "$(($4 + $8))" $COUNT "stalls with a late thread sample or in the running thread"
assert_ge "$4" 1 "stalls with a late thread sample"
assert_eq "$6" $COUNT "stalls with their irq_noise"
exit 0
