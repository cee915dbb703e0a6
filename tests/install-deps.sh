#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh [--kernels "6.1 6.12 6.1-rt 6.12-rt"] [--no-kernels]
#
# Installs everything osn's build and tests need on Debian 12 (idempotent;
# run as root or through sudo: `sudo tests/install-deps.sh`):
#   - build: compiler, make, pkg-config, libtracefs-dev, libtraceevent-dev,
#     libproc2-dev, sparse
#   - VM bench: kmod, cpio, busybox-static, qemu-system-x86, xz-utils,
#     zstd; tools copied into the guest: jq, rtla, rt-tests (oslat,
#     cyclictest), stress-ng
#   - for each kernel of the matrix: its headers (linux-headers-<suffix>,
#     resolved by apt through Debian's metapackages, never an ABI number)
#     and its vmlinuz, downloaded and extracted without installing the
#     image (tests/vm/fetch-kernel.sh; no initramfs generation).
# Prints what it did.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm/common.sh"

kernels=$OSN_ALL_KERNELS
fetch=1
while [ $# -gt 0 ]; do
	case "$1" in
	--kernels) kernels=$2; shift 2 ;;
	--kernels=*) kernels=${1#--kernels=}; shift ;;
	--no-kernels) fetch=0; shift ;;
	-h|--help) sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done
for k in $kernels; do check_kernel_name "$k"; done

if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || die "run as root (or install sudo)"
	again=(--kernels "$kernels")
	[ $fetch = 1 ] || again+=(--no-kernels)
	exec sudo -E "$0" "${again[@]}"
fi

export DEBIAN_FRONTEND=noninteractive
# Debian's 6.12 headers depend on the matching linux-image: installing it
# would generate an initramfs (minutes) we never boot.  The VM boots the
# vmlinuz fetched below with its own initramfs, so skip that step.
export INITRD=No
t0=$(now_s)
pkgs=(build-essential make pkg-config kmod cpio busybox-static qemu-system-x86
	xz-utils zstd libtracefs-dev libtraceevent-dev libproc2-dev sparse
	rt-tests stress-ng rtla jq)
hdrs=()
for k in $kernels; do
	hdrs+=("linux-headers-$(kernel_suffix "$k")")
done

echo "install-deps: apt-get update"
apt-get update -q

missing=()
for p in "${pkgs[@]}" "${hdrs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}"
else
	echo "install-deps: all $((${#pkgs[@]} + ${#hdrs[@]})) packages already installed"
fi
apt_install() {
	apt-get install -y -q --no-install-recommends -o Dpkg::Use-Pty=0 \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@" |
		grep -vE '^(Reading |Building |\(Reading database|Skipping )|already the newest version|no longer required|apt autoremove' || true
	[ "${PIPESTATUS[0]}" = 0 ]
}
# Tools: install what is missing, upgrade nothing.
apt_install --no-upgrade "${pkgs[@]}"
# Headers: through the metapackages, which may point at a newer kernel ABI
# after apt-get update (then its headers get installed).
[ ${#hdrs[@]} = 0 ] || apt_install "${hdrs[@]}"

for k in $kernels; do
	suffix=$(kernel_suffix "$k")
	echo "install-deps: $k: headers $(resolve_meta "linux-headers-$suffix"), image $(resolve_meta "linux-image-$suffix")"
done

if [ $fetch = 1 ] && [ -n "$kernels" ]; then
	echo "install-deps: fetching kernel images into ${OSN_KCACHE#"$OSN_ROOT"/}"
	# shellcheck disable=SC2086
	"$here/vm/fetch-kernel.sh" $kernels
	# The tree belongs to whoever ran sudo: keep build/ writable for them.
	if [ -n "${SUDO_UID:-}" ]; then
		chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$OSN_BUILD" 2>/dev/null || true
	fi
fi

for k in $kernels; do
	hp=$(resolve_meta "linux-headers-$(kernel_suffix "$k")")
	kv=$(cat "$OSN_KCACHE/$k/kver" 2>/dev/null || echo "not fetched")
	printf 'install-deps: %-8s vmlinuz %-26s headers %s\n' "$k" "$kv" \
		"$([ -e "/usr/src/$hp/Makefile" ] && echo "/usr/src/$hp" || echo "MISSING ($hp)")"
done
echo "install-deps: done in $(($(now_s) - t0))s"
