#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 6.1-rt
#   (the release races the probes of the pair's last packets: widest where
#   softirqs are threads a hog or the release can preempt, PREEMPT_RT)
# Per-interface slots reused under traffic: PAIRS veth pairs, each in two
# namespaces of its own, go through the 8 slots of each breakdown (net_rx's
# <if>.total, netsize's <if>.rx and <if>.tx) with LIVE pairs carrying UDP
# datagrams at any time.  Each pair in turn is checked, then deleted (ip
# link del) while its sender and receiver still run and the other pairs'
# traffic goes on, and the next pair is created at once: it takes the slot
# just freed.  At its check (its sender paused, its receiver drained), a
# pair's counts are exactly its own packets, against the kernel's counters
# of its interfaces (/sys/class/net/X/statistics; IPv6 off and neighbours
# permanent, so nothing but the datagrams crosses a pair):
#   netsize vb<i>.rx = rx_packets of vb<i>, va<i>.tx = tx_packets of va<i>,
#   net_rx vb<i>.total = rx_packets of vb<i> (every datagram read);
# a chain or sample of the pair that had the slot before, released while
# its traffic was in flight, must not be among them.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

# 10 pairs: the 8 slots of each breakdown all taken, then two of them
# reused under traffic (40 under make soak; 12 took 108-119 s on 6.1-rt)
PAIRS=$(sl_count 10 40)
LIVE=2
D=/tmp/sl39
rm -rf $D
mkdir -p $D

cleanup() {
	touch $D/quit
	local n
	for n in $(ip netns list | awk '$1 ~ /^sl39[ab][0-9]+$/ { print $1 }'); do
		ip netns pids "$n" 2>/dev/null | xargs -r kill 2>/dev/null || true
		ip netns del "$n" 2>/dev/null || true
	done
}
trap cleanup EXIT

# ifstat NS IF rx|tx: the interface's packets, the kernel's own counters
# (what /sys/class/net/IF/statistics shows, read over netlink: no
# namespace to enter)
ifstat() {
	ip -n "$1" -s link show dev "$2" | awk -v w="$3" '
		$1 == "RX:" || $1 == "TX:" { k = tolower(substr($1, 1, 2)); getline; if (k == w) print $2 }'
}
mac() { ip -n "$1" -br link show dev "$2" | awk '{ print $3 }'; }

# up I: pair I (va<I> in sl39a<I>, vb<I> in sl39b<I>) and its traffic
up() {
	local i=$1 a=sl39a$1 b=sl39b$1 ns
	ip netns add $a
	ip netns add $b
	for ns in $a $b; do
		ip netns exec $ns sh -c 'echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6;
			echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6'
	done
	ip link add "va$i" netns $a type veth peer name "vb$i" netns $b
	ip -n $a addr add 10.9.0.1/24 dev "va$i"
	ip -n $b addr add 10.9.0.2/24 dev "vb$i"
	ip -n $a neigh replace 10.9.0.2 lladdr "$(mac $b "vb$i")" dev "va$i" nud permanent
	ip -n $b neigh replace 10.9.0.1 lladdr "$(mac $a "va$i")" dev "vb$i" nud permanent
	ip -n $a link set "va$i" up
	ip -n $b link set "vb$i" up
	rm -f $D/$i.*
	ip netns exec $b python3 - $D $i <<'PY' &
import os, socket, sys
d, i = sys.argv[1], sys.argv[2]
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
r.bind(("10.9.0.2", 7390))
r.settimeout(0.05)
open("%s/%s.ready" % (d, i), "w").close()
n = 0
while not os.path.exists(d + "/quit") and not os.path.exists("%s/%s.quit" % (d, i)):
    try:
        r.recv(2048)
        n += 1
    except socket.timeout:
        # idle (the sender paused): how many were read
        with open("%s/%s.read.tmp" % (d, i), "w") as f:
            f.write(str(n))
        os.rename("%s/%s.read.tmp" % (d, i), "%s/%s.read" % (d, i))
PY
	for _ in $(seq 100); do [ -e $D/$i.ready ] && break; sleep 0.05; done
	[ -e $D/$i.ready ] || fail "pair $i: receiver not ready"
	ip netns exec $a python3 - $D $i <<'PY' &
import os, socket, sys, time
d, i = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
while not os.path.exists(d + "/quit") and not os.path.exists("%s/%s.quit" % (d, i)):
    if os.path.exists("%s/%s.pause" % (d, i)):
        open("%s/%s.paused" % (d, i), "w").close()
        time.sleep(0.01)
        continue
    try:
        s.sendto(b"d" * 200, ("10.9.0.2", 7390))
    except OSError:
        pass	# the pair is being deleted
    time.sleep(0.01)
PY
}

# check I: pause pair I's sender, let its receiver drain, compare, resume
check() {
	local i=$1 a=sl39a$1 b=sl39b$1 rx tx rd
	rm -f $D/$i.paused
	touch $D/$i.pause
	for _ in $(seq 100); do [ -e $D/$i.paused ] && break; sleep 0.02; done
	for _ in $(seq 100); do
		rx=$(ifstat $b "vb$i" rx)
		rd=$(cat $D/$i.read 2>/dev/null || echo 0)
		[ "$rx" = "$rd" ] && break
		sleep 0.05
	done
	tx=$(ifstat $a "va$i" tx)
	[ "$rx" -gt 0 ] || fail "pair $i: nothing received"
	assert_eq "pair $i: datagrams read = rx_packets of vb$i" "$rx" "$rd"
	assert_eq "pair $i: netsize vb$i.rx = rx_packets" "$rx" "$(cnt netsize "vb$i.rx")"
	assert_eq "pair $i: netsize va$i.tx = tx_packets" "$tx" "$(cnt netsize "va$i.tx")"
	assert_eq "pair $i: net_rx vb$i.total = rx_packets" "$rx" "$(cnt net_rx "vb$i.total")"
	rm -f $D/$i.pause
}

# down I: delete pair I's link with its traffic running, then the rest
down() {
	local i=$1
	ip -n "sl39a$i" link del "va$i"
	touch $D/$i.quit
	ip netns pids "sl39a$i" | xargs -r kill 2>/dev/null || true
	ip netns pids "sl39b$i" | xargs -r kill 2>/dev/null || true
	ip netns del "sl39a$i"
	ip netns del "sl39b$i"
}

sl_modprobe veth
sl_load
ctl enable net_rx
ctl enable netsize
t0=$SECONDS
for i in $(seq 1 $PAIRS); do
	up "$i"
	sleep 0.3
	if [ "$i" -gt $LIVE ]; then
		old=$((i - LIVE))
		check $old
		down $old
	fi
	note "pair $i up at $((SECONDS - t0)) s"
done
for i in $(seq $((PAIRS - LIVE + 1)) $PAIRS); do
	check "$i"
done
cat "$SL_DBG/netsize" "$SL_DBG/net_rx"
assert_eq "netsize other.rx (every pair had a slot)" 0 "$(cnt netsize other.rx)"
assert_eq "netsize other.tx" 0 "$(cnt netsize other.tx)"
touch $D/quit
ctl disable net_rx
ctl disable netsize
sl_unload
pass "$PAIRS veth pairs through 8 slots, $LIVE carrying traffic at a time, each deleted under traffic: every pair's rx, tx and total exactly its own packets"
