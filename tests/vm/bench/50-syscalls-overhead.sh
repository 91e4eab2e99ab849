#!/bin/bash
# Per-event cost of the syscalls pipeline (raw_syscalls sys_enter and
# sys_exit, one keyed-table update per call): a tight loop of getppid(2)
# with no module, loaded idle, and with syscalls enabled.  See bench.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

N=${BENCH_N:-200000}
arm() { echo "enable syscalls" > "$SL_DBG/control"; }
bench_compare syscalls-getppid "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-spin -n $N -t 1" arm
