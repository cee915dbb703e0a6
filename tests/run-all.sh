#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-all.sh [--long] [KERNEL...] - every test: the host tests
# (tests/run-host.sh, with the guest runner's self-test,
# tests/vm/selftest-runner.sh, beside them; the Debian packages,
# tests/deb/run.sh) then the guest suite on the VM
# kernel matrix
# (tests/vm/run-matrix.sh; default: the whole matrix, tests/vm/common.sh).
# The last line is "N passed, N failed, N skipped" over host and guest
# tests; the exit status is non-zero if anything failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm/common.sh"

long=()
[ "${1:-}" = --long ] && { long=(--long); shift; }
[ $# -gt 0 ] || set -- $OSN_ALL_KERNELS
mkdir -p "$OSN_BUILD"
t0=$(now_s)
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
"$here/vm/run-matrix.sh" "${long[@]}" --result "$vres" "$@"
tv=$(($(now_s) - t0 - th))

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
echo "total time $(($(now_s) - t0))s"
p=$((hp + vp)) f=$((hf + vf)) s=$((hs + vs))
echo "$p passed, $f failed, $s skipped"
[ "$f" = 0 ]
