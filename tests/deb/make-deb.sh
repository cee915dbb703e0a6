#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make-deb.sh - `make deb`: the Debian packages osn and osn-dkms
# (debian/), built with dpkg-buildpackage -us -uc -b from a clean export of
# the tree in build/deb/src (dh writes debian/osn/, debian/.debhelper, ...
# there, never into the checkout), into build/deb/; then lintian on the
# .changes and the .debs, whose output goes to build/deb/lintian.txt.
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
echo "make-deb: dpkg-buildpackage -us -uc -b in ${out#"$OSN_ROOT"/}/src" >&2
(cd "$out/src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; die "dpkg-buildpackage failed (see $out/build.log)"; }
changes=$(ls "$out"/osn_*.changes)
debs=$(ls "$out"/*.deb)
echo "make-deb: built $(cd "$out" && echo *.deb)"
# lintian reads the .debs through the .changes; --fail-on error: warnings
# do not fail (they are listed in Documentation/packaging.md).
rc=0
# shellcheck disable=SC2086
lintian --fail-on error --display-info "$changes" >"$out/lintian.txt" 2>&1 || rc=$?
sed 's/^/lintian: /' "$out/lintian.txt"
echo "make-deb: lintian: $(grep -c '^E:' "$out/lintian.txt") errors, $(grep -c '^W:' "$out/lintian.txt") warnings, $(grep -c '^I:' "$out/lintian.txt") info"
[ $rc = 0 ] || die "lintian reported errors (exit $rc; see $out/lintian.txt)"
for d in $debs; do echo "make-deb: ${d#"$OSN_ROOT"/} ($(du -k "$d" | cut -f1) KB)"; done
echo "make-deb: done in $(($(now_s) - t0))s"
