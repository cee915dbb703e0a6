#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run.sh BINARY... - run the unit test binaries (built by make -C tools
# check, plain and ASan+UBSan), add up their "N passed, N failed" lines and
# end with the total on a line of its own.  Exit 1 if anything failed or a
# binary crashed.
pass=0
fail=0
bad=0
for b in "$@"; do
	variant=$(basename "$(dirname "$b")")
	out=$(ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$b" 2>&1)
	rc=$?
	line=$(printf '%s\n' "$out" | grep -E '^[^ ]+: [0-9]+ passed, [0-9]+ failed$' | tail -n 1)
	if [ -z "$line" ]; then
		printf '%s\n' "$out"
		echo "$(basename "$b") ($variant): CRASHED (exit $rc)"
		bad=$((bad + 1))
		fail=$((fail + 1))
		continue
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
	if [ "$f" != 0 ] || [ "$rc" != 0 ]; then
		printf '%s\n' "$out"
		[ "$f" = 0 ] && f=1 && echo "$(basename "$b") ($variant): exit $rc (sanitizer?)"
	fi
	echo "  $(basename "$b") ($variant): $p passed, $f failed"
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$bad" = 0 ]
