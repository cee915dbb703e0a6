#!/bin/sh
# timeout: 300
# matrix: shard
# osn events enabled and disabled in a loop from three tracefs instances at
# once (REL_TOGGLE_N rounds each, default 12), plus the top-level buffer
# and an instance created and removed with osn events enabled.  The
# measurement must follow the union: once everything is disabled no osn/
# thread is left, and a re-enable gets threads and samples again.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

N=${REL_TOGGLE_N:-12}
require_cpus 2
rel_setup
rel_knobs_measure
for n in 1 2 3; do
	rel_instance rel_tog$n 64
done
on_exit "echo 0 >$TFS/events/osn/enable"
on_exit rm_instance rel_tog_tmp

# toggler INSTANCE_DIR ROUNDS: enable/disable single events and the whole
# osn system, in varying orders.  Every write is valid: the toggler exits
# non-zero at the first that fails, and its exit status is checked.
toggler() {
	_d=$1
	_j=0
	while [ $_j -lt "$2" ]; do
		for _w in sample/enable:1 irq_noise/enable:1 sample/enable:0 enable:1 \
			  irq_noise/enable:0 enable:0 thread_noise/enable:1 \
			  thread_noise/enable:0; do
			echo "${_w#*:}" >"$_d/events/osn/${_w%:*}" ||
				{ echo "toggler: $_d/events/osn/${_w%:*} <- ${_w#*:} failed"; return 1; }
		done
		_j=$((_j + 1))
	done
}
pids=
for n in 1 2 3; do
	toggler "$TFS/instances/rel_tog$n" "$N" &
	pids="$pids $!"
done
toggler "$TFS" $((N / 2)) &
pids="$pids $!"
# An instance removed while its osn events are enabled.
(
	j=0
	while [ $j -lt $((N / 4)) ]; do
		mkdir "$TFS/instances/rel_tog_tmp" || exit 1
		echo 1 >"$TFS/instances/rel_tog_tmp/events/osn/enable"
		sleep 0.1
		rmdir "$TFS/instances/rel_tog_tmp" || exit 2
		j=$((j + 1))
	done
) &
rmpid=$!
pids="$pids $rmpid"
on_exit "kill $pids"
for p in $pids; do
	wait "$p"
	rc=$?
	[ $rc = 0 ] || [ "$p" != "$rmpid" ] || fail "instance create/remove loop failed ($rc)"
	[ $rc = 0 ] || fail "a toggler failed ($rc)"
done
TOGGLES=$(((3 * N + N / 2) * 8 + N / 4 * 2))
info "[$(rel_elapsed)s] $TOGGLES enable/disable writes done"

rel_any_osn_enabled && fail "an osn event is still enabled after the storm"
rel_wait_no_threads 20
info "no osn thread after the storm"

# Re-enable in one instance: threads and samples come back.
echo 1 >"$TFS/instances/rel_tog2/events/osn/sample/enable"
rel_wait_stable osn/1
rel_flowing "$TFS/instances/rel_tog2" 2 20 || fail "no sample events after the storm"
echo 0 >"$TFS/instances/rel_tog2/events/osn/sample/enable"
rel_wait_no_threads

# A second, shorter storm that ends with everything enabled.
pids=
for n in 1 2 3; do
	toggler "$TFS/instances/rel_tog$n" $((N / 4)) &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || fail "a toggler of the second storm failed"; done
for n in 1 2 3; do
	echo 1 >"$TFS/instances/rel_tog$n/events/osn/sample/enable"
done
rel_wait_stable osn/1
for n in 1 2 3; do
	rel_flowing "$TFS/instances/rel_tog$n" 2 20 || fail "no sample events in rel_tog$n"
done
# Disabling two of three keeps the measurement running; the third stops it.
echo 0 >"$TFS/instances/rel_tog1/events/osn/enable"
echo 0 >"$TFS/instances/rel_tog3/events/osn/enable"
sleep 1
rel_threads_are osn/1 || fail "osn/1 stopped while rel_tog2 still has osn/sample enabled"
rel_flowing "$TFS/instances/rel_tog2" 2 20 || fail "no sample events in rel_tog2 alone"
echo 0 >"$TFS/instances/rel_tog2/events/osn/enable"
rel_wait_no_threads
TOGGLES=$((TOGGLES + 3 * (N / 4) * 8 + 6))

figures "event toggles: $TOGGLES enable/disable writes from 3 instances + top level" \
	"+ $((N / 4)) instances removed with osn enabled; threads left after stop: 0"
exit 0
