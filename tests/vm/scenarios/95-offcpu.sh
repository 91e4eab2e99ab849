#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# The offcpu pipeline: off-CPU time by reason and kernel stack, against
# blocks we cause and the kernel's own accounting around them.
#  - a reader thread blocked in read() on an empty pipe N times, each until
#    the main thread, after sleeping MS ms, writes it a byte (sl-offcpu):
#    its process's row of reason pipe_read (the innermost function of the
#    stack outside .sched.text: fs/pipe.c's pipe_read, anon_pipe_read on
#    7.x) counts
#    exactly N blocks, and its total lies between what the reader's own
#    clock says its reads took less its time on a CPU and on a run queue
#    during them (schedstat) and what its clock says (below);
#  - --stacks: the stacks of pipe_read hold the N blocks, one of them has
#    a frame pipe_read+0xOFF, and no frame anywhere is an address;
#  - debugfs agrees on the count; the stage "offcpu" holds at least N;
#  - a tgid filter on another process: the reader's blocks are counted
#    filtered, and no row comes;
#  - slow events over 40 ms (every block is at least MS = 50 ms): exactly
#    N lines of the reader thread (its tid and comm, not the waker's) with
#    where= the reason and stack= its frames, innermost first, pipe_read
#    among them - read through debugfs (frames written by the module) and,
#    for another N, through the tool (-j: stack_id and the frames fetched
#    by GET_STACKS); no address in either.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

OC=$SL_REPO/tests/vm/helpers/sl-offcpu
N=20 MS=50
T=/tmp/sl-95
rm -rf "$T"
mkdir -p "$T"

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# lost KIND: a loss counter of the offcpu pipeline
lost() {
	awk -v k="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == "offcpu" && $1 == "lost:" { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) print a[2] } }' "$SL_DBG/status"
}

# run NAME: sl-offcpu to its "done" line; sets pid, reads, readns, cpu,
# delay, json (top offcpu -p), sjson (the same --stacks) and dbg, read
# while the process is still there, then lets it end
run() {
	local name=$1 out=$T/$1
	"$OC" -n $N -s $MS -q "$T/quit-$name" > "$out" &
	local oc=$!
	for _ in $(seq 600); do
		grep -q '^done' "$out" 2> /dev/null && break
		kill -0 $oc 2> /dev/null || break
		sleep 0.05
	done
	grep -q '^done' "$out" || fail "sl-offcpu $name: no result ($(cat "$out"))"
	cat "$out"
	pid=$(sed -n 's/^ready pid=\([0-9]*\) .*/\1/p' "$out")
	reader=$(sed -n 's/^ready pid=[0-9]* reader=\([0-9]*\).*/\1/p' "$out")
	reads=$(sed -n 's/^done reads=\([0-9]*\) .*/\1/p' "$out")
	readns=$(sed -n 's/^done .* read_ns=\([0-9]*\) .*/\1/p' "$out")
	cpu=$(sed -n 's/^done .* cpu_ns=\([0-9]*\) .*/\1/p' "$out")
	delay=$(sed -n 's/^done .* run_delay_ns=\([0-9]*\)$/\1/p' "$out")
	json=$("$SL_TOOL" top offcpu -p "$pid" -j -n 0)
	sjson=$("$SL_TOOL" top offcpu -p "$pid" --stacks -j -n 0)
	dbg=$(cat "$SL_DBG/offcpu")
	"$SL_TOOL" top offcpu -p "$pid" -n 0
	touch "$T/quit-$name"
	wait $oc || fail "sl-offcpu $name failed"
}

hz=$(sl_hz)
note "CONFIG_HZ=$hz"

sl_load
ctl enable offcpu
dmesg | grep -o 'offcpu: scheduler text bounded.*' || true
for h in switch wakeup wakeup_new process_exit; do
	grep -q "hook $h *armed *tracepoint" "$SL_DBG/status" ||
		fail "$h not armed: $(grep "hook $h " "$SL_DBG/status")"
done

note "a reader blocked $N times in read() on a pipe, ${MS} ms each"
run pipe
assert_eq "reads" $N "$reads"
# one python: the rows, the stacks and the stage
show=$("$SL_TOOL" show -j offcpu)
read -r blocks total max sblocks sframe raw scount <<<"$(python3 - "$json" "$sjson" "$show" <<'PY'
import json, re, sys
d, s, sh = (json.loads(a) for a in sys.argv[1:4])
assert d["what"] == "offcpu" and d["by"] == "reason" and s["by"] == "stack"
PR = ("pipe_read", "anon_pipe_read")  # 7.x: anon_pipe_read
r = [r for r in d["rows"] if r["reason"] in PR]
b, t, m = (r[0]["blocks"], r[0]["time_ns"], r[0]["max_ns"]) if r else (0, 0, 0)
st = [r for r in s["rows"] if r["reason"] in PR]
frame = any(re.match(r"(anon_)?pipe_read\+0x[0-9a-f]+/0x[0-9a-f]+", f) for r in st for f in r["frames"])
raw = sum(1 for r in s["rows"] for f in r["frames"] if re.search(r"\b(0x)?[0-9a-f]{12,}\b", f))
stage = [x for p in sh["pipelines"] if p["pipeline"] == "offcpu" for x in p["stages"] if x["name"] == "offcpu"][0]
print(b, t, m, sum(r["blocks"] for r in st), int(frame), raw, stage["count"])
PY
)"
grep -E "pipe_read" <<<"$dbg" || true
assert_eq "blocks in pipe_read" $N "$blocks"
# The total: both of our stamps of a block (the switch-out, the wakeup)
# lie inside the read() the reader timed, on the clock it timed it with
# (CLOCK_MONOTONIC, stacklat's ktime_get_mono_fast_ns()): at most its
# read_ns (and 1 ms for the fast clock's reads across an update).  What
# read_ns holds beyond the blocks is the reader on a CPU (entering,
# leaving, copying a byte) and waiting for one after each wakeup, which
# its schedstat counts (cpu_ns, run_delay_ns over the reads) - on
# sched_clock_cpu(), each stamp of which a TCG guest keeps within a tick of
# ktime (see 93): a tick a run the reader had (N + 1), or 3 % and 2 ms
# when that is more.
tol=$(awk -v r="$readns" -v n=$N -v hz="$hz" 'BEGIN { a = r * 0.03 + 2000000; b = (n + 1) * 1000000000 / hz; printf "%d", (a > b ? a : b) }')
lo=$((readns - cpu - delay - tol))
assert_range "total against the reader's clock (ns)" "$lo" $((readns + 1000000)) "$total"
assert_range "max (ns): at least the average, at most the total" $((total / N)) "$total" "$max"
assert_eq "--stacks: blocks under pipe_read's stacks" $N "$sblocks"
assert_eq "--stacks: a frame pipe_read+0xOFF/0xSIZE" 1 "$sframe"
assert_eq "frames that look like addresses" 0 "$raw"
assert_eq "debugfs: blocks in pipe_read" $N \
	"$(awk -v p="$pid" '$1 == p && $4 ~ /^(anon_)?pipe_read$/ { n += $5 } END { print n + 0 }' <<<"$dbg")"
[ "$scount" -ge $N ] || fail "offcpu stage: $scount samples < $N"
echo "ok: offcpu stage: $scount samples"
pipe_total=$total pipe_max=$max

note "a tgid filter: only a sleeping process is let in"
sleep 60 &
sl=$!
ctl filter offcpu tgid=$sl
ctl reset offcpu
f0=$(lost filtered)
run filtered
others=$(awk -v s="$sl" 'NR > 1 && $1 != s && $1 ~ /^[0-9]+$/ { n++ } END { print n + 0 }' <<<"$dbg")
assert_eq "debugfs rows of processes filtered out" 0 "$others"
[ "$(lost filtered)" -ge $((f0 + N)) ] || fail "blocks not counted filtered: $(lost filtered)"
ctl filter offcpu clear
kill $sl

note "slow events over 40 ms: a line per block, of the thread that blocked"
ctl reset offcpu
ctl threshold offcpu 40000000
run evdbg
# the ring keeps the lines; cat reads until the timeout, all CPUs' rings
evd=$(timeout 3 cat "$SL_DBG/events" || true)
rd=$(awk -v t="$reader" '$3 ~ "/" t "$"' <<<"$evd")
head -n 2 <<<"$rd"
PRW='where=(anon_)?pipe_read'
assert_eq "debugfs lines of the reader thread" $N "$(grep -c . <<<"$rd" || true)"
assert_eq "... offcpu lines (the stage)" $N "$(awk '$4 == "offcpu" && $6 ~ /^offcpu=/' <<<"$rd" | grep -c . || true)"
assert_eq "... where= the reason" $N "$(grep -cE " $PRW( |$)" <<<"$rd" || true)"
assert_eq "... a stack holding pipe_read+0xOFF" $N \
	"$(grep -cE ' stack=([^ ]*;)?(anon_)?pipe_read\+0x[0-9a-f]+(;|$)' <<<"$rd" || true)"
assert_eq "... the reader's process" $N "$(awk -v p="$pid" '$3 ~ "^" p "/"' <<<"$rd" | grep -c . || true)"
assert_eq "lines with an address" 0 "$(grep -cE '\b(0x)?[0-9a-f]{12,}\b' <<<"$evd" || true)"
# the probe's own frames (sl_stack_capture, the tracepoint probe) are not
# the kernel's stack: none begins in stacklat (a reader blocked in its
# events file has stacklat's frames further down, rightly)
assert_eq "lines whose stack begins in stacklat's probe" 0 "$(grep -cE ' stack=[^;]*\[stacklat\]' <<<"$evd" || true)"
run evtool
evj=$("$SL_TOOL" events -j -p "$reader" -d 2 offcpu 2>/dev/null || true)
# (a block is a little under MS when the reader blocks after the writer
# began its sleep: over the threshold is what a line promises)
read -r jn jok <<<"$(python3 - "$evj" "$reader" <<'PY'
import json, re, sys
t = int(sys.argv[2])
ev = [json.loads(l) for l in sys.argv[1].splitlines() if l.strip()]
ev = [e["event"] for e in ev if "event" in e]  # the last line: "summary"
ev = [e for e in ev if e.get("tid") == t]
ok = [e for e in ev if e.get("where") in ("pipe_read", "anon_pipe_read")
      and e.get("stack_id", 0) > 0 and e["total_ns"] > 40000000
      and any(re.match(r"(anon_)?pipe_read\+0x[0-9a-f]+/0x[0-9a-f]+", f) for f in e.get("stack", []))
      and "[stacklat]" not in e["stack"][0]]
print(len(ev), len(ok))
PY
)"
assert_eq "tool -j: lines of the reader thread" $N "$jn"
assert_eq "... with where, stack_id and pipe_read among the frames (the first not stacklat's)" $N "$jok"
ctl threshold offcpu 0
grep '^pipeline offcpu' -A14 "$SL_DBG/status" | grep -E 'lost|keyed|stack' || true
ctl disable offcpu
pass "pipe_read: $N blocks, total $pipe_total ns ($(awk -v t="$pipe_total" -v n=$N -v m=$MS 'BEGIN { printf "%.2f", t / (n * m * 1e4) }') % of $N x $MS ms), max $pipe_max; stacks, debugfs, stage, filter; $N slow-event lines with reason and stack (debugfs and tool)"
