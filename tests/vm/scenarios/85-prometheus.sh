#!/bin/bash
# kernels: any
#   one kernel: what is tested is the tool's exposition read by Debian's node_exporter and Prometheus; the block pipeline's D2C against null_blk's completion_nsec is 56-storage-nullblk-time's, on 5.10 6.1 6.12 7.3
# A real Prometheus end to end, as docs/metrics.md and the stacklat
# package set it up: stacklat-metrics.service's command (ExecStart, read
# from the unit, the packaged /usr/sbin/stacklat being the tree's tool
# here) run every second, as its timer would at 1 s, writing into the
# unit's directory /var/lib/prometheus/node-exporter (a tmpfs on it: the
# guest's / is read-only); Debian's prometheus-node-exporter with only its
# textfile collector reading that directory; Debian's prometheus scraping
# it every second (tests/prometheus/prometheus.yml).  The delay: null_blk
# completing each read after T = 2.5 ms (irqmode=2): W direct reads
# (the disk's stages exist from its first request on), a scrape, N more.
# Then PromQL through the HTTP API:
#  - histogram_quantile(0.5, rate(stacklat_stage_seconds_bucket{
#    pipeline="block",stage="nullb0.D2C"}[1m])) lies in the export's
#    bucket that holds T: the export's buckets are le = 2^k - 1 ns
#    (docs/metrics.md), T is in (2^21 - 1, 2^22 - 1] ns = (2.097, 4.194]
#    ms and the device never completes early, so every sample is in that
#    bucket unless the emulator delays a completion by more than 1.69 ms
#    (which stacklat's own p50, printed beside it, would show): the
#    answer is within a factor of two of T, the export's resolution;
#  - the _count series is W + N (scraped after the reads), and every
#    stacklat_lost_*_total counter of the block pipeline the file holds is
#    a series Prometheus answers with the file's value.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

T=2500000
N=40
lo=0.002097151
hi=0.004194303
t00=$SECONDS
unit=$SL_REPO/debian/stacklat.stacklat-metrics.service
cmd=$(sed -n 's/^ExecStart=//p' "$unit")
dir=/var/lib/prometheus/node-exporter
assert_eq "stacklat-metrics.service's ExecStart" "/usr/sbin/stacklat metrics --textfile $dir" "$cmd"
[ -d "$dir" ] || fail "$dir missing: is prometheus-node-exporter installed on the host (tests/deps.sh)?"
prom=http://127.0.0.1:9090
cleanup() {
	[ -z "${bg:-}" ] || kill $bg 2>/dev/null || true
	wait 2>/dev/null || true
	umount "$dir" 2>/dev/null || true
}
trap cleanup EXIT

sl_nullblk 1 irqmode=2 completion_nsec=$T queue_mode=2 gb=1
sl_load
echo "enable block" > "$SL_DBG/control"
echo "filter block dev=nullb0" > "$SL_DBG/control"

mount -t tmpfs tmpfs "$dir"
# the timer's service, every second (the unit's words after the command)
# shellcheck disable=SC2086
(while :; do "$SL_TOOL" ${cmd#/usr/sbin/stacklat }; sleep 1; done) &
bg=$!
prometheus-node-exporter --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$dir" --web.listen-address=127.0.0.1:9100 > /tmp/ne.log 2>&1 &
bg="$bg $!"
t0=$SECONDS
prometheus --config.file="$SL_REPO/tests/prometheus/prometheus.yml" --storage.tsdb.path=/tmp/prom \
	--web.listen-address=127.0.0.1:9090 > /tmp/prom.log 2>&1 &
bg="$bg $!"
# q EXPR: the first value of an instant query's vector ("" when empty)
q() { curl -sf --data-urlencode "query=$1" "$prom/api/v1/query" | jq -r '.data.result[0].value[1] // empty'; }
# until EXPR VALUE SECS: poll until the query's value is VALUE
until_q() {
	local i
	for i in $(seq $(($3 * 5))); do
		[ "$(q "$1" 2>/dev/null)" = "$2" ] && return 0
		sleep 0.2
	done
	return 1
}
for _ in $(seq 300); do
	curl -sf "$prom/-/ready" > /dev/null 2>&1 && break
	sleep 0.2
done
curl -sf "$prom/-/ready" > /dev/null || fail "prometheus not ready after 60 s: $(tail -n 3 /tmp/prom.log)"
ready=$((SECONDS - t0))
sel='pipeline="block",stage="nullb0.D2C"'
# the disk's stages exist from its first request on: W reads, and a
# scrape of them before the N (the rate's start)
W=2
dd if=/dev/nullb0 of=/dev/null bs=4k count=$W iflag=direct status=none
until_q "stacklat_stage_seconds_count{$sel}" $W 60 ||
	fail "no scrape of stacklat_stage_seconds_count{$sel} = $W: up $(q "up"), the file: $(grep -c "$sel" "$dir/stacklat.prom" || true) lines of it"
first=$((SECONDS - t0))

dd if=/dev/nullb0 of=/dev/null bs=4k count=$N iflag=direct status=none
until_q "stacklat_stage_seconds_count{$sel}" $((W + N)) 30 ||
	fail "Prometheus's count is $(q "stacklat_stage_seconds_count{$sel}"), not $((W + N))"
expr="histogram_quantile(0.5, rate(stacklat_stage_seconds_bucket{$sel}[1m]))"
p50=$(q "$expr")
own=$("$SL_TOOL" show -j block | jq -r '.pipelines[].stages[] | select(.name == "nullb0.D2C") | .p50_ns')
echo "PromQL: $expr = $p50 s (injected T = $(awk -v t=$T 'BEGIN { print t / 1e9 }') s; bucket ($lo, $hi]; stacklat show's p50 $own ns)"
awk -v v="$p50" -v lo=$lo -v hi=$hi 'BEGIN { exit !(v + 0 >= lo && v + 0 <= hi) }' ||
	fail "PromQL p50 $p50 s is not in the bucket of T ($lo, $hi] s (stacklat's own p50 $own ns)"

# the loss counters: each of the file's block lines is a series with its
# value (the file as Prometheus last scraped it: the counters do not move)
n=0
while read -r name val; do
	got=$(q "$name")
	assert_eq "Prometheus's $name" "$val" "$got"
	n=$((n + 1))
done <<<"$(grep '^stacklat_lost_[a-z_]*_total{pipeline="block"}' "$dir/stacklat.prom")"
[ $n -gt 0 ] || fail "no stacklat_lost_*_total line for block in the file"
lost1=$(grep -m1 '^stacklat_lost_[a-z_]*_total{pipeline="block"}' "$dir/stacklat.prom" | cut -d' ' -f1)
echo "PromQL: $lost1 = $(q "$lost1") ($n stacklat_lost_*_total counters of block queried, each the file's value)"
pass "Prometheus (1 s scrapes of node_exporter's textfile): p50 of nullb0.D2C $p50 s for T = 2.5 ms, in its bucket ($lo, $hi]; count $((W + N)); $n stacklat_lost_*_total of block; prometheus ready in ${ready}s, first scrape at ${first}s, $((SECONDS - t00)) s in all"
