#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [--kernel K]... [--repeats N] [--quick] [--no-doc] - benchmark osn
# against upstream osnoise, rtla and oslat, and osn timerlat against
# upstream timerlat and cyclictest (`make bench`).
#
#   tests/bench/run.sh                   the Debian 6.1 PREEMPT_RT kernel (it
#                                        carries upstream osnoise and rtla
#                                        works there): osn vs upstream
#   tests/bench/run.sh --kernel 6.1      the generic kernel: osn only
#   tests/bench/run.sh --kernel 6.1-rt --kernel 6.1
#
# One QEMU (TCG) boot per kernel through the VM bench (tests/vm/run-kernel.sh
# with OSN_GUEST_DIR=bench/guest): it builds osn.ko, the injector and
# tools/osn, packs them with rtla, oslat, stress-ng and jq, and runs
# tests/bench/guest/NN-*.sh, which alternate the tracers within the boot
# and print OSN-BENCH result lines.  tests/bench/report.py turns them into
#   build/bench/<K>/results.{md,json}     per kernel (results.md: the
#                                         osnoise figures)
#   build/bench/<K>/timerlat.md           60-timerlat.sh's table
#   build/bench/<K>/timerlat-user.md      62-timerlat-user.sh's and
#                                         63-timerlat-toolcost.sh's table
#   build/bench/results.{md,json}, timerlat.md   the latest run
# and (unless --no-doc) replaces the <K>, "<K> timerlat" and "<K>
# timerlat-user" tables in
# Documentation/performance.md (each only when the run has its figures:
# OSN_TESTS_FILTER=60-timerlat runs that script alone).
# Logs: build/bench/<K>/run.log (whole console), build/bench/vm/<K>/.
#
#   --repeats N   repeats of every measurement (default 5; env BENCH_REPEATS)
#   --quick       1 repeat, short windows: a smoke test of the harness
#   --scale       instead: how osn grows with the CPU count.  One boot per
#                 vCPU count (BENCH_SMPS, default "16 32 64"; "2 4 8" for a
#                 quick one) running 30-overhead, 40-toolcost, 45-monitor,
#                 50-footprint and 63-timerlat-toolcost with every CPU
#                 but 0 measured (BENCH_SCALE=1 in the guest); the table
#                 goes to build/bench/<K>/scale.md and the "<K> scale
#                 16/32/64" block (the sizes run) of
#                 Documentation/performance.md
#
# Never part of `make check`: figures are reported, not asserted.  Exit
# status: 0 when every kernel produced results, 1 otherwise.
set -euo pipefail
. "$(dirname "$0")/../vm/common.sh"

kernels=()
repeats=${BENCH_REPEATS:-5}
quick=0
doc=1
scale=0
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernels+=("$2"); shift 2 ;;
	--kernel=*) kernels+=("${1#*=}"); shift ;;
	--repeats) repeats=$2; shift 2 ;;
	--quick) quick=1; repeats=1; shift ;;
	--scale) scale=1; shift ;;
	--no-doc) doc=0; shift ;;
	-h|--help) sed -n '3,41p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=(6.1-rt)
for k in "${kernels[@]}"; do check_kernel_name "$k"; done
case $repeats in ''|*[!0-9]*|0) die "--repeats wants a positive number" ;; esac
command -v python3 >/dev/null || die "python3 is needed for the report"

out=$OSN_BUILD/bench
mkdir -p "$out"
# The bench's own build directory (its work dirs, not the test suite's), the
# shared kernel cache and release chroots (tests/install-deps.sh made them;
# the kernels of other releases resolve their packages there).
export OSN_KCACHE OSN_ROOTS
export OSN_BUILD=$out
export OSN_GUEST_DIR=bench/guest
export OSN_VM_VERBOSE=1
export OSN_VM_ENV="BENCH_REPEATS=$repeats BENCH_QUICK=$quick"

# scale_kernel K: the --scale boots of K and their table.
scale_kernel() {
	local K=$1 kout=$out/$1 smp logs=() secs t0 rc=0 smps=${BENCH_SMPS:-16 32 64}
	mkdir -p "$kout"
	t0=$(now_s)
	for smp in $smps; do
		note "bench $K, $smp vCPUs (scale): log $kout/scale-$smp.log"
		# single-threaded TCG shares one host CPU among the vCPUs: the
		# guest runs about smp/2 times slower than with 2 vCPUs
		OSN_VM_SMP=$smp OSN_VM_MEM=$((1024 + 128 * smp)) \
			OSN_VM_TIMEOUT=$((3600 * smp / 2)) \
			OSN_VM_ENV="$OSN_VM_ENV BENCH_SCALE=1 OSN_TIMEOUT_SCALE=$(((smp + 1) / 2))" \
			"$OSN_ROOT/tests/vm/run-kernel.sh" "$K" 30-overhead 40-toolcost 45-monitor \
			50-footprint 63-timerlat-toolcost \
			>"$kout/scale-$smp.log" 2>&1 || rc=1
		grep -E '^(OSN-TEST:|OSN-RESULT)|OSN-BENCH' "$kout/scale-$smp.log" | sed "s/^ */  [$K x$smp] /"
		logs+=("$kout/scale-$smp.log")
	done
	secs=$(($(now_s) - t0))
	python3 "$OSN_ROOT/tests/bench/report.py" --scale --kernel "$K" --repeats "$repeats" \
		--commit "$(git -C "$OSN_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
		--md "$kout/scale.md" "${logs[@]}" || return 1
	if [ $doc = 1 ] && [ $quick = 0 ]; then
		python3 "$OSN_ROOT/tests/bench/report.py" --update-doc \
			"$OSN_ROOT/Documentation/performance.md" \
			--kernel "$K scale $(echo $smps | tr ' ' /)" --md "$kout/scale.md"
	fi
	cat "$kout/scale.md"
	note "bench $K (scale): ${secs}s, table in $kout/scale.md"
	return $rc
}

status=0
if [ $scale = 1 ]; then
	for K in "${kernels[@]}"; do
		scale_kernel "$K" || status=1
	done
	exit $status
fi
for K in "${kernels[@]}"; do
	kout=$out/$K
	mkdir -p "$kout"
	note "bench $K: $repeats repeats$([ $quick = 1 ] && echo ', quick'), log $kout/run.log"
	t0=$(now_s)
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	set +e
	"$OSN_ROOT/tests/vm/run-kernel.sh" "$K" 2>&1 | tee "$kout/run.log" |
		grep --line-buffered -E '^(osn-vm:|OSN-TEST:|OSN-TEST-NOTE:|OSN-RESULT|OSN-GUEST:)|OSN-BENCH|^ *(FAIL|SKIP):' |
		sed -u "s/^ */  [$K] /"
	vrc=${PIPESTATUS[0]}
	set -e
	secs=$(($(now_s) - t0))
	load1=$(cut -d' ' -f1-3 /proc/loadavg)

	# host-side figures: osn.ko sections as built for this kernel
	host=$kout/host.lines
	: >"$host"
	ko=$(ls -t "$out/vm/$K/ko/osn.ko" "$out/vm/$K".run*/ko/osn.ko 2>/dev/null | head -n 1 || true)
	if [ -n "$ko" ] && command -v size >/dev/null; then
		size "$ko" | awk 'NR == 2 { printf "OSN-BENCH fig=size tracer=osn rep=1 text=%d data=%d bss=%d\n", $1, $2, $3 }' >>"$host"
		echo "OSN-BENCH fig=size tracer=osn rep=1 file_bytes=$(stat -c %s "$ko")" >>"$host"
	fi
	# the host's speed at the user-space code 45-monitor.sh times in the
	# guest (the same stress-ng binary): how much slower TCG runs it
	if command -v stress-ng >/dev/null; then
		stress-ng --cpu 1 --cpu-method int64 --timeout 5s --metrics-brief 2>&1 |
			awk '{ for (i = 1; i < NF; i++) if ($i == "cpu" && $(i + 1) ~ /^[0-9]+$/) {
				printf "OSN-BENCH fig=speed tracer=host rep=1 ops_s=%s\n", $(NF - 1); exit } }' >>"$host"
	fi
	commit=$(git -C "$OSN_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
	dirty=$(git -C "$OSN_ROOT" status --porcelain -- kernel tools include 2>/dev/null | grep -c . || true)
	[ "$dirty" = 0 ] || commit="$commit+wip"

	# the host lines alone are no results: a guest that never ran must not
	# replace the kernel's table with an empty one
	if ! grep -q 'OSN-BENCH' "$kout/run.log"; then
		note "bench $K: no results (the guest printed none, exit $vrc; see $kout/run.log)"
		status=1
		continue
	fi
	# results.md: the osnoise figures, timerlat.md: 60-timerlat's; each
	# only when the run has some (OSN_TESTS_FILTER may select either)
	rm -f "$kout/results.md" "$kout/timerlat.md" "$kout/timerlat-user.md"
	if python3 "$OSN_ROOT/tests/bench/report.py" --kernel "$K" --repeats "$repeats" \
		--quick "$quick" --vm-status "$vrc" --seconds "$secs" \
		--host-load "$load0 -> $load1" --host-cpus "$(nproc)" --commit "$commit" \
		--qemu "$(qemu-system-x86_64 --version 2>/dev/null | head -n 1)" \
		--tcg "${OSN_VM_TCG_THREAD:-single}" \
		--md "$kout/results.md" --md-timerlat "$kout/timerlat.md" \
		--md-tluser "$kout/timerlat-user.md" \
		--json "$kout/results.json" "$kout/run.log" "$host"; then
		cp "$kout/results.json" "$out/results.json"
		for f in results:"$K" timerlat:"$K timerlat" timerlat-user:"$K timerlat-user"; do
			rm -f "$out/${f%%:*}.md"
			[ -s "$kout/${f%%:*}.md" ] || continue
			cp "$kout/${f%%:*}.md" "$out/${f%%:*}.md"
			if [ $doc = 1 ] && [ $quick = 0 ]; then
				python3 "$OSN_ROOT/tests/bench/report.py" --update-doc \
					"$OSN_ROOT/Documentation/performance.md" --kernel "${f#*:}" \
					--md "$kout/${f%%:*}.md"
			fi
			echo
			cat "$kout/${f%%:*}.md"
		done
		echo
		note "bench $K: ${secs}s, results in $kout/{results,timerlat}.md, $kout/results.json"
	else
		note "bench $K: no results (see $kout/run.log)"
		status=1
	fi
	[ "$vrc" = 0 ] || note "bench $K: the guest run reported problems (exit $vrc, see $kout/run.log)"
done
exit $status
