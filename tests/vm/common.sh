# SPDX-License-Identifier: GPL-2.0
# Host-side helpers of the VM bench, sourced by tests/vm/*.sh and tests/*.sh.
# shellcheck shell=bash

OSN_ROOT=${OSN_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
OSN_BUILD=${OSN_BUILD:-$OSN_ROOT/build}
OSN_KCACHE=${OSN_KCACHE:-$OSN_BUILD/kernels}
# Minimal chroots of the Debian releases other than the host's, one per
# release (tests/vm/make-root.sh), where those releases' kernels are built.
OSN_ROOTS=${OSN_ROOTS:-$OSN_BUILD/roots}
# The matrix: Debian 11 bullseye (5.10), 12 bookworm (6.1, and 6.12 from
# backports), 13 trixie (6.12), forky (testing: whatever it ships),
# generic and PREEMPT_RT each.  Listed longest run first (forky's 7.x is the
# slowest under TCG, then the -rt kernels): run-matrix.sh starts them in this
# order two at a time, so the last to start are the short ones.
OSN_ALL_KERNELS="forky-rt forky 5.10-rt 6.1-rt trixie-rt 6.12-rt 5.10 6.12 trixie 6.1"
# Debian's arm64 kernels (issue 34): bookworm's 6.1 and trixie's 6.12,
# generic and PREEMPT_RT, cross-built on the amd64 host and booted in
# qemu-system-aarch64 (make check-arm64).  make check runs one of them,
# OSN_CHECK_ARM64, beside the amd64 matrix, with the whole suite: its
# CLI is another binary, cross-built, so no test is sharded away from it.
OSN_ARM64_KERNELS="trixie-rt-arm64 6.1-rt-arm64 trixie-arm64 6.1-arm64"
OSN_CHECK_ARM64=trixie-arm64
# make check's kernels: the arm64 one first, the longest run.
OSN_CHECK_KERNELS="$OSN_CHECK_ARM64 $OSN_ALL_KERNELS"

die() { echo "osn-vm: $*" >&2; exit 2; }
note() { echo "osn-vm: $*" >&2; }

# Matrix name -> Debian release whose kernel (and toolchain) it is.
kernel_release() {
	case "$1" in
	6.1|6.1-rt|6.12|6.12-rt)	echo bookworm ;;
	6.1-arm64|6.1-rt-arm64)		echo bookworm ;;
	trixie-arm64|trixie-rt-arm64)	echo trixie ;;
	5.10|5.10-rt)			echo bullseye ;;
	trixie|trixie-rt)		echo trixie ;;
	forky|forky-rt)			echo forky ;;
	debug)				echo bookworm ;;	# tests/debug/
	intree)				echo bookworm ;;	# tests/intree/
	*)				return 1 ;;
	esac
}

# Matrix name -> Debian metapackage suffix (linux-image-<suffix>,
# linux-headers-<suffix>) in that release.  Never an ABI number: apt
# resolves it.
kernel_suffix() {
	case "$1" in
	6.12)		echo 6.12-amd64 ;;
	6.12-rt)	echo 6.12-rt-amd64 ;;
	debug)		echo debug ;;	# built, not fetched: tests/debug/build-kernel.sh
	intree)		echo intree ;;	# built, not fetched: tests/intree/build-kernel.sh
	*-rt-arm64)	kernel_release "$1" >/dev/null && echo rt-arm64 ;;
	*-arm64)	kernel_release "$1" >/dev/null && echo arm64 ;;
	*-rt)		kernel_release "$1" >/dev/null && echo rt-amd64 ;;
	*)		kernel_release "$1" >/dev/null && echo amd64 ;;
	esac
}

check_kernel_name() {
	kernel_suffix "$1" >/dev/null ||
		die "unknown kernel '$1' (known: $OSN_ALL_KERNELS $OSN_ARM64_KERNELS)"
}

# Matrix name -> Debian architecture of the kernel.  An arm64 kernel's
# image and headers are the arm64 packages (dpkg --add-architecture
# arm64: tests/install-deps.sh --arm64); its modules are cross-built with
# the release's aarch64 gcc (kernel_cross), the kbuild tools being the
# release's amd64 ones.
kernel_arch() {
	case "$1" in
	*-arm64)	echo arm64 ;;
	*)		echo amd64 ;;
	esac
}
is_foreign() { [ "$(kernel_arch "$1")" != amd64 ]; }

# The CROSS_COMPILE prefix kernel K's modules are built with ("" native).
kernel_cross() {
	case "$(kernel_arch "$1")" in
	arm64)	echo aarch64-linux-gnu- ;;
	esac
}

# The host's own Debian release (codename).
host_release() {
	(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-unknown}")
}

# The userland a kernel's module is built in: "" for the host's own
# release, else the chroot of its release.
kernel_userland() {
	local rel
	rel=$(kernel_release "$1") || return 1
	[ "$rel" = "$(host_release)" ] && return 0
	echo "$OSN_ROOTS/$rel"
}

# in_root DIR CMD...: run CMD in the chroot DIR, with /proc mounted in a
# private mount namespace (7.x objtool reads /proc/self/limits), so that
# nothing stays mounted when CMD ends.
in_root() {
	local r=$1
	shift
	as_root unshare -m --propagation private -- sh -c \
		'mount -t proc proc "$0/proc" && exec chroot "$0" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 HOME=/root "$@"' \
		"$r" "$@"
}

# in_userland K CMD...: run CMD in kernel K's userland (the host, or its
# release's finished chroot).
in_userland() {
	local k=$1 r
	shift
	r=$(kernel_userland "$k") || return 1
	if [ -z "$r" ]; then
		"$@"
		return
	fi
	[ -e "$r/.osn-ready" ] ||
		die "$k: no $(kernel_release "$k") chroot at $r (run as root, or through sudo: tests/install-deps.sh --kernels $k)"
	in_root "$r" "$@"
}

# apt in kernel K's userland.  Forky's Release file may be past its
# Valid-Until on the mirror (testing is re-signed weekly).  INITRD=No:
# Debian's headers may depend on the image, whose initramfs we never boot.
k_apt() {	# K apt-get|apt-cache ARGS...
	local k=$1 tool=$2
	shift 2
	in_userland "$k" env INITRD=No DEBIAN_FRONTEND=noninteractive \
		"$tool" -o Acquire::Check-Valid-Until=false -o DPkg::Lock::Timeout=600 "$@"
}

# Concrete package a metapackage depends on, in kernel K's release, e.g.
# 6.1 linux-image-amd64 -> linux-image-6.1.0-56-amd64.  Only a dependency
# of the same kind counts: forky's linux-image-amd64 depends on
# linux-base-amd64 first.
resolve_meta() {	# K META
	local kind
	kind=$(echo "$2" | sed -n 's/^\(linux-[a-z]*-\).*/\1/p')
	k_apt "$1" apt-cache depends "$2" 2>/dev/null |
		awk -v kind="$kind" '$1 == "Depends:" && index($2, kind) == 1 { print $2; exit }'
}

# Run as root, or through sudo when not root.
as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

now_s() { date +%s; }

# record_tree: the tree a run starts on (its commit, "+changes" when the
# work tree differs), for record_row at its end: a commit made meanwhile
# is not what ran.
record_tree() {
	_tree=$(git -C "$OSN_ROOT" rev-parse --short=7 HEAD 2>/dev/null || echo '?')
	git -C "$OSN_ROOT" diff --quiet HEAD -- 2>/dev/null || _tree="$_tree+changes"
	echo "$_tree"
}

# record_row TARGET PASSED FAILED SECONDS TREE: the row to add to the run
# log of Documentation/reliability.md ("Runs of the slow targets"), printed
# at the end of make check-debug and make check-intree: they cannot run in
# CI, so each run is recorded by hand with the tree it ran on.
record_row() {
	_tree=$5
	_res=pass
	[ "$3" = 0 ] || _res=FAIL
	echo "record: | $(date -u +%F) | $_tree | \`$1\` | $_res | $2 passed, $3 failed | $4 s |"
}

# The sharded matrix of make check (Documentation/kernels.md), with
# OSN_SHARD set to a day number; without it, every test runs everywhere.
#  - A guest test whose header has "# matrix: shard" checks what is the
#    same code on every kernel (the host CLI, the module's own parsers),
#    or repeats at length what the unsharded tests do everywhere (the
#    storms of reliability/):
#    it runs on OSN_SHARD_MAIN and on one other kernel, a different one
#    each day (shard_plan).
#  - Twins are two kernels of the same upstream stable series built by
#    Debian for two suites (6.12.y in bookworm-backports and in trixie):
#    each builds and loads osn with its own toolchain and runs the tests
#    marked "# matrix: every", but the rest of the kernel-side suite is
#    dealt between the two, from an offset that moves daily (twin_plan).
#  - Every other test (the engine with its hotplug and unload tests,
#    timerlat, the injector) runs on every other kernel every time.
OSN_SHARD_MAIN=6.1
OSN_TWINS="6.12:trixie 6.12-rt:trixie-rt"

# test_header TESTFILE KEY: the value of its "# KEY: VALUE" line among
# its first 5 lines (timeout, boot, matrix: tests/README.md), if any.
test_header() {
	head -n 5 "$1" | sed -n "s/^#[[:space:]]*$2:[[:space:]]*//p" | head -n 1
}
matrix_tag() {	# TESTFILE: the word of its "# matrix: WORD" header, if any
	test_header "$1" matrix | sed 's/[^a-z].*//'
}
is_sharded() { [ "$(matrix_tag "$1")" = shard ]; }

twin_of() {	# K: its twin, if it has one
	local p
	for p in $OSN_TWINS; do
		case $p in "$1":*) echo "${p#*:}" ;; *:"$1") echo "${p%%:*}" ;; esac
	done
}

# shard_plan DAY: a line "TEST KERNEL" per sharded test (TEST as
# guest/cli/10-errors.sh), KERNEL being the one besides OSN_SHARD_MAIN
# that runs it on DAY.  The sharded tests, in name order, are dealt to
# the other kernels in turn, from an offset that moves by one each day:
# each kernel gets a ninth of them, and in nine days every test has run
# on every kernel.
shard_plan() {
	local others=() k i=0 t
	for k in $OSN_ALL_KERNELS; do
		[ "$k" = "$OSN_SHARD_MAIN" ] || others+=("$k")
	done
	for t in $(cd "$OSN_ROOT/tests" && ls guest/*/[0-9]*.sh); do
		is_sharded "$OSN_ROOT/tests/$t" || continue
		echo "$t ${others[$(((i + $1) % ${#others[@]}))]}"
		i=$((i + 1))
	done
}

# twin_plan DAY K: a line "TEST KERNEL" per test that twin K and its twin
# deal between them on DAY (neither sharded nor "# matrix: every"), in
# name order, alternately, the first one's twin moving each day.
twin_plan() {
	local pair=("$2" "$(twin_of "$2")") i t
	[ -n "${pair[1]}" ] || return 0
	# the same order on both twins: the pair as OSN_TWINS writes it
	case " $OSN_TWINS " in *" ${pair[1]}:${pair[0]} "*) pair=("${pair[1]}" "${pair[0]}") ;; esac
	i=$1
	for t in $(cd "$OSN_ROOT/tests" && ls guest/*/[0-9]*.sh); do
		case $(matrix_tag "$OSN_ROOT/tests/$t") in shard|every) continue ;; esac
		echo "$t ${pair[$((i % 2))]}"
		i=$((i + 1))
	done
}

# shard_day: today's number (days since the epoch, UTC).
shard_day() { echo $(($(date -u +%s) / 86400)); }
