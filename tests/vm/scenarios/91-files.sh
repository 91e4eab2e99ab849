#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# The files pipeline (issue 29, top files): opens, failed opens by errno,
# reads and writes per process and file, exactly.
#  - two sl-files at once: A writes 1 MiB to a named file on the ext4
#    scratch disk in 64 write(2) calls and reads it back in 64 read(2)
#    calls, then fails 5 opens of a missing name; B does 300000 bytes in
#    75 calls on tmpfs and fails 3 opens of the same missing name: each
#    one's row for its file has exactly those calls and bytes and one
#    open, the right device, inode and filesystem type, and its row for
#    the missing name exactly its own failures, all ENOENT - nothing of
#    one process is in the other's rows (debugfs, and top files' JSON and
#    text, -p and -P);
#  - each process's rows add up to the kernel's own accounting,
#    /proc/PID/io's syscr, syscw, rchar and wchar (they read and write
#    with read(2) and write(2) only; exec's reads of the program are the
#    kernel_read point's);
#  - when they end, their rows age out (keyed_linger_ms) into "aged";
#  - a tgid filter on another process: no row of a third helper;
#  - every hook armed; what the table lost is counted (none here).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

FL=$SL_REPO/tests/vm/helpers/sl-files
T=/tmp/sl-91f
MIB=1048576
mountpoint -q "$SL_MNT" || fail "scratch disk not mounted at $SL_MNT"
umount "$T/tmpfs" 2> /dev/null || true
rm -rf "$T"
mkdir -p "$T/tmpfs"
mount -t tmpfs sl-91f "$T/tmpfs" || fail "cannot mount a tmpfs"
rm -f "$SL_MNT/sl-files-a" "$SL_MNT/sl-missing"

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# st: the files pipeline's part of status
st() {
	awk '/^pipeline / { cur = $2; sub(":", "", cur) } cur == "files"' "$SL_DBG/status"
}

# row TGID NAME COLUMN: a column of the debugfs row of (process, name) -
# 3 dev, 4 ino, 5 fstype, 6 opens, 7 ofail, 8 reads, 9 read_bytes,
# 10 writes, 11 write_bytes, 12 rerr, 13 werr, 14 alias, 15 cgroup,
# "errnos" the errno:count words - or "none"
row() {
	awk -v t="$1" -v n="$2" -v c="$3" '$1 == "tgid" && $2 == "comm" { on = 1; next }
		on && $1 == t && $NF == n && $(NF - 1) == "|" {
			if (c == "errnos") { s = ""; for (i = 16; i < NF - 1; i++) s = s (s == "" ? "" : " ") $i; print s }
			else print $c
			f = 1 }
		END { if (!f) print "none" }' "$T/files"
}

# sums TGID: "reads writes read_bytes write_bytes" over the process's rows
sums() {
	awk -v t="$1" '$1 == "tgid" && $2 == "comm" { on = 1; next }
		on && $1 == t && $(NF - 1) == "|" { r += $8; w += $10; rb += $9; wb += $11 }
		END { print r + 0, w + 0, rb + 0, wb + 0 }' "$T/files"
}

# io PID: "syscr syscw rchar wchar" of /proc/PID/io
io() {
	awk '{ v[$1] = $2 } END { print v["syscr:"], v["syscw:"], v["rchar:"], v["wchar:"] }' "/proc/$1/io"
}

# start NAME FILE BYTES CALLS MISSING FAILS: an sl-files in the background
start() {
	"$FL" "$2" "$3" "$4" "$5" "$6" "$T/go" "$T/quit" "$T/$1" &
}
waitfor() {
	for _ in $(seq 600); do
		grep -q "^$2" "$T/$1" 2> /dev/null && return
		sleep 0.05
	done
	fail "sl-files $1: no '$2' ($(cat "$T/$1" 2> /dev/null))"
}

sl_load keyed_linger_ms=300
ctl enable files
st > "$T/status"
grep " hook " "$T/status"
for h in read write kernel_read kernel_write open process_exit; do
	grep -q "hook $h  *armed" "$T/status" ||
		fail "hook $h not armed: $(grep "hook $h " "$T/status")"
done

note "A: 1 MiB in 64 calls on ext4 and back, 5 failed opens; B: 300000 bytes in 75 calls on tmpfs and back, 3 failed opens"
start A "$SL_MNT/sl-files-a" $MIB 64 "$SL_MNT/sl-missing" 5
a=$!
start B "$T/tmpfs/sl-files-b" 300000 75 "$T/tmpfs/sl-missing" 3
b=$!
waitfor A ready
waitfor B ready
touch "$T/go"
waitfor A "done"
waitfor B "done"
cat "$SL_DBG/files" > "$T/files"
ioa=$(io "$a")
iob=$(io "$b")
grep -E "^ *tgid|^ *($a|$b) " "$T/files"

ext4dev=$(stat -c '%Hd:%Ld' "$SL_MNT/sl-files-a")
tmpdev=$(stat -c '%Hd:%Ld' "$T/tmpfs/sl-files-b")
assert_eq "A file dev" "$ext4dev" "$(row "$a" sl-files-a 3)"
assert_eq "A file ino" "$(stat -c %i "$SL_MNT/sl-files-a")" "$(row "$a" sl-files-a 4)"
assert_eq "A file fstype" ext4 "$(row "$a" sl-files-a 5)"
assert_eq "A file opens" 1 "$(row "$a" sl-files-a 6)"
assert_eq "A file writes" 64 "$(row "$a" sl-files-a 10)"
assert_eq "A file write bytes" $MIB "$(row "$a" sl-files-a 11)"
assert_eq "A file reads" 64 "$(row "$a" sl-files-a 8)"
assert_eq "A file read bytes" $MIB "$(row "$a" sl-files-a 9)"
assert_eq "A file errors, alias" "0 0 0" "$(row "$a" sl-files-a 12) $(row "$a" sl-files-a 13) $(row "$a" sl-files-a 14)"
assert_eq "A missing failed opens" 5 "$(row "$a" sl-missing 7)"
assert_eq "A missing errnos" "2:5" "$(row "$a" sl-missing errnos)"
assert_eq "A missing fstype, opens" "- 0" "$(row "$a" sl-missing 5) $(row "$a" sl-missing 6)"
assert_eq "B file dev" "$tmpdev" "$(row "$b" sl-files-b 3)"
assert_eq "B file ino" "$(stat -c %i "$T/tmpfs/sl-files-b")" "$(row "$b" sl-files-b 4)"
assert_eq "B file fstype" tmpfs "$(row "$b" sl-files-b 5)"
assert_eq "B file opens" 1 "$(row "$b" sl-files-b 6)"
assert_eq "B file writes, bytes" "75 300000" "$(row "$b" sl-files-b 10) $(row "$b" sl-files-b 11)"
assert_eq "B file reads, bytes" "75 300000" "$(row "$b" sl-files-b 8) $(row "$b" sl-files-b 9)"
assert_eq "B missing failed opens" 3 "$(row "$b" sl-missing 7)"
assert_eq "B missing errnos" "2:3" "$(row "$b" sl-missing errnos)"
assert_eq "A has no row of B's file" none "$(row "$a" sl-files-b 6)"
assert_eq "B has no row of A's file" none "$(row "$b" sl-files-a 6)"
note "A: rows (reads writes rbytes wbytes) $(sums "$a"), /proc io (syscr syscw rchar wchar) $ioa"
note "B: rows (reads writes rbytes wbytes) $(sums "$b"), /proc io (syscr syscw rchar wchar) $iob"
assert_eq "A rows against /proc/$a/io" "$ioa" "$(sums "$a")"
assert_eq "B rows against /proc/$b/io" "$iob" "$(sums "$b")"

note "the tool: top files -p (JSON and text) and -P agree with debugfs"
"$SL_TOOL" top files -p "$a" -j -n 0 > "$T/top.a.json" || fail "top files -p $a -j failed"
"$SL_TOOL" top files -p "$b" -j -n 0 > "$T/top.b.json" || fail "top files -p $b -j failed"
"$SL_TOOL" top files -P -j -n 0 > "$T/top.P.json" || fail "top files -P -j failed"
"$SL_TOOL" top files -p "$a" -n 0 | tee "$T/top.a.txt"
python3 - "$T" "$a" "$b" "$MIB" "$ioa" "$iob" <<'PY' || fail "top files JSON: see above"
import json, sys
t, a, b, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
io = {a: [int(x) for x in sys.argv[5].split()], b: [int(x) for x in sys.argv[6].split()]}
def rows(p):
    d = json.load(open("%s/top.%s.json" % (t, p)))
    assert d["command"] == "top" and d["what"] == "files" and d["by"] == "file", d
    assert d["sort"] == "bytes", d["sort"]
    return d, {r["name"]: r for r in d["rows"]}
def want(r, **kv):
    for k, v in kv.items():
        assert r[k] == v, (r["name"], k, r[k], v)
da, ra = rows("a")
db, rb = rows("b")
assert all(r["tgid"] == a for r in da["rows"]) and all(r["tgid"] == b for r in db["rows"])
want(ra["sl-files-a"], fstype="ext4", opens=1, open_fails=0, reads=64, read_bytes=mib,
     writes=64, write_bytes=mib, read_errors=0, write_errors=0, alias=0)
want(ra["sl-missing"], opens=0, open_fails=5, dev=0, ino=0,
     errnos=[{"errno": 2, "name": "ENOENT", "count": 5}])
want(rb["sl-files-b"], fstype="tmpfs", opens=1, reads=75, read_bytes=300000, writes=75,
     write_bytes=300000)
want(rb["sl-missing"], open_fails=3, errnos=[{"errno": 2, "name": "ENOENT", "count": 3}])
assert "sl-files-b" not in ra and "sl-files-a" not in rb, (list(ra), list(rb))
# the first row by bytes is the written file
assert da["rows"][0]["name"] == "sl-files-a" and db["rows"][0]["name"] == "sl-files-b"
dp = json.load(open("%s/top.P.json" % t))
assert dp["by"] == "process", dp["by"]
for p in (a, b):
    r = [x for x in dp["rows"] if x["tgid"] == p]
    assert len(r) == 1, r
    got = [r[0]["reads"], r[0]["writes"], r[0]["read_bytes"], r[0]["write_bytes"]]
    assert got == io[p], (p, got, io[p])
print("ok: top files -p A, -p B (JSON) and -P agree with the ground truth and /proc/PID/io")
PY
grep -q "sl-missing (ENOENT:5)" "$T/top.a.txt" || fail "top files text: no 'sl-missing (ENOENT:5)'"
grep -Eq "^$a +sl-files +1 +0 +64 +1024 +64 +1024 +ext4 +sl-files-a$" "$T/top.a.txt" ||
	fail "top files text: A's row is not '1 0 64 1024 64 1024 ext4 sl-files-a'"
note "A and B end: their rows age out (keyed_linger_ms=300) into the aged counters"
na=$(awk -v t="$a" -v u="$b" '($1 == t || $1 == u) && $(NF - 1) == "|"' "$T/files" | wc -l)
touch "$T/quit"
wait
for _ in $(seq 100); do
	cat "$SL_DBG/files" > "$T/files"
	[ "$(sums "$a") $(sums "$b")" != "0 0 0 0 0 0 0 0" ] || break
	sleep 0.1
done
assert_eq "rows of A and B after their end" "0 0 0 0 0 0 0 0" "$(sums "$a") $(sums "$b")"
aged=$(st | sed -n 's/^ *keyed: .* aged_rows=\([0-9]*\).*/\1/p')
assert_range "rows aged out (A and B had $na)" "$na" 100000 "$aged"

note "a tgid filter on another process: C is not counted"
ctl "filter files tgid=1"
ctl "reset files"
rm -f "$T/go" "$T/quit"
touch "$T/go" "$T/quit"
"$FL" "$T/tmpfs/sl-files-c" 4096 4 "$T/tmpfs/sl-missing" 2 "$T/go" "$T/quit" "$T/C"
c=$(awk '{ print $2; exit }' "$T/C")
cat "$SL_DBG/files" > "$T/files"
assert_eq "C rows under a tgid filter" "0 0 0 0" "$(sums "$c")"
ctl "filter files clear"
st | grep -E "^ *(lost|keyed):" > "$T/counters"
cat "$T/counters"
# cnt LINE KIND: a counter of the keyed: or the lost: line
cnt() {
	awk -v l="$1:" -v k="$2" '$1 == l { for (i = 2; i <= NF; i++) { split($i, x, "="); if (x[1] == k) print x[2] } }' "$T/counters"
}
for k in full busy dropped; do
	assert_eq "keyed $k" 0 "$(cnt keyed "$k")"
done
assert_range "C's calls counted filtered" 10 100000 "$(cnt lost filtered)"
ctl "disable files"
umount "$T/tmpfs"
sl_unload
pass "files: exact opens, ENOENT failures, reads and writes per process and file on ext4 and tmpfs; rows add up to /proc/PID/io; tgid filter"
