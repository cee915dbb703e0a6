#!/bin/sh
# timeout: 1800
# Full-length event toggle storm: 100 rounds of 8 enable/disable writes from
# each of 3 instances at once, plus the top level and instances removed
# while enabled.
# The quick version is tests/guest/reliability/22-event-toggle-storm.sh (make check);
# this runs it with full-length counts: see it for what is checked.
export REL_TOGGLE_N=100
exec sh "$OSN_TESTS/guest/reliability/22-event-toggle-storm.sh"
