#!/bin/bash
# kernels: all
# Every storage and block hook point arms on this kernel, or says why not:
# the syscall, VFS, ext4 (a module, loaded for the scratch disk), I/O wait
# and jbd2 hooks and the block tracepoints are armed; xfs hooks are "not
# available" until the xfs module is loaded and then arm at the next
# enable (hooks in modules are re-resolved); the storage filters parse
# (fs=, dev= by name and by number) and reject nonsense.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
# grep -q on a pipe: an early exit would fail the writer under pipefail
matches() { local in; in=$(cat); grep -q "$1" <<<"$in"; }

# storage hooks come first in status, block hooks after "pipeline block"
storage_status() { sed -n '/^pipeline storage/,/^pipeline block/p' "$SL_DBG/status"; }
block_status() { sed -n '/^pipeline block/,/^$/p' "$SL_DBG/status"; }

sl_load
echo "enable storage" > "$SL_DBG/control"
echo "enable block" > "$SL_DBG/control"
storage_status
block_status

required="sys_read sys_pread64 sys_readv sys_preadv sys_preadv2 sys_write sys_pwrite64 sys_writev sys_pwritev sys_pwritev2 sys_open sys_openat sys_openat2 sys_creat sys_fsync sys_fdatasync vfs_read vfs_readv vfs_write vfs_writev vfs_open vfs_fsync_range ext4_read ext4_write ext4_open ext4_fsync bdev_read bdev_write bdev_open bdev_fsync io_schedule io_schedule_timeout jbd2_wait_commit"
for h in $required; do
	storage_status | matches "^  hook $h  *armed " || fail "storage hook $h not armed: $(storage_status | grep "hook $h ")"
done
for h in bio_queue bio_split bio_backmerge bio_frontmerge bio_complete rq_insert rq_issue rq_requeue rq_merge rq_complete; do
	block_status | matches "^  hook $h  *armed  *tracepoint " || fail "block hook $h not armed: $(block_status | grep "hook $h ")"
done
# the preferred candidates won: the syscall wrappers, do_filp_open (named
# do_file_open since 7.3)
ret_kind
storage_status | matches "hook sys_read  *armed  *$RK  *__x64_sys_read " || fail "sys_read not on __x64_sys_read"
storage_status | matches "hook vfs_open  *armed  *$RK  *do_fil[ep]_open " || fail "vfs_open not on do_filp_open/do_file_open"

# xfs: absent until its module is loaded, armed at the next enable
grep -q "^xfs " /proc/modules && skip "xfs already loaded"
storage_status | matches "hook xfs_read  *not available" || fail "xfs_read should be not available: $(storage_status | grep 'hook xfs_read')"
sl_modprobe xfs
echo "disable storage" > "$SL_DBG/control"
echo "enable storage" > "$SL_DBG/control"
for h in xfs_read xfs_write xfs_open xfs_fsync; do
	storage_status | matches "^  hook $h  *armed " || fail "$h not armed after modprobe xfs: $(storage_status | grep "hook $h ")"
done
note "btrfs: $(storage_status | grep 'hook btrfs_read')"

# filters
ctl() { echo "$1" > "$SL_DBG/control" 2>/dev/null; }
ctl "filter storage fs=ext4" || fail "fs=ext4 rejected"
grep -A2 "^pipeline storage" "$SL_DBG/status" | matches "filter: fs=ext4" || fail "fs filter not shown: $(grep -A2 '^pipeline storage' "$SL_DBG/status")"
ctl "filter storage fs=0x58465342" || fail "fs=0xMAGIC rejected"
grep -A2 "^pipeline storage" "$SL_DBG/status" | matches "filter: fs=xfs" || fail "numeric fs filter not shown as xfs"
ctl "filter storage fs=nosuchfs" && fail "fs=nosuchfs accepted"
ctl "filter block fs=ext4" && fail "block took an fs filter"
ctl "filter storage dev=vda" && fail "storage took a dev filter"
ctl "filter storage clear" || fail "clear rejected"
ctl "filter block dev=vda" || fail "dev=vda rejected"
want=$(cat /sys/block/vda/dev)
grep -A2 "^pipeline block" "$SL_DBG/status" | matches "filter: dev=$want" || fail "dev=vda is not $want: $(grep -A2 '^pipeline block' "$SL_DBG/status")"
ctl "filter block dev=/dev/vda" || fail "dev=/dev/vda rejected"
ctl "filter block dev=nosuchdisk" && fail "dev=nosuchdisk accepted"
ctl "filter block dev=$want" || fail "dev=$want rejected"
ctl "filter block clear" || fail "clear rejected"

echo "disable storage" > "$SL_DBG/control"
echo "disable block" > "$SL_DBG/control"
sl_unload
pass "storage: $(echo "$required" | wc -w) hooks armed, xfs re-resolved after modprobe; block: 10 tracepoints armed; fs= and dev= filters parse"
