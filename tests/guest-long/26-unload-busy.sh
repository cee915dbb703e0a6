#!/bin/sh
# timeout: 1200
# rmmod while osn measures, 10 rounds of the 4 situations (40 attempts).
# The quick version is tests/guest/reliability/26-unload-busy.sh (make check);
# this runs it with full-length counts: see it for what is checked.
export REL_UNLOAD_N=10
exec sh "$OSN_TESTS/guest/reliability/26-unload-busy.sh"
