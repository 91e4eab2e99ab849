#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# The sched pipeline: run-queue latency, against a wait we cause and the
# kernel's own accounting of it.
#  - hog: a SCHED_FIFO writer and a waiter pinned to one CPU (sl-runq); N
#    times the writer wakes the waiter through a pipe, then spins SPIN ms:
#    the waiter's row has exactly N waits of 33.5 ms or more (the log2
#    buckets from 2^25 ns; its other waits - created, preempted by a
#    kworker - are far shorter), each at least the spin the writer
#    measured; its waits as many as the kernel's own count of its runs
#    (/proc/.../schedstat pcount: every arrival on a CPU, and the waiter
#    was born with the pipeline on) and its total the kernel's run_delay
#    within the tolerance said below;
#  - no hog (sl-runq -N: the writer is SCHED_OTHER and does not spin): the
#    waits microseconds but for a TCG vCPU's stalls on a loaded host, which
#    the kernel counts too: the count and the total still the kernel's,
#    waits of 33.5 ms or more and the longest no more than its run_delay
#    holds;
#  - the stage "runqueue" (the system-wide histogram) holds at least the
#    waiter's waits, its maximum at least the spin;
#  - a tgid filter: the waiter's process, not let in, has no row, its
#    switch-ins are counted filtered.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

RQ=$SL_REPO/tests/vm/helpers/sl-runq
N=10 SPIN=50
CPU=$(($(nproc) - 1))
# this shell, its polling and the tool on CPU 0, out of the waiter's way
# (with one CPU they share it, and the no-hog maximum below says so)
[ "$CPU" = 0 ] || taskset -pc 0 $$ > /dev/null
T=/tmp/sl-93
rm -rf "$T"
mkdir -p "$T"

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# lost KIND: a loss counter of the sched pipeline
lost() {
	awk -v k="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == "sched" && $1 == "lost:" { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) print a[2] } }' "$SL_DBG/status"
}

# row JSON TID: the thread's row of "top sched -p PID -j -n 0" as "waits
# time_ns max_ns long" (long: its waits of 2^25 ns or more), "0 0 0 0"
# when the thread has no row (one python a call: it is slow under TCG)
row() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d["command"] == "top" and d["what"] == "sched" and d["by"] == "thread"
r = [r for r in d["rows"] if r["tid"] == int(sys.argv[2])]
if not r:
    print(0, 0, 0, 0)
else:
    r = r[0]
    print(r["waits"], r["time_ns"], r["max_ns"],
          sum(b[2] for b in r["hist"] if b[0] >= 1 << 25))
PY
}

# run NAME ARGS...: sl-runq to its "done" line; sets pid, waiter, pcount,
# delay, spin, json (the pipeline's rows of its process, read while the
# waiter is blocked) and dbg (the debugfs table then), then lets it end
run() {
	local name=$1 out=$T/$1
	shift
	"$RQ" -n $N -s $SPIN -c "$CPU" -q "$T/quit-$name" "$@" > "$out" &
	local rq=$!
	for _ in $(seq 600); do
		grep -q '^done' "$out" 2> /dev/null && break
		kill -0 $rq 2> /dev/null || break
		sleep 0.05
	done
	grep -q '^done' "$out" || fail "sl-runq $name: no result ($(cat "$out"))"
	cat "$out"
	pid=$(sed -n 's/^ready pid=\([0-9]*\) .*/\1/p' "$out")
	waiter=$(sed -n 's/^ready .* waiter=\([0-9]*\) .*/\1/p' "$out")
	pcount=$(sed -n 's/^done pcount=\([0-9]*\) .*/\1/p' "$out")
	delay=$(sed -n 's/^done .* run_delay_ns=\([0-9]*\) .*/\1/p' "$out")
	spin=$(sed -n 's/^done .* spin_min_ns=\([0-9]*\)$/\1/p' "$out")
	json=$("$SL_TOOL" top sched -p "$pid" -j -n 0)
	dbg=$(cat "$SL_DBG/sched")
	"$SL_TOOL" top sched -p "$pid" -n 0
	touch "$T/quit-$name"
	wait $rq || fail "sl-runq $name failed"
}

# tol: how far our total of the waiter's waits may be from the kernel's
# run_delay of the same waits.  Both stamp the same events a few
# instructions apart, on two clocks: the kernel's runqueue clock is
# sched_clock_cpu(), which with the unstable TSC of a TCG guest is kept
# within [the ktime of the CPU's last tick, that + TICK_NSEC]
# (kernel/sched/clock.c), where stacklat reads ktime_get_mono_fast_ns(): each
# stamp may be up to a tick off, each wait's difference up to a tick either
# way - and on a loaded host the error runs one way (5.10 in a make check:
# +25.8 ms over 22 waits, 1.2 ms a wait at HZ=250).  So: a tick a wait the
# kernel counted (pcount), or 3 % and 2 ms when that is more.
hz=$(sl_hz)
note "CONFIG_HZ=$hz"
tol() { awk -v d="$delay" -v w="$pcount" -v hz="$hz" 'BEGIN { a = d * 0.03 + 2000000; b = w * 1000000000 / hz; printf "%d", (a > b ? a : b) }'; }

sl_load
ctl enable sched
for h in wakeup wakeup_new switch process_exit; do
	grep -q "hook $h *armed *tracepoint" "$SL_DBG/status" ||
		fail "$h not armed: $(grep "hook $h " "$SL_DBG/status")"
done

note "hog: $N wakeups of a waiter while a SCHED_FIFO writer spins ${SPIN} ms on CPU $CPU"
run hog
read -r waits total max long <<<"$(row "$json" "$waiter")"
# one a round; a short wait (microseconds) grows to 33.5 ms only if a TCG
# vCPU stalls inside it on a loaded host, and the kernel's run_delay then
# holds that stall too: at most as many more as fit in what it holds
# beyond the N spins
longhi=$(awk -v d="$delay" -v t="$(tol)" -v n=$N -v s="$spin" 'BEGIN { e = (d + t - n * s) / 33554432; printf "%d", n + (e > 0 ? e : 0) }')
assert_range "waits of 33.5 ms or more" $N "$longhi" "$long"
assert_eq "waits, as the kernel counts the waiter's runs (pcount)" "$pcount" "$waits"
# each long wait began before the spin the writer measured and ended after
# it: at least spin_min_ns each; the longest is one spin, a switch and the
# writer's way into read() - plus whatever a TCG vCPU stalls on a loaded
# host (seen: 180 ms in one wait during a make style beside the guest), a
# stall the kernel's run_delay counts too: so the longest is at most all of
# the waiting the kernel counted (with the clocks' tolerance, below) less
# the other N - 1 long waits, each at least the spin
maxhi=$(awk -v d="$delay" -v t="$(tol)" -v n=$N -v s="$spin" 'BEGIN { printf "%d", d + t - (n - 1) * s }')
assert_range "max (ns)" "$spin" "$maxhi" "$max"
[ "$total" -ge $((N * spin)) ] || fail "total $total < $N spins of $spin ns"
# the kernel's run_delay covers the same waits (enqueue to arrival),
# within tol (above; seen: 6.1 0.04 % to 1.0 %, 6.1-rt 1.4 %, 7.3 0.06 %,
# 5.10 under load 4.6 %) - a wait missed or counted twice is the pcount
# check's, a spin missed the long waits'
assert_range "total against run_delay (ns)" $((delay - $(tol))) $((delay + $(tol))) "$total"
hog_total=$total hog_max=$max hog_waits=$waits hog_long=$long

note "no hog: the writer is SCHED_OTHER and does not spin"
run nohog -N
read -r waits total max long <<<"$(row "$json" "$waiter")"
# none of 33.5 ms or more but for a vCPU's stalls, which the kernel's
# run_delay counts too: at most as many as fit in it
longhi=$(awk -v d="$delay" -v t="$(tol)" 'BEGIN { printf "%d", (d + t) / 33554432 }')
assert_range "no hog: waits of 33.5 ms or more" 0 "$longhi" "$long"
assert_eq "no hog: waits, as the kernel counts them" "$pcount" "$waits"
assert_eq "no hog: debugfs, the waiter's waits" "$waits" \
	"$(awk -v p="$pid" -v t="$waiter" '$1 == p && $2 == t { print $5 }' <<<"$dbg")"
# a wake-up on an idle CPU takes microseconds, but under TCG on a host
# shared with other guests a vCPU stalls now and then, inside a wait too
# (6.1: 5.2 ms, 11.4 ms in one wait the kernel's run_delay agreed with):
# the longest wait is no longer than all the waiting the kernel counted,
# and the collapse is the kernel's as much as ours - the total agrees with
# its run_delay (below), whatever the host did
assert_range "no hog: max (ns)" 1 $((delay + $(tol))) "$max"
assert_range "no hog: total against run_delay (ns)" $((delay - $(tol))) $((delay + $(tol))) "$total"
nohog_max=$max

note "the stage: the system-wide histogram"
show=$("$SL_TOOL" show -j sched)
read -r scount smax <<<"$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])
s = [s for p in d["pipelines"] if p["pipeline"] == "sched" for s in p["stages"] if s["name"] == "runqueue"][0]
print(s["count"], s["max_ns"])' "$show")"
[ "$scount" -ge $((hog_waits + waits)) ] || fail "runqueue stage: $scount samples < the waiter's $((hog_waits + waits))"
[ "$smax" -ge "$hog_max" ] || fail "runqueue stage: max $smax < the waiter's $hog_max"
echo "ok: runqueue stage: $scount samples, max $smax"

note "a tgid filter: only a sleeping process is let in"
sleep 60 &
sl=$!
ctl filter sched tgid=$sl
ctl reset sched
f0=$(lost filtered)
run filtered
rows=$("$SL_TOOL" top sched -j -n 0)
others=$(python3 -c 'import json, sys; d = json.loads(sys.argv[1]); print(sum(1 for r in d["rows"] if r["tgid"] != int(sys.argv[2])))' "$rows" "$sl")
assert_eq "rows of processes filtered out" 0 "$others"
assert_eq "the waiter, filtered out" "0 0 0 0" "$(row "$json" "$waiter")"
[ "$(lost filtered)" -ge $((f0 + N)) ] || fail "switch-ins not counted filtered: $(lost filtered)"
ctl filter sched clear
kill $sl
grep '^pipeline sched' -A12 "$SL_DBG/status" | grep -E 'lost|keyed' || true
ctl disable sched
pass "hog: $hog_long of $N rounds waits >= 33.5 ms, total $hog_total ns (run_delay agrees), max $hog_max; no hog: max $nohog_max; stage, filter"
