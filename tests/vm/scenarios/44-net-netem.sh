#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# Injected delay: `tc qdisc add dev veth0 root netem delay D` on the
# sender's interface (namespace sla; the server is across the veth pair in
# slb).  The same N request/response rounds are measured without and with
# netem, in the same boot.  With it, the mean of the qdisc stage of net_tx
# and the mean of its total both grow by D (within 10 %), and the means of
# the other stages (app->tcp, tcp->ip, ip->dev_queue, driver) move by less
# than 10 % of D.  Every stage keeps exactly N samples.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

N=40
SIZE=300
D_MS=50
PORT=6100

# one measurement: rounds on a fresh port, the client's requests only
measure() { # PORT OUTFILE
	ctl filter net_tx clear rport=$1
	ctl filter net_rx clear lport=$1
	ctl reset
	run_pair slb sla tcp 10.9.0.2 "$1" $N $SIZE rr
	cat "$SL_DBG/net_tx"
	check_tx_tcp $N "$CLI_RETRANS" veth0.total
	"$SL_TOOL" show -j net_tx net_rx > "$2"
}

trap veth_down EXIT
sl_modprobe sch_netem
veth_up
sl_load
ctl enable net_rx
ctl enable net_tx
note "without netem"
measure $PORT /tmp/sl-base.json
ip netns exec sla tc qdisc add dev veth0 root netem delay ${D_MS}ms || fail "tc netem failed"
ip netns exec sla tc qdisc show dev veth0
note "with netem delay ${D_MS}ms on veth0"
measure $((PORT + 1)) /tmp/sl-netem.json
ip netns exec sla tc qdisc del dev veth0 root

python3 - /tmp/sl-base.json /tmp/sl-netem.json $D_MS <<'PY' || fail "the netem delay is not where it should be"
import json, sys
def load(f):
    d = json.load(open(f))
    d = d["pipelines"] if isinstance(d, dict) else d
    return {(x["pipeline"], s["name"]): s["sum_ns"] / max(1, s["count"]) for x in d for s in x["stages"]}
a, b = load(sys.argv[1]), load(sys.argv[2])
D = float(sys.argv[3]) * 1e6
ok = True
for st in ("app->tcp", "tcp->ip", "ip->dev_queue", "qdisc", "driver", "total"):
    k = ("net_tx", st)
    delta = b[k] - a[k]
    if st in ("qdisc", "total"):
        good = 0.9 * D <= delta <= 1.1 * D
        want = "+D within 10 pct"
    else:
        good = abs(delta) < 0.1 * D
        want = "|delta| < D/10"
    print("net_tx %-14s mean %10.1fus -> %10.1fus  delta %+10.1fus  (%s) %s" % (
        st, a[k] / 1e3, b[k] / 1e3, delta / 1e3, want, "ok" if good else "WRONG"))
    ok &= good
for st in ("driver->ip", "ip->transport", "transport->socket", "socket->app", "total"):
    k = ("net_rx", st)
    print("net_rx %-18s mean %10.1fus -> %10.1fus (for information)" % (st, a[k] / 1e3, b[k] / 1e3))
sys.exit(0 if ok else 1)
PY
ctl disable net_rx
ctl disable net_tx
sl_unload
pass "netem delay ${D_MS}ms on the sender's veth0: net_tx qdisc and total means +${D_MS}ms within 10 %, other stages moved by less than $((D_MS / 10))ms, $N samples each"
