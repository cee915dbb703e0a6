#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-manifest.sh KERNEL EXPECTED-LIST CONSOLE-LOG [HOST-RESULTS] - compare
# what a guest run reported (the console log, and the host's own results of
# that kernel: the module builds) with what it had to run
# (tests/vm/manifest).
#   EXPECTED-LIST  the test names the host gave the guest, one per line
# Prints, for each problem, the protocol lines of a failed test:
#   OSN-TEST-NOTE: manifest/<test> <why>
#   OSN-TEST: FAIL manifest/<test> 0s
# and one line "OSN-TEST: PASS manifest/complete 0s" when there is none.
# Exit status 0 when nothing is wrong.
set -uo pipefail
. "$(dirname "$0")/common.sh"

[ $# -ge 3 ] || die "usage: check-manifest.sh KERNEL EXPECTED-LIST CONSOLE-LOG [HOST-RESULTS]"
K=$1 expected=$2 log=$3
shift 2
manifest=$OSN_ROOT/tests/vm/manifest
bad=0

problem() {	# test why
	echo "OSN-TEST-NOTE: manifest/$1 $2"
	echo "OSN-TEST: FAIL manifest/$1 0s"
	bad=$((bad + 1))
}

# allowed TEST: the manifest's reason to skip TEST on $K, if any.
allowed() {
	local what pat name why
	while read -r what pat name why; do
		[ "$what" = skip ] || continue
		# shellcheck disable=SC2254
		case $K in $pat) [ "$name" = "$1" ] && { echo "${why:-no reason given}"; return 0; } ;; esac
	done <"$manifest"
	return 1
}

results=$(cat "$@" | sed -n 's/^OSN-TEST: \(PASS\|FAIL\|SKIP\) \([^ ]*\) .*/\1 \2/p')
n=0
while read -r t; do
	[ -n "$t" ] || continue
	n=$((n + 1))
	r=$(echo "$results" | awk -v t="$t" '$2 == t { print $1 }' | tail -n 1)
	case $r in
	'') problem "$t" "did not report on $K (expected by the manifest)" ;;
	SKIP)
		if why=$(allowed "$t"); then
			echo "osn-manifest: $K: $t skipped, as the manifest allows ($why)" >&2
		else
			problem "$t" "skipped on $K, which the manifest does not allow: $(grep -F "OSN-TEST-NOTE: $t skipped: " "$log" | tail -n 1 | sed 's/.* skipped: //')"
		fi ;;
	esac
done <"$expected"

# The guest's own count of the tests it was given.
# every boot's count (run-kernel.sh puts the other boots' lines in the
# host results)
g=$(cat "$@" | sed -n 's/^OSN-GUEST: .* tests=\([0-9]*\).*/\1/p' |
	awk '{ s += $1 } END { if (NR) print s }')
nguest=$(grep -c '^build/' "$expected")
if [ -z "$g" ]; then
	problem guest-count "the guest never said how many tests it had (it did not boot?)"
elif [ "$g" != $((n - nguest)) ]; then
	problem guest-count "the guest ran $g tests, the host gave it $((n - nguest))"
fi
[ $bad = 0 ] && echo "OSN-TEST: PASS manifest/complete 0s"
[ $bad = 0 ]
