#!/bin/sh
# timeout: 150
# make demo: inject known noise on CPU 1 and let osn measure it.  Uses
# whatever exists: `osn top` if the CLI was built, else osn's events in a
# tracefs instance, else only the injector's own report.
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
if [ -e "$OSN_KO/osn_inject.ko" ]; then
	inject_load
	# Hard-IRQ noise: 300 us every 50 ms, for the whole demo.
	n=$((DUR * 20 + 20))
	inject_start irq 1 $n 300 50000
	echo "== injecting $n x 300 us hard-IRQ stalls (hrtimer) on CPU 1, every 50 ms"
	# Thread noise would need a second run; one context at a time.
fi

if [ $have_osn = 1 ] && [ -x "$OSN_BIN/osn" ]; then
	echo "== osn top -c 1 -d ${DUR}s"
	"$OSN_BIN/osn" top -c 1 -d "${DUR}s" -q 2>&1 || echo "(osn top exited $?)"
elif [ $have_osn = 1 ]; then
	echo "== tools/osn not built: osn events of CPU 1 for ${DUR}s"
	i=$(new_instance demo)
	echo 0 >"$i/tracing_on"
	echo 1 >"$i/tracing_cpumask" 2>/dev/null
	echo 2 >"$i/tracing_cpumask" 2>/dev/null
	for ev in sample irq_noise softirq_noise thread_noise sample_threshold; do
		echo 1 >"$i/events/osn/$ev/enable" 2>/dev/null
	done
	echo 1 >"$i/tracing_on"
	sleep "$DUR"
	echo 0 >"$i/tracing_on"
	echo "-- noise events by kind:"
	grep -Eo ' (irq_noise|softirq_noise|thread_noise|sample_threshold|sample): ' "$i/trace" |
		sort | uniq -c
	echo "-- first irq_noise events:"
	grep ' irq_noise: ' "$i/trace" | head -n 10
	echo "-- samples:"
	grep ' sample: ' "$i/trace" | tail -n 5
else
	sleep "$DUR"
fi

if mod_loaded osn_inject; then
	echo stop >"$INJ/inject"
	echo "== ground truth (osn_inject): $(inject_status)"
fi
exit 0
