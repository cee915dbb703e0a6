#!/bin/sh
# timeout: 1200
# The CLI SIGKILLed mid-run 10 times (top/hist, collecting/starting), each
# followed by a clean rerun.
# The quick version is tests/guest/reliability/23-cli-sigkill.sh (make check);
# this runs it with full-length counts: see it for what is checked.
export REL_CLI_N=10
exec sh "$OSN_TESTS/guest/reliability/23-cli-sigkill.sh"
