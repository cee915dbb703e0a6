#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# selftest-manifest.sh - check-manifest.sh against made-up guest runs: a
# complete run passes; a test that did not report, a skip the manifest
# does not allow, a guest that ran another number of tests and a guest
# that never booted fail; an allowed skip passes (with a manifest of its
# own).  Ends with "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
pass=0 fail=0
check() {	# NAME WANT-RC EXPECTED-GREP ARGS...
	local name=$1 want=$2 grepfor=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$grepfor" <<<"$out"; then
		echo "ok $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name (exit $rc, want $want; output: $out)"
		fail=$((fail + 1))
	fi
}
printf 'build/osn.ko\nbuild/osn_inject.ko\nengine/10-a\nengine/20-b\n' >"$d/expected"
printf 'OSN-TEST: PASS build/osn.ko 0s\nOSN-TEST: PASS build/osn_inject.ko 0s\n' >"$d/host"
g() { echo "OSN-GUEST: kernel=x kver=6.1 rt=0 cpus=2 clocksource=tsc tests=$1 filter=''"; }
{ g 2; echo 'OSN-TEST: PASS engine/10-a 1.00s'; echo 'OSN-TEST: FAIL engine/20-b 1.00s'; } >"$d/complete"
{ g 2; echo 'OSN-TEST: PASS engine/10-a 1.00s'; } >"$d/missing"
{ g 2; echo 'OSN-TEST: PASS engine/10-a 1.00s'; echo 'OSN-TEST-NOTE: engine/20-b skipped: SKIP: no foo here'
  echo 'OSN-TEST: SKIP engine/20-b 1.00s'; } >"$d/skip"
{ g 3; echo 'OSN-TEST: PASS engine/10-a 1.00s'; echo 'OSN-TEST: PASS engine/20-b 1.00s'; } >"$d/count"
: >"$d/noboot"
# two boots: the second boot's lines come with the host results
{ g 1; echo 'OSN-TEST: PASS engine/10-a 1.00s'; } >"$d/boot1"
{ cat "$d/host"; g 1; echo 'OSN-TEST: PASS engine/20-b 1.00s'; } >"$d/host2"
m=$here/check-manifest.sh
check complete 0 'PASS manifest/complete' "$m" 6.1 "$d/expected" "$d/complete" "$d/host"
check missing-test 1 'FAIL manifest/engine/20-b' "$m" 6.1 "$d/expected" "$d/missing" "$d/host"
check missing-build 1 'FAIL manifest/build/osn.ko' "$m" 6.1 "$d/expected" "$d/complete"
check skip-not-allowed 1 'not allow: SKIP: no foo here' "$m" 6.1 "$d/expected" "$d/skip" "$d/host"
check count-differs 1 'the guest ran 3 tests, the host gave it 2' "$m" 6.1 "$d/expected" "$d/count" "$d/host"
check two-boots 0 'PASS manifest/complete' "$m" 6.1 "$d/expected" "$d/boot1" "$d/host2"
check two-boots-missing 1 'FAIL manifest/engine/20-b' "$m" 6.1 "$d/expected" "$d/boot1" "$d/host"
check no-boot 1 'FAIL manifest/guest-count' "$m" 6.1 "$d/expected" "$d/noboot" "$d/host"
# An allowed skip: the same run against a manifest that allows it on 6.*.
mkdir -p "$d/tree/tests/vm"
cp "$here/check-manifest.sh" "$here/common.sh" "$d/tree/tests/vm/"
echo 'skip 6.* engine/20-b the test needs foo' >"$d/tree/tests/vm/manifest"
check skip-allowed 0 'PASS manifest/complete' "$d/tree/tests/vm/check-manifest.sh" 6.1 "$d/expected" "$d/skip" "$d/host"
check skip-allowed-elsewhere 1 'FAIL manifest/engine/20-b' "$d/tree/tests/vm/check-manifest.sh" 5.10 "$d/expected" "$d/skip" "$d/host"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
