#!/bin/bash
# kernels: any
#   one kernel: the tool's JSON and metrics; the counts under them are exact on each kernel in 10 and 42
# One JSON schema on every -j output, and the metrics exposition.
# The func pipeline on two syscalls driven exactly N times per thread:
#  - status -j, show -j (once and with an interval), hist -j parse as the
#    documented envelope, and their numbers are the debugfs files' and the
#    human table's (counts exact, percentiles to the table's three digits);
#  - inflight -j shows three unread datagrams in net_rx as debugfs does;
#  - stacklat metrics passes `promtool check metrics`, its _count, +Inf
#    bucket and _sum are show -j's, every cumulative bucket is the sum of
#    hist -j's kernel buckets below its edge, losses are status's;
#  - --textfile writes the same text to DIR/stacklat.prom (0644, no
#    temporary file left), fails on a missing DIR, and a disabled pipeline
#    is not exported.
#  - every key docs/json.md lists is emitted and every key emitted is
#    listed (tests/json-keys-check.py), on the outputs above and, after a
#    little real work, status -j with keyed pipelines, events -j lines
#    (func, offcpu with stacks, block, net_rx, tcpconnect, tcpaccept,
#    netdrop), every top view and stacks show -j.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

N=3000
T=2
SPIN=$SL_REPO/tests/vm/helpers/sl-spin
OUT=/tmp/sl-80
rm -rf "$OUT"
mkdir -p "$OUT/tf"

# cgroup_slots=0: func without its per-cgroup stages (84-cgroup tests them),
# so that its stages are the two functions' here
sl_load cgroup_slots=0
echo "func add __x64_sys_getppid" > "$SL_DBG/control"
echo "func add __x64_sys_getpid" > "$SL_DBG/control"
echo "enable func" > "$SL_DBG/control"
"$SPIN" -n $N -t $T -f "$SL_DBG/control" >/dev/null

"$SL_TOOL" status -j > "$OUT/status.json"
"$SL_TOOL" show -j func > "$OUT/show.json"
"$SL_TOOL" show func > "$OUT/show.txt"
"$SL_TOOL" show -j func 0.2 2 > "$OUT/show-int.json"
"$SL_TOOL" hist -j func > "$OUT/hist.json"
"$SL_TOOL" hist -j func __x64_sys_getpid > "$OUT/hist1.json"
"$SL_TOOL" metrics > "$OUT/metrics.prom"
"$SL_TOOL" metrics --textfile "$OUT/tf"
cp "$SL_DBG/func" "$OUT/dbg-func"
cp "$SL_DBG/status" "$OUT/dbg-status"

promtool check metrics < "$OUT/metrics.prom" || fail "promtool rejects the metrics: $(promtool check metrics < "$OUT/metrics.prom" 2>&1 | head -3)"
# the tool's own getpid() calls (libnl's port id) come between the two
# and are counted by the filter (sl-spin's tgid=): that line only differs
grep -v '^stacklat_lost_filtered_total{pipeline="func"}' "$OUT/metrics.prom" > "$OUT/a.prom"
grep -v '^stacklat_lost_filtered_total{pipeline="func"}' "$OUT/tf/stacklat.prom" > "$OUT/b.prom"
diff "$OUT/a.prom" "$OUT/b.prom" > "$OUT/tf.diff" 2>&1 ||
	fail "--textfile wrote something else than stdout: $(head -c 600 "$OUT/tf.diff")"
[ "$(stat -c %a "$OUT/tf/stacklat.prom")" = 644 ] || fail "stacklat.prom is not 0644"
[ "$(ls -A "$OUT/tf")" = stacklat.prom ] || fail "temporary files left: $(ls -A "$OUT/tf")"
if "$SL_TOOL" metrics --textfile "$OUT/none" 2>/dev/null; then fail "--textfile into a missing directory succeeded"; fi

ret_kind
python3 - "$OUT" $((N * T)) "$RK" <<'PY' || fail "JSON or metrics disagree"
import json, re, sys
out, n, rk = sys.argv[1], int(sys.argv[2]), sys.argv[3]
units = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
def ns(s):
    m = re.fullmatch(r"~?([0-9.]+)(ns|us|ms|s)", s)
    return float(m.group(1)) * units[m.group(2)]
def lines(f):
    return [json.loads(l) for l in open(out + "/" + f).read().splitlines()]
def env(o, cmd, interval):
    assert o["schema"] == 1 and o["command"] == cmd, o
    assert isinstance(o["time_ns"], int) and o["time_ns"] > 10**18, o["time_ns"]
    assert (o["interval_ns"] is None) != interval, o["interval_ns"]
    assert isinstance(o["pipelines"], list)
STAGE = {"name", "index", "unit", "count", "sum", "min", "max", "avg", "p50", "p90",
         "p99", "p999", "overflow", "min_exact", "max_exact", "sum_ns", "min_ns",
         "max_ns", "avg_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns"}
syms = {"__x64_sys_getppid", "__x64_sys_getpid"}

# status -j against debugfs status
st, = lines("status.json")
env(st, "status", False)
p, = [p for p in st["pipelines"] if p["pipeline"] == "func"]
assert p["enabled"] is True and p["key"] == "call", p
hooks = {h["name"]: h for h in p["hooks"]}
dbg = open(out + "/dbg-status").read()
for s in syms:
    h = hooks[s]
    assert h["state"] == "armed" and h["kind"] == rk and h["error"] is None, h
    m = re.search(r"hook %s .*hits=(\d+)" % s, dbg)
    # getppid: sl-spin's calls only; getpid: anyone's (libnl's port id),
    # some of them after status -j and before debugfs was read
    if s == "__x64_sys_getppid":
        assert h["hits"] == int(m.group(1)) == n, (h, m.group(0))
    else:
        assert 0 < h["hits"] <= int(m.group(1)), (h, m.group(0))
assert {s["name"] for s in p["stages"]} == syms, p["stages"]
assert st["module"]["nr_pipelines"] == len(st["pipelines"]), st["module"]

# show -j against the debugfs table and the human table
sh, = lines("show.json")
env(sh, "show", False)
sp, = sh["pipelines"]
assert sp["pipeline"] == "func" and sp["enabled"] is True and sp["reset"] is False, sp
dbgrows = {l.split()[0]: l.split() for l in open(out + "/dbg-func").read().splitlines()[1:]}
txtrows = {l.split()[0]: l.split() for l in open(out + "/show.txt").read().splitlines()[2:]}
stages = {s["name"]: s for s in sp["stages"]}
assert set(stages) == syms, stages.keys()
# getppid: exactly sl-spin's calls; getpid: sl-spin makes none, every
# other process is filtered out (tgid=sl-spin), so its count is fixed too
want = {"__x64_sys_getppid": n, "__x64_sys_getpid": int(dbgrows["__x64_sys_getpid"][1])}
for name, s in stages.items():
    assert set(s) == STAGE, set(s) ^ STAGE
    assert s["unit"] == "ns" and s["count"] == want[name], (s, want)
    assert int(dbgrows[name][1]) == want[name] == int(txtrows[name][1]), (dbgrows[name], txtrows[name])
    if not s["count"]:
        continue
    for k in ("sum", "min", "max", "avg", "p50", "p90", "p99", "p999"):
        assert s[k] == s[k + "_ns"], k
    assert s["min"] <= s["p50"] <= s["p90"] <= s["p99"] <= s["p999"] <= s["max"], s
    # the table prints three significant digits, truncated
    for col, key in ((2, "avg"), (3, "p50"), (4, "p90"), (5, "p99"), (6, "p999"), (7, "max")):
        v = ns(txtrows[name][col])
        assert v <= s[key] <= v * 1.01 + 1, (name, col, txtrows[name][col], s[key])
    # the maximum read over netlink (STACKLAT_HIST_A_MAX_VALUE) is the
    # one debugfs prints from the same histogram
    v = ns(dbgrows[name][7])
    assert v <= s["max"] <= v * 1.01 + 1, (name, dbgrows[name][7], s["max"])

# show -j with an interval: the same shape, one line per sample
ints = lines("show-int.json")
assert len(ints) == 2, len(ints)
for o in ints:
    env(o, "show", True)
    assert 0.1e9 < o["interval_ns"] < 5e9, o["interval_ns"]
    ip, = o["pipelines"]
    assert ip["pipeline"] == "func" and ip["reset"] is False, ip
    for s in ip["stages"]:
        assert set(s) == STAGE and s["count"] == 0, s   # nothing ran meanwhile

# hist -j: the stage objects of show, plus the kernel's buckets
hi, = lines("hist.json")
env(hi, "hist", False)
hp, = hi["pipelines"]
hstages = {s["name"]: s for s in hp["stages"]}
assert set(hstages) == syms
for name, s in hstages.items():
    assert set(s) == STAGE | {"buckets"}, set(s) ^ STAGE
    for k in STAGE:
        if k not in ("p50", "p90", "p99", "p999", "p50_ns", "p90_ns", "p99_ns", "p999_ns"):
            assert s[k] == stages[name][k], (k, s[k], stages[name][k])
    assert sum(c for lo, hi_, c in s["buckets"]) + s["overflow"] == want[name], s["buckets"]
    assert all(lo < hi_ and c > 0 for lo, hi_, c in s["buckets"])
h1, = lines("hist1.json")
assert [s["name"] for s in h1["pipelines"][0]["stages"]] == ["__x64_sys_getpid"]

# metrics against show -j and hist -j
fam = {}
for l in open(out + "/metrics.prom").read().splitlines():
    if l.startswith("#"):
        continue
    m = re.fullmatch(r'(\w+)\{([^}]*)\} (\S+)', l)
    assert m, l
    labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
    assert set(labels) <= {"pipeline", "stage", "le"}, labels
    fam.setdefault(m.group(1), []).append((labels, m.group(3)))
for name, s in hstages.items():
    def get(f, **kw):
        v = [val for lab, val in fam[f] if lab.get("stage") == name and
             all(lab.get(k) == x for k, x in kw.items())]
        assert len(v) == 1, (f, name, kw, v)
        return v[0]
    assert int(get("stacklat_stage_seconds_count")) == want[name]
    assert int(get("stacklat_stage_seconds_bucket", le="+Inf")) == want[name]
    assert round(float(get("stacklat_stage_seconds_sum")) * 1e9) == s["sum"]
    prev = 0
    for lab, val in fam["stacklat_stage_seconds_bucket"]:
        if lab["stage"] != name or lab["le"] == "+Inf":
            continue
        edge = round(float(lab["le"]) * 1e9)       # 2^k - 1 ns
        assert (edge + 1) & edge == 0, lab["le"]
        # samples <= edge: kernel buckets that end at or below edge + 1
        below = sum(c for lo, hi_, c in s["buckets"] if hi_ <= edge + 1)
        assert not any(lo <= edge < hi_ - 1 for lo, hi_, c in s["buckets"]), ("edge inside a bucket", edge)
        assert int(val) == below >= prev, (lab, val, below)
        prev = int(val)
for reason, v in p["losses"].items():
    got = [int(val) for lab, val in fam["stacklat_lost_%s_total" % reason] if lab["pipeline"] == "func"]
    # filtered grows with every getpid() of the tool itself after status
    assert got == [v] or (reason == "filtered" and len(got) == 1 and got[0] >= v), (reason, got, v)
print("status/show/hist JSON match debugfs and the table (%d getppid calls); "
      "%d metric lines" % (n, sum(len(v) for v in fam.values())))
PY

# inflight -j: datagrams nobody reads wait in net_rx's chains; the same
# entries (pipeline, no thread, the points passed) as debugfs lists
IPORT=6290
ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }
ctl enable net_rx
ctl filter net_rx lport=$IPORT
python3 - $IPORT > "$OUT/udp-hold" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", int(sys.argv[1])))
for _ in range(3):
    s.sendto(b"x" * 32, ("127.0.0.1", int(sys.argv[1])))
print("sent", flush=True)
time.sleep(4)
PY
HOLD=$!
for _ in $(seq 100); do grep -q sent "$OUT/udp-hold" 2>/dev/null && break; sleep 0.05; done
sleep 0.3
"$SL_TOOL" inflight -j > "$OUT/inflight.json"
"$SL_TOOL" inflight net_rx > "$OUT/inflight.txt"
cp "$SL_DBG/inflight" "$OUT/dbg-inflight"
kill "$HOLD" 2>/dev/null || true
wait "$HOLD" 2>/dev/null || true
ctl disable net_rx
python3 - "$OUT" <<'PY' || fail "inflight -j disagrees with debugfs"
import json, sys
out = sys.argv[1]
o, = [json.loads(l) for l in open(out + "/inflight.json").read().splitlines()]
assert o["schema"] == 1 and o["command"] == "inflight" and o["interval_ns"] is None, o
mine = [e for e in o["entries"] if e["pipeline"] == "net_rx"]
assert len(mine) == 3, ("net_rx entries", mine)
for e in mine:
    assert set(e) == {"pipeline", "age_ns", "tid", "desc", "points"} and e["tid"] is None, e
    # sent before the 0.3 s wait, read never
    assert 0.2e9 <= e["age_ns"] < 10e9 and e["points"], e
def words(f):
    return sorted(tuple(w.split("@")[0] for w in l.split()[3:])
                  for l in open(out + "/" + f) if l.split()[:1] == ["net_rx"])
js = sorted(tuple(p["name"] for p in e["points"]) for e in mine)
assert words("dbg-inflight") == js == words("inflight.txt"), (words("dbg-inflight"), js)
print("inflight -j: 3 unread datagrams, points %s" % (js[0],))
PY

# Every key of docs/json.md against real output (tests/json-keys-check.py:
# every key listed is emitted, every key emitted is listed): the outputs
# above and, after a little real work, status -j with keyed pipelines,
# events -j lines, each top view -j and stacks show -j.  Lock's points
# are 5.19+ (99-lock): where enable is refused its view is not checked.
K=$OUT/keys
mkdir -p "$K" "$OUT/mnt"
ctl threshold func all
for p in syscalls sched cpu offcpu futex disktop; do ctl enable $p; done
lock=
echo "enable lock" > "$SL_DBG/control" 2>/dev/null && lock=yes
ctl stacks add __x64_sys_getppid
ctl enable stacks
ctl threshold offcpu 10000000
# lines with a device and an I/O (block), an interface and ports (net_rx,
# still filtered on lport=$IPORT), the identity lines of a connect, an
# accept and a drop (tcpretrans's are 72's: a retransmission takes seconds)
ctl filter netdrop ifindex=1
for p in block net_rx tcpconnect tcpaccept netdrop; do ctl enable $p; ctl threshold $p all; done
"$SL_TOOL" events -j -d 0.1 >/dev/null	# drain
"$SPIN" -n 20 -t 1 -f "$SL_DBG/control" >/dev/null
"$SL_REPO/tests/vm/helpers/sl-futex" -n 2 -r 2 -s 5 >/dev/null
sleep 0.05	# an offcpu line over 10 ms, with its stack
python3 - $IPORT <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.sendto(b"x", ("127.0.0.1", int(sys.argv[1])))
s.recv(16)
s.sendto(b"x", ("127.0.0.1", int(sys.argv[1]) + 2))	# no one there: a drop
ls = socket.socket()
ls.bind(("127.0.0.1", int(sys.argv[1]) + 1))
ls.listen(4)
c = socket.create_connection(("127.0.0.1", int(sys.argv[1]) + 1))
ls.accept()[0].close()
c.close()
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1]) + 2))	# refused
except OSError:
    pass
PY
if mountpoint -q "${SL_MNT:-/none}"; then
	dd if=/dev/zero of="$SL_MNT/sl80" bs=64k count=4 oflag=direct status=none
	rm -f "$SL_MNT/sl80"
fi
if [ -n "$lock" ]; then
	# one contended i_rwsem wait (99-lock's helper, one round of 5 ms)
	mount -t tmpfs sl80 "$OUT/mnt"
	"$SL_REPO/tests/vm/helpers/sl-lock" -f "$OUT/mnt/f" -r 1 -s 5 -g "$OUT/go" -q "$OUT/quit" > "$OUT/lk" &
	lk=$!
	for _ in $(seq 200); do grep -q '^ready' "$OUT/lk" 2>/dev/null && break; sleep 0.05; done
	touch "$OUT/go"
	for _ in $(seq 200); do grep -q '^done' "$OUT/lk" 2>/dev/null && break; sleep 0.05; done
	touch "$OUT/quit"
	wait "$lk" || fail "sl-lock: $(cat "$OUT/lk")"
	umount "$OUT/mnt"
fi
"$SL_TOOL" events -j -d 0.3 func offcpu block net_rx tcpconnect tcpaccept netdrop \
	> "$K/events.json" 2>/dev/null || true
"$SL_TOOL" status -j > "$K/status.json"
j=0
while read -r view; do
	[ -n "$view" ] || continue
	j=$((j + 1))
	# shellcheck disable=SC2086 # the view's words
	"$SL_TOOL" top $view -j -n 3 > "$K/top$j.json" || fail "top $view -j failed"
done <<TOP
syscalls
syscalls -P
syscalls -p $$
disk
sched
sched -p $$
cpu
cpu -p $$
offcpu
offcpu --stacks
futex
futex -P
${lock:+lock}
TOP
"$SL_TOOL" stacks show -j -n 3 > "$K/stacks.json"
python3 "$SL_REPO/tests/json-keys-check.py" "$SL_REPO/docs/json.md" \
	"$OUT"/status.json "$OUT"/show.json "$OUT"/show-int.json "$OUT"/hist.json \
	"$OUT"/inflight.json "$K"/*.json || fail "the JSON outputs and docs/json.md disagree"
for p in block net_rx tcpconnect tcpaccept netdrop func offcpu; do ctl threshold $p 0; done
for p in syscalls sched cpu offcpu futex disktop stacks block net_rx tcpconnect tcpaccept netdrop \
	${lock:+lock}; do ctl disable $p; done

echo "disable func" > "$SL_DBG/control"
"$SL_TOOL" metrics > "$OUT/metrics-off.prom"
promtool check metrics < "$OUT/metrics-off.prom" || fail "promtool rejects the metrics of no pipeline"
if grep -q 'pipeline="func"' "$OUT/metrics-off.prom"; then fail "a disabled pipeline is exported"; fi
pass "one JSON schema on status/show/hist/inflight agrees with debugfs and the table, every -j output's keys are docs/json.md's; metrics pass promtool and match show -j"
