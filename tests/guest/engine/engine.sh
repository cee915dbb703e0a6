# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the engine tests (tests/guest/engine/NN-*.sh), sourced after
# ../lib.sh.  Not a test itself (no NN- prefix).

# eng_setup [INSMOD PARAMS...]: load osn (and clean up at exit).
eng_setup() {
	[ -e /tmp/eng_debug ] || { echo 8 >/proc/sys/kernel/printk; echo 1 >/proc/sys/kernel/softlockup_all_cpu_backtrace; touch /tmp/eng_debug; } # DEBUG
	osn_load "$@"
	on_exit osn_knobs_default
}

# eng_instance NAME EVENT...: a new instance with the osn EVENTs enabled
# (names without the osn/ prefix); prints its path.
eng_instance() {
	_ei=$(new_instance "$1")
	shift
	echo 0 >"$_ei/tracing_on"
	echo 4096 >"$_ei/buffer_size_kb"
	for _ev in "$@"; do
		echo 1 >"$_ei/events/osn/$_ev/enable" || fail "enable osn/$_ev"
	done
	echo "$_ei"
}

# eng_wait_threads N: wait (10 s) until exactly N osn/ threads run.
eng_wait_threads() {
	wait_for 10 eng_nthreads_is "$1" ||
		fail "expected $1 osn threads, have: $(osn_threads | tr '\n' ' ')"
}
eng_nthreads_is() {
	[ "$(osn_nthreads)" = "$1" ]
}

# eng_lines INSTANCE EVENT: the EVENT lines of the instance's buffer.
eng_lines() {
	grep -E " $2: " "$1/trace"
}

# eng_duration_ge LINES_FILE MIN_NS: count lines whose "duration N ns" >= MIN.
eng_duration_ge() {
	sed -n 's/.* duration \([0-9]*\) ns.*/\1/p' "$1" |
		awk -v m="$2" '$1 >= m { n++ } END { print n + 0 }'
}

# eng_sum_field FILE NAME: sum of "NAME N" pairs over the sample lines.
eng_sum_field() {
	awk -v f="$2" '{ for (i = 1; i < NF; i++) if ($i == f) s += $(i + 1) }
		END { printf "%.0f\n", s }' "$1"
}

# eng_attrib CTX EVENT ERE TIMEFIELDS [MIN_PCT]: inject 50 x 200 us in CTX
# on CPU 1 while osn measures CPU 1, then check that
#  - >= 95% of the injections appear as EVENT lines matching ERE with a
#    duration >= MIN_PCT% (default 100) of the injected one.  Softirq and
#    thread injections run with interrupts on: an IRQ nested in one is
#    excluded from its (interference-free) duration, hence MIN_PCT < 100;
#  - as many sample_threshold events >= 200 us with interference >= 1;
#  - the samples' TIMEFIELDS (e.g. "irq_time", "thread_time irq_time")
#    add up to >= 95% of the stolen time, and the samples never account
#    more time to causes than they measured as noise (no double counting).
ENG_COUNT=50
ENG_DUR_US=200
ENG_INTERVAL_US=4000
eng_attrib() {
	_ctx=$1 _ev=$2 _ere=$3 _tf=$4 _pct=${5:-100}
	require_cpus 2
	inject_load
	eng_setup cpus=1 period_us=100000 runtime_us=100000 threshold_us=20
	_i=$(eng_instance "osn_attr_$_ctx" sample_threshold sample "$_ev")
	echo 1 >"$_i/tracing_on"
	eng_wait_threads 1
	sleep 0.3
	inject "$_ctx" 1 $ENG_COUNT $ENG_DUR_US $ENG_INTERVAL_US
	_done=$(inject_status done)
	_stolen=$(inject_status stolen_ns)
	_comm=$(inject_status comm)
	info "$(inject_status)"
	# Let the window that saw the last injection end and report.
	sleep 0.4
	echo 0 >"$_i/tracing_on"
	echo 0 >"$_i/events/osn/enable"
	eng_wait_threads 0
	assert_eq "$_done" $ENG_COUNT "injections done"

	# The ERE may refer to the injecting task's comm as @COMM@.
	_ere=$(echo "$_ere" | sed "s|@COMM@|$_comm|g")
	eng_lines "$_i" "$_ev" | grep -E -- "$_ere" >/tmp/eng_ev
	_min=$((ENG_DUR_US * 10 * _pct))
	_n=$(eng_duration_ge /tmp/eng_ev $_min)
	info "$_ev /$_ere/ >= ${_min}ns: $_n of $_done injections"
	[ $((_n * 100)) -ge $((_done * 95)) ] || {
		sed -n 's/.* duration \([0-9]*\) ns.*/\1/p' /tmp/eng_ev | tr '\n' ' '
		fail "only $_n of $_done injections reported as $_ev /$_ere/"
	}

	eng_lines "$_i" sample_threshold >/tmp/eng_st
	_s=$(sed -n 's/.* duration \([0-9]*\) ns interference \([0-9]*\).*/\1 \2/p' /tmp/eng_st |
		awk -v m=$((ENG_DUR_US * 1000)) '$1 >= m && $2 >= 1 { n++ } END { print n + 0 }')
	info "sample_threshold >= ${ENG_DUR_US}us with interference: $_s"
	[ $((_s * 100)) -ge $((_done * 95)) ] ||
		fail "only $_s sample_threshold >= ${ENG_DUR_US}us with interference"

	eng_lines "$_i" sample >/tmp/eng_sa
	_t=0
	for _f in $_tf; do
		_t=$((_t + $(eng_sum_field /tmp/eng_sa "$_f")))
	done
	info "samples: $_tf = $_t ns, stolen $_stolen ns"
	[ $((_t * 100)) -ge $((_stolen * 95)) ] ||
		fail "sample $_tf $_t ns < 95% of stolen $_stolen ns"
	eng_check_no_double_count /tmp/eng_sa
}

# eng_check_no_double_count SAMPLE_LINES: in every period, the time given
# to causes (hw + each class) is at most the noise measured (+5%, +50 us for
# causes shorter than the threshold, which fall in unreported gaps).
eng_check_no_double_count() {
	awk '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1)
	       c = v["hw_time"] + v["nmi_time"] + v["irq_time"] + v["softirq_time"] + v["thread_time"]
	       if (c > v["noise"] * 1.05 + 50000) { print "period explains " c " ns of " v["noise"] " ns noise: " $0; bad++ } }
	     END { exit bad > 0 }' "$1" || fail "causes exceed the measured noise"
}
