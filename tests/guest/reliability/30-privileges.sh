#!/bin/sh
# timeout: 180
# matrix: shard
# Privileges: the knobs are 0644 root, every tracefs osn file is root-only
# for writing; an unprivileged user (uid 65534) writing a knob gets EACCES
# and changes nothing, cannot enable osn events, load or unload osn;
# `osn top` run by that user fails with one clear line and exit 1 and
# changes nothing; and nothing osn exposes shows that user a kernel address
# (knobs, /sys/module/osn, /proc/modules, /proc/kallsyms, the kernel log).
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/reliability/rel.sh"

require_cpus 2
rel_setup
rel_knobs_measure
rel_instance rel_priv 64 sample
I=$REL_INST
rel_wait_threads osn/1
rel_scan
T=$REL_THREADS
PROBLEMS=
problem() {
	info "PROBLEM: $*"
	PROBLEMS="$PROBLEMS$REL_NL  $*"
}
as_nobody true || skip "cannot run a command as nobody (su)"
assert_eq "$(as_nobody id -u)" 65534 "uid of as_nobody"

# 1. Modes.
NMODES=0
for f in "$OSN_PARAMS"/*; do
	m=$(stat -c '%a %U %G' "$f")
	# the knobs are root-writable; the reports are read-only
	want="644 root root"
	case ${f##*/} in
	unmeasured|impossible|start_error|running|causes_live) want="444 root root" ;;
	esac
	[ "$m" = "$want" ] || problem "$f: mode/owner '$m', expected '$want'"
	NMODES=$((NMODES + 1))
done
for f in $(find "$TFS/events/osn" "$I/events/osn" -type f); do
	m=$(stat -c '%a %U' "$f")
	case ${m%% *} in
	*[2367]?|*?[2367]) problem "$f: mode '$m' is writable by group or others" ;;
	esac
	[ "${m#* }" = root ] || problem "$f: owner '${m#* }'"
	NMODES=$((NMODES + 1))
done
info "modes checked: $NMODES files"

# 2. Writes as nobody.
E=/tmp/rel-priv-err
on_exit rm -f "$E"
before=$(for k in "$OSN_PARAMS"/*; do printf '%s=%s ' "${k##*/}" "$(cat "$k")"; done)
NW=0 NDENIED=0
for kv in cpus=0 period_us=200000 runtime_us=10000 threshold_us=5 stop_tracing_us=1 \
	  stop_tracing_total_us=1 options=NO_OSNOISE_WORKLOAD options=PANIC_ON_STOP paused=Y; do
	NW=$((NW + 1))
	if as_nobody "echo ${kv#*=} >$OSN_PARAMS/${kv%%=*}" 2>"$E"; then
		problem "nobody could write ${kv%%=*}=${kv#*=}"
	elif grep -q 'Permission denied' "$E"; then
		NDENIED=$((NDENIED + 1))
	else
		problem "nobody writing ${kv%%=*}: '$(cat "$E")', expected Permission denied"
	fi
done
for f in "$TFS/events/osn/enable" "$I/events/osn/enable" "$I/events/osn/sample/enable" \
	 "$I/events/osn/sample/filter" "$I/events/osn/sample/trigger" "$TFS/instances/rel_priv_x"; do
	NW=$((NW + 1))
	case $f in
	*/rel_priv_x) cmd="mkdir $f" ;;
	*/filter) cmd="echo 'duration > 1' >$f" ;;
	*/trigger) cmd="echo traceoff >$f" ;;
	*) cmd="echo 0 >$f" ;;
	esac
	if as_nobody "$cmd" 2>"$E"; then
		problem "nobody could: $cmd"
	elif grep -q 'Permission denied' "$E"; then
		NDENIED=$((NDENIED + 1))
	else
		problem "nobody: $cmd: '$(cat "$E")', expected Permission denied"
	fi
done
for cmd in "rmmod osn" "insmod $OSN_KO/osn.ko"; do
	NW=$((NW + 1))
	if as_nobody "$cmd" 2>"$E"; then
		problem "nobody could: $cmd"
	elif grep -Eq 'Operation not permitted|Permission denied' "$E"; then
		NDENIED=$((NDENIED + 1))
	else
		problem "nobody: $cmd: '$(cat "$E")', expected EPERM"
	fi
done
mod_loaded osn || fail "osn unloaded by nobody"
after=$(for k in "$OSN_PARAMS"/*; do printf '%s=%s ' "${k##*/}" "$(cat "$k")"; done)
[ "$after" = "$before" ] || problem "knobs changed by nobody: '$before' -> '$after'"
rel_same_thread "$T" || problem "workload changed by nobody's writes: '$T'"
rel_assert_flowing "$I" "after nobody's writes"
info "[$(rel_elapsed)s] nobody: $NW writes/loads tried, $NDENIED denied"

# 3. The CLI as nobody.
CLI=skipped
if [ -x "$OSN_BIN/osn" ]; then
	as_nobody "$OSN_BIN/osn top -d 1" >/dev/null 2>"$E"
	rc=$?
	info "osn top as nobody: exit $rc: $(cat "$E")"
	[ $rc = 1 ] || problem "osn top as nobody: exit $rc, expected 1"
	[ "$(grep -c . "$E")" = 1 ] && grep -q '^osn: ' "$E" ||
		problem "osn top as nobody: not one 'osn: ' line: $(cat "$E")"
	after=$(for k in "$OSN_PARAMS"/*; do printf '%s=%s ' "${k##*/}" "$(cat "$k")"; done)
	[ "$after" = "$before" ] || problem "knobs changed by osn top as nobody"
	ls "$TFS/instances" | grep -q '^osn_' && problem "osn top as nobody left an instance"
	rel_same_thread "$T" || problem "workload changed by osn top as nobody"
	CLI="exit $rc, one line"
else
	info "tools/osn not in the guest: CLI part not run"
fi

# 4. Kernel addresses visible to nobody.  kptr_restrict as booted.
read -r kptr </proc/sys/kernel/kptr_restrict
cat >/tmp/rel-leak.sh <<'EOS'
# Runs as nobody: print each readable file's name, then its text with
# kernel-looking addresses only (hex words starting ffff8.. to ffffff..).
for f in $(find /sys/module/osn -type f); do
	if cat "$f" >/tmp/rel-leak.f 2>/dev/null; then
		echo "READ $f"
		grep -Eio '(0x)?ffff[89a-f][0-9a-f]{11}' /tmp/rel-leak.f | sed "s|^|LEAK $f |" | head -n 3
		od -An -tx8 -v /tmp/rel-leak.f | tr -s ' ' '\n' | grep -E '^ffff[89a-f][0-9a-f]{11}$' |
			sed "s|^|LEAK(binary) $f |" | head -n 3
	else
		echo "DENIED $f"
	fi
done
grep '^osn ' /proc/modules | sed 's/^/MODLINE /'
grep -Eio '(0x)?ffff[89a-f][0-9a-f]{11}' /proc/modules | sed 's|^|LEAK /proc/modules |' | head -n 3
grep '\[osn\]' /proc/kallsyms | grep -v '^0000000000000000 ' | head -n 3 | sed 's/^/KALLSYMS /'
dmesg 2>/dev/null | grep -i 'osn' | grep -Eio 'ffff[89a-f][0-9a-f]{11}' | head -n 3 | sed 's/^/LEAK dmesg /'
# The event format files (listed by root: nobody cannot even look).
while read -r f; do
	if cat "$f" >/tmp/rel-leak.f 2>/dev/null; then
		echo "READ $f"
		grep -Eio '(0x)?ffff[89a-f][0-9a-f]{11}' /tmp/rel-leak.f | sed "s|^|LEAK $f |" | head -n 3
	else
		echo "DENIED $f"
	fi
done </tmp/rel-leak.list
ls /sys/kernel/tracing >/dev/null 2>&1 && echo "READ /sys/kernel/tracing" || echo "DENIED tracefs"
EOS
find "$TFS/events/osn" "$I/events/osn" -name format >/tmp/rel-leak.list
chmod 644 /tmp/rel-leak.list
on_exit rm -f /tmp/rel-leak.sh /tmp/rel-leak.f /tmp/rel-leak.out /tmp/rel-leak.list
as_nobody "sh /tmp/rel-leak.sh" >/tmp/rel-leak.out 2>&1
NREAD=$(grep -c '^READ ' /tmp/rel-leak.out)
NDEN=$(grep -c '^DENIED ' /tmp/rel-leak.out)
NFMT=$(grep -c . /tmp/rel-leak.list)
NFMT_DEN=$(grep -c '^DENIED .*/format$' /tmp/rel-leak.out)
grep '^MODLINE ' /tmp/rel-leak.out | grep -q ' 0x0000000000000000 ' ||
	problem "/proc/modules shows nobody osn's address: $(grep '^MODLINE ' /tmp/rel-leak.out)"
grep -q '^KALLSYMS ' /tmp/rel-leak.out &&
	problem "/proc/kallsyms shows nobody osn's addresses: $(grep '^KALLSYMS ' /tmp/rel-leak.out)"
if grep -q '^LEAK' /tmp/rel-leak.out; then
	problem "kernel addresses readable by nobody (kptr_restrict=$kptr): $(grep '^LEAK' /tmp/rel-leak.out | head -n 5)"
fi
# Root does see the addresses (so the check above could have seen one).
grep -q '0x0000000000000000' /sys/module/osn/sections/.text 2>/dev/null &&
	info "note: even root sees a zero .text address"
info "[$(rel_elapsed)s] nobody read $NREAD files of osn's, $NDEN denied; kptr_restrict=$kptr"

echo 0 >"$I/events/osn/enable"
rel_wait_no_threads
figures "privileges: $NMODES file modes ok; unprivileged writes/loads: $NDENIED/$NW denied;" \
	"osn top as nobody: $CLI; files readable by nobody: $NREAD, kernel addresses in them:" \
	"$(grep -c '^LEAK' /tmp/rel-leak.out) (kptr_restrict=$kptr); event format files denied to nobody: $NFMT_DEN/$NFMT"
[ -z "$PROBLEMS" ] || fail "privilege problems:$PROBLEMS"
exit 0
