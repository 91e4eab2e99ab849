#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# The futex pipeline: futex wait time per process and futex address,
# against waits we cause (sl-futex: a holder keeps a pthread mutex MS ms
# while N waiters block on it, R rounds) and the waiters' own clocks.
#  - two helpers at once, A (N=4) and B (N=1), the same program: with
#    norandmaps their mutexes have the same address, so A's row counts
#    only A's waits if rows are per process: exactly N*R waits each, the
#    total within tolerance of what the waiters measured (below);
#  - B's waits are all ended by its holder's unlock: B's last waker is the
#    holder's tid; A's last waker is one of A's threads (the holder wakes
#    the first waiter, each waiter's unlock the next);
#  - N calls on a word that does not hold the value waited for: N EAGAIN
#    returns (the kernel's answer, checked per call), no wait; K waits
#    that time out: K waits, waker 0 (the timer), each at least its 10 ms;
#  - a tgid filter on another process: no row of the helper, its waits
#    counted filtered;
#  - the hooks armed, the module unloads.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

FX=$SL_REPO/tests/vm/helpers/sl-futex
R=10 MS=50
T=/tmp/sl-98
rm -rf "$T"
mkdir -p "$T"

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# lost KIND: a loss counter of the futex pipeline
lost() {
	awk -v k="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == "futex" && $1 == "lost:" { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) print a[2] } }' "$SL_DBG/status"
}

# fx NAME N: sl-futex with N waiters, its output in $T/NAME
fx() { "$FX" -n "$2" -r $R -s $MS -q "$T/quit" > "$T/$1"; }

# finish NAME PID: wait for its "done" line; sets pid, holder, mutex,
# waiters, locks, lockns
finish() {
	local out=$T/$1 p=$2
	for _ in $(seq 1200); do
		grep -q '^done' "$out" 2> /dev/null && break
		kill -0 "$p" 2> /dev/null || break
		sleep 0.05
	done
	grep -q '^done' "$out" || fail "sl-futex $1: no result ($(cat "$out"))"
	cat "$out"
	pid=$(sed -n 's/^ready pid=\([0-9]*\) .*/\1/p' "$out")
	holder=$(sed -n 's/^ready .* holder=\([0-9]*\) .*/\1/p' "$out")
	mutex=$(sed -n 's/^ready .* mutex=\(0x[0-9a-f]*\) .*/\1/p' "$out")
	waiters=$(sed -n 's/^ready .* waiters=\([0-9,]*\)$/\1/p' "$out")
	locks=$(sed -n 's/^done locks=\([0-9]*\) .*/\1/p' "$out")
	lockns=$(sed -n 's/^done .* lock_ns=\([0-9]*\)$/\1/p' "$out")
}

# row TGID UADDR FIELD: a field of the debugfs row (waits eagain total waker alias max)
row() {
	awk -v t="$1" -v a="$2" -v f="$3" '
		BEGIN { c["waits"] = 4; c["eagain"] = 5; c["total"] = 6; c["max"] = 8; c["waker"] = 9; c["alias"] = 10 }
		$1 == t && $3 == a { print $c[f]; n++ } END { if (!n) print "none" }' "$T/dbg"
}

sl_load
ctl enable futex
for h in sys_enter sys_exit waking process_exit; do
	grep -q "hook $h *armed *tracepoint" "$SL_DBG/status" ||
		fail "$h not armed: $(grep "hook $h " "$SL_DBG/status")"
done

note "two helpers at once: A with 4 waiters, B with 1, $R rounds of $MS ms"
fx a 4 &
fx_a=$!
fx b 1 &
fx_b=$!
finish a $fx_a
a_pid=$pid a_holder=$holder a_mutex=$mutex a_waiters=$waiters a_locks=$locks a_ns=$lockns
finish b $fx_b
b_pid=$pid b_holder=$holder b_mutex=$mutex b_locks=$locks b_ns=$lockns
# the last fold: a reader folds first
cat "$SL_DBG/futex" > "$T/dbg"
grep -E "^ *($a_pid|$b_pid) " "$T/dbg" || true
touch "$T/quit"
wait "$fx_a" || fail "sl-futex a failed"
wait "$fx_b" || fail "sl-futex b failed"
assert_eq "A: locks it timed" $((4 * R)) "$a_locks"
assert_eq "B: locks it timed" $R "$b_locks"
[ "$a_mutex" = "$b_mutex" ] || note "A's mutex $a_mutex, B's $b_mutex: not the same address"
assert_eq "A: waits on its mutex" $((4 * R)) "$(row "$a_pid" "$a_mutex" waits)"
assert_eq "B: waits on its mutex" $R "$(row "$b_pid" "$b_mutex" waits)"
assert_eq "A: other addresses folded in" 0 "$(row "$a_pid" "$a_mutex" alias)"
assert_eq "B: last waker is its holder" "$b_holder" "$(row "$b_pid" "$b_mutex" waker)"
aw=$(row "$a_pid" "$a_mutex" waker)
case ",$a_holder,$a_waiters," in
*",$aw,"*) echo "ok: A: last waker $aw is one of its threads" ;;
*) fail "A: last waker $aw not one of $a_holder,$a_waiters" ;;
esac
# The total: both stamps of a wait (the futex() call's sys_enter and
# sys_exit) lie inside the pthread_mutex_lock() the waiter timed, on the
# clock it timed it with (CLOCK_MONOTONIC, stacklat's
# ktime_get_mono_fast_ns()): at most what it measured, and 1 ms for the
# fast clock's reads across an update.  What the waiter's figure holds
# beyond the waits is glibc's path into and out of the call and the
# syscall's entry and exit: microseconds a lock, or a preemption in
# between (a tick: 4 ms at HZ=250) now and then - 5 % of the total (the
# issue's bound; 2 s of waits here) covers both.
# check X PID MUTEX NS: X's total and max against what its waiters measured
check() {
	local tot mx
	tot=$(row "$2" "$3" total)
	assert_range "$1: total wait against the waiters' clocks (ns)" \
		$(($4 - $4 / 20)) $(($4 + 1000000)) "$tot"
	mx=$(row "$2" "$3" max)
	assert_range "$1: max wait (ns): at least ${MS} ms less 5 %" \
		$((MS * 950000)) "$tot" "$mx"
}
check A "$a_pid" "$a_mutex" "$a_ns"
check B "$b_pid" "$b_mutex" "$b_ns"
a_tot=$(row "$a_pid" "$a_mutex" total) b_tot=$(row "$b_pid" "$b_mutex" total)

note "stacklat top futex: the same rows through netlink"
"$SL_TOOL" top futex -j -n 0 > "$T/top.json" || fail "top futex -j"
bad=$(python3 - "$T/top.json" "$T/dbg" "$a_pid" "$a_mutex" "$b_pid" "$b_mutex" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = {(r["tgid"], r["uaddr"]): r for r in d["rows"]}
bad = []
if d["what"] != "futex" or d["by"] != "futex":
    bad.append("what/by: %s/%s" % (d["what"], d["by"]))
for pid, mutex in ((sys.argv[3], sys.argv[4]), (sys.argv[5], sys.argv[6])):
    pid, mutex = int(pid), int(mutex, 16)
    db = [l.split() for l in open(sys.argv[2])]
    db = [w for w in db if len(w) > 10 and w[0] == str(pid) and w[2].startswith("0x") and int(w[2], 16) == mutex]
    r = rows.get((pid, mutex))
    if not db or not r:
        bad.append("%d %#x: debugfs %s, top %s" % (pid, mutex, db, r))
        continue
    w = db[0]
    want = {"waits": int(w[3]), "eagain": int(w[4]), "time_ns": int(w[5]),
            "max_ns": int(w[7]), "waker": int(w[8]), "alias": int(w[9])}
    got = {k: r[k] for k in want}
    if got != want or sum(c for _, _, c in r["hist"]) != want["waits"]:
        bad.append("%d %#x: top %s, debugfs %s" % (pid, mutex, got, want))
print("; ".join(bad))
PY
)
[ -z "$bad" ] || fail "top futex -j: $bad"
out=$("$SL_TOOL" top futex -p "$b_pid") || fail "top futex -p"
echo "$out"
grep -qE "^$b_pid +[^ ]+ +$b_mutex +$R +[0-9]+ .* $b_holder\$" <<<"$out" ||
	fail "top futex -p $b_pid: no row of $b_mutex with $R waits woken by $b_holder"
"$SL_TOOL" top futex -P -j -n 0 > "$T/topP.json" || fail "top futex -P -j"
python3 - "$a_pid" $((4 * R)) "$T/topP.json" <<'PY' || fail "top futex -P: $(cat "$T/topP.json")"
import json, sys
d = json.load(open(sys.argv[3]))
r = [x for x in d["rows"] if x["tgid"] == int(sys.argv[1])]
assert d["by"] == "process" and len(r) == 1 and r[0]["futexes"] >= 1 and \
    r[0]["waits"] >= int(sys.argv[2]), r
PY
echo "ok: top futex agrees with debugfs on A's and B's rows; -P sums A's"

note "EAGAIN and timeouts: a futex whose value is not the one waited for, one nobody wakes"
# N calls FUTEX_WAIT with a value the word does not hold: each returns
# EAGAIN at once (the kernel's own answer, checked per call); K calls wait
# for a value it does hold, with a 10 ms timeout nobody cuts short: each
# ends ETIMEDOUT, woken by the timer (no task: waker 0)
N=25 K=5
python3 - $N $K > "$T/eagain" <<'PY' || fail "the EAGAIN helper: $(cat "$T/eagain")"
import ctypes, os, sys
n, k = int(sys.argv[1]), int(sys.argv[2])
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
word = ctypes.c_int(7)
addr = ctypes.addressof(word)
WAIT_PRIVATE = 0 | 128
class ts(ctypes.Structure):
    _fields_ = [("s", ctypes.c_long), ("ns", ctypes.c_long)]
for _ in range(n):
    r = libc.syscall(202, ctypes.c_void_p(addr), WAIT_PRIVATE, 8, None, None, 0)
    assert r == -1 and ctypes.get_errno() == 11, (r, ctypes.get_errno())
for _ in range(k):
    r = libc.syscall(202, ctypes.c_void_p(addr), WAIT_PRIVATE, 7, ctypes.byref(ts(0, 10000000)), None, 0)
    assert r == -1 and ctypes.get_errno() == 110, (r, ctypes.get_errno())
print(os.getpid(), hex(addr))
PY
read -r epid eaddr < "$T/eagain"
cat "$SL_DBG/futex" > "$T/dbg"
grep -E "^ *$epid " "$T/dbg" || true
assert_eq "EAGAIN returns on the word" $N "$(row "$epid" "$eaddr" eagain)"
assert_eq "timed-out waits on the word" $K "$(row "$epid" "$eaddr" waits)"
assert_eq "a timeout's waker: none (the timer)" 0 "$(row "$epid" "$eaddr" waker)"
# each at least its 10 ms timeout (hrtimers do not fire early)
[ "$(row "$epid" "$eaddr" total)" -ge $((K * 10000000)) ] ||
	fail "timed-out waits total $(row "$epid" "$eaddr" total) ns < $K x 10 ms"

note "a tgid filter: only a sleeping process is let in"
sleep 60 &
sl=$!
ctl filter futex tgid=$sl
ctl reset futex
f0=$(lost filtered)
rm -f "$T/quit"
fx c 1 &
fx_c=$!
finish c $fx_c
cat "$SL_DBG/futex" > "$T/dbg"
touch "$T/quit"
wait "$fx_c" || fail "sl-futex c failed"
assert_eq "filtered: rows of the helper" none "$(row "$pid" "$mutex" waits)"
f1=$(lost filtered)
[ "$f1" -ge $((f0 + R)) ] || fail "waits not counted filtered: $f0 -> $f1"
echo "ok: filtered $f0 -> $f1"
ctl filter futex clear
kill $sl
grep '^pipeline futex' -A14 "$SL_DBG/status" | grep -E 'lost|keyed' || true
ctl disable futex
sl_unload
pass "A: $((4 * R)) waits, total $a_tot ns of $a_ns measured; B: $R waits, total $b_tot ns of $b_ns, waker = holder; filter; unload"
