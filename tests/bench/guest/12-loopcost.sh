#!/bin/sh
# timeout: 400
# What one iteration of upstream's loop costs, in the same boot as osn's.
# Upstream exports no loop count, so both loops are counted the same way:
# each iteration of either calls kthread_should_stop() once (the
# `while (total < runtime && !kthread_should_stop())` that ends it), and
# the function tracer, filtered to that function on CPU 1 alone, counts
# the calls in the top-level buffer's per-CPU stats (entries + overrun),
# with no kprobe.  The hook costs time in every iteration; osn's own loop
# count (osn:sample loops) with and without the hook gives that cost, and
# it is taken off upstream's hooked figure:
#   osn  unhooked    (runtime - noise) / loops, no hook
#        hooked      the same with the hook on
#        hooked_win  the window's loop time / hook hits: the way upstream
#                    is measured, checked here against `hooked`
#        hook_ns     hooked_win - unhooked;  hits_per_loop  hook hits / loops
#   up   hooked_win  as osn's;  est  hooked_win - osn's hook_ns (same
#                    repeat): osn's loop cost plus the difference of the
#                    two hooked loops, both measured the same way
# The window's loop time is its length times the share of CPU available
# that the tracer's own per-period summaries report (period = runtime).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
bench_setup

[ -w "$TFS/set_ftrace_filter" ] || skip "no function tracer in $OSN_KVER"
grep -qw function "$TFS/available_tracers" || skip "no function tracer in $OSN_KVER"
grep -qx kthread_should_stop "$TFS/available_filter_functions" ||
	skip "kthread_should_stop() cannot be traced in $OSN_KVER"

if [ "$BENCH_QUICK" = 1 ]; then
	WIN=1
else
	WIN=4
fi
BENCH_BUF_KB=1024

uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# The hook: the top-level instance's function tracer, kthread_should_stop
# only, CPU $BCPU only; everything put back at exit.
HOOK_SAVED=
hook_on() {
	if [ -z "$HOOK_SAVED" ]; then
		HOOK_SAVED="$(cat "$TFS/tracing_cpumask") $(sed 's/ .*//' "$TFS/buffer_size_kb")"
		on_exit hook_restore
	fi
	echo 0 >"$TFS/tracing_on"
	echo kthread_should_stop >"$TFS/set_ftrace_filter" || fail "set_ftrace_filter"
	printf '%x\n' $((1 << BCPU)) >"$TFS/tracing_cpumask" || fail "tracing_cpumask"
	echo 64 >"$TFS/buffer_size_kb"
	echo function >"$TFS/current_tracer" || fail "current_tracer=function"
	echo 1 >"$TFS/tracing_on"
}
hook_off() {
	echo nop >"$TFS/current_tracer"
	echo >"$TFS/set_ftrace_filter"
}
hook_restore() {
	hook_off
	# shellcheck disable=SC2086 # split on purpose
	set -- $HOOK_SAVED
	echo "$1" >"$TFS/tracing_cpumask"
	echo "$2" >"$TFS/buffer_size_kb"
	echo 1 >"$TFS/tracing_on"
}
# hook_hits: calls recorded so far on CPU $BCPU (awk reads the stats in
# one read(): tracefs rebuilds the text at every read)
hook_hits() {
	awk '$1 == "entries:" || $1 == "overrun:" { n += $2 }
		END { printf "%.0f\n", n }' "$TFS/per_cpu/cpu$BCPU/stats"
}

# undash X: X, or nothing for "-" (a figure that could not be computed)
undash() {
	[ "$1" = - ] || echo "$1"
}

n_summaries() {
	case $1 in
	osn) grep -c ' sample: runtime ' "$BI/trace" ;;
	up) up_summaries "$BI/trace" | grep -c . ;;
	esac
}
have_summaries() {
	[ "$(n_summaries "$1")" -ge "$2" ]
}

# measure osn|up hooked|unhooked: one session of 1 s periods (runtime =
# period, threshold 5 us, no sample events) on CPU $BCPU; sets LC_EXACT
# (osn: ns per loop from its samples), LC_WIN (ns per hook hit over the
# window; hooked only) and LC_HPL (hits per osn loop; osn hooked only).
measure() {
	lc_t=$1 lc_h=$2
	LC_EXACT= LC_WIN= LC_HPL=
	[ "$lc_h" = hooked ] && hook_on
	tr_start "$lc_t" bench_loop 1000000 1000000 5 sample
	bwait 30 have_summaries "$lc_t" 1 || info "$lc_t: no first summary"
	n0=$(n_summaries "$lc_t")
	h0=$(hook_hits)
	t0=$(uptime_ms)
	sleep "$WIN"
	h1=$(hook_hits)
	t1=$(uptime_ms)
	# the periods that ran in the window, and one more to close it
	bwait 30 have_summaries "$lc_t" $((n0 + WIN + 1)) || info "$lc_t: summaries missing"
	tr_stop "$lc_t" bench_loop
	[ "$lc_h" = hooked ] && hook_off
	cp "$BI/trace" /tmp/bench_loop
	tr_teardown "$lc_t" bench_loop
	# "runtime noise loops" of the periods after the first n0
	case $lc_t in
	osn) osn_samples /tmp/bench_loop | awk '{ for (i = 1; i < NF; i += 2) v[$i] = $(i + 1)
		printf "%.0f %.0f %.0f\n", v["runtime"] / 1000, v["noise"] / 1000, v["loops"] }' ;;
	up) up_summaries /tmp/bench_loop | awk '{ print $1, $2, 0 }' ;;
	esac | tail -n +$((n0 + 1)) >/tmp/bench_loop.p
	lc_r=$(awk -v ms=$((t1 - t0)) -v hits=$((h1 - h0)) '$1 >= 900000 {
			n++; rt += $1; no += $2; lo += $3 }
		END {
			if (!n)
				exit
			exact = "-"; win = "-"; hpl = "-"
			if (lo > 0)
				exact = sprintf("%.1f", (rt - no) * 1000 / lo)
			if (hits > 0)
				win = sprintf("%.1f", ms * 1e6 * (rt - no) / rt / hits)
			if (lo > 0 && hits > 0)
				hpl = sprintf("%.3f", hits / (lo * ms * 1000 / rt))
			print exact, win, hpl
		}' /tmp/bench_loop.p)
	# shellcheck disable=SC2086 # split on purpose
	set -- $lc_r
	case $lc_t in
	osn) LC_EXACT=$(undash "$1")
	     [ "$lc_h" = hooked ] && LC_WIN=$(undash "$2") LC_HPL=$(undash "$3") ;;
	up)  LC_WIN=$(undash "$2") ;;
	esac
	[ -n "$lc_r" ] || info "$lc_t $lc_h: no full period: $(head -n 2 /tmp/bench_loop.p)"
}

tracers=$(bench_tracers)
info "tracers: $tracers, repeats: $BENCH_REPEATS, window ${WIN} s"
for rep in $(bench_seq "$BENCH_REPEATS"); do
	osn_r= up_win= hook_ns=
	for t in $(bench_order $((rep - 1)) $tracers); do
		case $t in
		osn)	measure osn unhooked
			un=$LC_EXACT
			measure osn hooked
			if [ -n "$un" ] && [ -n "$LC_EXACT" ] && [ -n "$LC_WIN" ]; then
				hook_ns=$(awk -v a="$LC_WIN" -v b="$un" 'BEGIN { printf "%.1f", a - b }')
				osn_r="unhooked=$un hooked=$LC_EXACT hooked_win=$LC_WIN hook_ns=$hook_ns hits_per_loop=$LC_HPL"
			fi ;;
		up)	measure up hooked
			up_win=$LC_WIN ;;
		esac
	done
	[ -n "$osn_r" ] && bench_result loopcost osn "$rep" "$osn_r"
	if [ -n "$up_win" ]; then
		est=
		[ -n "$hook_ns" ] &&
			est=$(awk -v a="$up_win" -v b="$hook_ns" 'BEGIN { printf "%.1f", a - b }')
		bench_result loopcost up "$rep" "hooked_win=$up_win${est:+ est=$est}"
	fi
done
exit 0
