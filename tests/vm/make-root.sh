#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make-root.sh [--arm64] RELEASE... - the minimal chroot of a Debian release in which
# that release's kernels of the matrix are built (build/roots/<release>/):
# debootstrap --variant=minbase, plus make, perl (W=1 runs kernel-doc),
# sparse, and rtla where the release has it (the reference the bench
# compares with on -rt).  The kernel headers, which bring the release's own
# gcc and kbuild (linux-compiler-gcc-*-x86, linux-kbuild-*), are installed
# by fetch-kernel.sh for exactly the ABI it could download: a metapackage
# may point at packages the mirror does not have (seen: bullseye-security's
# linux-headers-rt-amd64 5.10.262-1, 404).
#
# The mirror is the one the host's apt is configured with (the same mirror,
# other suites); no host name is written here.  A chroot is reused when its
# stamp (.osn-ready) says it was finished with the same recipe; a chroot
# without it (an interrupted install) is removed and made again.  Safe to
# run concurrently (flock per release).  Needs root.
#
# --arm64 (tests/install-deps.sh --arm64): the chroot also gets the arm64
# architecture (its apt fetches the release's arm64 kernel images and
# headers: fetch-kernel.sh) and the release's cross gcc for aarch64
# (gcc-aarch64-linux-gnu, trixie's being gcc-14 as its kernels'), stamped
# apart (.osn-arm64): the amd64 recipe does not change.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ "$(id -u)" = 0 ] || die "make-root.sh needs root (run tests/install-deps.sh as root, or through sudo)"
[ $# -gt 0 ] || die "usage: make-root.sh [--arm64] RELEASE..."
command -v debootstrap >/dev/null || die "debootstrap is not installed"

# The recipe: change it and every chroot is made again.
recipe="v2 minbase make perl sparse xz-utils rtla"

# The host's Debian mirror and security mirror, from apt's own view of its
# configuration (works for sources.list and deb822 .sources alike).
mirror_of() {	# security|main
	apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' 2>/dev/null |
		awk -v want="$1" '{ sec = ($2 ~ /-security$/) }
			(want == "security") == sec { print $1; exit }'
}

make_one() {
	local rel=$1 dir=$OSN_ROOTS/$1 mirror sec script t0 log
	if [ -e "$dir/.osn-ready" ] && [ "$(cat "$dir/.osn-ready")" = "$recipe" ]; then
		note "$rel: chroot ready ($dir)"
		return 0
	fi
	t0=$(now_s)
	mirror=$(mirror_of main)
	sec=$(mirror_of security)
	[ -n "$mirror" ] || die "no Debian mirror in apt's configuration (apt-get update first?)"
	if [ -e "$dir" ]; then
		note "$rel: $dir is unfinished or from another recipe: making it again"
		rm -rf --one-file-system "$dir"
	fi
	mkdir -p "$dir"
	log=$OSN_ROOTS/$rel.log
	# Bookworm's debootstrap has no script for testing's newest codename:
	# sid's works for any unstable-like suite.
	script=/usr/share/debootstrap/scripts/$rel
	[ -e "$script" ] || script=/usr/share/debootstrap/scripts/sid
	note "$rel: debootstrap (minbase) from the host's mirror"
	if ! debootstrap --variant=minbase --include=make,perl,sparse,xz-utils \
		"$rel" "$dir" "$mirror" "$script" >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		die "$rel: debootstrap failed (see $log)"
	fi
	{
		echo "deb $mirror $rel main"
		case $rel in forky|sid) ;; *) echo "deb $mirror $rel-updates main" ;; esac
		[ -z "$sec" ] || echo "deb $sec $rel-security main"
	} >"$dir/etc/apt/sources.list"
	cat >"$dir/etc/apt/apt.conf.d/90osn" <<'EOC'
// testing's Release file on a mirror may be past its Valid-Until.
Acquire::Check-Valid-Until "false";
APT::Install-Recommends "false";
APT::Sandbox::User "root";
EOC
	note "$rel: apt-get update; installing rtla if $rel has it"
	in_root "$dir" sh -c 'apt-get update -q &&
		{ ! apt-cache show rtla >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -q rtla; } &&
		apt-get clean' >>"$log" 2>&1 ||
		{ tail -n 20 "$log" >&2; die "$rel: apt in the chroot failed (see $log)"; }
	echo "$recipe" >"$dir/.osn-ready"
	note "$rel: chroot made in $(($(now_s) - t0))s ($(du -sm "$dir" | cut -f1) MB)"
}

arm64_one() {
	local rel=$1 dir=$OSN_ROOTS/$1 log=$OSN_ROOTS/$1.log
	[ "$(cat "$dir/.osn-arm64" 2>/dev/null)" = "$arm64_recipe" ] && return 0
	note "$rel: adding arm64 and the aarch64 cross gcc"
	in_root "$dir" sh -c 'dpkg --add-architecture arm64 && apt-get update -q &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q gcc-aarch64-linux-gnu &&
		apt-get clean' >>"$log" 2>&1 ||
		{ tail -n 20 "$log" >&2; die "$rel: arm64 in the chroot failed (see $log)"; }
	echo "$arm64_recipe" >"$dir/.osn-arm64"
}
arm64_recipe="v1 arm64 gcc-aarch64-linux-gnu"

arm64=0
if [ "${1:-}" = --arm64 ]; then
	arm64=1
	shift
fi
mkdir -p "$OSN_ROOTS"
for rel in "$@"; do
	(
		flock 9
		make_one "$rel"
		[ $arm64 = 0 ] || arm64_one "$rel"
	) 9>"$OSN_ROOTS/.lock-$rel"
done
