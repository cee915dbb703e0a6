#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [--no-build] [RELEASE...] - the Debian packages, without a guest:
#   - make deb (tests/deb/make-deb.sh: dpkg-buildpackage, lintian with no
#     error), skipped with --no-build when build/deb/ has the packages;
#   - for each Debian release of the matrix (default: bullseye bookworm
#     trixie forky), all at once: apt-get install ./ the packages into a
#     fresh overlay of that release's chroot (build/roots/<release>/; the
#     host itself for its own release), DKMS builds osn.ko for the
#     chroot's kernel headers (one kernel per release), dpkg -P, nothing
#     left (tests/deb/install-one.sh).  build/roots/ is never written;
#   - on forky the osn (CLI) package is built first with forky's own
#     toolchain and libraries (tests/deb/build-one.sh, into build/deb/forky/),
#     and that package is the one installed there.
# Needs root (through sudo if not).  Ends with "N passed, N failed"; exit status 0 only if
# nothing failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../vm/common.sh"

if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || die "tests/deb/run.sh needs root (overlay mounts, chroot)"
	exec sudo -E "$0" "$@"
fi
build=1
[ "${1:-}" = --no-build ] && { build=0; shift; }
[ $# -gt 0 ] || set -- bullseye bookworm trixie forky
# The releases whose libraries have other sonames than bookworm's, where the
# osn (CLI) package is built again with the release's own toolchain and
# libraries (build-one.sh): forky's libproc2-1.  Trixie has bookworm's
# sonames (libproc2-0, libtracefs1, libjson-c5); bullseye cannot build the
# CLI at all (libtracefs 1.0.2, no libproc2).
cli_build=${OSN_DEB_CLI_BUILD-forky}
t0=$(now_s)
pass=0 failed=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

debdir=$OSN_BUILD/deb
if [ $build = 1 ] || ! ls "$debdir"/osn-dkms_*.deb >/dev/null 2>&1; then
	# The CLI's unit tests run in tests/run-host.sh: not again here.
	if DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}" "$here/make-deb.sh"; then
		ok "make deb: osn and osn-dkms built, lintian reports no error ($(($(now_s) - t0))s)"
	else
		fail "make deb"
		echo "$pass passed, $failed failed"
		exit 1
	fi
	left=$(cd "$OSN_ROOT" && ls -d debian/.debhelper debian/osn debian/osn-dkms debian/files debian/*.substvars 2>/dev/null | tr '\n' ' ')
	if [ -z "$left" ]; then ok "make deb left the checkout's debian/ clean"; else fail "make deb wrote into the checkout: $left"; fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/osn-deb.XXXXXX")

# The bash completion of the osn package, with bash-completion, completing
# against the packaged binary: commands, then a command's own options.
dpkg-deb -x "$(ls "$debdir"/osn_*.deb)" "$work/cli"
complete_osn() {	# WORD...: what completing the last WORD offers
	PATH=$work/cli/usr/bin:$PATH bash -c '
		. /usr/share/bash-completion/bash_completion || exit 1
		. "$0" || exit 1
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_osn osn "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		echo "${COMPREPLY[*]}"' \
		"$work/cli/usr/share/bash-completion/completions/osn" "$@" 2>&1
}
if [ ! -e /usr/share/bash-completion/bash_completion ]; then
	fail "bash completion: bash-completion is not installed (tests/install-deps.sh)"
else
	c=$(complete_osn osn h)
	if [ "$c" = "hist hwnoise" ]; then ok "bash completion: osn h<TAB> offers $c"; else fail "bash completion: osn h<TAB> offers '$c', not 'hist hwnoise'"; fi
	c=$(complete_osn osn hist --no-)
	if [ "$c" = "--no-header --no-summary --no-index" ]; then ok "bash completion: osn hist --no-<TAB> offers $c"; else fail "bash completion: osn hist --no-<TAB> offers '$c'"; fi
	c=$(complete_osn osn audit --)
	if [ "$c" = "--cpus --json --help" ]; then ok "bash completion: osn audit --<TAB> offers $c"; else fail "bash completion: osn audit --<TAB> offers '$c'"; fi
fi
# The arm64 package (make-deb.sh, where the cross toolchain is): an arm64
# package whose osn is an AArch64 executable, depending on the same
# libraries as the amd64 one.
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	a64=$(ls "$debdir"/arm64/osn_*_arm64.deb 2>/dev/null)
	deps() { dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' | sort | tr '\n' ' '; }
	if [ -z "$a64" ]; then
		fail "arm64 package: none in build/deb/arm64/"
	else
		dpkg-deb -x "$a64" "$work/a64"
		arch=$(dpkg-deb -f "$a64" Architecture)
		mach=$(aarch64-linux-gnu-readelf -h "$work/a64/usr/bin/osn" 2>&1 | sed -n 's/^ *Machine: *//p')
		da=$(deps "$a64") dn=$(deps "$(ls "$debdir"/osn_*.deb)")
		if [ "$arch" = arm64 ] && [ "$mach" = AArch64 ] && [ "$da" = "$dn" ]; then
			ok "arm64 package: $(basename "$a64"), osn is $mach, depends on $da"
		else
			fail "arm64 package: Architecture '$arch', osn's machine '$mach', depends on '$da' (amd64: '$dn')"
		fi
	fi
fi
pids=()
for rel in "$@"; do
	if [ "$rel" = "$(host_release)" ]; then
		lower=/
	else
		lower=$OSN_ROOTS/$rel
		if [ ! -e "$lower/.osn-ready" ]; then
			echo "FAIL $rel: no chroot at $lower (run tests/install-deps.sh as root, or through sudo)" >"$work/$rel.log"
			continue
		fi
	fi
	mkdir -p "$work/$rel"
	case " $cli_build " in
	*" $rel "*)
		# the CLI built on $rel first (build-one.sh), into build/deb/$rel/
		# with a copy of osn-dkms, then the same install test
		rdeb=$debdir/$rel
		rm -rf "$rdeb"
		mkdir -p "$rdeb" "$work/$rel-build"
		cp "$debdir"/osn-dkms_*.deb "$rdeb/"
		{
			unshare -m --propagation private -- "$here/build-one.sh" "$rel" "$lower" \
				"$work/$rel-build" "$debdir/src" "$rdeb"
			# lintian (the host's) on it, as make-deb.sh on bookworm's
			if ls "$rdeb"/osn_*.deb >/dev/null 2>&1; then
				if lintian --fail-on error "$rdeb"/osn_*.deb >"$rdeb/lintian.txt" 2>&1; then
					echo "ok $rel: lintian: no error on its osn package ($(grep -c '^W:' "$rdeb/lintian.txt") warnings)"
				else
					echo "FAIL $rel: lintian reported errors on its osn package"
					sed 's/^/#   /' "$rdeb/lintian.txt"
				fi
			fi
			unshare -m --propagation private -- "$here/install-one.sh" "$rel" "$lower" \
				"$work/$rel" "$rdeb"
		} >"$work/$rel.log" 2>&1 & ;;
	*)
		unshare -m --propagation private -- "$here/install-one.sh" "$rel" "$lower" \
			"$work/$rel" "$debdir" >"$work/$rel.log" 2>&1 & ;;
	esac
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for rel in "$@"; do
	grep -Eq '^(ok|FAIL) ' "$work/$rel.log" 2>/dev/null ||
		echo "FAIL $rel: no result" >>"$work/$rel.log"
	while IFS= read -r l; do
		case $l in
		"ok "*) ok "${l#ok }" ;;
		"FAIL "*) fail "${l#FAIL }" ;;
		*) echo "$l" ;;
		esac
	done <"$work/$rel.log"
done
rm -rf "$work"
# build/deb belongs to whoever ran sudo.
[ -z "${SUDO_UID:-}" ] || chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$debdir" 2>/dev/null
echo "deb: $# releases in $(($(now_s) - t0))s"
echo "$pass passed, $failed failed"
[ "$failed" = 0 ]
