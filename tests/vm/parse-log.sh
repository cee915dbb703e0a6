#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# parse-log.sh [--kernel K] [--extra FILE] [--result FILE] [--quiet] CONSOLE_LOG
#
# Judges one guest run from its serial console log (protocol: tests/README.md,
# producer: tests/vm/guest-init.sh).  Counts OSN-TEST PASS/FAIL/SKIP lines
# (of the log and of FILE given with --extra, e.g. host-side build
# failures), prints failing tests with their output, and fails the run when:
#   - a test failed,
#   - OSN-GUEST-DONE is missing (panic, hang, host timeout),
#   - the dmesg between OSN-DMESG-BEGIN/END, or a kernel line printed on the
#     console itself (the guest may die before its dmesg dump) shows a
#     kernel problem (WARN,
#     BUG, Oops, lockdep, scheduling while atomic, hung task, RCU stall,
#     a call trace, ...), or
#   - kernel.tainted (OSN-TAINT) has W (warning), D (died), B (bad page)
#     or L (soft lockup) set.
# Each of the last three counts as one more failure (vm/guest-done,
# vm/dmesg, vm/taint).  --result FILE receives one line
# "pass=N fail=N skip=N status=ok|FAIL".  Exit status: 0 ok, 1 failed.
# Unit-tested by tests/vm/selftest-parser.sh.
set -euo pipefail

kernel=guest
extra=/dev/null
result=/dev/null
quiet=0
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--extra) extra=$2; shift 2 ;;
	--result) result=$2; shift 2 ;;
	--quiet) quiet=1; shift ;;
	*) break ;;
	esac
done
[ $# = 1 ] || { echo "usage: parse-log.sh [--kernel K] [--extra F] [--result F] LOG" >&2; exit 2; }
log=$1
[ -r "$log" ] || { echo "parse-log: cannot read $log" >&2; exit 2; }
[ -r "$extra" ] || extra=/dev/null

awk -v kernel="$kernel" -v result="$result" -v quiet="$quiet" '
function kmsg(s) {
	# "[   12.345678] text" -> "text"
	sub(/^<[0-9]+>/, "", s)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	sub(/^\[ *T?C?[0-9]+\] /, "", s)		# printk caller id
	return s
}
function bad(s,   m) {
	m = kmsg(s)
	if (m ~ /^-+\[ cut here \]-+/) return 1
	if (m ~ /^WARNING: /) return 1			# WARN*(), lockdep, RCU
	if (m ~ /^([A-Za-z0-9_]+: )?BUG: /) return 1	# incl. soft lockup, sleeping in atomic
	if (m ~ /^kernel BUG at /) return 1
	if (m ~ /^Oops: / || m ~ /^Oops#/) return 1
	if (m ~ /^general protection fault/) return 1
	if (m ~ /^Kernel panic/) return 1
	if (m ~ /Unable to handle kernel/) return 1
	if (m ~ /scheduling while atomic/) return 1
	if (m ~ /blocked for more than [0-9]+ seconds/) return 1
	if (m ~ /hung_task/) return 1
	if (m ~ /possible circular locking|inconsistent lock state|possible recursive locking/) return 1
	# (the boot banner of a lockdep kernel is not a report)
	if (m ~ /lockdep|DEBUG_LOCKS_WARN_ON/ && m !~ /^rcu:[ \t]*RCU lockdep checking is enabled/) return 1
	if (m ~ /Call Trace:/) return 1
	if (m ~ /rcu.*detected stall|self-detected stall/) return 1
	if (m ~ /hard LOCKUP/) return 1
	if (m ~ /^(UBSAN|KASAN|KFENCE|KCSAN): /) return 1
	if (m ~ /^refcount_t: /) return 1
	if (m ~ /list_(add|del) corruption/) return 1
	if (m ~ /stack-protector|stack guard page was hit|double fault/) return 1
	if (m ~ /Bad page (state|map)/) return 1
	if (m ~ /^ODEBUG: /) return 1			# debug objects
	if (m ~ /kmemleak: [0-9]+ new suspected memory leak/) return 1
	if (m ~ /^unreferenced object 0x/) return 1	# kmemleak report
	if (m ~ /^osn: impossible: /) return 1		# osn_account_clamp()
	return 0
}
function show_test(name,   i, n, from) {
	n = nout[name]
	from = n > 40 ? n - 40 : 0
	if (from > 0) printf "      ... (%d lines before)\n", from
	for (i = from + 1; i <= n; i++) print "      " out[name, i]
}
{ sub(/\r+$/, "") }
/^OSN-TEST-BEGIN / { cur = $2; nout[cur] = 0; next }
/^OSN-TEST-NOTE: / {
	name = $2; t = $0; sub(/^OSN-TEST-NOTE: [^ ]+ /, "", t)
	if (name in note) t = note[name] "; " t
	note[name] = t
	next
}
/^OSN-TEST: (PASS|FAIL|SKIP) / {
	res = $2; name = $3; tm = $4
	if (res == "PASS") npass++
	else if (res == "SKIP") { nskip++; skips[++ns] = name; stime[name] = tm }
	else { nfail++; fails[++nf] = name; ftime[name] = tm }
	cur = ""
	next
}
/^OSN-TAINT: / { taint = $2 + 0; has_taint = 1; next }
/^OSN-GUEST-DONE/ { done = 1; next }
/^OSN-DMESG-BEGIN/ { indmesg = 1; saw_dmesg = 1; next }
/^OSN-DMESG-END/ { indmesg = 0; next }
{
	if (indmesg) {
		if (bad($0) && nbad < 30) badl[++nbad] = $0
		else if (bad($0)) nbad++
	} else if ($0 ~ /^\[ *[0-9]+\.[0-9]+\] / && bad($0) && !panicked) {
		# Kernel output on the console itself (the guest may die
		# before its dmesg dump).
		if (nbad < 30) badl[++nbad] = $0
		else nbad++
	}
	if (!indmesg && cur != "") {
		# the reason the test gave, shown on its FAIL line (the tail of a
		# long output may be cut where the log is excerpted)
		if ($0 ~ /^    FAIL: / && !(cur in why)) why[cur] = substr($0, 11)
		nout[cur]++
		out[cur, nout[cur]] = substr($0, 1, 5) == "    " ? substr($0, 5) : $0
	}
	tail[++nl % 30] = $0
	# The panic (e.g. on the NMI of the watchdog) and the stacks of the tasks
	# blocked in D state are what explains a hang.
	# After a panic, its own dumps (every task, the replayed log) follow.
	if ($0 ~ /Kernel panic - not syncing/ && !panicked) inpanic = panicked = 1
	if (inpanic && npanic < 40) {
		panicl[++npanic] = $0
		if ($0 ~ /<\/TASK>|<\/IRQ>|---\[ end/) inpanic = 0
	}
	if ($0 ~ /task:.* state:D /) {
		dtask = $0; sub(/.*task:/, "", dtask); sub(/ +state:D.*/, "", dtask)
		dframes = 0; ind = 1
		next
	}
	if (ind) {
		if ($0 ~ /<\/TASK>/ || $0 ~ /task:/) {
			if (nd < 12) dl[++nd] = "    D " dtask ":" dstack
			ind = 0; dstack = ""
		} else if ($0 ~ /\] +[a-z_][a-zA-Z0-9_.]*\+0x/ && $0 !~ /\] +\? / && dframes < 8) {
			f = $0; sub(/.*\] +/, "", f); sub(/\+0x.*/, "", f)
			dstack = dstack " " f; dframes++
		}
	}
}
END {
	if (!done) {
		nfail++
		fails[++nf] = "vm/guest-done"
		note["vm/guest-done"] = "OSN-GUEST-DONE missing: the guest crashed, hung or timed out"
		if (cur != "")
			note["vm/guest-done"] = note["vm/guest-done"] " (during " cur ")"
	}
	if (nbad > 0) {
		nfail++
		fails[++nf] = "vm/dmesg"
		note["vm/dmesg"] = "kernel log shows " nbad " problem line(s)"
	}
	# W=512 (warning) D=128 (died) B=32 (bad page) L=16384 (soft lockup)
	if (has_taint && (int(taint / 512) % 2 || int(taint / 128) % 2 ||
			  int(taint / 32) % 2 || int(taint / 16384) % 2)) {
		nfail++
		fails[++nf] = "vm/taint"
		note["vm/taint"] = "kernel tainted " taint " (W/D/B/L set)"
	}
	status = nfail ? "FAIL" : "ok"
	printf "%s: %d passed, %d failed, %d skipped [%s]\n", kernel, npass, nfail, nskip, status
	if (!quiet) {
		for (i = 1; i <= nf; i++) {
			n = fails[i]
			printf "  FAIL %s%s%s%s\n", n, (n in ftime) ? " (" ftime[n] ")" : "", (n in note) ? ": " note[n] : "", (n in why) ? ": " why[n] : ""
			if (n in nout) show_test(n)
		}
		for (i = 1; i <= ns; i++) {
			n = skips[i]
			printf "  SKIP %s%s\n", n, (n in note) ? ": " note[n] : ""
		}
		if (nbad > 0) {
			print "  kernel log problems:"
			for (i = 1; i <= nbad && i <= 30; i++) print "    " badl[i]
		}
		if (npanic > 0) {
			print "  panic report:"
			for (i = 1; i <= npanic; i++) print "    " panicl[i]
		}
		if (nd > 0) {
			print "  tasks blocked in D state (innermost frames first):"
			for (i = 1; i <= nd; i++) print dl[i]
		}
		if (!done && npanic == 0) {
			print "  last console lines:"
			for (i = nl - 29; i <= nl; i++) if (i > 0) print "    " tail[i % 30]
		}
	}
	printf "pass=%d fail=%d skip=%d status=%s\n", npass, nfail, nskip, status > result
	exit nfail ? 1 : 0
}' "$extra" "$log"
