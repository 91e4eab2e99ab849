#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 5.10 6.1 6.1-rt 6.12 7.3
# The lock pipeline: kernel lock contention per (lock type, caller) from
# lock:contention_begin/end.
#  - where the kernel has no such tracepoints (its tracing events say so:
#    5.10), its points are "not available" in status and enabling it is
#    refused, naming why;
#  - else, against contention we cause (sl-lock: a holder thread keeps a
#    tmpfs file's inode lock, its i_rwsem, for writing while a waiter's
#    write() to the same file blocks on it, MS ms after the waiter sleeps,
#    R rounds; the waiter times its write()s), with a tgid filter on the
#    helper: exactly R waits in the row (rwsem:W, the tmpfs write_iter
#    function that takes the inode lock), none failed, the total between
#    R x MS and what the waiter measured, the max likewise; the row's
#    stack holds down_write; the module unloads; on PREEMPT_RT (6.1-rt)
#    the rwsem is an rtmutex underneath (rwbase_rt): the row is rtmutex,
#    its stack rwbase_write_lock's, the rest the same;
#  - stacklat top lock -j (netlink's rows) has every row debugfs has, with
#    the same counts, and stacklat metrics the rwsem:W waits per type;
#  - where perf is installed (Debian linux-perf), perf lock record (the
#    same tracepoints, no BPF) runs over the same rounds: perf lock
#    contention counts the same R rwsem:W waits, at a caller that is a
#    frame of the row's stack (below).
#  Without the tracepoints, top lock says the pipeline is not available.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

LK=$SL_REPO/tests/vm/helpers/sl-lock
R=10 MS=50
T=/tmp/sl-99
rm -rf "$T"
mkdir -p "$T/mnt"

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# hookstate NAME: the state of a point of the lock pipeline in status
hookstate() {
	awk -v h="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == "lock" && $1 == "hook" && $2 == h { s = $3; if ($4 == "available") s = s " " $4; print s }' "$SL_DBG/status"
}

sl_load
tp=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -d "$d/events/lock/contention_begin" ] && tp=yes
done
if [ -z "$tp" ]; then
	note "no lock:contention_begin in this kernel's tracing events"
	for h in contention_begin contention_end; do
		assert_eq "$h in status" "not available" "$(hookstate $h)"
	done
	dmesg -C
	if echo "enable lock" > "$SL_DBG/control" 2> "$T/err"; then
		fail "enable lock accepted on a kernel without the tracepoints"
	fi
	grep -q "lock: no hook point could be armed on this kernel" <<<"$(dmesg)" ||
		fail "enable lock: no dmesg line saying why: $(dmesg | tail -n 2)"
	grep -q '^pipeline lock: disabled' "$SL_DBG/status" ||
		fail "lock not disabled after the refusal: $(grep '^pipeline lock' "$SL_DBG/status")"
	# top lock: a clear refusal (exit 1, a sentence), no crash, nothing left on
	rc=0
	"$SL_TOOL" top lock -j > "$T/top" 2> "$T/toperr" || rc=$?
	cat "$T/toperr"
	assert_eq "top lock's exit status" 1 "$rc"
	grep -q "lock pipeline is not available on this kernel" "$T/toperr" ||
		fail "top lock: no 'not available': $(cat "$T/toperr")"
	[ ! -s "$T/top" ] || fail "top lock printed rows: $(cat "$T/top")"
	grep -q '^pipeline lock: disabled' "$SL_DBG/status" ||
		fail "lock not disabled after top lock"
	sl_unload
	pass "points not available, enable refused: $(cat "$T/err")"
fi

mount -t tmpfs sl99 "$T/mnt"
trap 'umount "$T/mnt" 2> /dev/null || true' EXIT
"$LK" -f "$T/mnt/file" -r $R -s $MS -g "$T/go" -q "$T/quit" > "$T/out" &
lk=$!
for _ in $(seq 200); do
	grep -q '^ready' "$T/out" 2> /dev/null && break
	sleep 0.05
done
pid=$(sed -n 's/^ready pid=\([0-9]*\)$/\1/p' "$T/out")
[ -n "$pid" ] || fail "sl-lock not ready: $(cat "$T/out")"
ctl filter lock tgid="$pid"
ctl enable lock
for h in contention_begin contention_end; do
	assert_eq "$h in status" armed "$(hookstate $h)"
done
# perf lock in tracepoint mode over the same rounds, system-wide (the
# waiter threads come and go; no other task writes that tmpfs file): its
# workload starts the rounds, and perf starts it only once its events are
# enabled, so it sees every round; it ends when the helper has its result
# (on one kernel of the matrix, 6.1, or any with SL_99_PERF=1: perf's
# record and report take some 30 s of a guest, and what they check is the
# module's counting, the same code on every kernel; the others check the
# rows against debugfs and the waiter's clock)
perf=
if [ -x /usr/bin/perf ] && { [ "${KERNEL%%+*}" = 6.1 ] || [ "${SL_99_PERF:-}" = 1 ]; }; then
	perf=yes
	# shellcheck disable=SC2016 # the workload's own $1, $2
	/usr/bin/perf lock record -a -o "$T/perf.data" -- bash -c 'touch "$1"
		for _ in $(seq 600); do grep -q "^done" "$2" && exit 0; sleep 0.05; done
		exit 1' sl99 "$T/go" "$T/out" > "$T/perf.rec" 2>&1 || perf=
	cat "$T/perf.rec"
	[ -n "$perf" ] || note "perf lock record does not work here: $(tail -n 3 "$T/perf.rec")"
fi
touch "$T/go"
for _ in $(seq 600); do
	grep -q '^done' "$T/out" && break
	kill -0 $lk 2> /dev/null || break
	sleep 0.05
done
grep -q '^done' "$T/out" || fail "sl-lock: no result ($(cat "$T/out"))"
cat "$T/out"
waits=$(sed -n 's/^done waits=\([0-9]*\) .*/\1/p' "$T/out")
wns=$(sed -n 's/^done .* wait_ns=\([0-9]*\) .*/\1/p' "$T/out")
wmax=$(sed -n 's/^done .* max_ns=\([0-9]*\)$/\1/p' "$T/out")
touch "$T/quit"
wait $lk || fail "sl-lock failed"
# read once the helper has exited: its exit (the release of its files and
# mappings, on a 9p mount here) can wait on locks too, rows of the filtered
# tgid that a read before it would miss and the netlink read below see
# (6.1-rt: an rtmutex at p9_virtio_request). A reader folds first: the file
# is complete up to now.
cat "$SL_DBG/lock" > "$T/dbg"
sed -n '/^type /,$p' "$T/dbg"
assert_eq "rounds the helper ran" $R "$waits"

# The row: rwsem:W (the inode lock is a rwsem taken for writing) and its
# caller the tmpfs write_iter function that takes it (generic_file_write_iter
# or shmem_file_write_iter, as the kernel has it), not down_write or the
# rwsem's slow path, which the caller search steps over
# On PREEMPT_RT a rwsem is an rtmutex underneath (rwbase_rt): the kernel's
# contention_begin says so, and the row's type is rtmutex
TY=rwsem:W
[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] && TY=rtmutex
rows=$(awk -v ty=$TY '$1 == ty && $2 ~ /^[a-z_]*write_iter\+0x[0-9a-f]+$/' "$T/dbg")
[ -n "$rows" ] || fail "no $TY row with a write_iter caller: $(grep -E 'rwsem|rtmutex' "$T/dbg" || true)"
assert_eq "$TY rows of a write_iter caller" 1 "$(wc -l <<<"$rows")"
read -r _ caller n failed tot _ mx nested stack alias _ <<<"$rows"
note "caller $caller, nested $nested, stack $stack"
assert_eq "waits in the row" $R "$n"
assert_eq "waits that failed" 0 "$failed"
assert_eq "waits of another caller folded in" 0 "$alias"
# Bounds, no tolerance beyond these: each wait begins after the waiter set
# itself TASK_UNINTERRUPTIBLE in the rwsem's slow path (interrupts off,
# its wait_lock held: microseconds, 1 ms allowed a wait) and the helper
# saw it asleep only then, slept MS ms and only then let the holder go;
# each ends before the waiter's write() returns, which it timed on the
# clock stacklat stamps with (1 ms for the fast clock's reads across an
# update, as 98-futex)
assert_range "total wait (ns): R x (MS - 1 ms) .. the waiter's clock" \
	$((R * (MS - 1) * 1000000)) $((wns + 1000000)) "$tot"
assert_range "max wait (ns): MS - 1 ms .. the waiter's longest write()" \
	$(((MS - 1) * 1000000)) $((wmax + 1000000)) "$mx"
# the stack of the row's last wait, in the stacks section
[ "$stack" -gt 0 ] || fail "no stack id in the row"
awk -v s="$stack" '$1 == "stack" { on = ($2 == s) } on' "$T/dbg" > "$T/stack"
cat "$T/stack"
grep -qE '^ +(down_write|rwsem_down_write_slowpath|rwbase_write_lock)\+' "$T/stack" ||
	fail "stack $stack holds no down_write (rwbase_write_lock on PREEMPT_RT)"
grep -qE "^ +${caller%%+*}\+" "$T/stack" || fail "stack $stack holds no ${caller%%+*}"
grep '^pipeline lock' -A12 "$SL_DBG/status" | grep -E 'lost|keyed|stacks' || true

note "stacklat top lock: the same rows through netlink"
"$SL_TOOL" top lock -j -n 0 > "$T/top.json" || fail "top lock -j"
bad=$(python3 - "$T/top.json" "$T/dbg" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
if d["what"] != "lock":
    bad.append("what: %s" % d["what"])
top = {(r["type"], r["caller"]): r for r in d["rows"]}
db = {}
for l in open(sys.argv[2]):
    w = l.split()
    if len(w) > 10 and w[10] == "|" and w[2].isdigit():
        db[(w[0], w[1])] = {"waits": int(w[2]), "failed": int(w[3]),
                            "time_ns": int(w[4]), "max_ns": int(w[6]),
                            "nested": int(w[7]), "stack_id": int(w[8]),
                            "alias": int(w[9])}
if not db or set(db) != set(top):
    bad.append("rows: debugfs %s, top %s" % (sorted(db), sorted(top)))
for k, want in db.items():
    r = top.get(k)
    if not r:
        continue
    got = {x: r[x] for x in want}
    if got != want or sum(c for _, _, c in r["hist"]) != want["waits"]:
        bad.append("%s %s: top %s, debugfs %s" % (k[0], k[1], got, want))
if d["waits"] != sum(w["waits"] for w in db.values()):
    bad.append("total waits: top %d" % d["waits"])
print("; ".join(bad))
PY
)
[ -z "$bad" ] || fail "top lock -j: $bad"
out=$("$SL_TOOL" top lock -n 0) || fail "top lock"
echo "$out"
[ -n "$(awk -v ty=$TY -v c="$caller" -v r=$R '$1 == ty && $2 == c && $3 == r && $4 == 0' <<<"$out")" ] ||
	fail "top lock: no $TY row at $caller with $R waits"
# an interval with no contention of the helper (it waits, filtered in): no row
"$SL_TOOL" top lock -j 0.5 1 > "$T/topi.json" || fail "top lock -j 0.5 1"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["waits"] == 0 and not d["rows"], d' \
	"$T/topi.json" || fail "top lock over an idle interval: $(cat "$T/topi.json")"
# metrics: per type only, the rwsem:W waits of every rwsem:W row
want=$(awk -v ty=$TY '$1 == ty && $11 == "|" { n += $3 } END { print n + 0 }' "$T/dbg")
got=$("$SL_TOOL" metrics | sed -n "s/^stacklat_lock_contention_waits_total{type=\"$TY\"} //p")
assert_eq "metrics: $TY contended waits" "$want" "$got"
if "$SL_TOOL" metrics | grep '^stacklat_lock' | grep -qE 'pid=|caller='; then
	fail "metrics: a lock label other than the type"
fi
nrows=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["rows"]))' "$T/top.json")
echo "ok: top lock agrees with debugfs on its $nrows rows; metrics $TY $got"

if [ -n "$perf" ]; then
	note "perf lock contention (tracepoint mode) over the same rounds"
	/usr/bin/perf lock contention -i "$T/perf.data" -E 1000 > "$T/perf.out" 2>&1 ||
		fail "perf lock contention: $(tail -n 5 "$T/perf.out")"
	cat "$T/perf.out"
	# its rows: contended, total, max, avg wait (each a number and a unit),
	# type, caller (function+0xoff): the rwsem:W rows, "count caller"
	awk '{ for (i = 2; i < NF; i++) if ($i == "rwsem:W") break }
		i < NF && $1 ~ /^[0-9]+$/ { print $1, $(i + 1) }' "$T/perf.out" > "$T/perf.rows"
	fn=${caller%%+*}
	pn=$(awk '{ n += $1 } END { print n + 0 }' "$T/perf.rows")
	note "rwsem:W waits: perf lock $pn at $(awk '{ printf "%s%s", s, $2; s = ", " }' "$T/perf.rows"), stacklat $n at $caller"
	# exact: perf pairs each thread's begin and end of a lock as we do (a
	# nested begin of the same lock is the same wait; of another lock, its
	# own row), reads every event of a quiet guest (a lost event would be
	# reported: none allowed), and records system-wide: any other rwsem:W
	# wait in the guest would make it count more, and fail this
	grep -qiE 'lost [1-9]|bad: [1-9]' "$T/perf.out" "$T/perf.rec" &&
		fail "perf lost events: $(grep -iE 'lost|bad' "$T/perf.out" "$T/perf.rec")"
	assert_eq "perf lock's rwsem:W waits" "$n" "$pn"
	# The caller: perf skips a fixed number of frames (--stack-skip, 3)
	# and then takes the first function outside the locking code, where we
	# step over the locking code by address; on 6.1 perf names vfs_write,
	# the frame above generic_file_write_iter (seen here; 6.12 and 7.3: the
	# same function as ours).  So its caller must be a frame of the very
	# stack our row's waits had
	while read -r _ pc; do
		grep -qE "^ +${pc%%+*}\+" "$T/stack" ||
			fail "perf lock's caller $pc is not in stack $stack of the row"
		[ "${pc%%+*}" = "$fn" ] || note "perf names $pc, a frame above $caller in the same stack"
	done < "$T/perf.rows"
	perf_note=", perf lock $pn"
else
	note "no comparison with perf lock here (no /usr/bin/perf, or not 6.1: SL_99_PERF=1)"
	perf_note=
fi
ctl filter lock clear
ctl disable lock
umount "$T/mnt"
sl_unload
pass "$R waits of $TY at $caller, total $tot ns (waiter measured $wns, R x MS = $((R * MS)) ms), max $mx ns; stack; top lock = debugfs$perf_note; unload"
