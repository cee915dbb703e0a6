#!/bin/sh
# timeout: 2400
# Soak: REL_SOAK_S seconds (default 600; longer when TCG stretches the
# timers) of osn measuring CPU 1 under a steady stream of injected hard-IRQ
# stalls (200 us every 50 ms, from osn_inject's hrtimer: ground truth),
# with `osn top -c 1 -q` running the whole time when tools/osn is in the
# guest (ended with SIGINT, as a user would).  Afterwards:
#  - >= 95% of the injections lie inside an irq_noise event of >= 200 us
#    (each injection timestamped by a filtered hrtimer_expire_entry event);
#  - the osn/1 thread ran the whole time (same task) and reported >= 90%
#    of the 1 s periods the soak lasted; the CLI exited 0 and its IRQ count on
#    CPU 1 covers the injections;
#  - memory did not grow: MemAvailable, Slab and SUnreclaim after vs
#    before (caches dropped both times), within 32 MB / 8 MB / 4 MB.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

SOAK_S=${REL_SOAK_S:-600}
INTERVAL_US=50000
DUR_US=200
COUNT=$((SOAK_S * 1000000 / INTERVAL_US))
require_cpus 2
inject_load
rel_setup
OSN=$OSN_BIN/osn
CLI=0
[ -x "$OSN" ] && CLI=1
[ $CLI = 1 ] || info "tools/osn is not in the guest: soaking without the CLI"

# The measuring setup (the CLI sets the same: cpus 1, 1 s periods).
osn_knob cpus $REL_CPU
osn_knob period_us 1000000
osn_knob runtime_us 1000000
rel_instance rel_soak 8192
I=$REL_INST
echo 'duration >= 200000' >"$I/events/osn/irq_noise/filter" || fail "irq_noise filter"

# Memory before: module loaded, buffers allocated, nothing running.
rel_settle_mem
rel_meminfo
m0="$REL_MEMAVAIL $REL_SLAB $REL_SUNRECL"
info "before: MemAvailable $REL_MEMAVAIL kB, Slab $REL_SLAB kB, SUnreclaim $REL_SUNRECL kB"

J=/tmp/rel-soak.json
O=/tmp/rel-soak.out
on_exit rm -f "$J" "$O" /tmp/rel-soak-trace
if [ $CLI = 1 ]; then
	on_exit "$OSN cleanup"
	# Ended with SIGINT once the injections are over (TCG may stretch
	# them); -d is only a backstop.
	"$OSN" top -c $REL_CPU -q -d $((SOAK_S * 4))s --json="$J" >"$O" 2>&1 &
	cli=$!
	on_exit "kill $cli"
	wait_for 60 test -d "$TFS/instances/osn_top" || fail "osn top did not start: $(cat "$O")"
	rel_wait_stable osn/1
fi
rel_truth_enable "$I"
event_enable "$I" osn/irq_noise
event_enable "$I" osn/sample
rel_wait_stable osn/1
T=$REL_THREADS
sleep 1

inject_start irq $REL_CPU $COUNT $DUR_US $INTERVAL_US
read -r t_start _ </proc/uptime
info "[$(rel_elapsed)s] soaking ${SOAK_S}s: $COUNT x ${DUR_US} us every ${INTERVAL_US} us on cpu$REL_CPU," \
	"workload $T"
series=
n=0
while ! inject_idle; do
	sleep 30
	n=$((n + 1))
	rel_meminfo
	series="$series $REL_SUNRECL"
	if [ $((n % 4)) = 0 ]; then
		info "[$(rel_elapsed)s] $(inject_status done) injections, SUnreclaim $REL_SUNRECL kB," \
			"MemAvailable $REL_MEMAVAIL kB"
	fi
	rel_same_thread "$T" || fail "osn/1 ($T) restarted or died during the soak"
	[ $n -le $((SOAK_S / 10 + 20)) ] || fail "injection still running after $((n * 30)) s: $(inject_status)"
done
read -r t_end _ </proc/uptime
SOAKED=$((${t_end%.*} - ${t_start%.*}))
done_n=$(inject_status done)
info "$(inject_status)"
sleep 2
rel_same_thread "$T" || fail "osn/1 ($T) restarted or died during the soak"
echo 0 >"$I/events/osn/enable"
echo 0 >"$I/events/timer/enable"

CLI_FIG="no CLI"
if [ $CLI = 1 ]; then
	kill -INT $cli
	wait $cli
	rc=$?
	info "osn top exit $rc; $(grep -E '^ +1 ' "$O" | head -n 2 | tr -s ' ')"
	assert_eq "$rc" 0 "osn top exit status after the soak"
	irq=$(jq -r '.cpus[0].irq.count' "$J")
	periods=$(jq -r '.cpus[0].periods' "$J")
	info "osn top: cpu1 IRQ count $irq, periods $periods"
	assert_ge "$irq" "$done_n" "osn top's IRQ count on cpu1"
	CLI_FIG="osn top exit 0, IRQ count $irq, periods $periods"
fi
rel_wait_no_threads

# Ground truth.
cp "$I/trace" /tmp/rel-soak-trace
rel_attrib /tmp/rel-soak-trace $REL_CPU $((DUR_US * 1000)) irq_noise "$(irq_name local_timer):"
samples=$(grep -c ' sample: ' /tmp/rel-soak-trace)
info "injections: $done_n done, $REL_SEEN seen, $REL_MATCHED inside an irq_noise >= ${DUR_US} us;" \
	"$samples periods reported"
assert_eq "$done_n" "$COUNT" "injections done"
[ $((REL_SEEN * 100)) -ge $((done_n * 99)) ] ||
	fail "only $REL_SEEN of $done_n injections in the trace (buffer too small?)"
[ $((REL_MATCHED * 100)) -ge $((REL_SEEN * 95)) ] ||
	fail "only $REL_MATCHED of $REL_SEEN injections explained by osn"
assert_ge "$samples" $((SOAKED * 9 / 10)) "1 s periods reported"

# Memory after: the same state as before (instance kept, nothing running).
rel_settle_mem
rel_meminfo
set -- $m0
d_avail=$(($1 - REL_MEMAVAIL))
d_slab=$((REL_SLAB - $2))
d_sunr=$((REL_SUNRECL - $3))
info "after: MemAvailable $REL_MEMAVAIL kB, Slab $REL_SLAB kB, SUnreclaim $REL_SUNRECL kB;" \
	"SUnreclaim every 30 s:$series"
signed() {	# N -> +N or -N
	case $1 in -*) echo "$1" ;; *) echo "+$1" ;; esac
}
figures "soak ${SOAKED}s on $OSN_KVER: $REL_MATCHED/$done_n injections explained" \
	"($((REL_MATCHED * 1000 / done_n / 10)).$((REL_MATCHED * 1000 / done_n % 10))%), $samples periods, $CLI_FIG;" \
	"drift (after - before): MemAvailable $(signed $((-d_avail))) kB, Slab $(signed $d_slab) kB," \
	"SUnreclaim $(signed $d_sunr) kB"
assert_le "$d_avail" 32768 "MemAvailable drop (kB)"
assert_le "$d_slab" 8192 "Slab growth (kB)"
assert_le "$d_sunr" 4096 "SUnreclaim growth (kB)"
exit 0
