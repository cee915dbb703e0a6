#!/bin/sh
# timeout: 120
# matrix: shard
# osn timerlat's rtla options besides the stops: --help lists no
# osnoise-only option and osnoise-only options are one error line, exit
# 1, nothing changed; --dma-latency holds /dev/cpu_dma_latency at its
# value during the run and releases it after; --deepest-idle-state
# disables the deeper cpuidle states during the run and puts them back
# (also after a SIGKILL, through osn cleanup), on the injector's cpuidle
# driver (fake_idle=1) where the guest has none, and without cpuidle is
# one clear error with nothing changed; --aa-only prints the analysis
# only; --no-aa no analysis; --dump-tasks the measured CPU's task; -s
# the timer interrupt's stack, named, in the analysis and the JSON.
# --warm-up, --trace-buffer-size, -e/--filter and -P (on the kernel's
# timerlat/N threads) work for timerlat too.
# The stops use 5 us: every activation under TCG is later than that, and
# what is asserted is the output, not the cause.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
cli_setup
knobs() { cli_knobs; for k in mode timerlat_period_us print_stack; do
	echo "$k=$(cat "$OSN_PARAMS/$k")"; done; }
before=$(knobs)
DMA=/dev/cpu_dma_latency
IDLE=/sys/devices/system/cpu/cpu1/cpuidle

# rejected OPTS...: exit 1, one line naming the option, nothing changed
rejected() {
	"$OSN" timerlat "$@" -d 1 >"$CLI_OUT/rej.out" 2>"$CLI_OUT/rej.err"
	assert_eq "$?" 1 "exit status of osn timerlat $*"
	cli_one_line "$CLI_OUT/rej.err" || fail "$*: $(cat "$CLI_OUT/rej.err")"
	[ -s "$CLI_OUT/rej.out" ] && fail "$* printed on stdout"
	info "$*: $(cat "$CLI_OUT/rej.err")"
}
for o in "-r 100" "-S 5" "--runtime 100" "--stop 5" "--stop-total 5" \
	"--threshold 5" "--report $CLI_OUT/r.html" "--audit" "--wide" \
	"--causes" "--workload"; do
	# shellcheck disable=SC2086
	rejected $o
	case $o in --*) grep -q -- "${o%% *}" "$CLI_OUT/rej.err" ||
		fail "$o: the error does not name it" ;; esac
done
rejected hist --aa-only 5
rejected --aa-only 5 --no-aa
rejected --dma-latency 10001
assert_eq "$(knobs)" "$before" "knobs after the refused options"
assert_eq "$(cli_instances)" "" "instances after the refused options"

"$OSN" timerlat --help >"$CLI_OUT/help.txt" 2>&1
assert_eq "$?" 0 "exit status of --help"
for o in --runtime --threshold --stop --stop-total --report --audit --wide; do
	grep -q -- "$o\b" "$CLI_OUT/help.txt" && fail "--help lists $o"
done
for o in --aa-only --no-aa --dump-tasks --dma-latency --deepest-idle-state \
	--stack --irq --thread; do
	grep -q -- "$o" "$CLI_OUT/help.txt" || fail "--help misses $o"
done

# --dma-latency: the value held during the run, released after
dma_value() { od -An -td4 "$DMA" | tr -d ' '; }
dma_held() { ls -l /proc/"$CLI_PID"/fd 2>/dev/null | grep -q cpu_dma_latency; }
if [ -c "$DMA" ]; then
	dma0=$(dma_value)
	cli_start "$CLI_OUT/dma.txt" timerlat -c 1 -p 10000 -d 3 -q -D \
		--dma-latency 25 -P f:1
	cli_wait_counting
	# -P with the kernel's threads: timerlat/1 at SCHED_FIFO 1
	tl=$(grep -l '^timerlat/1$' /proc/[0-9]*/comm | cut -d/ -f3 | head -n 1)
	chrt -p "$tl" >"$CLI_OUT/chrt.txt" 2>&1
	info "-P f:1: $(tr '\n' ' ' <"$CLI_OUT/chrt.txt")"
	grep -q 'policy: SCHED_FIFO' "$CLI_OUT/chrt.txt" &&
		grep -q 'priority: 1$' "$CLI_OUT/chrt.txt" ||
		fail "-P f:1: timerlat/1 is not at SCHED_FIFO 1"
	dma_held || fail "--dma-latency: osn does not hold $DMA"
	info "$DMA: $dma0 before, $(dma_value) during the run"
	assert_eq "$(dma_value)" 25 "$DMA during the run"
	cli_wait_end
	assert_eq "$RC" 0 "exit status with --dma-latency"
	assert_eq "$(dma_value)" "$dma0" "$DMA after the run"
	info "$DMA: $(dma_value) after the run"
else
	"$OSN" timerlat -c 1 -d 1 --dma-latency 25 >"$CLI_OUT/dma.txt" 2>&1
	assert_eq "$?" 1 "exit status of --dma-latency without $DMA"
	grep -q "cpu_dma_latency" "$CLI_OUT/dma.txt" ||
		fail "no clear error: $(cat "$CLI_OUT/dma.txt")"
fi

# --deepest-idle-state without cpuidle (QEMU describes no C-states):
# one clear error, nothing changed
fake_idle=0
idle_disabled() { cat "$IDLE"/state*/disable 2>/dev/null | tr '\n' ' '; }
if [ ! -d "$IDLE/state0" ]; then
	info "no cpuidle on CPU 1: --deepest-idle-state must refuse"
	"$OSN" timerlat -c 1 -d 1 --deepest-idle-state 0 \
		>"$CLI_OUT/idle.out" 2>"$CLI_OUT/idle.err"
	assert_eq "$?" 1 "exit status of --deepest-idle-state without cpuidle"
	cat "$CLI_OUT/idle.err"
	grep -q "no cpuidle states" "$CLI_OUT/idle.err" ||
		fail "no clear error: $(cat "$CLI_OUT/idle.err")"
	[ -e "$IDLE" ] && fail "$IDLE appeared"
	# real states: the injector's cpuidle driver of three polling
	# states (fake_idle=1; x86 only), unloaded after these runs (idle
	# CPUs spin in it)
	if [ -e "$OSN_KO/osn_inject.ko" ] && ! mod_loaded osn_inject &&
	   insmod "$OSN_KO/osn_inject.ko" fake_idle=1 2>"$CLI_OUT/insmod.err"; then
		fake_idle=1
		on_exit inject_unload
	else
		info "no fake cpuidle driver here: $(cat "$CLI_OUT/insmod.err" 2>/dev/null)"
	fi
fi
# --deepest-idle-state 0: states 1.. of CPU 1 off during the run only
if [ -d "$IDLE/state0" ]; then
	info "CPU 1's idle states: $(cat "$IDLE"/state*/name | tr '\n' ' ')"
	idle0=$(idle_disabled)
	nstates=$(ls -d "$IDLE"/state* | grep -c .)
	assert_ge "$nstates" 2 "CPU 1's idle states"
	want=0
	i=1
	while [ $i -lt "$nstates" ]; do want="$want 1"; i=$((i + 1)); done
	cli_start "$CLI_OUT/idle.txt" timerlat -c 1 -p 10000 -d 3 -q -D \
		--deepest-idle-state 0
	cli_wait_counting
	assert_eq "$(idle_disabled | cut -d' ' -f2-)" \
		"$(echo "$want " | cut -d' ' -f2-)" "CPU 1's deeper states during the run"
	cli_wait_end
	assert_eq "$RC" 0 "exit status with --deepest-idle-state"
	assert_eq "$(idle_disabled)" "$idle0" "CPU 1's states after the run"
	# SIGKILL: the journal puts them back (osn cleanup)
	cli_start "$CLI_OUT/idle2.txt" timerlat -c 1 -p 10000 -d 30 -q -D \
		--deepest-idle-state -1
	cli_wait_counting
	kill -KILL "$CLI_PID"
	wait "$CLI_PID"
	"$OSN" cleanup >"$CLI_OUT/cleanup.txt" 2>&1 ||
		fail "osn cleanup: $(cat "$CLI_OUT/cleanup.txt")"
	assert_eq "$(idle_disabled)" "$idle0" "CPU 1's states after SIGKILL and cleanup"
	[ "$fake_idle" = 1 ] && { rmmod osn_inject || fail "rmmod osn_inject (fake_idle=1)"; }
fi
assert_eq "$(knobs)" "$before" "knobs after the tuning runs"
assert_eq "$(cli_instances)" "" "instances after the tuning runs"

# the common options timerlat shares: --warm-up (its samples dropped:
# about 100 activations of 10 ms in -d 1, not 200), --trace-buffer-size
# (the instances' buffers), -e with --filter (in the saved trace, with
# timerlat's own events)
cli_start "$CLI_OUT/common.txt" timerlat -c 1 -p 10000 -d 1 -q -D \
	--warm-up 1 --trace-buffer-size 256 -e sched:sched_switch \
	--filter 'prev_pid > 0' -t "$CLI_OUT/common.trace"
cli_wait_counting
# the kernel rounds a buffer up to whole pages (258 on 6.1-rt)
for i in osn_top osn_trace; do
	kb=$(cat "$TFS/instances/$i/buffer_size_kb")
	info "--trace-buffer-size 256: $i has $kb kB"
	assert_ge "$kb" 256 "--trace-buffer-size: $i's buffer (kB)"
	assert_le "$kb" 271 "--trace-buffer-size: $i's buffer (kB)"
done
cli_wait_end
assert_eq "$RC" 0 "exit status with the common options"
count=$(sed -n 's/^  1 #\([0-9]*\) .*/\1/p' "$CLI_OUT/common.txt")
info "--warm-up 1 -d 1: $count activations counted"
assert_ge "${count:-0}" 1 "activations counted after the warm-up"
assert_le "${count:-0}" 150 "activations counted (the warm-up's dropped)"
tr=$CLI_OUT/common.trace
grep -q 'sched_switch:' "$tr" || fail "-e sched:sched_switch: not in the trace"
grep -q 'sched_switch:.*prev_pid=0 ' "$tr" && fail "--filter 'prev_pid > 0' not applied"
grep -q 'timerlat_sample:' "$tr" || fail "no timerlat_sample in the trace"

# stopped OUT OPTS...: osn timerlat -c 1 OPTS, stopped at once: exit 2
stopped() {
	_o=$1
	shift
	"$OSN" timerlat -c 1 -p 10000 -d 20 "$@" >"$_o" 2>"$_o.err"
	_rc=$?
	cat "$_o" "$_o.err"
	assert_eq "$_rc" 2 "exit status of $*"
}

# --aa-only: the analysis alone on stdout
a=$CLI_OUT/aa-only.txt
stopped "$a" --aa-only 5
assert_eq "$(head -n 1 "$a")" "## CPU 1 hit stop tracing, analyzing it ##" \
	"--aa-only's first line"
grep -Eq '^ +(Thread|IRQ) latency: +[0-9]+\.[0-9]+ us' "$a" ||
	fail "--aa-only: no latency line"
grep -Eq 'Timer Latency|Saving trace|^CPU COUNT' "$a" &&
	fail "--aa-only printed more than the analysis"

# --no-aa: the stop said, no analysis
a=$CLI_OUT/no-aa.txt
stopped "$a" -T 5 -q --no-aa
grep -q '^osn timerlat hit stop tracing$' "$a" || fail "--no-aa: no stop line"
grep -Eq 'analyzing it|Thread latency:|IRQ handler delay' "$a" &&
	fail "--no-aa printed an analysis"

# --dump-tasks: the analysis, then the task on CPU 1 at the stop, as
# rtla's (the last sched_switch there): a stop on the thread latency
# comes in the timerlat thread, so that task is timerlat/1 itself
a=$CLI_OUT/tasks.txt
stopped "$a" -T 5 -q --dump-tasks
grep -q 'analyzing it' "$a" || fail "--dump-tasks: no analysis"
grep -q '^Printing CPU tasks:$' "$a" || fail "--dump-tasks: no task list"
grep -Eq '^    \[001\] +timerlat/1:[0-9]+$' "$a" ||
	{ cat "$a"; fail "--dump-tasks: CPU 1's task at a thread stop is not timerlat/1"; }
grep -q '^    \[000\]' "$a" && fail "--dump-tasks: CPU 0 is not measured"

# -s: the stack the timer's interrupt saved, named, in the analysis
# (rtla's "Blocking thread stack trace"): under the hrtimer's own
# frames, which every architecture runs from __hrtimer_run_queues
a=$CLI_OUT/stack.txt
stopped "$a" -T 5 -s 5 -q --json="$CLI_OUT/stack.json"
grep -q '^  Blocking thread stack trace$' "$a" || fail "-s: no stack in the analysis"
n=$(grep -Ec '^ {14} -> [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+$' "$a")
assert_ge "$n" 3 "-s: frames named as function+offset"
grep -Eq '^ {14} -> __hrtimer_run_queues\+' "$a" ||
	fail "-s: the stack has no __hrtimer_run_queues frame"
assert_ge "$(cli_json "$CLI_OUT/stack.json" '.stop.stack | length')" 3 "-s: frames in the JSON"

assert_eq "$(knobs)" "$before" "knobs at the end"
assert_eq "$(cli_instances)" "" "instances at the end"
exit 0
