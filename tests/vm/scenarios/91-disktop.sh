#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# The disktop pipeline: disk bytes per process and disk, exactly.
#  - two null_blk disks; process A writes 4 MiB with O_DIRECT in 64 KiB
#    bios to nullb0, then reads 2 MiB in 128 KiB bios from nullb1, while
#    process B writes 12 MiB in 64 KiB bios to nullb1: each (process,
#    disk) row has exactly those bytes and operations (debugfs, and the
#    tool's JSON and text), nothing of one leaks into the other's rows;
#  - the tool's interval mode (`top disk -j INTERVAL COUNT`): a process C
#    writing 1 MiB while it runs shows exactly that over the intervals;
#  - filters: tgid and dev together count only that process on that disk;
#  - attribution: buffered writes and fsync count for the process calling
#    fsync; buffered writes left dirty count for the flusher's kworker,
#    not the process that dirtied them; buffered reads (readahead) for the
#    reader;
#  - every bio the hook counted is in a row or in a loss counter.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

DIO=$SL_REPO/tests/vm/helpers/sl-dio.py
T=/tmp/sl-91
rm -rf "$T"
mkdir -p "$T"
MIB=1048576

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# keyed NAME: a counter of the keyed table of disktop
keyed() {
	awk -v k="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == "disktop" && $1 == "keyed:" { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) print a[2] } }' "$SL_DBG/status"
}

# hits HOOK: the disktop pipeline's hook hits
hits() {
	awk -v h="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == "disktop" && $1 == "hook" && $2 == h { for (i = 3; i <= NF; i++) if ($i ~ /^hits=/) { sub("hits=", "", $i); print $i } }' "$SL_DBG/status"
}

# lost KIND: a loss counter of the disktop pipeline
lost() {
	awk -v k="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == "disktop" && $1 == "lost:" { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) print a[2] } }' "$SL_DBG/status"
}

# dbg TGID DEV COLUMN: a column of a row of the debugfs table (4
# read_bytes, 5 reads, 6 write_bytes, 7 writes), 0 when there is no row
dbg() {
	awk -v t="$1" -v d="$2" -v c="$3" '$1 == "tgid" && $2 == "comm" { on = 1; next }
		on && $1 == t && $3 == d { print $c; f = 1 } END { if (!f) print 0 }' "$SL_DBG/disktop"
}

# dbgsum DEV COLUMN [COMM-PREFIX]: the column summed over the rows of DEV
# (of the processes whose name starts so).  Each read of the table folds,
# and a fold may age the rows of ended processes out: sums compared
# across reads take rows of live processes (kernel threads) only, or
# columns no ended process has.
dbgsum() {
	awk -v d="$1" -v c="$2" -v p="${3:-}" '$1 == "tgid" && $2 == "comm" { on = 1; next }
		on && $3 == d && index($2, p) == 1 { s += $c } END { print s + 0 }' "$SL_DBG/disktop"
}

# snap PID...: each one's rows of "stacklat top disk -p PID -j -n 0", read
# once (one python for them all: a guest starts python in some 0.4 s) into
# $T/top.PID, a line "DISK FIELD VALUE" each; top PID DISK FIELD answers
# from there, 0 if absent
snap() {
	local p
	for p in "$@"; do
		"$SL_TOOL" top disk -p "$p" -j -n 0 > "$T/top.$p.json" ||
			fail "stacklat top disk -p $p -j failed"
	done
	python3 - "$T" "$@" <<'PY'
import json, sys
t = sys.argv[1]
for p in sys.argv[2:]:
    d = json.load(open("%s/top.%s.json" % (t, p)))
    assert d["command"] == "top" and d["what"] == "disk" and d["sort"] == "bytes", d
    disks = [r["disk"] for r in d["rows"]]
    assert len(disks) == len(set(disks)), disks
    with open("%s/top.%s" % (t, p), "w") as f:
        for r in d["rows"]:
            for k, v in r.items():
                if not isinstance(v, (dict, list)):
                    f.write("%s %s %s\n" % (r["disk"], k, v))
PY
}
top() {
	local d f v
	while read -r d f v; do
		[ "$d $f" != "$2 $3" ] || { echo "$v"; return; }
	done < "$T/top.$1"
	echo 0
}

# start NAME STEP...: an sl-dio that waits for $T/go and $T/quit
start() {
	local name=$1
	shift
	python3 "$DIO" "$T/$name" "$T/go" "$T/quit" "$@" &
}
pid() {
	for _ in $(seq 400); do
		grep -q ready "$T/$1" 2> /dev/null && break
		sleep 0.05
	done
	awk '$1 == "ready" { print $2 }' "$T/$1"
}
finish() {
	local n
	for n in "$@"; do
		for _ in $(seq 1200); do
			grep -q '^done' "$T/$n" 2> /dev/null && break
			sleep 0.05
		done
		grep -q '^done' "$T/$n" || fail "sl-dio $n did not finish: $(cat "$T/$n")"
	done
}
# next: quit the helpers of a phase, then ready for the next
next() {
	touch "$T/quit"
	wait
	rm -f "$T/go" "$T/quit"
}

sl_nullblk 2 queue_mode=2 gb=1
d0=$(cat /sys/block/nullb0/dev)
d1=$(cat /sys/block/nullb1/dev)
note "nullb0 is $d0, nullb1 is $d1"

sl_load
ctl enable disktop
grep -q "hook bio_queue *armed *tracepoint" "$SL_DBG/status" ||
	fail "bio_queue not armed: $(grep 'hook bio_queue' "$SL_DBG/status")"
grep -q "hook process_exit *armed *tracepoint" "$SL_DBG/status" ||
	fail "process_exit not armed: $(grep 'hook process_exit' "$SL_DBG/status")"

note "A: 4 MiB O_DIRECT to nullb0 (64 KiB), then 2 MiB from nullb1 (128 KiB); B: 12 MiB to nullb1 (64 KiB), at the same time"
start A dw:/dev/nullb0:0:4M:64K dr:/dev/nullb1:64M:2M:128K
start B dw:/dev/nullb1:0:12M:64K
a=$(pid A)
b=$(pid B)
[ -n "$a" ] && [ -n "$b" ] || fail "sl-dio did not start"
touch "$T/go"
finish A B
cat "$SL_DBG/disktop"
"$SL_TOOL" top disk -n 0
assert_eq "A nullb0 write bytes" $((4 * MIB)) "$(dbg "$a" "$d0" 6)"
assert_eq "A nullb0 writes" 64 "$(dbg "$a" "$d0" 7)"
assert_eq "A nullb0 read bytes" 0 "$(dbg "$a" "$d0" 4)"
assert_eq "A nullb1 read bytes" $((2 * MIB)) "$(dbg "$a" "$d1" 4)"
assert_eq "A nullb1 reads" 16 "$(dbg "$a" "$d1" 5)"
assert_eq "A nullb1 write bytes" 0 "$(dbg "$a" "$d1" 6)"
assert_eq "B nullb1 write bytes" $((12 * MIB)) "$(dbg "$b" "$d1" 6)"
assert_eq "B nullb1 writes" 192 "$(dbg "$b" "$d1" 7)"
assert_eq "B nullb1 read bytes" 0 "$(dbg "$b" "$d1" 4)"
assert_eq "B nullb0 write bytes, none" 0 "$(dbg "$b" "$d0" 6)"
assert_eq "nullb1 writes, all B's" $((12 * MIB)) "$(dbgsum "$d1" 6)"
assert_eq "nullb0 writes, all A's" $((4 * MIB)) "$(dbgsum "$d0" 6)"
snap "$a" "$b"
assert_eq "top: A nullb0 write_bytes" $((4 * MIB)) "$(top "$a" nullb0 write_bytes)"
assert_eq "top: A nullb0 write_ops" 64 "$(top "$a" nullb0 write_ops)"
assert_eq "top: A nullb1 read_bytes" $((2 * MIB)) "$(top "$a" nullb1 read_bytes)"
assert_eq "top: A nullb1 read_ops" 16 "$(top "$a" nullb1 read_ops)"
assert_eq "top: A nullb1 write_bytes" 0 "$(top "$a" nullb1 write_bytes)"
assert_eq "top: B nullb1 write_bytes" $((12 * MIB)) "$(top "$b" nullb1 write_bytes)"
assert_eq "top: B nullb1 write_ops" 192 "$(top "$b" nullb1 write_ops)"
assert_eq "top: B nullb0, no row" 0 "$(top "$b" nullb0 ops)"
assert_eq "top: A nullb0 comm" python3 "$(top "$a" nullb0 comm)"
grep -q "^$b  *python3  *nullb1  *0  *12288  *0  *192$" <<<"$("$SL_TOOL" top disk -p "$b")" ||
	fail "top's text lacks '$b python3 nullb1 0 12288 0 192': $("$SL_TOOL" top disk -p "$b")"
first=$("$SL_TOOL" top disk -n 0 | awk -v a="$a" -v b="$b" '($1 == a || $1 == b) && !f { print $1; f = 1 }')
assert_eq "the first of A and B in top disk (by bytes)" "$b" "$first"
next

note "the tool's intervals: C writes 1 MiB to nullb0 while top disk -j 0.5 16 runs"
start C dw:/dev/nullb0:32M:1M:64K
c=$(pid C)
"$SL_TOOL" top disk -j 0.5 16 > "$T/top.json" &
tpid=$!
for _ in $(seq 200); do [ -s "$T/top.json" ] && break; sleep 0.05; done
[ -s "$T/top.json" ] || fail "top disk -j 0.5 16 printed nothing"
touch "$T/go"
finish C
wait $tpid || fail "top disk -j 0.5 16 failed"
python3 - "$T/top.json" "$c" <<'PY' || fail "interval JSON"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 16, len(lines)
c = int(sys.argv[2])
w = o = 0
for d in lines:
    assert d["what"] == "disk" and d["interval_ns"] > 0, d
    for r in d["rows"]:
        if r["tgid"] == c:
            assert r["disk"] == "nullb0" and r["comm"] == "python3", r
            assert r["read_bytes"] == 0, r
            w += r["write_bytes"]
            o += r["write_ops"]
print("C over the intervals: %d bytes in %d writes" % (w, o))
assert (w, o) == (1 << 20, 16), (w, o)
PY
next

note "filters: tgid=D dev=nullb1; D writes 1 MiB to each disk, E 1 MiB to nullb1"
start D dw:/dev/nullb0:40M:1M:64K dw:/dev/nullb1:40M:1M:64K
start E dw:/dev/nullb1:48M:1M:64K
dp=$(pid D)
e=$(pid E)
ctl filter disktop tgid="$dp" dev=nullb1
f0=$(lost filtered)
touch "$T/go"
finish D E
assert_eq "D nullb1 (both filters pass)" $MIB "$(dbg "$dp" "$d1" 6)"
assert_eq "D nullb0 (dev filtered)" 0 "$(dbg "$dp" "$d0" 6)"
assert_eq "E nullb1 (tgid filtered)" 0 "$(dbg "$e" "$d1" 6)"
[ "$(lost filtered)" -ge $((f0 + 32)) ] || fail "D's nullb0 and E's bios not counted filtered: $(lost filtered), was $f0"
ctl filter disktop clear
next

note "fsync: G's buffered 1 MiB to nullb0, then fsync, are G's"
k0=$(dbgsum "$d0" 6 kworker)
start G bws:/dev/nullb0:64M:1M:64K
g=$(pid G)
touch "$T/go"
finish G
assert_eq "G nullb0 write bytes (its fsync)" $MIB "$(dbg "$g" "$d0" 6)"
assert_eq "kworker nullb0 write bytes" "$k0" "$(dbgsum "$d0" 6 kworker)"
next

note "writeback: H dirties 1 MiB of nullb1 and keeps it open: the flusher writes it"
exp=$(cat /proc/sys/vm/dirty_expire_centisecs)
wb=$(cat /proc/sys/vm/dirty_writeback_centisecs)
k1=$(dbgsum "$d1" 6 kworker)
echo 50 > /proc/sys/vm/dirty_expire_centisecs
echo 50 > /proc/sys/vm/dirty_writeback_centisecs
start H bw:/dev/nullb1:80M:1M:64K
h=$(pid H)
touch "$T/go"
finish H
for _ in $(seq 300); do
	[ "$(dbgsum "$d1" 6 kworker)" -ge $((k1 + MIB)) ] && break
	sleep 0.1
done
echo "$exp" > /proc/sys/vm/dirty_expire_centisecs
echo "$wb" > /proc/sys/vm/dirty_writeback_centisecs
awk '$1 == "tgid" && $2 == "comm" { on = 1 } on' "$SL_DBG/disktop"
assert_eq "H nullb1 write bytes (it did not write back)" 0 "$(dbg "$h" "$d1" 6)"
assert_eq "kworker nullb1 write bytes (the flusher's writeback)" $((k1 + MIB)) "$(dbgsum "$d1" 6 kworker)"
next

note "readahead: I reads 1 MiB of nullb0 through the page cache"
echo 3 > /proc/sys/vm/drop_caches
r0=$(dbgsum "$d0" 4)
start I br:/dev/nullb0:128M:1M:64K
i=$(pid I)
touch "$T/go"
finish I
ri=$(dbg "$i" "$d0" 4)
[ "$ri" -ge $MIB ] || fail "I read $ri bytes of nullb0, less than its 1 MiB"
assert_eq "nullb0 reads, all I's (readahead for the reader)" $((r0 + ri)) "$(dbgsum "$d0" 4)"
note "I: $ri bytes read for its 1 MiB, in $(dbg "$i" "$d0" 5) bios"
next

ctl disable disktop
# the rows first, once: reading them folds (and may age rows out); status
# does not
cat "$SL_DBG/disktop" > "$T/rows"
sum=$(awk '$1 == "tgid" && $2 == "comm" { on = 1; next } on { s += $5 + $7 + $9 + $10 + $11 } END { print s + 0 }' "$T/rows")
aged=$(keyed aged)
full=$(keyed full)
busy=$(keyed busy)
dropped=$(keyed dropped)
hq=$(hits bio_queue)
grep '^  keyed' "$SL_DBG/status"
assert_eq "every bio in a row or a counter (rows $sum + aged $aged + full $full + busy $busy + dropped $dropped)" \
	"$hq" $((sum + aged + full + busy + dropped))
sl_unload
rmmod null_blk 2> /dev/null || true
pass "A 4 MiB/64 writes on nullb0 + 2 MiB/16 reads on nullb1, B 12 MiB/192 writes on nullb1, exact and apart (debugfs, top -j, text); intervals: C 1 MiB/16; tgid+dev filter; fsync by G, writeback by kworker, readahead by I ($ri bytes); all $hq bios accounted"
