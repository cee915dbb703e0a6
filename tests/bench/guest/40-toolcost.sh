#!/bin/sh
# timeout: 900
# Tool cost: CPU time of `osn top|hist` and `rtla osnoise top|hist`, both
# pinned to CPU 0, measuring CPU 1 (with BENCH_SCALE=1 every CPU but 0;
# period = runtime = 1 s).  One run of
# each tool and command, started with a 50 us threshold:
#   startup_ms  CPU time until its instance exists and the workload thread
#               runs (parsing tracefs, saving and setting knobs),
#   low         then $SECS s with nothing injected (a few noise samples a
#               second): run_pct = CPU time in % of one CPU (utime + stime
#               from /proc/PID/stat), how often it wakes up (voluntary
#               context switches per second), and its memory: RSS (anonymous,
#               file-backed) and MemFree's drop since just before the
#               start (its tracefs instance included),
#   high        then the threshold knob is lowered to 1 us behind the tool's
#               back (tracing_thresh / osn threshold_us; the tool restores
#               its saved knobs at exit anyway) and 5 us hard-IRQ stalls are
#               injected on CPU 1 every 150 us (as fast as the emulated
#               timer manages): run_pct over another $SECS s,
# and the events it says it lost at the end ("N events lost" / "missed").
# The run ends with SIGINT; cpu_ms is the whole run (`time -p`), stop_ms
# the CPU time from the end of the last window to the exit (the
# tool's teardown: its last read, the instance removed, the knobs put
# back).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
inject_load
bench_setup

SECS=4
[ "$BENCH_QUICK" = 1 ] && SECS=2
# fewer repeats than the other figures: each run pays the tools' start-up
REPS=${BENCH_TOOL_REPEATS:-3}
[ "$REPS" -le "$BENCH_REPEATS" ] || REPS=$BENCH_REPEATS
HZ_TCK=100	# USER_HZ

tools=
[ -x "$OSN" ] && osn_have && tools="$tools osn"
command -v rtla >/dev/null && up_have && tools="$tools rtla"
[ -n "$tools" ] || skip "neither osn nor rtla can run here"

on_exit bench_kill_tools osn_top osn_hist osn_trace osnoise_top osnoise_hist
on_exit 'echo stop >"$INJ/inject"'

ticks() {	# PID -> utime + stime in clock ticks
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null
}
uptime_cs() {
	awk '{ printf "%d\n", $1 * 100 }' /proc/uptime
}
collecting() {	# INSTANCE THREAD_ERE
	[ -d "$TFS/instances/$1" ] && comm_running "$2"
}
pct() {	# TICKS CENTISECONDS -> % of one CPU
	awk -v c="$1" -v t="$2" -v hz=$HZ_TCK 'BEGIN { printf "%.2f", (t > 0 ? 100 * c / hz / (t / 100) : 0) }'
}
set_threshold() {	# TOOL US
	case $1 in
	osn)	echo "$2" >"$OSN_PARAMS/threshold_us" ;;
	rtla)	echo "$2" >"$TFS/tracing_thresh" ;;
	esac
}

run_tool() {	# TOOL CMD REP
	r_tool=$1 r_cmd=$2 r_rep=$3
	case $r_tool in
	osn)	set -- "$OSN" "$r_cmd" -c $BCPUS -p 1000000 -r 1000000 -T 50 -d 1h
		r_inst=osn_$r_cmd r_thr="^osn/$BCPU\$" ;;
	rtla)	set -- rtla osnoise "$r_cmd" -c $BCPUS -p 1000000 -r 1000000 -T 50 -d 1h
		r_inst=osnoise_$r_cmd r_thr="^osnoise/$BCPU\$" ;;
	esac
	[ "$r_cmd" = top ] && set -- "$@" -q
	mem_settle
	r_free0=$(meminfo MemFree)
	busybox time -p -o /tmp/bench_time taskset -c $HCPU "$@" >/tmp/bench_tool 2>&1 &
	r_tpid=$!
	r_pid=
	bwait 20 pidof "$r_tool" >/dev/null && r_pid=$(pidof "$r_tool" | awk '{ print $1 }')
	r_ok=0
	if [ -n "$r_pid" ] && bwait $((60 * ${OSN_TIMEOUT_SCALE:-1})) collecting "$r_inst" "$r_thr"; then
		sleep 0.5
		r_c0=$(ticks "$r_pid") r_t0=$(uptime_cs) r_w0=$(wakeups "$r_pid")
		sleep $SECS
		r_c1=$(ticks "$r_pid") r_t1=$(uptime_cs) r_w1=$(wakeups "$r_pid")
		r_mem="used_kb=$((r_free0 - $(meminfo MemFree))) $(awk '
			/^(VmRSS|RssAnon|RssFile):/ { printf "%s=%s ", $1, $2 }' /proc/$r_pid/status 2>/dev/null |
			sed 's/VmRSS:=/rss_kb=/; s/RssAnon:=/anon_kb=/; s/RssFile:=/file_kb=/')"
		[ "$r_rep" = 1 ] &&
			info "$r_tool $r_cmd: largest mappings (Rss kB): $(awk '
				/^[0-9a-f]+-[0-9a-f]+ / { name = NF >= 6 ? $6 : "[anon]" }
				/^Rss:/ { if ($2 > 0) print $2, name }' /proc/$r_pid/smaps 2>/dev/null |
				sort -rn | head -n 5 | tr '\n' ',')"
		# high rate: threshold 1 us, up to 100000 x 5 us injected 150 us apart
		set_threshold "$r_tool" 1
		inject_start irq $BCPU 100000 5 150
		sleep 0.5
		r_c2=$(ticks "$r_pid") r_t2=$(uptime_cs) r_i2=$(inject_status "done")
		sleep $SECS
		r_c3=$(ticks "$r_pid") r_t3=$(uptime_cs) r_i3=$(inject_status "done")
		[ -n "$r_c0" ] && [ -n "$r_c3" ] && r_ok=1
	fi
	[ -n "$r_pid" ] && kill -INT "$r_pid" 2>/dev/null
	r_n=0
	while kill -0 $r_tpid 2>/dev/null && [ $r_n -lt 300 ]; do
		sleep 0.1
		r_n=$((r_n + 1))
	done
	kill -0 $r_tpid 2>/dev/null && { info "$r_tool $r_cmd did not stop on SIGINT"; kill -KILL "$r_pid"; }
	wait $r_tpid
	r_rc=$?
	echo stop >"$INJ/inject"
	inject_wait 30
	r_cpu=$(cputime_ms /tmp/bench_time)
	r_lost=$(sed 's/\x1b\[[0-9;]*m//g' /tmp/bench_tool | grep -Eio '[0-9]+ (events )?(lost|missed)' |
		awk '{ s += $1 } END { print s + 0 }')
	if [ $r_ok = 0 ] || [ "$r_rep" = 1 ]; then
		info "$r_tool $r_cmd: rc=$r_rc cpu=${r_cpu}ms ticks $r_c0 $r_c1 $r_c2 $r_c3 at $r_t0 $r_t1 $r_t2 $r_t3 cs"
		sed 's/\x1b\[[0-9;]*m//g' /tmp/bench_tool | grep -v '^ *$' | tail -n 8 | sed 's/^/#   /'
	fi
	[ $r_ok = 1 ] || return 0
	bench_result "tool_${r_cmd}_low" "$r_tool" "$r_rep" \
		"startup_ms=$((r_c0 * 1000 / HZ_TCK)) run_pct=$(pct $((r_c1 - r_c0)) $((r_t1 - r_t0))) cpu_ms=$r_cpu rc=$r_rc wakeups_s=$(( (r_w1 - r_w0) * 100 / (r_t1 - r_t0 + 1) ))"
	bench_result "tool_${r_cmd}_high" "$r_tool" "$r_rep" \
		"run_pct=$(pct $((r_c3 - r_c2)) $((r_t3 - r_t2))) lost=$r_lost rc=$r_rc inj_per_s=$(( (r_i3 - r_i2) * 100 / (r_t3 - r_t2 + 1) )) stop_ms=$((r_cpu - r_c3 * 1000 / HZ_TCK))"
	bench_result "mem_tool_$r_cmd" "$r_tool" "$r_rep" "$r_mem"
}

info "tools: $tools, repeats: $REPS, ${SECS}s collecting at each rate"
for rep in $(bench_seq "$REPS"); do
	for cmd in top hist; do
		for tool in $(bench_order $((rep - 1)) $tools); do
			run_tool "$tool" "$cmd" "$rep"
		done
	done
done
exit 0
