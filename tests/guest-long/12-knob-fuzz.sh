#!/bin/sh
# timeout: 2400
# Full-length knob fuzz: 1000 writes per knob (7000 in all).
# The quick version is tests/guest/reliability/12-knob-fuzz.sh (make check);
# this runs it with full-length counts: see it for what is checked.
export REL_FUZZ_N=1000
exec sh "$OSN_TESTS/guest/reliability/12-knob-fuzz.sh"
