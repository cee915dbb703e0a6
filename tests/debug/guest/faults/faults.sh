# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the allocation-failure tests (tests/debug/guest/faults/NN-*.sh),
# sourced after ../../../guest/lib.sh.  Not a test itself (no NN- prefix).

# faults_setup HIGHMEM: let fail-nth (/proc/thread-self/fail-nth) fail
# sleeping slab and page allocations too, quietly; HIGHMEM=Y exempts user
# pages (a whole program's page faults), N counts them.  Put back at exit.
faults_setup() {
	[ -e /proc/self/fail-nth ] || fail "no /proc/self/fail-nth: not the debug kernel"
	_fd=/sys/kernel/debug
	for _a in failslab fail_page_alloc; do
		[ -d $_fd/$_a ] || fail "no $_fd/$_a"
		echo N >$_fd/$_a/ignore-gfp-wait
		echo 0 >$_fd/$_a/verbose
	done
	_hm=$(cat $_fd/fail_page_alloc/ignore-gfp-highmem)
	echo "$1" >$_fd/fail_page_alloc/ignore-gfp-highmem
	echo 0 >$_fd/fail_page_alloc/min-order
	on_exit "echo Y >$_fd/failslab/ignore-gfp-wait; echo Y >$_fd/fail_page_alloc/ignore-gfp-wait; echo $_hm >$_fd/fail_page_alloc/ignore-gfp-highmem"
}

# Which of an operation's allocations are osn's own.  fail-nth counts every
# call of should_fail_ex() that the task makes in task context, the
# decision point of failslab and fail_page_alloc.  Kprobes on the two
# callers (should_fail_ex itself, in lib/, is notrace), with the stack of
# each call, in an instance of its own, trace the same calls in the same
# order (faults_setup turns off the filters that would return before
# should_fail_ex); a call is osn's when a frame of the module is on its
# stack, or its init (do_one_initcall: no other module loads meanwhile),
# and the allocation is not the debug kernel's bookkeeping of another.
# Failing only those keeps the injection inside osn and what osn calls,
# away from the kernel's own WARN-on-ENOMEM paths: the trace event core
# defining a module's fields, the ring buffer's CPU-online callback, the
# comm recorder's unregister.  (The stack-trace filter of fault injection
# would do this in the kernel, but it is not available on x86_64:
# FAULT_INJECTION_STACKTRACE_FILTER depends on !X86_64.)
FT=$TFS/instances/osn_fi

# faults_trace_setup: the kprobe and its instance, removed at exit.
faults_trace_setup() {
	# slab/page: each call; slab_ret/page_ret: its verdict (arg1=0x1:
	# this one was made to fail), with its stack too.
	# The gfp mask too (%si of __should_failslab(s, gfp), %di of
	# should_fail_alloc_page(gfp, order)): faults_calls leaves out the
	# calls that return before should_fail_ex(), as those do.
	for _p in slab:__should_failslab:%si page:should_fail_alloc_page:%di; do
		_r=${_p#*:}
		_f=${_r%%:*}
		echo "p:osn_fi/${_p%%:*} $_f gfp=${_r#*:}:x32" >>"$TFS/kprobe_events" &&
			echo "r:osn_fi/${_p%%:*}_ret $_f \$retval" >>"$TFS/kprobe_events" ||
			fail "cannot put a kprobe on $_f"
		on_exit "echo -:osn_fi/${_p%%:*} >>$TFS/kprobe_events; echo -:osn_fi/${_p%%:*}_ret >>$TFS/kprobe_events"
	done
	mkdir "$FT" || fail "cannot create the instance osn_fi"
	on_exit rm_instance osn_fi
	echo 0 >"$FT/tracing_on"
	echo "${FAULTS_BUF_KB:-4096}" >"$FT/buffer_size_kb"
	echo 1 >"$FT/options/stacktrace"
	echo 1 >"$FT/options/sym-offset"	# module frames end in " [osn]"
	# osn-failnth, the CPU hotplug threads it can arm instead, the
	# unbound workers (one of them starts osn's runs), osn (the CLI).
	echo 'comm == "osn-failnth" || comm ~ "cpuhp/*" || comm ~ "kworker/u*" || comm == "osn"' >"$FT/events/osn_fi/filter"
	echo 1 >"$FT/events/osn_fi/enable"
	export OSN_FAILNTH_MARK="$FT/trace_marker"
}

# faults_traced ARGS...: osn-failnth ARGS with the trace on (and cleared
# first); prints its output, returns its status.
faults_traced() {
	echo >"$FT/trace"
	echo 1 >"$FT/tracing_on"
	osn-failnth "$@" 2>&1
	_ft_rc=$?
	echo 0 >"$FT/tracing_on"
	return $_ft_rc
}

# faults_calls: the calls fail-nth counted in the last faults_traced (those
# of the task OSN_FAILNTH_TASK, else of the one that wrote the start mark),
# one line each: "N osn", "N kernel", "N warn": made under one of the
# kernel's own sites that WARN when an allocation fails (FAULTS_WARN_SITES,
# below), or "N segv": made to grow a user stack (FAULTS_SEGV_SITES).
# Fails if the trace lost the start.
#
# The kernel sites that WARN by design when an allocation under them fails
# (6.1): the ring buffer's CPU-prepare callback, which allocates a new
# buffer's CPUs other than the caller's (ring_buffer.c:5858, "failed to
# allocate ring buffer on CPU"); a module event's fields
# (trace_events.c:2556); the comm and tgid recorders, whose failed
# register is followed by an unregister that WARNs (tracepoint.c:406).
FAULTS_WARN_SITES='trace_rb_cpu_prepare|event_define_fields|tracing_start_cmdline_record|tracing_start_tgid_record'
# A user stack that cannot grow is a SIGSEGV by design (6.1's
# do_user_addr_fault: expand_stack() fails, bad_area()), whatever the
# program: the anon_vma it allocates for the new pages, made to fail in an
# osn top run (N=13, the dynamic loader's stack: "segfault at <sp>").
FAULTS_SEGV_SITES='expand_downwards|expand_stack'
# The frames of osn's code (its module, or its init: do_one_initcall, as no
# other module loads meanwhile), and of the debug kernel's bookkeeping of
# an allocation (the kmemleak object, the debug objects' pool, the KASAN
# stack depot), which a production kernel does not make and which has
# fallbacks of its own: never counted for osn, whoever allocated.
FAULTS_OSN_FRAMES='[[]osn[]]|do_one_initcall'
FAULTS_DEBUG_FRAMES='kmemleak_alloc|__create_object|debug_objects_|fill_pool|stack_depot|kasan_save'
faults_calls() {
	awk -v tid="${OSN_FAILNTH_TASK:-}" -v warnre="$FAULTS_WARN_SITES" -v segvre="$FAULTS_SEGV_SITES" \
	    -v osnre="$FAULTS_OSN_FRAMES" -v dbgre="$FAULTS_DEBUG_FRAMES" -v hm="$(cat /sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem)" '
	function pid_of(f) { sub(/.*-/, "", f); return f }
	function hex(h,  i, v) {
		h = tolower(h); sub(/^0x/, "", h); v = 0
		for (i = 1; i <= length(h); i++)
			v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return v
	}
	# whether the kernel returns before should_fail_ex(): __GFP_NOFAIL
	# (0x8000 in 6.1), and a page allocation with __GFP_HIGHMEM (0x2)
	# while ignore-gfp-highmem is set (faults_setup)
	function exempt(line, g) {
		if (!match(line, /gfp=0x[0-9a-fA-F]+/)) return 0
		g = hex(substr(line, RSTART + 4, RLENGTH - 4))
		if (int(g / 32768) % 2) return 1
		return line ~ / page: \(/ && hm == "Y" && int(g / 2) % 2
	}
	/tracing_mark_write[^ ]*: osn-failnth: armed/ {
		on = 1; seen = 1; cur = 0
		if (tid == "") tid = pid_of($1)
		next
	}
	/tracing_mark_write[^ ]*: osn-failnth: disarmed/ { on = 0; cur = 0; next }
	/^ => / {
		if (!cur) next
		if ($0 ~ osnre) osn[cur] = 1
		if ($0 ~ dbgre) dbg[cur] = 1
		if ($0 ~ warnre) warn[cur] = 1
		if ($0 ~ segvre) segv[cur] = 1
		next
	}
	on && / (slab|page): \(/ {
		if (pid_of($1) != tid) { cur = 0; next }
		# fail-nth counts task context only: not in a hard or soft IRQ
		# or an NMI that interrupted the task (the third flag).
		if (substr($3, 3, 1) ~ /[hsHzZ]/) { cur = 0; next }
		if (exempt($0)) { cur = 0; next }
		cur = ++n; next
	}
	END {
		if (!seen) { print "no-start-mark"; exit 1 }
		for (i = 1; i <= n; i++)
			print i, (i in warn) ? "warn" : (i in segv) ? "segv" : (i in osn) && !(i in dbg) ? "osn" : "kernel"
	}' "$FT/trace"
}

# faults_failed: the allocations made to fail in the last trace: the stack
# of each, then a line "faults_failed: osn=X kernel=Y" (how many were
# osn's, as faults_calls judges, and how many were not).
faults_failed() {
	awk -v osnre="$FAULTS_OSN_FRAMES" -v dbgre="$FAULTS_DEBUG_FRAMES" '
	function done() { if (grab) { if (o && !d) no++; else nk++ }; grab = 0; o = 0; d = 0 }
	/ (slab|page)_ret: \(.* arg1=0x1$/ { done(); grab = 1; print "failed:"; next }
	/ (slab|page)(_ret)?: \(/ { done(); next }
	grab && /^ => / {
		print
		if ($0 ~ osnre) o = 1
		if ($0 ~ dbgre) d = 1
		next
	}
	END { done(); print "faults_failed: osn=" no + 0 " kernel=" nk + 0 }' "$FT/trace"
}

# faults_tids PATTERN: the tasks whose comm matches the shell PATTERN.
faults_tids() {
	for _p in /proc/[0-9]*; do
		# shellcheck disable=SC2254 # a pattern on purpose
		case "$(cat "$_p/comm" 2>/dev/null)" in $1) echo "${_p#/proc/}" ;; esac
	done
}
