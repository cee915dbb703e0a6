#!/bin/sh
# timeout: 300
# matrix: shard
# The CLI killed with SIGKILL mid-run (while collecting, and while starting
# up, as soon as it holds its lock; osn top and osn hist), REL_CLI_N times
# (default 2): what it left (its instance, the workload, its knobs) must
# not stop the next run: the rerun exits 0, and afterwards no instance, no
# osn/ thread and the knobs as they were before the killed run.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

OSN=$OSN_BIN/osn
[ -x "$OSN" ] || skip "tools/osn is not in the guest (OSN_BIN=$OSN_BIN)"
N=${REL_CLI_N:-2}
require_cpus 2
rel_setup
on_exit "$OSN cleanup"
E=/tmp/rel-cli-err
O=/tmp/rel-cli-out
on_exit rm -f "$E" "$O"

knobs() {
	for k in cpus period_us runtime_us threshold_us stop_tracing_us stop_tracing_total_us options; do
		printf '%s=%s ' "$k" "$(cat "$OSN_PARAMS/$k")"
	done
}
osn_instances() {
	ls "$TFS/instances" | grep '^osn_' | tr '\n' ' '
}
collecting() {	# INSTANCE
	[ -d "$TFS/instances/$1" ] && rel_threads_are osn/1
}

# Not the defaults, so that a restore to the wrong values shows.
osn_knob threshold_us 3
osn_knob stop_tracing_total_us 900000000
before=$(knobs)
KILLS=0
RERUNS=0
i=0
while [ $i -lt "$N" ]; do
	case $((i % 3)) in
	0) tool=top when=collecting ;;
	1) tool=hist when=collecting ;;
	2) tool=top when=starting ;;
	esac
	inst=osn_$tool
	"$OSN" $tool -c 1 -p 100000 -r 20000 -d 5m -q >"$O" 2>"$E" &
	pid=$!
	if [ $when = collecting ]; then
		wait_for 60 collecting $inst || fail "osn $tool did not start: $(cat "$E")"
		sleep 1
	else
		# As soon as it holds its lock: in the middle of its setup.
		wait_for 30 test -e /run/osn.lock -o -e /tmp/osn.lock ||
			fail "osn $tool never took its lock: $(cat "$E")"
	fi
	kill -KILL $pid
	wait $pid 2>/dev/null
	KILLS=$((KILLS + 1))
	info "[$(rel_elapsed)s] osn $tool killed while $when: left instances '$(osn_instances)'," \
		"threads '$(osn_threads | tr '\n' ' ')'"

	# The rerun cleans up and runs to its end.
	"$OSN" $tool -c 1 -p 100000 -r 20000 -d 2 -q >"$O" 2>"$E"
	rc=$?
	info "rerun: exit $rc, stderr: $(cat "$E")"
	[ $rc = 0 ] || fail "osn $tool after a SIGKILLed run: exit $rc: $(cat "$E")"
	[ -s "$O" ] || fail "osn $tool after a SIGKILLed run printed nothing"
	RERUNS=$((RERUNS + 1))
	assert_eq "$(osn_instances)" "" "instances after the rerun"
	rel_wait_no_threads
	assert_eq "$(knobs)" "$before" "knobs after the rerun"
	rel_any_osn_enabled && fail "osn events left enabled after the rerun"
	i=$((i + 1))
done

# Last: killed, then only `osn cleanup`.
"$OSN" top -c 1 -p 100000 -r 20000 -d 5m -q >"$O" 2>"$E" &
pid=$!
wait_for 60 collecting osn_top || fail "osn top did not start: $(cat "$E")"
kill -KILL $pid
wait $pid 2>/dev/null
KILLS=$((KILLS + 1))
"$OSN" cleanup >"$O" 2>"$E" || fail "osn cleanup: $(cat "$E")"
assert_eq "$(osn_instances)" "" "instances after osn cleanup"
rel_wait_no_threads
assert_eq "$(knobs)" "$before" "knobs after osn cleanup"

osn_knobs_default
rel_knobs_measure
rel_module_works
figures "CLI SIGKILLed mid-run: $KILLS times; clean reruns: $RERUNS/$((KILLS - 1)); osn cleanup after the last"
exit 0
