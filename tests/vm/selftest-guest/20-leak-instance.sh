#!/bin/sh
# Bench self-test (expected: FAIL, "left the guest dirty: instance leaky").
# Without lib.sh, whose exit handler would remove the instance.
mkdir /sys/kernel/tracing/instances/leaky
exit 0
