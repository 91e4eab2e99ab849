#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# The syscalls pipeline: per process and syscall, exactly.
#  - a process making N getppid(2), M stat(2) of a missing path and K
#    getppid through int 0x80 (the i386 ABI) while another process makes
#    N2 and M2 of its own: each has exactly its counts in its rows (the
#    tool's JSON and text, and debugfs), the failures all ENOENT, the
#    i386 calls apart, every call timed; nothing of one leaks into the
#    other; once they ended, their rows age out (keyed_linger_ms);
#  - a tgid filter: only that process is counted, the others filtered;
#  - the tool's interval mode.
# (The keyed table's bounds under 2,000 short-lived processes: 90-syscalls-
# rows.)
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

SYS=$SL_REPO/tests/vm/helpers/sl-sys
N=5000 M=300 K=40
N2=3000 M2=700
T=/tmp/sl-90
rm -rf "$T"
mkdir -p "$T"

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# keyed NAME: a counter of the keyed table ("rows" for the rows in use)
keyed() {
	if [ "$1" = rows ]; then
		sed -n 's/^  keyed rows: \([0-9]*\)\/.*/\1/p' "$SL_DBG/status"
	else
		sed -n "s/^  keyed: .* $1=\\([0-9]*\\).*/\\1/p" "$SL_DBG/status"
	fi
}

# lost KIND: a loss counter of the syscalls pipeline
lost() {
	awk -v k="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == "syscalls" && $1 == "lost:" { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) print a[2] } }' "$SL_DBG/status"
}

# dbg TGID ABI NR COLUMN: a column of a row of the debugfs table (5 count,
# 6 errors, 10 untimed), 0 when there is no such row
dbg() {
	awk -v t="$1" -v a="$2" -v n="$3" -v c="$4" '$1 == "tgid" { on = 1; next }
		on && $1 == t && $3 == a && $4 == n { print $c; f = 1 } END { if (!f) print 0 }' "$SL_DBG/syscalls"
}

# snap PID...: read each one's rows once ("stacklat top syscalls -p PID -j
# -n 0", one python for them all) into $T/top.PID, a line "SYSCALL FIELD
# VALUE" each (FIELD: count, errors, untimed, time_ns, abi, enoent, errnos,
# hist: the samples of its histogram); top PID SYSCALL FIELD then answers
# from there, 0 if absent (a guest starts python in some 0.4 s)
snap() {
	local p
	for p in "$@"; do
		"$SL_TOOL" top syscalls -p "$p" -j -n 0 > "$T/top.$p.json" ||
			fail "stacklat top syscalls -p $p -j failed"
	done
	python3 - "$T" "$@" <<'PY'
import json, sys
t = sys.argv[1]
for p in sys.argv[2:]:
    d = json.load(open("%s/top.%s.json" % (t, p)))
    assert d["command"] == "top" and d["what"] == "syscalls" and d["by"] == "syscall"
    with open("%s/top.%s" % (t, p), "w") as f:
        for r in d["rows"]:
            s = r["syscall"]
            for k in ("count", "errors", "untimed", "time_ns", "abi"):
                f.write("%s %s %s\n" % (s, k, r[k]))
            f.write("%s enoent %d\n" % (s, sum(e["count"] for e in r["errnos"] if e["name"] == "ENOENT")))
            f.write("%s errnos %d\n" % (s, len(r["errnos"])))
            f.write("%s hist %d\n" % (s, sum(b[2] for b in r["hist"])))
PY
}
top() {
	local s f v
	while read -r s f v; do
		[ "$s $f" != "$2 $3" ] || { echo "$v"; return; }
	done < "$T/top.$1"
	echo 0
}

# start NAME -n N -m M [-k K]: an sl-sys that waits for $T/go and $T/quit;
# pid NAME: its pid once it is ready
start() {
	local name=$1
	shift
	"$SYS" calls "$@" -g "$T/go" -q "$T/quit" -o "$T/$name" > /dev/null &
}
pid() {
	for _ in $(seq 400); do
		grep -q ready "$T/$1" 2> /dev/null && break
		sleep 0.05
	done
	awk '$1 == "ready" { print $2 }' "$T/$1"
}

# finish NAME...: wait for their "done" lines
finish() {
	local n
	for n in "$@"; do
		for _ in $(seq 1200); do
			grep -q '^done' "$T/$n" 2> /dev/null && break
			sleep 0.05
		done
		grep -q '^done' "$T/$n" || fail "sl-sys $n did not finish"
	done
}

sl_load
ctl enable syscalls
grep -q "hook sys_enter *armed *tracepoint" "$SL_DBG/status" ||
	fail "sys_enter not armed: $(grep 'hook sys_enter' "$SL_DBG/status")"
grep -q "hook process_exit *armed *tracepoint" "$SL_DBG/status" ||
	fail "process_exit not armed: $(grep 'hook process_exit' "$SL_DBG/status")"
grep '^  keyed' "$SL_DBG/status"

note "A: $N getppid, $M failing stat, $K i386 getppid; B: $N2 and $M2, at the same time"
start A -n $N -m $M -k $K
start B -n $N2 -m $M2
a=$(pid A)
b=$(pid B)
[ -n "$a" ] && [ -n "$b" ] || fail "sl-sys did not start"
touch "$T/go"
finish A B
i386=$(awk '$1 == "done" { print $3 }' "$T/A")
"$SL_TOOL" top syscalls -p "$a" -n 0
"$SL_TOOL" top syscalls -p "$b" -x
snap "$a" "$b"
assert_eq "A getppid" $N "$(top "$a" getppid count)"
assert_eq "A getppid errors" 0 "$(top "$a" getppid errors)"
assert_eq "A getppid untimed" 0 "$(top "$a" getppid untimed)"
assert_eq "A getppid latency samples" $N "$(top "$a" getppid hist)"
assert_eq "A stat" $M "$(top "$a" stat count)"
assert_eq "A stat errors" $M "$(top "$a" stat errors)"
assert_eq "A stat ENOENT" $M "$(top "$a" stat enoent)"
assert_eq "A stat errnos" 1 "$(top "$a" stat errnos)"
assert_eq "B getppid" $N2 "$(top "$b" getppid count)"
assert_eq "B stat" $M2 "$(top "$b" stat count)"
assert_eq "B stat ENOENT" $M2 "$(top "$b" stat enoent)"
assert_eq "B i386 getppid" 0 "$(top "$b" i386:getppid count)"
if [ "$i386" = 1 ]; then
	assert_eq "A i386 getppid, apart" $K "$(top "$a" i386:getppid count)"
	assert_eq "A i386 getppid abi" i386 "$(top "$a" i386:getppid abi)"
	assert_eq "debugfs A i386 nr 64" $K "$(dbg "$a" 32 64 5)"
else
	note "int 0x80 does not work in this kernel: no i386 calls made"
	assert_eq "A i386 getppid" 0 "$(top "$a" i386:getppid count)"
fi
assert_eq "debugfs A getppid (nr 110)" $N "$(dbg "$a" 64 110 5)"
assert_eq "debugfs A stat (nr 4) errors" $M "$(dbg "$a" 64 4 6)"
assert_eq "debugfs B stat untimed" 0 "$(dbg "$b" 64 4 10)"
grep -q "^stat .* ENOENT:$M" <<<"$("$SL_TOOL" top syscalls -p "$a")" ||
	fail "top's text lacks 'stat ... ENOENT:$M'"
grep -q "^stat  *$M  ENOENT:$M$" <<<"$("$SL_TOOL" top syscalls -p "$a" -x)" ||
	fail "top -x's text lacks 'stat $M ENOENT:$M'"
grep -q "^$a  *sl-sys " <<<"$("$SL_TOOL" top syscalls -P -n 0)" ||
	fail "top -P lacks process $a (sl-sys)"
[ "$(awk '$1 == "syscall" { print $2 }' "$SL_DBG/syscalls")" -gt $((N + M)) ] ||
	fail "the syscall stage has fewer samples than A alone made"

linger=$(keyed linger)
note "the rows of ended processes age out (linger ${linger}ms)"
aged0=$(keyed aged_rows)
touch "$T/quit"
wait
# until both have no row, at most the linger and 5 s of sweeps (it took a
# fixed 10 s, on every kernel)
t0=$SECONDS
while [ $((SECONDS - t0)) -lt $((linger / 1000 + 5)) ]; do
	[ "$("$SL_TOOL" top syscalls -p "$a" -j -n 0 | jq '.rows | length')" = 0 ] &&
		[ "$("$SL_TOOL" top syscalls -p "$b" -j -n 0 | jq '.rows | length')" = 0 ] && break
	sleep 0.5
done
note "rows gone after $((SECONDS - t0)) s"
snap "$a" "$b"
assert_eq "A's rows, aged out" 0 "$(top "$a" getppid count)"
assert_eq "B's rows, aged out" 0 "$(top "$b" stat count)"
[ "$(keyed aged_rows)" -gt "$aged0" ] || fail "no row counted aged"

note "a tgid filter: only that process"
rm -f "$T/go" "$T/quit"
start C -n 700 -m 70
start D -n 900 -m 90
c=$(pid C)
d=$(pid D)
ctl filter syscalls tgid="$c"
f0=$(lost filtered)
touch "$T/go"
finish C D
snap "$c" "$d"
assert_eq "C getppid" 700 "$(top "$c" getppid count)"
assert_eq "C stat ENOENT" 70 "$(top "$c" stat enoent)"
assert_eq "D, filtered out" 0 "$(top "$d" getppid count)"
[ "$(lost filtered)" -ge $((f0 + 990)) ] || fail "D's calls not counted filtered: $(lost filtered)"
ctl filter syscalls clear
touch "$T/quit"
wait

note "the tool's intervals"
out=$("$SL_TOOL" top syscalls -j 0.3 2)
assert_eq "interval samples" 2 "$(echo "$out" | grep -c '"command":"top"')"
echo "$out" | python3 -c '
import json, sys
for l in sys.stdin:
    d = json.loads(l)
    assert d["interval_ns"] and d["interval_ns"] > 0, d
    assert all(r["max_ns"] is None for r in d["rows"]), d
' || fail "interval JSON"
ctl disable syscalls
sl_unload

[ "$i386" = 1 ] && i386="$K i386 getppid apart, " || i386=
pass "A: $N getppid, $M stat ENOENT, ${i386}exact, B apart, both aged out; tgid filter; the tool's intervals"
