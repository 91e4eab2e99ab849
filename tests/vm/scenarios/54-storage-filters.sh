#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# Storage filters with other I/O running at the same time:
#  - tgid: process A (N_A ops) and process B (N_B ops) on the same ext4 at
#    the same time; the filter on A gives exactly A's counts;
#  - tid: two threads of one process, the filter on one thread gives
#    exactly that thread's counts;
#  - fs: a process reading ext4 files and the raw disk under them (the
#    block device node, whose "filesystem" is bdev); fs=ext4 and fs=bdev
#    each see exactly their own reads.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
# grep -q on a pipe: an early exit would fail the writer under pipefail
matches() { local in; in=$(cat); grep -q "$1" <<<"$in"; }

mountpoint -q "$SL_MNT" || fail "scratch disk not mounted at $SL_MNT"
sl_load
echo "enable storage" > "$SL_DBG/control"
cnt() { awk -v s="$1" '$1 == s { print $2 }' "$SL_DBG/storage"; }
lost() { grep -A3 "^pipeline storage" "$SL_DBG/status" | tail -n1; }

# ---- tgid: A filters on itself, B does more of the same meanwhile
NA=25
NB=40
python3 - "$SL_MNT" "$NA" "$NB" "$SL_DBG/control" <<'PY'
import os, sys
d, na, nb, ctl = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
r, w = os.pipe()
b = os.fork()
if b == 0:
    os.read(r, 1)                        # start together with A
    fd = os.open(d + "/pid-b", os.O_RDWR | os.O_CREAT, 0o644)
    for i in range(nb):
        os.pwrite(fd, b"b" * 4096, 4096 * i)
        os.pread(fd, 4096, 4096 * i)
        os.fsync(fd)
        os.close(os.open(d + "/pid-b", os.O_RDONLY))
    os._exit(0)
fd = os.open(d + "/pid-a", os.O_RDWR | os.O_CREAT, 0o644)
with open(ctl, "w") as f:
    f.write("filter storage clear tgid=%d\nreset storage\n" % os.getpid())
os.write(w, b"g")
for i in range(na):
    os.pwrite(fd, b"a" * 4096, 4096 * i)
    os.pread(fd, 4096, 4096 * i)
    os.fsync(fd)
    os.close(os.open(d + "/pid-a", os.O_RDONLY))
os.waitpid(b, 0)
PY
cat "$SL_DBG/storage"
for op in read write fsync open; do
	for l in syscall vfs fs; do
		assert_eq "tgid filter: $op.$l" $NA "$(cnt $op.$l)"
	done
done

# ---- tid: two threads, the filter on the first one
NT=30
python3 - "$SL_MNT" "$NT" "$SL_DBG/control" <<'PY'
import os, sys, threading
d, n, ctl = sys.argv[1], int(sys.argv[2]), sys.argv[3]
go = threading.Barrier(2)
def worker(name, first):
    fd = os.open(d + "/tid-" + name, os.O_RDWR | os.O_CREAT, 0o644)
    if first:
        with open(ctl, "w") as f:
            f.write("filter storage clear tid=%d\nreset storage\n" % threading.get_native_id())
    go.wait()
    for i in range(n * (1 if first else 2)):
        os.pwrite(fd, b"t" * 4096, 4096 * (i % 64))
        os.fsync(fd)
t = [threading.Thread(target=worker, args=(x, x == "1")) for x in ("1", "2")]
for x in t:
    x.start()
for x in t:
    x.join()
PY
for l in syscall vfs fs; do
	assert_eq "tid filter: write.$l" $NT "$(cnt write.$l)"
	assert_eq "tid filter: fsync.$l" $NT "$(cnt fsync.$l)"
done

# ---- fs: ext4 files and the raw disk under them, read by one process
NF=20
fsrun() { # fsrun FS
	python3 - "$SL_MNT" "$NF" "$SL_DBG/control" "$1" "$SL_DISK" <<'PY'
import mmap, os, sys
d, n, ctl, fs, disk = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
buf = mmap.mmap(-1, 4096)
fd = os.open(d + "/fs-file", os.O_RDWR | os.O_CREAT, 0o644)
os.pwrite(fd, b"f" * 4096, 0)
bd = os.open(disk, os.O_RDONLY | os.O_DIRECT)
with open(ctl, "w") as f:
    f.write("filter storage clear tgid=%d fs=%s\nreset storage\n" % (os.getpid(), fs))
for i in range(n):
    os.pread(fd, 4096, 0)                   # ext4
    os.preadv(bd, [buf], 4096 * i)          # the disk itself
    os.preadv(bd, [buf], 4096 * (i + n))
PY
}
fsrun ext4
assert_eq "fs=ext4: read.syscall" $NF "$(cnt read.syscall)"
assert_eq "fs=ext4: read.fs" $NF "$(cnt read.fs)"
fsrun bdev
assert_eq "fs=bdev: read.syscall" $((2 * NF)) "$(cnt read.syscall)"
assert_eq "fs=bdev: read.vfs" $((2 * NF)) "$(cnt read.vfs)"
assert_eq "fs=bdev: read.fs" $((2 * NF)) "$(cnt read.fs)"
lost | matches "table_full=0 stale=0 bad_delta=0 unmatched=0" || fail "losses: $(lost)"
echo "filter storage clear" > "$SL_DBG/control"
pass "tgid filter exact ($NA of $NA+$NB), tid filter exact ($NT of $((3 * NT))), fs=ext4 and fs=bdev exact"
