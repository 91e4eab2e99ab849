#!/bin/bash
# stacklat against bpftrace (default: kprobe/kretprobe; tuned: kfunc/
# kretfunc) and ftrace hist triggers on one function's latency: a loop of
# getppid(2) (sl-spin -t 0: one thread, its tid is its pid) timing
# __task_pid_nr_ns, which getppid calls once (it has BTF, unlike the
# syscall's wrapper: fentry/fexit can attach).  Every tool keeps a log2
# histogram of the function's time for the loop's pid only.  See
# bench-peers.sh for the cases, rounds and report.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench-peers.sh"

N=${BENCH_PEER_N:-200000}
W_RUN=("$SL_REPO/tests/vm/helpers/sl-spin" -n "$N" -t 0)
W_OPS=$N
W_EXPECT=$N
W_STAGES="func"
W_SAMPLE=func
W_FT_STAGES="func"
W_BT_DEFAULT=$PB_DIR/func-default.bt
W_BT_TUNED=$PB_DIR/func-tuned.bt

w_sl_arm() {
	echo "func add __task_pid_nr_ns" > "$SL_DBG/control"
	echo "filter func tgid=$1" > "$SL_DBG/control"
	echo "enable func" > "$SL_DBG/control"
}

w_sl_count() { awk '$1 == "__task_pid_nr_ns" { print $2 }' "$SL_DBG/func"; }

w_ft_setup() {
	ft_kprobe fe __task_pid_nr_ns
	ft_kretprobe fx __task_pid_nr_ns
	ft_synth slb_func
	ft_trigger slb/fe "hist:keys=common_pid:slb_t0=common_timestamp if common_pid == $1"
	ft_trigger slb/fx "hist:keys=common_pid:slb_lat=common_timestamp-\$slb_t0:onmatch(slb.fe).trace(slb_func,\$slb_lat) if common_pid == $1"
}

peer_bench func-latency
