#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make debcheck (in make check, beside the guests): the Debian packages
# built by make deb (debian/build-debs.sh, into build/deb), then
#   - lintian over both (and the dbgsym package): every tag, down to
#     pedantic, fails unless debian/*.lintian-overrides names it with its
#     reason;
#   - what each holds: stacklat-dkms the DKMS tree make dkms-src lays out
#     (file for file), its dkms.conf dkms/dkms.conf at VERSION, the DKMS maintainer scripts; stacklat the
#     command linked against libnl-3, libnl-genl-3 and json-c (its
#     Depends), the man page, the completion, the units, the conffile;
#   - stacklat-apply-conf (what stacklat.service runs) on a stand-in
#     control file: a file of comments applies nothing, one with lines is
#     written whole in one write, one of 4096 bytes or more is refused.
# Host only, no guest: some 30 s.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/deb
ver=$(cat VERSION)
fail=0
bad() { echo "debcheck: FAIL: $*"; fail=1; }

command -v lintian > /dev/null || { echo "debcheck: lintian missing: apt-get install lintian" >&2; exit 1; }
OUT=$out debian/build-debs.sh > /dev/null
arch=$(dpkg --print-architecture)
dkms_deb=$out/stacklat-dkms_${ver}_all.deb
tool_deb=$out/stacklat_${ver}_${arch}.deb
for d in "$dkms_deb" "$tool_deb"; do
	[ -f "$d" ] || { echo "debcheck: FAIL: $d was not built"; exit 1; }
done

if lintian -I --pedantic --fail-on error,warning,info,pedantic \
	"$dkms_deb" "$tool_deb" "$out"/stacklat-dbgsym_"${ver}"_"$arch".deb > "$out/lintian.log" 2>&1; then
	echo "debcheck: lintian clean ($(grep -c '^[EWIP]:' "$out/lintian.log" || true) tags; overrides: $(cat debian/*.lintian-overrides | grep -vc '^#'))"
else
	cat "$out/lintian.log"
	bad "lintian"
fi

# contents
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$dkms_deb" "$tmp/dkms"
dpkg-deb -e "$dkms_deb" "$tmp/dkms-ctl"
dpkg-deb -x "$tool_deb" "$tmp/tool"
src=$tmp/dkms/usr/src/stacklat-$ver
for f in Kbuild VERSION dkms.conf kmod/main.c kmod/compat-probe.sh kmod/compat.h uapi/stacklat.h \
	uapi/stacklat_keyed.h uapi/stacklat_record.h; do
	[ -e "$src/$f" ] || bad "stacklat-dkms has no /usr/src/stacklat-$ver/$f"
done
# the tree make dkms-src lays out (what make dkms-install registers and
# the 6.1+dkms guest loads the module of), file for file
make -s dkms-src DKMS_SRC="$tmp/ref" > /dev/null
diff -r "$tmp/ref" "$src" > "$tmp/srcdiff" 2>&1 ||
	bad "stacklat-dkms's /usr/src/stacklat-$ver is not make dkms-src's tree: $(head -n 5 "$tmp/srcdiff")"
grep -qx "PACKAGE_VERSION=\"$ver\"" "$src/dkms.conf" || bad "dkms.conf's PACKAGE_VERSION is not $ver"
diff <(grep -v '^PACKAGE_VERSION=' dkms/dkms.conf) <(grep -v '^PACKAGE_VERSION=' "$src/dkms.conf") > /dev/null ||
	bad "the packaged dkms.conf is not dkms/dkms.conf"
[ "$(cat "$src/VERSION")" = "$ver" ] || bad "the packaged VERSION is not $ver"
grep -q 'common.postinst' "$tmp/dkms-ctl/postinst" || bad "stacklat-dkms's postinst does not run DKMS"
grep -q 'dkms remove' "$tmp/dkms-ctl/prerm" || bad "stacklat-dkms's prerm does not remove the module from DKMS"
[ "$(find "$tmp/dkms" -name '*.o' -o -name '*.ko' -o -name '.*.cmd' | wc -l)" = 0 ] ||
	bad "stacklat-dkms holds build products"

for f in usr/sbin/stacklat usr/share/man/man8/stacklat.8.gz \
	usr/share/bash-completion/completions/stacklat etc/stacklat.conf \
	usr/lib/stacklat/stacklat-apply-conf lib/systemd/system/stacklat.service \
	lib/systemd/system/stacklat-metrics.service lib/systemd/system/stacklat-metrics.timer; do
	[ -e "$tmp/tool/$f" ] || bad "stacklat has no /$f"
done
[ -z "$(find "$tmp/tool" -path '*/usr/src*' -print -quit)" ] || bad "stacklat holds /usr/src"
deps=$(dpkg-deb -f "$tool_deb" Depends)
for l in libnl-3-200 libnl-genl-3-200 libjson-c; do
	[[ $deps == *"$l"* ]] || bad "stacklat does not depend on $l (Depends: $deps)"
done
[[ $(dpkg-deb -f "$tool_deb" Depends) != *dkms* ]] || bad "stacklat depends on dkms"
[ "$(dpkg-deb -f "$tool_deb" Version)" = "$ver" ] || bad "stacklat's version is not $ver"
[ "$(dpkg-deb -f "$dkms_deb" Version)" = "$ver" ] || bad "stacklat-dkms's version is not $ver"
dpkg-deb -e "$tool_deb" "$tmp/tool-ctl"
grep -qx /etc/stacklat.conf "$tmp/tool-ctl/conffiles" || bad "/etc/stacklat.conf is not a conffile"
v=$("$tmp/tool/usr/sbin/stacklat" --version 2>&1 || true)
[[ $v == *"$ver"* ]] || bad "the packaged stacklat --version says '$v', not $ver"
if command -v systemd-analyze > /dev/null; then
	(cd "$tmp/tool/lib/systemd/system" &&
		systemd-analyze verify --man=no --root="$tmp/tool" stacklat.service stacklat-metrics.service \
			stacklat-metrics.timer) > "$tmp/verify" 2>&1 || true
	# only what is wrong in the units themselves (not the absent modprobe etc.)
	if grep -E 'stacklat[^ ]*(service|timer):[0-9]+:' "$tmp/verify"; then
		bad "systemd-analyze verify"
	fi
fi

# stacklat-apply-conf on a stand-in control file
apply=$tmp/tool/usr/lib/stacklat/stacklat-apply-conf
ctl=$tmp/control
: > "$ctl"
STACKLAT_CONTROL=$ctl "$apply" "$tmp/tool/etc/stacklat.conf" > "$tmp/a1" 2>&1 || bad "apply: the shipped example failed: $(cat "$tmp/a1")"
[ ! -s "$ctl" ] || bad "apply: the shipped example (comments only) wrote to the control file"
grep -q 'no control lines' "$tmp/a1" || bad "apply: the shipped example did not say it has no control lines: $(cat "$tmp/a1")"
printf '# boot\nenable net_rx\n\n  filter net_rx proto=tcp\nthreshold block 10000000\n' > "$tmp/conf"
STACKLAT_CONTROL=$ctl strace -f -s 4096 -e trace=write -o "$tmp/strace" "$apply" "$tmp/conf" > "$tmp/a2" 2>&1 ||
	bad "apply: a valid file failed: $(cat "$tmp/a2")"
cmp -s "$tmp/conf" "$ctl" || bad "apply: the control file did not get the file as it is"
if [ -s "$tmp/strace" ]; then
	# the file, in one write(2): the module parses all of a write before
	# applying any of it (counted: the writes of the file's first line)
	nw=$(grep -c 'write([0-9]*, "# boot' "$tmp/strace" || true)
	[ "$nw" = 1 ] || bad "apply: the file went in $nw writes starting with its first line, not 1"
	grep -qF "write(1, \"# boot\\nenable net_rx\\n\\n  filter net_rx proto=tcp\\nthreshold block 10000000\\n\", $(wc -c < "$tmp/conf"))" \
		"$tmp/strace" || bad "apply: the file was not written whole in one write"
fi
head -c 4096 /dev/zero | tr '\0' '#' > "$tmp/big"; printf '\nenable net_rx\n' >> "$tmp/big"
: > "$ctl"
if STACKLAT_CONTROL=$ctl "$apply" "$tmp/big" > "$tmp/a3" 2>&1; then
	bad "apply: a file of 4096+ bytes was accepted"
fi
[ ! -s "$ctl" ] || bad "apply: a file of 4096+ bytes was written"
rm -f "$ctl"
if STACKLAT_CONTROL=$ctl "$apply" "$tmp/conf" > "$tmp/a4" 2>&1; then
	bad "apply: no control file, yet it succeeded"
fi
grep -q 'module not loaded' "$tmp/a4" || bad "apply: without a control file it said: $(cat "$tmp/a4")"

[ $fail = 0 ] && echo "debcheck: stacklat-dkms and stacklat $ver: built, lintian clean, contents and stacklat-apply-conf checked"
exit $fail
