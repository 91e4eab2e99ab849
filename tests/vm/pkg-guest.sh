#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The package test, in the guest (run.sh --packages KERNEL, make
# check-packages): the Debian packages installed, upgraded and removed
# the way an operator does it, on the guest's kernel.  pkg-prep.sh made
# them on the host (.cache/pkg/KERNEL/env).
#
# The guest's / is the host's, read-only over 9p: dpkg gets a writable
# copy of it, an overlayfs (upper: tmpfs) over /, with /proc, /sys
# (debugfs), /dev bound in and /lib/modules/KVER made there from the
# guest kernel's unpacked package (its modules.* files copied, kernel/
# bound, build -> its headers), and every command of the test runs
# chrooted in it (ov).  In that system:
#   1. dpkg -i stacklat-dkms and stacklat at VERSION~prev (their
#      dependencies, dkms and the libraries, are the host's packages);
#      the postinst registers the module with DKMS and installs it for
#      the running kernel; modprobe stacklat loads it (its version);
#   2. /etc/stacklat.conf enabling func and storage, then what
#      stacklat.service runs - its ExecStartPre and ExecStart lines, read
#      from the installed unit and run as written (no systemd here) -
#      and stacklat status (the packaged command) shows both armed;
#   3. the upgrade: dpkg -i of VERSION over it; dkms status lists only
#      VERSION, installed; modprobe loads VERSION;
#   4. dpkg -r of both: dkms status empty, modinfo stacklat fails, no
#      stacklat file left under /lib/modules, /usr/src, /var/lib/dkms;
#      then --purge: no file named stacklat anywhere in the overlay.
# PKG_DKMS=host (default): steps 1 and 3's dpkg -i ran on the host, in
# a chroot into the same kind of overlay of the same root (pkg-prep.sh),
# where the postinst's DKMS built and installed the module for KVER, as
# it does when an image is made in a chroot; here each stage's result is
# laid over this overlay (its files, the paths it deleted) and everything
# else - modprobe, the unit's commands, status, dkms status, modinfo,
# dpkg -r and --purge - runs on the guest's kernel.  PKG_DKMS=guest
# (SL_PKG_DKMS=guest make check-packages): dpkg -i runs here too, and the
# postinst's DKMS builds the module inside the guest, for the running
# kernel: 982 s for the first dpkg -i on 6.1 under TCG (docs/packages.md),
# so give it SL_SCENARIO_TIMEOUT=2700.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

o=$SL_REPO/tests/vm/.cache/pkg/${KERNEL%%+*}
[ -f "$o/env" ] || fail "$o/env missing: pkg-prep.sh did not run"
# shellcheck disable=SC1091
. "$o/env"
t00=$SECONDS
w=/tmp/pkg-ov
m=$w/root
. "$SL_REPO/tests/vm/pkg-lib.sh"
say() { echo "pkg: $*"; }
ov() { pkg_ov "$m" "$@"; }
cleanup() {
	ov modprobe -r stacklat > /dev/null 2>&1 || true
	umount -R -l "$m" 2>/dev/null || true
}
trap cleanup EXIT

# the writable system: a fresh overlay of / (stage S laid over it: what
# the host's dpkg -i did)
sl_modprobe overlay
fresh() {
	cleanup
	rm -rf "$w"
	pkg_root "$m" "$w/upper" "$w/work" "$MODROOT" "$KVER" "$PKG_KDIR"
	lm=$m/lib/modules/$KVER
	[ -n "${1:-}" ] || return 0
	local s=$PKG_STAGE-$1 f
	while read -r f; do rm -rf "${m:?}/$f"; done < "$s.opaque"
	while read -r f; do rm -rf "${m:?}/$f"; done < "$s.whiteouts"
	tar -C "$m" -xpf "$s.tar" || fail "could not lay stage $1 over the overlay"
}
fresh
dkst() { ov dkms status stacklat 2>&1 | grep -v '^$' || true; }
[ -z "$(dkst)" ] || fail "DKMS knows stacklat before the test: $(dkst)"
! ov modinfo stacklat > /dev/null 2>&1 || fail "a stacklat module is installed before the test"
say "overlay ready ($((SECONDS - t00)) s); DKMS builds on the $PKG_DKMS"

# dpkg -i DEB... (PKG_DKMS=guest), else the host's stage S: its output
# kept, its key lines shown
inst() {
	local t0=$SECONDS st=$1 log
	shift
	if [ "$PKG_DKMS" = host ]; then
		fresh "$st"
		log=$PKG_STAGE-$st.log
		say "stage $st (dpkg -i on the host, in a chroot) laid over a fresh overlay in $((SECONDS - t0)) s; its dpkg:"
	else
		log=/tmp/pkg-dpkg.log
		ov dpkg -i "$@" > $log 2>&1 || { cat $log; fail "dpkg -i $* failed"; }
	fi
	grep -E '^(Setting up|Unpacking|Building|Module build|Done|Installing|Deleting|Removing|Error|Loading|.*dkms|.*DKMS)' \
		$log | sed 's/^/pkg:   /' || true
	[ "$PKG_DKMS" = host ] ||
		say "dpkg -i $(for d in "$@"; do basename "$d"; done | tr '\n' ' ')took $((SECONDS - t0)) s (DKMS building in the guest)"
}
loaded_version() {
	ov modprobe stacklat || fail "modprobe stacklat failed ($(dmesg | tail -n 3))"
	cat /sys/module/stacklat/version
}

# 1. the previous version
inst prev "$PKG_DKMS_PREV" "$PKG_TOOL_PREV"
say "dkms status: $(dkst)"
[[ $(dkst) == "stacklat/$PKG_PREV, $KVER, x86_64: installed"* ]] ||
	fail "after installing $PKG_PREV, dkms status: $(dkst)"
ko=$(ov modinfo -n stacklat) || fail "modinfo stacklat fails after install"
say "modinfo -n stacklat: $ko"
assert_eq "loaded module's version" "$PKG_PREV" "$(loaded_version)"

# 2. the boot unit's work, as the installed unit says it
unit=$m/lib/systemd/system/stacklat.service
pre=$(sed -n 's/^ExecStartPre=//p' "$unit")
start=$(sed -n 's/^ExecStart=//p' "$unit")
assert_eq "stacklat.service's ExecStartPre" "/sbin/modprobe stacklat" "$pre"
assert_eq "stacklat.service's ExecStart" "/usr/lib/stacklat/stacklat-apply-conf /etc/stacklat.conf" "$start"
ov modprobe -r stacklat
printf '# the package test\nfunc add __x64_sys_getppid\nenable func\nenable storage\n' > "$m/etc/stacklat.conf"
# shellcheck disable=SC2086
ov $pre || fail "ExecStartPre ($pre) failed"
# shellcheck disable=SC2086
out=$(ov $start 2>&1) || fail "ExecStart ($start) failed: $out"
say "ExecStartPre=$pre; ExecStart=$start: $out"
st=$(ov stacklat status) || fail "stacklat status failed"
grep -E '^pipeline (func|storage):|getppid' <<<"$st" | sed 's/^/pkg:   status: /'
js=$(ov stacklat status -j) || fail "stacklat status -j failed"
armed() { jq -r --arg p "$1" '[.pipelines[] | select(.pipeline == $p) | .hooks[] | select(.state == "armed") | .name] | join(" ")' <<<"$js"; }
for p in func storage; do
	assert_eq "$p enabled (status -j)" true "$(jq -r --arg p $p '.pipelines[] | select(.pipeline == $p) | .enabled' <<<"$js")"
done
[[ " $(armed func) " == *__x64_sys_getppid* ]] || fail "func's __x64_sys_getppid is not armed: $(armed func)"
n=$(armed storage | wc -w)
[ "$n" -gt 0 ] || fail "no storage hook armed"
say "stacklat status: func and storage enabled, hooks armed: func $(armed func), storage $n"
ov modprobe -r stacklat
# (PKG_DKMS=host: a fresh overlay with stage cur, which holds its own
# /etc/stacklat.conf, the shipped one)

# 3. the upgrade
inst cur "$PKG_DKMS_CUR" "$PKG_TOOL_CUR"
say "dkms status: $(dkst)"
assert_eq "dkms status lines after the upgrade" 1 "$(dkst | wc -l)"
[[ $(dkst) == "stacklat/$PKG_VER, $KVER, x86_64: installed"* ]] ||
	fail "after the upgrade, dkms status: $(dkst)"
[ ! -e "$m/var/lib/dkms/stacklat/$PKG_PREV" ] || fail "$PKG_PREV is left in /var/lib/dkms"
[ ! -e "$m/usr/src/stacklat-$PKG_PREV" ] || fail "/usr/src/stacklat-$PKG_PREV is left"
assert_eq "modinfo's version after the upgrade" "$PKG_VER" "$(ov modinfo -F version stacklat)"
assert_eq "loaded module's version after the upgrade" "$PKG_VER" "$(loaded_version)"
say "upgrade $PKG_PREV -> $PKG_VER: dkms status one line, modprobe loads $PKG_VER"
ov modprobe -r stacklat

# 4. removal
t0=$SECONDS
ov dpkg -r stacklat stacklat-dkms > /tmp/pkg-dpkg.log 2>&1 || { cat /tmp/pkg-dpkg.log; fail "dpkg -r failed"; }
grep -E '^(Removing|Deleting|Module|.*dkms)' /tmp/pkg-dpkg.log | sed 's/^/pkg:   /' || true
say "dpkg -r stacklat stacklat-dkms took $((SECONDS - t0)) s"
[ -z "$(dkst)" ] || fail "dkms status after dpkg -r: $(dkst)"
if ov modinfo stacklat > /dev/null 2>&1; then
	fail "modinfo stacklat still finds $(ov modinfo -n stacklat) after dpkg -r"
fi
left=$(cd "$m" && find lib/modules/"$KVER"/updates lib/modules/"$KVER"/extra usr/src var/lib/dkms \
	-name '*stacklat*' 2>/dev/null || true)
[ -z "$left" ] || fail "left after dpkg -r: $left"
! grep -q stacklat "$lm/modules.dep" || fail "modules.dep still names stacklat"
ov dpkg --purge stacklat stacklat-dkms > /tmp/pkg-dpkg.log 2>&1 || { cat /tmp/pkg-dpkg.log; fail "dpkg --purge failed"; }
left=$(cd "$w/upper" && find . -path ./tmp -prune -o -path ./run -prune -o -name '*stacklat*' -print)
[ -z "$left" ] || fail "files named stacklat left after --purge: $left"
say "removed: dkms status empty, modinfo stacklat fails, nothing named stacklat left (after --purge, in the whole overlay)"
pass "$PKG_PREV installed (DKMS, modprobe), stacklat.service's ExecStartPre/ExecStart armed func and storage, upgraded to $PKG_VER (dkms: only $PKG_VER), removed cleanly; DKMS build on the $PKG_DKMS; $((SECONDS - t00)) s"
