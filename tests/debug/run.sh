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
# timerlat, cli, vm) and faults/, the allocation-failure tests that need fault
# injection.  After every test the guest scans kmemleak (guest-init.sh);
# any report of lockdep, KASAN, UBSAN, kmemleak or the object debugger
# fails the run (parse-log.sh).  Not part of `make check`
# (Documentation/reliability.md says why, and gives the last result).
#
# The whole suite (no FILTER) runs as two VMs at once on a host with 2
# cores or more, one on engine/, injector/, vm/, faults/ and timerlat/, the other on
# reliability/ and cli/ (build/vm/debug-{a,b}/); OSN_DEBUG_SPLIT=0 runs
# one VM.  Environment: as tests/vm/run-kernel.sh (OSN_VM_MEM...).
# Ends with run-kernel.sh's OSN-RESULT line and "N passed, N failed".
set -euo pipefail
. "$(dirname "$0")/../vm/common.sh"

t0=$(now_s)
tree=$(record_tree)
"$OSN_ROOT/tests/debug/build-kernel.sh"

# The fail-nth helper, a host binary the guest runs.
mkdir -p "$OSN_BUILD/debug"
gcc -Wall -Wextra -Werror -O2 -o "$OSN_BUILD/debug/osn-failnth" "$OSN_ROOT/tests/debug/failnth.c"
# ... and its whole-program form, preloaded into osn (faults/30-osn-top).
gcc -Wall -Wextra -Werror -O2 -shared -fPIC -o "$OSN_BUILD/debug/osn-failnth.so" \
	"$OSN_ROOT/tests/debug/failnth-preload.c"

# KASAN's shadow and kmemleak's pool want more than the 1 GiB default.
export OSN_VM_MEM=${OSN_VM_MEM:-2048}
export OSN_GUEST_DIR=debug/guest
export OSN_VM_BINS="${OSN_VM_BINS:-} $OSN_BUILD/debug/osn-failnth $OSN_BUILD/debug/osn-failnth.so"
# Tests run 3-10 times slower under KASAN and lockdep: scale their limits.
export OSN_VM_ENV="${OSN_VM_ENV:-} OSN_TIMEOUT_SCALE=${OSN_TIMEOUT_SCALE:-5}"
# The one race left out (reliability/26-unload-busy.sh says why): an
# open() of a module's event file racing its rmmod is a use-after-free in
# 6.1's trace event core, fixed only with eventfs (6.9, b63db58e2fa5).
export OSN_VM_ENV="$OSN_VM_ENV REL_OPEN_RMMOD_RACE=0"
# Everything runs several times slower under KASAN and lockdep.
export OSN_VM_TIMEOUT=${OSN_VM_TIMEOUT:-10800}
rc=0
if [ $# -eq 0 ] && [ "$(nproc)" -ge 2 ] && [ "${OSN_DEBUG_SPLIT:-1}" = 1 ]; then
	# The whole suite: two VMs at once, one host core each (TCG runs
	# single-threaded), on two halves of about the same guest time.
	half() {	# name filter...
		local n=$1
		shift
		OSN_VM_WORK=$OSN_BUILD/vm/debug-$n \
			"$OSN_ROOT/tests/vm/run-kernel.sh" debug "$@" >"$OSN_BUILD/debug/run-$n.log" 2>&1
	}
	note "debug: two VMs: engine, injector, vm, faults, timerlat | reliability, cli (logs $OSN_BUILD/debug/run-{a,b}.log)"
	half a engine/ injector/ vm/ faults/ timerlat/ &
	pa=$!
	half b reliability/ cli/ &
	pb=$!
	wait $pa || rc=$?
	wait $pb || rc=$?
	cat "$OSN_BUILD/debug/run-a.log" "$OSN_BUILD/debug/run-b.log" >"$OSN_BUILD/debug/run.log"
	grep -E 'OSN-TEST: FAIL|OSN-RESULT' "$OSN_BUILD/debug/run.log" >&2 || true
	consoles="$OSN_BUILD/vm/debug-a/console.log $OSN_BUILD/vm/debug-b/console.log"
else
	"$OSN_ROOT/tests/vm/run-kernel.sh" debug "$@" 2>&1 | tee "$OSN_BUILD/debug/run.log" || rc=$?
	consoles=$OSN_BUILD/vm/debug/console.log
fi
p=0 f=0 n=0
while read -r line; do
	n=$((n + 1))
	p=$((p + $(echo "$line" | sed -n 's/.* pass=\([0-9]*\).*/\1/p')))
	f=$((f + $(echo "$line" | sed -n 's/.* fail=\([0-9]*\).*/\1/p')))
done < <(grep -o 'OSN-RESULT .*' "$OSN_BUILD/debug/run.log")
[ "$n" -gt 0 ] || f=1
# shellcheck disable=SC2086
grep -h 'OSN-FAULT' $consoles 2>/dev/null | sed 's/^ *//' >"$OSN_BUILD/debug/faults.txt" || true
note "debug: $(cat "$OSN_KCACHE/debug/kver") built in $(cat "$OSN_KCACHE/debug/build-seconds" 2>/dev/null || echo '?') s; run $(( $(now_s) - t0 )) s; fault table in $OSN_BUILD/debug/faults.txt"
record_row "make check-debug" "${p:-0}" "${f:-1}" $(( $(now_s) - t0 )) "$tree"
echo "${p:-0} passed, ${f:-1} failed"
exit $rc
