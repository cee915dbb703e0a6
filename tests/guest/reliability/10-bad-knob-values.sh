#!/bin/sh
# timeout: 400
# matrix: shard
# A catalogue of bad values written to every knob while osn measures CPU 1:
# garbage, empty, whitespace, signs, overflowing and hex/octal-looking
# numbers, format strings, non-ASCII digits, 4 KiB and 64 KiB strings,
# unterminated strings, embedded NULs, out-of-range and cross-knob values
# (runtime > period, atomic runtime > 1 s), bad cpulists (nonexistent,
# offline, reversed, dangling), unknown and partly-valid options.  Every
# write must fail, the knob must read back the same, the osn/1 thread must
# be the same task and sample events must keep coming.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

require_cpus 2
rel_setup
rel_knobs_measure
rel_instance rel_bad 64 sample
I=$REL_INST
rel_wait_threads osn/1
rel_assert_flowing "$I" "before the bad writes"
rel_scan
BASE_THREADS=$REL_THREADS
info "workload: $BASE_THREADS"

P=/tmp/rel-payload
on_exit rm -f "$P" "$P.big"
TRIED=0
REJECTED=0
PROBLEMS=
K_TRIED=0
K_REJ=0

# problem MSG: remember (and show) something that went wrong.
problem() {
	info "PROBLEM: $*"
	PROBLEMS="$PROBLEMS$REL_NL  $*"
}

# check KNOB DESC RC BEFORE: account for one write that had status RC.
check() {
	TRIED=$((TRIED + 1))
	K_TRIED=$((K_TRIED + 1))
	read -r _now <"$OSN_PARAMS/$1"
	if [ "$3" = 0 ]; then
		problem "$1 accepted $2 (reads back '$_now')"
		restore_all
		return 0
	fi
	REJECTED=$((REJECTED + 1))
	K_REJ=$((K_REJ + 1))
	[ "$_now" = "$4" ] ||
		problem "$1 changed by rejected $2: '$4' -> '$_now'"
	# The full scan is in knob_done; here: is the thread the same task?
	for _t in $BASE_THREADS; do
		rel_same_thread "$_t" ||
			problem "workload changed by rejected $1 $2: $_t gone"
	done
}

# restore_all: after an accepted bad write, back to the measuring state.
restore_all() {
	echo DEFAULTS >"$OSN_PARAMS/options"
	echo 0 >"$OSN_PARAMS/stop_tracing_us"
	echo 0 >"$OSN_PARAMS/stop_tracing_total_us"
	rel_knobs_measure "${CUR_CPUS:-$REL_CPU}"
	rel_wait_threads "osn/${CUR_CPUS:-$REL_CPU}"
	rel_scan
	BASE_THREADS=$REL_THREADS
}

# bad_fmt KNOB FORMAT: write printf FORMAT (escapes expanded, no newline
# added); the printf builtin writes its few bytes in one write(2).
bad_fmt() {
	read -r _before <"$OSN_PARAMS/$1"
	# shellcheck disable=SC2059
	printf "$2" 2>/dev/null >"$OSN_PARAMS/$1"
	check "$1" "'$2'" $? "$_before"
}

# bad_val KNOB VALUE: write VALUE plus a newline (as echo does).
bad_val() {
	read -r _before <"$OSN_PARAMS/$1"
	printf '%s\n' "$2" 2>/dev/null >"$OSN_PARAMS/$1"
	check "$1" "'$2'" $? "$_before"
}

# bad_file KNOB FILE DESC: write the whole FILE in exactly one write(2).
bad_file() {
	read -r _before <"$OSN_PARAMS/$1"
	_sz=$(wc -c <"$2")
	dd if="$2" of="$OSN_PARAMS/$1" bs="$_sz" count=1 2>/dev/null
	check "$1" "$3" $? "$_before"
}

# bad_nul KNOB BEFORE AFTER: BEFORE, a NUL byte, AFTER in one write.
bad_nul() {
	printf '%s' "$2" >"$P.big"
	head -c 1 /dev/zero >>"$P.big"
	printf '%s' "$3" >>"$P.big"
	bad_file "$1" "$P.big" "'$2<NUL>$3'"
}

# big CHAR SIZE: a file of SIZE bytes of CHAR in $P.big.
big() {
	head -c "$2" /dev/zero | tr '\0' "$1" >"$P.big"
}

# knob_done KNOB: the knob's figures; sample events still flow.
knob_done() {
	info "[$(rel_elapsed)s] $1: $K_TRIED bad writes, $K_REJ rejected"
	KNOB_FIG="$KNOB_FIG $1=$K_REJ/$K_TRIED"
	K_TRIED=0
	K_REJ=0
	rel_scan
	[ "$REL_THREADS" = "$BASE_THREADS" ] ||
		problem "workload changed by the bad writes to $1: '$BASE_THREADS' -> '$REL_THREADS'"
	BASE_THREADS=$REL_THREADS
	rel_flowing "$I" 2 15 ||
		problem "no sample events after the bad writes to $1"
}

# Malformed for every knob (printf formats, one per line).
GENERIC='\n
 \n
\t\n
\n\n
 
abc\n
abc
1a\n
a1\n
12 34\n
 5\n
5 \n
5\t\n
5\n\n
5\r\n
\n5\n
-1\n
-5
-0\n
--1\n
+-1\n
+\n
++1\n
-\n
0x10\n
0X1F\n
0x\n
0b101\n
0o17\n
1e3\n
1.5\n
1_000\n
\0331\n
%%s%%s%%n%%p\n
\357\274\221\n
\331\241\n
1\342\200\211000\n'

generic() {	# KNOB
	while IFS= read -r _f; do
		bad_fmt "$1" "$_f"
	done <<EOF
$GENERIC
EOF
	big 9 4095
	bad_file "$1" "$P.big" "4095 x '9'"
	big 1 4096
	bad_file "$1" "$P.big" "4096 x '1'"
	big a 4095
	bad_file "$1" "$P.big" "4095 x 'a'"
	big 1 65536
	bad_file "$1" "$P.big" "65536 x '1'"
	bad_nul "$1" "" "5"
	bad_nul "$1" "x" "5"
	bad_nul "$1" "" ""
}

# numeric KNOB VALUE...: generic garbage, overflows, then VALUEs.
numeric() {
	_k=$1
	shift
	generic "$_k"
	for _v in 1,000 18446744073709551616 99999999999999999999999 \
		  184467440737095516150 340282366920938463463374607431768211456 "$@"; do
		bad_val "$_k" "$_v"
	done
	knob_done "$_k"
}

U64_MAX=18446744073709551615
numeric period_us 0 99 $((REL_RUNTIME - 1)) 60000001 4294967296000 $U64_MAX
numeric runtime_us 0 99 $((REL_PERIOD + 1)) 60000001 $U64_MAX
numeric threshold_us 10000001 4294967296 $U64_MAX
# U64_MAX / 1000 is the largest stop value that converts to ns.
numeric stop_tracing_us 18446744073709552 $U64_MAX
numeric stop_tracing_total_us 18446744073709552 $U64_MAX

# cpus: syntax, nonexistent CPUs, oversized lists.  Not in the list because
# the kernel's cpulist syntax (lib/bitmap.c) allows them: "ALL" ("all" is
# case-insensitive), "0 1" and "all 0" (whitespace separates like ",").
generic cpus
for v in 2 99 4096 4294967296 18446744073709551616 0-99 0,99 1-2 3-1 1-0 \
	 1- -1 - , ,, 0-1-2 0--1 1:1 0-1:3/2 0-1/0 al alll all0 "0;1" 0x1 \
	 " all x" all:3/2 N-0; do
	bad_val cpus "$v"
done
yes 0 | head -n 2100 | tr '\n' , >"$P.big"
printf 0 >>"$P.big"
bad_file cpus "$P.big" "a 4201-byte cpulist (limit 4094)"
knob_done cpus

# A long cpulist within the limit is taken (1500 x "1," and "1": 3001
# bytes, in one write): a set of many sparse CPUs is written so.
yes 1 | head -n 1500 | tr '\n' , >"$P.big"
printf 1 >>"$P.big"
dd if="$P.big" of="$OSN_PARAMS/cpus" bs=3001 count=1 2>/dev/null ||
	problem "cpus rejected a 3001-byte cpulist of CPU 1"
read -r v <"$OSN_PARAMS/cpus"
[ "$v" = 1 ] || problem "cpus reads '$v' after a 3001-byte cpulist of CPU 1"
rel_wait_threads osn/1

# cpus naming a CPU that is offline now.
require_hotplug
CUR_CPUS=0
osn_knob cpus 0
rel_wait_threads osn/0
rel_cpu_online 0 || fail "cannot offline cpu$REL_CPU"
rel_scan
BASE_THREADS=$REL_THREADS
for v in 1 0-1 0,1 1-1 all,1; do
	bad_val cpus "$v"
done
read -r v <"$OSN_PARAMS/cpus"
assert_eq "$v" 0 "cpus while cpu1 is offline"
rel_cpu_online 1 || fail "cannot online cpu$REL_CPU"
knob_done cpus-offline
CUR_CPUS=
osn_knob cpus $REL_CPU
rel_wait_threads osn/1
rel_scan
BASE_THREADS=$REL_THREADS

# options: unknown names, partly valid lists (all or nothing).
generic options
for v in FOO osnoise_workload OSNOISE_WORKLOA OSNOISE_WORKLOADX NO_ NO_NO_OSNOISE_WORKLOAD \
	 NO_FOO DEFAULT DEFAULTSX NO_DEFAULTS OSNOISE_WORKLOAD,PANIC_ON_STOP \
	 "NO_OSNOISE_WORKLOAD FOO" "FOO NO_OSNOISE_WORKLOAD" "DEFAULTS NO_OSNOISE_WORKLOAD BAR" \
	 "NO_OSNOISE_WORKLOAD;" "+OSNOISE_WORKLOAD" "-OSNOISE_WORKLOAD" "!OSNOISE_WORKLOAD" \
	 "OSNOISE_WORKLOAD=0" "0" "1"; do
	bad_val options "$v"
done
yes OSNOISE_WORKLOAD | head -n 20 | tr '\n' ' ' >"$P.big"
bad_file options "$P.big" "a 340-byte list of valid names"
knob_done options

# Cross-knob rules: interrupts/preemption off for more than 1 s, runtime
# above period.  The valid writes in between keep the same threads.
osn_knob period_us 1500000
osn_knob runtime_us 1100000
for v in OSNOISE_IRQ_DISABLE OSNOISE_PREEMPT_DISABLE "NO_OSNOISE_WORKLOAD OSNOISE_IRQ_DISABLE" \
	 "DEFAULTS OSNOISE_PREEMPT_DISABLE"; do
	bad_val options "$v"
done
bad_val period_us 1099999
osn_knob runtime_us $REL_RUNTIME
osn_knob options OSNOISE_PREEMPT_DISABLE
bad_val runtime_us 1000001
bad_val runtime_us 1500000
osn_knob options NO_OSNOISE_PREEMPT_DISABLE
osn_knob period_us $REL_PERIOD
knob_done cross-knob

# A valid value, a NUL, then junk: the kernel hands the module a C string
# (kernel_param_ops.set gets no length), so only the part before the NUL
# exists for it.  Accepted or not, the knob must read back the prefix.
NUL_OK=0
for kv in period_us=$REL_PERIOD threshold_us=0 cpus=$REL_CPU options=DEFAULTS; do
	k=${kv%%=*}
	read -r before <"$OSN_PARAMS/$k"
	printf '%s' "${kv#*=}" >"$P.big"
	head -c 1 /dev/zero >>"$P.big"
	printf 'junk' >>"$P.big"
	dd if="$P.big" of="$OSN_PARAMS/$k" bs=64 count=1 2>/dev/null
	read -r now <"$OSN_PARAMS/$k"
	[ "$now" = "$before" ] || fail "$k after '${kv#*=}<NUL>junk': '$before' -> '$now'"
	NUL_OK=$((NUL_OK + 1))
done
rel_wait_threads osn/1
rel_assert_flowing "$I" "after the NUL-suffixed writes"

echo 0 >"$I/events/osn/enable"
rel_wait_no_threads
figures "bad knob writes tried: $TRIED, rejected: $REJECTED; per knob (rejected/tried):$KNOB_FIG; valid-prefix+NUL writes reading back the prefix: $NUL_OK/4"
[ -z "$PROBLEMS" ] || fail "bad writes not handled:$PROBLEMS"
[ "$REJECTED" = "$TRIED" ] || fail "$((TRIED - REJECTED)) bad writes accepted"
exit 0
