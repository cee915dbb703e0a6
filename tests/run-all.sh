#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-all.sh [--long] [KERNEL...] - every test: the host tests
# (tests/run-host.sh, with the guest runner's self-test,
# tests/vm/selftest-runner.sh, beside them; the Debian packages,
# tests/deb/run.sh) then the guest suite on the VM
# kernel matrix
# (tests/vm/run-matrix.sh; default: the whole matrix, tests/vm/common.sh),
# sharded (OSN_SHARD, tests/vm/common.sh: the tests marked "# matrix:
# shard" run on 6.1 and on one other kernel a day; OSN_SHARD=all: all),
# and beside its last kernels, on the core they leave idle, three mutants
# of the rotation on 6.1 (tests/mutants/run.sh --rotate 3: a slice that
# moves each day), judged against the matrix's own 6.1 run.
# The whole run is capped at OSN_CHECK_CAP_S seconds (default 3300): past
# it the VM matrix is stopped, with a message, and counts as failed.
# The last line is "N passed, N failed, N skipped" over host and guest
# tests and mutants; the exit status is non-zero if anything failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm/common.sh"

long=()
[ "${1:-}" = --long ] && { long=(--long); shift; }
[ $# -gt 0 ] || set -- $OSN_CHECK_KERNELS
# The sharded matrix (tests/vm/common.sh): the tests of what is the same
# code on every kernel run on the main kernel and one other a day.
# OSN_SHARD=all runs every test on every kernel (about twice as long).
case ${OSN_SHARD:-} in
all) unset OSN_SHARD ;;
'') OSN_SHARD=$(shard_day); export OSN_SHARD ;;
*) export OSN_SHARD ;;
esac
# The main kernel runs the most: start it first, so it is not the tail.
case " $* " in
*" $OSN_SHARD_MAIN "*)
	ks=$OSN_SHARD_MAIN
	for k in "$@"; do [ "$k" = "$OSN_SHARD_MAIN" ] || ks="$ks $k"; done
	# shellcheck disable=SC2086
	set -- $ks ;;
esac
mkdir -p "$OSN_BUILD"
t0=$(now_s)
# make check's budget is 60 minutes on 2 cores, install included; the
# sharded matrix takes about 42 (Documentation/kernels.md).  The cap,
# about 1.3 times that, ends a hang or a run gone over its budget with a
# message, before CI's own limit: past it, what still runs is stopped.
cap_s=${OSN_CHECK_CAP_S:-3300}
hres=$OSN_BUILD/host-result
vres=$OSN_BUILD/vm-result
rm -f "$hres" "$vres"

echo "======== host tests ========"
# The guest runner's own self-test boots a 6.1 guest (about a minute of
# one core): it runs beside the host tests.
rlog=$OSN_BUILD/selftest-runner.log
"$here/vm/selftest-runner.sh" >"$rlog" 2>&1 &
rpid=$!
"$here/run-host.sh" --result "$hres"
# The Debian packages: make deb, and their install into the chroot of each
# release whose kernels run (tests/deb/run.sh, about a minute).
echo "== host: tests/deb/run.sh"
dlog=$OSN_BUILD/deb-test.log
drels=()
for k in "$@"; do
	r=$(kernel_release "$k") || continue
	case " ${drels[*]} " in *" $r "*) ;; *) drels+=("$r") ;; esac
done
"$here/deb/run.sh" "${drels[@]}" >"$dlog" 2>&1
grep -Ev '^(ok|lintian:|make-deb:|#|[0-9]+ passed,)' "$dlog" | sed 's/^/  /'
dl=$(grep -Eo '^[0-9]+ passed, [0-9]+ failed' "$dlog" | tail -n 1)
echo "host: Debian packages: ${dl:-did not run}"
dp=$(echo "$dl" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
df=$(echo "$dl" | sed -n 's/.* \([0-9]*\) failed/\1/p')
[ -n "$df" ] || { dp=0 df=1; }
wait $rpid
grep -v '^ok' "$rlog" | grep -v 'passed,' | sed 's/^/  /'
rl=$(grep -Eo '^[0-9]+ passed, [0-9]+ failed' "$rlog" | tail -n 1)
echo "host: guest runner self-test: ${rl:-did not run}"
rp=$(echo "$rl" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
rf=$(echo "$rl" | sed -n 's/.* \([0-9]*\) failed/\1/p')
[ -n "$rf" ] || { rp=0 rf=1; }
th=$(($(now_s) - t0))
echo
echo "======== VM matrix: $* ========"
if [ -n "${OSN_SHARD:-}" ]; then
	echo "sharded tests, day $OSN_SHARD (OSN_SHARD=$OSN_SHARD reruns it; OSN_SHARD=all: everywhere):"
	shard_plan "$OSN_SHARD" | awk -v m="$OSN_SHARD_MAIN" '
		{ sub(/^guest\//, "", $1); sub(/\.sh$/, "", $1); l[$2] = l[$2] " " $1 }
		END { for (k in l) printf "  %s and %s:%s\n", m, k, l[k] }' | sort
fi
# The rotating mutants run on 6.1 (else the first kernel given), from a
# copy of the tree, with no baseline boot of their own.
mk=$1
case " $* " in *" 6.1 "*) mk=6.1 ;; esac
mnames=$("$here/mutants/run.sh" --rotate 3 --list)
mdir=$OSN_BUILD/mutants-check
mlog=$OSN_BUILD/mutants-check.log
echo "mutants of the day on $mk: $mnames"
xlog=$OSN_BUILD/matrix.log
# A total time cap, so that a hang costs one cap, not every test's limit
# on every kernel: timeout(1) runs the matrix in a process group of its
# own and ends the whole group (QEMU included) when the cap is reached.
left=$((cap_s - ($(now_s) - t0)))
[ "$left" -gt 60 ] || left=60
timeout -k 30 "$left" "$here/vm/run-matrix.sh" "${long[@]}" --result "$vres" \
	--beside "'$here/mutants/run.sh' --kernel $mk --out '$mdir' --no-judge $mnames" \
	"$@" | tee "$xlog"
if [ "${PIPESTATUS[0]}" = 124 ]; then
	echo "make check: over its time cap of ${cap_s}s (OSN_CHECK_CAP_S): the VM matrix was stopped; the kernels without a result count as failed"
	# Each QEMU runs under a timeout(1) of its own, in its own group.
	pkill -TERM -f -- "-initrd $OSN_BUILD/" || true
	rm -f "$vres"
fi
tv=$(($(now_s) - t0 - th))
blog=$(sed -n "s/^OSN-RESULT $mk .* log=\([^ ]*\).*/\1/p" "$xlog" | tail -n 1)
echo
echo "======== mutants on $mk: $mnames ========"
# shellcheck disable=SC2086
"$here/mutants/run.sh" --kernel "$mk" --out "$mdir" --judge-only \
	--baseline "${blog:-/nonexistent}" $mnames >"$mlog" 2>&1
sed -n '/^==== mutants/,$p' "$mlog"
ml=$(grep -Eo '^[0-9]+ passed, [0-9]+ failed' "$mlog" | tail -n 1)
mp=$(echo "$ml" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
mf=$(echo "$ml" | sed -n 's/.* \([0-9]*\) failed/\1/p')
[ -n "$mf" ] || { mp=0 mf=1; }

get() {	# file key
	sed -n "s/.*\\b$2=\\([0-9]*\\).*/\\1/p" "$1" 2>/dev/null | head -n 1
}
hp=$(get "$hres" pass) hf=$(get "$hres" fail) hs=$(get "$hres" skip)
[ -z "$hf" ] || { hp=$((hp + rp + dp)); hf=$((hf + rf + df)); }
vp=$(get "$vres" pass) vf=$(get "$vres" fail) vs=$(get "$vres" skip)
# A part that died without a result is one failure.
[ -n "$hf" ] || { hp=0 hf=1 hs=0; }
[ -n "$vf" ] || { vp=0 vf=1 vs=0; }
echo
echo "host: $hp passed, $hf failed, $hs skipped (${th}s)"
echo "vm:   $vp passed, $vf failed, $vs skipped (${tv}s)"
echo "mutants: $mp passed, $mf failed ($mnames on $mk; $mlog)"
echo "total time $(($(now_s) - t0))s"
p=$((hp + vp + mp)) f=$((hf + vf + mf)) s=$((hs + vs))
echo "$p passed, $f failed, $s skipped"
[ "$f" = 0 ]
