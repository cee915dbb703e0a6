#!/bin/sh
# timeout: 900
# Memory pressure for 2 x 50 s of injections (1000 x 200 us in hard IRQ,
# then 1000 in softirq context): >= 95% still explained.
# The quick version is tests/guest/reliability/25-memory-pressure.sh (make check);
# this runs it with full-length counts: see it for what is checked.
export REL_MEM_INJ=1000
exec sh "$OSN_TESTS/guest/reliability/25-memory-pressure.sh"
