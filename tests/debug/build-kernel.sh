#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh - build the debug kernel (`make debug-kernel`) from the
# kernel source Debian ships (linux-source-6.1, through the host's apt),
# configured by `make allnoconfig` plus tests/debug/debug.config, with the
# host's (bookworm's) gcc.  Kept in the kernel cache as the matrix's
# kernels are, so that the VM bench boots it like any other:
#   build/kernels/debug/{vmlinuz,config,System.map,kver,release}
# (no vmlinux: QEMU's PVH entry does not boot this one, seen silent after
# "Booting from ROM"; the VM bench boots its bzImage)
#   build/kernels/debug/build -> the built tree (osn.ko is built against it)
# Built once: rebuilt only when debug.config or the source package change
# (stamp build/kernels/debug/stamp).  Prints the build time.
set -euo pipefail
. "$(dirname "$0")/../vm/common.sh"

frag=$OSN_ROOT/tests/debug/debug.config
dir=$OSN_KCACHE/debug
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9

pkg=linux-source-6.1
ver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
[ -n "$ver" ] && [ "$ver" != "(none)" ] ||
	die "debug kernel: apt knows no $pkg (run apt-get update)"
stamp="$pkg $ver $(sha256sum "$frag" | cut -c1-16)"
if [ -s "$dir/vmlinuz" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
	note "debug: kernel $(cat "$dir/kver") up to date ($stamp)"
	exit 0
fi
rm -f "$dir/stamp"

t0=$(now_s)
# What a kernel build needs beyond `make check`'s dependencies.
need=()
for p in flex bison bc libelf-dev libssl-dev xz-utils; do
	dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || die "debug kernel: missing ${need[*]} (apt-get install ${need[*]})"
	note "debug: installing ${need[*]}"
	apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null ||
		die "debug kernel: cannot install ${need[*]}"
fi
src=$dir/src
tree=$src/linux-source-6.1
if [ "$(cat "$src/.version" 2>/dev/null)" != "$ver" ]; then
	note "debug: fetching $pkg $ver"
	rm -rf "$src"
	mkdir -p "$src"
	(cd "$src" && apt-get download -q "$pkg=$ver" >/dev/null 2>&1) ||
		die "debug kernel: apt-get download $pkg=$ver failed"
	dpkg-deb --fsys-tarfile "$src"/"$pkg"_*.deb |
		tar -x -O ./usr/src/$pkg.tar.xz | xz -dc -T0 | tar -x -C "$src"
	rm -f "$src"/"$pkg"_*.deb
	echo "$ver" >"$src/.version"
fi

note "debug: configuring (allnoconfig + $(basename "$frag"))"
make -C "$tree" -s allnoconfig >/dev/null
(cd "$tree" && scripts/kconfig/merge_config.sh -m .config "$frag") >"$dir/config.log" 2>&1
make -C "$tree" -s olddefconfig >/dev/null
# Every option of the fragment must have ended up as written: a dependency
# Kconfig could not satisfy would otherwise drop a checker silently.
missing=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$frag" | while IFS= read -r l; do
	o=${l%%=*} v=${l#*=}
	if [ "$v" = n ]; then
		grep -q "^$o=" "$tree/.config" && echo "$o (wanted n)"
	else
		grep -qx "$o=$v" "$tree/.config" || echo "$o (wanted $v)"
	fi
done)
[ -z "$missing" ] || die "debug kernel: not set as asked: $(echo $missing)"

note "debug: building with $(gcc -dumpfullversion 2>/dev/null || echo gcc) on $(nproc) cores (log $dir/build.log)"
if ! nice make -C "$tree" -j"$(nproc)" LOCALVERSION=-osn-debug >"$dir/build.log" 2>&1; then
	tail -n 30 "$dir/build.log" >&2
	die "debug kernel: build failed (see $dir/build.log)"
fi
make -C "$tree" -s LOCALVERSION=-osn-debug kernelrelease >"$dir/kver"
rm -f "$dir/vmlinux"
cp "$tree/arch/x86/boot/bzImage" "$dir/vmlinuz"
cp "$tree/.config" "$dir/config"
cp "$tree/System.map" "$dir/System.map"
echo bookworm >"$dir/release"
echo "$pkg $ver" >"$dir/pkg"
ln -sfn "$tree" "$dir/build"
secs=$(( $(now_s) - t0 ))
echo "$secs" >"$dir/build-seconds"
echo "$stamp" >"$dir/stamp"
note "debug: built $(cat "$dir/kver") in ${secs} s on $(nproc) cores"
