#!/bin/sh
# timeout: 150
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
cli_setup
"$OSN" top -c 1 -p 100000 -r 50000 -P f:10 -H 0 --trace-buffer-size 2048 -t /tmp/tr.txt -e sched:sched_switch --warm-up 1 -d 4 -q > /tmp/o1.txt 2>&1
echo "rc1=$?"; tail -3 /tmp/o1.txt
cli_knobs; osn_threads
"$OSN" top -c 0 -p 100000 -r 50000 -d 3 -q -D > /tmp/o2.txt 2>&1 &
p=$!
for i in 1 2 3 4 5 6 7 8; do sleep 0.5; echo "t$i: $(osn_threads | tr '\n' ' ') $(cat $OSN_PARAMS/cpus)"; done
wait $p; echo "rc2=$?"; cat /tmp/o2.txt
cli_knobs
"$OSN" top -c 0 -p 100000 -r 50000 -d 3 -q -D > /tmp/o3.txt 2>&1
echo "rc3=$?"; cat /tmp/o3.txt
dmesg | tail -5
exit 0
