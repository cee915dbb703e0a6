#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh KERNEL... - get the vmlinuz of Debian kernels of the test
# matrix (tests/vm/common.sh: OSN_ALL_KERNELS) without installing them.
#
# The concrete package is resolved through Debian's metapackage
# (linux-image-<suffix> -> linux-image-<abi>-<flavour>) by the apt of the
# kernel's own release (the host's, or its chroot's: make-root.sh),
# downloaded with `apt-get download` (falling back to older ABIs of the
# same series when the mirror lacks the newest), and only its /boot is
# extracted into build/kernels/<kernel>/ (the deb is removed afterwards);
# the headers of exactly that ABI are installed in the same userland:
#   vmlinuz  kver (uname -r)  pkg (package name)  config  System.map
#   want     the package the metapackage pointed at  release
#   vmlinux  the decompressed ELF kernel: QEMU boots it directly through its
#            PVH entry (CONFIG_PVH=y), which saves the ~7 s an emulated CPU
#            spends decompressing bzImage on every boot.
# An arm64 kernel (tests/vm/common.sh: OSN_ARM64_KERNELS) is fetched the
# same way from the arm64 packages (fetch_arm64): its vmlinuz is an
# uncompressed Image that qemu-system-aarch64 boots as it is; its headers
# cannot be installed on amd64 (they pull gcc:arm64), so they are
# extracted instead (cross_headers).
# Idempotent and safe to run concurrently (flock per kernel).
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -gt 0 ] || set -- $OSN_ALL_KERNELS
mkdir -p "$OSN_KCACHE/debs"

# Decompress vmlinuz (XZ on 6.1, ZSTD on 6.12) into an ELF vmlinux, like the
# kernel's scripts/extract-vmlinux.  Best effort: without it we boot bzImage.
extract_vmlinux() {
	local z=$1 out=$2 magic cmd off
	for m in 'xz:\xfd7zXZ\x00' 'zstd:\x28\xb5\x2f\xfd' 'gzip:\x1f\x8b\x08'; do
		cmd=${m%%:*}
		magic=${m#*:}
		command -v "$cmd" >/dev/null || continue
		for off in $(LC_ALL=C grep -aobUP "$magic" "$z" 2>/dev/null | cut -d: -f1 | head -n 3); do
			tail -c +$((off + 1)) "$z" | "$cmd" -dcq 2>/dev/null >"$out.tmp" || true
			if [ "$(head -c 4 "$out.tmp" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; then
				mv "$out.tmp" "$out"
				return 0
			fi
		done
	done
	rm -f "$out.tmp"
	return 1
}

ensure_vmlinux() {
	local k=$1 dir=$OSN_KCACHE/$1
	[ -s "$dir/vmlinux" ] && [ "$dir/vmlinux" -nt "$dir/vmlinuz" ] && return 0
	grep -q '^CONFIG_PVH=y' "$dir/config" 2>/dev/null || return 0
	if extract_vmlinux "$dir/vmlinuz" "$dir/vmlinux"; then
		note "$k: extracted vmlinux (PVH boot)"
	else
		note "$k: could not decompress vmlinuz (xz/zstd missing?): booting bzImage"
	fi
}

# Candidate image packages for K, best first: the one the metapackage
# points at, then older ABIs of the same kernel series and flavour.  A
# package can be in a suite's index and still be missing from the mirror
# (seen: bullseye-security's 5.10.0-46-rt and -45-rt), so fetching falls
# back to the next ABI, and takes the headers of the same ABI.
candidates() {	# K PKG
	local k=$1 pkg=$2 flavour series
	echo "$pkg"
	flavour=$(kernel_suffix "$k")
	flavour=${flavour#6.12-}
	series=$(echo "${pkg#linux-image-}" | sed -n 's/^\([0-9]*\.[0-9]*\)[.-].*/\1/p')
	[ -n "$series" ] || return 0
	k_apt "$k" apt-cache pkgnames linux-image- 2>/dev/null |
		grep -E "^linux-image-${series//./\\.}[.-][0-9][^ ]*-${flavour}\$" |
		{ [ "$flavour" = amd64 ] && grep -Ev -- '-(rt|cloud)-amd64$' || cat; } |
		grep -vxF "$pkg" | sort -rV | head -n 4
}

# download K PKG DIR: the path of PKG's .deb in DIR (or apt's cache),
# downloaded by the apt of K's release if needed; fails if the mirror
# does not have it.
download() {
	local k=$1 c=$2 debs=$3 deb ul b=${2%%:*}	# b: without ":arch"
	ul=$(kernel_userland "$k")
	deb=$(ls -t "$debs/${b}"_*.deb 2>/dev/null | head -n1 || true)
	[ -z "$deb" ] && [ -z "$ul" ] &&
		deb=$(ls -t /var/cache/apt/archives/"${b}"_*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$deb" ]; then
		note "$k: downloading $c"
		if [ -n "$ul" ]; then
			k_apt "$k" apt-get download -q "$c" 2>&1 >/dev/null |
				sed 's/^/    /' >&2 || true
			# apt-get download writes into the current directory: the
			# chroot's /.
			mv "$ul/${b}"_*.deb "$debs/" 2>/dev/null || true
		else
			(cd "$debs" && { apt-get download -q -o APT::Sandbox::User=root "$c" ||
				apt-get download -q "$c"; }) >&2 || true
		fi
		deb=$(ls -t "$debs/${b}"_*.deb 2>/dev/null | head -n1 || true)
	fi
	[ -n "$deb" ] && echo "$deb"
}

# cross_headers K KVER DEBS: the arm64 headers of KVER, extracted with
# what they need into the userland's /usr/src/osn-cross/KVER/ (a root of
# its own, so that nothing dpkg owns is touched): the flavour's and the
# common headers (arm64, arch: all) and the release's kbuild tools (amd64,
# of the same version: fixdep and modpost handle aarch64 objects), which
# the flavour's scripts and tools symlinks point at relatively.  Prints
# the headers' path as seen in the userland.
cross_headers() {
	local k=$1 kver=$2 debs=$3 ul r hdr deb dep d
	ul=$(kernel_userland "$k")
	r=/usr/src/osn-cross/$kver
	hdr=$r/usr/src/linux-headers-$kver
	if [ -e "$ul$hdr/.osn-ready" ]; then
		echo "$hdr"
		return 0
	fi
	rm -rf "$ul$r.tmp"
	mkdir -p "$ul$r.tmp"
	deb=$(download "$k" "linux-headers-$kver:$(kernel_arch "$k")" "$debs") ||
		die "$k: linux-headers-$kver could not be downloaded"
	dep=$(dpkg-deb -f "$deb" Depends)
	dpkg-deb -x "$deb" "$ul$r.tmp"
	rm -f "$deb"
	for d in $(echo "$dep" | grep -oE 'linux-(headers-[^ ,]*-common[^ ,]*|kbuild-[^ ,:]*)'); do
		deb=$(download "$k" "$d" "$debs") || die "$k: $d could not be downloaded"
		dpkg-deb -x "$deb" "$ul$r.tmp"
		rm -f "$deb"
	done
	# The flavour's Makefile includes the common one by its absolute path.
	sed -i "s|^include /usr/src/|include $r/usr/src/|" "$ul$r.tmp/usr/src/linux-headers-$kver/Makefile"
	rm -rf "$ul$r"
	mv "$ul$r.tmp" "$ul$r"
	touch "$ul$hdr/.osn-ready"
	echo "$hdr"
}

# The guest's userland of a foreign ARCH in $OSN_KCACHE/ARCH-userland/:
# Debian's busybox-static of that architecture, and under root/ the tools
# the guest tests and the bench run (OSN_GUEST_TOOLS: jq, stress-ng, the
# host release's rtla) with every library they depend on that the host
# has not installed for ARCH, and util-linux for chrt (busybox has none;
# chrt needs only the C library, which the host has), all extracted from
# their packages
# (installing jq:arm64 or busybox-static:arm64 would replace the host's
# own).  The host's own apt fetches them: about 40 packages, 6 MB, 2 s.
# run-kernel.sh copies each tool and, by DT_NEEDED, its libraries.
OSN_GUEST_TOOLS="jq stress-ng rtla"
guest_userland() {
	local a=$1 d=$OSN_KCACHE/$1-userland want p deb pkgs
	want="busybox-static util-linux $OSN_GUEST_TOOLS"
	[ "$(cat "$d/ready" 2>/dev/null)" = "$want" ] && return 0
	rm -rf "$d"
	mkdir -p "$d/debs" "$d/root"
	# The tools and their dependencies' closure, less what is installed.
	pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances \
		$(for p in $OSN_GUEST_TOOLS; do echo "$p:$a"; done) 2>/dev/null |
		grep "^[a-z0-9].*:$a\$" | sort -u) ||
		die "apt-cache depends $OSN_GUEST_TOOLS ($a) failed"
	set -- "busybox-static:$a" "util-linux:$a"
	for p in $pkgs; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			set -- "$@" "$p"
	done
	(cd "$d/debs" && apt-get download -q "$@") >&2 ||
		die "cannot download the $a guest userland: $*"
	for deb in "$d"/debs/*.deb; do
		dpkg-deb -x "$deb" "$d/root"
	done
	mv "$d/root/bin/busybox" "$d/busybox"
	rm -rf "$d/debs"
	echo "$want" >"$d/ready"
	note "$a guest userland ($# packages) -> $d"
}

# The arm64 kernels: image and headers of the arm64 packages, resolved by
# the apt of the kernel's release (the host's, or its chroot's), which
# must have the arm64 architecture (tests/install-deps.sh --arm64).
fetch_arm64() {
	local k=$1 suffix pkg deb dir tmp kver ul debs arch hdr
	arch=$(kernel_arch "$k")
	suffix=$(kernel_suffix "$k")
	ul=$(kernel_userland "$k")
	dir=$OSN_KCACHE/$k
	mkdir -p "$dir"
	rm -rf "$dir"/x.*
	pkg=$(resolve_meta "$k" "linux-image-$suffix:$arch")
	pkg=${pkg%%:*}
	if [ -z "$pkg" ]; then
		[ -s "$dir/vmlinuz" ] && { note "$k: apt cannot resolve linux-image-$suffix:$arch, using cached $(cat "$dir/pkg")"; return 0; }
		die "$k: cannot resolve linux-image-$suffix:$arch in $(kernel_release "$k") (run tests/install-deps.sh --arm64 --kernels $k)"
	fi
	debs=$OSN_KCACHE/debs
	[ -z "$ul" ] || debs=$ul/var/tmp/osn-debs
	mkdir -p "$debs"
	if [ -s "$dir/vmlinuz" ] && [ "$(cat "$dir/want" 2>/dev/null)" = "$pkg" ]; then
		note "$k: $(cat "$dir/pkg") (cached)"
	else
		deb=$(download "$k" "$pkg:$arch" "$debs") ||
			die "$k: $pkg:$arch could not be downloaded"
		tmp=$(mktemp -d "$dir/x.XXXXXX")
		note "$k: extracting the kernel of $(basename "$deb")"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './boot/*'
		kver=$(cd "$tmp/boot" && ls vmlinuz-* 2>/dev/null | sed 's/^vmlinuz-//' | head -n1)
		[ -n "$kver" ] || die "$k: no vmlinuz in $deb"
		cp "$tmp/boot/vmlinuz-$kver" "$dir/vmlinuz.new"
		cp "$tmp/boot/config-$kver" "$dir/config" 2>/dev/null || true
		cp "$tmp/boot/System.map-$kver" "$dir/System.map" 2>/dev/null || true
		rm -rf "$tmp" "$deb"
		echo "$kver" >"$dir/kver"
		echo "$pkg" >"$dir/pkg"
		echo "$pkg" >"$dir/want"
		kernel_release "$k" >"$dir/release"
		echo "$arch" >"$dir/arch"
		mv "$dir/vmlinuz.new" "$dir/vmlinuz"
	fi
	kver=$(cat "$dir/kver")
	guest_userland "$arch"
	hdr=$(cross_headers "$k" "$kver" "$debs")
	note "$k: headers in $ul$hdr"
	note "$k: $(cat "$dir/pkg") -> $dir/vmlinuz (kernel $kver, $arch)"
}

updated=0
fetch_one() {
	local k=$1 suffix pkg deb dir tmp kver ul c debs x f parts
	check_kernel_name "$k"
	suffix=$(kernel_suffix "$k")
	ul=$(kernel_userland "$k")
	dir=$OSN_KCACHE/$k
	mkdir -p "$dir"
	rm -rf "$dir"/x.*	# left by an interrupted run
	pkg=$(resolve_meta "$k" "linux-image-$suffix")
	if [ -z "$pkg" ] && [ -z "$ul" ] && [ $updated = 0 ] && [ "$(id -u)" = 0 ]; then
		note "linux-image-$suffix unknown to apt: apt-get update"
		apt-get update -qq >&2 || true
		updated=1
		pkg=$(resolve_meta "$k" "linux-image-$suffix")
	fi
	if [ -z "$pkg" ]; then
		# Offline and no apt lists: keep what we already have.
		if [ -s "$dir/vmlinuz" ]; then
			note "$k: apt cannot resolve linux-image-$suffix, using cached $(cat "$dir/pkg")"
			return 0
		fi
		die "$k: cannot resolve linux-image-$suffix in $(kernel_release "$k") (run as root, or through sudo: tests/install-deps.sh --kernels $k)"
	fi
	if [ -s "$dir/vmlinuz" ] && [ "$(cat "$dir/want" 2>/dev/null)" = "$pkg" ] &&
	   [ -e "$ul/usr/src/linux-headers-$(cat "$dir/kver")/Makefile" ]; then
		note "$k: $(cat "$dir/pkg") (cached)"
		return 0
	fi
	# Where the .deb goes: inside the chroot for another release's kernel
	# (its apt downloads it), build/kernels/debs/ for the host's.
	debs=$OSN_KCACHE/debs
	[ -z "$ul" ] || debs=$ul/var/tmp/osn-debs
	mkdir -p "$debs"
	parts=()
	for c in $(candidates "$k" "$pkg"); do
		parts=()
		deb=$(download "$k" "$c" "$debs") || {
			note "$k: $c could not be downloaded from the mirror: trying the next ABI"
			continue
		}
		parts=("$deb")
		# Forky (7.x) splits the image: linux-image-ABI is a dependency
		# package; vmlinuz is in linux-binary-ABI, config in linux-base-ABI.
		for x in "linux-binary-${c#linux-image-}" "linux-base-${c#linux-image-}"; do
			k_apt "$k" apt-cache show "$x" >/dev/null 2>&1 || continue
			deb=$(download "$k" "$x" "$debs") || { parts=(); break; }
			parts+=("$deb")
		done
		[ ${#parts[@]} -gt 0 ] && break
	done
	[ ${#parts[@]} -gt 0 ] || die "$k: no image package of $(kernel_release "$k")'s ${pkg} series could be downloaded"
	tmp=$(mktemp -d "$dir/x.XXXXXX")
	for deb in "${parts[@]}"; do
		note "$k: extracting the kernel of $(basename "$deb")"
		# Up to 6.x the kernel is /boot/vmlinuz-KVER; 7.x ships it as
		# /usr/lib/modules/KVER/vmlinuz.  A pattern not in a package is
		# not an error.
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './boot/*' \
			'./usr/lib/modules/*/vmlinuz' './usr/lib/modules/*/config' \
			'./usr/lib/modules/*/System.map' 2>/dev/null || true
	done
	mkdir -p "$tmp/boot"
	for f in "$tmp"/usr/lib/modules/*/vmlinuz; do
		[ -e "$f" ] || continue
		kver=$(basename "$(dirname "$f")")
		for x in vmlinuz config System.map; do
			[ -e "$tmp/usr/lib/modules/$kver/$x" ] &&
				mv "$tmp/usr/lib/modules/$kver/$x" "$tmp/boot/$x-$kver"
		done
	done
	kver=$(cd "$tmp/boot" && ls vmlinuz-* 2>/dev/null | sed 's/^vmlinuz-//' | head -n1)
	[ -n "$kver" ] || die "$k: no vmlinuz in ${parts[*]}"
	# The headers of exactly this ABI, in the kernel's own userland.
	if [ ! -e "$ul/usr/src/linux-headers-$kver/Makefile" ]; then
		if [ "$(id -u)" = 0 ]; then
			note "$k: installing linux-headers-$kver"
			k_apt "$k" apt-get install -y -q "linux-headers-$kver" >"$dir/headers.log" 2>&1 ||
				{ tail -n 5 "$dir/headers.log" >&2; die "$k: cannot install linux-headers-$kver"; }
		else
			die "$k: linux-headers-$kver is not installed (run as root, or through sudo: tests/install-deps.sh --kernels $k)"
		fi
	fi
	cp "$tmp/boot/vmlinuz-$kver" "$dir/vmlinuz.new"
	cp "$tmp/boot/config-$kver" "$dir/config" 2>/dev/null || true
	cp "$tmp/boot/System.map-$kver" "$dir/System.map" 2>/dev/null || true
	rm -rf "$tmp"
	echo "$kver" >"$dir/kver"
	basename "${parts[0]}" | sed 's/_.*//' >"$dir/pkg"
	echo "$pkg" >"$dir/want"
	kernel_release "$k" >"$dir/release"
	mv "$dir/vmlinuz.new" "$dir/vmlinuz"
	# The deb is no longer needed once /boot is out (~100 MB each).
	for deb in "${parts[@]}"; do
		case "$deb" in /var/cache/apt/*) ;; *) rm -f "$deb" ;; esac
	done
	note "$k: $(cat "$dir/pkg") -> $dir/vmlinuz (kernel $kver)"
}

for k in "$@"; do
	mkdir -p "$OSN_KCACHE"
	# The debug kernel is built from Debian's source, not fetched.
	if [ "$k" = debug ]; then
		"$OSN_ROOT/tests/debug/build-kernel.sh"
		continue
	fi
	# So is the debug kernel with osn built in.
	if [ "$k" = intree ]; then
		"$OSN_ROOT/tests/intree/build-kernel.sh"
		continue
	fi
	(
		flock 9
		if is_foreign "$k"; then
			fetch_arm64 "$k"
		else
			fetch_one "$k"
			ensure_vmlinux "$k"
		fi
	) 9>"$OSN_KCACHE/.lock-$k"
done
