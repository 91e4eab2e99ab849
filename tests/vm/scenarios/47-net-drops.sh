#!/bin/bash
# kernels: all
# skbs freed before their chain ends are removed from the in-flight table
# at once and counted as dropped, never left to go stale:
#  - N UDP datagrams to a closed port (dropped by UDP: no socket): net_rx
#    dropped = N exactly, after the transport point saw each of them, and
#    no sample in any stage (an rx chain is recorded when it is read); the
#    ICMP errors they cause leave the chain at IP: nothing left in flight,
#    even with the consume_skb hook (their free) skipped;
#  - a UDP socket with a tiny receive buffer and N datagrams sent at it
#    before it reads: read + dropped = N exactly;
#  - netem loss 100% on a veth: net_tx dropped = N exactly after the
#    device queue point saw them; no sample (a tx chain is recorded when
#    the driver is done with it).
#  - K datagrams sent to a socket that reads them later: while unread, the
#    inflight file lists exactly K net_rx entries, each at the socket queue;
#    once read, K socket->app samples and none left.
# At the end, with the traffic gone, no network entry is left in flight.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

N=100
trap veth_down EXIT

# to_closed_port: N datagrams to 127.0.0.1:9001, where nothing listens
to_closed_port() {
	python3 - $N <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(b"x" * 100, ("127.0.0.1", 9001))
    time.sleep(0.002)
PY
	sleep 0.2
}

# drained WHEN: with the traffic gone, no network entry is left in flight
drained() {
	local left m
	grep "in-flight" "$SL_DBG/status"
	for _ in $(seq 40); do
		[ "$(in_flight)" = 0 ] && break
		sleep 0.2
	done
	left=$(in_flight)
	[ "$left" = 0 ] || cat "$SL_DBG/inflight"
	m=$(($(missed net_rx) + $(missed net_tx)))
	if [ "$m" = 0 ]; then
		assert_eq "in-flight entries left $1" 0 "$left"
	else
		# a probe hit the kernel skipped (kprobe reentrancy: an
		# ftrace-based kprobe's handler runs with interrupts on, so a
		# softirq in it finds a kprobe running) can be the free or the
		# merge of a followed skb: that entry stays until it is reclaimed
		# as stale.  At most one per missed hit, and the misses are
		# reported.
		note "$m probe hits missed: $left entries left $1"
		assert_range "in-flight entries left $1" 0 "$m" "$left"
	fi
}

sl_modprobe sch_netem
veth_up

# filters before enabling: the IPv6 chatter of the freshly raised veth pair
# (neighbour discovery, MLD) is never followed.  Unfiltered, 6.1-rt and 6.12
# each kept one such skb in flight from that moment on (one at driver, one
# at driver and IP), freed where no tracepoint saw it or still held.
sl_load
note "UDP to a closed port"
ctl filter net_rx clear lport=9001 ifindex=1
ctl filter net_tx clear rport=9001
ctl enable net_rx
ctl enable net_tx
ctl reset
u0=$(hits net_rx udp_rcv)
to_closed_port
cat "$SL_DBG/net_rx" "$SL_DBG/net_tx"
grep "lost:" "$SL_DBG/status"
expect_lost net_rx dropped $N
assert_range "net_rx udp_rcv hits" $N 1000000 $(($(hits net_rx udp_rcv) - u0))
assert_eq "net_rx ip->transport" 0 "$(cnt net_rx ip-\>transport)"
assert_eq "net_rx transport->socket" 0 "$(cnt net_rx transport-\>socket)"
assert_eq "net_rx total" 0 "$(cnt net_rx total)"
assert_eq "net_tx total" $N "$(cnt net_tx total)"
assert_eq "net_tx dropped" 0 "$(lost net_tx dropped)"
# the ICMP port unreachables that came back over lo leave at the IP point
drained "after the ICMP errors"

note "UDP receive buffer overflow"
ctl filter net_rx clear lport=9002 ifindex=1
ctl reset
read -r got <<<"$(python3 - $N <<'PY'
import socket, sys, time
n = int(sys.argv[1])
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
r.bind(("127.0.0.1", 9002))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(n):
    s.sendto(b"y" * 1000, ("127.0.0.1", 9002))
time.sleep(0.2)
r.setblocking(False)
got = 0
try:
    while True:
        r.recv(2000)
        got += 1
except BlockingIOError:
    pass
print(got)
PY
)"
cat "$SL_DBG/net_rx"
grep "lost:" "$SL_DBG/status"
d=$(lost net_rx dropped)
note "$got datagrams read, $d dropped by the full receive buffer"
assert_range "datagrams read" 1 $((N - 1)) "$got"
assert_eq "net_rx socket->app" "$got" "$(cnt net_rx socket-\>app)"
assert_eq "read + dropped" $N $((got + d))

note "datagrams nobody has read yet wait in flight, listed in inflight"
K=20
ctl filter net_rx clear lport=9005 ifindex=1
ctl reset
rm -f /tmp/sl-47.ready /tmp/sl-47.go
python3 - $K > /tmp/sl-47.out <<'PY' &
import os, socket, sys, time
k = int(sys.argv[1])
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
r.bind(("127.0.0.1", 9005))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(k):
    s.sendto(b"w" * 100, ("127.0.0.1", 9005))
open("/tmp/sl-47.ready", "w").close()
while not os.path.exists("/tmp/sl-47.go"):
    time.sleep(0.05)
r.setblocking(False)
got = 0
try:
    while True:
        r.recv(2000)
        got += 1
except BlockingIOError:
    pass
print(got)
PY
rpid=$!
for _ in $(seq 100); do
	[ -e /tmp/sl-47.ready ] && break
	sleep 0.1
done
sleep 0.3
cat "$SL_DBG/inflight"
waiting=$(sed -n 's/^net_rx: \([0-9]*\) in flight.*/\1/p' "$SL_DBG/inflight")
queued=$(grep -c '^net_rx .* tcp/udp_queue@' "$SL_DBG/inflight" || true)
touch /tmp/sl-47.go
wait $rpid
read -r kread < /tmp/sl-47.out
assert_eq "net_rx entries in flight while unread" $K "$waiting"
assert_eq "unread entries listed at the socket queue" $K "$queued"
assert_eq "datagrams read" $K "$kread"
assert_eq "net_rx socket->app once read" $K "$(cnt net_rx socket-\>app)"
assert_eq "net_rx entries in flight once read" 0 \
	"$(sed -n 's/^net_rx: \([0-9]*\) in flight.*/\1/p' "$SL_DBG/inflight")"

note "netem loss 100% on veth0"
# a permanent neighbour: no ARP to lose, so the datagrams reach the qdisc
# (else they wait in the neighbour queue for a resolution that never comes)
mac=$(ip netns exec slb cat /sys/class/net/veth1/address)
ip -n sla neigh replace 10.9.0.2 lladdr "$mac" dev veth0 nud permanent
ip netns exec sla tc qdisc add dev veth0 root netem loss 100%
ctl filter net_rx clear
ctl filter net_tx clear rport=9003
ctl reset
q0=$(hits net_tx dev_queue)
ip netns exec sla python3 - $N <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(b"z" * 100, ("10.9.0.2", 9003))
PY
sleep 0.2
cat "$SL_DBG/net_tx"
grep "lost:" "$SL_DBG/status"
expect_lost net_tx dropped $N
assert_range "net_tx dev_queue hits" $N 1000000 $(($(hits net_tx dev_queue) - q0))
assert_eq "net_tx ip->dev_queue" 0 "$(cnt net_tx ip-\>dev_queue)"
assert_eq "net_tx qdisc" 0 "$(cnt net_tx qdisc)"
assert_eq "net_tx total" 0 "$(cnt net_tx total)"
ip netns exec sla tc qdisc del dev veth0 root

note "TCP on loopback, then nothing left in flight"
python3 - <<'PY'
import socket, threading
srv = socket.socket()
srv.bind(("127.0.0.1", 9004))
srv.listen(1)
def serve():
    c, _ = srv.accept()
    while True:
        d = c.recv(4096)
        if not d:
            break
        c.sendall(d)
    c.close()
t = threading.Thread(target=serve)
t.start()
s = socket.create_connection(("127.0.0.1", 9004))
for _ in range(50):
    s.sendall(b"t" * 3000)
    got = 0
    while got < 3000:
        got += len(s.recv(65536))
s.close()
t.join()
PY
ctl filter net_rx clear ifindex=1
ctl filter net_tx clear ifindex=1
sleep 0.5
drained "after the TCP exchange"
assert_eq "net_rx stale" 0 "$(lost net_rx stale)"
assert_eq "net_tx stale" 0 "$(lost net_tx stale)"
ctl disable net_rx
ctl disable net_tx
sl_unload

note "consume_skb unhooked: the ICMP errors still leave at IP, not at their free"
sl_load skip_hooks=net_rx:consume_skb
assert_eq "net_rx consume_skb hook" "skipped" "$(hook net_rx consume_skb | cut -d' ' -f1)"
ctl filter net_rx clear ifindex=1
ctl enable net_rx
i0=$(hits net_rx ip_rcv)
to_closed_port
ip=$(($(hits net_rx ip_rcv) - i0))
note "$ip IPv4 packets at IP: the $N datagrams, the ICMP errors that came back over lo, and any other"
assert_range "IPv4 packets besides the datagrams (ICMP errors)" 1 1000000 $((ip - N))
expect_lost net_rx dropped $N
drained "with consume_skb unhooked"
ctl disable net_rx
sl_unload
pass "drops removed and counted: $N at a closed port, $d of $N at a full receive buffer (the other $got read), $N by netem loss; $K unread datagrams listed in inflight; nothing left in flight, even of the ICMP errors with consume_skb unhooked"
