#!/bin/bash
# Per-event cost of netsize (skb length at the device on rx and tx,
# message sizes at inet_sendmsg and inet_recvmsg) on the loopback UDP round
# of 20-net-overhead.sh (per round: two sends, two receives, two skbs each
# way), and of netdrop (the kfree_skb tracepoint) on datagrams sent to a
# UDP port nobody listens on (one drop each, NO_SOCKET).  See bench.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

N=${BENCH_NET_N:-20000}
arm_size() { echo "enable netsize" > "$SL_DBG/control"; }
arm_drop() { echo "enable netdrop" > "$SL_DBG/control"; }
bench_compare netsize-udp-rr "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop udp $N" arm_size
bench_compare netdrop-udp "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop udpdrop $N" arm_drop
