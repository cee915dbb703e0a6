# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the engine tests (tests/guest/engine/NN-*.sh), sourced after
# ../lib.sh.  Not a test itself (no NN- prefix).

# eng_setup [INSMOD PARAMS...]: load osn (and clean up at exit), and move
# the test itself to CPU 0: its own commands would otherwise be thread noise
# on CPU 1, which the tests measure.
eng_setup() {
	command -v taskset >/dev/null 2>&1 && taskset -p -c 0 $$ >/dev/null 2>&1
	osn_load "$@"
	on_exit osn_knobs_default
}

# eng_instance NAME EVENT...: a new instance with the osn EVENTs enabled
# (names without the osn/ prefix), removed at exit; its path is left in
# ENG_I.  Call it directly, not as $(...): an on_exit registered in a
# command substitution's subshell would be lost with it.
eng_instance() {
	ENG_I=$TFS/instances/$1
	[ -d "$ENG_I" ] && rm_instance "$1"
	mkdir "$ENG_I" || fail "cannot create tracefs instance $1"
	on_exit rm_instance "$1"
	shift
	echo 0 >"$ENG_I/tracing_on"
	echo 4096 >"$ENG_I/buffer_size_kb"
	for _e in "$@"; do
		echo 1 >"$ENG_I/events/osn/$_e/enable" || fail "enable osn/$_e"
	done
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

# eng_attrib CTX EVENT ERE TIMEFIELDS PCT GT_EVENT GT_ERE: inject 50 x
# 200 us in CTX on CPU 1 while osn measures CPU 1, with the kernel's own
# GT_EVENT (e.g. timer/hrtimer_expire_entry) recorded as ground truth: each
# GT_EVENT line on CPU 1 matching GT_ERE marks one injection (GT_EVENT "-":
# no ground truth, the EVENTs >= the duration are counted).  Checks that
#  - >= 95% of the injections have a ground-truth line inside an EVENT
#    line matching ERE (the
#    interval start .. start + duration) whose duration is >= PCT% of the
#    injected one.  Softirq and thread injections run with interrupts on:
#    an IRQ nested in one is excluded from its (interference-free)
#    duration, hence PCT < 100 for them;
#  - as many sample_threshold events >= 200 us with interference >= 1;
#  - the samples' TIMEFIELDS (e.g. "irq_time", "thread_time irq_time")
#    add up to >= 95% of the stolen time, and no period accounts more time
#    to causes than it measured as noise (no double counting).
ENG_COUNT=50
ENG_DUR_US=200
ENG_INTERVAL_US=4000
eng_attrib() {
	_ctx=$1 _ev=$2 _ere=$3 _tf=$4 _pct=$5 _gt=$6 _gtere=$7
	require_cpus 2
	inject_load
	eng_setup cpus=1 period_us=100000 runtime_us=100000 threshold_us=20
	# irq_noise too: IRQs nested in a softirq or thread are subtracted
	# from its duration, and eng_match adds them back.
	_evs="sample_threshold sample $_ev"
	[ "$_ev" = irq_noise ] || _evs="$_evs irq_noise"
	eng_instance "osn_attr_$_ctx" $_evs
	_i=$ENG_I
	if [ "$_gt" != - ]; then
		for _g in $_gt; do
			[ -d "$_i/events/$_g" ] || fail "no $_g event for the ground truth"
			echo 1 >"$_i/events/$_g/enable" || fail "enable $_g"
		done
	fi
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
	if [ "$_gt" != - ]; then
		for _g in $_gt; do echo 0 >"$_i/events/$_g/enable"; done
	fi
	eng_wait_threads 0
	assert_eq "$_done" $ENG_COUNT "injections done"

	# The EREs may refer to the injecting task's comm as @COMM@.
	_ere=$(echo "$_ere" | sed "s|@COMM@|$_comm|g")
	_gtere=$(echo "$_gtere" | sed "s|@COMM@|$_comm|g")
	grep '\[001\]' "$_i/trace" >/tmp/eng_cpu1
	_min=$((ENG_DUR_US * 10 * _pct))
	if [ "$_gt" = - ]; then
		# No ground truth: count the long events, at most one each.
		grep -E -- "$_ere" /tmp/eng_cpu1 >/tmp/eng_ev
		_n=$(eng_duration_ge /tmp/eng_ev $_min)
		[ "$_n" -le $((_done + _done / 5)) ] ||
			fail "$_n $_ev /$_ere/ >= ${_min}ns for $_done injections"
		set -- "$_n" "$_done" "$(grep -c . /tmp/eng_ev)"
	else
		set -- $(eng_match /tmp/eng_cpu1 "$_ere" "$_gtere" $_min)
	fi
	info "ground truth: $2 $_gt lines ($_done injections); $1 inside a $_ev /$_ere/ >= ${_min}ns (any duration: $3)"
	# A thread's first wake-up (or a kernel IPI) can add a ground-truth line.
	info "attribution rate: $(($1 < _done ? $1 : _done))/$_done"
	assert_ge "$2" $((_done * 95 / 100)) "injections seen by the ground truth"
	# The ground truth may see more than the injections (other IPIs,
	# thread restarts): rate against the injections, which are long.
	[ $(($1 * 100)) -ge $((_done * 95)) ] || {
		eng_unmatched /tmp/eng_cpu1 "$_ere" "$_gtere" $_min
		fail "only $1 of $_done injections reported as $_ev /$_ere/ >= ${_min}ns"
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
	# The injection's own class alone has PCT% of it (a source accounted
	# to another class fails here).  No upper bound on the sum: under TCG
	# the guest's own IRQs and threads add 70-600 ms a second (RT kernels),
	# far more than the injection.
	set -- $_tf
	_own=$(eng_sum_field /tmp/eng_sa "$1")
	info "samples: $1 alone = $_own ns"
	[ $((_own * 100)) -ge $((_stolen * _pct)) ] ||
		fail "sample $1 $_own ns < $_pct% of stolen $_stolen ns"
	eng_check_no_double_count /tmp/eng_sa
}

# eng_unmatched FILE EVENT_ERE GT_ERE MIN_NS: show (3 at most) ground-truth
# lines no EVENT explains, with the trace lines around them.
eng_unmatched() {
	awk -v evre="$2" -v gtre="$3" -v min="$4" "$ENG_MATCH_AWK"'
	END {
		prep()
		for (i = 1; i <= g && shown < 3; i++) {
			hit = 0
			for (j = 1; j <= n; j++)
				if (G[i] >= S[j] - 1e-4 && G[i] <= E[j] + 1e-4 && D[j] + N[j] >= min) hit = 1
			if (hit) continue
			shown++
			print "--- unexplained: " L[GL[i]]
			for (k = GL[i] - 4; k <= GL[i] + 4; k++) if (k > 0 && k <= NR) print "    " L[k]
		}
	}' "$1"
}

# eng_match FILE EVENT_ERE GT_ERE MIN_NS: prints "M G A": of the G ground-
# truth lines (GT_ERE), M fall inside an EVENT_ERE line's [start, start +
# duration] with duration >= MIN_NS, A inside one of any duration (100 us
# of slack: the ground truth's probe may run first, and recording its event
# takes tens of us under TCG).  An event's duration is interference-free:
# the irq_noise lines (not matching EVENT_ERE) that started inside it are
# nested noise osn subtracted, so they count towards MIN_NS (on 7.x the
# tick interrupt lands inside most soft-hrtimer injections).
# ENG_AWK_FUNCS: awk helpers for trace lines: ts() is the line's timestamp
# (s), sd() sets s and d to its "start" (s) and "duration" (ns) fields.
ENG_AWK_FUNCS='
	function ts(k) {
		for (k = 1; k <= NF; k++)
			if ($k ~ /^[0-9]+\.[0-9]+:$/) return substr($k, 1, length($k) - 1) + 0
		return -1
	}
	function sd(k) {
		s = -1; d = -1
		for (k = 1; k < NF; k++) {
			if ($k == "start") s = $(k + 1) + 0
			if ($k == "duration") d = $(k + 1) + 0
		}
	}
'
ENG_MATCH_AWK=$ENG_AWK_FUNCS'
	{ L[NR] = $0 }
	$0 ~ evre {
		sd()
		if (s >= 0 && d >= 0) { n++; S[n] = s; D[n] = d; EL[n] = NR }
		next
	}
	/ irq_noise: / { sd(); if (s >= 0 && d >= 0) { ni++; IS[ni] = s; ID[ni] = d } }
	$0 ~ gtre { g++; G[g] = ts(); GL[g] = NR }
	# nested(j): ns of the IRQs that started inside event j (its end moves
	# out by each one found).
	function nested(j,   e, k, t, more) {
		e = S[j] + D[j] / 1e9; t = 0
		do {
			more = 0
			for (k = 1; k <= ni; k++)
				if (!U[j, k] && IS[k] >= S[j] && IS[k] <= e) {
					U[j, k] = 1; t += ID[k]; e += ID[k] / 1e9; more = 1
				}
		} while (more)
		return t
	}
	function prep(j) {
		for (j = 1; j <= n; j++) { N[j] = nested(j); E[j] = S[j] + (D[j] + N[j]) / 1e9 }
	}
'
eng_match() {
	awk -v evre="$2" -v gtre="$3" -v min="$4" "$ENG_MATCH_AWK"'
	END {
		prep()
		for (i = 1; i <= g; i++) {
			hit = 0; any = 0
			for (j = 1; j <= n; j++)
				if (G[i] >= S[j] - 1e-4 && G[i] <= E[j] + 1e-4) {
					any = 1
					if (D[j] + N[j] >= min) { hit = 1; break }
				}
			m += hit; a += any
		}
		print m + 0, g + 0, a + 0
	}' "$1"
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

# ENG_CAUSE_FIELDS: the start of an awk program over trace lines that sets,
# for each line, st (its start), and for a noise_cause line kd (kind), f
# (function), oc (origin_cpu) and o (origin comm:pid).
ENG_CAUSE_FIELDS='
	{
		st = ""; kd = ""; f = ""; oc = ""; o = ""
		for (k = 1; k < NF; k++) {
			if ($k == "start") st = $(k + 1)
			if ($k == "noise_cause:") kd = $(k + 1)
			if ($k == "function") f = $(k + 1)
			if ($k == "origin_cpu") oc = $(k + 1)
			if ($k == "origin") o = $(k + 1)
		}
	}
'

# eng_hotplug_rounds PREFIX ERE: with ENG_I recording, CPU 1 goes offline
# and online 3 times: each time only PREFIX0 (osn/0, timerlat/0) is left,
# then both threads run again and a line matching ERE comes from CPU 1.
eng_hotplug_rounds() {
	on_exit 'echo 1 >/sys/devices/system/cpu/cpu1/online'
	for _round in 1 2 3; do
		echo 0 >/sys/devices/system/cpu/cpu1/online || fail "offline cpu1"
		eng_wait_prefix "$1" 1
		assert_eq "$(eng_prefix_threads "$1")" "${1}0" "threads with cpu1 offline"
		: >"$ENG_I/trace"
		echo 1 >/sys/devices/system/cpu/cpu1/online || fail "online cpu1"
		eng_wait_prefix "$1" 2
		wait_for 10 sh -c "grep -Eq '\[001\] .*$2' $ENG_I/trace" ||
			fail "round $_round: no /$2/ from CPU 1 after online"
	done
}

# eng_prefix_threads PREFIX: comms of the running threads named PREFIX*.
eng_prefix_threads() {
	cat /proc/[0-9]*/comm 2>/dev/null | grep "^$1" | sort
}

# eng_wait_prefix PREFIX N: wait (10 s) until exactly N PREFIX* threads run.
eng_wait_prefix() {
	wait_for 10 eng_prefix_count_is "$1" "$2" ||
		fail "expected $2 $1 threads, have: $(eng_prefix_threads "$1" | tr '\n' ' ')"
}
eng_prefix_count_is() {
	[ "$(eng_prefix_threads "$1" | grep -c .)" = "$2" ]
}
