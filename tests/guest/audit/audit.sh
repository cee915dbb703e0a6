# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the osn audit tests (cli/98-audit and audit/NN-boot-*), sourced
# after ../lib.sh.  Not a test itself (no NN- prefix).

O=/tmp/osn-audit.out
E=/tmp/osn-audit.err
on_exit rm -f "$O" "$E"

# audit ARGS...: osn audit ARGS > $O, 2> $E; RC is its exit status, which
# must be 1 exactly when a check fails.
audit() {
	"$OSN" audit "$@" >"$O" 2>"$E"
	RC=$?
	[ -s "$E" ] && { cat "$E"; fail "osn audit $*: stderr not empty"; }
	if grep -q '^fail  ' "$O"; then
		assert_eq "$RC" 1 "exit status of osn audit $* with a failing check"
	else
		assert_eq "$RC" 0 "exit status of osn audit $* with no failing check"
	fi
}

# line CHECK: the line of CHECK in $O
line() {
	grep -E "^(ok|warn|fail|n/a) +$1 " "$O"
}

# expect CHECK STATUS_ERE EVIDENCE_ERE
expect() {
	_l=$(line "$1")
	[ -n "$_l" ] || { cat "$O"; fail "no line for $1"; }
	info "$_l"
	assert_match "$_l" "^($2) +$1 +$3" "$1"
}

# audit_boot NAME: in the boot NAME (tests/guest/audit/NN-boot-*), the
# default audit: its output shown, the audited CPU 1 taken from the
# command line.
audit_boot() {
	[ -x "$OSN" ] || skip "tools/osn is not in the guest"
	require_cpus 2
	info "$(cat /proc/cmdline)"
	grep -q "osn.boot=$1" /proc/cmdline || fail "not the $1 boot"
	audit
	sed 's/^/    | /' "$O"
	grep -q '^osn audit: CPUs 1 (isolcpus=/nohz_full= of the kernel command line); housekeeping CPUs 0$' "$O" ||
		fail "default CPUs: $(head -n 1 "$O")"
}
