#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The sampling curve (issue 31, item 3): the added time per operation at
# "sample PIPELINE S", S = 1, 4, 16, 64, for the pipelines that sample:
#  - func on __x64_sys_getppid, a getppid(2) loop (sl-spin, one thread):
#    STACKLAT-BENCH func-sample-S;
#  - net_rx and net_tx, UDP request/response rounds of 64 bytes over
#    loopback (sl-loop udp: two datagrams a round, each a net_rx and a
#    net_tx chain at S = 1), both at S: STACKLAT-BENCH net-sample-S;
#  - syscalls, the same getppid(2) loop (each call still counted in its
#    row, the ones not followed untimed): STACKLAT-BENCH syscalls-sample-S;
#  - storage, a pread(2) of a cached 4 KiB page on ext4 (sl-loop pread:
#    the system call, VFS and ext4 layers): STACKLAT-BENCH
#    storage-sample-S.
# A call or packet not followed still costs its hook hits (docs/overhead.md,
# "Sampling"): the curve flattens at the attachment's cost.  See bench.sh
# for the rounds (none, idle and armed alternate in one boot).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

N=${BENCH_N:-200000}
NN=${BENCH_NET_N:-20000}
NS=${BENCH_STORAGE_N:-100000}
S=1
arm_func() {
	echo "func add __x64_sys_getppid" > "$SL_DBG/control"
	echo "sample func $S" > "$SL_DBG/control"
	echo "enable func" > "$SL_DBG/control"
}
arm_net() {
	echo "sample net_rx $S" > "$SL_DBG/control"
	echo "sample net_tx $S" > "$SL_DBG/control"
	echo "enable net_rx" > "$SL_DBG/control"
	echo "enable net_tx" > "$SL_DBG/control"
}
arm_st() {
	echo "sample storage $S" > "$SL_DBG/control"
	echo "enable storage" > "$SL_DBG/control"
}
arm_sc() {
	echo "sample syscalls $S" > "$SL_DBG/control"
	echo "enable syscalls" > "$SL_DBG/control"
}
# what was followed, for the record: the status line (none at S = 1)
seen() { grep -E '^  sample: 1 in' "$SL_DBG/status" || true; }
for S in 1 4 16 64; do
	bench_compare "func-sample-$S" "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-spin -n $N -t 1" arm_func seen
done
for S in 1 4 16 64; do
	bench_compare "net-sample-$S" "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop udp $NN" arm_net seen
done
for S in 1 4 16 64; do
	bench_compare "syscalls-sample-$S" "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-spin -n $N -t 1" arm_sc seen
done
f=${SL_MNT:-/tmp}/sl-bench62.dat
dd if=/dev/zero of="$f" bs=4k count=1 status=none
for S in 1 4 16 64; do
	bench_compare "storage-sample-$S" "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop pread $f $NS" arm_st seen
done
rm -f "$f"
