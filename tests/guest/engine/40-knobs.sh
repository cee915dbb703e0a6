#!/bin/sh
# timeout: 120
# Every knob rejects every kind of bad input with an error and keeps its
# value; good values are applied; cross-knob rules hold whatever the
# order of the writes.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
require_cpus 2
eng_setup

# bad KNOB VALUE: the write fails and the knob keeps its value.
bad() {
	_old=$(osn_knob "$1")
	if printf '%s' "$2" >"$OSN_PARAMS/$1" 2>/dev/null; then
		fail "knob $1 accepted '$2'"
	fi
	assert_eq "$(osn_knob "$1")" "$_old" "$1 after bad write '$2'"
}

# An empty write is a lone newline (a zero-byte write never reaches the knob).
NL=$(printf '\n_')
NL=${NL%_}

assert_eq "$(osn_knob period_us)" 1000000 "default period_us"
assert_eq "$(osn_knob runtime_us)" 1000000 "default runtime_us"
assert_eq "$(osn_knob threshold_us)" 0 "default threshold_us"
assert_eq "$(osn_knob stop_tracing_us)" 0 "default stop_tracing_us"
assert_eq "$(osn_knob stop_tracing_total_us)" 0 "default stop_tracing_total_us"
assert_eq "$(osn_knob cpus)" "0-$(($(nr_cpus) - 1))" "default cpus"
assert_eq "$(osn_knob options)" \
	"OSNOISE_WORKLOAD NO_PANIC_ON_STOP NO_OSNOISE_PREEMPT_DISABLE NO_OSNOISE_IRQ_DISABLE" \
	"default options"

for k in period_us runtime_us threshold_us stop_tracing_us stop_tracing_total_us; do
	for v in "$NL" " " abc 12abc -1 0x10 1.5 99999999999999999999999 "1 2"; do
		bad $k "$v"
	done
done
bad period_us 60000001			# > OSN_MAX_PERIOD_US
bad period_us 999999			# < runtime_us
bad runtime_us 99			# < OSN_MIN_RUNTIME_US
bad runtime_us 1000001			# > period_us
bad threshold_us 10000001		# > OSN_MAX_THRESHOLD_US
bad stop_tracing_us 18446744073709552	# overflows in ns

# cpus: garbage, empty, nonexistent, reversed, too long, offline.
for v in "$NL" " " "," abc 0- -1 1-0 "0,,1" ",1" "1," 99 4096 0-99 "0 1" "$(nr_cpus)"; do
	bad cpus "$v"
done
# one character over the limit (OSN_CPUS_MAX_LEN, 4094: a sysfs write's
# page less a newline), the string otherwise a valid cpulist ("0")
long=$(head -c 4095 /dev/zero | tr '\0' '0')
bad cpus "$long"
long=$(awk 'BEGIN { for (i = 0; i < 2100; i++) printf "0,"; printf "1" }')
bad cpus "$long"
echo 0 >/sys/devices/system/cpu/cpu1/online || fail "offline cpu1"
on_exit 'echo 1 >/sys/devices/system/cpu/cpu1/online'
bad cpus 1
bad cpus 0-1
echo 1 >/sys/devices/system/cpu/cpu1/online || fail "online cpu1"
osn_knob cpus 1
assert_eq "$(osn_knob cpus)" 1 cpus
osn_knob cpus "0,1"
assert_eq "$(osn_knob cpus)" 0-1 cpus
osn_knob cpus all
assert_eq "$(osn_knob cpus)" "0-$(($(nr_cpus) - 1))" "cpus all"

# options: unknown names, case, partial names; all-or-nothing.
for v in "$NL" BOGUS osnoise_workload NO_ NO_BOGUS "OSNOISE_WORKLOAD BOGUS" WORKLOAD; do
	bad options "$v"
done
osn_knob options NO_OSNOISE_WORKLOAD
assert_match "$(osn_knob options)" '^NO_OSNOISE_WORKLOAD ' "options after NO_"
osn_knob options "OSNOISE_WORKLOAD PANIC_ON_STOP"
assert_match "$(osn_knob options)" '^OSNOISE_WORKLOAD PANIC_ON_STOP ' options
osn_knob options DEFAULTS
assert_eq "$(osn_knob options)" \
	"OSNOISE_WORKLOAD NO_PANIC_ON_STOP NO_OSNOISE_PREEMPT_DISABLE NO_OSNOISE_IRQ_DISABLE" \
	"options after DEFAULTS"

# Runtime capped while IRQs/preemption are off, whatever the write order.
osn_knob period_us 5000000
osn_knob runtime_us 2000000
bad options OSNOISE_IRQ_DISABLE
bad options OSNOISE_PREEMPT_DISABLE
osn_knob runtime_us 1000000
osn_knob options OSNOISE_PREEMPT_DISABLE
bad runtime_us 1000001
osn_knob options DEFAULTS
osn_knob runtime_us 2000000

# Good values land; 0 threshold means the default.
osn_knob runtime_us 500
osn_knob period_us 1000
assert_eq "$(osn_knob period_us)" 1000 period_us
assert_eq "$(osn_knob runtime_us)" 500 runtime_us
osn_knob threshold_us 10000000
osn_knob threshold_us 0
osn_knob stop_tracing_us 123
assert_eq "$(osn_knob stop_tracing_us)" 123 stop_tracing_us

# Read by all, written by root only.
perm=$(stat -c %a "$OSN_PARAMS/period_us")
assert_eq "$perm" 644 "period_us permissions"
exit 0
