#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# The real NIC path: the host connects through QEMU's port forward into
# virtio-net, so requests arrive by the driver's NAPI poll, GRO and the
# list receive path (ip_list_rcv -> ip_rcv_core), and replies leave through
# a real qdisc (mq / pfifo_fast) and virtio-net's start_xmit.
#
# N request/response rounds of SIZE bytes on one connection (TCP_NODELAY on
# both ends): exactly N samples in every net_rx stage and in eth0.total (the
# requests, filter lport=PORT) and exactly N+1 in every net_tx stage (the
# instruction line and N replies); every total is the sum of its stages.
# Tolerance 0, as for loopback: one request in flight at a time cannot be
# coalesced or GRO-merged with another.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

N=100
SIZE=200
PORT=$(host_peer_port)

ip link show "$SL_NIC" > /dev/null 2>&1 || skip "no $SL_NIC in this guest"
sl_load
ctl enable net_rx
ctl enable net_tx
ctl filter net_rx lport=$PORT
ctl filter net_tx lport=$PORT
ctl reset
serve_host $N $SIZE > /tmp/sl-host.out || fail "host peer exchange failed"
R=$(retrans /tmp/sl-host.out "$PORT")
sleep 0.5
cat "$SL_DBG/net_rx" "$SL_DBG/net_tx"
grep -E "^pipeline net|lost:|hook (driver|ip_rcv|ip_list_rcv|tcp_v4_rcv|tcp_queue|coalesce|copy_to_app|kfree_skb|consume_skb|dev_queue|driver_start|driver_done|gso_segment) " "$SL_DBG/status"

check_rx $N 1000000 "$SL_NIC.total"     # the host's retransmissions are not known here
check_tx_tcp $((N + 1)) "$R" "$SL_NIC.total"
assert_eq "net_tx dropped" 0 "$(lost net_tx dropped)"
for p in net_rx net_tx; do
	assert_eq "$p table_full" 0 "$(lost $p table_full)"
done
# the NAPI list path was the one taken: ip_rcv_core saw the requests
assert_range "ip_rcv hits" $N 1000000 "$(hits net_rx ip_rcv)"
ctl disable net_rx
ctl disable net_tx
sl_unload
pass "virtio-net from the host: $N requests -> $N samples in every net_rx stage and $SL_NIC.total, $((N + 1)) sends in every net_tx stage; totals = sum of stages"
