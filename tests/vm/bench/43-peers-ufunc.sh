#!/bin/bash
# stacklat against bpftrace on one user-space function's latency (issue
# 27): sl-loop ufunc calls sl_loop_ufunc() (noinline, next to nothing)
# N times; stacklat's func pipeline on PATH:sl_loop_ufunc (a uprobe and a
# uretprobe the module places) against bpftrace's uprobe/uretprobe doing
# the same accounting (ufunc-default.bt, the loop's pid only, a log2
# histogram); bt_attach: bpftrace's two probes with empty actions, what
# the kernel's uprobe machinery costs whoever attaches.  bpftrace has no
# fentry for user space (bt_tuned is the same script) and ftrace's
# uprobe_events have no hist-trigger pairing here: both left out.  See
# bench-peers.sh for the rounds and the report.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench-peers.sh"

N=${BENCH_PEER_N:-20000}
LOOP=$SL_REPO/tests/vm/helpers/sl-loop
W_RUN=("$LOOP" ufunc "$N")
W_OPS=$N
W_EXPECT=$N
W_STAGES="ufunc"
W_FT_STAGES=""
sed "s|SL_LOOP_PATH|$(realpath "$LOOP")|g" "$PB_DIR/ufunc-default.bt" > /tmp/pb-ufunc.bt
W_BT_DEFAULT=/tmp/pb-ufunc.bt
W_BT_TUNED=/tmp/pb-ufunc.bt
PEER_CASES=(none stacklat bt_default bt_attach)

w_sl_arm() {
	"$SL_TOOL" func add -p "$1" "$LOOP:sl_loop_ufunc" > /dev/null || fail "func add $LOOP:sl_loop_ufunc"
	echo "enable func" > "$SL_DBG/control"
}

w_sl_count() { awk '$1 == "sl_loop_ufunc" { print $2 }' "$SL_DBG/func"; }

w_ft_setup() { :; }

peer_bench ufunc-latency
