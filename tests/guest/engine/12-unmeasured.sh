#!/bin/sh
# timeout: 60
# The read-only parameter "unmeasured" lists exactly the optional
# tracepoints osn hooks that this kernel lacks (the x86 vectors and
# nmi_handler; an entry/exit pair by its entry), or on arm64 the class it
# cannot measure ("nmi": kernel/osn_arch.h), dmesg says it once at load
# when it is not empty, and osn top prints it under its title.  A kernel
# that lacks one still loads osn: that is the degradation, not a failure.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/engine/engine.sh"

eng_setup
p=/sys/module/osn/parameters/unmeasured
[ -e "$p" ] || fail "no parameter unmeasured"
expect_fail sh -c "echo x >$p"
got=$(cat "$p")
info "unmeasured on $(uname -r): '${got:-none}'"

want=
if [ "$(uname -m)" = aarch64 ]; then
	# kernel/osn_arch.h: arm64's pseudo-NMIs are not measured (the whole
	# class: "nmi"), and its interrupts are all seen by
	# irq_handler_entry/exit (no vector tracepoints to lack).
	want=nmi
else
	for v in local_timer reschedule call_function call_function_single irq_work \
		 thermal_apic threshold_apic deferred_error_apic x86_platform_ipi \
		 error_apic spurious_apic; do
		if [ ! -d "$(tfs events/irq_vectors/${v}_entry)" ] ||
		   [ ! -d "$(tfs events/irq_vectors/${v}_exit)" ]; then
			want="$want${want:+,}${v}_entry"
		fi
	done
	[ -d "$(tfs events/nmi/nmi_handler)" ] || want="$want${want:+,}nmi_handler"
fi
assert_eq "$got" "$want" "unmeasured (the optional tracepoints missing from events/)"

if [ -n "$got" ]; then
	dmesg | grep -q "osn: this kernel has no tracepoint for: $got;" ||
		fail "dmesg does not say what is not measured"
	require_bin osn
	out=$(osn top -c 1 -d 1 2>&1) || fail "osn top failed: $out"
	echo "$out" | grep -q "not measured on this kernel (counted as hw): $got" ||
		fail "osn top does not say what is not measured: $out"
else
	if dmesg | grep -q "osn: this kernel has no tracepoint for"; then
		fail "dmesg says something is not measured, the parameter is empty"
	fi
fi

# Its sibling "impossible" counts negative durations (osn_account_clamp());
# read-only, and 0 here.  Any occurrence also logs "osn: impossible:",
# which fails the run of whatever test caused it (parse-log.sh).
p=/sys/module/osn/parameters/impossible
[ -e "$p" ] || fail "no parameter impossible"
expect_fail sh -c "echo 1 >$p"
assert_eq "$(cat "$p")" 0 "impossible (negative durations since load)"
exit 0
