#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stacklat's per-process views against bpftrace doing the same accounting
# (issue 29), one workload each, the loop's pid only:
#  - top net (the nettop pipeline): UDP request/response rounds of 64
#    bytes over loopback (sl-loop udp: per round two sendmsg and two
#    recvmsg of the loop's threads) against top-net.bt (bcc tcptop's and
#    socktop's accounting: bytes and calls per process on the returns of
#    udp/udpv6/tcp sendmsg and recvmsg);
#  - top files (the files pipeline): rounds of a 4 KiB pwrite(2) and
#    pread(2) of a tmpfs file (sl-loop rw) against top-files.bt (bcc
#    filetop's: calls and bytes per process and file name, on vfs_read
#    and vfs_write).
# The cost per round (ns_per_op) is for two calls of each direction (net)
# or one read and one write (files).  bt_attach: bpftrace's probes with
# empty actions.  No tuned bpftrace (kretfunc is not on every kernel's
# bpftrace here) and no ftrace pairing: left out.  See bench-peers.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench-peers.sh"

LOOP=$SL_REPO/tests/vm/helpers/sl-loop
PEER_CASES=(none stacklat bt_default bt_attach)
W_FT_STAGES=""
w_ft_setup() { :; }
# rows_sum PIPELINE COLUMN KIND NAME: the sum of that column over the
# pipeline's rows of the loop's process (debugfs: "tgid comm ..." rows
# after the stages) whose 4th column is KIND and last is NAME (empty: any)
rows_sum() {
	awk -v t="$GPID_SEEN" -v c="$2" -v k="${3:-}" -v f="${4:-}" '$1 == t && (k == "" || $4 == k) && (f == "" || $NF == f) { n += $c }
		END { print n + 0 }' "$SL_DBG/$1"
}

# the pipeline of the section ($PIPE), for the loop's pid only
w_sl_arm() {
	GPID_SEEN=$1
	echo "filter $PIPE tgid=$1" > "$SL_DBG/control"
	echo "enable $PIPE" > "$SL_DBG/control"
}

# ---- top net
PIPE=nettop
N=${BENCH_PEER_NET_N:-5000}
W_RUN=("$LOOP" udp "$N")
W_OPS=$N
W_EXPECT=$((2 * N))
W_STAGES="sends recvs"
W_BT_DEFAULT=$PB_DIR/top-net.bt
W_BT_TUNED=$PB_DIR/top-net.bt
# the process rows (kind "proc"): sends column 5, recvs column 8
w_sl_count() {
	case $1 in
	sends) rows_sum nettop 5 proc ;;
	recvs) rows_sum nettop 8 proc ;;
	esac
}
peer_bench top-net

# ---- top files
PIPE=files
N=${BENCH_PEER_FILES_N:-5000}
W_RUN=("$LOOP" rw /dev/shm/sl-44-rw "$N")
W_OPS=$N
W_EXPECT=$N
W_STAGES="reads writes"
W_BT_DEFAULT=$PB_DIR/top-files.bt
W_BT_TUNED=$PB_DIR/top-files.bt
# the rows of the loop's file (the loader's reads of its libraries are
# others): reads column 8, writes column 10
w_sl_count() {
	case $1 in
	reads) rows_sum files 8 "" sl-44-rw ;;
	writes) rows_sum files 10 "" sl-44-rw ;;
	esac
}
peer_bench top-files
rm -f /dev/shm/sl-44-rw
