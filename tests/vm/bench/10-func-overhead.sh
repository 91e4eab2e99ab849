#!/bin/bash
# Per-event cost of the update path, measured in one boot: a tight loop of
# getppid(2) with no module, with the module loaded but nothing armed, and
# with a kretprobe armed on __x64_sys_getppid recording into a histogram.
# Rounds alternate the cases; medians are reported as ns/call, the armed
# minus disarmed difference as ns/event, and the armed/disarmed ratio.
# Absolute numbers under TCG mean little; the ratio and difference, taken in
# the same boot, are the figures to compare.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

N=${BENCH_N:-200000}
R=${BENCH_ROUNDS:-5}
SPIN=$SL_REPO/tests/vm/helpers/sl-spin
declare -a none loaded armed

run() { "$SPIN" -n "$N" -t 1 | sed -n 's/.*ns_per_call=\([0-9.]*\).*/\1/p'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

for r in $(seq 1 "$R"); do
	none+=("$(run)")
	sl_load
	loaded+=("$(run)")
	echo "func add __x64_sys_getppid" > "$SL_DBG/control"
	echo "enable func" > "$SL_DBG/control"
	armed+=("$(run)")
	sl_unload
done
m0=$(median "${none[@]}")
m1=$(median "${loaded[@]}")
m2=$(median "${armed[@]}")
echo "STACKLAT-BENCH func-kretprobe kernel=$KERNEL calls=$N rounds=$R no_module_ns=$m0 loaded_idle_ns=$m1 armed_ns=$m2"
awk -v a="$m2" -v b="$m1" -v c="$m0" -v k="$KERNEL" 'BEGIN {
	printf "STACKLAT-BENCH func-kretprobe kernel=%s per_event_ns=%.1f ratio_armed_vs_idle=%.2f ratio_idle_vs_none=%.3f\n", k, a - b, a / b, b / c
}'
