# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the reliability tests (tests/guest/reliability/NN-*.sh and
# tests/guest-long/NN-*.sh), sourced after ../lib.sh.  Not a test itself.
#
# Conventions:
#  - the attacked CPU is CPU 1 (REL_CPU); CPU 0 keeps the shell responsive,
#    so the workload runs with a short duty cycle (REL_PERIOD/REL_RUNTIME);
#  - every figure the lead may quote is printed on a line starting with
#    "FIGURES: " (grep the console log for it);
#  - iteration counts come from REL_* variables with quick defaults; the
#    long suite (tests/guest-long/) runs the same scripts with bigger ones.
#  - the hot loops avoid forks (TCG makes each fork cost 10-100 ms): thread
#    scans and knob reads use the shell's read builtin.

REL_CPU=1
REL_PERIOD=100000
REL_RUNTIME=20000
REL_HOTPLUG=/sys/devices/system/cpu/cpu$REL_CPU/online
REL_NL='
'

# rel_elapsed: seconds since the test sourced rel.sh.
read -r _rel_t0 _ </proc/uptime
rel_elapsed() {
	read -r _rel_t1 _ </proc/uptime
	echo $((${_rel_t1%.*} - ${_rel_t0%.*}))
}

# rel_wait_s TIMEOUT_S CMD...: poll CMD every 0.5 s until it succeeds or
# TIMEOUT_S seconds of wall time passed (lib.sh's wait_for counts polls,
# which stretch when the guest is loaded).
rel_wait_s() {
	read -r _ws_t _ </proc/uptime
	_ws_end=$((${_ws_t%.*} + $1))
	shift
	while :; do
		"$@" && return 0
		read -r _ws_t _ </proc/uptime
		[ "${_ws_t%.*}" -ge "$_ws_end" ] && return 1
		sleep 0.5
	done
}

# figures MSG: one line of figures for the report.
figures() {
	echo "FIGURES: $*"
}

# rel_setup [INSMOD PARAMS...]: load osn; at exit put back the knobs, CPU 1
# online and the top-level tracing_on (osn's stop conditions clear it).
rel_setup() {
	osn_load "$@"
	# The test and its children stay off the measured CPU (as rtla does).
	taskset -p 1 $$ >/dev/null 2>&1
	read -r _rel_ton <"$TFS/tracing_on"
	on_exit "echo $_rel_ton >$TFS/tracing_on"
	on_exit osn_knobs_default
	on_exit rel_cpu_online 1
}

# rel_knobs_measure [CPUS]: the reliability workload: CPUS (default CPU 1),
# REL_PERIOD/REL_RUNTIME, threshold 1 us (the default).
rel_knobs_measure() {
	osn_knob runtime_us 100
	osn_knob period_us $REL_PERIOD
	osn_knob runtime_us $REL_RUNTIME
	osn_knob threshold_us 0
	osn_knob cpus "${1:-$REL_CPU}"
}

# rel_instance NAME [BUFFER_KB] EVENT...: a new instance (removed at exit)
# with tracing on and the osn EVENTs (names without osn/) enabled; its path
# is left in REL_INST.  Not to be called as $(...): the cleanup registered
# in a subshell would be lost.
rel_instance() {
	new_instance "$1" >/dev/null
	_rin=$TFS/instances/$1
	REL_INST=$_rin
	shift
	_rkb=1024
	case $1 in [0-9]*) _rkb=$1; shift ;; esac
	echo "$_rkb" >"$_rin/buffer_size_kb" || fail "buffer_size_kb=$_rkb in $_rin"
	echo 1 >"$_rin/tracing_on"
	for _ev in "$@"; do
		echo 1 >"$_rin/events/osn/$_ev/enable" || fail "enable osn/$_ev in $_rin"
	done
}

# rel_cpu_online CPU_STATE: put CPU 1 online (1) or offline (0); no-op if
# it already is.  Returns the write's status.
rel_cpu_online() {
	[ -e "$REL_HOTPLUG" ] || return 1
	read -r _rco <"$REL_HOTPLUG"
	[ "$_rco" = "$1" ] && return 0
	echo "$1" >"$REL_HOTPLUG"
}

# require_hotplug: skip unless CPU 1 can go offline.
require_hotplug() {
	require_cpus 2
	[ -w "$REL_HOTPLUG" ] || skip "cpu$REL_CPU has no online file (not hotpluggable)"
}

# ---- workload threads, fork-free ------------------------------------------

# rel_scan: REL_THREADS = "comm=pid ..." of every osn/ thread (in /proc
# order) and REL_NTHREADS = how many.  No fork.
rel_scan() {
	REL_THREADS=
	REL_NTHREADS=0
	for _d in /proc/[0-9]*; do
		read -r _c 2>/dev/null <"$_d/comm" || continue
		case $_c in
		osn/*)
			REL_THREADS="$REL_THREADS $_c=${_d#/proc/}"
			REL_NTHREADS=$((REL_NTHREADS + 1))
			;;
		esac
	done
}

# rel_same_thread "COMM=PID ...": true if each task PID still runs as COMM
# (one read each).
rel_same_thread() {
	for _st in $*; do
		read -r _c 2>/dev/null <"/proc/${_st#*=}/comm" || return 1
		[ "$_c" = "${_st%%=*}" ] || return 1
	done
}

# rel_threads_are "osn/0 osn/1 ...": true if exactly these osn threads run
# (each once; "" = none).
rel_threads_are() {
	rel_scan
	_n=0
	for _w in $1; do
		_n=$((_n + 1))
		case "$REL_THREADS " in
		*" $_w="*" $_w="*) return 1 ;;	# duplicate
		*" $_w="*) ;;
		*) return 1 ;;
		esac
	done
	[ "$REL_NTHREADS" = "$_n" ]
}

# rel_wait_threads "LIST" [TIMEOUT_S]: wait (default 15 s) until exactly
# the threads of LIST run; fail otherwise.
rel_wait_threads() {
	wait_for "${2:-15}" rel_threads_are "$1" ||
		fail "expected osn threads '$1', have '$REL_THREADS'"
}

# rel_wait_stable LIST: the osn threads are LIST and stay the same tasks
# for half a second (restarts are asynchronous); REL_THREADS has them.
rel_wait_stable() {
	_ws=0
	while [ $_ws -lt 20 ]; do
		rel_wait_threads "$1"
		_s1=$REL_THREADS
		sleep 0.5
		rel_threads_are "$1" && [ "$REL_THREADS" = "$_s1" ] && return 0
		_ws=$((_ws + 1))
	done
	fail "osn threads never settled to '$1': '$REL_THREADS'"
}

# rel_gone COMM=PID...: true if none of these tasks runs any more.
rel_gone() {
	for _t in $*; do
		rel_same_thread "$_t" && return 1
	done
	return 0
}

# rel_wait_restart LIST OLD: after a write that restarts the workload: the
# threads of OLD ("comm=pid ..." as scanned before the write) end, then
# LIST settles.
rel_wait_restart() {
	# shellcheck disable=SC2086
	wait_for 20 rel_gone $2 ||
		fail "workload not restarted: still '$2'"
	rel_wait_stable "$1"
}

# rel_wait_no_threads [TIMEOUT_S]: no osn/ thread left (after a stop).
rel_wait_no_threads() {
	rel_wait_threads "" "${1:-15}"
}

# ---- events ----------------------------------------------------------------

# rel_count INSTANCE EVENT: EVENT lines in the instance's buffer (reads
# the whole buffer: slow under TCG, use it once at the end of a test).
rel_count() {
	grep -c " $2: " "$1/trace"
}

# rel_stats FILE: REL_ENTRIES, REL_OVERRUN, REL_READ of one per-CPU stats
# file.  The file is copied with one read() first: tracefs builds its text
# anew on every read(), and the shell's read builtin takes a byte at a
# time, so a count that grows a digit while it reads shifts the text under
# it and garbles a line (forky-rt: an empty "overrun").
rel_stats() {
	REL_ENTRIES='' REL_OVERRUN='' REL_READ=''
	_st=$(cat "$1") || return 1
	while read -r _a _b _c; do
		case "$_a $_b" in
		"entries: "*) REL_ENTRIES=$_b ;;
		"overrun: "*) REL_OVERRUN=$_b ;;
		"read events:") REL_READ=$_c ;;
		esac
	done <<EOS
$_st
EOS
	[ -n "$REL_ENTRIES" ] && [ -n "$REL_OVERRUN" ] && [ -n "$REL_READ" ] ||
		fail "$1: no entries/overrun/read events in: $_st"
}

# rel_total INSTANCE [CPU]: REL_TOTAL = events ever written to the
# instance's buffer of CPU (default: all CPUs): entries + overrun + read.
# With only osn/sample enabled: periods reported so far.
rel_total() {
	REL_TOTAL=0
	for _s in "$1"/per_cpu/cpu${2:-*}/stats; do
		rel_stats "$_s"
		REL_TOTAL=$((REL_TOTAL + REL_ENTRIES + REL_OVERRUN + REL_READ))
	done
}

# rel_flowing INSTANCE [N] [TIMEOUT_S] [CPU]: at least N (default 2) new
# events reach the instance (CPU's buffer, default any) within TIMEOUT_S
# (default 15) s.
rel_flowing() {
	rel_total "$1" "$4"
	_rf_want=$((REL_TOTAL + ${2:-2}))
	wait_for "${3:-15}" rel_total_ge "$1" "$_rf_want" "$4"
}
rel_total_ge() {
	rel_total "$1" "$3"
	[ "$REL_TOTAL" -ge "$2" ]
}

# rel_assert_flowing INSTANCE [WHAT]: fail unless events flow.
rel_assert_flowing() {
	rel_flowing "$1" || fail "${2:-osn}: no new events in $1 (threads: '$REL_THREADS')"
}

# rel_module_works: after a fault: a fresh instance with osn/sample enabled
# gets the workload threads of the current cpus knob and sample events,
# and disabling it stops every thread again.
rel_module_works() {
	rel_instance rel_check 1024 sample
	_rmw=$REL_INST
	_rmw_cpus=$(osn_knob cpus)
	_want=
	case $_rmw_cpus in
	0) _want=osn/0 ;;
	1) _want=osn/1 ;;
	0-1) _want="osn/0 osn/1" ;;
	esac
	[ -n "$_want" ] && rel_wait_threads "$_want"
	rel_flowing "$_rmw" 2 20 || fail "module check: no sample events after re-enable (cpus=$_rmw_cpus)"
	echo 0 >"$_rmw/events/osn/enable"
	rel_wait_no_threads
	rm_instance rel_check
}

# rel_any_osn_enabled: true if an osn event is enabled anywhere.
rel_any_osn_enabled() {
	read -r _e <"$TFS/events/osn/enable"
	[ "$_e" != 0 ] && return 0
	for _d in "$TFS"/instances/*; do
		[ -e "$_d/events/osn/enable" ] || continue
		read -r _e <"$_d/events/osn/enable"
		[ "$_e" != 0 ] && return 0
	done
	return 1
}

# ---- memory ----------------------------------------------------------------

# rel_meminfo: REL_MEMAVAIL, REL_SLAB, REL_SUNRECL (kB) from /proc/meminfo.
rel_meminfo() {
	while read -r _k _v _u; do
		case $_k in
		MemAvailable:) REL_MEMAVAIL=$_v ;;
		Slab:) REL_SLAB=$_v ;;
		SUnreclaim:) REL_SUNRECL=$_v ;;
		esac
	done </proc/meminfo
}

# rel_settle_mem: drop caches and let RCU-freed objects go before a reading.
rel_settle_mem() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 2
	echo 3 >/proc/sys/vm/drop_caches
}

# ---- ground truth: which injections did osn explain -------------------------

# rel_truth_enable INSTANCE: record one timer:hrtimer_expire_entry event per
# injection of osn_inject's hrtimer (irq and softirq contexts) in
# INSTANCE, filtered in the kernel on the callback's address.  Also puts the
# instance on the "local" trace clock, the clock of osn's start fields.
rel_truth_enable() {
	_fn=$(awk '$3 == "inj_timer_fn" { print $1; exit }' /proc/kallsyms)
	[ -n "$_fn" ] && [ "$_fn" != 0000000000000000 ] ||
		fail "inj_timer_fn not in /proc/kallsyms"
	echo local >"$1/trace_clock" || fail "trace_clock local"
	echo "function == 0x$_fn" >"$1/events/timer/hrtimer_expire_entry/filter" ||
		fail "filter on hrtimer_expire_entry"
	echo 1 >"$1/events/timer/hrtimer_expire_entry/enable" || fail "enable hrtimer_expire_entry"
}

# rel_attrib FILE CPU MIN_NS [EVENT] [PREFIX]: from a saved trace,
# REL_SEEN = injections on CPU (hrtimer_expire_entry lines) and
# REL_MATCHED = how many of them fall inside an EVENT (default irq_noise)
# event of >= MIN_NS on that CPU whose text after "EVENT: " starts with
# PREFIX (e.g. "HRTIMER:" or "ktimers/1:").  Timestamps have us resolution:
# 2 us of slack.  Events of one class do not nest on a CPU and are written
# at the end of the noise, so an injection is settled by the first EVENT
# whose interval ends after it.
rel_attrib() {
	set -- $(awk -v cpu="[$(printf '%03d' "$2")]" -v min="$3" -v ev=" ${4:-irq_noise}: " \
		-v pfx="${5:-}" '
		function ts(   i) {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9]+\.[0-9]+:$/)
					return substr($i, 1, length($i) - 1) + 0
			return -1
		}
		index($0, cpu) == 0 { next }
		/ hrtimer_expire_entry: / { p[np++] = ts(); seen++; next }
		index($0, ev) {
			rest = substr($0, index($0, ev) + length(ev))
			sub(/^ +/, "", rest)
			if (pfx != "" && index(rest, pfx) != 1) next
			s = -1; d = -1
			for (i = 1; i < NF; i++) {
				if ($i == "start") s = $(i + 1) + 0
				if ($i == "duration") d = $(i + 1) + 0
			}
			if (s < 0 || d < min) next
			e = s + d / 1e9
			k = 0
			for (j = 0; j < np; j++) {
				if (p[j] >= s - 0.000002 && p[j] <= e + 0.000002)
					matched++
				else if (p[j] > e + 0.000002)
					q[k++] = p[j]
			}
			np = k
			for (j = 0; j < k; j++) p[j] = q[j]
		}
		END { printf "%d %d\n", seen, matched }' "$1")
	REL_SEEN=$1
	REL_MATCHED=$2
}
