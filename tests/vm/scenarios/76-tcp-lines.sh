#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# (issue 28: the identity lines on every kernel of the matrix; on 6.1-rt
# the connects and accepts run in preemptible softirq threads)
# tcpconnect and tcpaccept identity lines ("threshold PIPELINE all"): one
# process connects N4 times over 127.0.0.1 and N6 times over ::1 to its
# own listener (accepted by its other thread) and M times to a closed port.
#  - exactly N4 + N6 tcpaccept lines and N4 + N6 + M tcpconnect lines;
#  - the connects: the helper's tgid and main thread, result 0 and stage
#    "connect" to the listener's port, result ECONNREFUSED (111) and stage
#    "refused" to the closed one, the family's loopback addresses;
#  - the accepts: the helper's tgid from another thread (the acceptor),
#    local port the listener's, remote ports exactly the successful
#    connects' local ports, an acceptq stage, the queue's limit the
#    listen() backlog (128) and a length no more than it;
#  - no line suppressed, nothing left in flight.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

TC=$SL_REPO/tests/vm/helpers/tcpconn.py
N4=5 N6=3 M=4 P4=7601 P6=7603 PC=7602

sl_load
ctl enable tcpconnect
ctl enable tcpaccept
ctl reset
ctl threshold tcpconnect all
ctl threshold tcpaccept all

note "$N4 connects over 127.0.0.1, $N6 over ::1, $M to a closed port"
# the helper in a cgroup of its own: every line carries its id (a
# connect's line is written where the answer arrives, softirq on any
# task: the id kept from connect())
CG=/sys/fs/cgroup
grep -q "^cgroup2 $CG " /proc/mounts || mount -t cgroup2 cgroup2 $CG || fail "cannot mount cgroup2"
rmdir $CG/sl76 2> /dev/null || true
mkdir $CG/sl76
cgid=$(stat -c %i $CG/sl76)
sh -c "echo \$\$ > $CG/sl76/cgroup.procs && exec python3 $TC lines $P4 $N4 $P6 $N6 $PC $M" >/tmp/sl-76.out
rmdir $CG/sl76
cat /tmp/sl-76.out
"$SL_TOOL" events -j -n $((2 * (N4 + N6) + M + 1)) -d 3 tcpconnect tcpaccept \
	>/tmp/sl-76.ev 2>/dev/null || true
# the first four (grep -m: head closing a pipe grep still writes to made
# grep die of SIGPIPE, a failure under pipefail, 1 run in some)
grep -m 4 '"event"' /tmp/sl-76.ev || true
bad=$(python3 - /tmp/sl-76.out /tmp/sl-76.ev $N4 $N6 $M $P4 $P6 $PC $cgid <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
ev = [json.loads(l)["event"] for l in open(sys.argv[2]) if '"event"' in l]
n4, n6, m, p4, p6, pc, cgid = map(int, sys.argv[3:10])
bad = []
cgs = sorted(set(e["cgroup_id"] for e in ev))
if cgs != [cgid]:
    bad.append("lines of cgroups %s, not only the helper's %d" % (cgs, cgid))
con = [e for e in ev if e["pipeline"] == "tcpconnect"]
acc = [e for e in ev if e["pipeline"] == "tcpaccept"]
if len(con) != n4 + n6 + m:
    bad.append("%d connect lines, not %d" % (len(con), n4 + n6 + m))
if len(acc) != n4 + n6:
    bad.append("%d accept lines, not %d" % (len(acc), n4 + n6))
lo = {4: "127.0.0.1", 6: "::1"}
want = {p4: (n4, 4, 0, "connect"), p6: (n6, 6, 0, "connect"), pc: (m, 4, 111, "refused")}
for port, (n, fam, res, stage) in want.items():
    got = [e for e in con if e.get("dport") == port]
    if len(got) != n:
        bad.append("%d connect lines to %d, not %d" % (len(got), port, n))
    for e in got:
        # a refused connect's socket has given its port back when the line
        # is written: the port connect() chose, kept from its start
        if not 0 < e.get("sport", 0) < 65536 or e["sport"] in (p4, p6, pc):
            bad.append("connect line without its local port: %s" % json.dumps(e))
        if (e["tgid"], e["tid"]) != (h["pid"], h["pid"]) or e["comm"] != h["comm"] or \
           e.get("result") != res or [s["name"] for s in e["stages"]] != [stage] or \
           e.get("family") != fam or e.get("saddr") != lo[fam] or e.get("daddr") != lo[fam]:
            bad.append("connect line: %s" % json.dumps(e))
ok_sports = sorted(e["sport"] for e in con if e.get("result") == 0)
if ok_sports != sorted(h["sports"]):
    bad.append("connect sports %s, the helper's %s" % (ok_sports, sorted(h["sports"])))
acc_dports = sorted(e["dport"] for e in acc)
if acc_dports != sorted(h["sports"]):
    bad.append("accept dports %s, the helper's %s" % (acc_dports, sorted(h["sports"])))
for e in acc:
    fam = 6 if e["sport"] == p6 else 4
    names = [s["name"] for s in e["stages"]]
    if e["tgid"] != h["pid"] or e["tid"] == h["pid"] or e["comm"] != h["comm"] or \
       e["sport"] not in (p4, p6) or "%d.acceptq" % e["sport"] not in names or \
       e.get("family") != fam or e.get("saddr") != lo[fam] or e.get("daddr") != lo[fam] or \
       e.get("qmax") != 128 or not 0 <= e.get("qlen", -1) <= 128:
        bad.append("accept line: %s" % json.dumps(e))
print("\n".join(bad))
PY
)
[ -z "$bad" ] || fail "lines: $bad"
note "the text lines of one of each over 127.0.0.1 and ::1 and one refused"
python3 "$TC" lines 7611 1 7613 1 7612 1 >/dev/null
out=$("$SL_TOOL" events -n 6 -d 3 tcpconnect tcpaccept 2>/dev/null) || true
echo "$out"
assert_eq "text lines" 5 "$(grep -c ' tcp\(connect\|accept\) ' <<<"$out" || true)"
assert_eq "refused text line" 1 "$(grep -c ' tcpconnect .* refused=.* dport=7612 .* result=111' <<<"$out" || true)"
assert_eq "tcpconnect lines suppressed" 0 "$(lost tcpconnect suppressed)"
assert_eq "tcpaccept lines suppressed" 0 "$(lost tcpaccept suppressed)"
ctl threshold tcpconnect 0
ctl threshold tcpaccept 0
sleep 0.2
assert_eq "in flight after the traffic" 0 "$(in_flight)"
ctl disable tcpconnect
ctl disable tcpaccept
sl_unload
pass "$((N4 + N6)) accept and $((N4 + N6 + M)) connect lines: ports, addresses, pid, the helper's cgroup, results 0 and 111"
