#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh [--kernels "6.1 5.10-rt ..."] [--no-kernels] [--arm64]
#
# Installs everything osn's build and tests need on Debian 12 (idempotent;
# run as root, or as a user with sudo: it re-executes itself through sudo):
#   - build: compiler, make, pkg-config, libtracefs-dev, libtraceevent-dev,
#     libproc2-dev, libjson-c-dev, libmicrohttpd-dev, sparse; prometheus
#     (promtool, for test_metrics)
#   - Debian packages (make deb, tests/deb/run.sh): debhelper, dh-dkms,
#     dkms, lintian, fakeroot, dpkg-dev, bash-completion
#   - VM bench: kmod, cpio, busybox-static, qemu-system-x86, xz-utils,
#     zstd; tools copied into the guest: jq, rtla, rt-tests (oslat,
#     cyclictest), stress-ng
#   - for each other Debian release of the matrix (bullseye, trixie, forky
#     on a bookworm host): a minimal chroot of it with its own gcc, kbuild,
#     kernel headers and rtla (tests/vm/make-root.sh, build/roots/)
#   - for each kernel of make check (default: the ten of the amd64 matrix
#     and trixie-arm64, OSN_CHECK_KERNELS): its headers
#     (linux-headers-<suffix>, resolved by apt through Debian's
#     metapackages, never an ABI number), in the host or in its release's
#     chroot, and its vmlinuz, downloaded and extracted without installing
#     the image (tests/vm/fetch-kernel.sh; no initramfs generation).
#   - for an arm64 kernel (make check's trixie-arm64; --arm64: all four,
#     OSN_ARM64_KERNELS, for make check-arm64): the arm64 architecture
#     (dpkg --add-architecture arm64), gcc-aarch64-linux-gnu,
#     qemu-system-arm, the arm64 -dev packages the CLI is cross-built
#     with, the guest's arm64 tools (fetch-kernel.sh guest_userland), and
#     the kernels' images, and their headers extracted with the
#     release's kbuild (tests/vm/fetch-kernel.sh); trixie's kernels are
#     cross-built in the trixie chroot, which gets arm64 and its own cross
#     gcc (tests/vm/make-root.sh --arm64).
# Prints what it did.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm/common.sh"

kernels=$OSN_CHECK_KERNELS
given=0
fetch=1
arm64=0 all64=0
while [ $# -gt 0 ]; do
	case "$1" in
	--kernels) kernels=$2; given=1; shift 2 ;;
	--kernels=*) kernels=${1#--kernels=}; given=1; shift ;;
	--no-kernels) fetch=0; shift ;;
	--arm64) arm64=1 all64=1; shift ;;
	-h|--help) sed -n '3,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done
for k in $kernels; do
	check_kernel_name "$k"
	! is_foreign "$k" || arm64=1
done
# --arm64 alone: the matrix and the arm64 kernels.
[ $all64 = 0 ] || [ $given = 1 ] || kernels="$kernels $OSN_ARM64_KERNELS"

if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || die "run as root (or install sudo)"
	again=(--kernels "$kernels")
	[ $fetch = 1 ] || again+=(--no-kernels)
	[ $arm64 = 0 ] || again+=(--arm64)
	exec sudo -E "$0" "${again[@]}"
fi

export DEBIAN_FRONTEND=noninteractive
# Debian's 6.12 headers depend on the matching linux-image: installing it
# would generate an initramfs (minutes) we never boot.  The VM boots the
# vmlinuz fetched below with its own initramfs, so skip that step.
export INITRD=No
t0=$(now_s)
pkgs=(build-essential make pkg-config kmod cpio busybox-static qemu-system-x86
	xz-utils zstd libtracefs-dev libtraceevent-dev libproc2-dev libjson-c-dev sparse
	libmicrohttpd-dev	# osn monitor's HTTP server
	rt-tests stress-ng rtla jq debootstrap
	debhelper dh-dkms dkms lintian fakeroot dpkg-dev bash-completion
	chromium	# tests/report/browser.sh: the --report page in a real browser
	prometheus)	# promtool: test_metrics checks osn monitor's exposition with it
# The arm64 port (issue 34): its cross toolchain, its QEMU, and the -dev
# packages of the CLI's libraries for arm64 (multiarch: they sit next to
# the amd64 ones, at the same versions).  busybox-static:arm64 would
# replace the host's busybox-static: the guest's arm64 busybox is
# extracted from its package instead (tests/vm/run-kernel.sh).
if [ $arm64 = 1 ]; then
	pkgs+=(gcc-aarch64-linux-gnu qemu-system-arm libtracefs-dev:arm64
		libtraceevent-dev:arm64 libproc2-dev:arm64 libjson-c-dev:arm64
		libmicrohttpd-dev:arm64)
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		echo "install-deps: dpkg --add-architecture arm64"
		dpkg --add-architecture arm64
	fi
fi
hdrs=()
rels=()
arels=()
for k in $kernels; do
	if is_foreign "$k"; then
		# Headers extracted by fetch-kernel.sh, not installed.
		r=$(kernel_release "$k")
		[ -z "$(kernel_userland "$k")" ] && continue
		case " ${rels[*]} " in *" $r "*) ;; *) rels+=("$r") ;; esac
		case " ${arels[*]} " in *" $r "*) ;; *) arels+=("$r") ;; esac
	elif [ -z "$(kernel_userland "$k")" ]; then
		hdrs+=("linux-headers-$(kernel_suffix "$k")")
	else
		r=$(kernel_release "$k")
		case " ${rels[*]} " in *" $r "*) ;; *) rels+=("$r") ;; esac
	fi
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

# each_at_once CMD ARG...: CMD ARG for every ARG, all at once (the mirror
# is the bottleneck, not the CPU); fails if any failed.
each_at_once() {
	local cmd=$1 a p rc=0 pids=()
	shift
	for a in "$@"; do
		"$cmd" "$a" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || rc=1; done
	return $rc
}

# Chroots of the other releases, all at once.
if [ ${#rels[@]} -gt 0 ]; then
	echo "install-deps: chroots for ${rels[*]} in ${OSN_ROOTS#"$OSN_ROOT"/}"
	each_at_once "$here/vm/make-root.sh" "${rels[@]}" ||
		die "a chroot could not be made (see above)"
fi
# The arm64 kernels' chroots: their arm64 packages and cross gcc.
for r in "${arels[@]}"; do
	"$here/vm/make-root.sh" --arm64 "$r" || die "$r: arm64 in the chroot failed"
done

for k in $kernels; do
	suffix=$(kernel_suffix "$k")
	q=
	is_foreign "$k" && q=:$(kernel_arch "$k")
	echo "install-deps: $k ($(kernel_release "$k")): headers $(resolve_meta "$k" "linux-headers-$suffix$q"), image $(resolve_meta "$k" "linux-image-$suffix$q")"
done

if [ $fetch = 1 ] && [ -n "$kernels" ]; then
	echo "install-deps: fetching kernel images into ${OSN_KCACHE#"$OSN_ROOT"/}"
	# shellcheck disable=SC2086
	each_at_once "$here/vm/fetch-kernel.sh" $kernels ||
		die "a kernel could not be fetched (see above)"
	# The tree belongs to whoever ran sudo: keep build/ writable for them.
	if [ -n "${SUDO_UID:-}" ]; then
		chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$OSN_BUILD" 2>/dev/null || true
	fi
fi

for k in $kernels; do
	kv=$(cat "$OSN_KCACHE/$k/kver" 2>/dev/null || echo "not fetched")
	hp=$(kernel_userland "$k")/usr/src/linux-headers-$kv
	! is_foreign "$k" || hp=$(kernel_userland "$k")/usr/src/osn-cross/$kv/usr/src/linux-headers-$kv
	printf 'install-deps: %-9s vmlinuz %-28s headers %s\n' "$k" "$kv" \
		"$([ -e "$hp/Makefile" ] && echo "${hp#"$OSN_ROOT"/}" || echo "MISSING ($hp)")"
done
echo "install-deps: done in $(($(now_s) - t0))s"
