#!/bin/sh
# /init of the test initramfs (busybox).  Loads what it takes to reach the
# host's root over 9p, mounts it read-only at /mnt with proc, sys, dev,
# debugfs and tmpfs inside, and runs the repository's guest-run.sh chrooted
# there: the tests use the host's userland on the guest's kernel.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

# in modprobe --show-depends order; built-in ones are simply absent
for m in $(cat /modules.order); do
	insmod "/modules/$m" 2>/tmp/insmod.err ||
		echo "STACKLAT-GUEST-NOTE insmod $m: $(cat /tmp/insmod.err)" > /dev/ttyS1
done

arg() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
repo=$(arg sl.repo)

mkdir -p /mnt
if ! mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose hostroot /mnt; then
	echo "STACKLAT-GUEST-ERROR cannot mount the host root over 9p" > /dev/ttyS1
	poweroff -f
	sleep 5
	reboot -f
fi
# the tmpfs mounts below would hide a repository that lives under /tmp,
# /run or /var/tmp: keep a handle on it and bind it back afterwards
mkdir -p /repo
mount --bind "/mnt$repo" /repo
if [ ! -x /mnt/bin/bash ] || [ ! -f /repo/tests/vm/guest-run.sh ]; then
	echo "STACKLAT-GUEST-ERROR no /bin/bash or $repo/tests/vm/guest-run.sh on the host root" > /dev/ttyS1
	poweroff -f
	sleep 5
	reboot -f
fi
mount -t proc proc /mnt/proc
mount -t sysfs sysfs /mnt/sys
mount -t devtmpfs devtmpfs /mnt/dev
mount -t debugfs debugfs /mnt/sys/kernel/debug
mount -t tmpfs tmpfs /mnt/tmp
mount -t tmpfs tmpfs /mnt/run
mount -t tmpfs tmpfs /mnt/var/tmp 2>/dev/null
mkdir -p /mnt/dev/pts /mnt/dev/shm
mount -t devpts devpts /mnt/dev/pts
mount -t tmpfs tmpfs /mnt/dev/shm

if [ ! -d "/mnt$repo/tests" ]; then
	mkdir -p "/mnt$repo"
	mount --bind /repo "/mnt$repo"
fi

ip link set lo up
ip link set eth0 up 2>/dev/null
ip addr add 10.0.2.15/24 dev eth0 2>/dev/null
ip route add default via 10.0.2.2 2>/dev/null

chroot /mnt /bin/bash "$repo/tests/vm/guest-run.sh"
sync
poweroff -f
sleep 5
reboot -f
