#!/bin/bash
# kernels: any
#   one kernel: 56 measures D2C on null_blk and fsync on ext4 over it on each kernel, 55 the disk filter
# A device with a known service time: null_blk completing every request
# after T = 10 ms (irqmode=2, timer).  D2C must be T +-10 % (the median;
# see below for the mean), exactly one
# sample per direct 4 KiB read; the disk filter keeps the other disk out;
# an ext4 filesystem on a memory-backed null_blk with the same service time
# shows at least T inside the filesystem's fsync.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

T=10000000
N=20
sl_modprobe null_blk irqmode=2 completion_nsec=$T queue_mode=2 nr_devices=1 gb=1
for _ in $(seq 50); do [ -b /dev/nullb0 ] && break; sleep 0.1; done
[ -b /dev/nullb0 ] || fail "no /dev/nullb0"
dev=$(cat /sys/block/nullb0/dev)
udevadm settle 2>/dev/null || sleep 1

sl_load
echo "enable block" > "$SL_DBG/control"
echo "filter block dev=$dev" > "$SL_DBG/control"
# I/O on the other disk, which the filter must keep out
dd if=/dev/zero of="$SL_MNT/other" bs=64k count=16 conv=fsync status=none
dd if=/dev/nullb0 of=/dev/null bs=4k count=$N iflag=direct status=none
cat "$SL_DBG/block"
python3 - "$("$SL_TOOL" show -j block)" "$N" "$T" <<'PY' || fail "D2C not at the device's service time"
import json, sys
st = {s["name"]: s for p in json.loads(sys.argv[1])["pipelines"] for s in p["stages"]}
n, t = int(sys.argv[2]), int(sys.argv[3])
d = st["nullb0.D2C"]
assert d["count"] == n, ("count", d["count"], n)
assert 0.9 * t <= d["p50_ns"] <= 1.1 * t, ("p50", d["p50_ns"])
# the device's timer can fire late under emulation, never early: the
# median is held to +-10 %, no sample may be shorter than 0.9 T, and the
# mean, which a few late interrupts pull up, to -10 % .. +25 %
assert d["min_ns"] >= 0.9 * t, ("min", d["min_ns"])
assert 0.9 * t <= d["avg_ns"] <= 1.25 * t, ("avg", d["avg_ns"])
assert st["D2C"]["count"] == n, ("total D2C has other disks", st["D2C"]["count"])
assert "vda.D2C" not in st or st["vda.D2C"]["count"] == 0, "the disk filter let vda in"
print("nullb0 D2C p50 %.2f ms avg %.2f ms" % (d["p50_ns"] / 1e6, d["avg_ns"] / 1e6))
PY

# ext4 on a memory-backed null_blk (configfs works on every kernel here)
mkdir -p /sys/kernel/config 2>/dev/null || true
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
c=/sys/kernel/config/nullb/slfs
mkdir "$c"
echo 1 > "$c/memory_backed"; echo 2 > "$c/irqmode"; echo $T > "$c/completion_nsec"
echo 256 > "$c/size"; echo 2 > "$c/queue_mode"; echo 1 > "$c/power"
trap 'umount /tmp/slfs 2>/dev/null; echo 0 > "$c/power"; rmdir "$c"' EXIT
# the disk takes the configfs name on newer kernels, nullb<index> on 5.10
disk=
for _ in $(seq 50); do
	for n in slfs "nullb$(cat "$c/index")"; do [ -b "/dev/$n" ] && disk=$n; done
	[ -n "$disk" ] && break
	sleep 0.1
done
[ -n "$disk" ] || fail "no disk from configfs null_blk"
mkfs.ext4 -q -F "/dev/$disk"
mkdir -p /tmp/slfs && mount -t ext4 "/dev/$disk" /tmp/slfs
echo "filter block clear" > "$SL_DBG/control"
echo "enable storage" > "$SL_DBG/control"
echo "reset" > "$SL_DBG/control"
python3 - /tmp/slfs "$SL_DBG/control" <<'PY'
import os, sys
fd = os.open(sys.argv[1] + "/f", os.O_RDWR | os.O_CREAT, 0o644)
with open(sys.argv[2], "w") as f:
    f.write("filter storage tgid=%d\n" % os.getpid())
for i in range(5):
    os.write(fd, b"x" * 4096)
    os.fsync(fd)
PY
umount /tmp/slfs
echo 0 > "$c/power"; rmdir "$c"
trap - EXIT
python3 - "$("$SL_TOOL" show -j storage)" "$T" <<'PY' || fail "fsync does not show the device time"
import json, sys
st = {s["name"]: s for p in json.loads(sys.argv[1])["pipelines"] for s in p["stages"]}
t = int(sys.argv[2])
f = st["fsync.fs"]
assert f["count"] == 5, f
assert f["min_ns"] >= 0.9 * t, ("fsync.fs faster than one device I/O", f["min_ns"])
assert st["fsync.vfs.self"]["p50_ns"] < 0.1 * t, st["fsync.vfs.self"]
print("fsync.fs p50 %.2f ms (device %.1f ms), vfs.self p50 %d ns" % (f["p50_ns"] / 1e6, t / 1e6, st["fsync.vfs.self"]["p50_ns"]))
PY
pass "null_blk D2C at T=10ms +-10%, disk filter, fsync on ext4/null_blk >= T"
