#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh KERNEL... - get the vmlinuz of Debian kernels of the test
# matrix (6.1 6.12 6.1-rt 6.12-rt) without installing them.
#
# The concrete package is resolved through Debian's metapackage
# (linux-image-<suffix> -> linux-image-<abi>-<flavour>), downloaded with
# `apt-get download` into build/kernels/debs/ (or taken from apt's cache)
# and only its /boot is extracted into build/kernels/<kernel>/ (a deb we
# downloaded is removed afterwards):
#   vmlinuz  kver (uname -r)  pkg (package name)  config  System.map
#   vmlinux  the decompressed ELF kernel: QEMU boots it directly through its
#            PVH entry (CONFIG_PVH=y), which saves the ~7 s an emulated CPU
#            spends decompressing bzImage on every boot.
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

updated=0
fetch_one() {
	local k=$1 suffix pkg deb dir tmp kver
	check_kernel_name "$k"
	suffix=$(kernel_suffix "$k")
	dir=$OSN_KCACHE/$k
	mkdir -p "$dir"
	pkg=$(resolve_meta "linux-image-$suffix")
	if [ -z "$pkg" ] && [ $updated = 0 ] && [ "$(id -u)" = 0 ]; then
		note "linux-image-$suffix unknown to apt: apt-get update"
		apt-get update -qq >&2 || true
		updated=1
		pkg=$(resolve_meta "linux-image-$suffix")
	fi
	if [ -z "$pkg" ]; then
		# Offline and no apt lists: keep what we already have.
		if [ -s "$dir/vmlinuz" ]; then
			note "$k: apt cannot resolve linux-image-$suffix, using cached $(cat "$dir/pkg")"
			return 0
		fi
		die "$k: cannot resolve linux-image-$suffix (run: sudo tests/install-deps.sh)"
	fi
	if [ -s "$dir/vmlinuz" ] && [ "$(cat "$dir/pkg" 2>/dev/null)" = "$pkg" ]; then
		note "$k: $pkg (cached)"
		return 0
	fi
	deb=$(ls -t /var/cache/apt/archives/"${pkg}"_*.deb "$OSN_KCACHE/debs/${pkg}"_*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$deb" ]; then
		note "$k: downloading $pkg"
		(cd "$OSN_KCACHE/debs" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >&2 ||
			apt-get download -q "$pkg" >&2)
		deb=$(ls -t "$OSN_KCACHE/debs/${pkg}"_*.deb | head -n1)
	fi
	note "$k: extracting /boot of $(basename "$deb")"
	tmp=$(mktemp -d "$dir/x.XXXXXX")
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./boot
	kver=$(cd "$tmp/boot" && ls vmlinuz-* | sed 's/^vmlinuz-//' | head -n1)
	[ -n "$kver" ] || die "$k: no vmlinuz in $deb"
	cp "$tmp/boot/vmlinuz-$kver" "$dir/vmlinuz.new"
	cp "$tmp/boot/config-$kver" "$dir/config" 2>/dev/null || true
	cp "$tmp/boot/System.map-$kver" "$dir/System.map" 2>/dev/null || true
	rm -rf "$tmp"
	echo "$kver" >"$dir/kver"
	echo "$pkg" >"$dir/pkg"
	mv "$dir/vmlinuz.new" "$dir/vmlinuz"
	# The deb is no longer needed once /boot is out (~100 MB each).
	case "$deb" in "$OSN_KCACHE"/debs/*) rm -f "$deb" ;; esac
	note "$k: $pkg -> $dir/vmlinuz (kernel $kver)"
}

for k in "$@"; do
	mkdir -p "$OSN_KCACHE"
	(
		flock 9
		fetch_one "$k"
		ensure_vmlinux "$k"
	) 9>"$OSN_KCACHE/.lock-$k"
done
