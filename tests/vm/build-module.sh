#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh KERNEL - build osn.ko and the test injector for a kernel
# of the matrix the way that kernel's own users would: with the gcc and
# kbuild of its Debian release (the host's, or the release's chroot made
# by make-root.sh), with W=1 and sparse (C=2).  `make module-for KERNEL=K`.
#
# Leaves build/modules/<kernel>/{osn.ko,osn_inject.ko,build-*.log} and
# prints one line per module:
#   OSN-TEST: PASS|FAIL build/<module>.ko 0s
# (a warning of gcc, W=1 or sparse is a failure), preceded by an
# OSN-TEST-NOTE line saying why when it fails.  An arm64 kernel's modules
# are cross-built (kernel_cross) against the headers fetch-kernel.sh
# extracted, with W=1 and sparse the same.  Exit status: 0 if both
# built without a warning, 1 otherwise, 2 on a setup error.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# = 1 ] || die "usage: build-module.sh KERNEL (one of: $OSN_ALL_KERNELS $OSN_ARM64_KERNELS)"
K=$1
check_kernel_name "$K"
kdir=$OSN_KCACHE/$K
[ -s "$kdir/kver" ] || "$OSN_ROOT/tests/vm/fetch-kernel.sh" "$K" 2>&1 | sed 's/^/  /' >&2
kver=$(cat "$kdir/kver")
ul=$(kernel_userland "$K")
hdr=/usr/src/linux-headers-$kver
if [ ! -e "$ul$hdr/Makefile" ] && [ -z "$ul" ]; then
	hdr=/lib/modules/$kver/build
fi
# The debug kernel (tests/debug/) is built against its own build tree.
[ -e "$kdir/build/Makefile" ] && [ -z "$ul" ] && hdr=$(readlink -f "$kdir/build")
# Another architecture's headers: extracted by fetch-kernel.sh.
cross=$(kernel_cross "$K")
[ -z "$cross" ] || hdr=/usr/src/osn-cross/$kver/usr/src/linux-headers-$kver
[ -e "$ul$hdr/Makefile" ] ||
	die "$K: no headers for $kver in $(kernel_release "$K")'s userland (run as root, or through sudo: tests/install-deps.sh --kernels $K)"

out=$OSN_BUILD/modules/$K
mkdir -p "$out"
exec 7>"$out/.lock"
flock 7
# The sources are built where the compiler can see them: in the chroot for
# another release's kernel.
# One copy per checkout: Kbuild's mtime-based rebuild would otherwise
# link one tree's stale objects into another's module.
if [ -n "$ul" ]; then
	src_in=/var/tmp/osn-src/$K-$(printf '%s' "$OSN_ROOT" | md5sum | cut -c1-8)
else
	src_in=$out/src
fi
src=$ul$src_in

# Copy the sources (never build artefacts: someone may have built in the
# tree for another kernel) over the previous copy, keeping mtimes, so Kbuild
# only rebuilds what changed; drop files deleted since.
is_src() {	# find(1) predicate: not a build artefact
	find "$@" -type f ! -name '*.o' ! -name '*.ko' ! -name '*.mod' \
		! -name '*.mod.c' ! -name '.*' ! -name modules.order \
		! -name Module.symvers ! -name '*.a' ! -path '*/.tmp*'
}
sync_src() {	# from to
	[ -d "$1" ] || { rm -rf "$2"; return 0; }
	mkdir -p "$2"
	(cd "$1" && is_src . -print0 | tar -c --null -T -) | tar -x -C "$2"
	(cd "$2" && is_src .) |
		while IFS= read -r f; do [ -e "$1/$f" ] || rm -f "$2/$f"; done
}
sync_src "$OSN_ROOT/include" "$src/include"
sync_src "$OSN_ROOT/kernel" "$src/kernel"
sync_src "$OSN_ROOT/tests/injector" "$src/tests/injector"

c=
if in_userland "$K" sh -c 'command -v sparse' >/dev/null 2>&1; then
	c=C=2
fi
rc=0
build() {	# subdir module
	local d=$1 m=$2 log=$out/build-${2%.ko}.log w
	rm -f "$src/$d/$m" "$out/$m"
	if in_userland "$K" make -C "$hdr" M="$src_in/$d" W=1 $c \
		${cross:+CROSS_COMPILE=$cross} -j"$(nproc)" modules >"$log" 2>&1 &&
	   [ -e "$src/$d/$m" ]; then
		cp "$src/$d/$m" "$out/"
		w=$(grep -ci 'warning:' "$log" || true)
		if [ "$w" = 0 ]; then
			echo "OSN-TEST: PASS build/$m 0s"
			note "$K: built $m (W=1${c:+, sparse}, $(kernel_release "$K")'s ${cross:+cross }toolchain)"
			return 0
		fi
		echo "OSN-TEST-NOTE: build/$m $w warnings against $kver (W=1${c:+ sparse}, see $log)"
		grep -i 'warning:' "$log" | head -n 10 | sed 's/^/    /' >&2
	else
		echo "OSN-TEST-NOTE: build/$m does not build against $kver (see $log)"
		grep -E 'error|Error|\*\*\*' "$log" | head -n 20 | sed 's/^/    /' >&2
	fi
	echo "OSN-TEST: FAIL build/$m 0s"
	rc=1
}
build kernel osn.ko
build tests/injector osn_inject.ko
exit $rc
