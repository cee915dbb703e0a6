#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh - build the in-tree kernel (`make intree-kernel`): the
# debug kernel's tree (tests/debug/build-kernel.sh, built first if need
# be) copied with its objects, osn's sources dropped in by
# kernel/add-to-tree.sh, CONFIG_OSN_TRACER=y, and rebuilt.  The copy keeps
# the debug build's objects and timestamps, so only what the new option and
# osn's files touch is rebuilt (minutes, not the debug kernel's half hour),
# and osn's tracer runs under the same checkers (lockdep, KASAN, UBSAN,
# kmemleak).  Kept in the kernel cache as "intree":
#   build/kernels/intree/{vmlinuz,config,System.map,kver,release,build}
# Rebuilt when the debug kernel or osn's kernel sources change (stamp).
# Prints the build time.
set -euo pipefail
. "$(dirname "$0")/../vm/common.sh"

"$OSN_ROOT/tests/debug/build-kernel.sh"
ddir=$OSN_KCACHE/debug
dir=$OSN_KCACHE/intree
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9

srcsum=$(cd "$OSN_ROOT" && cat kernel/*.c kernel/*.h kernel/Kbuild \
	kernel/add-to-tree.sh Kconfig include/osn/*.h | sha256sum | cut -c1-16)
stamp="$(cat "$ddir/stamp") osn $srcsum"
if [ -s "$dir/vmlinuz" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
	note "intree: kernel $(cat "$dir/kver") up to date"
	exit 0
fi
rm -f "$dir/stamp"

t0=$(now_s)
dtree=$(readlink -f "$ddir/build")
tree=$dir/src/$(basename "$dtree")
# The debug tree again when the debug kernel changed; else only osn's
# files change in the copy, and Kbuild rebuilds just those.
if [ "$(cat "$dir/src/.debug-stamp" 2>/dev/null)" != "$(cat "$ddir/stamp")" ]; then
	note "intree: copying the debug kernel's built tree"
	rm -rf "$dir/src"
	mkdir -p "$dir/src"
	cp -a "$dtree" "$tree"
	cp "$ddir/stamp" "$dir/src/.debug-stamp"
fi
"$OSN_ROOT/kernel/add-to-tree.sh" "$tree" >/dev/null
"$tree/scripts/config" --file "$tree/.config" --enable OSN_TRACER
make -C "$tree" -s olddefconfig >/dev/null
grep -qx 'CONFIG_OSN_TRACER=y' "$tree/.config" ||
	die "intree kernel: CONFIG_OSN_TRACER=y did not stick (its dependencies?)"

# objtool is rebuilt in the copy (its build records absolute paths), and
# every object lists objtool among its dependencies: give the new objtool
# the old one's time, or the whole kernel is rebuilt for it.
nice make -C "$tree" -s LOCALVERSION=-osn-intree prepare >"$dir/build.log" 2>&1 || {
	tail -n 30 "$dir/build.log" >&2
	die "intree kernel: make prepare failed (see $dir/build.log)"
}
if [ -x "$dtree/tools/objtool/objtool" ]; then
	find "$tree/tools/objtool" -exec touch -h -r "$dtree/tools/objtool/objtool" {} +
fi

note "intree: building with $(gcc -dumpfullversion 2>/dev/null || echo gcc) on $(nproc) cores (log $dir/build.log)"
if ! nice make -C "$tree" -j"$(nproc)" LOCALVERSION=-osn-intree >>"$dir/build.log" 2>&1; then
	tail -n 30 "$dir/build.log" >&2
	die "intree kernel: build failed (see $dir/build.log)"
fi
# osn's own files must build without a warning, as the module does.
if grep -E 'kernel/trace/osn/.*(warning|error):' "$dir/build.log" >&2; then
	die "intree kernel: osn's sources build with warnings (above)"
fi
# osn_tracer.c is built nowhere else: W=1 and sparse on the osn directory,
# as the module builds of the matrix are checked (a separate pass: the
# kernel's own files are not held to W=1).
if ! nice make -C "$tree" -s C=2 W=1 LOCALVERSION=-osn-intree kernel/trace/osn/ \
	>"$dir/check.log" 2>&1 || grep -q . "$dir/check.log"; then
	cat "$dir/check.log" >&2
	die "intree kernel: W=1 or sparse reports on kernel/trace/osn/ (above)"
fi
make -C "$tree" -s LOCALVERSION=-osn-intree kernelrelease >"$dir/kver"
cp "$tree/arch/x86/boot/bzImage" "$dir/vmlinuz"
cp "$tree/.config" "$dir/config"
cp "$tree/System.map" "$dir/System.map"
echo bookworm >"$dir/release"
ln -sfn "$tree" "$dir/build"
secs=$(( $(now_s) - t0 ))
echo "$secs" >"$dir/build-seconds"
echo "$stamp" >"$dir/stamp"
note "intree: built $(cat "$dir/kver") in ${secs} s on $(nproc) cores"
