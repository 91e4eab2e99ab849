#!/bin/bash
# 20 load/unload cycles in a row under traffic (syscalls, loopback TCP,
# file I/O), every pipeline enabled in each cycle: dmesg stays silent and
# the module leaves nothing behind.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/traffic.sh"

# the first load prints the taint lines once; get them out of the way
sl_load
sl_unload
dmesg -C
traffic_start 120
trap traffic_stop EXIT
for i in $(seq 1 20); do
	sl_load
	echo "func add __x64_sys_getppid" > "$SL_DBG/control"
	for p in $(sl_pipelines); do
		echo "enable $p" > "$SL_DBG/control"
	done
	sleep 0.3
	[ $((i % 2)) = 0 ] && echo "reset" > "$SL_DBG/control"
	sl_unload
done
traffic_stop
trap - EXIT
out=$(sl_dmesg)
[ -z "$out" ] || fail "dmesg not silent over 20 load/unload cycles: $(head -n 5 <<<"$out")"
pass "20 load/unload cycles under traffic, dmesg silent"
