#!/bin/bash
# Per-I/O cost of the block pipeline (queue, dispatch, completion of every
# request) and of disktop (one keyed-table update per bio at
# block_bio_queue): O_DIRECT 4 KiB reads of a null_blk disk, one bio each.
# See bench.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

# 100,000 I/Os (about 1 s a loop under TCG): with 20,000 a cost paid once
# per measurement after loading and arming showed as 1-3 us an I/O (idle
# 15% above no module, nothing armed)
N=${BENCH_DIO_N:-100000}
sl_modprobe null_blk nr_devices=1
[ -b /dev/nullb0 ] || fail "no /dev/nullb0 after modprobe null_blk"
run="$SL_REPO/tests/vm/helpers/sl-loop dio /dev/nullb0 $N"
arm_block() { echo "enable block" > "$SL_DBG/control"; }
arm_disktop() { echo "enable disktop" > "$SL_DBG/control"; }
bench_compare block-dio "${BENCH_ROUNDS:-5}" "$run" arm_block
bench_compare disktop-dio "${BENCH_ROUNDS:-5}" "$run" arm_disktop
rmmod null_blk
