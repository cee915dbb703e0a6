#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-host.sh [--result FILE] - the host-side tests:
#   - tests/vm/selftest-parser.sh (the VM bench's log judge catches WARNs)
#   - tests/vm/selftest-manifest.sh (a missing test or an unallowed skip
#     fails a kernel's run)
#   - tests/abi-check.sh (the module's events, fields and parameters are
#     those of include/osn/osn_abi.h)
#   - tests/vm/shard-check.sh (the sharded matrix: each sharded test on one
#     other kernel a day, every kernel within nine days)
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

# run_part LABEL LOG SHOW-ERE CMD...: run a part of the host tests into
# build/host/LOG, show its lines matching SHOW-ERE (the failures, mostly),
# and add its counts; a part that prints none is one failure.
run_part() {
	local label=$1 log=$log_dir/$2 show=$3
	shift 3
	echo "== host: ${*#"$here/"}"
	"$@" >"$log" 2>&1
	grep -E "$show" "$log" | grep -v 'passed,' | sed 's/^/  /'
	add_counts "$label" "$log" ||
		{ echo "host: $label did not run"; tf=$((tf + 1)); }
}

# The VM bench's log parser and the manifest check of each guest run.
run_part "parser self-test" selftest-parser.log '^[^o]|^o[^k]' "$here/vm/selftest-parser.sh"
run_part "manifest self-test" selftest-manifest.log '^[^o]|^o[^k]' "$here/vm/selftest-manifest.sh"
# The sharded matrix of make check: a partition that covers every kernel.
run_part "shard plan" shard-check.log '^OSN-TEST-NOTE: |^OSN-TEST: [^P]' "$here/vm/shard-check.sh"
# Kernel coding style, the ABI header against the module, the map and the
# shape of the code, and every mutant still applying to the code as it is.
run_part checkpatch checkpatch.log '^(OSN-TEST|    )' "$here/checkpatch.sh"
run_part "ABI check" abi-check.log '^OSN-TEST(-NOTE)?: (FAIL|abi)' "$here/abi-check.sh"
run_part "map and shape" arch-check.log '^OSN-TEST-NOTE: |^OSN-TEST: [^P]' "$here/arch-check.sh"
run_part "mutants apply" mutants-check.log '.' "$here/mutants/run.sh" --check

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
