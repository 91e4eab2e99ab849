#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# Storage layers on a real ext4 filesystem on virtio-blk: a process doing a
# known number of buffered and O_DIRECT reads and writes, opens and fsyncs
# (and filtering on its own pid while another process does I/O on the same
# filesystem) gives exactly that many samples at the syscall, VFS and ext4
# layers; self time never exceeds inclusive time; the block stages see the
# requests that reached the disk; the per-cgroup total of our cgroup
# counts every operation (6 N), no other cgroup's any.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

mountpoint -q "$SL_MNT" || fail "scratch disk not mounted at $SL_MNT"
N=40
sl_load
echo "enable storage" > "$SL_DBG/control"
echo "cgtotals storage on" > "$SL_DBG/control"
echo "enable block" > "$SL_DBG/control"
for h in sys_read sys_write sys_openat sys_fsync vfs_read vfs_write vfs_open vfs_fsync_range ext4_read ext4_write ext4_open ext4_fsync; do
	grep -q "hook $h  *armed" "$SL_DBG/status" || fail "hook $h not armed: $(grep "hook $h " "$SL_DBG/status")"
done

python3 - "$SL_MNT" "$N" "$SL_DBG/control" <<'PY'
import ctypes, mmap, os, sys
d, n, ctl = sys.argv[1], int(sys.argv[2]), sys.argv[3]
libc = ctypes.CDLL(None, use_errno=True)
buf = mmap.mmap(-1, 4096)
buf.write(b"d" * 4096)
addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))
path, dpath = d + "/buffered", d + "/direct"
fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
dfd = os.open(dpath, os.O_RDWR | os.O_CREAT | os.O_DIRECT, 0o644)
os.ftruncate(dfd, 4096 * n)
data = b"b" * 4096
with open(ctl, "w") as f:
    f.write("filter storage tgid=%d\nreset storage\n" % os.getpid())
# noise: another process doing the same kinds of I/O on the same filesystem,
# started after the filter so that none of its calls is in flight before it
noise = os.fork()
if noise == 0:
    while True:
        nfd = os.open(d + "/noise", os.O_RDWR | os.O_CREAT, 0o644)
        os.write(nfd, b"n" * 8192)
        os.pread(nfd, 4096, 0)
        os.fsync(nfd)
        os.close(nfd)
for i in range(n):
    os.write(fd, data)                                  # write, buffered
    assert libc.pwrite(dfd, ctypes.c_void_p(addr), 4096, 4096 * i) == 4096  # write, direct
    assert len(os.pread(fd, 4096, 4096 * i)) == 4096    # read, buffered
    assert libc.pread(dfd, ctypes.c_void_p(addr), 4096, 4096 * i) == 4096   # read, direct
    os.fsync(fd)                                        # fsync
    os.close(os.open(path, os.O_RDONLY))                # open
os.kill(noise, 9)
os.waitpid(noise, 0)
PY
cat "$SL_DBG/storage"
cnt() { awk -v s="$1" '$1 == s { print $2 }' "$SL_DBG/storage"; }
for op in read write; do
	for l in syscall syscall.self vfs vfs.self fs; do
		assert_eq "$op.$l" $((2 * N)) "$(cnt $op.$l)"
	done
done
for op in open fsync; do
	for l in syscall syscall.self vfs vfs.self fs; do
		assert_eq "$op.$l" $N "$(cnt $op.$l)"
	done
done
# per cgroup: every operation's outermost call (the syscall) in the
# cgroup of the one process the filter keeps, ours
grep -q "^cgroup2 /sys/fs/cgroup " /proc/mounts || mount -t cgroup2 cgroup2 /sys/fs/cgroup ||
	fail "cannot mount cgroup2"
cg=$(awk -F: '$1 == 0 { print $3 }' /proc/self/cgroup)
cgid=$(stat -c %i "/sys/fs/cgroup$cg")
assert_eq "cg<ID>.total of our cgroup ($cg)" $((6 * N)) "$(cnt "cg$cgid.total")"
assert_eq "the per-cgroup stages' sum" $((6 * N)) "$(awk '$1 ~ /^cg[0-9-]/ { n += $2 } END { print n + 0 }' "$SL_DBG/storage")"
python3 - "$("$SL_TOOL" show -j storage block)" <<'PY' || fail "self/inclusive or block stages wrong"
import json, sys
st = {s["name"]: s for p in json.loads(sys.argv[1])["pipelines"] for s in p["stages"]}
for op in ("read", "write", "open", "fsync"):
    for l in ("syscall", "vfs"):
        assert st[op + "." + l + ".self"]["sum_ns"] <= st[op + "." + l]["sum_ns"], (op, l)
    # each layer contains the one below
    assert st[op + ".syscall"]["sum_ns"] >= st[op + ".vfs"]["sum_ns"] >= st[op + ".fs"]["sum_ns"], op
assert st["D2C"]["count"] > 0 and st["Q2C"]["count"] > 0, st["D2C"]
assert st["vda.D2C"]["count"] > 0, "no per-disk stage for vda"
assert st["Q2C"]["count"] <= st["D2C"]["count"]  # flushes have no queued bio
PY
pass "exact counts at syscall/VFS/ext4 for $N x (2 reads, 2 writes, open, fsync) with a pid filter under noise, $((6 * N)) in our cgroup's total; block stages populated"
