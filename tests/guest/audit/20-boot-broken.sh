#!/bin/sh
# timeout: 60
# matrix: shard
# boot: broken isolcpus=1 nohz_full=1 irqaffinity=0-1 skew_tick=0
# osn audit on a guest booted with a deliberately broken isolation of CPU
# 1 (its own boot: the header above): isolcpus without managed_irq (warn),
# no rcu_nocbs (warn), irqaffinity naming the isolated CPU (fail, and the
# consistency check says so), skew_tick=0 (warn); nohz_full itself is ok.
# A failing check makes the exit status 1.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
. "$OSN_TESTS/guest/audit/audit.sh"
audit_boot broken
assert_eq "$RC" 1 "exit status with failing checks"
expect boot/isolcpus warn "isolcpus=1 in /proc/cmdline: no 'managed_irq' flag: .* => fix: boot with isolcpus=domain,managed_irq,1$"
expect boot/nohz_full ok "nohz_full=1 in /proc/cmdline$"
expect boot/rcu_nocbs warn "no rcu_nocbs= in /proc/cmdline .* => fix: boot with rcu_nocbs=1$"
expect boot/irqaffinity fail "irqaffinity=0-1 in /proc/cmdline includes audited CPUs 1 .*=> fix: boot with irqaffinity=0$"
expect boot/skew_tick warn "skew_tick=0 in /proc/cmdline \\("
expect boot/consistency fail "irqaffinity=0-1 includes isolated CPUs"
exit 0
