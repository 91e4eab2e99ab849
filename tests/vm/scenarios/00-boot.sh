#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
#
# The harness itself: the guest runs the host's userland on the guest's
# kernel, debugfs is mounted, the guest kernel's own modules load from
# MODROOT (null_blk gives /dev/nullb0), the scratch disk is there with its
# ext4 mounted and writable, and the virtio NIC carries TCP from the host's
# peer (host-peer.py) into the guest.  Needs nothing of stacklat.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

# the guest's kernel, the host's userland
assert_eq "uname -r" "$KVER" "$(uname -r)"
grep -q '^hostroot / 9p ro' /proc/mounts || fail "/ is not the host root over 9p, read-only: $(grep ' / ' /proc/mounts)"
for p in bash python3 ip tc awk sed dd timeout modprobe insmod rmmod; do
	command -v "$p" > /dev/null || fail "host program $p missing in the guest"
done
assert_eq "python3" 42 "$(python3 -c 'print(6 * 7)')"
grep -q ' /tmp tmpfs ' /proc/mounts || fail "/tmp is not a tmpfs"
echo ok > /tmp/00-boot.probe || fail "/tmp not writable"
note "$(nproc) CPUs, $(awk '/MemTotal/ {print $2}' /proc/meminfo) kB"

# debugfs and the environment scenarios are promised
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts || fail "debugfs not mounted at /sys/kernel/debug"
[ -d "$MODROOT/lib/modules/$KVER" ] || fail "MODROOT $MODROOT has no lib/modules/$KVER"
[ -x "$SL_TOOL" ] || note "no $SL_TOOL (make -C tool)"
[ -f "$SL_KO" ] || note "no $SL_KO"
case $SL_HOSTPORT$SL_GUESTPORT in *[!0-9]* | "") fail "SL_HOSTPORT/SL_GUESTPORT not numbers: '$SL_HOSTPORT' '$SL_GUESTPORT'" ;; esac

# a module of the guest kernel, from the unpacked Debian package
sl_modprobe null_blk nr_devices=1
for _ in $(seq 50); do
	[ -b /dev/nullb0 ] && break
	sleep 0.1
done
[ -b /dev/nullb0 ] || fail "modprobe null_blk: no /dev/nullb0"
dd if=/dev/nullb0 of=/dev/null bs=4k count=16 status=none || fail "read from /dev/nullb0 failed"
modprobe -r -d "$MODROOT" -S "$KVER" null_blk || fail "modprobe -r null_blk failed"

# the scratch disk
[ -b "$SL_DISK" ] || fail "no scratch disk $SL_DISK"
assert_eq "$SL_DISK driver" virtio_blk "$(basename "$(readlink -f "/sys/block/${SL_DISK#/dev/}/device/driver")")"
grep -q "^$SL_DISK $SL_MNT ext4 rw" /proc/mounts || fail "$SL_DISK not mounted read-write on $SL_MNT: $(grep "$SL_DISK" /proc/mounts || true)"
dd if=/dev/zero of="$SL_MNT/00-boot" bs=64k count=16 conv=fsync status=none || fail "write+fsync on $SL_MNT failed"
rm -f "$SL_MNT/00-boot"

# the virtio NIC, and TCP from the host's peer through it
drv=$(basename "$(readlink -f "/sys/class/net/$SL_NIC/device/driver")")
assert_eq "$SL_NIC driver" virtio_net "$drv"
ip -o -4 addr show dev "$SL_NIC" | grep -q 'inet 10\.0\.2\.15/' || fail "$SL_NIC has no 10.0.2.15"
got=$(timeout 60 python3 - "$SL_GUESTPORT" << 'PY'
import socket, sys
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("0.0.0.0", int(sys.argv[1])))
srv.listen(1)
srv.settimeout(50)
c, peer = srv.accept()
c.settimeout(20)
c.sendall(b"rr 20 100\n")
n = 0
for _ in range(20):
    buf = b""
    while len(buf) < 100:
        d = c.recv(100 - len(buf))
        if not d:
            raise SystemExit("peer closed early")
        buf += d
    c.sendall(buf)
    n += 1
print(n, peer[0])
PY
) || fail "no TCP from the host's peer on port $SL_GUESTPORT"
rx=$(cat "/sys/class/net/$SL_NIC/statistics/rx_packets")
assert_eq "rr rounds from the host" 20 "${got%% *}"
assert_range "$SL_NIC rx_packets" 20 1000000000 "$rx"

pass "$KVER: host userland over 9p, debugfs, null_blk from MODROOT, $SL_DISK ext4 rw, $SL_NIC virtio_net carries host TCP (${got#* })"
