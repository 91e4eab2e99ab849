#!/bin/bash
# Cost of following packets: UDP request/response rounds of 64 bytes over
# loopback (two datagrams per round, each a full net_tx chain of five
# points and a net_rx chain of five) with no module, loaded idle, and with
# net_rx and net_tx enabled.  cost_per_op_ns is per round, i.e. for two
# packets followed down and up.  See bench.sh.
#
# net-udp-rr-unfollowed: the same rounds with both pipelines filtered to a
# port nobody uses, so that no packet is followed but every one passes
# every point: what an operator watching one service pays for the rest of
# the host's traffic.  The filter is set before the enable (the engine
# before v2 opened its gate before arming).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

N=${BENCH_NET_N:-20000}
arm() {
	echo "enable net_rx" > "$SL_DBG/control"
	echo "enable net_tx" > "$SL_DBG/control"
}
arm_unfollowed() {
	# port 9 (discard): the loop's sockets are on ephemeral ports
	echo "filter net_rx lport=9" > "$SL_DBG/control"
	echo "filter net_tx lport=9" > "$SL_DBG/control"
	arm
}
# for the record: what was followed (nothing: the filter works) and what
# the filter turned away, per pipeline
filtered() {
	awk -v p="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == p && $1 == "lost:" { for (i = 2; i <= NF; i++) if ($i ~ /^filtered=/) { sub("filtered=", "", $i); print $i } }' "$SL_DBG/status"
}
followed() {
	local p
	for p in net_rx net_tx; do
		echo "unfollowed: $p total $(awk '$1 == "total" { print $2 }' "$SL_DBG/$p"), filtered $(filtered $p)"
	done
}
bench_compare net-udp-rr "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop udp $N" arm
bench_compare net-udp-rr-unfollowed "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop udp $N" arm_unfollowed followed
