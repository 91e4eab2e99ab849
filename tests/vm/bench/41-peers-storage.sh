#!/bin/bash
# stacklat against bpftrace (default: kprobe/kretprobe; tuned: kfunc/
# kretfunc) and ftrace hist triggers on the storage layers of a pread(2)
# of 4 KiB from the page cache of a file on the ext4 scratch disk: the
# syscall (__x64_sys_pread64), vfs_read and ext4_file_read_iter, each
# inclusive (entry to return), keyed by thread, for the loop's pid only.
# stacklat's storage pipeline records these (read.syscall, read.vfs,
# read.fs) and also the syscall's and vfs's self times.  See
# bench-peers.sh for the cases, rounds and report.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench-peers.sh"

mountpoint -q "$SL_MNT" || { echo "scratch disk not mounted at $SL_MNT"; exit 1; }
N=${BENCH_PEER_N:-50000}
f=$SL_MNT/sl-peers.dat
dd if=/dev/zero of="$f" bs=4k count=1 status=none
W_RUN=("$SL_REPO/tests/vm/helpers/sl-loop" pread "$f" "$N")
# the loop's own pread before it starts timing counts too
W_OPS=$N
W_EXPECT=$((N + 1))
W_STAGES="syscall vfs fs"
W_FT_STAGES="syscall vfs fs"
W_BT_DEFAULT=$PB_DIR/storage-default.bt
W_BT_TUNED=$PB_DIR/storage-tuned.bt

w_sl_arm() {
	echo "filter storage tgid=$1" > "$SL_DBG/control"
	echo "enable storage" > "$SL_DBG/control"
}

w_sl_count() { awk -v s="read.$1" '$1 == s { print $2 }' "$SL_DBG/storage"; }

w_ft_setup() {
	local p=$1 e x s
	ft_kprobe sys_e __x64_sys_pread64
	ft_kretprobe sys_x __x64_sys_pread64
	ft_kprobe vfs_e vfs_read
	ft_kretprobe vfs_x vfs_read
	ft_kprobe fs_e ext4_file_read_iter
	ft_kretprobe fs_x ext4_file_read_iter
	for s in syscall vfs fs; do
		e=${s/syscall/sys}_e
		x=${s/syscall/sys}_x
		ft_synth "slb_$s"
		ft_trigger "slb/$e" "hist:keys=common_pid:slb_t$s=common_timestamp if common_pid == $p"
		ft_trigger "slb/$x" "hist:keys=common_pid:slb_l$s=common_timestamp-\$slb_t$s:onmatch(slb.$e).trace(slb_$s,\$slb_l$s) if common_pid == $p"
	done
}

peer_bench storage-pread
rm -f "$f"
