# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers shared by every guest test (busybox ash).  A test starts with
#
#	#!/bin/sh
#	# timeout: 60            (optional, first 5 lines; default 120 s)
#	. "$OSN_TESTS/guest/lib.sh"
#
# and exits 0 (pass), 1 (fail: use `fail MSG`) or 77 (skip: `skip MSG`).
# Cleanup: register commands with `on_exit CMD...`; they run (in reverse
# order) whenever the test ends, including fail/skip and SIGTERM from the
# runner's timeout.  Keep this file tidy: one short comment per helper.

: "${OSN_TESTS:=/osn/tests}" "${OSN_BIN:=/osn/bin}" "${OSN_KO:=/osn/ko}"
: "${OSN_KVER:=unknown}" "${OSN_RT:=0}"
TFS=/sys/kernel/tracing
INJ=/sys/kernel/debug/osn_inject
OSN_PARAMS=/sys/module/osn/parameters

# ---- results -------------------------------------------------------------

# fail MSG: print MSG and end the test as failed.
fail() {
	echo "FAIL: $*"
	exit 1
}

# skip MSG: print MSG (the skip reason) and end the test as skipped.
skip() {
	echo "SKIP: $*"
	exit 77
}

# retry_marker WHY: a test is about to retry an attempt that the emulator,
# not osn, spoiled (see tests/README.md: only an unexplained TCG gap is a
# reason to retry, at most twice).  The host counts these lines per kernel
# and prints them in its summary.
retry_marker() {
	echo "RETRY: $*"
}

# info MSG: progress output (shown with the test's output on failure).
info() {
	echo "# $*"
}

# assert_eq ACTUAL EXPECTED [WHAT]
assert_eq() {
	[ "$1" = "$2" ] || fail "${3:-value}: got '$1', expected '$2'"
}

# assert_ne ACTUAL UNEXPECTED [WHAT]
assert_ne() {
	[ "$1" != "$2" ] || fail "${3:-value}: got '$1', expected anything else"
}

# assert_ge ACTUAL MIN [WHAT]	(integers)
assert_ge() {
	[ "$1" -ge "$2" ] 2>/dev/null || fail "${3:-value}: got '$1', expected >= $2"
}

# assert_le ACTUAL MAX [WHAT]	(integers)
assert_le() {
	[ "$1" -le "$2" ] 2>/dev/null || fail "${3:-value}: got '$1', expected <= $2"
}

# assert_match STRING ERE [WHAT]
assert_match() {
	echo "$1" | grep -Eq -- "$2" || fail "${3:-value}: '$1' does not match /$2/"
}

# expect_fail CMD...: CMD must fail (e.g. a write that must be rejected).
expect_fail() {
	if "$@" 2>/dev/null; then
		fail "expected failure: $*"
	fi
	return 0
}

# ---- cleanup -------------------------------------------------------------

_osn_exit_cmds=
# on_exit CMD...: run CMD when the test ends (last registered runs first).
on_exit() {
	_osn_exit_cmds="$*
$_osn_exit_cmds"
}

# Instances that existed before the test: any other one is the test's
# (new_instance is mostly called in $(...), where on_exit cannot register).
_osn_instances_before=" $(ls /sys/kernel/tracing/instances 2>/dev/null | tr '\n' ' ') "

_osn_run_exit() {
	_rc=$?
	trap - EXIT INT TERM
	# The test's instances first: their enabled events pin modules.
	for _d in /sys/kernel/tracing/instances/*; do
		[ -d "$_d" ] || continue
		case $_osn_instances_before in *" ${_d##*/} "*) continue ;; esac
		rm_instance "${_d##*/}" >/dev/null 2>&1
	done
	_cmds=$_osn_exit_cmds
	_osn_exit_cmds=
	echo "$_cmds" | while IFS= read -r _c; do
		[ -n "$_c" ] && eval "$_c" >/dev/null 2>&1
	done
	exit $_rc
}
trap _osn_run_exit EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# ---- environment ---------------------------------------------------------

# tfs [PATH]: the tracefs root, or PATH below it.
tfs() {
	echo "$TFS${1:+/$1}"
}

# is_rt: true on a PREEMPT_RT kernel.
is_rt() {
	[ "$OSN_RT" = 1 ]
}

# require_ko NAME: skip unless $OSN_KO/NAME.ko was built for this kernel.
require_ko() {
	[ -e "$OSN_KO/$1.ko" ] || skip "$1.ko not built for $OSN_KVER"
}

# irq_name KIND: the name osn's irq_noise gives the interrupt KIND
# (local_timer, call_function, irq_work, reschedule) on this architecture
# (kernel/osn_arch.h): x86's system vector, or on arm64 the IRQ handler's
# name, "arch_timer" for the tick and "IPI" for every IPI.
irq_name() {
	if [ "$(uname -m)" = aarch64 ]; then
		case $1 in local_timer) echo arch_timer ;; *) echo IPI ;; esac
	else
		echo "$1"
	fi
}

# INJ_CTXS: the contexts the injector injects on this architecture
# (kernel/osn_arch.h): arm64 has no NMI a module can send or handle, and
# the injector refuses ctx=nmi there with EOPNOTSUPP.
if [ "$(uname -m)" = aarch64 ]; then
	INJ_CTXS="irq softirq thread ipi"
else
	INJ_CTXS="irq softirq thread ipi nmi"
fi

# require_timer_irq: skip unless osn times the tick's interrupt with a
# tracepoint: x86's irq_vectors:local_timer vector, or on arm64, where
# the arch timer is an ordinary IRQ, irq:irq_handler_entry.
require_timer_irq() {
	if [ "$(uname -m)" = aarch64 ]; then
		_rt=irq/irq_handler_entry
	else
		_rt=irq_vectors/local_timer_entry
	fi
	[ -d "$TFS/events/$_rt" ] || skip "no $_rt tracepoint"
}

# require_bin NAME: skip unless the binary is available in the guest.
require_bin() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 not available in the guest"
}

# nr_cpus: online CPUs.
nr_cpus() {
	grep -c '^processor' /proc/cpuinfo
}

# require_cpus N: skip unless at least N CPUs are online.
require_cpus() {
	[ "$(nr_cpus)" -ge "$1" ] || skip "needs $1 CPUs, have $(nr_cpus)"
}

# now_us: monotonic-ish microseconds (uptime based, 10 ms resolution).
now_us() {
	awk '{ printf "%d\n", $1 * 1000000 }' /proc/uptime
}

# lo_up: the loopback interface up (the initramfs does not bring it up),
# down again at exit if this test brought it up.
lo_up() {
	ip addr show lo 2>/dev/null | grep -q 'inet 127.0.0.1' && return 0
	ip link set lo up || fail "cannot bring lo up"
	on_exit ip link set lo down
}

# wait_for TIMEOUT_S CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
	_wf_n=$(($1 * 10))
	shift
	while [ $_wf_n -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		_wf_n=$((_wf_n - 1))
	done
	return 1
}

# ---- modules -------------------------------------------------------------

# mod_loaded NAME: true if module NAME is loaded.
mod_loaded() {
	grep -q "^$1 " /proc/modules
}

# osn_builtin: osn is built into this kernel (tests/intree/): its
# parameters are there with no module loaded.
osn_builtin() {
	[ -d "$OSN_PARAMS" ] && ! mod_loaded osn
}

# osn_load [PARAM=VAL...]: insmod osn.ko (skips the test if not built);
# unloaded again at exit.  Built in, osn is always there: the PARAMs are
# written to its knobs instead, and put back to the defaults at exit.
osn_load() {
	if osn_builtin; then
		osn_knobs_default
		on_exit osn_unload
		# insmod checks the knobs together once they are all set; one
		# at a time, runtime <= period must hold at every step: start
		# from the shortest runtime and retry what a later value allows.
		echo 100 >"$OSN_PARAMS/runtime_us"
		_later=
		for _kv in "$@"; do
			echo "${_kv#*=}" >"$OSN_PARAMS/${_kv%%=*}" 2>/dev/null ||
				_later="$_later $_kv"
		done
		for _kv in $_later; do
			echo "${_kv#*=}" >"$OSN_PARAMS/${_kv%%=*}" ||
				fail "osn (built in): cannot set $_kv"
		done
		case " $* " in
		*" runtime_us="*) ;;
		*) echo 1000000 >"$OSN_PARAMS/runtime_us" ;;
		esac
		return 0
	fi
	require_ko osn
	mod_loaded osn && fail "osn already loaded (a previous test leaked it)"
	insmod "$OSN_KO/osn.ko" "$@" || fail "insmod osn.ko $*"
	on_exit osn_unload
}

# osn_unload: rmmod osn if loaded; built in, stop what a test may have
# left running (the osn tracer at the top level) and reset the knobs.
osn_unload() {
	if osn_builtin; then
		[ "$(cat "$TFS/current_tracer" 2>/dev/null)" = osn ] &&
			echo nop >"$TFS/current_tracer"
		osn_knobs_default
		return 0
	fi
	mod_loaded osn || return 0
	rmmod osn
}

# inject_load: insmod osn_inject.ko (skips if not built); unloaded at exit.
inject_load() {
	require_ko osn_inject
	if ! mod_loaded osn_inject; then
		insmod "$OSN_KO/osn_inject.ko" || fail "insmod osn_inject.ko"
	fi
	on_exit inject_unload
}

# inject_unload: stop any injection and rmmod osn_inject if loaded.
inject_unload() {
	mod_loaded osn_inject || return 0
	echo stop >"$INJ/inject" 2>/dev/null
	rmmod osn_inject
}

# inject_status [FIELD]: the status line, or one FIELD of it (state, ctx,
# cpu, count, duration_us, interval_us, done, stolen_ns, max_ns, min_ns,
# ctx_ok, wrong_cpu, lost, pid, comm, runs, prio).
inject_status() {
	if [ -z "$1" ]; then
		cat "$INJ/status"
	else
		tr ' ' '\n' <"$INJ/status" | sed -n "s/^$1=//p"
	fi
}

# inject_idle: true when no injection is running.
inject_idle() {
	[ "$(inject_status state)" = idle ]
}

# inject_start CTX CPU COUNT DUR_US [INTERVAL_US]: start an injection run
# (asynchronous).  CTX: irq softirq thread ipi nmi (see osn_inject.c).
# INTERVAL_US defaults to max(DUR_US * 5, DUR_US + 1000).
inject_start() {
	_iv=${5:-$(($4 * 5))}
	[ "$_iv" -ge $(($4 + 1000)) ] || _iv=$(($4 + 1000))
	echo "ctx=$1 cpu=$2 count=$3 duration_us=$4 interval_us=$_iv" >"$INJ/inject" ||
		fail "inject ctx=$1 cpu=$2 count=$3 duration_us=$4 interval_us=$_iv rejected"
}

# inject_wait [TIMEOUT_S]: wait until the run is over (default 60 s).
inject_wait() {
	wait_for "${1:-60}" inject_idle || {
		echo stop >"$INJ/inject"
		fail "injection still running after ${1:-60}s: $(inject_status)"
	}
}

# inject CTX CPU COUNT DUR_US [INTERVAL_US]: inject and wait for the end;
# the wait is bounded by the run's nominal length * 4 + 30 s.
inject() {
	inject_start "$@"
	_iv=${5:-$(($4 * 5))}
	[ "$_iv" -ge $(($4 + 1000)) ] || _iv=$(($4 + 1000))
	inject_wait $(($3 * _iv * 4 / 1000000 + 30))
}

# hand_back FILE NAME: give FILE to the host, which has no other channel
# from the guest: gzip'ed and base64'ed on the console between
# "OSN-FILE-BEGIN NAME" and "OSN-FILE-END"; tests/vm/run-kernel.sh
# writes it to build/vm/<kernel>/files/NAME.  Keep it small (KBs).
hand_back() {
	echo "OSN-FILE-BEGIN $2"
	gzip -c "$1" | base64
	echo "OSN-FILE-END"
}

# ---- tracefs -------------------------------------------------------------

# new_instance NAME: create tracefs instance NAME and print its path.  Every
# instance a test creates is removed when it ends (before the on_exit
# commands), also when created in $(...).
new_instance() {
	_ni=$TFS/instances/$1
	[ -d "$_ni" ] && rm_instance "$1"
	mkdir "$_ni" || fail "cannot create tracefs instance $1"
	on_exit rm_instance "$1"
	echo "$_ni"
}

# rm_instance NAME: disable its events and tracing, remove the instance.
rm_instance() {
	_ri=$TFS/instances/$1
	[ -d "$_ri" ] || return 0
	echo 0 >"$_ri/tracing_on" 2>/dev/null
	echo 0 >"$_ri/events/enable" 2>/dev/null
	rmdir "$_ri"
}

# event_enable INSTANCE_PATH SYSTEM/EVENT [0|1]
event_enable() {
	echo "${3:-1}" >"$1/events/$2/enable" || fail "cannot enable $2 in $1"
}

# count_events INSTANCE_PATH EVENT [ERE]: number of EVENT lines (optionally
# also matching ERE) in the instance's trace buffer.  EVENT is the event
# name as printed ("irq_noise", "local_timer_entry", ...).
count_events() {
	if [ -n "$3" ]; then
		grep -E " $2: " "$1/trace" | grep -Ec -- "$3"
	else
		grep -Ec " $2: " "$1/trace"
	fi
}

# event_field LINE FIELD: value of FIELD=... in one printed event line.
event_field() {
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# dmesg_mark: remember the current end of the kernel log; dmesg_since
# prints what came after it.
dmesg_mark() {
	_osn_dmesg_mark=$(dmesg | wc -l)
}
dmesg_since() {
	dmesg | tail -n +$((${_osn_dmesg_mark:-0} + 1))
}

# ---- osn knobs and threads (engine) ----------------------------------------

# osn_knob NAME [VALUE]: print knob NAME, or write VALUE to it (fails the
# test if the write is rejected).
osn_knob() {
	if [ $# -ge 2 ]; then
		echo "$2" >"$OSN_PARAMS/$1" || fail "write '$2' to knob $1 rejected"
	else
		cat "$OSN_PARAMS/$1"
	fi
}

# osn_knobs_default: put every osn knob back to its default.
osn_knobs_default() {
	[ -d "$OSN_PARAMS" ] || return 0
	echo DEFAULTS >"$OSN_PARAMS/options"
	echo 0 >"$OSN_PARAMS/stop_tracing_us"
	echo 0 >"$OSN_PARAMS/stop_tracing_total_us"
	echo 0 >"$OSN_PARAMS/threshold_us"
	# runtime <= period at every step, from any starting point.
	echo 100 >"$OSN_PARAMS/runtime_us"
	echo 1000000 >"$OSN_PARAMS/period_us"
	echo 1000000 >"$OSN_PARAMS/runtime_us"
	echo all >"$OSN_PARAMS/cpus"
	echo 1000 >"$OSN_PARAMS/timerlat_period_us"
	echo 0 >"$OSN_PARAMS/print_stack"
	# mode is refused (-EBUSY) until the run has stopped, asynchronously.
	wait_for 10 sh -c "echo osnoise >$OSN_PARAMS/mode" 2>/dev/null
}

# osn_threads: the comms of the running osn workload threads, one a line.
osn_threads() {
	cat /proc/[0-9]*/comm 2>/dev/null | grep '^osn/' | sort
}

# osn_nthreads: number of running osn workload threads.
osn_nthreads() {
	osn_threads | grep -c .
}

# ---- unprivileged user (reliability) --------------------------------------

# as_nobody CMD...: run CMD (through sh -c) as uid/gid 65534 with no
# supplementary groups; its exit status is CMD's.  busybox setpriv has no
# --reuid, so this uses busybox su, adding a "nobody" passwd/group entry
# if the guest has none (removed again at exit).
as_nobody() {
	if ! grep -q '^nobody:' /etc/passwd; then
		echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
		on_exit sed -i '/^nobody:/d' /etc/passwd
	fi
	if ! grep -q '^nogroup:' /etc/group; then
		echo 'nogroup:x:65534:' >>/etc/group
		on_exit sed -i '/^nogroup:/d' /etc/group
	fi
	su -s /bin/sh nobody -c "$*"
}
