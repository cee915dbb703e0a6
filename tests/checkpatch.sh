#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.sh - the kernel's coding style on kernel/ (`make checkpatch`,
# and a host test of `make check`): scripts/checkpatch.pl --strict from
# the kernel source Debian ships (linux-source-6.1, through the host's
# apt; cached in build/checkpatch/).  Every ERROR and WARNING fails, but
# those listed in tests/checkpatch.allow, each with the reason it cannot
# be fixed.  CHECKs are printed, not counted.
# Prints "OSN-TEST: PASS|FAIL checkpatch" and ends with "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/vm/common.sh"

dir=$OSN_BUILD/checkpatch
cp=$dir/scripts/checkpatch.pl
if [ ! -x "$cp" ]; then
	mkdir -p "$dir"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# The debug kernel's source, when it was built, saves the download.
	tree=$OSN_KCACHE/debug/src/linux-source-6.1
	if [ -e "$tree/scripts/checkpatch.pl" ]; then
		mkdir -p "$dir/scripts"
		cp "$tree"/scripts/{checkpatch.pl,spelling.txt,const_structs.checkpatch} "$dir/scripts/"
	elif (cd "$tmp" && apt-get download -q linux-source-6.1 >/dev/null 2>&1); then
		dpkg-deb --fsys-tarfile "$tmp"/linux-source-6.1_*.deb |
			tar -x -O ./usr/src/linux-source-6.1.tar.xz | xz -dc -T0 |
			tar -x -C "$tmp" --wildcards 'linux-source-6.1/scripts/checkpatch.pl' \
				'linux-source-6.1/scripts/spelling.txt' \
				'linux-source-6.1/scripts/const_structs.checkpatch'
		mkdir -p "$dir/scripts"
		cp "$tmp"/linux-source-6.1/scripts/* "$dir/scripts/"
	fi
fi
if [ ! -x "$cp" ]; then
	echo "OSN-TEST-NOTE: checkpatch no checkpatch.pl: apt-get download linux-source-6.1 failed"
	echo "OSN-TEST: FAIL checkpatch"
	echo "0 passed, 1 failed"
	exit 1
fi

allow=$OSN_ROOT/tests/checkpatch.allow
out=$(cd "$OSN_ROOT" && "$cp" --strict --no-tree --terse --show-types \
	-f kernel/*.c kernel/*.h tests/injector/*.c 2>&1)
# "file:line: TYPE:KIND: message" -> compare "file: KIND" with the allow list.
bad=$(echo "$out" | grep -E ': (ERROR|WARNING):' | while IFS= read -r l; do
	key="$(echo "$l" | sed -E 's/^([^:]*):[0-9]+: (ERROR|WARNING):([A-Z_]+):.*/\1: \3/')"
	grep -v '^#' "$allow" | grep -qxF "$key" || echo "$l"
done)
checks=$(echo "$out" | grep -c ': CHECK:' || true)
echo "$out" | grep -E ': (ERROR|WARNING|CHECK):' | sed 's/^/  /'
if [ -n "$bad" ]; then
	echo "OSN-TEST-NOTE: checkpatch errors or warnings not in tests/checkpatch.allow:"
	echo "$bad" | sed 's/^/    /'
	echo "OSN-TEST: FAIL checkpatch"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "OSN-TEST: PASS checkpatch ($checks CHECKs, allowed warnings: $(grep -vc '^#' "$allow"))"
echo "1 passed, 0 failed"
