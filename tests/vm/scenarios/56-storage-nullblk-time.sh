#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# A device with a known service time T: null_blk completing each request
# on a timer after T (irqmode=2, completion_nsec=T).
#  - D2C of N direct reads is T: no sample under 0.9 T (the device's
#    timer never fires early), the time before dispatch (Q2D) a small
#    part of it, and Q2C's sum the kernel's own: the read time of
#    /sys/block/nullb0/stat (from each request's start to its end) grew by
#    as much.  Not an upper bound against T: under emulation the timer
#    fires late by whatever the host took from the guest (6.12 in a loaded
#    fresh-clone check: median 14.9 ms for T = 10) - the kernel's own count
#    says so too, and stacklat must agree with it, not with T;
#  - an ext4 filesystem on a memory-backed null_blk with the same T: each
#    fsync of a dirty page needs at least the data write and the journal
#    commit, so fsync.fs >= 2T, and the split says where it went: the
#    filesystem's own time (fs.self) is small, the I/O wait inside it
#    carries the device time, and block D2C on that disk is again T.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

T=10000000
N=40
sl_nullblk 1 irqmode=2 completion_nsec=$T queue_mode=2 gb=1

sl_load
echo "enable block" > "$SL_DBG/control"
echo "filter block dev=nullb0" > "$SL_DBG/control"
# the read time of the disk's stat (ms; field 4), before and after
rt0=$(awk '{ print $4 }' /sys/block/nullb0/stat)
dd if=/dev/nullb0 of=/dev/null bs=4k count=$N iflag=direct status=none
rt1=$(awk '{ print $4 }' /sys/block/nullb0/stat)
cat "$SL_DBG/block"
python3 - "$("$SL_TOOL" show -j block)" "$N" "$T" $((rt1 - rt0)) <<'PY' || fail "D2C is not the device's service time"
import json, sys
st = {s["name"]: s for p in json.loads(sys.argv[1])["pipelines"] for s in p["stages"]}
n, t, kms = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
d, q, qd = st["nullb0.D2C"], st["nullb0.Q2C"], st["nullb0.Q2D"]
print("nullb0 D2C: count %d avg %.3f ms p50 %.3f ms min %.3f ms max %.3f ms (T = %.1f ms); "
      "Q2C %.1f ms in all, the kernel's read time %d ms" % (
    d["count"], d["avg_ns"] / 1e6, d["p50_ns"] / 1e6, d["min_ns"] / 1e6, d["max_ns"] / 1e6,
    t / 1e6, q["sum_ns"] / 1e6, kms))
assert d["count"] == n and q["count"] == n, (d, q)
# the device's timer never fires early
assert d["min_ns"] >= 0.9 * t, ("a request completed before T", d["min_ns"])
# the delay is the device's, not before it: most requests reach it at once
assert qd["p50_ns"] < 0.1 * t, ("Q2D p50", qd["p50_ns"])
# the kernel times each request from its start (blk_mq's start_time_ns, at
# the request's allocation, just after Q) to its end (at C), in ns, and
# prints the sum in ms: the two sums differ by the ms (1) and the bio's
# way into a request N times (microseconds: 0.5 ms each allowed, for an
# emulator's stall there)
assert abs(q["sum_ns"] - kms * 1e6) <= 1e6 + n * 5e5, ("Q2C sum against the kernel's", q["sum_ns"], kms)
PY

# ext4 on a memory-backed null_blk with the same service time
grep -q configfs /proc/filesystems || sl_modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
c=/sys/kernel/config/nullb/slt
mkdir "$c"
echo 1 > "$c/memory_backed"
echo 2 > "$c/irqmode"
echo $T > "$c/completion_nsec"
echo 128 > "$c/size"
echo 2 > "$c/queue_mode"
echo 1 > "$c/power"
# the disk takes the configfs name on newer kernels ("slt"), nullb<index> on 5.10
disk=
for _ in $(seq 50); do
	for n in slt "nullb$(cat "$c/index")"; do [ -b "/dev/$n" ] && disk=$n; done
	[ -n "$disk" ] && break
	sleep 0.1
done
[ -n "$disk" ] || fail "no disk from configfs null_blk"
mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=1,lazy_journal_init=1 "/dev/$disk"
mkdir -p /tmp/slt
mount -t ext4 -o noinit_itable "/dev/$disk" /tmp/slt
cleanup() { umount /tmp/slt 2>/dev/null; echo 0 > "$c/power"; rmdir "$c"; }
trap cleanup EXIT

F=8
echo "filter block dev=$disk" > "$SL_DBG/control"
echo "enable storage" > "$SL_DBG/control"
python3 - /tmp/slt "$F" "$SL_DBG/control" <<'PY'
import os, sys
d, n, ctl = sys.argv[1], int(sys.argv[2]), sys.argv[3]
fd = os.open(d + "/f", os.O_RDWR | os.O_CREAT, 0o644)
os.write(fd, b"x" * 4096)
os.fsync(fd)
with open(ctl, "w") as f:
    f.write("filter storage clear tgid=%d\nreset\n" % os.getpid())
for i in range(n):
    os.pwrite(fd, b"y" * 4096, 4096 * i)
    os.fsync(fd)
PY
cat "$SL_DBG/storage" "$SL_DBG/block"
python3 - "$("$SL_TOOL" show -j storage block)" "$F" "$T" "$disk" <<'PY' || fail "fsync on ext4/null_blk does not show the device time"
import json, sys
st = {s["name"]: s for p in json.loads(sys.argv[1])["pipelines"] for s in p["stages"]}
n, t, disk = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
fs, self_, wait = st["fsync.fs"], st["fsync.fs.self"], st["fsync.wait"]
waited = (fs["sum_ns"] - self_["sum_ns"]) / n
print("fsync: syscall %.2f ms, fs %.2f ms = ext4 itself %.3f ms + I/O wait %.2f ms (%d waits); device T %.1f ms" % (
    st["fsync.syscall"]["avg_ns"] / 1e6, fs["avg_ns"] / 1e6, self_["avg_ns"] / 1e6, waited / 1e6, wait["count"], t / 1e6))
assert fs["count"] == n, fs
assert fs["min_ns"] >= 1.8 * t, ("an fsync took less than a data write and a commit", fs["min_ns"])
assert waited >= 1.8 * t, ("the wait inside ext4 does not carry the device time", waited)
assert self_["avg_ns"] < 0.5 * t, ("ext4 itself is not the device", self_["avg_ns"])
d = st[disk + ".D2C"]
assert d["count"] >= 2 * n, d
# each fsync waits for two device operations at least: their median is at
# most half an fsync's mean (however late the device's timer fired)
assert 0.9 * t <= d["p50_ns"] <= fs["avg_ns"] / 2, (disk + " D2C p50", d["p50_ns"])
PY
echo "filter block clear" > "$SL_DBG/control"
echo "filter storage clear" > "$SL_DBG/control"
sl_unload
cleanup
trap - EXIT
rmmod null_blk
pass "D2C >= T on null_blk (T=10ms, N=$N), Q2C's sum the kernel's own read time; ext4 fsync on it >= 2T, carried by the I/O wait, ext4 itself < T/2"
