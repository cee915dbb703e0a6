#!/bin/sh
# timeout: 300
# matrix: shard
# rmmod osn while it measures, REL_UNLOAD_N rounds (default 2) of: rmmod
# with an osn event enabled (idle, right after the enable, with a reader
# blocked on trace_pipe, against an enable/disable loop).  Either the
# unload is refused ("in use"/EBUSY) and osn keeps measuring, or it
# succeeds and stops cleanly (no osn/ thread, no events/osn left); never a
# crash or a leaked thread.  rmmod after the disable must always succeed.
# REL_OPEN_RMMOD_RACE=0 leaves out case 4, the enable/disable loop: its
# open() of an event file racing the module's removal is a use-after-free
# in the trace event core of kernels before 6.9 (tracing_open_file_tr()
# reads the trace_event_file that remove_event_file_dir() frees; fixed in
# mainline by b63db58e2fa5 "eventfs/tracing: Add callback for release of
# an eventfs_inode", no 6.1.y fix).  Stock kernels cannot see it; the
# debug kernel's KASAN reports it, so tests/debug/run.sh sets it to 0.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

N=${REL_UNLOAD_N:-2}
require_cpus 2
require_ko osn
mod_loaded osn && fail "osn already loaded (a previous test leaked it)"
on_exit osn_unload
rel_instance rel_unl 64
I=$REL_INST
E=/tmp/rel-rmmod-err
on_exit rm -f "$E"

load() {
	insmod "$OSN_KO/osn.ko" cpus=$REL_CPU period_us=$REL_PERIOD runtime_us=$REL_RUNTIME ||
		fail "insmod osn.ko"
	[ -d "$I/events/osn" ] || fail "no events/osn in the instance after insmod"
}

# gone: the module and everything it had is gone.
gone() {
	mod_loaded osn && return 1
	[ ! -e "$I/events/osn" ] && [ ! -e "$TFS/events/osn" ] && [ ! -e /sys/module/osn ]
}

REFUSED=0 STOPPED=0 ATTEMPTS=0 AFTER_OK=0
# try_rmmod WHAT: rmmod while osn is enabled, and judge the outcome.
try_rmmod() {
	ATTEMPTS=$((ATTEMPTS + 1))
	if rmmod osn 2>"$E"; then
		STOPPED=$((STOPPED + 1))
		rel_wait_no_threads 20
		wait_for 10 gone || fail "$1: rmmod succeeded but osn is still around"
		info "$1: unloaded, stopped cleanly"
		load
		return 0
	fi
	REFUSED=$((REFUSED + 1))
	mod_loaded osn || fail "$1: rmmod failed but osn is gone: $(cat "$E")"
	grep -Eqi 'in use|busy|resource' "$E" || fail "$1: rmmod refused with '$(cat "$E")'"
	info "$1: refused: $(cat "$E")"
	# Still measuring.
	rel_wait_stable osn/1
	rel_flowing "$I" 2 20 || fail "$1: no sample events after the refused rmmod"
}

# after_disable: disable everything, rmmod must work, load again.
after_disable() {
	echo 0 >"$I/events/osn/enable" 2>/dev/null
	rel_wait_no_threads 20
	rmmod osn 2>"$E" || fail "$1: rmmod after disabling the events: $(cat "$E")"
	wait_for 10 gone || fail "$1: osn still around after rmmod"
	AFTER_OK=$((AFTER_OK + 1))
	load
}

load
i=0
while [ $i -lt "$N" ]; do
	# 1. measuring, idle
	echo 1 >"$I/events/osn/sample/enable"
	rel_wait_stable osn/1
	try_rmmod "round $i, measuring"
	after_disable "round $i, measuring"

	# 2. right after the enable (the start is asynchronous)
	echo 1 >"$I/events/osn/sample/enable"
	try_rmmod "round $i, just enabled"
	after_disable "round $i, just enabled"

	# 3. a reader blocked on trace_pipe
	echo 1 >"$I/events/osn/sample/enable"
	rel_wait_stable osn/1
	cat "$I/trace_pipe" >/dev/null &
	reader=$!
	sleep 0.5
	try_rmmod "round $i, trace_pipe reader"
	kill $reader
	wait $reader 2>/dev/null
	after_disable "round $i, trace_pipe reader"

	# 4. against an enable/disable loop
	if [ "${REL_OPEN_RMMOD_RACE:-1}" = 0 ]; then
		info "round $i: case 4 (toggle loop) left out: REL_OPEN_RMMOD_RACE=0"
		i=$((i + 1))
		continue
	fi
	(
		j=0
		while [ $j -lt 40 ] && [ -e "$I/events/osn/sample/enable" ]; do
			echo 1 >"$I/events/osn/sample/enable"
			echo 0 >"$I/events/osn/sample/enable"
			j=$((j + 1))
		done
	) 2>/dev/null &
	loop=$!
	sleep 0.2
	ATTEMPTS=$((ATTEMPTS + 1))
	if rmmod osn 2>"$E"; then
		STOPPED=$((STOPPED + 1))
		info "round $i, toggle loop: unloaded"
	else
		REFUSED=$((REFUSED + 1))
		info "round $i, toggle loop: refused: $(cat "$E")"
	fi
	wait $loop
	if mod_loaded osn; then
		after_disable "round $i, toggle loop"
	else
		rel_wait_no_threads 20
		wait_for 10 gone || fail "round $i, toggle loop: osn half gone"
		load
	fi
	info "[$(rel_elapsed)s] round $i done"
	i=$((i + 1))
done

# The module works after all this.
on_exit osn_knobs_default
rel_module_works
figures "unload with osn enabled: $ATTEMPTS attempts, $REFUSED refused (EBUSY), $STOPPED clean stops," \
	"0 leaked threads; unload after disable: $AFTER_OK/$AFTER_OK succeeded"
exit 0
