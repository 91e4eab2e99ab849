#!/bin/bash
# The slow-event path: the getppid loop of 10-func-overhead.sh with the
# func pipeline on that function and a threshold of 1 ns, so every call
# writes one event record, while a reader drains them: `cat` of the debugfs
# events file, `stacklat events` (netlink, text lines) and `stacklat events
# -j` (JSON lines).  The writer makes more events than any reader takes
# (a full ring counts the rest as overruns), so what a reader read in the
# time it ran is its sustained rate.  The reader runs on the guest's other
# CPU; under single-threaded TCG its time is part of the wall time
# measured.  Event cost = events-cat's cost_per_op_ns minus
# func-kretprobe's (10-func-overhead.sh).  See bench.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

# the engine before events had no rings to read: no baseline case
unset SL_KO_BASE
# every event written, none over a rate: what one costs
# shellcheck disable=SC2034 # read by bench.sh
BENCH_LOAD=event_rate=0
N=${BENCH_N:-200000}
reader='' rd0='' t0=''
rd() { sed -n 's/^events: .* read \([0-9]*\),.*/\1/p' "$SL_DBG/status"; }
arm() {
	echo "func add __x64_sys_getppid" > "$SL_DBG/control"
	echo "enable func" > "$SL_DBG/control"
	echo "threshold func 1" > "$SL_DBG/control"
	rd0=$(rd)
	t0=$(date +%s%N)
	case $how in
	cat) cat "$SL_DBG/events" > /dev/null & ;;
	text) "$SL_TOOL" events func > /dev/null 2>&1 & ;;
	json) "$SL_TOOL" events -j func > /dev/null & ;;
	esac
	reader=$!
}
disarm() {
	local rd1 t1

	rd1=$(rd)
	t1=$(date +%s%N)
	kill "$reader" 2>/dev/null || true
	wait "$reader" 2>/dev/null || true
	grep '^events:' "$SL_DBG/status" || true
	echo "STACKLAT-BENCH events-reader-$how kernel=$KERNEL read=$((rd1 - rd0)) ms=$(((t1 - t0) / 1000000)) events_per_s=$(((rd1 - rd0) * 1000000000 / (t1 - t0)))"
}
for how in cat text json; do
	bench_compare "events-$how" "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-spin -n $N -t 1" arm disarm
done
