#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: the two Debian packages (stacklat-dkms, stacklat) with Debian's
# own tooling (dpkg-buildpackage, debhelper compat 13, dh-dkms), built in a
# copy of the tree under OUT (default build/deb; make clean removes it) so
# that nothing is written among the tree's files.  debian/changelog is
# written in the copy from the VERSION file (the one version number), its
# date the last commit's.  Output: OUT/stacklat-dkms_V_all.deb,
# OUT/stacklat_V_ARCH.deb; dpkg-buildpackage's log in OUT/build.log.
# Installs nothing: a missing tool or build dependency is named, with the
# apt-get line that installs it.  STACKLAT_DEB_VERSION=V builds the same
# tree as version V instead (its VERSION file in the copy says V, so the
# module, the command and dkms.conf do too): the "previous version" the
# package test upgrades from (tests/vm/pkg-prep.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/deb}
ver=${STACKLAT_DEB_VERSION:-$(cat VERSION)}
[[ $ver =~ ^[0-9][0-9A-Za-z.+~]*$ ]] || { echo "deb: VERSION '$ver' is not a Debian version" >&2; exit 1; }

# the tools first (dpkg-checkbuilddeps below names the libraries)
missing=()
for t in dpkg-buildpackage:dpkg-dev dpkg-checkbuilddeps:dpkg-dev dh:debhelper \
	dh_dkms:dh-dkms make:make gcc:gcc; do
	command -v "${t%%:*}" > /dev/null || missing+=("${t#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
	mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
	echo "deb: missing Debian packages: ${missing[*]}" >&2
	echo "deb: apt-get install ${missing[*]}" >&2
	exit 1
fi

# the copy: the files git knows of (committed or not, not ignored), else
# (a tarball) everything but build/
rm -rf "$out"
src=$out/stacklat-$ver
mkdir -p "$src"
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf - | tar -xf - -C "$src"
	when=$(git log -1 --format=%aD 2>/dev/null || date -R)
	rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
else
	tar --exclude=./build -cf - . | tar -xf - -C "$src"
	when=$(date -R)
	rev=unknown
fi
echo "$ver" > "$src/VERSION"
maint=$(sed -n 's/^Maintainer: //p' debian/control)
cat > "$src/debian/changelog" <<CL
stacklat ($ver) unstable; urgency=medium

  * Built from the source tree at commit $rev (VERSION $ver).

 -- $maint  $when
CL

if ! (cd "$src" && dpkg-checkbuilddeps) 2> "$out/builddeps.log"; then
	cat "$out/builddeps.log" >&2
	deps=$(sed -n 's/.*Unmet build dependencies: //p' "$out/builddeps.log" |
		sed 's/([^)]*)//g')
	echo "deb: apt-get install $deps" >&2
	exit 1
fi
if ! (cd "$src" && dpkg-buildpackage -b -us -uc) > "$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed (whole log: $out/build.log)" >&2
	exit 1
fi
rm -rf "$src"
ls "$out"/*.deb
