#!/bin/sh
# timeout: 1800
# Full-length knob churn: 50 sequential rounds of cpus/period/runtime/
# threshold changes, then 3 concurrent writers for 50 rounds.
# The quick version is tests/guest/reliability/21-knob-churn.sh (make check);
# this runs it with full-length counts: see it for what is checked.
export REL_CHURN_N=50
exec sh "$OSN_TESTS/guest/reliability/21-knob-churn.sh"
