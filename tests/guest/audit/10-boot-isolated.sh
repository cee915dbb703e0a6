#!/bin/sh
# timeout: 60
# matrix: shard
# boot: isolated isolcpus=domain,managed_irq,1 nohz_full=1 rcu_nocbs=1 irqaffinity=0 skew_tick=1 nosoftlockup
# osn audit on a guest booted with a complete isolation of CPU 1 (its own
# boot: the header above): the audited CPUs come from the command line,
# every boot check is ok with the value read, the parameters agree, and
# their effects are seen: no user task may run on CPU 1 (isolcpus=domain
# keeps init's affinity off it), no IRQ's affinity touches it
# (irqaffinity=0, managed_irq).  Exit status 0 unless a check fails.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
. "$OSN_TESTS/guest/audit/audit.sh"
audit_boot isolated
expect boot/isolcpus ok "isolcpus=domain,managed_irq,1 in /proc/cmdline$"
expect boot/nohz_full ok "nohz_full=1 in /proc/cmdline$"
expect boot/rcu_nocbs ok "rcu_nocbs=1 in /proc/cmdline$"
expect boot/irqaffinity ok "irqaffinity=0 in /proc/cmdline$"
expect boot/skew_tick ok "skew_tick=1 in /proc/cmdline$"
expect boot/nosoftlockup ok "nosoftlockup in /proc/cmdline$"
expect boot/consistency ok "the isolation parameters given agree"
expect tasks/unpinned ok "no user task is allowed on every CPU"
expect irq ok "no IRQ's affinity touches CPUs 1"
# the same through JSON
require_bin jq
"$OSN" audit --json >"$O" 2>"$E" || fail "osn audit --json: exit $?"
# (but boot/tsc on arm64, n/a: tsc=reliable is x86's)
tna=false
[ "$(uname -m)" = aarch64 ] && tna=true
s=$(jq -r --argjson tna $tna '[.checks[] | select(.check | startswith("boot/")) |
	select(.status != "ok" and .status != "warn") |
	select(($tna and .check == "boot/tsc" and .status == "n/a") | not)] | length' "$O")
assert_eq "$s" 0 "boot checks failing in JSON"
s=$(jq -r '.checks[] | select(.check == "boot/consistency") | .status' "$O")
assert_eq "$s" ok "boot/consistency in JSON"
exit 0
