#!/bin/sh
# timeout: 240
# make demo: inject known noise on CPU 1 and let osn measure and explain
# it.  Uses whatever exists: the osn CLI if it was built (osn top with its
# culprits and report page, then a stop with its explanation), else osn's
# events in a tracefs instance, else only the injector's own report.
. "$OSN_TESTS/guest/lib.sh"

DUR=${DEMO_SECONDS:-10}
echo "== osn demo on $(uname -r) ($(nr_cpus) CPUs, PREEMPT_RT=$OSN_RT)"
have_osn=0
if [ -e "$OSN_KO/osn.ko" ]; then
	osn_load
	have_osn=1
	echo "== loaded osn.ko"
else
	echo "== osn.ko was not built: showing the injector alone"
fi
have_inj=0
if [ -e "$OSN_KO/osn_inject.ko" ]; then
	inject_load
	have_inj=1
fi

# events_demo: without the CLI, osn's own events of CPU 1 for DUR s, with
# 300 us hard-IRQ stalls every 50 ms injected.
events_demo() {
	i=$(new_instance demo)
	echo 0 >"$i/tracing_on"
	echo 2 >"$i/tracing_cpumask" 2>/dev/null
	for ev in sample irq_noise softirq_noise thread_noise sample_threshold; do
		echo 1 >"$i/events/osn/$ev/enable" 2>/dev/null
	done
	echo 1 >"$i/tracing_on"
	[ $have_inj = 1 ] && inject_start irq 1 $((DUR * 20 + 20)) 300 50000
	sleep "$DUR"
	echo 0 >"$i/tracing_on"
	echo "-- noise events by kind:"
	grep -Eo ' (irq_noise|softirq_noise|thread_noise|sample_threshold|sample): ' "$i/trace" |
		sort | uniq -c
	echo "-- first irq_noise events:"
	grep ' irq_noise: ' "$i/trace" | head -n 10
	echo "-- samples:"
	grep ' sample: ' "$i/trace" | tail -n 5
}

# cli_demo: osn top of CPU 1 while the injector's sender kthread on CPU 0
# queues work items on CPU 1 (the noise arrives from another CPU, which
# --causes names), then osn top -s stopping on a 300 ms work item and
# explaining it.  The report page goes back to the host.
cli_demo() {
	. "$OSN_TESTS/guest/cli/cli.sh"
	rm -rf "$CLI_OUT"
	mkdir -p "$CLI_OUT"
	on_exit cli_cleanup
	# the demo's own processes stay off the measured CPU 1
	taskset -p 1 $$ >/dev/null 2>&1
	n=$((DUR * 20))
	echo "== osn top -c 1 -d ${DUR}s --causes --report (1 ms work items queued on CPU 1 from CPU 0, every 50 ms)"
	cli_start "$CLI_OUT/top.txt" top -c 1 -d "${DUR}s" -q --causes \
		--report "$CLI_OUT/report.html"
	[ $have_inj = 1 ] && cli_inject_collecting osn_top work 1 $n 1000 50000
	cli_wait_end
	[ $have_inj = 1 ] && { echo stop >"$INJ/inject"; inject_wait 30; }
	cat "$CLI_OUT/top.txt"
	[ $have_inj = 1 ] && echo "== ground truth (osn_inject): $(inject_status)"
	[ -s "$CLI_OUT/report.html" ] && hand_back "$CLI_OUT/report.html" demo-report.html
	[ $have_inj = 1 ] || return 0

	# single-threaded TCG makes gaps of 100-140 ms on its own: stop above
	# them, and stall longer
	echo "== osn top -c 1 -s 200000: a 300 ms work item queued from CPU 0 stops it, and osn says why"
	cli_start "$CLI_OUT/stop.txt" top -c 1 -p 200000 -r 200000 -T 20 \
		-s 200000 -d 60 -q
	cli_inject_collecting osn_top work 1 20 300000 700000
	cli_wait_end
	echo stop >"$INJ/inject"
	inject_wait 60
	cat "$CLI_OUT/stop.txt"
	echo "== osn top exited $RC (2: a stop)"
}

if [ $have_osn = 1 ] && [ -x "$OSN_BIN/osn" ]; then
	cli_demo
elif [ $have_osn = 1 ]; then
	echo "== tools/osn not built: osn events of CPU 1 for ${DUR}s"
	events_demo
elif [ $have_inj = 1 ]; then
	inject_start irq 1 $((DUR * 20 + 20)) 300 50000
	sleep "$DUR"
fi

if [ $have_inj = 1 ] && mod_loaded osn_inject; then
	echo stop >"$INJ/inject"
	echo "== ground truth (osn_inject): $(inject_status)"
fi
exit 0
