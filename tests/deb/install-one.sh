#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# install-one.sh RELEASE LOWER DIR DEBDIR - one release of tests/deb/run.sh,
# run as root in a private mount namespace (unshare -m): a fresh overlay of
# LOWER (the release's chroot, or / for the host's own release) with its
# writable layer on a tmpfs at DIR, so LOWER is never written and nothing
# is left when the namespace ends.  In it: apt-get install ./ the packages
# of DEBDIR, check that DKMS built and installed osn.ko for the kernel
# whose headers are there, dpkg -P, check that nothing is left.  One line
# per check, "ok RELEASE: ..." or "FAIL RELEASE: ...".  DEBDIR has
# osn-dkms and the osn (CLI) package built for RELEASE (tests/deb/run.sh:
# on bookworm by make deb, on forky by build-one.sh there).
set -uo pipefail
rel=$1 lower=$2 dir=$3 debdir=$4
t0=$(date +%s)
version=$(dpkg-deb -f "$(ls "$debdir"/osn-dkms_*.deb)" Version)

ok() { echo "ok $rel: $*"; }
fail() { echo "FAIL $rel: $*"; }
check() {	# WHAT CMD...: ok or FAIL with CMD's status
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}
. "$(dirname "$0")/overlay.sh"

overlay_up "$lower" "$dir"
cp "$debdir"/*.deb "$m/tmp/"

# One kernel per release (a generic one if it has headers, else an -rt
# one): the other kernels' module directories are hidden in the overlay
# (whiteouts), so DKMS builds once.
kver=
for pass in generic rt; do
	for d in "$m"/lib/modules/*; do
		k=${d##*/}
		case $pass:$k in generic:*-rt-*) continue ;; esac
		# build is an absolute link into the chroot's /usr/src: test it there.
		if [ -z "$kver" ] && in_m test -e "/lib/modules/$k/build/Makefile"; then
			kver=$k
		fi
	done
done
for d in "$m"/lib/modules/*; do
	[ "${d##*/}" = "$kver" ] || rm -rf "$d"
done
[ -n "$kver" ] || { fail "no kernel headers in $lower"; exit 1; }
echo "# $rel: kernel headers $kver; $(in_m dpkg-query -W -f='dkms ${Version}' dkms 2>/dev/null || echo 'dkms not installed yet')"

# The CLI needs libtracefs1 >= 1.6.3 and libproc2: bullseye has neither
# (libtracefs1 1.0.2, procps 3.3's libprocps8).  There only osn-dkms is
# installed, and the test checks that apt indeed refuses osn (bookworm's),
# so it notices when that changes.
debs="/tmp/$(basename "$debdir"/osn-dkms_*.deb)"
cli=$(ls "$debdir"/osn_*.deb 2>/dev/null | head -n 1)
[ -z "$cli" ] || cli=/tmp/$(basename "$cli")
case $rel in
bullseye)
	if [ -z "$cli" ]; then
		fail "no osn package in $debdir to try"
	elif apt_m install -y -s "$cli" >"$dir/sim.log" 2>&1; then
		fail "apt would install osn on $rel: install it there too (tests/deb/install-one.sh)"
	else
		ok "osn (CLI) not installable, as expected: $(grep -Eo 'Depends: (libproc2|libtracefs)[^ ]* [^ ]*[^,]*' "$dir/sim.log" | sed 's/Depends: //' | sort -u | tr '\n' ' ')"
	fi ;;
*)	if [ -n "$cli" ]; then debs="$debs $cli"; else fail "no osn package built for $rel"; fi ;;
esac

# DKMS >= 3 signs what it builds with a key it makes with openssl, which a
# real system has and these minimal chroots have not: installed with the
# packages, so that signing is checked on every release whose DKMS signs.
[ "$rel" = bullseye ] || debs="$debs openssl"

# apt-get install ./...: dkms and what it needs come from the mirror.
# shellcheck disable=SC2086
if apt_m_fresh "$dir/install.log" install -y -q $debs; then ok "apt-get install $debs"; else
	fail "apt-get install $debs"; tail -n 25 "$dir/install.log" | sed 's/^/#   /'
fi

st=$(in_m dkms status osn 2>&1)
echo "# $rel: dkms status: $st"
case $st in
*"osn/$version, $kver, "*": installed"*|*"osn, $version, $kver, "*": installed"*)
	ok "dkms status: osn/$version installed for $kver" ;;
*)	fail "dkms status: osn/$version not installed for $kver"
	grep -iE 'error|fail' "$dir/install.log" | head -n 10 | sed 's/^/#   /' ;;
esac
ko=$(cd "$m" && find "lib/modules/$kver" -name 'osn.ko*' | head -n 1)
if [ -n "$ko" ]; then
	ok "/$ko exists"
	vm=$(in_m modinfo -F vermagic "/$ko" 2>&1)
	case "$vm " in
	"$kver "*) ok "modinfo vermagic: $vm" ;;
	*) fail "modinfo vermagic '$vm' is not of $kver" ;;
	esac
	# DKMS >= 3 signs what it builds with its MOK key, made on the first
	# build (Secure Boot needs it enrolled); bullseye's DKMS 2.8 does not.
	signer=$(in_m modinfo -F signer "/$ko" 2>/dev/null)
	if [ "$rel" = bullseye ]; then
		check "not signed by DKMS 2.8 (signer: ${signer:-none})" [ -z "$signer" ]
	else
		check "signed with DKMS's MOK key (signer: ${signer:-none}; key: $(cd "$m" && ls var/lib/dkms/mok.* 2>/dev/null | tr '\n' ' '))" \
			[ "$signer" = "DKMS module signing key" ]
	fi
	mv=$(in_m modinfo -F version "/$ko" 2>&1)
	check "modinfo version $mv is the package's ($version)" [ "$mv" = "$version" ]
else
	fail "no osn.ko under /lib/modules/$kver"
fi
case " $debs " in
*" $cli "*)
	v=$(in_m osn --version 2>&1)
	check "osn --version: $v" [ "$v" = "osn $version" ]
	check "man page osn-top(1), bash completion installed" \
		test -e "$m/usr/share/man/man1/osn-top.1.gz" -a \
		-e "$m/usr/share/bash-completion/completions/osn" ;;
esac

# shellcheck disable=SC2086
if in_m dpkg -P osn osn-dkms >"$dir/purge.log" 2>&1; then ok "dpkg -P osn osn-dkms"; else
	fail "dpkg -P osn osn-dkms"; tail -n 15 "$dir/purge.log" | sed 's/^/#   /'
fi
# usr/src/osn-<version>: the dkms source; not usr/src/osn-*, which would
# also match another package's tree (the arm64 cross headers that
# tests/install-deps.sh --arm64 extracts to usr/src/osn-cross)
left=$(cd "$m" && { ls -d usr/src/osn-[0-9]* var/lib/dkms/osn usr/bin/osn \
	usr/share/bash-completion/completions/osn usr/share/man/man1/osn.1.gz usr/share/man/man1/osn-*.1.gz \
	usr/share/doc/osn usr/share/doc/osn-dkms 2>/dev/null
	find lib/modules -name 'osn.ko*' 2>/dev/null; } | tr '\n' ' ')
check "nothing left after dpkg -P${left:+: $left}" [ -z "$left" ]
st=$(in_m dpkg-query -W -f='${db:Status-Abbrev}' osn osn-dkms 2>/dev/null | tr -d ' ')
check "dpkg knows neither package any more (${st:-none})" [ -z "$st" ]
echo "# $rel: done in $(($(date +%s) - t0))s"
