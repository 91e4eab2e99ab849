#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# A veth pair between two network namespaces (sla: veth0 10.9.0.1 fd00::1,
# slb: veth1 10.9.0.2 fd00::2): a client in sla, a server in slb, TCP over
# IPv4 and IPv6 and UDP over IPv4, N request/response rounds each.  The
# server's receives (net_rx lport=PORT) give exactly N samples in every
# stage and in veth1.total; the client's requests (net_tx rport=PORT) give
# exactly N in every stage and in veth0.total, nothing in lo.total; totals
# are the sums of their stages.  Tolerance 0 (request/response, see
# 42-net-loopback), retransmissions accounted for exactly (net.sh).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

N=150
SIZE=300

trap veth_down EXIT
veth_up
sl_load
ctl enable net_rx
ctl enable net_tx
port=6000
for t in tcp:10.9.0.2 tcp:fd00::2 udp:10.9.0.2; do
	proto=${t%%:*}
	addr=${t#*:}
	port=$((port + 1))
	ctl filter net_rx clear lport=$port
	ctl filter net_tx clear rport=$port
	ctl reset
	run_pair slb sla $proto $addr $port $N $SIZE rr
	note "$proto $addr"
	cat "$SL_DBG/net_rx" "$SL_DBG/net_tx"
	check_rx $N "$CLI_RETRANS" veth1.total
	if [ $proto = tcp ]; then
		check_tx_tcp $N "$CLI_RETRANS" veth0.total
	else
		check_tx_udp $N veth0.total
	fi
	assert_eq "net_rx lo.total" 0 "$(cnt net_rx lo.total)"
	assert_eq "net_tx lo.total" 0 "$(cnt net_tx lo.total)"
	assert_eq "net_tx dropped" 0 "$(lost net_tx dropped)"
done
ctl disable net_rx
ctl disable net_tx
sl_unload
pass "veth between namespaces, TCP v4/v6 and UDP: $N of $N in every stage, split to veth1.total (rx) and veth0.total (tx); totals = sum of stages"
