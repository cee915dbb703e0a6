#!/bin/sh
# timeout: 900
# Memory pressure for 150 s of injections (3000 x 200 us hard-IRQ stalls):
# >= 95% still explained.
# The quick version is tests/guest/reliability/25-memory-pressure.sh (make check);
# this runs it with full-length counts: see it for what is checked.
export REL_MEM_INJ=3000
exec sh "$OSN_TESTS/guest/reliability/25-memory-pressure.sh"
