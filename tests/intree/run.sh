#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [FILTER...] - `make check-intree`: osn built into a kernel, as the
# ftrace tracer "osn" (kernel/osn_tracer.c).  Builds the in-tree kernel
# (tests/intree/build-kernel.sh: the debug kernel's tree with osn dropped in
# and CONFIG_OSN_TRACER=y; the debug kernel is built first if need be) and
# runs tests/intree/guest/ on it: tracer/ (current_tracer, tracefs osn/,
# bad input, instances, stop conditions, the per-period line, the events
# beside it) and cli/ (the whole CLI suite, which finds the tracer's knobs
# in tracefs osn/).  The kernel keeps the debug kernel's checkers: any
# lockdep, KASAN, UBSAN or kmemleak report fails the run.  A skipped test
# fails it too: every test here has what it needs on this kernel.  Not part
# of `make check` (Documentation/engine.md, "In-tree build", says why).
#
# Environment: as tests/vm/run-kernel.sh (OSN_TESTS_FILTER, OSN_VM_MEM...).
# Ends with "N passed, N failed".
set -euo pipefail
. "$(dirname "$0")/../vm/common.sh"

t0=$(now_s)
tree=$(record_tree)
"$OSN_ROOT/tests/intree/build-kernel.sh"

export OSN_VM_MEM=${OSN_VM_MEM:-2048}
export OSN_GUEST_DIR=intree/guest
export OSN_VM_ENV="${OSN_VM_ENV:-} OSN_TIMEOUT_SCALE=${OSN_TIMEOUT_SCALE:-5}"
export OSN_VM_TIMEOUT=${OSN_VM_TIMEOUT:-10800}
mkdir -p "$OSN_BUILD/intree"
log=$OSN_BUILD/intree/run.log
rc=0
"$OSN_ROOT/tests/vm/run-kernel.sh" intree "$@" 2>&1 | tee "$log" || rc=$?
line=$(grep -o 'OSN-RESULT .*' "$log" | tail -n 1)
p=$(echo "$line" | sed -n 's/.* pass=\([0-9]*\).*/\1/p')
f=$(echo "$line" | sed -n 's/.* fail=\([0-9]*\).*/\1/p')
# The one skip allowed, and why: the debug kernel's config (allnoconfig +
# tests/debug/debug.config) has no networking, and osn monitor's test
# scrapes its HTTP endpoint.
allowed='cli/98-monitor'
s=$(grep '^OSN-TEST: SKIP ' "$OSN_BUILD/vm/intree/console.log" 2>/dev/null |
	awk -v a="$allowed" '$3 != a' | grep -c . || true)
if [ "${s:-0}" -gt 0 ]; then
	grep '^OSN-TEST: SKIP ' "$OSN_BUILD/vm/intree/console.log" | sed 's/^/  /' >&2
	note "intree: ${s} test(s) skipped: a skip here hides the tracer build"
	f=$(( ${f:-0} + s ))
	rc=1
fi
note "intree: $(cat "$OSN_KCACHE/intree/kver") built in $(cat "$OSN_KCACHE/intree/build-seconds" 2>/dev/null || echo '?') s; run $(( $(now_s) - t0 )) s"
record_row "make check-intree" "${p:-0}" "${f:-1}" $(( $(now_s) - t0 )) "$tree"
echo "${p:-0} passed, ${f:-1} failed"
exit $rc
