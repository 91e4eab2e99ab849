#!/bin/bash
# Per-connection cost of tcpconnect and tcpaccept together: connect(2) on
# 127.0.0.1 (the handshake completes inside it), accept(2) of the child,
# abortive close.  One operation is one connect sample, one handshake and
# one accept-queue sample.  tcpretrans is not measured here: every one of
# its points fires only when a segment is sent again, none is on a path
# that runs without loss.  See bench.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

N=${BENCH_CONN_N:-3000}
arm() {
	echo "enable tcpconnect" > "$SL_DBG/control"
	echo "enable tcpaccept" > "$SL_DBG/control"
}
bench_compare tcpconn-accept "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop tcpconn $N" arm
