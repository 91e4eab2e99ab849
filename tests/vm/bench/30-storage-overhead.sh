#!/bin/bash
# Cost of the storage layers: pread(2) of 4 KiB from the page cache of a
# file on the ext4 scratch disk (syscall, vfs_read and ext4_file_read_iter:
# three kretprobes per call, no I/O) with no module, loaded idle, and with
# the storage pipeline enabled.  See bench.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

N=${BENCH_N:-100000}
dir=${SL_MNT:-/tmp}
f=$dir/sl-bench.dat
dd if=/dev/zero of="$f" bs=4k count=1 status=none
arm() { echo "enable storage" > "$SL_DBG/control"; }
bench_compare storage-pread "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop pread $f $N" arm
rm -f "$f"
