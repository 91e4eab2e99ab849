#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# Bulk transfers through virtio-net, where one sample is no longer one
# wire packet:
#  - the host streams STREAM bytes into the guest: GRO merges segments
#    before the driver hand-off and TCP coalesces what the reader has not
#    taken yet, so there are fewer samples than packets received, but
#    every sample still has all its points (every stage has the same count
#    and the total is the sum of the stages), nothing is dropped, and
#    samples + segments coalesced into a followed skb <= packets received;
#  - the guest answers with BIG-byte replies: each reply is one GSO skb;
#    when the NIC cannot segment (QEMU's user networking offers no TSO), it
#    is segmented in software after the qdisc and the chain continues on
#    the first segment: every reply is still one complete sample.
# Nothing is left in flight afterwards.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

STREAM=4000000
ROUNDS=10
BIG=60000
PORT=$SL_GUESTPORT

all_complete() { # PIPE STAGES...: same count everywhere, total = sum of the stages
	python3 - "$("$SL_TOOL" show -j "$1")" "$@" <<'PY' || fail "$1: incomplete samples"
import json, sys
d = json.loads(sys.argv[1])
d = d["pipelines"] if isinstance(d, dict) else d
st = {s["name"]: s for x in d if x["pipeline"] == sys.argv[2] for s in x["stages"]}
parts = sys.argv[3:]
counts = {n: st[n]["count"] for n in parts + ["total"]}
tot, sm = st["total"]["sum_ns"], sum(st[n]["sum_ns"] for n in parts)
print("%s: counts %s; total %d ns = sum of stages %d ns" % (sys.argv[2], counts, tot, sm))
assert len(set(counts.values())) == 1, counts
assert tot == sm, (tot, sm)
PY
}

# serve one host connection with instruction $1; read everything, or echo
serve() {
	timeout 300 python3 - "$PORT" "$@" <<'PY'
import socket, struct, sys
port, cmd = int(sys.argv[1]), sys.argv[2:]
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("0.0.0.0", port))
srv.listen(1)
c, _ = srv.accept()
srv.close()
c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
c.sendall((" ".join(cmd) + "\n").encode())
total = 0
if cmd[0] == "stream":
    while True:
        d = c.recv(65536)
        if not d:
            break
        total += len(d)
    assert total == int(cmd[1]), total
else:
    n, size = int(cmd[1]), int(cmd[2])
    for _ in range(n):
        b = b""
        while len(b) < size:
            d = c.recv(size - len(b))
            if not d:
                raise SystemExit("host closed early")
            b += d
        c.sendall(b)
        total += size
    while c.recv(65536):
        pass
info = c.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
print("moved", total, "bytes")
print("retrans", port, struct.unpack_from("I", info, 100)[0])
PY
}

sl_load
ctl enable net_rx
ctl enable net_tx
NIC=$SL_NIC

note "host -> guest stream of $STREAM bytes"
ctl filter net_rx clear lport=$PORT
ctl filter net_tx clear lport=$PORT
ctl reset
rx0=$(cat /sys/class/net/$NIC/statistics/rx_packets)
c0=$(hits net_rx coalesce)
serve stream $STREAM || fail "stream from the host failed"
pk=$(($(cat /sys/class/net/$NIC/statistics/rx_packets) - rx0))
c=$(($(hits net_rx coalesce) - c0))
cat "$SL_DBG/net_rx"
grep "lost:" "$SL_DBG/status"
n=$(cnt net_rx socket-\>app)
note "$pk packets received, $n samples, $c coalesced into a followed skb"
all_complete net_rx driver-\>ip ip-\>transport transport-\>socket socket-\>app
assert_eq "net_rx $NIC.total" "$n" "$(cnt net_rx "$NIC.total")"
assert_range "samples + coalesced" 1 "$pk" $((n + c))
assert_eq "net_rx dropped" 0 "$(lost net_rx dropped)"

note "guest -> host: $ROUNDS replies of $BIG bytes"
ctl reset
g0=$(hits net_tx gso_segment)
b0=$(lost net_tx busy)
serve rr $ROUNDS $BIG > /tmp/sl-rr.out || fail "rr with the host failed"
cat /tmp/sl-rr.out
R=$(retrans /tmp/sl-rr.out "$PORT")
sleep 0.5
g=$(($(hits net_tx gso_segment) - g0))
cat "$SL_DBG/net_tx"
grep "lost:" "$SL_DBG/status"
note "$g segments added by software segmentation of followed skbs"
T=$(cnt net_tx total)
assert_range "net_tx samples" $ROUNDS 100000 "$T"
# the socket's application entry held by the other CPU (a send entering
# or returning there while this one transmits from the softirq) is counted
# busy: that segment goes on from TCP down without its application point
b=$(($(lost net_tx busy) - b0))
if [ "$R" = 0 ] && [ "$b" = 0 ]; then
	all_complete net_tx app-\>tcp tcp-\>ip ip-\>dev_queue qdisc driver
else
	# a retransmission is a sample from TCP down, without application
	# point, and so is a segment whose point was lost as busy
	note "$R segments retransmitted, $b application points lost as busy"
	expect net_tx "$T" app-\>tcp
	expect_r net_tx "$T" $((R + b)) tcp-\>ip ip-\>dev_queue qdisc driver
fi
assert_eq "net_tx dropped" 0 "$(lost net_tx dropped)"
if [ "$g" = 0 ]; then
	note "no software segmentation on this NIC (it offloads TSO)"
fi

ctl filter net_rx clear ifindex=1
ctl filter net_tx clear ifindex=1
for _ in $(seq 20); do
	[ "$(in_flight)" = 0 ] && break
	sleep 0.2
done
assert_eq "in-flight entries left" 0 "$(in_flight)"
ctl disable net_rx
ctl disable net_tx
sl_unload
pass "stream: $n complete samples for $pk packets (+$c coalesced), replies of $BIG bytes complete ($g segments added by software segmentation); nothing left in flight"
