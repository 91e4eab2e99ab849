#!/bin/bash
# Cost of following packets: UDP request/response rounds of 64 bytes over
# loopback (two datagrams per round, each a full net_tx chain of five
# points and a net_rx chain of five) with no module, loaded idle, and with
# net_rx and net_tx enabled.  cost_per_op_ns is per round, i.e. for two
# packets followed down and up.  See bench.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

N=${BENCH_NET_N:-20000}
arm() {
	echo "enable net_rx" > "$SL_DBG/control"
	echo "enable net_tx" > "$SL_DBG/control"
}
bench_compare net-udp-rr "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop udp $N" arm
