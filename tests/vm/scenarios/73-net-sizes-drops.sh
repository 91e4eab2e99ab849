#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# netsize and netdrop: value histograms in bytes.
#  - 100 UDP datagrams of 1 KiB over a veth pair (IPv6 off, neighbours
#    permanent: nothing else crosses it): udp.sendmsg and udp.recvmsg 100
#    x 1024 exactly, veth0.tx 100 x 1066 (Ethernet, IP, UDP headers) and
#    veth1.rx 100 x 1052 (the Ethernet header pulled);
#  - 100 TCP sends of 1 KiB then 100 of 64 KiB: tcp.sendmsg 200 samples,
#    min 1 KiB, max 64 KiB, the exact sum, 100 in the 1-2 KiB row and 100
#    in the 64-128 KiB row; tcp.recvmsg sums to the bytes sent;
#  - N datagrams to a closed UDP port on lo: N drops under the kernel's
#    reason NO_SOCKET (a kernel without drop reason names: under the UDP
#    receive function that dropped them), N in lo.drops;
#  - a socket with a tiny receive buffer sent N datagrams before it reads:
#    the ones it did not get are the drops under SOCKET_RCVBUFF (or the
#    UDP queueing function), exactly;
#  - an nftables rule dropping one UDP port on input: N datagrams to it
#    are N drops under NETFILTER_DROP (or nf_hook_slow, the function that
#    frees what a hook dropped, on a kernel without reasons), and N in the
#    rule's own counter.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

N=100
trap veth_down EXIT

# field PIPE STAGE FIELD from the tool's JSON (0 if absent)
field() {
	python3 - "$("$SL_TOOL" show -j "$1")" "$1" "$2" "$3" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
d = d["pipelines"] if isinstance(d, dict) and "pipelines" in d else d
d = d if isinstance(d, list) else [d]
st = {s["name"]: s for x in d if x["pipeline"] == sys.argv[2] for s in x["stages"]}
print(st.get(sys.argv[3], {}).get(sys.argv[4], 0))
PY
}
# row PIPE STAGE LO: the count of the debugfs hist row starting at LO
row() {
	awk -v s="$1: $2 " -v lo="$3" 'index($0, s) == 1 { on = 1; next }
		on && /^$/ { on = 0 } on && $1 == lo && $2 == "->" { print $5; found = 1 }
		END { if (!found) print 0 }' "$SL_DBG/hist/$1"
}

veth_up
for ns in sla slb; do
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1
done
ip -n sla neigh replace 10.9.0.2 lladdr "$(ip netns exec slb cat /sys/class/net/veth1/address)" dev veth0 nud permanent
ip -n slb neigh replace 10.9.0.1 lladdr "$(ip netns exec sla cat /sys/class/net/veth0/address)" dev veth1 nud permanent
sl_load
ctl enable netsize
sleep 0.5

note "$N UDP datagrams of 1 KiB over the veth pair"
ctl reset
ip netns exec slb python3 - $N > /tmp/sl-73.udp <<'PY' &
import socket, sys
n = int(sys.argv[1])
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
r.bind(("10.9.0.2", 7301))
open("/tmp/sl-73.ready", "w").close()
r.settimeout(20)
got = sum(len(r.recv(4096)) for _ in range(n))
print(got)
PY
srv=$!
for _ in $(seq 100); do [ -e /tmp/sl-73.ready ] && break; sleep 0.1; done
ip netns exec sla python3 - $N <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(b"u" * 1024, ("10.9.0.2", 7301))
    time.sleep(0.001)
PY
wait $srv
assert_eq "bytes the server read" $((N * 1024)) "$(cat /tmp/sl-73.udp)"
cat "$SL_DBG/netsize"
assert_eq "udp.sendmsg count" $N "$(cnt netsize udp.sendmsg)"
assert_eq "udp.sendmsg sum" $((N * 1024)) "$(field netsize udp.sendmsg sum_ns)"
assert_eq "udp.recvmsg count" $N "$(cnt netsize udp.recvmsg)"
assert_eq "udp.recvmsg sum" $((N * 1024)) "$(field netsize udp.recvmsg sum_ns)"
assert_eq "unit" bytes "$(field netsize udp.sendmsg unit)"
for st in veth0.tx:1066 veth1.rx:1052; do
	assert_eq "${st%:*} count" $N "$(cnt netsize "${st%:*}")"
	assert_eq "${st%:*} min" "${st#*:}" "$(field netsize "${st%:*}" min_ns)"
	assert_eq "${st%:*} max" "${st#*:}" "$(field netsize "${st%:*}" max_ns)"
done

note "$N TCP sends of 1 KiB, then $N of 64 KiB"
ctl reset
rm -f /tmp/sl-73.ready
ip netns exec slb python3 - > /tmp/sl-73.tcp <<'PY' &
import socket
srv = socket.socket()
srv.bind(("10.9.0.2", 7302))
srv.listen(1)
open("/tmp/sl-73.ready", "w").close()
c, _ = srv.accept()
got = 0
while True:
    d = c.recv(1 << 20)
    if not d:
        break
    got += len(d)
print(got)
PY
srv=$!
for _ in $(seq 100); do [ -e /tmp/sl-73.ready ] && break; sleep 0.1; done
ip netns exec sla python3 - $N <<'PY'
import socket, sys
n = int(sys.argv[1])
s = socket.create_connection(("10.9.0.2", 7302))
for size in (1024, 65536):
    for _ in range(n):
        assert s.send(b"t" * size) == size
s.close()
PY
wait $srv
total=$((N * (1024 + 65536)))
assert_eq "bytes the server read" $total "$(cat /tmp/sl-73.tcp)"
cat "$SL_DBG/netsize"
sed -n '/^netsize: tcp.sendmsg /,/^$/p' "$SL_DBG/hist/netsize"
assert_eq "tcp.sendmsg count" $((2 * N)) "$(cnt netsize tcp.sendmsg)"
assert_eq "tcp.sendmsg sum" $total "$(field netsize tcp.sendmsg sum_ns)"
assert_eq "tcp.sendmsg min" 1024 "$(field netsize tcp.sendmsg min_ns)"
assert_eq "tcp.sendmsg max" 65536 "$(field netsize tcp.sendmsg max_ns)"
assert_eq "tcp.sendmsg 1.00KiB row" $N "$(row netsize tcp.sendmsg 1.00KiB)"
assert_eq "tcp.sendmsg 64.0KiB row" $N "$(row netsize tcp.sendmsg 64.0KiB)"
assert_eq "tcp.recvmsg sum" $total "$(field netsize tcp.recvmsg sum_ns)"
ctl disable netsize

note "$N datagrams to a closed UDP port on lo"
ctl enable netdrop
ctl filter netdrop clear ifindex=1
ctl reset
python3 - $N <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(b"x" * 100, ("127.0.0.1", 9301))
    time.sleep(0.002)
PY
sleep 0.2
cat "$SL_DBG/netdrop"
if grep -qE ' (drop_reasons|drop_reasons_by_subsys)$' /proc/kallsyms; then
	closed=NO_SOCKET rcvbuf=SOCKET_RCVBUFF
else
	# no reason names: the dropping functions name the stages
	closed=$(awk '$1 ~ /udp.*rcv/ { print $1; exit }' "$SL_DBG/netdrop")
	rcvbuf=
fi
note "closed port drops under '$closed'"
assert_eq "$closed" $N "$(cnt netdrop "$closed")"
assert_eq "lo.drops" $N "$(cnt netdrop lo.drops)"
assert_eq "$closed size (UDP header + 100)" 108 "$(field netdrop "$closed" max_ns)"
if grep -q '0x[0-9a-f]\{8,\}' "$SL_DBG/netdrop"; then
	fail "an address in the netdrop table"
fi

note "a full receive buffer"
ctl reset
read -r got <<<"$(python3 - $N <<'PY'
import socket, sys, time
n = int(sys.argv[1])
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
r.bind(("127.0.0.1", 9302))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(n):
    s.sendto(b"y" * 1000, ("127.0.0.1", 9302))
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
cat "$SL_DBG/netdrop"
if [ -z "$rcvbuf" ]; then
	rcvbuf=$(awk '$1 ~ /udp/ && $2 > 0 { print $1; exit }' "$SL_DBG/netdrop")
fi
assert_range "datagrams read" 1 $((N - 1)) "$got"
assert_eq "$rcvbuf (the datagrams not read)" $((N - got)) "$(cnt netdrop "$rcvbuf")"
assert_eq "lo.drops" $((N - got)) "$(cnt netdrop lo.drops)"

note "an nftables rule drops UDP to port 9303 on input"
sl_modprobe nf_tables
# a module of its own before 5.14, part of nf_tables.ko since (then a
# rule with a counter would fail to load, not pass silently)
if modprobe -n -q -d "$MODROOT" -S "$KVER" nft_counter 2>/dev/null; then
	sl_modprobe nft_counter
fi
nft add table inet sl73
nft add chain inet sl73 in '{ type filter hook input priority 0; policy accept; }'
nft add rule inet sl73 in udp dport 9303 counter drop
ctl reset
python3 - $N <<'PY'
import socket, sys, time
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
r.bind(("127.0.0.1", 9303))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(b"z" * 200, ("127.0.0.1", 9303))
    time.sleep(0.002)
r.setblocking(False)
try:
    r.recv(2000)
    sys.exit("a datagram passed the DROP rule")
except BlockingIOError:
    pass
PY
sleep 0.2
cat "$SL_DBG/netdrop"
nfc=$(nft list chain inet sl73 in | sed -n 's/.*counter packets \([0-9]*\) .*/\1/p')
nft delete table inet sl73
if [ "$closed" = NO_SOCKET ]; then
	nf=NETFILTER_DROP
else
	nf=nf_hook_slow
fi
assert_eq "the rule's own counter" $N "$nfc"
assert_eq "$nf" $N "$(cnt netdrop "$nf")"
assert_eq "lo.drops" $N "$(cnt netdrop lo.drops)"
# LOCAL_IN sees the packet at its IP header: IP + UDP headers + 200
assert_eq "$nf size (IP and UDP headers + 200)" 228 "$(field netdrop "$nf" max_ns)"
ctl disable netdrop
sl_unload
pass "sizes: UDP $N x 1024 (tx 1066, rx 1052), TCP $N x 1 KiB + $N x 64 KiB exact; drops: $N under $closed, $((N - got)) under $rcvbuf, $N under $nf"
