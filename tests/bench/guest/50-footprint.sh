#!/bin/sh
# timeout: 300
# Footprint: osn.ko's size in /proc/modules and what loading it costs
# (MemFree, Slab); then the memory taken while measuring CPU 1
#   tracer  osn (events in an instance) or upstream (osnoise tracer in an
#           instance), default buffer size, period = runtime = 1 s,
# as MemFree drop and Slab growth against just before the start (caches
# dropped first; MemAvailable, an estimate that counts reclaimable slab as
# partly available, was seen to rise while a tracer started).
# The tools' memory is measured by 40-toolcost.sh while they run.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/bench/guest/bench.sh"
require_cpus 2
bench_unleak

settle() {
	mem_settle
}
snap() {	# -> "avail slab" in kB
	echo "$(meminfo MemFree) $(meminfo Slab)"
}

if osn_have; then
	mod_loaded osn && fail "osn already loaded"
	settle
	# shellcheck disable=SC2046 # split on purpose
	set -- $(snap)
	insmod "$OSN_KO/osn.ko" || fail "insmod osn.ko"
	on_exit osn_unload
	on_exit osn_knobs_default
	settle
	a0=$1 s0=$2
	# shellcheck disable=SC2046 # split on purpose
	set -- $(snap)
	size=$(awk '$1 == "osn" { print $2 }' /proc/modules)
	bench_result footprint osn 1 "module_bytes=$size load_used_kb=$((a0 - $1)) load_slab_kb=$(($2 - s0))"
fi
up_have && up_save

# instances get the kernel's default buffer size
BENCH_BUF_KB=

tracer_mem() {	# TRACER REP
	settle
	# shellcheck disable=SC2046 # split on purpose
	set -- "$1" "$2" $(snap)
	tr_start "$1" bench_fp 1000000 1000000 5 sample
	sleep 2
	_a=$(meminfo MemFree) _s=$(meminfo Slab)
	tr_stop "$1" bench_fp
	tr_teardown "$1" bench_fp
	bench_result mem_tracer "$1" "$2" "used_kb=$(($3 - _a)) slab_kb=$((_s - $4))"
}

tracers=$(bench_tracers)
n=3
[ "$BENCH_QUICK" = 1 ] && n=1
info "tracers: $tracers"
for rep in $(bench_seq $n); do
	for t in $(bench_order $((rep - 1)) $tracers); do
		tracer_mem "$t" "$rep"
	done
done
exit 0
