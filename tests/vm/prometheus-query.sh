#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# prometheus-query.sh DIR - a real Prometheus server (Debian's prometheus
# package) over what cli/98-monitor handed back: DIR/monitor-before.prom
# and DIR/monitor-after.prom (osn monitor's GET /metrics just before and
# after 50 injected 3 ms runs of the thread osn_inject/1 on CPU 1) and
# DIR/monitor-truth.txt (the injector's "done=N stolen_ns=NS").
# busybox httpd serves the first scrape, then the second, to the server
# (scrape_interval 1s), whose HTTP API is asked
#   max_over_time(S[5m]) - min_over_time(S[5m])
# for S = osn_noise_seconds_total{cpu="1",source="osn_inject/1"}: the
# injected time, which must be within 10 % of the injector's, and the same
# for osn_noise_events_total and its count.
# Prints the protocol lines of one test, host/prometheus-query; skipped
# (no line) without prometheus.  Exit status 0 unless it failed.
set -uo pipefail
dir=$1
name=host/prometheus-query
command -v prometheus >/dev/null || exit 0
bb=$(command -v busybox) || { echo "OSN-TEST-NOTE: $name no busybox"; echo "OSN-TEST: FAIL $name 0s"; exit 1; }
for f in monitor-before.prom monitor-after.prom monitor-truth.txt; do
	[ -s "$dir/$f" ] || exit 0	# the guest test failed first: nothing to query
done
t0=$(date +%s)
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "OSN-TEST-NOTE: $name $*"
	echo "OSN-TEST: FAIL $name $(($(date +%s) - t0))s"
	exit 1
}

# two free ports: the exporter's stand-in and the server
free_port() {
	local p
	for p in $(shuf -i 20000-60000 -n 50); do
		# something answers there: taken (bash's /dev/tcp)
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}
wport=$(free_port) pport=$(free_port)
[ "$wport" != "$pport" ] || pport=$((wport + 1))
mkdir -p "$tmp/www" "$tmp/data"
cp "$dir/monitor-before.prom" "$tmp/www/metrics"
"$bb" httpd -f -p "127.0.0.1:$wport" -h "$tmp/www" &
pids+=($!)
cat >"$tmp/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: osn
    static_configs:
      - targets: ['127.0.0.1:$wport']
EOC
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" >"$tmp/prometheus.log" 2>&1 &
pids+=($!)

# query EXPR: the value of an instant query's first series ("" if none)
query() {
	"$bb" wget -q -O - "http://127.0.0.1:$pport/api/v1/query?query=$(jq -rn --arg q "$1" '$q|@uri')" 2>/dev/null |
		jq -r '.data.result[0].value[1] // empty' 2>/dev/null
}
# wait_for N EXPR: until EXPR's value is >= N (30 s at most)
wait_for() {
	local i v
	for i in $(seq 300); do
		v=$(query "$2")
		[ -n "$v" ] && awk -v v="$v" -v n="$1" 'BEGIN { exit !(v >= n) }' && return 0
		sleep 0.1
	done
	return 1
}

S='osn_noise_seconds_total{cpu="1",source="osn_inject/1"}'
C='osn_noise_events_total{cpu="1",source="osn_inject/1"}'
wait_for 3 "count_over_time(osn_up[5m])" ||
	fail "Prometheus did not scrape the first file in 30 s: $(tail -n 3 "$tmp/prometheus.log")"
cp "$dir/monitor-after.prom" "$tmp/www/metrics.new" && mv "$tmp/www/metrics.new" "$tmp/www/metrics"
wait_for 0.000001 "max_over_time($S[5m]) - min_over_time($S[5m])" ||
	fail "Prometheus did not scrape the second file in 30 s"
sleep 1
secs=$(query "max_over_time($S[5m]) - min_over_time($S[5m])")
count=$(query "max_over_time($C[5m]) - min_over_time($C[5m])")
read -r done stolen < <(sed -n 's/.*done=\([0-9]*\).*stolen_ns=\([0-9]*\).*/\1 \2/p' "$dir/monitor-truth.txt")
echo "OSN-TEST-NOTE: $name PromQL: +$secs s, +$count noises of osn_inject/1; injected $done, $stolen ns"
awk -v s="$secs" -v t="$stolen" 'BEGIN { exit !(s * 1e9 >= 0.9 * t && s * 1e9 <= 1.1 * t) }' ||
	fail "PromQL says $secs s, the injector $stolen ns: not within 10 %"
awk -v c="$count" -v d="$done" 'BEGIN { exit !(c >= d && c <= 1.1 * d) }' ||
	fail "PromQL says $count noises, the injector $done: not within 10 %"
echo "OSN-TEST: PASS $name $(($(date +%s) - t0))s"
