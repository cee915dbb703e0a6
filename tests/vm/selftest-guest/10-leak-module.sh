#!/bin/sh
# Bench self-test (expected: FAIL, "left the guest dirty: module osn_inject").
. "$OSN_TESTS/guest/lib.sh"
require_ko osn_inject
insmod "$OSN_KO/osn_inject.ko"
exit 0
