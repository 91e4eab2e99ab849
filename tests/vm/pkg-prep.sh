#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pkg-prep.sh KERNEL: on the host, what the package test (run.sh
# --packages, make check-packages; the guest runs pkg-guest.sh) installs,
# in .cache/pkg/KERNEL/:
#   cur/   make deb of the tree (debian/build-debs.sh): VERSION
#   prev/  the same tree built as VERSION~prev, the version the test
#          upgrades from (dpkg orders VERSION~prev before VERSION)
#   stage-prev, stage-cur (unless SL_PKG_DKMS=guest): what dpkg -i did,
#          in a chroot here, to a copy of this machine's root (an overlayfs
#          over /, /lib/modules/KVER from KERNEL's package: pkg-lib.sh) -
#          of VERSION~prev's two packages, then of VERSION's over them.
#          Their postinst runs DKMS, which, outside the kernel it runs on,
#          builds and installs the module for the kernels in /lib/modules
#          (common.postinst: "It is likely that HOST belongs to a chroot's
#          host"), i.e. for KVER only, as when an image is made in a
#          chroot.  Each stage is the overlay's upper layer after it: a
#          tar, the paths it deleted (.whiteouts) and the directories it
#          replaced (.opaque); the guest lays it over its own overlay of
#          the same root (pkg-guest.sh) and takes it from there: modprobe,
#          the units' commands, status, dpkg -r.  A DKMS build inside a
#          TCG guest takes minutes (SL_PKG_DKMS=guest does it there;
#          docs/packages.md has both times).
#   env    what the guest reads: versions, package paths, the DKMS mode
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
k=${1:?usage: pkg-prep.sh KERNEL}
cache=$here/.cache
# shellcheck disable=SC1090
. "$cache/k/$k/env"
ver=$(cat "$repo/VERSION")
prev="$ver~prev"
mode=${SL_PKG_DKMS:-host}
case $mode in host|guest) ;; *) echo "pkg-prep: SL_PKG_DKMS is host or guest, not '$mode'" >&2; exit 1 ;; esac
o=$cache/pkg/$k
arch=$(dpkg --print-architecture)
# SL_PKG_REUSE=1: what an earlier run made, as it is (iterating on the
# guest's side)
if [ -n "${SL_PKG_REUSE:-}" ] && [ "${2:-}" != --stage ] && grep -qx "PKG_DKMS=$mode" "$o/env" 2>/dev/null; then
	echo "pkg-prep: reused for $k ($KVER), DKMS builds on the $mode"
	exit 0
fi
if [ "${2:-}" != --stage ]; then
	rm -rf "$o"
	mkdir -p "$o"
	t0=$SECONDS
	(cd "$repo" && OUT="$o/cur" debian/build-debs.sh > /dev/null)
	(cd "$repo" && STACKLAT_DEB_VERSION=$prev OUT="$o/prev" debian/build-debs.sh > /dev/null)
	echo "pkg-prep: make deb of $ver and $prev: $((SECONDS - t0)) s"
	for d in "$o/cur/stacklat-dkms_${ver}_all.deb" "$o/cur/stacklat_${ver}_$arch.deb" \
		"$o/prev/stacklat-dkms_${prev}_all.deb" "$o/prev/stacklat_${prev}_$arch.deb"; do
		[ -f "$d" ] || { echo "pkg-prep: $d was not built" >&2; exit 1; }
	done
fi

# snap UPPER OUT: OUT.tar (the upper layer but its whiteouts and the
# kernel's module tree, bound read-only), OUT.whiteouts, OUT.opaque
snap() {
	python3 - "$1" "$2" "lib/modules/$KVER/kernel" <<'PY'
import os, stat, sys, tarfile
up, out, skip = sys.argv[1:4]
# (lib is usr/lib on a merged-/usr system)
skip = {skip, "usr/" + skip}
wo, opq = [], []
with tarfile.open(out + ".tar", "w") as t:
    for d, dirs, files in os.walk(up):
        rel = os.path.relpath(d, up)
        if rel in skip:
            dirs[:] = []
            continue
        try:
            if os.getxattr(d, "trusted.overlay.opaque") == b"y":
                opq.append(rel)
        except OSError:
            pass
        for f in files + [x for x in dirs if os.path.islink(os.path.join(d, x))]:
            p = os.path.join(d, f)
            st = os.lstat(p)
            if stat.S_ISCHR(st.st_mode) and st.st_rdev == 0:
                wo.append(os.path.normpath(os.path.join(rel, f)))
            else:
                t.add(p, os.path.normpath(os.path.join(rel, f)), recursive=False)
        for x in list(dirs):
            p = os.path.join(d, x)
            if not os.path.islink(p) and os.path.normpath(os.path.join(rel, x)) not in skip:
                t.add(p, os.path.normpath(os.path.join(rel, x)), recursive=False)
open(out + ".whiteouts", "w").write("".join(w + "\n" for w in wo))
open(out + ".opaque", "w").write("".join(w + "\n" for w in opq))
PY
}

# --stage (in a private mount namespace): both dpkg -i, each one snapped
if [ "${2:-}" = --stage ]; then
	# shellcheck disable=SC1091
	. "$here/pkg-lib.sh"
	w=$o/ov
	pkg_root "$w/root" "$w/upper" "$w/work" "$MODROOT" "$KVER" "$KDIR"
	trap 'umount -R -l "$w/root" 2>/dev/null || true' EXIT
	for d in prev cur; do
		t0=$SECONDS
		v=$ver
		[ $d = cur ] || v=$prev
		pkg_ov "$w/root" dpkg -i "$o/$d/stacklat-dkms_${v}_all.deb" "$o/$d/stacklat_${v}_$arch.deb" \
			> "$o/stage-$d.log" 2>&1 || { cat "$o/stage-$d.log" >&2; exit 1; }
		snap "$w/upper" "$o/stage-$d"
		echo "pkg-prep: dpkg -i of $v (DKMS building for $KVER) in a chroot: $((SECONDS - t0)) s"
	done
	exit 0
fi

if [ "$mode" = host ]; then
	unshare -m "$0" "$k" --stage
	rm -rf "$o/ov"
fi
cat > "$o/env" <<EOF
PKG_VER=$ver
PKG_PREV=$prev
PKG_DKMS=$mode
PKG_DKMS_CUR=$o/cur/stacklat-dkms_${ver}_all.deb
PKG_TOOL_CUR=$o/cur/stacklat_${ver}_$arch.deb
PKG_DKMS_PREV=$o/prev/stacklat-dkms_${prev}_all.deb
PKG_TOOL_PREV=$o/prev/stacklat_${prev}_$arch.deb
PKG_STAGE=$o/stage
PKG_KDIR=$KDIR
EOF
echo "pkg-prep: ready for $k ($KVER), DKMS builds on the $mode"
