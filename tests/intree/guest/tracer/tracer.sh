# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the in-tree tracer tests (tests/intree/guest/tracer/NN-*.sh),
# sourced after ../../../guest/lib.sh and engine.sh.  Not a test itself.

# The tracer's knob directory.
TO=$TFS/osn
TR_KNOBS="cpus mode options period_us print_stack runtime_us stop_tracing_total_us stop_tracing_us threshold_us timerlat_period_us"

# tr_setup [PARAM=VAL...]: osn must be built in (these tests run only on
# tests/intree/'s kernel: not being able to run is a failure, not a skip);
# the knobs start from the defaults and the PARAMs, and go back at exit.
# No tracer is left behind either: lib.sh removes the test's instances
# (which resets their tracer) and osn_unload resets the top level's.
tr_setup() {
	osn_builtin || fail "osn is not built into this kernel ($OSN_KVER)"
	[ -d "$TO" ] || fail "no tracefs osn/ directory"
	eng_setup "$@"
}

# tr_lines BUFFER_DIR: the tracer's per-period lines (not events, not
# the header), in upstream osnoise's format:
#   TASK-PID [CPU] FLAGS TIMESTAMP: RUNTIME NOISE %AVAIL MAX HW NMI IRQ SIRQ THREAD
tr_lines() {
	grep -E '^ *[^#].*\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+: [0-9]+ +[0-9]+ +[0-9]+\.[0-9]{5} +[0-9]+( +[0-9]+){5}$' "$1/trace"
}

# tr_count BUFFER_DIR: how many per-period lines it has.
tr_count() {
	tr_lines "$1" | grep -c .
}

# tr_has_lines BUFFER_DIR N: at least N per-period lines.
tr_has_lines() {
	[ "$(tr_count "$1")" -ge "$2" ]
}

# tr_werr FILE VALUE: write VALUE (echo, one write) to FILE; prints "ok"
# or the shell's error text without the file name.
tr_werr() {
	_out=$( (echo "$2" >"$1") 2>&1) && { echo ok; return 0; }
	echo "$_out" | sed 's/.*: //' | head -n 1
}

# tr_pid COMM: the pid of the kernel thread named COMM, if any.
tr_pid() {
	for _d in /proc/[0-9]*; do
		[ "$(cat "$_d/comm" 2>/dev/null)" = "$1" ] && echo "${_d#/proc/}"
	done
}
