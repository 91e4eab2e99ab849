#!/bin/bash
# Memory (issue 31): what the module takes, loaded and idle, each pipeline
# enabled alone, and everything enabled with a threshold set, on this
# boot's possible and online CPUs.  Run it on a boot with more possible
# than online CPUs too:
#   SCENARIOS=60 tests/vm/run.sh --bench 6.1+manycpus   (1024 possible, 2 online)
# The module's own accounting (status -j: each pipeline's memory_bytes -
# its histograms, keyed and stack tables -, the event rings' bytes, the
# in-flight table's slots) and the kernel's: /proc/meminfo's Percpu (in
# chunks, so coarse), SUnreclaim and the module's vmalloc areas; the
# module's static per-CPU section from its ELF.  Lines:
#   STACKLAT-BENCH memory pipeline=P bytes=B each_online_cpu=C shared=S
#   STACKLAT-BENCH memory-total case=idle|all ... each_online_cpu=C
#     hist_cpu=H keyed_cpu=K ring_cpu=R (C's parts; K from each keyed
#     table's cpu_rows_now x row_bytes_cpu x 2, so about)
#     per_possible_cpu=(C x online + (static + counters) x possible) / possible
#     shared=S (keyed tables' folded rows, stack tables: not per CPU)
#   STACKLAT-BENCH memory-hist stages=N with_samples=U ... (what the
#     histogram copies hold after 2 s all enabled: see below)
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

ncpu() { # CPUs in a list such as "0-1023" or "0,2-5"
	local n=0 r
	IFS=, read -ra rs < "$1"
	for r in "${rs[@]}"; do n=$((n + ${r#*-} - ${r%-*} + 1)); done
	echo $n
}
poss=$(ncpu /sys/devices/system/cpu/possible)
onl=$(ncpu /sys/devices/system/cpu/online)
kv() { awk -v k="$1:" '$1 == k { print $2 * 1024 }' /proc/meminfo; }
vm() { grep -E '\[stacklat\]' /proc/vmallocinfo | awk '{ s += $2 } END { print s + 0 }'; }
hex=$(objdump -h "$SL_KO" | awk '$2 == ".data..percpu" { print $3 }')
pcpu_static=$((16#${hex:-0}))
pipes() { "$SL_TOOL" status -j | jq -r '.pipelines[].pipeline'; }

base_pc=$(kv Percpu) base_su=$(kv SUnreclaim)
sl_load
total() { # CASE: the module's and the kernel's counts now
	local j mod cpu
	j=$("$SL_TOOL" status -j)
	mod=$(jq '([.pipelines[].memory_bytes // 0] | add) + (.events.bytes // 0)' <<<"$j")
	# each online CPU's: histogram copies, keyed buffers, its event ring
	cpu=$(jq '([.pipelines[].memory_cpu_bytes // 0] | add) + ((.events.bytes // 0) / ([.events.rings, 1] | max) | floor)' <<<"$j")
	# of which: keyed buffers (two of cpu_rows_now rows, about
	# row_bytes_cpu each), the ring; the rest is histogram copies
	keyed=$(jq '[.pipelines[].keyed // empty | 2 * (.cpu_rows_now // .cpu_rows) * .row_bytes_cpu] | add // 0' <<<"$j")
	ring=$(jq '(.events.bytes // 0) / ([.events.rings, 1] | max) | floor' <<<"$j")
	# on every possible CPU from load (alloc_percpu): each hook's hit and
	# miss counters (16 bytes), each pipeline's losses (8 bytes a loss)
	dyn=$(jq '([.pipelines[].hooks | length] | add) * 16 + (.pipelines | length) * ([.pipelines[0].losses | length, 13] | max) * 8' <<<"$j")
	echo "STACKLAT-BENCH memory-total case=$1 kernel=$KERNEL possible=$poss online=$onl module_bytes=$mod flight_vmalloc=$(vm) percpu_static=$pcpu_static percpu_counters=$dyn percpu_delta=$(($(kv Percpu) - base_pc)) sunreclaim_delta=$(($(kv SUnreclaim) - base_su)) each_online_cpu=$cpu hist_cpu=$((cpu - keyed - ring)) keyed_cpu=$keyed ring_cpu=$ring per_possible_cpu=$(((cpu * onl + (pcpu_static + dyn) * poss) / poss)) shared=$((mod - cpu * onl))"
}
total idle
for p in $(pipes); do
	echo "enable $p" > "$SL_DBG/control" 2>/dev/null || { note "enable $p refused"; continue; }
	read -r b c <<<"$("$SL_TOOL" status -j | jq -r --arg p "$p" '.pipelines[] | select(.pipeline == $p) | "\(.memory_bytes // 0) \(.memory_cpu_bytes // 0)"')"
	echo "STACKLAT-BENCH memory pipeline=$p kernel=$KERNEL possible=$poss online=$onl bytes=$b each_online_cpu=$c shared=$((b - c * onl))"
	echo "disable $p" > "$SL_DBG/control"
done
for p in $(pipes); do
	echo "enable $p" > "$SL_DBG/control" 2>/dev/null || true
	echo "threshold $p 1000000000" > "$SL_DBG/control" 2>/dev/null || true
done
total all
# What the histograms' copies hold (for a compact per-CPU form, issue
# 31): after 2 s of this idle guest with everything enabled, the stages
# that saw a sample, and of those the non-empty buckets and the powers of
# two they span (16 sub-buckets each) - the most in one stage and in all.
sleep 2
stages=0 used=0 buckets=0 bmax=0 groups=0 gmax=0
for p in $(pipes); do
	read -r a u b bm g gm <<<"$("$SL_TOOL" hist -j "$p" 2>/dev/null | jq -r '
		def lg: if . < 32 then 0 else (. / 2 | floor | lg) + 1 end;
		[.pipelines[].stages[]] as $s
		| [$s[] | select(.count > 0)] as $u
		| [$u[] | .buckets | length] as $b
		| [$u[] | [.buckets[] | .[0] | lg] | unique | length] as $g
		| "\($s | length) \($u | length) \($b | add // 0) \($b | max // 0) \($g | add // 0) \($g | max // 0)"' || echo "0 0 0 0 0 0")"
	stages=$((stages + a)) used=$((used + u)) buckets=$((buckets + b)) groups=$((groups + g))
	[ "$bm" -le "$bmax" ] || bmax=$bm
	[ "$gm" -le "$gmax" ] || gmax=$gm
done
echo "STACKLAT-BENCH memory-hist kernel=$KERNEL stages=$stages with_samples=$used buckets_nonempty=$buckets buckets_max_stage=$bmax pow2_groups=$groups pow2_groups_max_stage=$gmax"
for p in $(pipes); do echo "disable $p" > "$SL_DBG/control" 2>/dev/null || true; done
sl_unload
