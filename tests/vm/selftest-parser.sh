#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# selftest-parser.sh - unit test of parse-log.sh, the judge of guest runs.
# Proves that a kernel WARN (real logs captured from the 6.1 and 6.12
# guests with a module that WARNs at init), BUG, Oops, lockdep, hung task,
# RCU stall, a W taint, a crash (no OSN-GUEST-DONE), a hang dumped by the
# NMI of the watchdog (panic and D-state tasks shown once) and failing tests are
# caught, and that innocent lines (test output that mentions WARNING/BUG,
# hrtimer/clocksource notes, module taint notes) are not.
# Ends with "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=$here/testdata
parse=$here/parse-log.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# check NAME LOG EXPECTED_STATUS [EXPECTED_RESULT_LINE] [ERE in output]
check() {
	local name=$1 log=$2 want=$3 wantres=${4:-} pat=${5:-} rc res
	"$parse" --kernel test --result "$tmp/res" "$log" >"$tmp/out" 2>&1
	rc=$?
	res=$(cat "$tmp/res" 2>/dev/null)
	if [ "$rc" != "$want" ]; then
		echo "not ok - $name: exit $rc, expected $want"
		sed 's/^/    /' "$tmp/out"
		fail=$((fail + 1))
	elif [ -n "$wantres" ] && [ "$res" != "$wantres" ]; then
		echo "not ok - $name: result '$res', expected '$wantres'"
		sed 's/^/    /' "$tmp/out"
		fail=$((fail + 1))
	elif [ -n "$pat" ] && ! grep -Eq -- "$pat" "$tmp/out"; then
		echo "not ok - $name: output lacks /$pat/"
		sed 's/^/    /' "$tmp/out"
		fail=$((fail + 1))
	else
		echo "ok - $name"
		pass=$((pass + 1))
	fi
}

# with_dmesg LINE...: the clean log with LINEs added to its dmesg section.
with_dmesg() {
	local f=$tmp/log.$((pass + fail)) l
	: >"$tmp/add"
	for l in "$@"; do printf '%s\n' "$l" >>"$tmp/add"; done
	awk -v addf="$tmp/add" '
		/^OSN-DMESG-END/ { while ((getline l < addf) > 0) print l }
		{ print }' "$data/clean-6.12-rt.log" >"$f"
	echo "$f"
}

clean=$data/clean-6.12-rt.log
check "clean run passes" "$clean" 0 "pass=4 fail=0 skip=0 status=ok"
check "real WARN on 6.1 (module WARN at init)" "$data/warn-6.1.log" 1 \
	"pass=2 fail=4 skip=1 status=FAIL" 'WARNING: CPU: .* at .*warnmod'
check "real WARN on 6.12 is caught, taint W too" "$data/warn-6.12.log" 1 "" \
	'FAIL vm/dmesg.*FAIL vm/taint|vm/taint'
check "failing test shows its output" "$data/warn-6.1.log" 1 "" \
	'one: got .1., expected .2.'
check "timed out test is reported" "$data/warn-6.1.log" 1 "" \
	'selftest/30-timeout.*timed out after 3s'
check "skip reason is reported" "$data/warn-6.1.log" 1 "" \
	'SKIP selftest/40-skip.*needs a frobnicator'

check "innocent lines pass" "$(with_dmesg \
	'[   20.000000] hrtimer: interrupt took 4203932 ns' \
	'[   20.100000] clocksource: timekeeping watchdog on CPU1: Marking clocksource '"'tsc'"' as unstable because the skew is too large:' \
	'[   20.200000] sched: RT throttling activated' \
	'[   20.300000] osn: warning threshold 10 us, BUG-free since boot' \
	'[   20.400000] ACPI Warning: something in firmware' \
	'[   20.500000] osn_inject: loading out-of-tree module taints kernel.' \
	'[   20.550000] rcu: 	RCU lockdep checking is enabled.' \
	'[   20.600000] random: crng init done')" 0 "pass=4 fail=0 skip=0 status=ok"

n=0
for l in \
	'[   30.100000] ------------[ cut here ]------------' \
	'[   30.100000] WARNING: CPU: 1 PID: 300 at kernel/osn/osn_main.c:12 osn_start+0x1/0x2 [osn]' \
	'[   30.100000] BUG: scheduling while atomic: osn/1/301/0x00000002' \
	'[   30.100000] BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580' \
	'[   30.100000] BUG: kernel NULL pointer dereference, address: 0000000000000008' \
	'[   30.100000] Oops: 0000 [#1] PREEMPT SMP NOPTI' \
	'[   30.100000] general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] PREEMPT SMP NOPTI' \
	'[   30.100000] kernel BUG at kernel/trace/ring_buffer.c:1234!' \
	'[   30.100000] INFO: task rmmod:512 blocked for more than 30 seconds.' \
	'[   30.100000] "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.' \
	'[   30.100000] WARNING: possible circular locking dependency detected' \
	'[   30.100000] WARNING: inconsistent lock state' \
	'[   30.100000] DEBUG_LOCKS_WARN_ON(1)' \
	'[   30.100000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' \
	'[   30.100000] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [osn/1:300]' \
	'[   30.100000] Call Trace:' \
	'[   30.100000] UBSAN: array-index-out-of-bounds in kernel/osn/osn_main.c:99:3' \
	'[   30.100000] refcount_t: underflow; use-after-free.' \
	'[   30.100000] list_del corruption, ffff888004c99000->next is LIST_POISON1 (dead000000000100)' \
	'[   30.100000] BUG: KASAN: slab-use-after-free in osn_probe_sched_switch+0x52/0x1a0 [osn]' \
	'[   30.100000] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)' \
	'[   30.100000] unreferenced object 0xffff888003c2e000 (size 64):' \
	'[   30.100000] ODEBUG: free active (active state 0) object: ffff88800f0a1230 object type: hrtimer hint: osn_tick+0x0/0x10 [osn]' \
	'[   30.100000] osn: impossible: a noise source ended 1200 ns before it started (clamped to 0; see the 'impossible' parameter)' \
	'[   30.100000] Kernel panic - not syncing: Fatal exception'; do
	n=$((n + 1))
	check "dmesg problem $n: ${l#*] }" "$(with_dmesg "$l")" 1 \
		"pass=4 fail=1 skip=0 status=FAIL" 'FAIL vm/dmesg'
done

# Taint W without any line left in the log (ring buffer wrapped).
sed 's/^OSN-TAINT: .*/OSN-TAINT: 12288/' "$clean" >"$tmp/taint-ok"
check "taint O+E (modules) is fine" "$tmp/taint-ok" 0 "pass=4 fail=0 skip=0 status=ok"
sed 's/^OSN-TAINT: .*/OSN-TAINT: 12800/' "$clean" >"$tmp/taint-w"
check "taint W is caught" "$tmp/taint-w" 1 "pass=4 fail=1 skip=0 status=FAIL" 'FAIL vm/taint'

# Crash: the log ends in the middle of a test.
awk '/OSN-TEST: PASS injector\/20/ { exit } { print }' "$clean" >"$tmp/crash"
printf '%s\n' '[   40.000000] Kernel panic - not syncing: Fatal exception in interrupt' >>"$tmp/crash"
check "crash (no OSN-GUEST-DONE), its panic on the console" "$tmp/crash" 1 \
	"pass=1 fail=2 skip=0 status=FAIL" 'FAIL vm/guest-done.*during injector/20'
check "crash shows the console tail" "$tmp/crash" 1 "" 'Kernel panic - not syncing'
awk '/OSN-TEST: PASS injector\/20/ { exit } { print }' "$clean" >"$tmp/hang"
printf '%s\n' '[  461.311046] rcu: INFO: rcu_preempt self-detected stall on CPU' \
	'[  461.824181] Call Trace:' >>"$tmp/hang"
check "hang: kernel lines on the console are judged" "$tmp/hang" 1 \
	"pass=1 fail=2 skip=0 status=FAIL" 'self-detected stall'

# Hang caught by the watchdog's NMI: the guest panics, then dumps every
# task and replays its log (panic_print).  One problem line (the panic),
# the panic's own stack once, and the D-state tasks summarized.
awk '/OSN-TEST: PASS injector\/20/ { exit } { print }' "$clean" >"$tmp/nmi"
cat >>"$tmp/nmi" <<'LOG'
OSN-HOST: watchdog: sending an NMI to the hung guest for its stacks
[  316.004098] Uhhuh. NMI received for unknown reason 31 on CPU 0.
[  316.016201] Kernel panic - not syncing: NMI: Not continuing
[  316.016976] Call Trace:
[  316.018495]  <NMI>
[  316.020418]  unknown_nmi_error.cold+0x3b/0x49
[  316.027021]  </NMI>
[  316.027042]  <TASK>
[  316.027071]  asm_exc_int3+0x35/0x40
[  316.027084] RIP: 0010:__schedule+0x1d4/0xa70
[  316.028095]  </TASK>
[  316.100000] task:cpuhp/1         state:D stack:0     pid:24    ppid:2      flags:0x00004000
[  316.100001] Call Trace:
[  316.100002]  <TASK>
[  316.100003]  __schedule+0x364/0xa70
[  316.100004]  ? smpboot_register_percpu_thread+0xf0/0xf0
[  316.100005]  kthread_stop+0x66/0x210
[  316.100006]  osn_cpu_offline+0x28/0x40 [osn]
[  316.100007]  </TASK>
[  316.200000] Kernel panic - not syncing: NMI: Not continuing
[  316.200001] Call Trace:
LOG
check "NMI dump of a hang: one problem line" "$tmp/nmi" 1 \
	"pass=1 fail=2 skip=0 status=FAIL" 'kernel log shows 1 problem line'
check "NMI dump of a hang: the panic's stack" "$tmp/nmi" 1 "" \
	'panic report:'
check "NMI dump of a hang: D-state tasks summarized" "$tmp/nmi" 1 "" \
	'D cpuhp/1: __schedule kthread_stop osn_cpu_offline'
if [ "$(grep -c 'Kernel panic - not syncing' "$tmp/out")" = 2 ]; then
	echo "ok - NMI dump of a hang: the replayed panic is not reported again"
	pass=$((pass + 1))
else
	echo "not ok - NMI dump of a hang: panic lines in the report:"
	sed 's/^/    /' "$tmp/out"
	fail=$((fail + 1))
fi

# Test output may say anything: only the dmesg section is judged.
sed '/^OSN-TEST-BEGIN injector\/30/a\
    WARNING: CPU: 1 PID: 1 at nowhere\
    BUG: not a kernel line\
    Call Trace:' "$clean" >"$tmp/talk"
check "test output is not judged as kernel log" "$tmp/talk" 0 "pass=4 fail=0 skip=0 status=ok"

# Protocol lines garbled by carriage returns (serial console) still count.
sed 's/$/\r/' "$clean" >"$tmp/crlf"
check "CRLF console log" "$tmp/crlf" 0 "pass=4 fail=0 skip=0 status=ok"

# Host-side failures (--extra) count.
printf 'OSN-TEST-NOTE: build/osn.ko does not build\nOSN-TEST: FAIL build/osn.ko 0s\n' >"$tmp/extra"
"$parse" --kernel test --extra "$tmp/extra" --result "$tmp/res" "$clean" >/dev/null 2>&1
if [ "$(cat "$tmp/res")" = "pass=4 fail=1 skip=0 status=FAIL" ]; then
	echo "ok - host-side failures are counted"; pass=$((pass + 1))
else
	echo "not ok - host-side failures: $(cat "$tmp/res")"; fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
