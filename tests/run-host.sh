#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-host.sh [--result FILE] - the host-side tests:
#   - tests/vm/selftest-parser.sh (the VM bench's log judge catches WARNs)
#   - tests/vm/selftest-manifest.sh (a missing test or an unallowed skip
#     fails a kernel's run)
#   - tests/abi-check.sh (the module's events, fields and parameters are
#     those of include/osn/osn_abi.h)
#   - tests/arch-check.sh (Documentation/architecture.md names every source
#     file; file and function length limits)
#   - tests/checkpatch.sh (checkpatch --strict on kernel/: no ERROR or
#     WARNING outside tests/checkpatch.allow)
#   - tests/mutants/run.sh --check (each mutant's line is still found once)
#   - make -C tools check (CLI unit tests, plain and ASan+UBSan), if
#     tools/Makefile exists
#   - tests/report/browser.sh (the --report page in headless Chromium;
#     skipped without chromium, failed without it when CI=true)
# (osn.ko and osn_inject.ko are built with W=1 and sparse, with each kernel's
# own release's toolchain, by tests/vm/build-module.sh as the first tests of
# that kernel's guest run: tests/vm/run-kernel.sh.)
# Robust to a partial tree: a missing part counts as nothing, not a crash.
# Ends with "N passed, N failed, N skipped"; --result FILE gets
# "pass=N fail=N skip=N".  Exit status 0 only if nothing failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm/common.sh"

result=
while [ $# -gt 0 ]; do
	case "$1" in
	--result) result=$2; shift 2 ;;
	-h|--help) sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done

tp=0 tf=0 ts=0
log_dir=$OSN_BUILD/host
mkdir -p "$log_dir"

# add_counts LABEL FILE: add the last "N passed, N failed[, N skipped]" of
# FILE; returns 1 if there is none.
add_counts() {
	local l p f s
	l=$(grep -Eo '[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?' "$2" | tail -n 1)
	[ -n "$l" ] || return 1
	p=$(echo "$l" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
	f=$(echo "$l" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	s=$(echo "$l" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
	tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + ${s:-0}))
	echo "host: $1: $l"
}

# ---- the VM bench's log parser --------------------------------------------
echo "== host: tests/vm/selftest-parser.sh"
"$here/vm/selftest-parser.sh" >"$log_dir/selftest-parser.log" 2>&1
grep -v '^ok' "$log_dir/selftest-parser.log" | grep -v 'passed,' | sed 's/^/  /'
add_counts "parser self-test" "$log_dir/selftest-parser.log" ||
	{ echo "host: parser self-test did not run"; tf=$((tf + 1)); }

# ---- the manifest check of each guest run ---------------------------------
echo "== host: tests/vm/selftest-manifest.sh"
"$here/vm/selftest-manifest.sh" >"$log_dir/selftest-manifest.log" 2>&1
grep -v '^ok' "$log_dir/selftest-manifest.log" | grep -v 'passed,' | sed 's/^/  /'
add_counts "manifest self-test" "$log_dir/selftest-manifest.log" ||
	{ echo "host: manifest self-test did not run"; tf=$((tf + 1)); }

# ---- kernel coding style ----------------------------------------------------
echo "== host: tests/checkpatch.sh"
"$here/checkpatch.sh" >"$log_dir/checkpatch.log" 2>&1
grep -E '^(OSN-TEST|    )' "$log_dir/checkpatch.log" | sed 's/^/  /'
add_counts "checkpatch" "$log_dir/checkpatch.log" ||
	{ echo "host: checkpatch did not run"; tf=$((tf + 1)); }

# ---- the ABI header against the module --------------------------------------
echo "== host: tests/abi-check.sh"
"$here/abi-check.sh" >"$log_dir/abi-check.log" 2>&1
grep -E '^OSN-TEST(-NOTE)?: (FAIL|abi)' "$log_dir/abi-check.log" | sed 's/^/  /'
add_counts "ABI check" "$log_dir/abi-check.log" ||
	{ echo "host: ABI check did not run"; tf=$((tf + 1)); }

# ---- the map and the shape of the code ---------------------------------------
echo "== host: tests/arch-check.sh"
"$here/arch-check.sh" >"$log_dir/arch-check.log" 2>&1
grep -E '^OSN-TEST(-NOTE)?: ' "$log_dir/arch-check.log" | grep -v ': PASS ' | sed 's/^/  /'
add_counts "map and shape" "$log_dir/arch-check.log" ||
	{ echo "host: map and shape check did not run"; tf=$((tf + 1)); }

# ---- every mutant still applies to the code as it is -----------------------
echo "== host: tests/mutants/run.sh --check"
"$here/mutants/run.sh" --check >"$log_dir/mutants-check.log" 2>&1
grep -v 'passed,' "$log_dir/mutants-check.log" | sed 's/^/  /'
add_counts "mutants apply" "$log_dir/mutants-check.log" ||
	{ echo "host: the mutants' check did not run"; tf=$((tf + 1)); }

# ---- CLI unit tests -------------------------------------------------------
if [ -e "$OSN_ROOT/tools/Makefile" ] &&
   grep -q '^check:' "$OSN_ROOT/tools/Makefile"; then
	echo "== host: make -C tools check"
	make -C "$OSN_ROOT/tools" check >"$log_dir/tools-check.log" 2>&1
	rc=$?
	grep -Ev '^(ok|PASS)' "$log_dir/tools-check.log" | tail -n 40 | sed 's/^/  /'
	if ! add_counts "tools unit tests" "$log_dir/tools-check.log"; then
		echo "host: make -C tools check gave no counts (exit $rc): counted as 1 failure"
		tf=$((tf + 1))
	elif [ $rc != 0 ] && ! grep -Eq '[1-9][0-9]* failed' "$log_dir/tools-check.log"; then
		echo "host: make -C tools check failed (exit $rc) with no failed test: counted as 1 failure"
		tf=$((tf + 1))
	fi
else
	echo "== host: tools/ has no 'check' target yet: no CLI unit tests"
fi

# ---- the --report page in headless Chromium ---------------------------------
# (skipped without chromium, but in CI, where its absence fails)
if [ -x "$here/report/browser.sh" ]; then
	echo "== host: tests/report/browser.sh"
	"$here/report/browser.sh" >"$log_dir/browser.log" 2>&1
	grep -E '^(FAIL|SKIP|benchmark|PNGs)' "$log_dir/browser.log" | sed 's/^/  /'
	add_counts "report in Chromium" "$log_dir/browser.log" ||
		{ echo "host: report browser test did not run"; tf=$((tf + 1)); }
fi

[ -n "$result" ] && echo "pass=$tp fail=$tf skip=$ts" >"$result"
echo "host: $tp passed, $tf failed, $ts skipped"
[ "$tf" = 0 ]
