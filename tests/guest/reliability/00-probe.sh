#!/bin/sh
# timeout: 300
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"
t() { _s=$(now_us); "$@"; _e=$(now_us); echo "$(( (_e-_s)/1000 )) ms: $*"; }
loop() { n=$1; shift; i=0; while [ $i -lt $n ]; do "$@"; i=$((i+1)); done; }
rel_setup
taskset -p $$
t loop 20 /bin/true
rel_knobs_measure
rel_instance probe 1024 sample
sleep 1
t loop 20 /bin/true
echo 1 > $REL_INST/events/osn/sample_threshold/enable
sleep 1
t loop 20 /bin/true
echo 50 > $OSN_PARAMS/threshold_us
sleep 1
t loop 20 /bin/true
echo 1 > $REL_INST/events/osn/sample_threshold/enable
echo 0 > $OSN_PARAMS/threshold_us
echo 1000000 > $OSN_PARAMS/period_us
echo 1000000 > $OSN_PARAMS/runtime_us
sleep 1
t loop 20 /bin/true
echo 0 > $REL_INST/events/osn/enable
sleep 1
t loop 20 /bin/true
cat $REL_INST/per_cpu/cpu1/stats
