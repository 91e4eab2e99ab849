#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# A bio-based device: a device-mapper linear target over null_blk.  The
# mapper disk has no requests of its own; its Q2C runs from block_bio_queue
# to block_bio_complete, one per direct read, while the null_blk disk
# under it sees every request with all of its stages.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

command -v dmsetup >/dev/null || skip "no dmsetup"
N=30
sl_nullblk 1 queue_mode=2 gb=1
sl_modprobe dm_mod
for _ in $(seq 50); do [ -c /dev/mapper/control ] && break; sleep 0.1; done
sectors=$(blockdev --getsz /dev/nullb0)
dmsetup create slmap --noudevsync --table "0 $sectors linear /dev/nullb0 0" || fail "dmsetup create failed"
dm=$(dmsetup info -c --noheadings -o blkdevname slmap 2>/dev/null | tr -d ' ')
if [ -z "$dm" ]; then
	for d in /sys/block/dm-*; do
		[ -e "$d" ] && dm=${d##*/} && break
	done
fi
for _ in $(seq 50); do [ -b "/dev/$dm" ] && break; sleep 0.1; done
[ -n "$dm" ] && [ -b "/dev/$dm" ] || fail "no dm disk node"
cleanup() { dmsetup remove slmap 2>/dev/null || true; }
trap cleanup EXIT

sl_load
echo "enable block" > "$SL_DBG/control"
echo "reset block" > "$SL_DBG/control"
dd if="/dev/$dm" of=/dev/null bs=4k count=$N iflag=direct status=none
cat "$SL_DBG/block"
st() { awk -v s="$1" '$1 == s { print $2 }' "$SL_DBG/block"; }
assert_eq "$dm.Q2C (bio-based: queue to bio completion)" $N "$(st "$dm.Q2C")"
assert_eq "$dm.D2C (no requests of its own)" 0 "$(st "$dm.D2C")"
for s in Q2D D2C Q2C; do
	assert_eq "nullb0.$s under it" $N "$(st nullb0.$s)"
done
python3 - "$("$SL_TOOL" show -j block)" "$dm" <<'PY' || fail "the mapper's Q2C does not contain the disk's"
import json, sys
st = {s["name"]: s for p in json.loads(sys.argv[1])["pipelines"] for s in p["stages"]}
dm = sys.argv[2]
assert st[dm + ".Q2C"]["sum_ns"] >= st["nullb0.Q2C"]["sum_ns"], (st[dm + ".Q2C"], st["nullb0.Q2C"])
print("%s Q2C avg %.1f us over nullb0 Q2C avg %.1f us" % (dm, st[dm + ".Q2C"]["avg_ns"] / 1e3, st["nullb0.Q2C"]["avg_ns"] / 1e3))
PY
sl_unload
cleanup
trap - EXIT
rmmod null_blk
pass "bio-based $dm: Q2C exact ($N) from bio queue to bio completion; nullb0 under it exact"
