# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The package test's writable system (pkg-prep.sh on the host, pkg-guest.sh
# in the guest): an overlayfs over / (upper: UPPER) at M, with /proc, /sys,
# /dev bound in, tmpfs on /tmp and /run, and /lib/modules/KVER made from the
# test kernel's unpacked Debian package (MODROOT): its modules.* files
# copied (depmod rewrites them), kernel/ bound (read-only), build -> its
# headers (KDIR), as linux-image and linux-headers would have them.  Run
# in a private mount namespace on the host (unshare -m).

# pkg_root M UPPER WORK MODROOT KVER KDIR
pkg_root() {
	local m=$1 up=$2 wk=$3 mr=$4 kv=$5 kd=$6 lm
	mkdir -p "$up" "$wk" "$m"
	mount -t overlay overlay -o "lowerdir=/,upperdir=$up,workdir=$wk" "$m"
	mount -t proc proc "$m/proc"
	mount --rbind /sys "$m/sys"
	mount --rbind /dev "$m/dev"
	# bash's <(...) (dkms uses it) needs /dev/fd, which udev would make
	[ -e "$m/dev/fd" ] || ln -s /proc/self/fd "$m/dev/fd"
	mount -t tmpfs tmpfs "$m/tmp"
	mount -t tmpfs tmpfs "$m/run"
	lm=$m/lib/modules/$kv
	mkdir -p "$lm/kernel"
	[ -e "$lm/modules.dep" ] || cp "$mr/lib/modules/$kv"/modules.* "$lm/"
	mount --bind "$mr/lib/modules/$kv/kernel" "$lm/kernel"
	[ -L "$lm/build" ] || ln -s "$kd" "$lm/build"
	# man-db's trigger (mandb over every manual page, minutes under TCG)
	# runs only while this file exists: Debian's switch for it
	rm -f "$m/var/lib/man-db/auto-update"
}

# pkg_ov M CMD...: CMD in the system at M, with a clean environment
pkg_ov() {
	local m=$1
	shift
	chroot "$m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C HOME=/root \
		DEBIAN_FRONTEND=noninteractive "$@"
}
