#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: any
#   one kernel: the table's bookkeeping is the engine's, the same on each
# What the in-flight table loses is counted under the pipeline whose chain
# it was, by name.  A table of 256 entries (flight_entries=256) and a
# stale age of 2 s (stale_ms=2000): net_rx follows UDP datagrams sent for
# 12 s on loopback (about a thousand a second) to sockets that never read
# them and have room for them all, so every chain waits in the table for
# a read that never comes.  The table fills within a second (inserts that
# find no slot: table_full); each entry turns stale 2 s after its insert,
# and the inserts going on reclaim it within tens of ms (the sweep, every
# second, takes the ones nobody reclaimed first).  Then:
#  - net_rx's stale = the table's stale (reclaimed and swept), and > 0;
#  - net_rx's table_full = the table's full, and > 0;
#  - net_rx's busy = the table's busy;
# net_rx is the only pipeline enabled: every entry of the table is its.
# (Before issue 25's fix only the sweep's stale reached the pipeline: a
# reclaimed entry moved the table's counter alone.)
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

T=12
# table COUNTER: a counter of the in-flight table's status line
table() { sed -n "s/^in-flight table: .* $1 \([0-9]*\)[,;].*/\1/p" "$SL_DBG/status"; }

sl_load flight_entries=256 stale_ms=2000
ctl enable net_rx
# room for every datagram in the sockets (nothing dropped there): each
# chain lives until the sockets close, so that the table stays full of
# entries that turn stale one after the other, 2 s after their inserts
sysctl -qw net.core.rmem_max=$((64 << 20))
python3 - $T <<'PY'
import socket, time, sys
t = float(sys.argv[1])
ports = range(7501, 7505)
socks = []
for port in ports:
    r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
    r.bind(("127.0.0.1", port))
    socks.append(r)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
end = time.monotonic() + t
n = 0
while time.monotonic() < end:
    for port in ports:
        s.sendto(b"x" * 16, ("127.0.0.1", port))
        n += 1
    time.sleep(0.004)
print("sent", n)
# the sockets close: their queued datagrams are freed, chains forgotten
for r in socks:
    r.close()
PY
# the last entries age out (2 s) and a sweep (every second) takes them
for _ in $(seq 60); do
	[ "$(in_flight)" = 0 ] && break
	sleep 0.5
done
grep "^in-flight table:" "$SL_DBG/status"
grep -A4 "^pipeline net_rx:" "$SL_DBG/status" | grep "lost:"
assert_eq "in-flight entries left" 0 "$(in_flight)"
stale=$(table stale)
full=$(table full)
busy=$(table busy)
assert_range "the table's stale (reclaimed and swept)" 1 1000000000 "$stale"
assert_range "the table's full" 1 1000000000 "$full"
assert_eq "net_rx stale = the table's" "$stale" "$(lost net_rx stale)"
assert_eq "net_rx table_full = the table's" "$full" "$(lost net_rx table_full)"
assert_eq "net_rx busy = the table's" "$busy" "$(lost net_rx busy)"
ctl reset
assert_eq "net_rx stale after a reset" 0 "$(lost net_rx stale)"
assert_eq "net_rx table_full after a reset" 0 "$(lost net_rx table_full)"
ctl disable net_rx
sl_unload
pass "a 256-entry table flooded for $T s: $stale stale (reclaimed by inserts and swept), $full full, $busy busy, all net_rx's"
