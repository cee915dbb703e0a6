#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [FILTER...] - `make check-debug`: the guest suite on the debug
# kernel (tests/debug/build-kernel.sh: lockdep, KASAN, UBSAN, kmemleak,
# debug objects, fault injection, PREEMPT), built once and cached.
#
# The guest runs tests/debug/guest/: the whole guest suite (links to
# tests/guest/*: engine, reliability with its hotplug, event-toggle,
# unload-while-busy, buffer-full, NMI and memory-pressure tests, injector,
# cli, vm) and faults/, the allocation-failure tests that need fault
# injection.  After every test the guest scans kmemleak (guest-init.sh);
# any report of lockdep, KASAN, UBSAN, kmemleak or the object debugger
# fails the run (parse-log.sh).  Not part of `make check`
# (Documentation/reliability.md says why, and gives the last result).
#
# Environment: as tests/vm/run-kernel.sh (OSN_TESTS_FILTER, OSN_VM_MEM...).
# Ends with run-kernel.sh's OSN-RESULT line and "N passed, N failed".
set -euo pipefail
. "$(dirname "$0")/../vm/common.sh"

t0=$(now_s)
"$OSN_ROOT/tests/debug/build-kernel.sh"

# The fail-nth helper, a host binary the guest runs.
mkdir -p "$OSN_BUILD/debug"
gcc -Wall -Wextra -Werror -O2 -o "$OSN_BUILD/debug/osn-failnth" "$OSN_ROOT/tests/debug/failnth.c"

# KASAN's shadow and kmemleak's pool want more than the 1 GiB default.
export OSN_VM_MEM=${OSN_VM_MEM:-2048}
export OSN_GUEST_DIR=debug/guest
export OSN_VM_BINS="${OSN_VM_BINS:-} $OSN_BUILD/debug/osn-failnth"
# Tests run 3-10 times slower under KASAN and lockdep: scale their limits.
export OSN_VM_ENV="${OSN_VM_ENV:-} OSN_TIMEOUT_SCALE=${OSN_TIMEOUT_SCALE:-5}"
# Everything runs several times slower under KASAN and lockdep.
export OSN_VM_TIMEOUT=${OSN_VM_TIMEOUT:-10800}
rc=0
"$OSN_ROOT/tests/vm/run-kernel.sh" debug "$@" 2>&1 | tee "$OSN_BUILD/debug/run.log" || rc=$?
line=$(grep -o 'OSN-RESULT .*' "$OSN_BUILD/debug/run.log" | tail -n 1)
p=$(echo "$line" | sed -n 's/.* pass=\([0-9]*\).*/\1/p')
f=$(echo "$line" | sed -n 's/.* fail=\([0-9]*\).*/\1/p')
grep -h 'OSN-FAULT' "$OSN_BUILD/vm/debug/console.log" 2>/dev/null | sed 's/^ *//' >"$OSN_BUILD/debug/faults.txt" || true
note "debug: $(cat "$OSN_KCACHE/debug/kver") built in $(cat "$OSN_KCACHE/debug/build-seconds" 2>/dev/null || echo '?') s; run $(( $(now_s) - t0 )) s; fault table in $OSN_BUILD/debug/faults.txt"
echo "${p:-0} passed, ${f:-1} failed"
exit $rc
