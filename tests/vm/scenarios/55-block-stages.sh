#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# Block stages, request by request, on two null_blk disks:
#  - mq-deadline: N direct 4 KiB reads give exactly N samples in every
#    stage, Q2I, I2D, Q2D, D2C and Q2C, overall and per disk;
#  - none: a request may be issued without an insert; Q2D, D2C and Q2C
#    are still exact, Q2I and I2D exist only for requests inserted;
#  - splits: 1 MiB direct reads with max_sectors_kb=64 become 16 requests
#    each, and every piece carries its parent's queue time (Q2C = D2C);
#  - merges: buffered writes merge in the plug; every request still has a
#    Q, the merged bios are forgotten, nothing is left in flight;
#  - the disk filter by name keeps the other disk out.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
# grep -q on a pipe: an early exit would fail the writer under pipefail
matches() { local in; in=$(cat); grep -q "$1" <<<"$in"; }

sl_nullblk 2 queue_mode=2 gb=1

sl_load
echo "enable block" > "$SL_DBG/control"
st() { awk -v s="$1" '$1 == s { print $2 }' "$SL_DBG/block"; }
used() { sed -n 's/^in-flight table: \([0-9]*\)\/.*/\1/p' "$SL_DBG/status"; }
hits() { sed -n "/^pipeline block/,\$ s/^  hook $1 .*hits=\([0-9]*\).*/\1/p" "$SL_DBG/status"; }
N=50

# ---- mq-deadline: every stage of every request (the other disks, with
# their own background I/O, are kept out by the disk filter)
echo "filter block dev=nullb0" > "$SL_DBG/control"
echo mq-deadline > /sys/block/nullb0/queue/scheduler
echo "reset block" > "$SL_DBG/control"
dd if=/dev/nullb0 of=/dev/null bs=4k count=$N iflag=direct status=none
cat "$SL_DBG/block"
for s in Q2I I2D Q2D D2C Q2C; do
	assert_eq "mq-deadline $s" $N "$(st $s)"
	assert_eq "mq-deadline nullb0.$s" $N "$(st nullb0.$s)"
done

# ---- none: no insert for requests issued directly
echo none > /sys/block/nullb0/queue/scheduler
echo "reset block" > "$SL_DBG/control"
dd if=/dev/nullb0 of=/dev/null bs=4k count=$N iflag=direct status=none
for s in Q2D D2C Q2C; do
	assert_eq "none $s" $N "$(st $s)"
done
[ "$(st Q2I)" = "$(st I2D)" ] || fail "none: Q2I $(st Q2I) != I2D $(st I2D)"
note "none: $(st Q2I) of $N requests went through an insert"

# ---- splits: the pieces of a bio inherit its queue time
echo 64 > /sys/block/nullb0/queue/max_sectors_kb
echo "reset block" > "$SL_DBG/control"
dd if=/dev/nullb0 of=/dev/null bs=1M count=4 iflag=direct status=none
cat "$SL_DBG/block"
assert_eq "split: D2C (1 MiB / 64 KiB x 4)" 64 "$(st D2C)"
assert_eq "split: Q2C, every piece has its Q" 64 "$(st Q2C)"
[ "$(hits bio_split)" -gt 0 ] || fail "no split seen: $(grep 'hook bio_split' "$SL_DBG/status")"

# ---- merges: buffered writes, merged in the plug before they are requests
echo mq-deadline > /sys/block/nullb1/queue/scheduler
echo "filter block dev=nullb1" > "$SL_DBG/control"
echo "reset block" > "$SL_DBG/control"
b0=$(hits bio_backmerge)
dd if=/dev/zero of=/dev/nullb1 bs=4k count=512 status=none
sync
sleep 1
cat "$SL_DBG/block"
[ "$(hits bio_backmerge)" -gt "$b0" ] || fail "no bio was merged"
d2c=$(st nullb1.D2C)
[ "$d2c" -gt 0 ] && [ "$d2c" -lt 512 ] || fail "merge: $d2c requests for 512 4 KiB writes"
assert_eq "merge: Q2C = D2C, every request has its Q" "$d2c" "$(st nullb1.Q2C)"
assert_eq "merge: Q2I = D2C under mq-deadline" "$d2c" "$(st nullb1.Q2I)"
assert_eq "in-flight entries left after the I/O" 0 "$(used)"

# ---- the disk filter by name keeps the other disk out
echo "reset block" > "$SL_DBG/control"
dd if=/dev/nullb0 of=/dev/null bs=4k count=$N iflag=direct status=none
dd if=/dev/nullb1 of=/dev/null bs=4k count=20 iflag=direct status=none
assert_eq "dev=nullb1: nullb1.D2C" 20 "$(st nullb1.D2C)"
assert_eq "dev=nullb1: nullb0.D2C" 0 "$(st nullb0.D2C)"
assert_eq "dev=nullb1: D2C" 20 "$(st D2C)"
grep -A3 "^pipeline block" "$SL_DBG/status" | tail -n1 | matches "table_full=0 stale=0 bad_delta=0 unmatched=0" ||
	fail "losses: $(grep -A3 '^pipeline block' "$SL_DBG/status" | tail -n1)"
echo "filter block clear" > "$SL_DBG/control"
sl_unload
rmmod null_blk
pass "mq-deadline: all 5 stages exact ($N); none: Q2D/D2C/Q2C exact; 64 split pieces with Q; $d2c merged requests with Q, nothing left in flight; dev=nullb1"
