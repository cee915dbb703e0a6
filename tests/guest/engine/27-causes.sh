#!/bin/sh
# timeout: 150
# osn:noise_cause names what ran in each injected noise on CPU 1 and who
# sent it from CPU 0: for each cross-CPU mode of the injector, >= 95% of
# the injections have a noise_cause of the right kind with the injector's
# function and the sender kthread (comm, pid, CPU) as origin, linked (CPU
# 1, same start) to a noise event; no cause names the injector's function
# with another origin (an unknown origin is not a wrong one).
#   work    kind work,    function inj_work_fn,       origin osn_inj_src/1
#   timer   kind timer,   function inj_timer_list_fn, origin osn_inj_src/1
#   wakeup  kind wakeup,  (the thread osn_inj_wake/1), origin osn_inj_src/1
#   ipi     kind ipi,     function inj_busy_ipi,      origin osn_inject_ipi/1
#           where the kernel has the csd tracepoints (6.3+); without them
#           (5.10, 6.1) no ipi cause may appear at all: never a guess.
#   resched kind resched, function inj_send_one (the call site of the
#           reschedule IPI), origin osn_inj_src/1, where the kernel has
#           ipi:ipi_send_cpu (6.4+); without it no resched cause at all.
# Also: with noise_cause on as the run starts, its probes are hooked
# before the workload thread is up; with noise_cause disabled, a run
# writes no cause.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"

require_cpus 2
inject_load
eng_setup cpus=1 period_us=100000 runtime_us=100000 threshold_us=20
# noise_cause first: the run starts with it on, and hooks its probes
# before the threads start (osn_start()), so they are live as soon as the
# run is (the module's report "running", set once the threads are up),
# with no wait.  Read at once, without a fork: were they hooked after the
# threads, in the same work item, the hooking (hundreds of ms under TCG)
# would be seen.
eng_report_is_y running && fail "a run is on before the test's"
eng_instance osn_causes noise_cause irq_noise softirq_noise thread_noise
I=$ENG_I
_n=0
while read -r _r <"$OSN_PARAMS/running" && [ "$_r" != Y ]; do
	_n=$((_n + 1))
	[ $_n -lt 1000000 ] || fail "the run did not start"
done
read -r _c <"$OSN_PARAMS/causes_live"
assert_eq "$_c" Y "cause probes hooked once the run is on"
echo 1 >"$I/tracing_on"
eng_wait_threads 1
sleep 0.3

COUNT=40
DUR=300
IV=20000
modes="work timer wakeup ipi resched"
# arm64 does not export smp_send_reschedule(): the injector refuses
# resched there (EOPNOTSUPP, kernel/osn_arch.h); the check that it does.
if [ "$(uname -m)" = aarch64 ]; then
	modes="work timer wakeup ipi"
	expect_fail sh -c "echo 'ctx=resched cpu=1 count=1 duration_us=100' >$INJ/inject"
fi
[ -d "$(tfs events/csd/csd_function_entry)" ] && have_csd=1 || have_csd=0
[ -d "$(tfs events/ipi/ipi_send_cpu)" ] && have_ipi_send=1 || have_ipi_send=0

for m in $modes; do
	inject "$m" 1 $COUNT $DUR $IV
	assert_eq "$(inject_status done)" $COUNT "$m injections done"
	eval "src_$m=\"$(inject_status src_comm):$(inject_status src_pid) $(inject_status src_cpu)\""
	info "$m: $(inject_status)"
	# Keep each mode's lines apart: the trace is read once at the end.
	echo "osn_causes_mark $m" >"$I/trace_marker"
done
sleep 0.3
echo 0 >"$I/tracing_on"
echo 0 >"$I/events/osn/enable"
eng_wait_threads 0

grep '\[001\]\|osn_causes_mark' "$I/trace" >/tmp/causes_all

# causes FILE KIND FUNCTION ORIGIN ORIGIN_CPU [THREAD]: prints "OK WRONG
# LINKED": the causes of KIND with FUNCTION ("-": any) in FILE whose
# origin is ORIGIN (comm:pid) on ORIGIN_CPU (OK) or another known one
# (WRONG, shown on stderr), and how many of the OK ones start where a
# noise event of CPU 1 starts (LINKED).  With THREAD, only the causes of
# the thread_noise of that comm count (a wake-up names no function), and
# the first wake-up of that thread, by this shell writing the injector's
# file, is right but not counted.
causes() {
	awk -v kind="$2" -v fn="$3" -v orig="$4" -v ocpu="$5" -v thr="${6:-}" \
	    -v starter=":$$" "$ENG_CAUSE_FIELDS"'
	/ (irq|softirq)_noise: / { N[st] = "-"; next }
	/ thread_noise: / {
		for (k = 1; k < NF; k++) if ($k == "thread_noise:") c = $(k + 1)
		sub(/:[0-9]+$/, "", c)
		N[st] = c
		next
	}
	/ noise_cause: / {
		if (kd != kind || (fn != "-" && f != fn)) next
		n++; CS[n] = st; CO[n] = (o == orig && oc == ocpu); CK[n] = (o != "unknown:-1"); CL[n] = $0
	}
	END {
		for (i = 1; i <= n; i++) {
			if (thr != "" && N[CS[i]] != thr) continue
			if (CO[i]) { ok++; if (CS[i] in N) linked++; continue }
			# the wake-up that started the thread: the writer of
			# the injector file, this shell (right, not counted)
			if (substr(CL[i], length(CL[i]) - length(starter) + 1) == starter) continue
			else if (CK[i]) { wrong++; print "wrong: " CL[i] > "/dev/stderr" }
		}
		printf "%d %d %d\n", ok, wrong, linked
	}' "$1"
}

# Each mode's lines are those before its marker (and after the previous).
awk '/osn_causes_mark/ { n++; next } { print > ("/tmp/causes_sect" (n + 0)) }' /tmp/causes_all
i=0
for m in $modes; do
	f=/tmp/causes_sect$i
	i=$((i + 1))
	[ -f "$f" ] || : >"$f"
	case $m in
	work)	kf="work inj_work_fn" ;;
	timer)	kf="timer inj_timer_list_fn" ;;
	wakeup)	kf="wakeup -" ;;	# + the thread, below
	ipi)	kf="ipi inj_busy_ipi" ;;
	resched) kf="resched inj_send_one" ;;
	esac
	if [ "$m" = ipi ] && [ $have_csd = 0 ]; then
		n=$(grep -c ' noise_cause: ipi ' "$f")
		info "ipi: no csd tracepoints: $n ipi causes"
		assert_eq "$n" 0 "ipi causes on a kernel without csd tracepoints"
		continue
	fi
	if [ "$m" = resched ] && [ $have_ipi_send = 0 ]; then
		n=$(grep -c ' noise_cause: resched ' "$f")
		info "resched: no ipi_send_cpu tracepoint: $n resched causes"
		assert_eq "$n" 0 "resched causes on a kernel without ipi_send_cpu"
		continue
	fi
	thr=
	[ "$m" = wakeup ] && thr=osn_inj_wake/1
	set -- $(causes "$f" $kf $(eval echo "\$src_$m") $thr)
	info "$m: $1 of $COUNT injections with the sender as origin, $2 wrong, $3 linked to a noise event"
	# short of the mark: what the section holds instead
	if [ "$1" -lt $((COUNT * 95 / 100)) ]; then
		info "$m: its section: $(grep -c ' irq_noise: ' "$f") irq_noise, $(grep -c ' thread_noise: ' "$f") thread_noise; causes of kind $m by function and origin:"
		grep " noise_cause: $m " "$f" | sed 's/.* function //' | sort | uniq -c | sort -rn | head -n 12
		[ "$m" = resched ] && info "reschedule IRQ noises: $(grep -c 'irq_noise: reschedule' "$f")"
	fi
	assert_eq "$2" 0 "$m causes with a wrong origin"
	assert_ge "$1" $((COUNT * 95 / 100)) "$m causes with the sender as origin"
	assert_ge "$3" $((COUNT * 95 / 100)) "$m causes linked to a noise event"
done

# Disabled: the event stays empty, and osn runs without the cause probes.
eng_instance osn_nocause thread_noise
echo 1 >"$ENG_I/tracing_on"
eng_wait_threads 1
inject work 1 10 $DUR $IV
echo 0 >"$ENG_I/events/osn/enable"
eng_wait_threads 0
n=$(grep -c ' noise_cause: ' "$ENG_I/trace")
assert_eq "$n" 0 "noise_cause lines while it is disabled"
exit 0
