#!/bin/bash
# kernels: all
# A CPU hog on the server's CPU shows in runqueue: the server (one epoll
# thread) pinned to CPU 1, the client to CPU 0, N requests without and
# with a SCHED_FIFO hog on CPU 1 that is busy ON ms then asleep OFF ms.  A
# wakeup of the server while the hog runs waits for it to sleep (a FIFO
# task is never preempted by a normal one): with wakeups spread over the
# hog's period the mean wait is ON^2 / (2 (ON + OFF)), 1 ms here.  The mean
# of runqueue grows by at least a quarter of that (the client's requests
# are not independent of the hog's period: it is a lower bound, never an
# exact figure), and the medians of the stages that do not run on CPU 1
# or are not a wait for it (rx, tcpip, notify) move by less than a quarter
# too.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/rr.sh"

N=40
ON_MS=4
OFF_MS=4
PORT=7400
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"

sl_load
rr_ctl enable reqresp
# the server is asleep when each request arrives (see 60-reqresp-exact)
export RR_GAP_US=2000

measure() {

	rr_ctl reset reqresp
	PORT=$((PORT + 1))
	rm -f /tmp/rr-srv.out
	taskset -c 1 "$RR" server $PORT epoll 1 1 0 0 > /tmp/rr-srv.out &
	local spid=$!
	for _ in $(seq 100); do
		grep -q listening /tmp/rr-srv.out 2> /dev/null && break
		sleep 0.05
	done
	taskset -c 0 timeout 120 "$RR" client 127.0.0.1 $PORT 1 $N 64 || fail "rr client failed"
	wait $spid || fail "rr server failed"
	cat "$SL_DBG/reqresp"
	rr_counts $N
	rr_json "/tmp/rr-$1.json"
}

measure base
chrt -f 10 "$RR" hog 1 $((ON_MS * 1000)) $((OFF_MS * 1000)) 60 &
HOG=$!
trap 'kill $HOG 2> /dev/null || true' EXIT
measure hog
kill $HOG

python3 - $ON_MS $OFF_MS <<'PY' || fail "the hog is not in runqueue"
import json, sys
on, off = float(sys.argv[1]) * 1e6, float(sys.argv[2]) * 1e6
want = on * on / (2 * (on + off))
def load(n):
    d = json.load(open("/tmp/rr-%s.json" % n))
    d = d["pipelines"] if isinstance(d, dict) and "pipelines" in d else d
    d = d if isinstance(d, list) else [d]
    return {s["name"]: s for x in d for s in x["stages"]}
a, b = load("base"), load("hog")
d = b["runqueue"]["avg_ns"] - a["runqueue"]["avg_ns"]
ok = d >= want / 4
print("runqueue mean %+.3fms (expected about %.2fms) %s" % (d / 1e6, want / 1e6, "ok" if ok else "WRONG"))
for s in ("rx", "tcpip", "notify"):
    m = b[s]["p50_ns"] - a[s]["p50_ns"]
    good = abs(m) < want / 4
    print("%-12s median %+.3fms %s" % (s, m / 1e6, "ok" if good else "WRONG"))
    ok &= good
sys.exit(0 if ok else 1)
PY
pass "a FIFO hog (${ON_MS}ms on, ${OFF_MS}ms off) on the server's CPU shows in runqueue"
