#!/bin/sh
# timeout: 120
# --on-threshold / --on-end actions and -t, the rtla way: the same command
# line with osn and, where the guest's rtla has actions (forky-rt), with
# rtla osnoise: the same exit status, files, signals and shell runs.
#   1. no hit (-s far above any noise): the threshold actions never run
#      (upstream's 2025 fix), the end actions run in order; a signal to
#      the parent and to a recorder; --on-end trace writes its file; -t
#      without a hit writes its file in osn only (documented difference).
#   2. injected 300 ms hard-IRQ stalls with continue: every hit runs the
#      shell command and saves its own trace (F, F.1, ...), exit 0.
#   3. a hit without continue: exit 2, -t's trace saved at the hit.
#   4. bad input: rtla's error and exit status, nothing left behind (a
#      pid that does not exist in 1., a signal out of range in 3.).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
inject_load
cli_setup
taskset -p 1 $$ >/dev/null 2>&1
D=$CLI_OUT
before=$(cli_knobs)

RTLA=
if [ "$OSN_RT" = 1 ] && command -v rtla >/dev/null 2>&1; then
	if rtla osnoise top -h 2>&1 | grep -q -- --on-threshold; then
		RTLA=1
	else
		info "this rtla has no actions: osn alone ($(rtla --version 2>&1 | head -n 1))"
	fi
fi

# left_behind WHAT: no instance of osn's, knobs as before the test
left_behind() {
	assert_eq "$(cli_instances)" "" "instances left after $1"
	assert_eq "$(cli_knobs)" "$before" "knobs after $1"
}

# run TOOL OUT ARGS...: TOOL (osn: "osn top"; rtla: "rtla osnoise top")
# ARGS in $D/TOOL/, under a parent shell that records the signals it
# gets in $D/TOOL/parent; RC is the exit status.
run() {
	_tool=$1 _out=$2
	shift 2
	case $_tool in
	osn) set -- "$OSN" "$@" ;;
	rtla) set -- rtla osnoise "$@" ;;
	esac
	(cd "$D/$_tool" && sh -c 'trap "echo USR1 >>parent" USR1
		"$@"; rc=$?; sleep 0.3; exit $rc' sh "$@" >"$_out" 2>&1)
	RC=$?
	info "[$(cut -d" " -f1 /proc/uptime)] $_tool $* -> $RC"
	sed 's/^/    | /' "$_out"
}

# recorder FILE: a process that appends the name of each USR1/USR2 it
# gets to FILE; REC is its pid.
recorder() {
	sh -c 'trap "echo USR1 >>$0" USR1; trap "echo USR2 >>$0" USR2
		while :; do sleep 0.1; done' "$1" &
	REC=$!
	on_exit kill "$REC"
}

# count FILE RE: lines of FILE matching RE (0 without FILE)
count() {
	if [ -f "$1" ]; then grep -c "$2" "$1"; else echo 0; fi
	return 0
}

TOOLS=osn
[ -n "$RTLA" ] && TOOLS="osn rtla"

# 1. no hit
for t in $TOOLS; do
	mkdir -p "$D/$t"
	recorder "$D/$t/rec"
	run "$t" "$D/$t/1.txt" top -c 1 -p 200000 -r 100000 -d 1 -q -s 5000000 \
		--trace=t.txt \
		--on-threshold shell,command="echo th >>sh" \
		--on-end shell,command="echo end1 >>sh" \
		--on-end trace,file=e.txt \
		--on-end signal,num=10,pid=parent \
		--on-end signal,num=12,pid=$REC \
		--on-end shell,command="echo end2 >>sh" \
		--on-end signal,num=10,pid=4000000 \
		--on-end shell,command="echo after-error >>sh"
	sleep 0.3
	kill "$REC"
	assert_eq "$RC" 0 "$t without a hit: exit status"
	assert_eq "$(cat "$D/$t/sh")" "end1
end2" "$t: the threshold action ran, or the end actions not in order"
	[ -s "$D/$t/e.txt" ] || fail "$t: --on-end trace wrote no e.txt"
	assert_eq "$(count "$D/$t/parent" USR1)" 1 "$t: USR1 to the parent"
	assert_eq "$(count "$D/$t/rec" USR2)" 1 "$t: USR2 to the recorder"
	# a pid that does not exist: rtla's error, the list ends, status kept
	grep -q "Error sending signal" "$D/$t/1.txt" || fail "$t: no 'Error sending signal' for pid 4000000"
	[ "$t" = osn ] && left_behind "osn without a hit"
done
# -t without a hit: rtla saves nothing, osn saves at the end (osn-top.1)
[ -s "$D/osn/t.txt" ] || fail "osn -t without a hit saved nothing"
grep -q 'osn:sample\|sample:' "$D/osn/t.txt" || fail "osn -t's trace has no sample"
[ -z "$RTLA" ] || [ ! -e "$D/rtla/t.txt" ] || fail "rtla -t without a hit saved a trace (expected none)"

# 2. continue: 3 stalls of 300 ms, 0.9 s apart, hit a -s 200 ms each
# (well above TCG's 100-140 ms gaps)
for t in $TOOLS; do
	rm -f "$D/$t/"*
	(sleep 1; inject_start irq 1 3 300000 900000) &
	run "$t" "$D/$t/2.txt" top -c 1 -p 200000 -r 200000 -T 20 -s 200000 -d 3 -q \
		--on-threshold shell,command="echo hit >>sh" \
		--on-threshold trace,file=h.txt \
		--on-threshold continue \
		--on-threshold shell,command="echo after-continue >>sh"
	wait
	inject_wait 30
	assert_eq "$RC" 0 "$t with continue: exit status"
	n=$(count "$D/$t/sh" hit)
	assert_eq "$(count "$D/$t/sh" after-continue)" 0 "$t: an action after continue ran"
	# rtla re-enables at its 1 s tick, so it may sleep through a stall
	if [ "$t" = osn ]; then
		assert_ge "$n" 2 "osn: hits with continue (3 stalls injected)"
	else
		assert_ge "$n" 1 "rtla: hits with continue"
	fi
	assert_le "$n" 3 "$t: hits with continue (3 stalls injected)"
	[ -s "$D/$t/h.txt" ] || fail "$t: no h.txt"
	if [ "$t" = osn ]; then
		assert_eq "$(grep -c '^osn hit stop tracing$' "$D/osn/2.txt")" "$n" \
			"osn: hits reported vs shell runs"
		# one file per hit: h.txt, h.txt.1, ...; each with its own stop
		assert_eq "$(set -- "$D"/osn/h.txt*; echo $#)" "$n" "osn: trace files"
		i=1
		while [ $i -lt "$n" ]; do
			grep -q 'stop: stop tracing hit' "$D/osn/h.txt.$i" ||
				fail "osn: h.txt.$i lacks its osn:stop"
			i=$((i + 1))
		done
		grep -q 'stop: stop tracing hit' "$D/osn/h.txt" || fail "osn: h.txt lacks osn:stop"
		left_behind "osn with continue"
	fi
done

# 3. a hit without continue: exit 2, -t's trace at the hit, then --on-end;
# a signal number out of range: rtla's error, the list ends there
for t in $TOOLS; do
	rm -f "$D/$t/"*
	(sleep 1; inject_start irq 1 2 300000 900000) &
	run "$t" "$D/$t/3.txt" top -c 1 -p 200000 -r 200000 -T 20 -s 200000 -d 4 -q \
		--trace=t.txt --on-threshold shell,command="echo hit >>sh" \
		--on-end shell,command="echo end >>sh" \
		--on-end signal,num=99,pid=1 --on-end shell,command="echo after >>sh"
	wait
	echo stop >"$INJ/inject" 2>/dev/null
	inject_wait 30
	assert_eq "$RC" 2 "$t: a hit's exit status"
	assert_eq "$(cat "$D/$t/sh")" "hit
end" "$t: actions of a hit"
	grep -q "Error sending signal" "$D/$t/3.txt" || fail "$t: no 'Error sending signal' for signal 99"
	[ -s "$D/$t/t.txt" ] || fail "$t: -t saved nothing at the hit"
	[ -e "$D/$t/t.txt.1" ] && fail "$t: -t saved twice"
	[ "$t" = osn ] && left_behind "osn with a hit"
done

# 4. bad input
for t in $TOOLS; do
	for a in bogus shell shell,command= signal,num=10 trace,x=y continue,now; do
		run "$t" "$D/$t/4.txt" top -c 1 -d 1 --on-threshold "$a"
		assert_eq "$RC" 1 "$t --on-threshold $a: exit status"
		grep -q "Invalid action $a" "$D/$t/4.txt" || fail "$t: no 'Invalid action $a'"
		[ "$t" = osn ] && left_behind "osn --on-threshold $a"
	done
done
exit 0
