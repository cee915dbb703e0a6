#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make-deb.sh - `make deb`: the Debian packages osn and osn-dkms
# (debian/), built with dpkg-buildpackage -us -uc -b from a clean export of
# the tree in build/deb/src (dh writes debian/osn/, debian/.debhelper, ...
# there, never into the checkout), into build/deb/; then lintian on the
# .changes and the .debs, whose output goes to build/deb/lintian.txt.
# Where the arm64 cross toolchain and -dev packages are installed
# (tests/install-deps.sh: make check's arm64 kernel), the osn package for
# arm64 too, cross-built (dpkg-buildpackage -a arm64 -B: osn-dkms is
# arch all), into build/deb/arm64/, with its own lintian run.
# Fails if the build fails or lintian reports an error (warnings are listed
# in Documentation/packaging.md).  DEB_BUILD_OPTIONS=nocheck skips the
# CLI's unit tests in the build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../vm/common.sh"

out=$OSN_BUILD/deb
for t in dpkg-buildpackage dh dh_dkms lintian; do
	command -v "$t" >/dev/null ||
		die "$t is missing: sudo apt-get install debhelper dh-dkms lintian (see Documentation/packaging.md)"
done
t0=$(now_s)
rm -rf "$out"
mkdir -p "$out/src"
# The files git knows or would add, as they are in the work tree
# (uncommitted edits included; build products, ignored files and files
# deleted in the tree not); a tree without git is copied whole but for
# build/.
if git -C "$OSN_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$OSN_ROOT" ls-files -z --cached --others --exclude-standard |
		(cd "$OSN_ROOT" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null) |
		tar -xf - -C "$out/src"
else
	tar -C "$OSN_ROOT" --exclude=./build -cf - . | tar -xf - -C "$out/src"
fi
# build DIR ARGS...: dpkg-buildpackage ARGS in DIR/src, the packages
# into DIR; lintian on them (DIR/lintian.txt).
build() {
	local d=$1 rc=0 changes
	shift
	echo "make-deb: dpkg-buildpackage -us -uc $* in ${d#"$OSN_ROOT"/}/src" >&2
	(cd "$d/src" && dpkg-buildpackage -us -uc "$@") >"$d/build.log" 2>&1 ||
		{ tail -n 30 "$d/build.log" >&2; die "dpkg-buildpackage $* failed (see $d/build.log)"; }
	changes=$(ls "$d"/osn_*.changes)
	echo "make-deb: built $(cd "$d" && echo *.deb)"
	# lintian reads the .debs through the .changes; --fail-on error:
	# warnings do not fail (they are listed in Documentation/packaging.md).
	lintian --fail-on error --display-info "$changes" >"$d/lintian.txt" 2>&1 || rc=$?
	sed 's/^/lintian: /' "$d/lintian.txt"
	echo "make-deb: lintian ($(basename "$changes")): $(grep -c '^E:' "$d/lintian.txt") errors, $(grep -c '^W:' "$d/lintian.txt") warnings, $(grep -c '^I:' "$d/lintian.txt") info"
	[ $rc = 0 ] || die "lintian reported errors (exit $rc; see $d/lintian.txt)"
}
build "$out" -b
debs=$(ls "$out"/*.deb)
if command -v aarch64-linux-gnu-gcc >/dev/null &&
   [ -e /usr/lib/aarch64-linux-gnu/pkgconfig/libtracefs.pc ]; then
	mkdir -p "$out/arm64"
	cp -a "$out/src" "$out/arm64/src"
	build "$out/arm64" -a arm64 -B
	debs="$debs $(ls "$out"/arm64/*.deb)"
else
	echo "make-deb: no arm64 package: no aarch64 cross toolchain or arm64 -dev packages (tests/install-deps.sh --arm64)"
fi
for d in $debs; do echo "make-deb: ${d#"$OSN_ROOT"/} ($(du -k "$d" | cut -f1) KB)"; done
echo "make-deb: done in $(($(now_s) - t0))s"
