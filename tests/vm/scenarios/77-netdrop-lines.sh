#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# (issue 28: on every kernel of the matrix.  5.10 has no drop reason
# names: the stage is the dropping function; 6.1 names reasons by one
# list, 6.12 and 7.3 by subsystem lists; 7.3 runs with preempt=full, and
# 6.1-rt drops in softirq threads)
# netdrop lines (events --all netdrop): one line for every drop.
#  - N4 datagrams from a socket bound to port SP to a closed UDP port on
#    127.0.0.1 and N6 to one on ::1: a line for every drop the histogram
#    counts, stage by stage, and exactly N4 + N6 UDP lines, each with the
#    drop's reason (NO_SOCKET, or the dropping function on 5.10) as its
#    stage, proto udp, the packet's addresses and ports, interface lo, the
#    dropping location as function+offset (the reason's function: a UDP
#    receive function), no process (loopback delivers in softirq);
#  - the text lines (debugfs and the tool) carry the same words and no
#    kernel address;
#  - stacks at the drop point (stacks netdrop on): K more datagrams, K
#    lines each with the stack that dropped it (the UDP receive function
#    among its frames, innermost first, no address), and the pipeline's
#    stack table counts every drop once: its counts add up to the lines,
#    the UDP receive stacks' to K, their sums to the bytes the histogram
#    has for those drops; another pipeline is refused stacks;
#  - netem loss on a veth (to a receiver in a namespace of its own, the
#    neighbour entry permanent): the sender's qdisc drops some of KV
#    datagrams; exactly as many lines as the qdisc's own "dropped" count,
#    each on that interface, with one reason (its name has QDISC in it
#    where the kernel names reasons; 5.10: the function that freed them),
#    and the datagrams the receiver got plus those are KV;
#  - a drop storm under event_rate=100 (10 lines of a pipeline per CPU in
#    each 100 ms window): S drops are each a line or counted suppressed,
#    exactly (the rings hold them all: no overrun), and the histogram still
#    counts every one.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

N4=30 N6=20 SP=7711 P4=9311 P6=9312 S=2000

# send N datagrams of 100 bytes from port SP to ADDR PORT, quickly
send() {
	python3 - "$@" <<'PY'
import socket, sys
addr, port, n, sp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
s = socket.socket(socket.AF_INET6 if ":" in addr else socket.AF_INET, socket.SOCK_DGRAM)
if sp:
    s.bind((addr, sp))
for _ in range(n):
    s.sendto(b"d" * 100, (addr, port))
PY
}

sl_load
ctl enable netdrop
ctl filter netdrop clear ifindex=1
ctl reset
ctl threshold netdrop all
send 127.0.0.1 $P4 $N4 $SP
send ::1 $P6 $N6 $SP
"$SL_TOOL" events -j -d 3 netdrop >/tmp/sl-77.ev 2>/dev/null || true
grep -m 2 '"event"' /tmp/sl-77.ev || true
cat "$SL_DBG/netdrop" | tee /tmp/sl-77.tab
if grep -qE ' (drop_reasons|drop_reasons_by_subsys)$' /proc/kallsyms; then
	closed4=NO_SOCKET closed6=NO_SOCKET
else
	# no reason names: the dropping functions name the stages (and 5.10
	# also drops the ICMPv6 port unreachable errors ::1 sends itself,
	# under icmpv6_rcv: lines too, with proto icmpv6)
	closed4=$(awk '$1 ~ /udp4?_.*rcv/ && $1 !~ /udp6|udpv6/ { print $1; exit }' /tmp/sl-77.tab)
	closed6=$(awk '$1 ~ /udp6_.*rcv|udpv6_rcv/ { print $1; exit }' /tmp/sl-77.tab)
fi
closed=$closed4
note "closed port drops under '$closed4' (v4) and '$closed6' (v6)"
if [ "$closed4" = "$closed6" ]; then
	assert_eq "drops counted" $((N4 + N6)) "$(cnt netdrop "$closed4")"
else
	assert_eq "v4 drops counted" $N4 "$(cnt netdrop "$closed4")"
	assert_eq "v6 drops counted" $N6 "$(cnt netdrop "$closed6")"
fi
bad=$(python3 - /tmp/sl-77.ev /tmp/sl-77.tab "$closed4" "$closed6" $N4 $N6 $SP $P4 $P6 <<'PY'
import json, re, sys
ev = [json.loads(l)["event"] for l in open(sys.argv[1]) if '"event"' in l]
# the histogram's counts per reason stage (not the ".drops" ones)
tab = {}
for l in open(sys.argv[2]):
    w = l.split()
    if len(w) > 1 and w[1].isdigit() and not w[0].endswith(".drops") and w[0] != "stage":
        tab[w[0]] = int(w[1])
c4, c6 = sys.argv[3], sys.argv[4]
n4, n6, sp, p4, p6 = map(int, sys.argv[5:10])
bad = []
# every drop has its line: per stage, as many lines as the histogram counts
per = {}
for e in ev:
    st = [s["name"] for s in e["stages"]]
    per[st[0] if st else "?"] = per.get(st[0] if st else "?", 0) + 1
if per != {k: v for k, v in tab.items() if v}:
    bad.append("lines per stage %s, the histogram's %s" % (per, tab))
lo = {4: ("127.0.0.1", p4, c4), 6: ("::1", p6, c6)}
seen = {4: 0, 6: 0}
where = re.compile(r"^([A-Za-z0-9_.]+)\+0x[0-9a-f]+(\[[A-Za-z0-9_]+\])?$")
for e in ev:
    w = where.match(e.get("where", ""))
    if not w or e["pipeline"] != "netdrop" or e["total_ns"] != 0 or \
       e.get("ifname") != "lo" or e["tgid"] != 0 or e["comm"] != "-":
        bad.append("line: %s" % json.dumps(e))
        continue
    if e.get("proto") != "udp":
        # 5.10's own ICMPv6 errors: dropped by icmpv6_rcv
        if e.get("proto") != "icmpv6" or e.get("family") != 6 or "icmpv6" not in w.group(1):
            bad.append("line: %s" % json.dumps(e))
        continue
    fam = e.get("family")
    if fam not in lo or [s["name"] for s in e["stages"]] != [lo[fam][2]] or \
       e.get("saddr") != lo[fam][0] or e.get("daddr") != lo[fam][0] or \
       e.get("sport") != sp or e.get("dport") != lo[fam][1] or "udp" not in w.group(1):
        bad.append("line: %s" % json.dumps(e))
        continue
    seen[fam] += 1
if seen != {4: n4, 6: n6}:
    bad.append("udp lines by family %s, not %d and %d" % (seen, n4, n6))
print("\n".join(bad[:5]))
PY
)
[ -z "$bad" ] || fail "lines: $bad"

note "the text lines: the tool's and debugfs's"
send 127.0.0.1 $P4 1 $SP
out=$("$SL_TOOL" events -n 1 -d 3 netdrop 2>/dev/null) || true
echo "$out"
grep -qE "netdrop total=[^ ]+ $closed=[^ ]+ if=lo sport=$SP dport=$P4 saddr=127.0.0.1 daddr=127.0.0.1 proto=udp where=[A-Za-z0-9_.]*udp[A-Za-z0-9_.]*\+0x[0-9a-f]+" <<<"$out" ||
	fail "the tool's text line: '$out'"
send ::1 $P6 1 $SP
out=$(timeout 5 head -n 1 "$SL_DBG/events" 2>/dev/null) || true
# (5.10: then its ICMPv6 error's line, not read)
echo "$out"
grep -qE " - 0/0 netdrop total=[^ ]+ $closed6=[^ ]+ if=lo sport=$SP dport=$P6 saddr=::1 daddr=::1 proto=udp where=[A-Za-z0-9_.]*udp" <<<"$out" ||
	fail "debugfs's text line: '$out'"
if grep -qE '0x[0-9a-f]{8,}|ffff[0-9a-f]{12}' /tmp/sl-77.ev ||
	grep -qE '0x[0-9a-f]{8,}|ffff[0-9a-f]{12}' <<<"$out"; then
	fail "an address in a line"
fi
assert_eq "suppressed (event_rate=10000)" 0 "$(lost netdrop suppressed)"

note "stacks at the drop point"
K=10
if echo "stacks net_rx on" > "$SL_DBG/control" 2>/dev/null; then
	fail "stacks at net_rx's points accepted"
fi
if "$SL_TOOL" stacks on storage 2>/tmp/sl-77.err; then
	fail "stacklat stacks on storage accepted"
fi
grep -q "storage takes no stacks\|no stacks at the points" /tmp/sl-77.err ||
	fail "stacks on storage: no reason given: $(cat /tmp/sl-77.err)"
"$SL_TOOL" stacks on netdrop
grep -A12 '^pipeline netdrop' "$SL_DBG/status" | grep 'stacks:'
ctl reset netdrop
send 127.0.0.1 $P4 $K $SP
"$SL_TOOL" events -j -d 2 netdrop >/tmp/sl-77.sev 2>/dev/null || true
cat "$SL_DBG/netdrop" > /tmp/sl-77.stab
"$SL_TOOL" stacks show -n 3
bad=$(python3 - /tmp/sl-77.sev "$("$SL_TOOL" stacks show -j)" /tmp/sl-77.stab "$closed4" $K <<'PY'
import json, re, sys
ev = [json.loads(l)["event"] for l in open(sys.argv[1]) if '"event"' in l]
st = [s for s in json.loads(sys.argv[2])["stacks"] if s["pipeline"] == "netdrop"]
tab = {w[0]: w for w in (l.split() for l in open(sys.argv[3])) if len(w) > 2}
c4, k = sys.argv[4], int(sys.argv[5])
bad = []
udp = lambda fr: any(re.match(r"[A-Za-z0-9_.]*udp[A-Za-z0-9_.]*rcv[A-Za-z0-9_.]*\+0x", f) for f in fr)
u = [e for e in ev if e.get("proto") == "udp"]
if len(u) != k:
    bad.append("%d udp lines, not %d" % (len(u), k))
for e in u:
    if not e.get("stack_id") or not udp(e.get("stack", [])) or "[stacklat]" in e["stack"][0]:
        bad.append("line without its stack: %s" % json.dumps(e))
        break
if sum(s["count"] for s in st) != len(ev):
    bad.append("stack counts %d, lines %d" % (sum(s["count"] for s in st), len(ev)))
us = [s for s in st if udp(s["frames"])]
if sum(s["count"] for s in us) != k:
    bad.append("UDP receive stacks count %d, not %d" % (sum(s["count"] for s in us), k))
# the histogram's sum of bytes for the closed-port stage, from its count
# and average is not exact: its count must be K, and each drop's bytes
# (skb->len, the same for each datagram) times K the stacks' sum
n = int(tab.get(c4, [c4, "0"])[1])
if n != k:
    bad.append("histogram %s %d, not %d" % (c4, n, k))
if us and sum(s["sum"] for s in us) % k:
    bad.append("UDP stacks' bytes %d not K equal drops" % sum(s["sum"] for s in us))
if any(re.search(r"0x[0-9a-f]{8,}|ffff[0-9a-f]{12}", f) for s in st for f in s["frames"]):
    bad.append("an address in a frame")
print("\n".join(bad[:5]))
PY
)
[ -z "$bad" ] || fail "stacks: $bad"
echo "ok: $K drops: $K lines with their stacks, the table counts each once"
"$SL_TOOL" stacks off netdrop

note "netem loss on a veth: the qdisc's own drops, a line each"
KV=200 PV=7712
sl_modprobe veth
sl_modprobe sch_netem
ip netns add sl77
trap 'ip netns del sl77 2>/dev/null || true' EXIT
ip link add sl77a type veth peer name sl77b netns sl77
# nothing but the datagrams on the pair: IPv6 off on both ends (no router
# solicitations, no DAD), no ARP through the lossy qdisc (below)
sysctl -qw net.ipv6.conf.sl77a.disable_ipv6=1
ip netns exec sl77 sysctl -qw net.ipv6.conf.sl77b.disable_ipv6=1
ip addr add 10.77.0.1/24 dev sl77a
ip -n sl77 addr add 10.77.0.2/24 dev sl77b
ip link set sl77a up
ip -n sl77 link set sl77b up
ip neigh replace 10.77.0.2 dev sl77a nud permanent \
	lladdr "$(ip -n sl77 -br link show sl77b | awk '{ print $3 }')"
tc qdisc add dev sl77a root netem loss 30%
ip netns exec sl77 python3 - $PV $KV > /tmp/sl-77v.rx <<'PY' &
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.77.0.2", int(sys.argv[1])))
s.settimeout(3)
print("ready", flush=True)
n = 0
try:
    while n < int(sys.argv[2]):
        s.recv(2048)
        n += 1
except socket.timeout:
    pass
print(n)
PY
rx=$!
for _ in $(seq 200); do grep -q ready /tmp/sl-77v.rx 2>/dev/null && break; sleep 0.05; done
ctl filter netdrop clear iface=sl77a
ctl reset netdrop
python3 - $PV $KV <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[2])):
    s.sendto(b"v" * 100, ("10.77.0.2", int(sys.argv[1])))
PY
wait $rx
got=$(tail -n 1 /tmp/sl-77v.rx)
qd=$(tc -s qdisc show dev sl77a | awk '/dropped/ { for (i = 1; i < NF; i++) if ($i == "(dropped") { sub(",", "", $(i + 1)); print $(i + 1) } }')
"$SL_TOOL" events -j -d 2 netdrop >/tmp/sl-77v.ev 2>/dev/null || true
cat "$SL_DBG/netdrop"
note "netem: $KV datagrams, $got received, the qdisc dropped $qd"
assert_eq "received + the qdisc's drops" $KV $((got + qd))
read -r nl nif reasons <<<"$(python3 - /tmp/sl-77v.ev <<'PY'
import json, sys
ev = [json.loads(l)["event"] for l in open(sys.argv[1]) if '"event"' in l]
r = sorted({(e["stages"][0]["name"] if e["stages"] else "?") for e in ev})
print(len(ev), sum(1 for e in ev if e.get("ifname") == "sl77a" and e.get("daddr") == "10.77.0.2"), ",".join(r) or "-")
PY
)"
note "lines $nl, reasons $reasons"
assert_eq "netdrop lines on sl77a (= the qdisc's drops)" "$qd" "$nl"
assert_eq "... each to the receiver on sl77a" "$qd" "$nif"
[ "$qd" -gt 0 ] || fail "netem dropped nothing of $KV at 30 %"
case $reasons in
*,*) fail "more than one reason: $reasons" ;;
esac
if grep -qE ' (drop_reasons|drop_reasons_by_subsys)$' /proc/kallsyms; then
	[[ $reasons == *QDISC* ]] || fail "reason $reasons, not a qdisc's"
fi
ip netns del sl77
trap - EXIT
ctl threshold netdrop 0
ctl disable netdrop
sl_unload

# a drop storm: every drop a line or suppressed, exactly
sl_load event_rate=100
ctl enable netdrop
ctl filter netdrop clear ifindex=1
ctl threshold netdrop all
t0=$(date +%s%N)
send 127.0.0.1 $P4 $S 0
t1=$(date +%s%N)
"$SL_TOOL" events -j -d 2 netdrop >/tmp/sl-77s.ev 2>/dev/null || true
w=$(grep -c '"event"' /tmp/sl-77s.ev) || true
sup=$(lost netdrop suppressed)
ovr=$(python3 -c 'import json,sys; print([json.loads(l)["summary"]["overruns"] for l in open(sys.argv[1]) if "\"summary\"" in l][-1])' /tmp/sl-77s.ev)
note "storm: $S drops in $(((t1 - t0) / 1000000)) ms: $w lines, $sup suppressed, $ovr overruns"
assert_eq "drops counted in the histogram" $S "$(cnt netdrop "$closed")"
assert_eq "overruns" 0 "$ovr"
assert_eq "lines + suppressed (every drop)" $S $((w + sup))
# a run of L ns spans at most L / 100 ms + 2 windows, on each of 2 CPUs
max=$(((($(date +%s%N) - t0) / 100000000 + 2) * 10 * 2))
[ "$w" -le $max ] || fail "rate limit: $w lines, more than $max"
[ "$sup" -gt 0 ] || fail "rate limit: nothing suppressed of $S drops"
ctl disable netdrop
sl_unload
pass "netdrop lines: $((N4 + N6)) drops, $((N4 + N6)) lines with reason $closed4/$closed6, udp, addresses, ports, lo and the location; storm of $S: $w lines + $sup suppressed"
