#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-matrix.sh [--long] [--result FILE] [KERNEL...] - the guest suite on
# every kernel of the matrix (default: all ten, tests/vm/common.sh).  A VM
# runs single-threaded TCG (one host core, see run-kernel.sh), so
# OSN_VM_JOBS kernels run at once (default: the host's cores, at most 2;
# 1 runs them one after the other).  Each kernel's output is printed as a
# block when it ends.  Filters, vCPUs, timeouts: see run-kernel.sh
# (OSN_TESTS_FILTER, OSN_VM_SMP, OSN_VM_TIMEOUT, ...).
# Prints a per-kernel summary with wall times and ends with
# "N passed, N failed, N skipped"; --result FILE gets
# "pass=N fail=N skip=N".  Exit status 0 only if every kernel passed.
# --beside CMD: CMD (sh -c) runs as one more job in the first slot that
# frees once every kernel has started (the matrix's tail leaves a core
# idle), its output in build/vm/beside.log; the matrix waits for it and
# prints what it cost (run-all.sh: the rotating mutants).
set -uo pipefail
. "$(dirname "$0")/common.sh"

long=()
result='' beside=''
while [ $# -gt 0 ]; do
	case "$1" in
	--long) long=(--long); shift ;;
	--result) result=$2; shift 2 ;;
	--beside) beside=$2; shift 2 ;;
	-h|--help) sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- $OSN_ALL_KERNELS
for k in "$@"; do check_kernel_name "$k"; done

mkdir -p "$OSN_BUILD/vm"
t0=$(now_s)
tp=0 tf=0 ts=0
rows=()

# The CLI is the same host binary for every kernel: build it once.
if [ -e "$OSN_ROOT/tools/Makefile" ]; then
	if make -C "$OSN_ROOT/tools" -j"$(nproc)" >"$OSN_BUILD/vm/build-tools.log" 2>&1; then
		note "built tools/osn"
	else
		note "make -C tools FAILED (build/vm/build-tools.log):"
		grep -E 'error|Error|\*\*\*' "$OSN_BUILD/vm/build-tools.log" | head -n 20 | sed 's/^/    /' >&2
		tf=$((tf + 1))
		rows+=("$(printf '%-8s %6s %6s %6s %7s  %s' tools - 1 - - 'FAIL (make -C tools)')")
	fi
fi
export OSN_VM_NO_TOOLS=1

njobs=${OSN_VM_JOBS:-$(nproc)}
[ "$njobs" -ge 1 ] 2>/dev/null || die "OSN_VM_JOBS: '$njobs' is not a positive number"
[ "$njobs" -le 2 ] || [ -n "${OSN_VM_JOBS:-}" ] || njobs=2

# run_one K OUT: the whole run of kernel K, its output into OUT.
run_one() {
	"$OSN_ROOT/tests/vm/run-kernel.sh" "${long[@]}" "$1" >"$2" 2>&1
}

# Start every kernel, at most $njobs at a time; remember their outputs.
declare -A outs pids
for k in "$@"; do
	while [ "$(jobs -rp | wc -l)" -ge "$njobs" ]; do
		wait -n 2>/dev/null || true
	done
	outs[$k]=$(mktemp "$OSN_BUILD/vm/.out-$k.XXXXXX")
	note "starting $k ($(date -u +%H:%M:%S))"
	run_one "$k" "${outs[$k]}" &
	pids[$k]=$!
done
bpid=
if [ -n "$beside" ]; then
	while [ "$(jobs -rp | wc -l)" -ge "$njobs" ]; do
		wait -n 2>/dev/null || true
	done
	tb=$(now_s)
	note "starting beside the matrix ($(date -u +%H:%M:%S)): $beside"
	sh -c "$beside" >"$OSN_BUILD/vm/beside.log" 2>&1 &
	bpid=$!
fi

for k in "$@"; do
	wait "${pids[$k]}" 2>/dev/null || true
	out=${outs[$k]}
	echo "==== $k ===="
	cat "$out"
	line=$(grep '^OSN-RESULT ' "$out" | tail -n 1)
	rm -f "$out"
	if [ -z "$line" ]; then
		# run-kernel.sh could not even start (setup error).
		tf=$((tf + 1))
		rows+=("$(printf '%-8s %6s %6s %6s %7s  %s' "$k" - 1 - - 'FAIL (setup, see above)')")
		continue
	fi
	p=$(echo "$line" | sed -n 's/.* pass=\([0-9]*\).*/\1/p')
	f=$(echo "$line" | sed -n 's/.* fail=\([0-9]*\).*/\1/p')
	s=$(echo "$line" | sed -n 's/.* skip=\([0-9]*\).*/\1/p')
	st=$(echo "$line" | sed -n 's/.* status=\([A-Za-z]*\).*/\1/p')
	tm=$(echo "$line" | sed -n 's/.* time=\([0-9]*s\).*/\1/p')
	rt=$(echo "$line" | sed -n 's/.* retries=\([0-9]*\).*/\1/p')
	[ "${rt:-0}" = 0 ] || st="$st, $rt retried"
	tp=$((tp + ${p:-0}))
	tf=$((tf + ${f:-1}))
	ts=$((ts + ${s:-0}))
	rows+=("$(printf '%-8s %6s %6s %6s %7s  %s' "$k" "$p" "$f" "$s" "$tm" "$st")")
done

if [ -n "$bpid" ]; then
	tk=$(now_s)
	wait "$bpid"
	brc=$?
	echo "beside the matrix: ${beside%% *}: $(($(now_s) - tb))s, of which $(($(now_s) - tk))s after the last kernel (exit $brc, build/vm/beside.log)"
fi
echo
echo "==== VM matrix summary ($(($(now_s) - t0))s) ===="
printf '%-8s %6s %6s %6s %7s  %s\n' kernel passed failed skipped time status
for r in "${rows[@]}"; do echo "$r"; done
[ -n "$result" ] && echo "pass=$tp fail=$tf skip=$ts" >"$result"
echo "$tp passed, $tf failed, $ts skipped"
[ "$tf" = 0 ]
