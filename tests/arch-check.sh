#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# arch-check.sh - the map and the shape of the code, as host tests of
# `make check`:
#   - map/FILE: every source file of kernel/ and tools/src/ is named in
#     Documentation/architecture.md (as `FILE`), so the map cannot fall
#     behind the code;
#   - size/FILE: tools/src/tool.c (the run skeleton) has at most 600 lines,
#     no other file of tools/src/ more than 900;
#   - func/FILE: no function of kernel/ or tools/src/ has more than 80
#     lines (from its opening "{" at column 0 to its closing "}").
# Ends with "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
map=$root/Documentation/architecture.md
. "$root/tests/result.sh"

# The functions of a C file longer than $2 lines, as "name:lines".
long_functions() {
	awk -v max="$2" '
		/^[A-Za-z_].*\(/ { sig = $0 }
		/^\{/ { start = NR; name = sig; sub(/\(.*/, "", name)
			n = split(name, w, /[ *]+/); name = w[n] }
		/^\}/ && start { len = NR - start + 1
			if (len > max) printf "%s:%d ", name, len
			start = 0 }' "$1"
}

cd "$root" || exit 2
for f in kernel/*.[ch] tools/src/*.[ch]; do
	b=${f##*/}
	if grep -q "\`$b\`" "$map"; then
		result "map/$b" ok
	else
		result "map/$b" "not named in Documentation/architecture.md"
	fi
	case $f in
	tools/src/tool.c) max=600 ;;
	tools/src/*) max=900 ;;
	*) max= ;;
	esac
	if [ -n "$max" ]; then
		n=$(wc -l <"$f")
		if [ "$n" -le "$max" ]; then
			result "size/$b" ok
		else
			result "size/$b" "$n lines, more than $max"
		fi
	fi
	case $f in *.c) ;; *) continue ;; esac
	long=$(long_functions "$f" 80)
	if [ -z "$long" ]; then
		result "func/$b" ok
	else
		result "func/$b" "functions over 80 lines: $long"
	fi
done
result_end
