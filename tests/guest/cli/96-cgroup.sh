#!/bin/sh
# timeout: 120
# -C/--cgroup[=PATH], the rtla way (rtla osnoise -C on the -rt kernels).
# The workload threads osn/N, like rtla's osnoise/N, are kthreads bound
# to their CPU (PF_NO_SETAFFINITY): cgroup v2 refuses to move them
# (cgroup.procs: EINVAL), so -C fails with rtla's error and exit status
# 1, into osn's own cgroup or a given one, while a user process moves to
# the same cgroup (the cgroup is usable: the refusal is the kthread's).
# A path that does not exist, and no cgroup2 mount, fail the same way.
# Nothing is left behind: no instance, knob or thread.
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

# expect TOOL ERROR ARGS...: exit status 1 and ERROR in the output
expect() {
	_tool=$1 _err=$2
	shift 2
	run "$_tool" "$D/$_tool.txt" "$@"
	assert_eq "$RC" 1 "$_tool top $*: exit status"
	grep -q -- "$_err" "$D/$_tool.txt" || fail "$_tool top $*: no '$_err'"
}

TOOLS=osn
[ -n "$RTLA" ] && TOOLS="osn rtla"

# no cgroup2 mount
if ! grep -q ' cgroup2 ' /proc/mounts; then
	for t in $TOOLS; do
		expect "$t" "Did not find cgroupv2 mount point" -c 1 -d 1 -C
	done
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

for t in $TOOLS; do
	# osn's own cgroup, a given one (-C PATH, -CPATH, --cgroup=PATH)
	expect "$t" "Failed to move threads to cgroup" -c 1 -d 1 -C
	grep -q "Invalid argument" "$D/$t.txt" ||
		[ "$t" = rtla ] || fail "osn -C: not the kernel's EINVAL"
	expect "$t" "Failed to move threads to cgroup" -c 1 -d 1 -C/osn_test
	expect "$t" "Failed to move threads to cgroup" -c 1 -d 1 --cgroup=/osn_test
	# a path that does not exist
	expect "$t" "Failed to move threads to cgroup" -c 1 -d 1 -C/osn_nonexistent
done
[ -z "$(cat "$cgroot/osn_test/cgroup.procs")" ] || fail "something stayed in osn_test"
exit 0
