#!/bin/sh
# timeout: 1800
# Full-length CPU hotplug storm: 300 offline/online cycles of CPU 1 while
# osn measures it (+75 with cpus=0-1, +150 racing enable/disable).
# The quick version is tests/guest/reliability/20-hotplug-storm.sh (make check);
# this runs it with full-length counts: see it for what is checked.
export REL_HOTPLUG_N=300
exec sh "$OSN_TESTS/guest/reliability/20-hotplug-storm.sh"
