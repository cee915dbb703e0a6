#!/bin/sh
# timeout: 900
# Trace buffer full for 90 seconds: a 4 KiB buffer at the 1 us threshold
# under injected IRQ noise, with a racing reader and 90 resizes.
# The quick version is tests/guest/reliability/24-buffer-full.sh (make check);
# this runs it with full-length counts: see it for what is checked.
export REL_BUF_S=30
exec sh "$OSN_TESTS/guest/reliability/24-buffer-full.sh"
