#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-one.sh RELEASE LOWER DIR SRC OUT - the osn (CLI) package built on
# RELEASE, for a release whose libraries have other sonames than the
# host's (forky: libproc2-1), run as root in a private mount namespace
# (unshare -m) like install-one.sh: in a fresh overlay of LOWER, the
# build dependencies of SRC's debian/control (apt-get build-dep, from the
# mirror), then dpkg-buildpackage -us -uc -B (architecture-dependent
# packages only: osn-dkms is the host's, the same on every release), the
# CLI's unit tests left to tests/run-host.sh (nocheck).  The .deb goes to
# OUT.  One line, "ok RELEASE: ..." or "FAIL RELEASE: ...".
set -uo pipefail
rel=$1 lower=$2 dir=$3 src=$4 out=$5
t0=$(date +%s)

ok() { echo "ok $rel: $*"; }
fail() { echo "FAIL $rel: $*"; }
. "$(dirname "$0")/overlay.sh"

overlay_up "$lower" "$dir"
cp -a "$src" "$m/tmp/src"
if ! apt_m_fresh "$dir/build-dep.log" build-dep -y -q ./tmp/src; then
	fail "apt-get build-dep for the osn package"
	tail -n 20 "$dir/build-dep.log" | sed 's/^/#   /'
	exit 1
fi
if ! in_m sh -c 'cd /tmp/src && DEB_BUILD_OPTIONS="nocheck" dpkg-buildpackage -us -uc -B' \
	>"$dir/build.log" 2>&1; then
	fail "dpkg-buildpackage -B for $rel"
	tail -n 25 "$dir/build.log" | sed 's/^/#   /'
	exit 1
fi
debs=$(cd "$m/tmp" && ls osn_*.deb 2>/dev/null)
[ -n "$debs" ] || { fail "dpkg-buildpackage -B made no osn_*.deb"; exit 1; }
mkdir -p "$out"
(cd "$m/tmp" && cp $debs "$out/") || { fail "copy $debs to $out"; exit 1; }
ok "osn (CLI) built with $rel's toolchain and libraries: $debs, needs $(dpkg-deb -f "$out/$debs" Depends | tr ',' '\n' | grep -Eo 'lib(proc2|tracefs|traceevent|json-c)[^ ]*' | tr '\n' ' ')($(($(date +%s) - t0))s)"
