#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [--kernel K]... [--check] [--list] [--rotate N] [NAME...] -
# `make check-mutants`: prove that the suite bites.  Each mutant is a
# deliberate bug kept outside the code, in tests/mutants/NAME.mut: the bug
# (what:), the guest tests that must catch it (tests:), and the edit, a
# substitution of one source line found by its content over a glob of
# files (tests/mutants/apply.py has the format).  The runner copies the
# tree to build/mutants/tree, and on each kernel (default: 6.1 and
# 6.1-rt, one after the other):
#   1. a baseline boot runs the union of the listed tests on the tree as
#      it is;
#   2. per mutant: its edit (refused, and the mutant failed, unless the
#      pattern matches exactly one line), the module and CLI built (W=1,
#      sparse, -Werror), one boot running its listed tests, the file put
#      back.
# A mutant is killed only if one of its listed tests FAILS while all of
# them passed in the baseline.  A refused edit, a build failure or
# warning, a boot without OSN-GUEST-DONE (crash, hang, time limit), a
# listed test that did not report, or a listed test that failed in the
# baseline make the mutant "invalid"; a failure of another test is not a
# kill.  Invalid and surviving mutants fail the run, except a survivor
# marked "known-survivor:" (a behaviour no test checks yet), reported
# apart.  Prints a table per kernel and ends with "N passed, N failed".
#   --check      only check that every mutant applies (no build, no VM)
#   --list       print the names selected (after --rotate), nothing else
#   --rotate N   N mutants of the rotation (make check): the day number
#                since the epoch picks where in the sorted list to start
#   --baseline LOG   no baseline boot: the listed tests' results of LOG
#                (a console.log of the same kernel, same tree: the matrix)
#   --no-judge   only run the mutants, with no baseline boot
#   --judge-only only judge the runs already in --out, against --baseline
#   --out DIR    work directory (default build/mutants)
# A mutant's "kernels: generic" or "kernels: rt" keeps it to those.
# About 2 minutes a mutant and kernel (TCG), plus one baseline boot.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../vm/common.sh"

kernels=() rotate=0 check=0 list=0 baseline='' judge=1 runs=1
out=$OSN_BUILD/mutants
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) check_kernel_name "$2"; kernels+=("$2"); shift 2 ;;
	--check) check=1; shift ;;
	--list) list=1; shift ;;
	--rotate) rotate=$2; shift 2 ;;
	--baseline) baseline=$2; shift 2 ;;
	--no-judge) judge=0; shift ;;
	--judge-only) runs=0; shift ;;
	--out) out=$2; shift 2 ;;
	-h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=(6.1 6.1-rt)
[ -z "$baseline" ] || [ ${#kernels[@]} = 1 ] || die "--baseline needs one --kernel"

field() {	# mutant key
	python3 "$here/apply.py" --field "$2" "$OSN_ROOT" "$here/$1.mut"
}

all=$(cd "$here" && ls ./*.mut 2>/dev/null | sed 's|^\./||; s|\.mut$||' | LC_ALL=C sort)
[ -n "$all" ] || die "no mutant in $here"
names=()
if [ $# -gt 0 ]; then
	for n in "$@"; do
		[ -e "$here/$n.mut" ] || die "no mutant $n (known: ${all//$'\n'/ })"
		names+=("$n")
	done
else
	# shellcheck disable=SC2206
	names=($all)
fi
if [ "$rotate" -gt 0 ] 2>/dev/null; then
	# Consecutive days run consecutive slices: every mutant within
	# ceil(count / N) days.
	n=${#names[@]} day=$(($(date -u +%s) / 86400)) sel=()
	[ "$rotate" -le "$n" ] || rotate=$n
	for ((i = 0; i < rotate; i++)); do
		sel+=("${names[$(((day * rotate + i) % n))]}")
	done
	names=("${sel[@]}")
fi
if [ "$list" = 1 ]; then
	echo "${names[*]}"
	exit 0
fi
if [ "$check" = 1 ]; then
	bad=0
	for n in "${names[@]}"; do
		python3 "$here/apply.py" --check "$OSN_ROOT" "$here/$n.mut" || bad=$((bad + 1))
	done
	echo "$((${#names[@]} - bad)) passed, $bad failed"
	[ "$bad" = 0 ]
	exit
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
exec 9>"$out/.lock"
# A run's children (a guest's watchdog) may hold the lock a moment
# after it ended: wait for them.
flock -w 120 9 || die "$out is in use by another run (waited 120 s)"
tree=$out/tree orig=$out/tree.orig
if [ "$runs" = 1 ]; then
	# The tree as it is now (committed or not), without build products;
	# a pristine copy to put mutated files back from.
	rm -rf "$tree" "$orig"
	mkdir -p "$tree" "$orig"
	(cd "$OSN_ROOT" && git ls-files -co --exclude-standard -z | tar -c --null -T -) |
		tar -x -C "$tree"
	cp -a "$tree/." "$orig/"
	make -C "$tree/tools" -j"$(nproc)" >"$out/build-tools.log" 2>&1 ||
		die "the unmutated CLI does not build (see $out/build-tools.log)"
fi

# vm K DIR FILTER: one boot of the scratch tree running FILTER's tests.
vm() {
	OSN_ROOT=$tree OSN_BUILD=$out/build OSN_KCACHE=$OSN_KCACHE OSN_ROOTS=$OSN_ROOTS \
		OSN_VM_WORK=$2 OSN_VM_NO_TOOLS=1 \
		OSN_PROM_KERNEL=none OSN_TESTS_FILTER="$3" \
		nice -n 5 "$tree/tests/vm/run-kernel.sh" "$1" >"$2.log" 2>&1
}
# results LOG: "PASS name" / "FAIL name" lines of a console log.
results() {
	sed -n 's/^OSN-TEST: \(PASS\|FAIL\|SKIP\) \([^ ]*\) .*/\1 \2/p' "$1" 2>/dev/null
}

# applies K NAME: whether mutant NAME is for kernel K (its kernels: field).
applies() {
	case $(field "$2" kernels) in
	'') return 0 ;;
	rt) case $1 in *-rt) ;; *) return 1 ;; esac ;;
	generic) case $1 in *-rt) return 1 ;; esac ;;
	*) return 1 ;;
	esac
}

# run_one K NAME: apply, build, boot; leaves K/NAME/{outcome,where}.
run_one() {
	local K=$1 n=$2 d=$out/$1/$2 tests where f why=
	tests=$(field "$n" tests)
	rm -rf "$d"
	mkdir -p "$d"
	echo "== $K: mutant $n: $(field "$n" what)"
	if ! where=$(python3 "$here/apply.py" "$tree" "$here/$n.mut" 2>&1); then
		echo "invalid: edit refused: $where" >"$d/outcome"
		cat "$d/outcome"
		return
	fi
	echo "$where" >"$d/where"
	if ! make -C "$tree/tools" -j"$(nproc)" >"$d/build-tools.log" 2>&1; then
		why="invalid: the CLI does not build or warns (see $d/build-tools.log)"
	else
		vm "$K" "$d/vm" "$tests"
		if grep -q '^OSN-TEST: FAIL build/' "$d/vm/host-results" 2>/dev/null; then
			why="invalid: the module does not build or warns (see $d/vm/host-results)"
		elif grep -q 'FAIL vm/\(timeout\|watchdog\)' "$d/vm/host-results" 2>/dev/null ||
		     ! grep -q '^OSN-GUEST-DONE' "$d/vm/console.log" 2>/dev/null; then
			why="invalid: no OSN-GUEST-DONE: the guest crashed, hung or timed out (see $d/vm/console.log)"
		fi
	fi
	# Put the mutated files back (their mtime changes: the next build
	# recompiles them).
	for f in $where; do cp "$orig/${f%:*}" "$tree/${f%:*}"; done
	if [ -n "$why" ]; then
		echo "$why" >"$d/outcome"
	else
		results "$d/vm/console.log" >"$d/outcome"
	fi
	sed 's/^/   /' "$d/outcome"
}

final_p=0 final_f=0
for K in "${kernels[@]}"; do
	bdir=$out/$K/baseline
	kn=()
	for n in "${names[@]}"; do applies "$K" "$n" && kn+=("$n"); done
	[ ${#kn[@]} -gt 0 ] || { echo "$K: no mutant for this kernel"; continue; }
	utests=$(for n in "${kn[@]}"; do field "$n" tests; done | tr ' ' '\n' | LC_ALL=C sort -u | tr '\n' ' ')
	# (--no-judge: judged later against another run's log, --baseline.)
	if [ "$runs" = 1 ] && [ "$judge" = 1 ] && [ -z "$baseline" ]; then
		rm -rf "$bdir"
		mkdir -p "$bdir"
		echo "== $K: baseline (the tree unmutated): $utests"
		vm "$K" "$bdir/vm" "$utests"
	fi
	if [ "$runs" = 1 ]; then
		for n in "${kn[@]}"; do run_one "$K" "$n"; done
	fi
	[ "$judge" = 1 ] || continue

	blog=${baseline:-$bdir/vm/console.log}
	bres=$(results "$blog")
	p=0 f=0 rows=() known=()
	for n in "${kn[@]}"; do
		d=$out/$K/$n tests=$(field "$n" tests) ks=$(field "$n" known-survivor)
		where=$(tr '\n' ' ' <"$d/where" 2>/dev/null)
		bst=ok
		for t in $tests; do
			grep -qx "PASS $t" <<<"$bres" || bst="FAILED($t)"
		done
		if [ ! -s "$d/outcome" ]; then
			v="invalid: not run"
		elif grep -q '^invalid' "$d/outcome"; then
			v=$(head -n 1 "$d/outcome")
		else
			by='' miss=''
			for t in $tests; do
				grep -qx "FAIL $t" "$d/outcome" && by="$by $t"
				grep -qx "\(PASS\|FAIL\) $t" "$d/outcome" || miss="$miss $t"
			done
			if [ "$bst" != ok ]; then
				v="invalid: a listed test failed the baseline"
			elif [ -n "$miss" ]; then
				v="invalid: did not report:$miss"
			elif [ -n "$by" ]; then
				v="killed by:$by"
			elif [ -n "$ks" ]; then
				v="survived (known-survivor: $ks)"
			else
				v="SURVIVED"
			fi
		fi
		case $v in
		killed*) p=$((p + 1)); [ -z "$ks" ] || v="$v (drop its known-survivor mark)" ;;
		survived*) known+=("$n") ;;
		*) f=$((f + 1)) ;;
		esac
		rows+=("$(printf '%-20s %-28s %-9s %s\n      tests: %s' "$n" "${where:--}" "$bst" "$v" "$tests")")
	done
	echo
	echo "==== mutants on $K (baseline: $blog) ===="
	printf '%-20s %-28s %-9s %s\n' mutant where baseline verdict
	for r in "${rows[@]}"; do echo "$r"; done
	[ ${#known[@]} = 0 ] || echo "known survivors (a missing test, not counted): ${known[*]}"
	echo "$K: $p passed, $f failed"
	final_p=$((final_p + p)) final_f=$((final_f + f))
done
[ "$judge" = 1 ] || exit 0
echo "$final_p passed, $final_f failed"
[ "$final_f" = 0 ]
