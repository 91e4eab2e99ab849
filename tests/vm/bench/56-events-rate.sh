#!/bin/bash
# Can `stacklat events` keep up?  getppid(2) paced at RATE calls a second
# for 2 s (sl-spin -r: 1 ms batches) with the func pipeline on it and a
# threshold of 1 ns: RATE events a second into CPU 0's ring of 4096
# records, read by `stacklat events` (text lines) and then `stacklat events
# -j` (JSON lines) to /dev/null.  Kept up = no overrun: every event the
# generator made was written to the ring and read.  Reported per reader:
# made, read, overruns.  The generator shares the guest with the reader (under
# single-threaded TCG, one host thread for both CPUs).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

SECS=2
# every event written: the rate the readers sustain, not the limit
sl_load event_rate=0 event_records=4096
echo "func add __x64_sys_getppid" > "$SL_DBG/control"
echo "enable func" > "$SL_DBG/control"
st() { sed -n 's/^events: .*written \([0-9]*\), read \([0-9]*\), overruns \([0-9]*\) .*/\1 \2 \3/p' "$SL_DBG/status"; }
for rate in ${BENCH_EV_RATES:-25000 50000 100000}; do
	for how in text json; do
		echo "threshold func 0" > "$SL_DBG/control"
		"$SL_TOOL" events -d 0.2 func > /dev/null 2>&1 || true	# empty the rings
		echo "threshold func 1" > "$SL_DBG/control"
		read -r w0 r0 o0 <<< "$(st)"
		if [ $how = json ]; then
			"$SL_TOOL" events -j func > /dev/null &
		else
			"$SL_TOOL" events func > /dev/null 2>&1 &
		fi
		reader=$!
		sleep 0.3
		"$SL_REPO/tests/vm/helpers/sl-spin" -t 1 -r "$rate" -n $((rate * SECS)) > /dev/null
		# the reader polls every 2 ms when the rings are empty: 0.5 s is
		# ample for it to take the last batch
		sleep 0.5
		kill -INT "$reader"
		wait "$reader" || true
		read -r w1 r1 o1 <<< "$(st)"
		echo "STACKLAT-BENCH events-rate-$how kernel=$KERNEL offered_per_s=$rate made=$((rate * SECS)) written=$((w1 - w0)) read=$((r1 - r0)) overruns=$((o1 - o0)) kept_up=$([ $((o1 - o0)) = 0 ] && [ $((r1 - r0)) = $((w1 - w0)) ] && echo yes || echo no)"
	done
done
echo "threshold func 0" > "$SL_DBG/control"
sl_unload
