#!/bin/bash
# Cost of the irq pipeline on the loopback UDP round of 20-net-overhead.sh:
# every datagram raises NET_RX (a softirq entry and exit), and any hardirq
# that lands meanwhile is timed too.  cost_per_op_ns is per round (two
# datagrams).  See bench.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

N=${BENCH_NET_N:-20000}
arm() { echo "enable irq" > "$SL_DBG/control"; }
bench_compare irq-udp-rr "${BENCH_ROUNDS:-5}" "$SL_REPO/tests/vm/helpers/sl-loop udp $N" arm
