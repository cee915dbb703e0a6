#!/bin/sh
# timeout: 300
# matrix: shard
# -C/--cgroup[=PATH], the rtla way (rtla osnoise -C where the guest's
# rtla has it).  The workload threads osn/N are kthreads bound to their
# CPU (PF_NO_SETAFFINITY): cgroup v2 refuses to move them (cgroup.procs:
# EINVAL), while a user process moves to the same cgroup.  osn says so and
# runs to the end, exit status 0, as rtla osnoise -C (which finds no
# osnoise/N to move yet and moves nothing).  A path that does not exist
# and no cgroup2 mount: rtla's errors, exit status 1.  Nothing is left
# behind: no instance, knob or thread.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
cli_setup
before=$(cli_knobs)
D=$CLI_OUT
CG=/sys/fs/cgroup

RTLA=
if [ "$OSN_RT" = 1 ] && command -v rtla >/dev/null 2>&1; then
	if rtla osnoise top -h 2>&1 | grep -q -- --cgroup; then
		RTLA=1
	else
		info "rtla without -C? $(rtla osnoise top -h 2>&1 | head -n 3)"
	fi
fi

# run TOOL OUT ARGS...: osn top ARGS or rtla osnoise top ARGS; RC its
# exit status; then nothing of osn's is left
run() {
	_tool=$1 _out=$2
	shift 2
	if [ "$_tool" = osn ]; then
		"$OSN" top "$@" >"$_out" 2>&1
	else
		rtla osnoise top "$@" >"$_out" 2>&1
	fi
	RC=$?
	info "$_tool top $* -> $RC"
	sed 's/^/    | /' "$_out"
	if [ "$_tool" = osn ]; then
		assert_eq "$(cli_instances)" "" "instances left by osn top $*"
		assert_eq "$(cli_knobs)" "$before" "knobs after osn top $*"
		assert_eq "$(osn_nthreads)" 0 "osn/N threads after osn top $*"
	fi
}

# expect TOOL STATUS MSG ARGS...: exit status STATUS and MSG in the output
expect() {
	_tool=$1 _rc=$2 _msg=$3
	shift 3
	run "$_tool" "$D/$_tool.txt" "$@"
	assert_eq "$RC" "$_rc" "$_tool top $*: exit status"
	grep -q -- "$_msg" "$D/$_tool.txt" || fail "$_tool top $*: no '$_msg'"
}


# no cgroup2 mount (osn alone: rtla's message is the same, from its source)
if ! grep -q ' cgroup2 ' /proc/mounts; then
	expect osn 1 "Did not find cgroupv2 mount point" -c 1 -d 1 -C
	mount -t cgroup2 none "$CG" || fail "mount cgroup2"
	on_exit umount "$CG"
fi
cgroot=$(grep ' cgroup2 ' /proc/mounts | head -n 1 | cut -d' ' -f2)
mkdir -p "$cgroot/osn_test" || fail "mkdir $cgroot/osn_test"
on_exit rmdir "$cgroot/osn_test"

# the cgroup takes a user process
sleep 30 &
sp=$!
echo "$sp" >"$cgroot/osn_test/cgroup.procs" || fail "a user process does not move to osn_test"
grep -qx "$sp" "$cgroot/osn_test/cgroup.procs" || fail "sleep not in osn_test"
kill "$sp"
wait "$sp" 2>/dev/null

# the kernel's refusal, osn's own cgroup and a given one: exit 0
refused="the kernel does not move osn/1 (pid [0-9]*), a kthread bound to its CPU (Invalid argument)"
expect osn 0 "$refused" -c 1 -d 1 -C
expect osn 0 "$refused" -c 1 -d 1 -C=/osn_test
# a path that does not exist: rtla's error, before anything is set up
expect osn 1 "Failed to move threads to cgroup: .*osn_nonexistent/cgroup.procs: No such file" \
	-c 1 -d 1 --cgroup=/osn_nonexistent
[ -z "$(cat "$cgroot/osn_test/cgroup.procs")" ] || fail "something stayed in osn_test"

if [ -n "$RTLA" ]; then
	run rtla "$D/rtla.txt" -c 1 -d 1 -C
	assert_eq "$RC" 0 "rtla top -C: exit status"
	# rtla before 7.x (its own getopt) takes a PATH only as -C=PATH and
	# --cgroup=PATH as no PATH at all: osn takes every form
	if rtla osnoise top -h 2>&1 | grep -q -- --on-threshold; then
		expect rtla 1 "Failed to move threads to cgroup" -c 1 -d 1 --cgroup=/osn_nonexistent
	else
		expect rtla 1 "Failed to move threads to cgroup" -c 1 -d 1 -C=/osn_nonexistent
	fi
fi
exit 0
