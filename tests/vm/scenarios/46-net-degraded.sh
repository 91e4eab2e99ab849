#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# Loading with hook candidates missing (simulated with skip_hooks=) degrades
# gracefully: a hook whose preferred candidate is gone falls back to the
# next one, a hook with none left is reported "skipped", chains start at
# the first point that is still armed, and every stage whose two points
# remain is measured exactly as before (N of N); the others stay empty.
#  1. fallbacks everywhere: netif_receive_skb -> kprobe __netif_receive_skb,
#     ip_rcv_core -> ip_rcv, skb_copy_datagram_iovec -> skb_copy_datagram_iter,
#     net_dev_queue -> __dev_queue_xmit; tcp_transmit gone (tcp->ip and
#     app->tcp empty, the rest of net_tx measured from IP on).
#  2. no driver and no IP points: net_rx starts at the transport layer;
#     no tcp_sendmsg: net_tx has no application point (no app->tcp, total).
#  3. no net_dev_xmit on the NIC path: transmit done is the skb's free by
#     virtio-net's completion (or, 7.x, by the sending CPU's deferred-free
#     list the completion put it on: flush_skb_defer).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

N=100
SIZE=100
flow() { # PROTO ADDR PORT: filtered on the server's port, reset, run
	ctl filter net_rx clear lport=$3
	ctl filter net_tx clear lport=$3
	ctl reset
	run_pair - - "$1" "$2" "$3" $N $SIZE rr
	cat "$SL_DBG/net_rx" "$SL_DBG/net_tx"
}

no_tlp -
note "1. fallback candidates"
sl_load skip_hooks=netif_receive_skb,ip_rcv_core,ip6_rcv_core,tcp_transmit,skb_copy_datagram_iovec,net_dev_queue
ctl enable net_rx
ctl enable net_tx
entry_kind
assert_eq "driver" "armed $EK __netif_receive_skb" "$(hook net_rx driver)"
assert_eq "ip_rcv" "armed $EK ip_rcv" "$(hook net_rx ip_rcv)"
assert_eq "ipv6_rcv" "armed $EK ipv6_rcv" "$(hook net_rx ipv6_rcv)"
assert_eq "copy_to_app" "armed $EK skb_copy_datagram_iter" "$(hook net_rx copy_to_app)"
assert_eq "tcp_transmit" "skipped - -" "$(hook net_tx tcp_transmit)"
assert_eq "dev_queue" "armed $EK __dev_queue_xmit" "$(hook net_tx dev_queue)"
flow tcp 127.0.0.1 8001
expect net_rx $N driver-\>ip ip-\>transport transport-\>socket socket-\>app total lo.total
expect net_tx 0 app-\>tcp tcp-\>ip
expect_r net_tx $N "$SRV_RETRANS" ip-\>dev_queue qdisc driver total lo.total
flow tcp ::1 8002
expect net_rx $N driver-\>ip ip-\>transport transport-\>socket socket-\>app total
expect_r net_tx $N "$SRV_RETRANS" ip-\>dev_queue qdisc driver total
flow udp 127.0.0.1 8003
expect net_rx $N driver-\>ip ip-\>transport transport-\>socket socket-\>app total
expect net_tx $N udp-\>ip ip-\>dev_queue qdisc driver total
sl_unload

note "2. no driver, no IP receive points, no tcp_sendmsg"
sl_load skip_hooks=net_rx:driver,net_rx:ip_rcv,net_rx:ip_list_rcv,net_rx:ipv6_rcv,net_rx:ipv6_list_rcv,tcp_sendmsg
ctl enable net_rx
ctl enable net_tx
for h in driver ip_rcv ip_list_rcv ipv6_rcv ipv6_list_rcv; do
	assert_eq "net_rx $h" "skipped - -" "$(hook net_rx $h)"
done
assert_eq "net_tx tcp_sendmsg" "skipped - -" "$(hook net_tx tcp_sendmsg)"
flow tcp 127.0.0.1 8011
expect net_rx 0 driver-\>ip ip-\>transport total lo.total
expect net_rx $N transport-\>socket socket-\>app
expect net_tx 0 app-\>tcp total
expect net_tx $((N + SRV_RETRANS)) tcp-\>ip ip-\>dev_queue qdisc driver
sl_unload

note "3. no net_dev_xmit: transmit done at the free, on the NIC"
PORT=$SL_GUESTPORT
sl_load skip_hooks=net_dev_xmit
ctl enable net_rx
ctl enable net_tx
assert_eq "driver_done" "skipped - -" "$(hook net_tx driver_done)"
ctl filter net_tx clear lport=$PORT
ctl filter net_rx clear lport=$PORT
ctl reset
serve_host $N $SIZE > /tmp/sl-host.out || fail "host peer exchange failed"
# the last reply is freed when virtio-net reclaims its ring; and on 7.x a
# reply whose completion ran on the other CPU waits in the sending CPU's
# deferred-free list for its next NET_RX (in CI, 36 of 101 did for more
# than 3 s): flush_skb_defer
for _ in $(seq 30); do
	flush_skb_defer
	[ "$(cnt net_tx total)" = $((N + 1)) ] && break
	sleep 0.1
done
cat "$SL_DBG/net_rx" "$SL_DBG/net_tx"
R=$(retrans /tmp/sl-host.out "$PORT")
expect net_tx $((N + 1)) app-\>tcp total "$SL_NIC.total"
expect net_tx $((N + 1 + R)) tcp-\>ip ip-\>dev_queue qdisc driver
expect net_rx $N driver-\>ip ip-\>transport transport-\>socket socket-\>app total
sl_unload
pass "skip_hooks: fallbacks armed (kprobes for 4 tracepoints/symbols), missing points leave only their stages empty, all others exact ($N of $N); done-at-free on virtio-net"
