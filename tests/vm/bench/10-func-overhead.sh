#!/bin/bash
# Per-event cost of the update path: a tight loop of getppid(2) with no
# module, with the module loaded but nothing armed, and with a kretprobe
# armed on __x64_sys_getppid recording into a histogram (one event per
# call).  See bench.sh for how the rounds are run and reported.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

N=${BENCH_N:-200000}
arm() {
	echo "func add __x64_sys_getppid" > "$SL_DBG/control"
	echo "enable func" > "$SL_DBG/control"
}
bench_compare func-kretprobe "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-spin -n $N -t 1" arm
