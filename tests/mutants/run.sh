#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [--kernel K] [MUTANT...] - `make check-mutants`: prove that the
# suite bites.  Each mutant is a deliberate bug compiled into osn.ko or the
# CLI under -DOSN_MUTANT_<NAME>=1 (OSN_MUTANT() in kernel/osn_internal.h;
# #ifdef in tools/src/).  For each, a copy of the tree is built with the bug
# and the part of the guest suite that should catch it runs on one kernel
# (default 6.1): the mutant must make at least one test FAIL ("killed").  A
# mutant that survives is a missing test.  Prints, per mutant, the tests
# that killed it, and ends with "N passed, N failed" (a killed mutant is a
# pass).  Not part of `make check` (about 2 minutes a mutant).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../vm/common.sh"

K=6.1
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) K=$2; shift 2 ;;
	-h|--help) sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
check_kernel_name "$K"

# NAME|where (kernel or cli)|tests that must catch it|what the bug is
MUTANTS='
IRQ_LONG_DROPPED|kernel|engine/20-attrib-irq cli/20-top-irq|hard IRQs longer than 100 us left out of the per-period statistics
SOFTIRQ_AS_IRQ|kernel|engine/21-attrib-softirq|softirq time accounted as IRQ time
NO_NESTED|kernel|engine/24-attrib-nested|nested noise not subtracted from the noise it interrupted
STOP_TOTAL_NEVER|kernel|cli/40-stop-explain|the stop condition on the period total never fires
STOP_SNAPSHOT|kernel|engine/61-stop-knob-live|a stop fires on the threshold of its period'"'"'s start, not the knob as it is now
HOTPLUG_NO_RESTART|kernel|engine/70-hotplug reliability/20-hotplug-storm|a CPU that comes back online gets no workload thread
CLI_WRONG_CPU|cli|cli/20-top-irq|osn top adds a CPU'"'"'s periods to another CPU'"'"'s statistics
JSON_UNITS|cli|cli/20-top-irq cli/60-json|JSON times in ns where us are promised
SELF_IN_GAP|kernel|engine/26-self|osn'"'"'s own work (writing a sample) falls in the next gap again
DURATION_EARLY|cli|cli/80-duration|-d ends at its deadline, without the periods still running
PCT_EDGE|cli|cli/85-hist-percentiles|hist percentiles at the display buckets'"'"' edges
CAUSE_TARGET_CPU|kernel|engine/27-causes cli/42-stop-culprit|a noise cause'"'"'s origin CPU is the measured CPU, not the sender'"'"'s
CAUSE_HIST_SUM|cli|cli/43-hist-culprit|osn hist --causes puts a culprit'"'"'s running total in its histogram, not each noise'"'"'s duration
MONITOR_NO_RESUME|cli|cli/98-monitor|osn monitor does not set itself up again when osn.ko comes back
'
want=" $* "
out=$OSN_BUILD/mutants
mkdir -p "$out"
killed=0 survived=0
report=()
while IFS='|' read -r name where tests what; do
	[ -n "$name" ] || continue
	[ "$want" = "  " ] || case $want in *" $name "*) ;; *) continue ;; esac
	d=$out/$name
	rm -rf "$d"
	mkdir -p "$d/tree"
	# The tree as it is now (committed or not), without build products.
	(cd "$OSN_ROOT" && git ls-files -co --exclude-standard -z | tar -c --null -T -) |
		tar -x -C "$d/tree"
	t0=$(now_s)
	echo "== mutant $name ($where): $what"
	if [ "$where" = cli ]; then
		make -C "$d/tree/tools" CFLAGS="-DOSN_MUTANT_$name=1" >"$d/build-tools.log" 2>&1 ||
			{ echo "   cannot build the mutant CLI (see $d/build-tools.log)"; survived=$((survived + 1)); continue; }
	else
		make -C "$d/tree/tools" >"$d/build-tools.log" 2>&1 ||
			{ echo "   cannot build the CLI (see $d/build-tools.log)"; survived=$((survived + 1)); continue; }
	fi
	# shellcheck disable=SC2086
	OSN_MUTANT=$name OSN_BUILD=$d/build OSN_KCACHE=$OSN_KCACHE OSN_ROOTS=$OSN_ROOTS \
		OSN_VM_NO_TOOLS=1 OSN_TESTS_FILTER="$tests" \
		"$d/tree/tests/vm/run-kernel.sh" "$K" >"$d/run.log" 2>&1
	by=$(grep -h '^OSN-TEST: FAIL ' "$d/build/vm/$K/console.log" "$d/build/vm/$K/host-results" 2>/dev/null |
		awk '{ print $3 }' | grep -v '^manifest/' | sort -u | tr '\n' ' ')
	if [ -n "$by" ]; then
		killed=$((killed + 1))
		line="killed by: $by"
	else
		survived=$((survived + 1))
		line="SURVIVED (ran: $tests; see $d/run.log)"
	fi
	echo "   $line ($(($(now_s) - t0))s)"
	report+=("$(printf '%-20s %-6s %s' "$name" "$where" "$line")")
done <<<"$MUTANTS"

echo
echo "==== mutants on $K ===="
for r in "${report[@]}"; do echo "$r"; done
echo "$killed passed, $survived failed"
[ "$survived" = 0 ]
