# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the benchmark (tests/bench/guest/NN-*.sh), sourced after
# tests/guest/lib.sh.  Not a benchmark itself (no NN- prefix).
#
# A benchmark never fails on a figure: it prints one result line per
# measurement on stdout,
#	OSN-BENCH fig=<figure> tracer=<osn|up|oslat|none|busy|rtla> rep=<n> key=value...
# which tests/bench/report.py aggregates on the host.  It exits non-zero
# only when the harness itself is broken (a setup step failed).
#
# Exactly one OS-noise user at a time: every measurement starts its tracer
# (osn through its events, upstream osnoise through a tracefs instance whose
# current_tracer is osnoise, or a tool), measures, and tears it down before
# the next one starts.  Within a repeat the tracers take turns; the order is
# rotated from one repeat to the next (A B, B A, ...) so that a drift of the
# emulator's speed hits both alike.
#
# Environment (from tests/bench/run.sh through OSN_VM_ENV):
#	BENCH_REPEATS  repeats of every measurement (5)
#	BENCH_QUICK=1  shorter windows (smoke test of the harness)

BENCH_REPEATS=${BENCH_REPEATS:-5}
BENCH_QUICK=${BENCH_QUICK:-0}
UPD=$TFS/osnoise
OSN=$OSN_BIN/osn
# The CPU every tracer measures, and the housekeeping CPU.
BCPU=1
HCPU=0
# The CPUs the tracers and tools measure: CPU 1 alone, or with BENCH_SCALE=1
# (`run.sh --scale`) every CPU but the housekeeping one, for the figures
# that say how osn grows with the CPU count (30-overhead, 40-toolcost,
# 50-footprint).  Per-CPU figures (the loop, attribution) stay on $BCPU.
# BCPU_LIST: the same CPUs, one a word.
BENCH_SCALE=${BENCH_SCALE:-0}
BCPUS=$BCPU
BCPU_LIST=$BCPU
if [ "$BENCH_SCALE" = 1 ]; then
	_b_n=$(grep -c '^processor' /proc/cpuinfo)
	if [ "$_b_n" -gt 2 ]; then
		BCPUS=1-$((_b_n - 1))
		BCPU_LIST=$(awk -v n="$_b_n" 'BEGIN { for (i = 1; i < n; i++) printf "%d ", i }')
	fi
fi
# buffer_size_kb of the instances tr_start creates (empty: the default)
BENCH_BUF_KB=4096

# The bench's own shell work (and everything it starts without choosing a
# CPU) stays on the housekeeping CPU, out of the measured one's way.
taskset -p -c $HCPU $$ >/dev/null 2>&1

# bench_kill_tools INSTANCE...: (at exit) kill the osn and rtla this
# script started, let `osn cleanup` undo what osn left, and remove the
# tools' tracefs INSTANCEs.
bench_kill_tools() {
	for _p in $(pidof osn rtla 2>/dev/null); do
		kill -KILL "$_p" 2>/dev/null
	done
	[ -x "$OSN" ] && "$OSN" cleanup >/dev/null 2>&1
	for _i in "$@"; do
		rm_instance "$_i"
	done
}

# bench_result FIG TRACER REP KEY=VALUE...: one result line.
bench_result() {
	_br_f=$1 _br_t=$2 _br_r=$3
	shift 3
	echo "OSN-BENCH fig=$_br_f tracer=$_br_t rep=$_br_r $*"
}

# sng_ops_s STRESSOR SECS LOG ARGS...: stress-ng ARGS on the housekeeping
# CPU for SECS s, its output in LOG; prints STRESSOR's bogo ops/s (real
# time), nothing if stress-ng gave no metrics.
sng_ops_s() {
	sng_ops_s_on $HCPU "$@"
}

# sng_ops_s_on CPU STRESSOR SECS LOG ARGS...: the same on CPU.
sng_ops_s_on() {
	_so_c=$1 _so_n=$2 _so_s=$3 _so_l=$4
	shift 4
	timeout $((_so_s * 4 + 30)) stress-ng "$@" --taskset "$_so_c" \
		--timeout "${_so_s}s" --metrics-brief >"$_so_l" 2>&1
	awk -v n="$_so_n" '{ for (i = 1; i < NF; i++)
		if ($i == n && $(i + 1) ~ /^[0-9]+$/) print $(NF - 1) }' "$_so_l" | head -n 1
}

# wakeups PID: its voluntary context switches (sleeps) so far
wakeups() {
	awk '/^voluntary_ctxt_switches:/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

# bench_order REP NAME...: the NAMEs rotated left by REP (A B C, B C A, ...).
bench_order() {
	_bo_r=$1
	shift
	_bo_n=$#
	[ "$_bo_n" -gt 0 ] || return 0
	_bo_k=$((_bo_r % _bo_n))
	_bo_i=0
	_bo_out=
	for _bo_x in "$@"; do
		[ $_bo_i -ge $_bo_k ] && _bo_out="$_bo_out $_bo_x"
		_bo_i=$((_bo_i + 1))
	done
	_bo_i=0
	for _bo_x in "$@"; do
		[ $_bo_i -lt $_bo_k ] && _bo_out="$_bo_out $_bo_x"
		_bo_i=$((_bo_i + 1))
	done
	echo $_bo_out
}

# bench_seq N: 1 .. N
bench_seq() {
	_bs_i=1
	while [ $_bs_i -le "$1" ]; do
		echo $_bs_i
		_bs_i=$((_bs_i + 1))
	done
}

# up_have: the kernel carries upstream osnoise.
up_have() {
	[ -d "$UPD" ] && grep -qw osnoise "$TFS/available_tracers" 2>/dev/null
}

# osn_have: osn.ko is built for this kernel.
osn_have() {
	[ -e "$OSN_KO/osn.ko" ]
}

# bench_tracers: the tracers available on this kernel ("osn up", "osn", ...).
bench_tracers() {
	_bt_l=
	osn_have && _bt_l="$_bt_l osn"
	up_have && _bt_l="$_bt_l up"
	echo $_bt_l
}

# bench_setup: load osn.ko and the injector (both stay loaded for the whole
# script, also while upstream measures), remember upstream's knobs.
bench_setup() {
	require_cpus 2
	bench_unleak
	if osn_have; then
		osn_load
		on_exit osn_knobs_default
	fi
	if up_have; then
		up_save
	fi
	[ -n "$(bench_tracers)" ] || skip "neither osn.ko nor upstream osnoise on $OSN_KVER"
}

# bench_unleak: a previous script killed by its time limit may have left
# osn loaded, instances behind or the injector running: clean up.
bench_unleak() {
	for _bu_i in "$TFS"/instances/bench_* "$TFS"/instances/osn_* "$TFS"/instances/osnoise_*; do
		[ -d "$_bu_i" ] || continue
		info "removing leftover instance $_bu_i"
		echo 0 >"$_bu_i/tracing_on"
		echo nop >"$_bu_i/current_tracer"
		for _bu_t in "$_bu_i"/events/*/sample_threshold/trigger; do
			grep -v '^#' "$_bu_t" 2>/dev/null | sed 's/ .*//; s/^/!/' |
				while read -r _bu_l; do echo "$_bu_l" >"$_bu_t"; done
		done 2>/dev/null
		echo 0 >"$_bu_i/events/enable"
		rmdir "$_bu_i"
	done
	[ -w "$INJ/inject" ] && echo stop >"$INJ/inject"
	if mod_loaded osn; then
		info "osn left loaded by a previous script: unloading"
		echo 0 >"$TFS/events/osn/enable"
		bwait 20 osnb_no_threads
		rmmod osn || fail "cannot unload the leftover osn"
	fi
	return 0
}

# set_pr DIR PERIOD_US RUNTIME_US: write a period/runtime pair whatever the
# current pair is (both tracers reject runtime > period at each write).
set_pr() {
	echo "$2" >"$1/period_us" 2>/dev/null
	echo "$3" >"$1/runtime_us" || fail "runtime_us=$3 rejected in $1"
	echo "$2" >"$1/period_us" || fail "period_us=$2 rejected in $1"
}

# bwait SECONDS CMD...: poll CMD every 0.1 s until it succeeds, for at most
# SECONDS of (guest) time; unlike wait_for, the limit does not stretch when
# the emulator is slow.
bwait() {
	_bw_end=$(($(awk '{ printf "%d", $1 * 10 }' /proc/uptime) + $1 * 10))
	shift
	while :; do
		"$@" && return 0
		[ "$(awk '{ printf "%d", $1 * 10 }' /proc/uptime)" -lt $_bw_end ] || return 1
		sleep 0.1
	done
}

# comm_running ERE: a task whose comm matches ERE exists.
comm_running() {
	cat /proc/[0-9]*/comm 2>/dev/null | grep -Eq "$1"
}

# bench_instance NAME TEARDOWN: a new tracefs instance NAME, tracing off,
# $BENCH_BUF_KB per CPU, removed at exit by `TEARDOWN NAME` (a leftover of
# that name first); sets BI to its path.  Not in $(...): it registers its
# cleanup and may fail the script.
bench_instance() {
	BI=$TFS/instances/$1
	[ -d "$BI" ] && "$2" "$1"
	mkdir "$BI" || fail "mkdir instance $1"
	on_exit "$2" "$1"
	echo 0 >"$BI/tracing_on"
	[ -z "$BENCH_BUF_KB" ] || echo "$BENCH_BUF_KB" >"$BI/buffer_size_kb"
}

# ---- upstream osnoise (tracefs) ----------------------------------------------

UP_KNOBS="cpus period_us runtime_us stop_tracing_us stop_tracing_total_us"

up_save() {
	_up_saved=
	for _us_k in $UP_KNOBS; do
		_up_saved="$_up_saved $_us_k=$(cat "$UPD/$_us_k")"
	done
	_up_thresh=$(cat "$TFS/tracing_thresh")
	on_exit up_restore
}

up_restore() {
	for _ur_kv in $_up_saved; do
		case $_ur_kv in
		period_us=*|runtime_us=*) ;;
		*) echo "${_ur_kv#*=}" >"$UPD/${_ur_kv%%=*}" ;;
		esac
	done
	_ur_p=$(echo "$_up_saved" | tr ' ' '\n' | sed -n 's/^period_us=//p')
	_ur_r=$(echo "$_up_saved" | tr ' ' '\n' | sed -n 's/^runtime_us=//p')
	set_pr "$UPD" "$_ur_p" "$_ur_r"
	echo "$_up_thresh" >"$TFS/tracing_thresh"
	echo DEFAULTS >"$UPD/options" 2>/dev/null
	return 0
}

# up_start NAME PERIOD_US RUNTIME_US THRESH_US [EVENT...]: upstream osnoise
# on CPUs $BCPUS in instance NAME (tracer osnoise, the osnoise:EVENTs
# enabled); sets BI to the instance path.  Not in $(...): it registers
# its cleanup and may fail the script.
up_start() {
	_us_n=$1 _us_p=$2 _us_r=$3 _us_t=$4
	shift 4
	echo $BCPUS >"$UPD/cpus" || fail "osnoise/cpus"
	set_pr "$UPD" "$_us_p" "$_us_r"
	echo "$_us_t" >"$TFS/tracing_thresh" || fail "tracing_thresh=$_us_t"
	bench_instance "$_us_n" up_teardown
	_us_d=$BI
	for _us_e in "$@"; do
		echo 1 >"$_us_d/events/osnoise/$_us_e/enable" || fail "enable osnoise/$_us_e"
	done
	echo osnoise >"$_us_d/current_tracer" || fail "current_tracer=osnoise"
	echo 1 >"$_us_d/tracing_on"
	bwait 20 comm_running "^osnoise/$BCPU\$" || fail "no osnoise/$BCPU thread"
	BI=$_us_d
}

# up_stop NAME: stop recording (and the osnoise threads); the buffer stays.
up_stop() {
	_us_d=$TFS/instances/$1
	echo 0 >"$_us_d/tracing_on"
	bwait 20 up_no_threads || info "osnoise threads still running"
}
up_no_threads() {
	! comm_running '^osnoise/'
}

# up_teardown NAME: tracer nop, events off, instance removed.
up_teardown() {
	_ut_d=$TFS/instances/$1
	[ -d "$_ut_d" ] || return 0
	echo 0 >"$_ut_d/tracing_on"
	echo nop >"$_ut_d/current_tracer"
	echo 0 >"$_ut_d/events/enable"
	rmdir "$_ut_d"
}

# ---- osn (module events) -------------------------------------------------------

# osnb_start NAME PERIOD_US RUNTIME_US THRESH_US EVENT...: osn on CPUs
# $BCPUS, the osn:EVENTs enabled in instance NAME; sets BI to its path.
osnb_start() {
	_os_n=$1 _os_p=$2 _os_r=$3 _os_t=$4
	shift 4
	echo $BCPUS >"$OSN_PARAMS/cpus" || fail "osn cpus"
	set_pr "$OSN_PARAMS" "$_os_p" "$_os_r"
	echo "$_os_t" >"$OSN_PARAMS/threshold_us" || fail "osn threshold_us=$_os_t"
	bench_instance "$_os_n" rm_instance
	_os_d=$BI
	for _os_e in "$@"; do
		echo 1 >"$_os_d/events/osn/$_os_e/enable" || fail "enable osn/$_os_e"
	done
	echo 1 >"$_os_d/tracing_on"
	bwait 20 comm_running "^osn/$BCPU\$" || fail "no osn/$BCPU thread"
	BI=$_os_d
}

# osnb_stop NAME: stop recording, disable the events (stops the workload).
osnb_stop() {
	_os_d=$TFS/instances/$1
	echo 0 >"$_os_d/tracing_on"
	echo 0 >"$_os_d/events/enable"
	bwait 20 osnb_no_threads || info "osn threads still running"
}
osnb_no_threads() {
	! comm_running '^osn/'
}

# osnb_teardown NAME
osnb_teardown() {
	rm_instance "$1"
}

# ---- parsing ---------------------------------------------------------------------

# ev_durations FILE EVENT ERE: "duration N ns" of the EVENT lines matching ERE.
ev_durations() {
	grep -E " $2: " "$1" | grep -E -- "$3" |
		sed -n 's/.* duration \([0-9]*\) ns.*/\1/p'
}

# up_summaries FILE: upstream's per-period lines of CPU $BCPU as
# "runtime_us noise_us avail max_us hw nmi irq sirq thread" (the task
# column may read <...>: recognised by the CPU and the 9 numbers).
up_summaries() {
	grep -v '^#' "$1" | grep -E "\[0*$BCPU\] " | grep -v ': [a-z_]*: ' |
		sed 's/.*[0-9]: *//' | awk 'NF == 9 && $1 ~ /^[0-9]+$/'
}

# osn_samples FILE: the osn:sample lines of CPU $BCPU, fields as "key value".
osn_samples() {
	grep -E " sample: runtime " "$1" | sed 's/.* sample: //'
}

# kv LINE KEY: value after KEY in "key value key value..."
kv() {
	echo "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }'
}

# mem_settle: drop the caches and wait (up to 10 s) until MemFree
# holds still (two reads 0.5 s apart within 256 kB): instances removed just
# before free their ring buffers asynchronously.
mem_settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
	_ms_n=0
	_ms_a=$(meminfo MemFree)
	while [ $_ms_n -lt 20 ]; do
		sleep 0.5
		_ms_b=$(meminfo MemFree)
		_ms_d=$((_ms_b - _ms_a))
		[ ${_ms_d#-} -lt 256 ] && return 0
		_ms_a=$_ms_b
		_ms_n=$((_ms_n + 1))
	done
	return 0
}

# meminfo FIELD: value (kB) of a /proc/meminfo field.
meminfo() {
	awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo
}

# cputime_file FILE: "user+sys" in ms from a `time -p` output file.
cputime_ms() {
	awk '$1 == "user" { u = $2 } $1 == "sys" { s = $2 }
	     END { printf "%d\n", (u + s) * 1000 + 0.5 }' "$1"
}

# ---- either tracer -----------------------------------------------------------

# tr_start osn|up NAME PERIOD_US RUNTIME_US THRESH_US EVENT...: start one
# tracer on CPUs $BCPUS (EVENT names without system; "sample" is osn's
# per-period event, upstream's per-period summary is the tracer's own
# output and always on).  Sets BI.
tr_start() {
	_ts_w=$1
	shift
	case $_ts_w in
	osn)	osnb_start "$@" ;;
	up)	_ts_a="$1 $2 $3 $4"
		shift 4
		_ts_ev=
		for _ts_e in "$@"; do
			[ "$_ts_e" = sample ] || _ts_ev="$_ts_ev $_ts_e"
		done
		# shellcheck disable=SC2086
		up_start $_ts_a $_ts_ev ;;
	*)	fail "unknown tracer $_ts_w" ;;
	esac
}

# tr_stop osn|up NAME: stop recording and the workload; the buffer stays.
tr_stop() {
	case $1 in
	osn)	osnb_stop "$2" ;;
	up)	up_stop "$2" ;;
	esac
}

# tr_teardown osn|up NAME: remove the instance.
tr_teardown() {
	case $1 in
	osn)	osnb_teardown "$2" ;;
	up)	up_teardown "$2" ;;
	esac
}
