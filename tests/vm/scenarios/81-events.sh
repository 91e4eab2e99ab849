#!/bin/bash
# kernels: 7.3
#   7.3 only (booted preempt=full): events are written in probe context, preemptible there alone
# Slow events.
#  1. netem delays one UDP port of two on the sender's veth0 (prio qdisc,
#     u32 filter on the destination port, netem on that band only): with
#     threshold D/2 on net_tx, N datagrams of which K go to the delayed
#     port give exactly K events, each with its qdisc stage >= D (netem
#     holds a packet at least D) and every other stage below the
#     threshold D/2 (a datagram whose other stages alone passed it would
#     also be an extra event).  Read by `stacklat events -j` (netlink).
#     comm and tgid are the end point's task: for net_tx a netem-delayed
#     packet ends in softirq (whatever task it interrupted), so they are
#     not checked here; 2. and 3. check them where they are the caller's.
#  2. the same through debugfs "events" with poll() and non-blocking reads.
#  3. overruns: threshold 1 ns on func/getppid, sl-spin makes M calls on
#     each CPU with nobody reading: each CPU's ring keeps RING and counts
#     M - RING overruns, and reading gives exactly RING per CPU (RING:
#     event_records=, 3000 here, not a power of two, not the default).
#  4. the reader's sustained rate and the cost per event (noted).
#  5. a bad threshold is refused with EINVAL (control and netlink);
#  6. what the object was: net_tx events name the interface (veth0),
#     net_rx events with threshold 1 ns carry each datagram's ports and
#     interface, and block events on null_blk (completion_nsec T,
#     threshold T/2) carry the disk's MAJ:MIN, the operation, the sector
#     and the size of each of W direct writes at known offsets.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

N=30
K=7
D_MS=80
PA=6200
PB=6201
RING=3000
SPIN=$SL_REPO/tests/vm/helpers/sl-spin
OUT=/tmp/sl-81
rm -rf "$OUT"
mkdir -p "$OUT"

# send N UDP datagrams from sla, the K first of them to port PB
send_udp() { # TAG
	ip netns exec sla python3 - "$N" "$K" "$PA" "$PB" > "$OUT/send.$1" <<'PY'
import os, socket, sys, time
n, k, pa, pb = map(int, sys.argv[1:])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print(os.getpid(), flush=True)
for i in range(n):
    s.sendto(b"x" * 64, ("10.9.0.2", pb if i < k else pa))
    time.sleep(0.002)
PY
}

trap veth_down EXIT
sl_modprobe sch_netem
sl_modprobe sch_prio
sl_modprobe cls_u32
veth_up
# event_rate=0: 3 counts every attempt as written or overrun, none
# suppressed (the rate limit is 72-tcp-retrans's and 82's)
sl_load event_rate=0 event_records=$RING
ctl enable net_tx
ctl filter net_tx proto=udp
T=$((D_MS * 1000000 / 2))
ip netns exec sla tc qdisc add dev veth0 root handle 1: prio || fail "tc prio failed"
ip netns exec sla tc qdisc add dev veth0 parent 1:3 handle 30: netem delay ${D_MS}ms || fail "tc netem failed"
ip netns exec sla tc filter add dev veth0 protocol ip parent 1:0 prio 1 u32 \
	match ip dport $PB 0xffff flowid 1:3 || fail "tc filter failed"

# 5. refusals first: nothing set by them
if echo "threshold net_tx 3600000000001" > "$SL_DBG/control" 2>/dev/null; then fail "threshold above 3600 s accepted"; fi
if echo "threshold net_tx -5" > "$SL_DBG/control" 2>/dev/null; then fail "negative threshold accepted"; fi
if echo "threshold net_tx 10ms" > "$SL_DBG/control" 2>/dev/null; then fail "threshold with a unit accepted by the control file"; fi
if echo "threshold nosuch 1000" > "$SL_DBG/control" 2>/dev/null; then fail "threshold on no pipeline accepted"; fi
if "$SL_TOOL" events -t 3601s -d 0.1 net_tx 2>/dev/null; then fail "tool accepted 3601s"; fi
grep -q "threshold net_tx: '3600000000001' is not" <<<"$(sl_dmesg)" || fail "no dmesg line naming the bad threshold"
grep -q "slow events above" "$SL_DBG/status" && fail "a refused threshold was set"

# 1. netlink: exactly K events, the delay in the qdisc stage
"$SL_TOOL" events -j -d 0.2 >/dev/null	# drain whatever waits
ctl threshold net_tx $T
grep -q "slow events above $T ns" "$SL_DBG/status" || fail "threshold not in status"
send_udp nl
sleep $(((D_MS * 3 + 999) / 1000))
"$SL_TOOL" events -j -d 0.5 net_tx > "$OUT/ev.json"
python3 - "$OUT/ev.json" "$(head -1 "$OUT/send.nl")" $K $D_MS <<'PY' || fail "events do not match the delayed datagrams"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
k, d = int(sys.argv[3]), int(sys.argv[4]) * 1e6
evs = [l["event"] for l in lines if "event" in l]
summary = [l["summary"] for l in lines if "summary" in l]
for l in lines:
    assert l["schema"] == 1 and l["command"] == "events" and l["interval_ns"] is None, l
assert len(summary) == 1 and summary[0]["overruns"] == 0, summary
assert len(evs) == k, ("events", len(evs), "want", k, evs[:3])
for e in evs:
    st = {s["name"]: s["ns"] for s in e["stages"]}
    assert e["pipeline"] == "net_tx" and e["comm"] and e["tgid"] >= 0, e
    assert st.get("qdisc", 0) >= d, ("qdisc stage below the netem delay", st)
    others = {n: v for n, v in st.items() if n not in ("qdisc", "total") and not n.endswith(".total")}
    assert others and all(v < d / 2 for v in others.values()), ("delay outside qdisc", st)
    assert e["total_ns"] >= st["qdisc"], e
    assert e["ifname"] == "veth0" and "sport" not in e and "dev" not in e, e
q = [{s["name"]: s["ns"] for s in e["stages"]}["qdisc"] for e in evs]
print("%d datagrams slow -> %d events, qdisc %.1f..%.1f ms (netem %d ms), other stages < %.1f ms" % (
    k, len(evs), min(q) / 1e6, max(q) / 1e6, d / 1e6, d / 2e6))
PY

# 2. debugfs: poll() then non-blocking reads, K lines naming the qdisc stage
send_udp dbg
python3 - "$SL_DBG/events" $K <<'PY' || fail "debugfs events wrong"
import os, select, sys, time
path, k = sys.argv[1], int(sys.argv[2])
fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
p = select.poll()
p.register(fd, select.POLLIN)
buf, end = b"", time.time() + 5
while buf.count(b"\n") < k and time.time() < end:
    if not p.poll(1000):
        continue
    try:
        buf += os.read(fd, 65536)
    except BlockingIOError:
        pass
time.sleep(0.3)                   # nothing more may come
try:
    extra = os.read(fd, 65536)
except BlockingIOError:
    extra = b""
lines = buf.decode().splitlines()
assert len(lines) == k and not extra, (lines, extra)
for l in lines:
    f = l.split()
    assert f[3] == "net_tx" and "/" in f[2], l
    assert any(w.startswith("qdisc=") for w in f[5:]), l
    assert "if=veth0" in f, l
print("debugfs: %d lines, e.g. %s" % (len(lines), lines[0]))
PY
ctl threshold net_tx 0
ip netns exec sla tc qdisc del dev veth0 root

# 3. overruns: nobody reads while M calls per CPU each make an event
M=6000
ctl func add __x64_sys_getppid
ctl enable func
st() { sed -n 's/^events: .*written \([0-9]*\), read \([0-9]*\), overruns \([0-9]*\) (\(.*\))$/\1 \2 \3 \4/p' "$SL_DBG/status"; }
read -r w0 _ o0 _ <<<"$(st)"
ctl threshold func 1
"$SPIN" -n $M -t 2 -f "$SL_DBG/control" >/dev/null
ctl threshold func 0
read -r w1 _ o1 per <<<"$(st)"
note "after $M calls per CPU: written $((w1 - w0)), overruns $((o1 - o0)) ($per)"
"$SL_TOOL" events -j -d 0.5 func > "$OUT/over.json"
got=$(grep -c '"event"' "$OUT/over.json")
assert_eq "events read" $((2 * RING)) "$got"
python3 - "$OUT/over.json" "$RING" <<'PY' || fail "func events: not sl-spin's, or seq not consecutive per CPU"
import json, sys
evs = [json.loads(l)["event"] for l in open(sys.argv[1]) if '"event"' in l]
tg = {e["tgid"] for e in evs}
assert len(tg) == 1 and all(e["comm"] == "sl-spin" for e in evs), (tg, evs[0])
for cpu in (0, 1):
    seq = [e["seq"] for e in evs if e["cpu"] == cpu]
    # the ring kept the first RING attempts of each CPU, in order (seq
    # counts from the CPU's earlier events, the net_tx ones above)
    ring = int(sys.argv[2])
    assert len(seq) == ring and seq == list(range(seq[0], seq[0] + ring)), (cpu, seq[:5], len(seq))
    assert all(e["stages"][0]["name"] == "__x64_sys_getppid" for e in evs), evs[0]
PY
assert_eq "overruns" $((2 * (M - RING))) $((o1 - o0))
for c in cpu0 cpu1; do
	v=$(tr ' ' '\n' <<<"$per" | sed -n "s/^$c=//p")
	[ "$v" -ge $((M - RING)) ] || fail "$c overruns $v < $((M - RING))"
done

# 4. cost per event: sl-spin (its own tgid filter) with the func hook
# armed, threshold off and 1 ns in turn, 5 rounds interleaved, medians
# (the rings drained after each "on" run; 3000 calls < one ring); the
# reader's rate: rings filled with RING events per CPU, then drained by
# `stacklat events -j` (best of 3)
ns_call() { "$SPIN" -n 3000 -t 1 -f "$SL_DBG/control" | sed -n 's/.*ns_per_call=\([0-9]*\).*/\1/p'; }
ns_call >/dev/null		# warm up: the first run pays for what the others reuse
offs=() ons=()
for _ in 1 2 3 4 5; do
	offs+=("$(ns_call)")
	ctl threshold func 1
	ons+=("$(ns_call)")
	"$SL_TOOL" events -d 0.1 func >/dev/null 2>&1
	ctl threshold func 0
done
median() { printf '%s\n' "$@" | sort -n | sed -n 3p; }
off=$(median "${offs[@]}")
on=$(median "${ons[@]}")
note "getppid with the func hook, medians of 5 interleaved rounds: ${off} ns/call without events (${offs[*]}), ${on} ns/call with one event each (${ons[*]}): $((on - off)) ns per event"
ctl threshold func 1
best=0
bwhole=0
for _ in 1 2 3; do
	"$SPIN" -n $RING -t 2 -f "$SL_DBG/control" >/dev/null
	t0=$(date +%s%N)
	"$SL_TOOL" events -j -n $((2 * RING)) -d 20 func > "$OUT/rate.json"
	t1=$(date +%s%N)
	python3 - "$OUT/rate.json" "$t0" "$t1" $((2 * RING)) > "$OUT/rate.txt" <<'PY' || fail "rate run inconsistent"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
n = sum(1 for l in lines if "event" in l)
s, = [l["summary"] for l in lines if "summary" in l]
assert n == s["shown"] == int(sys.argv[4]) and s["overruns"] == 0, (n, s)
t = [l["time_ns"] for l in lines if "event" in l]
# sustained: between the first and the last event printed (the tool's
# start excluded); the whole run in the note below
print(int((n - 1) / max(1e-9, (t[-1] - t[0]) / 1e9)), int(n / ((int(sys.argv[3]) - int(sys.argv[2])) / 1e9)))
PY
	read -r r whole < "$OUT/rate.txt"
	if [ "$r" -gt "$best" ]; then best=$r; bwhole=$whole; fi
done
ctl threshold func 0
note "reader: $((2 * RING)) events drained as JSON lines at $best events/s sustained ($bwhole/s with the tool's start; best of 3)"
# 6. net_rx: every datagram an event (threshold 1 ns) with its ports
ctl disable func
ctl enable net_rx
ctl filter net_rx proto=udp lport=$PA
"$SL_TOOL" events -j -d 0.2 >/dev/null
ctl threshold net_rx 1
# a reader in slb: a datagram's chain ends where the application gets it
ip netns exec slb python3 - "$K" "$PA" <<'PY' &
import socket, sys
k, pa = map(int, sys.argv[1:])
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
r.bind(("10.9.0.2", pa))
r.settimeout(10)
open("/tmp/sl-81/rx.ready", "w").close()
for _ in range(k):
    r.recv(2000)
PY
RXR=$!
# (python3's start over 9p took more than the 5 s this waited on a loaded
# host: the datagrams then met no socket and the reader timed out)
for _ in $(seq 600); do [ -e "$OUT/rx.ready" ] && break; sleep 0.05; done
[ -e "$OUT/rx.ready" ] || fail "the reader in slb did not start in 30 s"
ip netns exec sla python3 - "$K" "$PA" <<'PY' > "$OUT/rx.sport"
import socket, sys, time
k, pa = map(int, sys.argv[1:])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.9.0.1", 0))
print(s.getsockname()[1], flush=True)
for _ in range(k):
    s.sendto(b"r" * 64, ("10.9.0.2", pa))
    time.sleep(0.002)
PY
wait $RXR || fail "the reader did not get the $K datagrams"
ctl threshold net_rx 0
"$SL_TOOL" events -j -d 0.3 net_rx > "$OUT/rx.json"
python3 - "$OUT/rx.json" "$(cat "$OUT/rx.sport")" $PA $K <<'PY' || fail "net_rx events lack their ports or interface"
import json, sys
evs = [json.loads(l)["event"] for l in open(sys.argv[1]) if '"event"' in l]
sport, dport, k = map(int, sys.argv[2:])
assert len(evs) == k, (len(evs), evs[:2])
for e in evs:
    assert (e["sport"], e["dport"], e["ifname"]) == (sport, dport, "veth1"), e
print("net_rx: %d events, each sport %d dport %d if veth1" % (len(evs), sport, dport))
PY
ctl disable net_rx

# 6. block: W direct writes to null_blk at known offsets, each slower than
# the threshold (the device completes after T)
BT=10000000
W=5
sl_nullblk 1 irqmode=2 completion_nsec=$BT queue_mode=2 gb=1
ctl enable block
ctl filter block dev=nullb0
"$SL_TOOL" events -j -d 0.2 >/dev/null
ctl threshold block $((BT / 2))
for i in $(seq 0 $((W - 1))); do
	dd if=/dev/zero of=/dev/nullb0 bs=4k count=1 seek=$((i * 3)) oflag=direct status=none
done
ctl threshold block 0
"$SL_TOOL" events -j -d 0.3 block > "$OUT/blk.json"
python3 - "$OUT/blk.json" "$(cat /sys/block/nullb0/dev)" $W $BT <<'PY' || fail "block events lack their disk, operation, sector or size"
import json, sys
evs = [json.loads(l)["event"] for l in open(sys.argv[1]) if '"event"' in l]
dev, w, t = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
assert len(evs) == w, (len(evs), evs[:2])
# 4 KiB at block i * 3: sector i * 24
got = sorted((e["dev"], e["op"], e["sector"], e["bytes"]) for e in evs)
assert got == [(dev, "write", i * 24, 4096) for i in range(w)], got
# null_blk's timer completes a request after T, never before (0.9: the
# clock reads at the two points are not the timer's own)
for e in evs:
    st = {s["name"]: s["ns"] for s in e["stages"]}
    assert st["D2C"] >= 0.9 * t and e["total_ns"] >= st["D2C"], e
print("block: %d events on %s, writes at sectors %s, 4096 bytes each" % (w, dev, [g[2] for g in got]))
PY
ctl disable block
pass "K=$K of N=$N datagrams slow -> exactly $K events with the delay in qdisc (netlink and debugfs); overruns exact ($((2 * (M - RING))) lost = counted); bad thresholds refused; events name interface, ports, disk, op, sector, size"
