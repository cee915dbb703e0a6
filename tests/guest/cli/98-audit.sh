#!/bin/sh
# timeout: 60
# matrix: shard
# osn audit: change an IRQ's affinity, two sysctls and a task's affinity in
# the guest and see the status and evidence of the checks that follow them;
# exit statuses (0/1 by whether a check fails, 2 on bad input), --json,
# a run without root (says what it could not read).  The audit needs no
# module and writes nothing; the test puts back what it changed.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
[ -x "$OSN" ] || skip "tools/osn is not in the guest"
# online CPUs (nproc counts those this shell may use: not isolcpus ones)
NCPU=$(grep -c '^processor' /proc/cpuinfo)
[ "$NCPU" -ge 2 ] || skip "needs 2 CPUs (has $NCPU)"
. "$OSN_TESTS/guest/audit/audit.sh"

# ---- bad settings, then good ones -------------------------------------------------
# One audit (with the default CPUs) with an IRQ moved onto CPU 1,
# kernel.timer_migration and vm.stat_interval at their noisy values and a
# task pinned to CPU 1; one (-c 1) with all of them put right (two runs,
# not one per setting: TCG is slow).

# The IRQ: the busiest numbered IRQ that takes a new affinity (managed
# IRQs refuse); a busy one follows a move at once where the move waits for
# the IRQ's next interrupt (IO-APIC).
irq='' orig=''
for n in $(awk '$1 ~ /^[0-9]+:$/ { t = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) t += $i;
			     print t, $1 + 0 }' /proc/interrupts | sort -rn | awk '{ print $2 }'); do
	f=/proc/irq/$n/smp_affinity_list
	[ -w "$f" ] || continue
	o=$(cat "$f")
	if echo 1 >"$f" 2>/dev/null && [ "$(cat "$f")" = 1 ]; then
		irq=$n orig=$o
		break
	fi
	echo "$o" >"$f" 2>/dev/null
done
[ -n "$irq" ] || fail "no IRQ accepts smp_affinity_list 1"
on_exit sh -c "echo $orig > /proc/irq/$irq/smp_affinity_list"
name=$(awk -v n="$irq:" '$1 == n { print $NF }' /proc/interrupts)
info "IRQ $irq ($name): smp_affinity_list $orig -> 1"

# The sysctls: CHECK FILE GOOD BAD, one a line; absent files are skipped.
SYSCTLS="kernel/timer_migration /proc/sys/kernel/timer_migration 0 1
mem/stat_interval /proc/sys/vm/stat_interval 10 1"
# set_sysctls good|bad
set_sysctls() {
	echo "$SYSCTLS" | while read -r _c _f _good _bad; do
		[ -e "$_f" ] || continue
		if [ "$1" = good ]; then echo "$_good" >"$_f"; else echo "$_bad" >"$_f"; fi ||
			fail "write $1 value to $_f"
	done || exit 1
}
# expect_sysctls good|bad
expect_sysctls() {
	echo "$SYSCTLS" | while read -r _c _f _good _bad; do
		if [ ! -e "$_f" ]; then
			info "$_f is absent on $OSN_KVER: $_c not exercised"
			continue
		fi
		if [ "$1" = good ]; then
			expect "$_c" ok "$_good \\($_f\\)$"
		else
			expect "$_c" warn "$_bad \\($_f\\): .* => fix: "
		fi
	done || exit 1
}
echo "$SYSCTLS" | while read -r _c _f _good _bad; do
	[ -e "$_f" ] && echo "echo $(cat "$_f") > $_f"
done >/tmp/osn-audit-sysctls
on_exit sh /tmp/osn-audit-sysctls
on_exit rm -f /tmp/osn-audit-sysctls
set_sysctls bad

taskset -c 1 sleep 60 &
pid=$!
on_exit kill "$pid"
sleep 0.2

# the default CPUs: CPU 1 of the 2, from the command line or not
audit
cat "$O"
if grep -Eq '(^| )(nohz_full|isolcpus)=' /proc/cmdline; then
	grep -q '^osn audit: CPUs 1 (isolcpus=/nohz_full= of the kernel command line); housekeeping CPUs 0$' "$O" ||
		fail "default CPUs: $(head -n 1 "$O")"
else
	grep -q '^osn audit: CPUs 1 (all but CPU 0: .*); housekeeping CPUs 0$' "$O" ||
		fail "default CPUs: $(head -n 1 "$O")"
	expect boot/nohz_full warn "no nohz_full= in /proc/cmdline"
	expect boot/isolcpus warn "no isolcpus= in /proc/cmdline"
	expect boot/consistency n/a "no isolation parameter"
fi
grep -Eq '^[0-9]+ ok, [0-9]+ warn, [0-9]+ fail, [0-9]+ n/a$' "$O" || fail "no summary line"
expect "irq/$irq" "warn|fail" "$name: smp_affinity_list 1, effective_affinity_list [-0-9,]+ \\(/proc/irq/$irq/\\); [0-9]+ interrupts on CPUs 1"
line "irq/$irq" | grep -q "=> fix: echo 0 > /proc/irq/$irq/smp_affinity_list$" ||
	fail "irq/$irq fix: $(line "irq/$irq")"
expect_sysctls bad
expect "task/$pid" warn "task sleep \\(pid $pid, state S, OTHER -?[0-9]+\\) may run on CPUs 1 \\(allowed 1\\)"
line "task/$pid" | grep -q "=> fix: taskset -pc 0 $pid " || fail "task/$pid fix: $(line "task/$pid")"
expect tasks/percpu ok "[0-9]+ per-CPU kthreads bound to CPUs 1, which must be there:.* migration/1"
# as root the tracers are readable: upstream osnoise is there on the -rt
# kernels from 5.14 on, not on the generic ones
if grep -qw osnoise "$TFS/available_tracers"; then
	expect kernel/osnoise ok "the osnoise tracer is available \\(available_tracers\\)"
else
	expect kernel/osnoise n/a "no osnoise in available_tracers"
fi

# put right
echo 0 >"/proc/irq/$irq/smp_affinity_list" || fail "move IRQ $irq to CPU 0"
set_sysctls good
kill "$pid"
wait "$pid" 2>/dev/null
# the effective affinity follows at the IRQ's next interrupt on some chips
n=0
while [ -e "/proc/irq/$irq/effective_affinity_list" ] &&
      [ "$(cat "/proc/irq/$irq/effective_affinity_list")" != 0 ] && [ $n -lt 5 ]; do
	sleep 0.1
	n=$((n + 1))
done
audit -c 1
grep -q '^osn audit: CPUs 1 (-c 1); housekeeping CPUs 0$' "$O" || fail "header: $(head -n 1 "$O")"
if [ -z "$(line "irq/$irq")" ]; then
	info "IRQ $irq on CPU 0: no irq/$irq line"
elif [ -e "/proc/irq/$irq/effective_affinity_list" ] &&
     [ "$(cat "/proc/irq/$irq/effective_affinity_list")" != 0 ]; then
	info "IRQ $irq: effective affinity still $(cat "/proc/irq/$irq/effective_affinity_list") (moves at its next interrupt)"
	expect "irq/$irq" fail "$name: smp_affinity_list 0,"
else
	fail "IRQ $irq on CPU 0 still reported: $(line "irq/$irq")"
fi
expect_sysctls good
[ -z "$(line "task/$pid")" ] || fail "task $pid reported after it ended"
echo "$orig" >"/proc/irq/$irq/smp_affinity_list"
sh /tmp/osn-audit-sysctls

# ---- JSON ------------------------------------------------------------------------
"$OSN" audit -c 1 --json >"$O" 2>"$E"
RC=$?
[ -s "$E" ] && fail "--json: stderr: $(cat "$E")"
# one jq (slow to start under TCG) for every value
v=$(cli_json "$O" '[.exit_status, .cpus,
	([.checks[] | select(.check == "boot/nohz_full")] | length),
	([.checks[] | select(.check == "irqbalance") | .status] | first),
	([.checks[] | select(.status | test("^(ok|warn|fail|n/a)$") | not)] | length),
	.summary.fail, (.not_read_without_root | length)] | @tsv')
info "JSON: $v"
# shellcheck disable=SC2086
set -- $v
assert_eq "$1" "$RC" "JSON exit_status"
assert_eq "$2" 1 "JSON cpus"
assert_eq "$3" 1 "JSON boot/nohz_full checks"
assert_match "$4" '^(ok|warn)$' "JSON irqbalance"
assert_eq "$5" 0 "JSON checks with another status"
if [ "$6" -gt 0 ]; then assert_eq "$RC" 1 "JSON exit status"; else assert_eq "$RC" 0 "JSON exit status"; fi
assert_eq "$7" 0 "JSON files not read as root"

# ---- without root ---------------------------------------------------------------
cp /etc/passwd /tmp/osn-audit-passwd
on_exit rm -f /tmp/osn-audit-passwd
on_exit cp /tmp/osn-audit-passwd /etc/passwd
echo "osnuser:x:65534:65534:osn test:/:/bin/sh" >>/etc/passwd
if ! su -s /bin/sh osnuser -c true >/dev/null 2>&1; then
	info "NOTE: su to an ordinary user fails here: the non-root part is not run"
else
	su -s /bin/sh osnuser -c "$OSN audit -c 1" >"$O" 2>"$E"
	RC=$?
	info "as nobody: exit $RC; $(grep '^not read without root:' "$O")"
	[ "$RC" = 0 ] || [ "$RC" = 1 ] || { cat "$O" "$E"; fail "as nobody: exit $RC"; }
	# tracefs is root-only on most kernels: then the audit must say so
	if su -s /bin/sh osnuser -c "cat $TFS/available_tracers" >/dev/null 2>&1; then
		info "$TFS/available_tracers is world-readable on $OSN_KVER"
		expect kernel/osnoise "ok|n/a" ""
	else
		grep -q "^not read without root: .*$TFS/available_tracers" "$O" ||
			{ cat "$O"; fail "as nobody: $TFS/available_tracers not listed as needing root"; }
		expect kernel/osnoise n/a "$TFS/available_tracers: cannot be read without root"
	fi
	line tasks/percpu >/dev/null || fail "as nobody: no tasks/percpu line"
fi
cp /tmp/osn-audit-passwd /etc/passwd

# ---- bad input: one line, exit 2 ---------------------------------------------------
# bad WANT_ERE ARGS...
bad() {
	_w=$1
	shift
	"$OSN" audit "$@" >"$O" 2>"$E"
	RC=$?
	info "osn audit $* -> $RC: $(cat "$E")"
	assert_eq "$RC" 2 "exit status of osn audit $*"
	cli_one_line "$E" || fail "osn audit $*: not one 'osn: ' line: $(cat "$E")"
	grep -Eq -- "$_w" "$E" || fail "osn audit $*: '$(cat "$E")' !~ /$_w/"
	[ -s "$O" ] && fail "osn audit $*: wrote to stdout"
	return 0
}
bad "osn: audit: -c '99': cpu 99 does not exist \\(this machine has cpus 0-" -c 99
bad "osn: audit: -c 'x' is not a cpu list" -c x
bad "osn: audit: unknown option --bogus" --bogus
bad "osn: audit: -c needs a cpu list" -c
bad "osn: audit: -c 0-$((NCPU - 1)) leaves no housekeeping CPU" -c "0-$((NCPU - 1))"
exit 0
