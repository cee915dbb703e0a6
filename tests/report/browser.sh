#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# browser.sh - the --report page in a real browser: headless Chromium
# (Debian's chromium) loads reports written on the host from recorded data
# (tests/unit/test_report --write: osn top's and osn hist's page of a fixed
# run; tests/unit/test_compare --write: osn compare's pages of two top and
# two hist runs) and, when a guest run handed them back, the reports of cli/97 of
# the newest guest run (build/vm/<kernel>/files/*.html).  Each page must load without an error
# that matters, and its DOM must hold the charts with the number of
# elements the run gives (sections, lines and their points, bars, marks).
# The screenshots stay in build/report/*.png for a person to look at.
#
# Then a benchmark, printed, not judged: 8 CPUs x 3600 periods x 10^6
# samples, the file's size and Chromium's time to render it.
#
# No chromium: skipped, except in CI (CI=true), where install-deps.sh
# installs it and its absence fails.
# Ends with "N passed, N failed, N skipped".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../vm/common.sh"

out=$OSN_BUILD/report
mkdir -p "$out"
pass=0 fail=0 skip=0

ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
check() {	# check NAME GOT WANT
	if [ "$2" = "$3" ]; then ok "$1 ($2)"; else bad "$1: $2, expected $3"; fi
}

# OSN_CHROMIUM: the browser to use ("" acts as if none were installed)
browser=${OSN_CHROMIUM-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$browser" ]; then
	if [ "${CI:-}" = true ]; then
		bad "chromium is not installed (CI: tests/install-deps.sh installs it)"
	else
		echo "SKIP chromium is not installed (apt-get install chromium)"
		skip=1
	fi
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" = 0 ]
	exit
fi

gen=$OSN_ROOT/tests/unit/obj/plain/test_report
make -C "$OSN_ROOT/tools" "$gen" >"$out/make.log" 2>&1 ||
	{ bad "build of test_report (see $out/make.log)"; echo "$pass passed, $fail failed, $skip skipped"; exit 1; }

# render FILE: FILE.dom, FILE.png, FILE.err; prints the ms it took
render() {
	local t0 t1 base=${1%.html}

	t0=$(date +%s%N)
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --window-size=1280,2400 \
		--screenshot="$base.png" "file://$1" >/dev/null 2>"$base.err"
	t1=$(date +%s%N)
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--dump-dom "file://$1" >"$base.dom" 2>>"$base.err"
	echo $(((t1 - t0) / 1000000))
}

# count FILE PATTERN: occurrences (grep -o)
count() { grep -o -- "$2" "$1" | wc -l; }

# loaded NAME FILE: the page loaded, whole, without an error that matters
loaded() {
	local base=${2%.html}

	if [ -s "$base.png" ] && [ "$(head -c 8 "$base.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]; then
		ok "$1: screenshot $base.png"
	else
		bad "$1: no screenshot"
	fi
	check "$1: DOM complete" "$(count "$base.dom" '</html>')" 1
	# Chromium's own chatter (dbus, GPU, fontconfig) does not matter; the
	# page's errors would be console messages or failed loads
	if grep -Eiq 'Uncaught|SyntaxError|net::ERR_|Failed to load|CONSOLE' "$base.err"; then
		bad "$1: errors: $(grep -Ei 'Uncaught|SyntaxError|net::ERR_|Failed to load|CONSOLE' "$base.err" | head -n 3)"
	else
		ok "$1: no page error"
	fi
	check "$1: no script" "$(count "$base.dom" '<script')" 0
}

# ---- osn top's page of the fixture run: 2 CPUs, 60 periods -----------------
f=$out/top.html
"$gen" --write "$f" || bad "test_report --write $f"
render "$f" >/dev/null
d=$out/top.dom
loaded "top" "$f"
check "top: CPU sections" "$(count "$d" '<section class="cpu"')" 2
check "top: time charts" "$(count "$d" 'class="chart time"')" 2
check "top: histogram charts" "$(count "$d" 'class="chart hist"')" 2
check "top: lines" "$(count "$d" '<polyline')" 4
check "top: points of CPU 0's noise line" \
	"$(grep -o '<polyline points="[^"]*"' "$d" | head -n 1 | tr ' ' '\n' | grep -c ,)" 60
# max single samples of 1000..1059 ns: [512, 1024) and [1024, 2048) ns
check "top: bars" "$(count "$d" 'class="bar"')" 4
check "top: percentile marks" "$(count "$d" 'class="pct"')" 8
# IRQ and Thread on 2 CPUs by class, then one thread and one IRQ by source
check "top: stacked segments" "$(count "$d" 'class="seg c-\(irq\|thread\)"')" 6
check "top: source segments" "$(grep -A100000 'chart source' "$d" | count /dev/stdin 'class="seg ')" 2
grep -q '&lt;kworker&gt;' "$d" && ok "top: task name escaped" || bad "top: task name not escaped"

# ---- osn hist's page: the same with 40 buckets (+ 1 over on CPU 2) ---------
f=$out/hist.html
"$gen" --write "$f" --hist || bad "test_report --write $f --hist"
render "$f" >/dev/null
d=$out/hist.dom
loaded "hist" "$f"
check "hist: histogram charts" "$(count "$d" 'class="chart hist"')" 2
check "hist: bars" "$(count "$d" 'class="bar"')" 81
check "hist: percentile marks" "$(count "$d" 'class="pct"')" 8

# ---- osn compare --report: two top runs (culprits), two hist runs ---------
cgen=$OSN_ROOT/tests/unit/obj/plain/test_compare
if make -C "$OSN_ROOT/tools" "$cgen" >"$out/make-compare.log" 2>&1 &&
   "$cgen" --write "$out"; then
	f=$out/compare-top.html
	render "$f" >/dev/null
	d=$out/compare-top.dom
	loaded "compare top" "$f"
	check "compare top: verdict lines" "$(count "$d" '<li>')" 3
	check "compare top: verdict before the runs" \
		"$(grep -o 'id="verdict"\|id="runs"' "$d" | head -n 1)" 'id="verdict"'
	check "compare top: CPU sections (1, 2, all)" "$(count "$d" '<section class="cpu"')" 3
	check "compare top: class charts" "$(count "$d" 'class="chart classes"')" 3
	check "compare top: class bars (5 classes x 2 runs x 3)" "$(count "$d" 'class="cbar run')" 30
	check "compare top: culprit charts" "$(count "$d" 'class="chart culprits"')" 1
	check "compare top: culprit bars" "$(count "$d" 'class="ubar run')" 2
	f=$out/compare-hist.html
	render "$f" >/dev/null
	d=$out/compare-hist.dom
	loaded "compare hist" "$f"
	check "compare hist: overlaid histograms" "$(count "$d" 'class="chart overlay"')" 1
	check "compare hist: one line per run" "$(count "$d" '<polyline')" 2
	check "compare hist: bucket dots" "$(count "$d" 'class="dot run')" 4
else
	bad "test_compare --write $out (see $out/make-compare.log)"
fi

# ---- what the guest handed back (cli/97), if a guest run did ---------------
# (the newest kernel run's only: a matrix has ten, each a few seconds here)
gdir=$(ls -td "$OSN_BUILD"/vm/*/files 2>/dev/null | head -n 1)
for f in ${gdir:+"$gdir"/*.html}; do
	[ -e "$f" ] || continue
	k=$(basename "$(dirname "$(dirname "$f")")")
	g=$out/guest-$k-$(basename "$f")
	cp "$f" "$g"
	render "$g" >/dev/null
	loaded "guest $k $(basename "$f")" "$g"
	d=${g%.html}.dom
	check "guest $k $(basename "$f"): lines as in the file" \
		"$(count "$d" '<polyline')" "$(count "$g" '<polyline')"
	check "guest $k $(basename "$f"): bars as in the file" \
		"$(count "$d" 'class="bar"')" "$(count "$g" 'class="bar"')"
done

# ---- many CPUs: the heat map ---------------------------------------------------
f=$out/many.html
if "$gen" --write "$f" --many; then
	render "$f" >/dev/null
	loaded "64 CPUs" "$f"
	check "64 CPUs: one heat map" "$(count "${f%.html}.dom" 'class="chart heat"')" 1
	check "64 CPUs: no time chart per CPU" "$(count "${f%.html}.dom" 'class="chart time"')" 0
	check "64 CPUs: a row per CPU" "$(count "${f%.html}.dom" 'class="heat0"><title>CPU ')" 64
else
	bad "test_report --write $f --many"
fi

# ---- benchmark: a large run --------------------------------------------------
f=$out/big.html
if "$gen" --write "$f" --big; then
	ms=$(render "$f")
	size=$(stat -c %s "$f")
	loaded "big" "$f"
	echo "benchmark: 8 CPUs x 3600 periods x 10^6 samples (osn hist): $size bytes, Chromium screenshot in $ms ms (not judged)"
else
	bad "test_report --write $f --big"
fi

echo "PNGs: $out/*.png"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
