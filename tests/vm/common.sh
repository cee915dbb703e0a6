# SPDX-License-Identifier: GPL-2.0
# Host-side helpers of the VM bench, sourced by tests/vm/*.sh and tests/*.sh.
# shellcheck shell=bash

OSN_ROOT=${OSN_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
OSN_BUILD=${OSN_BUILD:-$OSN_ROOT/build}
OSN_KCACHE=${OSN_KCACHE:-$OSN_BUILD/kernels}
OSN_ALL_KERNELS="6.1 6.12 6.1-rt 6.12-rt"

die() { echo "osn-vm: $*" >&2; exit 2; }
note() { echo "osn-vm: $*" >&2; }

# Matrix name -> Debian metapackage suffix (linux-image-<suffix>,
# linux-headers-<suffix>).  Never an ABI number: apt resolves it.
kernel_suffix() {
	case "$1" in
	6.1)		echo amd64 ;;
	6.12)		echo 6.12-amd64 ;;
	6.1-rt)		echo rt-amd64 ;;
	6.12-rt)	echo 6.12-rt-amd64 ;;
	*)		return 1 ;;
	esac
}

check_kernel_name() {
	kernel_suffix "$1" >/dev/null ||
		die "unknown kernel '$1' (known: $OSN_ALL_KERNELS)"
}

# Concrete package a metapackage depends on, e.g.
# linux-image-amd64 -> linux-image-6.1.0-56-amd64.
resolve_meta() {
	apt-cache depends "$1" 2>/dev/null |
		awk '$1 == "Depends:" && index($2, "linux-") == 1 { print $2; exit }'
}

# Run as root, or through sudo when not root.
as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

now_s() { date +%s; }
