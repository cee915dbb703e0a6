#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the osn test guest (busybox ash, PID 1).  Packed by
# tests/vm/run-kernel.sh together with /osn/config, /osn/tests (the tests/
# tree), /osn/ko (modules) and /osn/bin (host binaries + their libraries).
#
# Runs tests/guest/<area>/NN-*.sh (and tests/guest-long/ when OSN_LONG=1)
# and prints the result protocol of tests/README.md on the console:
#   OSN-TEST-BEGIN <name> timeout=<N>s
#       <test output, indented by 4 spaces>
#   OSN-TEST-NOTE: <name> <why it did not pass>        (FAIL/SKIP only)
#   OSN-TEST: PASS|FAIL|SKIP <name> <seconds>s
#   ...
#   OSN-TAINT: <kernel.tainted>
#   OSN-DMESG-BEGIN / dmesg / OSN-DMESG-END
#   OSN-GUEST-DONE
# then powers the machine off.

export PATH=/osn/bin:/bin:/sbin:/usr/bin:/usr/sbin
echo	# end the firmware's last line: protocol lines start a line
export HOME=/root TERM=dumb LANG=C LC_ALL=C

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm /tmp /run /root
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug
grep -q ' /sys/kernel/tracing ' /proc/mounts ||
	mount -t tracefs tracefs /sys/kernel/tracing
ln -sf /proc/self/fd /dev/fd 2>/dev/null
ln -sf /proc/mounts /etc/mtab 2>/dev/null

# Only emergencies go straight to the console (a WARN printed in the middle
# of a protocol line would garble it); the whole log is dumped at the end.
echo 1 >/proc/sys/kernel/printk
echo 30 >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
echo 0 >/proc/sys/kernel/panic_on_warn 2>/dev/null
# The host's watchdog sends an NMI to a hung guest: panic on it, printing
# every task's stack and the whole kernel log (nothing else would show why).
# (x86 only: arm64 has no such sysctl)
[ -e /proc/sys/kernel/unknown_nmi_panic ] && echo 1 >/proc/sys/kernel/unknown_nmi_panic
echo 33 >/proc/sys/kernel/panic_print 2>/dev/null
hostname osn-guest

OSN_KVER=unknown
OSN_FILTER=
OSN_SKIP=
OSN_LONG=0
OSN_DEFAULT_TIMEOUT=120
OSN_GUEST_DIR=guest
# shellcheck disable=SC1091
. /osn/config

OSN_RT=0
if [ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] ||
   uname -v | grep -q PREEMPT_RT; then
	OSN_RT=1
fi
export OSN_TESTS=/osn/tests OSN_BIN=/osn/bin OSN_KO=/osn/ko
# This boot's name (osn.boot= on the command line, run-kernel.sh): only
# the tests whose "# boot: NAME ..." header names it run; "" is the plain
# boot, for the tests without that header.
OSN_BOOT=$(sed -n 's/.*osn\.boot=\([A-Za-z0-9_-]*\).*/\1/p' /proc/cmdline)
export OSN_KVER OSN_RT OSN_BOOT

test_boot() {	# the boot NAME of a test's header, or nothing
	head -n 5 "$1" | sed -n 's/^#[[:space:]]*boot:[[:space:]]*\([A-Za-z0-9_-]*\).*/\1/p' | head -n 1
}

uptime_cs() {
	IFS=. read -r s cs _ </proc/uptime
	echo "$s${cs%% *}"
}

secs() {	# centiseconds -> "1.23"
	printf '%d.%02d' $(($1 / 100)) $(($1 % 100))
}

alive() {	# pid exists and is not a zombie
	[ -e "/proc/$1/stat" ] || return 1
	read -r _ _ st _ <"/proc/$1/stat" 2>/dev/null || return 1
	[ "$st" != Z ]
}

selected() {	# does "$1" (path under tests/) match OSN_FILTER, not OSN_SKIP?
	case " $OSN_SKIP " in *" $1 "*) return 1 ;; esac
	[ -z "$OSN_FILTER" ] && return 0
	for f in $OSN_FILTER; do
		case "$1" in *"$f"*) return 0 ;; esac
	done
	return 1
}

npass=0 nfail=0 nskip=0

instances() {
	ls -d /sys/kernel/tracing/instances/* 2>/dev/null | tr '\n' ' '
}

# Run "$@" in the background for at most $1 seconds (rmmod may hang).
bounded() {
	lim=$(($1 * 10))
	shift
	"$@" >/dev/null 2>&1 &
	bp=$!
	while alive $bp && [ $lim -gt 0 ]; do
		sleep 0.1
		lim=$((lim - 1))
	done
	alive $bp && return 1
	wait $bp
}

# Remove what the last test left (osn modules, tracefs instances); print
# what it was.
cleanup_after() {
	# Instances first: their enabled events pin the modules.
	for d in /sys/kernel/tracing/instances/*; do
		[ -d "$d" ] || continue
		case " $inst_before " in *" $d "*) continue ;; esac
		echo 0 >"$d/tracing_on" 2>/dev/null
		echo 0 >"$d/events/enable" 2>/dev/null
		rmdir "$d" 2>/dev/null
		printf ' instance %s' "${d##*/}"
	done
	for m in osn_inject osn; do
		grep -q "^$m " /proc/modules || continue
		[ $m = osn_inject ] && echo stop >/sys/kernel/debug/osn_inject/inject 2>/dev/null
		if bounded 20 rmmod $m; then
			printf ' module %s (removed)' $m
		else
			printf ' module %s (rmmod failed)' $m
		fi
	done
}

# kmemleak (debug kernel only): scan, print the suspects' first lines
# (unreferenced object ..., the backtrace's osn frames), forget them.
# Objects younger than 5 s are not reported yet: scan after they aged.
KMEMLEAK=/sys/kernel/debug/kmemleak
kmemleak_scan() {
	[ -w $KMEMLEAK ] || return 0
	echo scan >$KMEMLEAK 2>/dev/null
	r=$(cat $KMEMLEAK 2>/dev/null)
	[ -n "$r" ] || return 0
	echo "$r" | grep -E 'unreferenced object|\[osn' | head -n 6 | tr '\n' ' '
	echo clear >$KMEMLEAK 2>/dev/null
}

run_test() {	# $1: script, $2: reported name
	t=$1 name=$2
	limit=$(head -n 5 "$t" |
		sed -n 's/^#[[:space:]]*timeout:[[:space:]]*\([0-9][0-9]*\).*/\1/p' |
		head -n 1)
	[ -n "$limit" ] || limit=$OSN_DEFAULT_TIMEOUT
	# A slow kernel (the debug kernel: KASAN, lockdep) scales every limit.
	limit=$((limit * ${OSN_TIMEOUT_SCALE:-1}))
	echo "OSN-TEST-BEGIN $name timeout=${limit}s"

	inst_before=$(instances)
	rm -rf /tmp/osn-test /tmp/osn-out /tmp/osn-last
	mkdir -p /tmp/osn-test
	mkfifo /tmp/osn-out
	awk '{ print "    " $0; fflush(); last = $0 }
	     END { print last > "/tmp/osn-last" }' </tmp/osn-out &
	reader=$!

	start=$(uptime_cs)
	# setsid: the test leads its own process group, so it and everything
	# it started can be killed at once.
	(cd /tmp/osn-test && exec setsid sh "$t") </dev/null >/tmp/osn-out 2>&1 &
	pid=$!
	# The limit: a timer, not a polling loop.  A loop's fork and exec
	# every 100 ms ran on the measured CPU as often as not (the debug
	# kernel: init and its sleeps, 158 ms of a 1 s period); asleep in
	# wait, init costs the test nothing.  TERM first: lib.sh's exit
	# handlers clean up (rmmod, instances); KILL 5 s later.
	# (setsid: the timer and its sleep are one process group, ended at once)
	rm -f /tmp/osn-timedout
	setsid sh -c 'sleep "$1"; : >/tmp/osn-timedout; kill -TERM -"$2"
		sleep 5; kill -KILL -"$2"' timer "$limit" "$pid" </dev/null >/dev/null 2>&1 &
	timer=$!
	wait $pid
	rc=$?
	timedout=0
	if [ -e /tmp/osn-timedout ]; then
		timedout=1
		rc=124
	fi
	kill -KILL -$timer 2>/dev/null
	wait $timer 2>/dev/null
	# Leftovers of the test (background jobs it forgot).
	kill -KILL -$pid 2>/dev/null
	end=$(uptime_cs)
	n=0
	while alive $reader && [ $n -lt 30 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	alive $reader && kill -KILL $reader 2>/dev/null
	wait $reader 2>/dev/null
	last=$(cat /tmp/osn-last 2>/dev/null)

	if [ $timedout = 1 ]; then
		echo "OSN-TEST-NOTE: $name timed out after ${limit}s"
		res=FAIL
	elif [ $rc = 0 ]; then
		res=PASS
	elif [ $rc = 77 ]; then
		echo "OSN-TEST-NOTE: $name skipped: $last"
		res=SKIP
	else
		echo "OSN-TEST-NOTE: $name exit status $rc"
		res=FAIL
	fi
	# The contract: a test leaves the guest as it found it.  Undo what it
	# left behind so that one leak does not fail every later test.
	dirty=$(cleanup_after)
	if [ -n "$dirty" ]; then
		echo "OSN-TEST-NOTE: $name left the guest dirty:$dirty"
		res=FAIL
	fi
	# Debug kernel: what the test leaked, now that its modules are gone.
	leaks=$(kmemleak_scan)
	if [ -n "$leaks" ]; then
		echo "OSN-TEST-NOTE: $name kmemleak: $leaks"
		res=FAIL
	fi
	case $res in
	PASS) npass=$((npass + 1)) ;;
	FAIL) nfail=$((nfail + 1)) ;;
	SKIP) nskip=$((nskip + 1)) ;;
	esac
	echo "OSN-TEST: $res $name $(secs $((end - start)))s"
}

tests=
gd=/osn/tests/$OSN_GUEST_DIR
for t in "$gd"/[0-9]*.sh "$gd"/*/[0-9]*.sh; do
	[ -f "$t" ] || continue
	p=${t#/osn/tests/}
	[ "$(test_boot "$t")" = "$OSN_BOOT" ] || continue
	selected "$p" && tests="$tests $t"
done
if [ "$OSN_LONG" = 1 ]; then
	for t in /osn/tests/guest-long/[0-9]*.sh /osn/tests/guest-long/*/[0-9]*.sh; do
		[ -f "$t" ] || continue
		p=${t#/osn/tests/}
		selected "$p" && tests="$tests $t"
	done
fi

ntests=0
for t in $tests; do ntests=$((ntests + 1)); done
echo "OSN-GUEST: kernel=$(uname -r) kver=$OSN_KVER rt=$OSN_RT cpus=$(grep -c ^processor /proc/cpuinfo) clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) tests=$ntests filter='$OSN_FILTER' boot='$OSN_BOOT'"
echo "osn-guest: running $ntests tests" >/dev/kmsg
# Leak suspects from boot are the kernel's, not a test's.
if [ -w $KMEMLEAK ]; then
	echo scan >$KMEMLEAK 2>/dev/null
	echo clear >$KMEMLEAK 2>/dev/null
fi

for t in $tests; do
	p=${t#/osn/tests/}
	case $p in
	"$OSN_GUEST_DIR"/*) name=${p#"$OSN_GUEST_DIR"/} ;;
	guest-long/*)	name=long/${p#guest-long/} ;;
	*)		name=$p ;;
	esac
	run_test "$t" "${name%.sh}"
done

echo "OSN-SUMMARY: $npass passed, $nfail failed, $nskip skipped"
echo "OSN-TAINT: $(cat /proc/sys/kernel/tainted)"
echo "OSN-DMESG-BEGIN"
dmesg
echo "OSN-DMESG-END"
echo "OSN-GUEST-DONE"
sync
poweroff -f
# Not reached; if poweroff fails, panic=-1 + -no-reboot ends QEMU.
echo o >/proc/sysrq-trigger
sleep 10
