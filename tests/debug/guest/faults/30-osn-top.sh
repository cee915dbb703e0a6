#!/bin/sh
# timeout: 2400
# osn top with the Nth kernel allocation of its own failing: fail-nth is
# armed by a preloaded library (osn-failnth.so, tests/debug/) once the
# program runs, so the kernel's exec and the loader's mappings do not
# count, and user page faults are exempt (ignore-gfp-highmem).  A dry run
# counts the allocations (K), traced with their stacks (faults.sh); N then
# covers the first and last EDGE and EDGE evenly spaced between, as
# faults/10 does, except where the kernel itself WARNs when an allocation
# fails (FAULTS_WARN_SITES: creating the osn_top instance allocates a ring
# buffer per CPU, and the ring buffer WARNs when another CPU's cannot be
# allocated), and where the allocation grows a user stack (FAULTS_SEGV_SITES:
# a failed growth is a SIGSEGV for any program): those N, and 8 on either side (a page allocation that
# refills a slab may come a little earlier or later in another run), are
# passed over.  osn top's error path for the same system call is still
# tried through its other allocations (the instance's buffer for its own
# CPU, its files).  Each attempt must exit 0,
# or exit 1 with "osn: " lines only on stderr when the failure was
# injected; either way nothing may be left: no osn_top instance, no osn
# event enabled, no workload thread, the knobs as before.  Afterwards osn
# top works without injection.  Prints one OSN-FAULT line (the table of
# Documentation/reliability.md).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
. "$OSN_TESTS/debug/guest/faults/faults.sh"

require_bin osn-failnth
SO=$OSN_BIN/osn-failnth.so
[ -e "$SO" ] || fail "no $SO in the guest"
require_cpus 2
faults_setup Y
FAULTS_BUF_KB=16384 faults_trace_setup
cli_setup
before=$(cli_knobs)
R=/tmp/osn-failnth.out
on_exit rm -f "$R"

# Where the user stack grows must be where the dry run saw it grow: with
# address-space randomization the stack's start moves within its page, and
# so do the allocations that grow it (the debug run of 729e3da: a SIGSEGV
# at N=13 where the dry run had seen no growth within 8).  So no
# randomization, and the same bytes of environment in every run: N is
# padded to ten characters by OSN_FAILNTH_PAD (fail-nth reads N in base 0,
# so no leading zeros).
aslr=$(cat /proc/sys/kernel/randomize_va_space)
echo 0 >/proc/sys/kernel/randomize_va_space || fail "cannot turn randomize_va_space off"
on_exit "echo $aslr >/proc/sys/kernel/randomize_va_space"

# top N: osn top on CPU 1 for 1 s with its Nth allocation failing; RC is
# its exit status, LEFT what was left of the count (0: injected).
top() {
	rm -f "$R"
	_pad=$(head -c $((10 - ${#1})) /dev/zero | tr '\0' x)
	OSN_FAILNTH=$1 OSN_FAILNTH_PAD=$_pad OSN_FAILNTH_OUT=$R LD_PRELOAD=$SO \
		"$OSN" top -c 1 -d 1 -q >"$CLI_OUT/top.out" 2>"$CLI_OUT/top.err"
	RC=$?
	LEFT=$(sed -n 's/^left=//p' "$R" 2>/dev/null)
	[ -n "$LEFT" ] || fail "N=$1: osn top ended without the library's report (rc $RC): $(head -c 300 "$CLI_OUT/top.err")"
}

# clean: what a failed (or any) run must leave as it found it
clean() {
	[ -z "$(cli_instances)" ] && [ -z "$(cli_osn_enabled)" ] &&
		wait_for 10 eng_nthreads_is 0 && [ "$(cli_knobs)" = "$before" ]
}

echo >"$FT/trace"
echo 1 >"$FT/tracing_on"
top 1000000000
echo 0 >"$FT/tracing_on"
assert_eq "$RC" 0 "the dry run's exit status"
k=$((1000000000 - LEFT))
info "osn top -c 1 -d 1: $k allocations"
[ "$k" -gt 0 ] || fail "the dry run counted no allocation"
calls=$(faults_calls) || fail "the trace of the dry run lost its start"
traced=$(echo "$calls" | grep -c .)
[ "$traced" = "$k" ] || info "fail-nth counted $k allocations, the trace $traced"
# skip N: whether N is within 8 of an allocation under a WARN site
echo "$calls" | awk '$2 == "warn" || $2 == "segv" { for (i = $1 - 8; i <= $1 + 8; i++) print i }' | sort -un >/tmp/faults30.skip
nwarn=$(echo "$calls" | grep -c ' warn$')
nsegv=$(echo "$calls" | grep -c ' segv$')
info "$nwarn allocations under the kernel's WARN sites, $nsegv growing a user stack (a SIGSEGV for any program), passed over with their neighbours"
skip() { grep -qx "$1" /tmp/faults30.skip; }
on_exit rm -f /tmp/faults30.skip
EDGE=${OSN_FAULT_EDGE:-16}
stride=1
[ "$k" -le $((3 * EDGE)) ] || stride=$(((k - 2 * EDGE) / EDGE + 1))
n=1 tried=0 nfail=0 nok=0 notclean=0 msgs=
while [ $n -le "$k" ]; do
	if skip $n; then
		n=$((n + 1))
		continue
	fi
	top $n
	tried=$((tried + 1))
	if [ "$RC" = 0 ]; then
		nok=$((nok + 1))
	else
		assert_eq "$RC" 1 "exit status at N=$n"
		assert_eq "$LEFT" 0 "failure injected at N=$n (else it failed by itself)"
		grep -vq '^osn: ' "$CLI_OUT/top.err" &&
			fail "N=$n: stderr has lines that are not osn's: $(head -c 300 "$CLI_OUT/top.err")"
		m=$(grep -v '^osn: warning' "$CLI_OUT/top.err" | tail -n 1)
		[ -n "$m" ] || fail "N=$n: exit 1 and no error message: $(head -c 300 "$CLI_OUT/top.err")"
		info "N=$n: $m"
		nfail=$((nfail + 1))
		w=$(echo "$m" | cut -c1-50)
		case "$msgs" in *"|$w|"*) ;; *) msgs="$msgs|$w|" ;; esac
	fi
	if ! clean; then
		info "N=$n (rc $RC) left state behind: instances '$(cli_instances)' enabled '$(cli_osn_enabled)' threads $(osn_nthreads)"
		notclean=$((notclean + 1))
		"$OSN" cleanup >/dev/null 2>&1
		osn_knobs_default
	fi
	if [ $n -lt "$EDGE" ] || [ $n -ge $((k - EDGE)) ]; then
		n=$((n + 1))
	else
		n=$((n + stride))
	fi
done
top 0
assert_eq "$RC" 0 "osn top without injection, afterwards"
nmsg=$(echo "$msgs" | tr '|' '\n' | grep -c .)
echo "OSN-FAULT op=osn-top allocations=$k warn_sites=$nwarn tried=$tried failed=$nfail messages=$nmsg succeeded_anyway=$nok not_clean=$notclean"
assert_eq "$notclean" 0 "attempts that left state behind"
