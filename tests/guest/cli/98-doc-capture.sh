#!/bin/sh
# timeout: 200
# TEMPORARY: capture real output for Documentation/usage.md.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
inject_load
cli_setup
taskset -p 1 $$ >/dev/null
echo "DOC-BEGIN top"
inject_start irq 1 400 200 10000
"$OSN" top -c 1 -d 5 -q -p 100000 -r 100000 -T 20
echo "rc=$?"
inject_wait
echo "DOC-BEGIN top-wide"
"$OSN" top -d 3 -q --wide -p 100000 -r 50000
echo "DOC-BEGIN top-json"
"$OSN" top -c 1 -d 2 -p 100000 -r 100000 -T 20 --json
echo "DOC-BEGIN hist"
inject_start irq 1 400 200 10000
"$OSN" hist -c 1 -d 5 -p 100000 -r 100000 -T 20 -b 50 -E 12
inject_wait
echo "DOC-BEGIN hist-json"
"$OSN" hist -c 1 -d 2 -b 100 -E 5 -p 100000 -r 100000 -T 20 --json
echo "DOC-BEGIN stop"
inject_start irq 1 60 100000 250000
"$OSN" top -c 1 -p 200000 -r 200000 -T 20 -s 90000 -d 30 -q -t /tmp/t.txt
echo "rc=$?"
echo stop >"$INJ/inject"
inject_wait
grep -m 3 'irq_noise' /tmp/t.txt
grep -m 3 'sample_threshold' /tmp/t.txt
grep -m 1 'stop:' /tmp/t.txt
echo "DOC-BEGIN errors"
"$OSN" top -c 0-64
"$OSN" hist -d 5x
"$OSN" top -b 3
echo "DOC-END"
exit 0
