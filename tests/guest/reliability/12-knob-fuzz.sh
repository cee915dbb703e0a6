#!/bin/sh
# timeout: 420
# matrix: shard
# Bounded fuzz of every knob while osn measures CPU 1: REL_FUZZ_N writes per
# knob (default 150), half random bytes from /dev/urandom (1-64 bytes; one
# in ten with NULs, written by dd in one write), half random strings over the
# knob's own alphabet (digits and signs, cpulist characters, option names
# and junk words).  A rejected write must leave the knob and the workload
# thread alone; an accepted one must read back a valid value (the value
# written, for the strings: numbers in range, a cpulist of online CPUs,
# the options the words set).  Knobs go back to the measuring values after.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

N=${REL_FUZZ_N:-150}
require_cpus 2
rel_setup
rel_knobs_measure
rel_instance rel_fuzz 64 sample
I=$REL_INST
rel_wait_threads osn/1
rel_assert_flowing "$I" "before the fuzz"
rel_scan
BASE_THREADS=$REL_THREADS

POOL=/tmp/rel-pool
on_exit rm -f "$POOL" "$POOL.nonul"
head -c 16384 /dev/urandom >"$POOL"
# The same without NULs, kept in a variable: random bytes without a fork.
tr -d '\000' <"$POOL" >"$POOL.nonul"
RAW=$(cat "$POOL.nonul")
RAWLEN=${#RAW}
info "random pool: $RAWLEN bytes without NUL"

TRIED=0 REJECTED=0 ACCEPTED=0 PROBLEMS=
FIG=

problem() {
	info "PROBLEM: $*"
	PROBLEMS="$PROBLEMS$REL_NL  $*"
}

# rnd N: R = a random number in 0..N-1 (no fork).
rnd() {
	R=$(((RANDOM << 15 | RANDOM) % $1))
}

# Write helpers: W_RC = the write's status, W_VAL = what was written (only
# for writes made from the shell, empty for the dd ones).
write_raw_nonul() {	# KNOB
	rnd 64
	_l=$((R + 1))
	rnd $((RAWLEN - _l))
	W_VAL=${RAW:$R:$_l}
	printf '%s' "$W_VAL" 2>/dev/null >"$OSN_PARAMS/$1"
	W_RC=$?
}
write_raw_dd() {	# KNOB (may contain NULs)
	rnd 64
	_l=$((R + 1))
	rnd $((16384 / _l - 1))
	W_VAL=
	dd if="$POOL" of="$OSN_PARAMS/$1" bs=$_l skip=$R count=1 2>/dev/null
	W_RC=$?
}
write_str() {	# KNOB STRING
	W_VAL=$2
	printf '%s' "$W_VAL" 2>/dev/null >"$OSN_PARAMS/$1"
	W_RC=$?
}

# alpha_pool SET: APOOL = 4 KiB of random characters of the tr(1) SET.
alpha_pool() {
	APOOL=$(tr -dc "$1" </dev/urandom | head -c 4096)
	APLEN=${#APOOL}
}

# rnd_str MAXLEN: S = a random substring of APOOL, 1..MAXLEN long.
rnd_str() {
	rnd "$1"
	_n=$((R + 1))
	rnd $((APLEN - _n))
	S=${APOOL:$R:$_n}
}

# ---- validity of what an accepted write left -----------------------------

# canon_num VALUE: C = VALUE as kstrtou64 reads it (one trailing newline,
# a leading +, leading zeros dropped).
canon_num() {
	C=${1%"$REL_NL"}
	C=${C#+}
	while :; do
		case $C in
		0?*) C=${C#0} ;;
		*) break ;;
		esac
	done
}

# num_ok KNOB VALUE: VALUE is a plain decimal within KNOB's limits.
num_ok() {
	case $2 in
	''|*[!0-9]*|0?*) return 1 ;;
	esac
	[ ${#2} -le 17 ] || return 1
	read -r _p <"$OSN_PARAMS/period_us"
	read -r _r <"$OSN_PARAMS/runtime_us"
	case $1 in
	period_us) [ "$2" -ge 100 ] && [ "$2" -le 60000000 ] && [ "$2" -ge "$_r" ] ;;
	runtime_us) [ "$2" -ge 100 ] && [ "$2" -le "$_p" ] ;;
	threshold_us) [ "$2" -le 10000000 ] ;;
	stop_tracing_us|stop_tracing_total_us) [ "$2" -le 18446744073709551 ] ;;
	*) return 1 ;;
	esac
}

# after KNOB BEFORE: account for the write just made.
after() {
	TRIED=$((TRIED + 1))
	K_TRIED=$((K_TRIED + 1))
	read -r _now <"$OSN_PARAMS/$1"
	if [ "$W_RC" != 0 ]; then
		REJECTED=$((REJECTED + 1))
		[ "$_now" = "$2" ] || problem "$1 changed by a rejected write: '$2' -> '$_now'"
		for _t in $BASE_THREADS; do
			rel_same_thread "$_t" || problem "$1: rejected write, but $_t is gone"
		done
		return 0
	fi
	ACCEPTED=$((ACCEPTED + 1))
	K_ACC=$((K_ACC + 1))
	accepted_$KIND "$1" "$_now" "$2"
}

accepted_num() {	# KNOB NOW BEFORE
	num_ok "$1" "$2" || problem "$1 accepted a write and reads back '$2' (invalid)"
	if [ -n "$W_VAL" ]; then
		canon_num "$W_VAL"
		[ "$2" = "$C" ] || problem "$1: wrote '$W_VAL', reads back '$2'"
	fi
	# Back to the measuring value (always valid with the others unchanged).
	printf '%s\n' "$3" >"$OSN_PARAMS/$1" || problem "$1: cannot restore '$3'"
}

accepted_cpus() {	# KNOB NOW BEFORE
	case $2 in
	0) _want=osn/0 ;;
	1) _want=osn/1 ;;
	0-1) _want="osn/0 osn/1" ;;
	*) problem "cpus accepted '$W_VAL' and reads back '$2' (not a list of online CPUs)"
	   _want= ;;
	esac
	# An accepted cpus write restarts the threads: wait for the new set.
	rel_wait_restart "$_want" "$BASE_THREADS"
	BASE_THREADS=$REL_THREADS
}

# Options: the model of what a list of words does.
OPT_NAMES="OSNOISE_WORKLOAD PANIC_ON_STOP OSNOISE_PREEMPT_DISABLE OSNOISE_IRQ_DISABLE"
opt_apply() {	# STATE WORDS -> M (state: "OSNOISE_WORKLOAD NO_PANIC_ON_STOP ...")
	M=$1
	for _w in $2; do
		_new=
		for _o in $M; do
			_base=${_o#NO_}
			if [ "$_w" = DEFAULTS ]; then
				[ "$_base" = OSNOISE_WORKLOAD ] && _o=$_base || _o=NO_$_base
			elif [ "$_w" = "$_base" ]; then
				_o=$_base
			elif [ "$_w" = "NO_$_base" ]; then
				_o=NO_$_base
			fi
			_new="$_new${_new:+ }$_o"
		done
		M=$_new
	done
}

accepted_options() {	# KNOB NOW BEFORE
	case "$2" in
	*" "*" "*" "*) ;;
	*) problem "options reads back '$2'" ;;
	esac
	for _o in $2; do
		case " $OPT_NAMES " in
		*" ${_o#NO_} "*) ;;
		*) problem "options reads back an unknown name '$_o' in '$2'" ;;
		esac
	done
	if [ -n "$W_VAL" ]; then
		opt_apply "$3" "$W_VAL"
		[ "$2" = "$M" ] || problem "options: '$3' + '$W_VAL' -> '$2', expected '$M'"
	fi
	# PANIC_ON_STOP never comes from the dictionary; put the rest back.
	case "$2" in
	PANIC_ON_STOP*|*" PANIC_ON_STOP"*) problem "options: PANIC_ON_STOP got set: '$2'" ;;
	esac
	case "$2" in
	OSNOISE_WORKLOAD*) _w=1 ;;
	*) _w=0 ;;
	esac
	case "$3" in
	OSNOISE_WORKLOAD*) _wb=1 ;;
	*) _wb=0 ;;
	esac
	echo DEFAULTS >"$OSN_PARAMS/options"
	# Threads come and go with OSNOISE_WORKLOAD.
	if [ $_w != $_wb ]; then
		rel_wait_restart osn/1 "$BASE_THREADS"
		BASE_THREADS=$REL_THREADS
	fi
}

# fuzz KNOB KIND STRING_GENERATOR: N writes to KNOB.
fuzz() {
	_k=$1
	KIND=$2
	K_TRIED=0
	K_ACC=0
	_i=0
	while [ $_i -lt "$N" ]; do
		read -r _before <"$OSN_PARAMS/$_k"
		case $((_i % 20)) in
		0) write_raw_dd "$_k" ;;
		1|3|5|7|9|11|13|15|17|19) write_raw_nonul "$_k" ;;
		*) "$3"; write_str "$_k" "$S" ;;
		esac
		after "$_k" "$_before"
		_i=$((_i + 1))
	done
	# Every knob back to the measuring values; restart the thread (an
	# accepted long period may keep it asleep), events must flow again.
	echo 0 >"$OSN_PARAMS/stop_tracing_us"
	echo 0 >"$OSN_PARAMS/stop_tracing_total_us"
	rel_knobs_measure
	rel_wait_restart osn/1 "$BASE_THREADS"
	BASE_THREADS=$REL_THREADS
	rel_flowing "$I" 2 20 || problem "no sample events after fuzzing $_k"
	info "[$(rel_elapsed)s] $_k: $K_TRIED writes, $K_ACC accepted (all checked)"
	FIG="$FIG $_k=$K_ACC/$K_TRIED"
}

gen_num() { rnd_str 22; }
gen_cpus() { rnd_str 12; }
WORDS="OSNOISE_WORKLOAD NO_OSNOISE_WORKLOAD OSNOISE_PREEMPT_DISABLE NO_OSNOISE_PREEMPT_DISABLE
OSNOISE_IRQ_DISABLE NO_OSNOISE_IRQ_DISABLE NO_PANIC_ON_STOP DEFAULTS FOO NO_ DEFAULT
osnoise_workload OSNOISE_WORKLOADX NO_NO_OSNOISE_WORKLOAD PANIC_ON_STO"
NWORDS=0
for w in $WORDS; do NWORDS=$((NWORDS + 1)); done
gen_options() {
	rnd 4
	_n=$((R + 1))
	S=
	while [ $_n -gt 0 ]; do
		rnd $NWORDS
		set -- $WORDS
		shift $R
		rnd 8
		case $R in
		0) _sep=, ;;
		1) _sep="$REL_NL" ;;
		2) _sep='	' ;;
		*) _sep=' ' ;;
		esac
		S="$S${S:+$_sep}$1"
		_n=$((_n - 1))
	done
}

# Mostly digits, some signs, blanks, newlines and junk.
alpha_pool '0-90-90-90-9 +x\n\n-'
fuzz period_us num gen_num
fuzz runtime_us num gen_num
fuzz threshold_us num gen_num
fuzz stop_tracing_us num gen_num
fuzz stop_tracing_total_us num gen_num
alpha_pool '0-2,:/ Nalx\n-'
fuzz cpus cpus gen_cpus
fuzz options options gen_options

echo 0 >"$I/events/osn/enable"
rel_wait_no_threads
figures "fuzz writes: $TRIED, rejected: $REJECTED, accepted and valid: $((ACCEPTED))," \
	"per knob (accepted/tried):$FIG"
[ -z "$PROBLEMS" ] || fail "fuzz found:$PROBLEMS"
exit 0
