#!/bin/bash
# Cost of the reqresp pipeline per request: sl-loop tcp, a 1-byte request
# and its 1-byte response per round over one loopback TCP connection,
# blocking read/write on both sides, both threads on CPU 0 (a request's
# whole path: the client's write down the stack, the server thread woken
# from its read, the read, the response's write and xmit).  Filtered on
# the server's port, as an operator would.  See bench.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

N=${BENCH_NET_N:-20000}
PORT=7455
arm() {
	echo "filter reqresp lport=$PORT" > "$SL_DBG/control"
	echo "enable reqresp" > "$SL_DBG/control"
}
bench_compare reqresp-tcp-rr "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop tcp $N $PORT" arm
