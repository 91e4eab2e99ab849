#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 7.3 6.1-rt
#   (the rings' code is the same on every kernel; 7.3 booted preempt=full,
#   where tracepoint probes are preemptible, and PREEMPT_RT, where the
#   swap's function-call interrupt is the one hard interrupt context, are
#   where it can go wrong; 6.12 and 5.10 passed it when it was written)
# Event rings that follow use (issue 31): with event_records_start=128 a
# CPU's ring starts at 128 records and grows x4, to 512, when a look
# (every 125 ms) finds it more than half full or full since the last look.
# The new ring takes the old one's place on its CPU, with the unread
# records copied.  With threshold 1 ns on func's __x64_sys_getppid and
# the pipeline filtered on sl-spin's tgid, sl-spin's two threads (one
# pinned to each CPU) make M getppid each, nobody reading:
#  1. before any event: 2 rings of 128 records, 2 x 128 x 504 bytes;
#  2. bursts until the rings reach 512 (a burst fills a ring, so the next
#     look grows it; when is a race with the burst): every call is
#     written or counted an overrun (written + overruns = 2M exactly), the
#     bytes follow the rings' size, and reading gives exactly the records
#     written, each CPU's in order (seq rising); 512 within 3 bursts
#     (one, unless a look falls inside the burst before a ring is half
#     full: it grows at the next);
#  3. the rings drained and at their bound, a burst of M calls a CPU:
#     exactly 512 kept and M - 512 overruns on each CPU, and reading gives
#     each CPU's 512 attempts in a row (seq consecutive);
#  4. event_records= alone: the rings have that size from the start and
#     never grow (81-events' exact overruns rely on it).
# It can fail: a ring that did not grow keeps 128 in 3 (more
# overruns); a swap that lost or reordered the unread records fails 2's
# read.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

SPIN=$SL_REPO/tests/vm/helpers/sl-spin
OUT=/tmp/sl-81g
M=1000
rm -rf "$OUT"
mkdir -p "$OUT"

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }
# the event rings' JSON fields, in this order
evj() {
	"$SL_TOOL" status -j | jq -r '.events | [.ring, .ring_start, .ring_now, .rings, .bytes, .written, (.overruns_per_cpu | map(tostring) | join(","))] | @tsv'
}
# read every pending event of func (the rings drained), into $OUT/$1
drain() {
	"$SL_TOOL" events -j -d 0.5 func > "$OUT/$1"
	grep -c '"event"' "$OUT/$1" || true
}

[ "$(getconf _NPROCESSORS_ONLN)" -eq 2 ] || fail "this test is made for 2 online CPUs"
# event_rate=0: every attempt is written or an overrun, none suppressed
sl_load event_rate=0 event_records_start=128
ctl func add __x64_sys_getppid
ctl enable func
ctl threshold func 1
# 1. the rings exist, small
read -r ring start now rings bytes _ _ <<<"$(evj)"
assert_eq "ring: grows to, starts with, largest now; rings" "512 128 128 2" "$ring $start $now $rings"
assert_eq "ring bytes" $((2 * 128 * 504)) "$bytes"

# 2. bursts, nobody reading during one, until the rings are at 512
sizes=""
for b in 1 2 3; do
	read -r _ _ _ _ _ w0 ov0 <<<"$(evj)"
	"$SPIN" -n $M -t 2 -f "$SL_DBG/control" > /dev/null
	sleep 0.5		# at least two looks
	read -r _ _ now _ bytes w1 ov1 <<<"$(evj)"
	o0a=${ov0%,*} o0b=${ov0#*,} o1a=${ov1%,*} o1b=${ov1#*,}
	written=$((w1 - w0))
	over=$((o1a - o0a + o1b - o0b))
	note "burst $b of $M a CPU: written $written, overruns $((o1a - o0a)) and $((o1b - o0b)); largest ring now $now records, $bytes bytes"
	assert_eq "burst $b: written + overruns" $((2 * M)) $((written + over))
	[ "$written" -ge 256 ] || fail "burst $b: only $written written: less than the two rings' first 128"
	got=$(drain "burst$b.json")
	assert_eq "burst $b: events read" "$written" "$got"
	python3 - "$OUT/burst$b.json" <<'PY' || fail "burst $b: events not sl-spin's, or a CPU's seq not rising"
import json, sys
evs = [json.loads(l)["event"] for l in open(sys.argv[1]) if '"event"' in l]
assert all(e["comm"] == "sl-spin" for e in evs), evs[0]
for cpu in (0, 1):
    seq = [e["seq"] for e in evs if e["cpu"] == cpu]
    assert len(seq) >= 128 and seq == sorted(set(seq)), (cpu, len(seq), seq[:5])
PY
	sizes="$sizes $now"
	[ "$now" -lt 512 ] || break
done
assert_eq "largest ring after the bursts ($sizes)" 512 "$now"
# both rings: each burst filled both
assert_eq "ring bytes at 512" $((2 * 512 * 504)) "$bytes"

# 3. a burst with the rings at their bound
read -r _ _ _ _ _ w1 ov1 <<<"$(evj)"
"$SPIN" -n $M -t 2 -f "$SL_DBG/control" > /dev/null
read -r _ _ now _ bytes w2 ov2 <<<"$(evj)"
o1a=${ov1%,*} o1b=${ov1#*,} o2a=${ov2%,*} o2b=${ov2#*,}
assert_eq "written by a burst at the bound" 1024 $((w2 - w1))
assert_eq "overruns on CPU 0, CPU 1" "$((M - 512)) $((M - 512))" "$((o2a - o1a)) $((o2b - o1b))"
assert_eq "largest ring (at its bound)" 512 "$now"
got=$(drain second.json)
assert_eq "events read after it" 1024 "$got"
python3 - "$OUT/second.json" <<'PY' || fail "at the bound: a CPU's 512 events not consecutive"
import json, sys
evs = [json.loads(l)["event"] for l in open(sys.argv[1]) if '"event"' in l]
for cpu in (0, 1):
    seq = [e["seq"] for e in evs if e["cpu"] == cpu]
    assert len(seq) == 512 and seq == list(range(seq[0], seq[0] + 512)), (cpu, len(seq), seq[:5])
PY
ctl threshold func 0
sl_unload

# 4. event_records= alone (the default: no event_records_start=): fixed
sl_load event_rate=0 event_records=200
ctl func add __x64_sys_getppid
ctl enable func
ctl threshold func 1
"$SPIN" -n $M -t 2 -f "$SL_DBG/control" > /dev/null
sleep 0.5
read -r ring start now rings bytes w1 _ <<<"$(evj)"
assert_eq "event_records=200: grows to, starts with, largest now" "200 200 200" "$ring $start $now"
assert_eq "written with event_records=200 (no growth)" 400 "$w1"
assert_eq "ring bytes with event_records=200" $((2 * 200 * 504)) "$bytes"
ctl threshold func 0
sl_unload
pass "rings 128 ->$sizes records in bursts of $((2 * M)) (each call kept or counted), then 512 a CPU exactly; event_records= alone fixed"
