#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-build.sh KERNEL KO
#
# Builds stacklat with DKMS against KERNEL's fetched headers and copies the
# module DKMS made to KO (run.sh KERNEL+dkms then boots KERNEL with it).
# The source tree is the one `make dkms-install` registers (make dkms-src),
# dkms.conf and all; dkms runs with its own trees under
# .cache/dkms/KERNEL (--sourcetree, --dkmstree, --installtree), so nothing
# of the machine's /usr/src, /var/lib/dkms or /lib/modules is touched, and
# with no signing tool (sign_file), so it never makes a signing key here.
#
# First it checks dkms.conf's BUILD_EXCLUSIVE_KERNEL against every kernel
# fetched for the tests: each must match, so the range it states is the
# one tested.  The last line of output says what was built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
k=${1:?usage: dkms-build.sh KERNEL KO}
ko=${2:?usage: dkms-build.sh KERNEL KO}
cache=$here/.cache
ver=$(cat "$repo/VERSION")
# shellcheck disable=SC1090
. "$cache/k/$k/env"

re=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\(.*\)"$/\1/p' "$repo/dkms/dkms.conf")
[ -n "$re" ] || { echo "dkms-build: no BUILD_EXCLUSIVE_KERNEL in dkms/dkms.conf" >&2; exit 1; }
for e in "$cache"/k/*/env; do
	v=$(sed -n 's/^KVER=//p' "$e")
	[ -n "$v" ] || continue
	if ! grep -qE "$re" <<<"$v"; then
		echo "dkms-build: $v (tested, $(basename "$(dirname "$e")")) is outside BUILD_EXCLUSIVE_KERNEL $re" >&2
		exit 1
	fi
done

t=$cache/dkms/$k
rm -rf "$t"
mkdir -p "$t/source" "$t/tree" "$t/install"
make -s -C "$repo" dkms-src DKMS_SRC="$t/source/stacklat-$ver"
trees=(--sourcetree "$t/source" --dkmstree "$t/tree" --installtree "$t/install")
export sign_file=/nonexistent
dkms add -m stacklat -v "$ver" "${trees[@]}"
dkms build -m stacklat -v "$ver" -k "$KVER" --kernelsourcedir "$KDIR" "${trees[@]}"
built=$(ls "$t/tree/stacklat/$ver/$KVER"/*/module/stacklat.ko* | head -n1)
case $built in
*.xz) xz -dc "$built" > "$ko" ;;
*.zst) zstd -qdc "$built" > "$ko" ;;
*.gz) gzip -dc "$built" > "$ko" ;;
*) cp "$built" "$ko" ;;
esac
echo "dkms built stacklat $ver for $KVER (vermagic $(modinfo -F vermagic "$ko" | cut -d' ' -f1), sha256 $(sha256sum "$ko" | cut -c1-16))"
