#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# toolchain.sh CC                  make (once) and print a build chroot with CC
# toolchain.sh CC -- CMD ARGS...   run CMD in it
#   CC: gcc-14 (a trixie chroot) | gcc-15, gcc-16 (sid)
#
# Kernel headers name the compiler that built the kernel and pass it flags
# only that compiler may know (7.x: -fmin-function-alignment=16, which
# bookworm's gcc-12 rejects), and their kbuild tools are linked against
# that Debian suite's libc.  A module for such a kernel is built inside a
# minimal chroot of that suite: debootstrap --variant=minbase with the
# compiler and what Kbuild runs, from the mirror this machine's apt already
# uses.  It is cached in tests/vm/.cache/chroot/SUITE and made again only
# when the package list below changes (40-70 s, ~400 MB).
#
# CMD runs in a private mount namespace (unshare), with /proc and the
# repository, the cache and everything they link to bind-mounted at the
# same paths: nothing stays mounted when it ends, and the paths in the
# unpacked headers (absolute, see fetch-kernel.sh) resolve inside as out.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cc=${1:?usage: toolchain.sh CC [-- CMD...]}
shift
case $cc in
gcc-14) suite=trixie ;;
gcc-15|gcc-16) suite=sid ;;
*) echo "toolchain: no chroot recipe for '$cc' (gcc-14 gcc-15 gcc-16)" >&2; exit 2 ;;
esac
cache=$here/.cache
root=$cache/chroot/$suite
include="$cc,make,libelf-dev,bc,bison,flex,libssl-dev,dwarves,kmod,xz-utils,zstd,python3"
stamp="$suite $include"

if [ "$(cat "$root.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -x "$root/usr/bin/$cc" ]; then
	command -v debootstrap > /dev/null || { echo "toolchain: debootstrap missing (tests/deps.sh installs it)" >&2; exit 1; }
	mirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)
	[ -n "$mirror" ] || mirror=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^http/) {print $i; exit}}' | head -n1 || true)
	[ -n "$mirror" ] || { echo "toolchain: no Debian mirror in this machine's apt sources" >&2; exit 1; }
	mkdir -p "$cache/chroot"
	exec {lockfd}> "$root.lock"
	flock "$lockfd"
	if [ "$(cat "$root.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -x "$root/usr/bin/$cc" ]; then
		echo "toolchain: debootstrap $suite ($cc) into $root" >&2
		rm -rf "$root" "$root.stamp"
		debootstrap --variant=minbase --include="$include" \
			--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
			"$suite" "$root.tmp" "$mirror" > "$root.log" 2>&1 ||
			{ echo "toolchain: debootstrap failed, see $root.log" >&2; rm -rf "$root.tmp"; exit 1; }
		mv "$root.tmp" "$root"
		echo "$stamp" > "$root.stamp"
	fi
	exec {lockfd}>&-
fi
if [ "${1:-}" != -- ]; then
	echo "$root"
	exit 0
fi
shift

# the paths to bind: the repository and the real places its cache links to
# (once: a cache that is itself a link to another working copy's is bound
# whole, and its entries, files among them, are then inside it)
binds=("$repo")
for p in "$cache" "$cache"/*; do
	r=$(readlink -f "$p")
	case $r in "$repo"/*|"$root"*) continue ;; esac
	for b in "${binds[@]}"; do
		case $r/ in "$b"/*) continue 2 ;; esac
	done
	binds+=("$r")
done
# shellcheck disable=SC2016  # expanded by the inner shell
exec unshare --mount --propagation private bash -c '
	set -e
	root=$1 n=$2
	shift 2
	for ((i = 0; i < n; i++)); do
		mkdir -p "$root$1"
		mount --bind "$1" "$root$1"
		shift
	done
	mount -t proc proc "$root/proc"
	exec chroot "$root" env -i PATH=/usr/bin:/bin HOME=/tmp LC_ALL=C.UTF-8 "$@"
' sl-toolchain "$root" "${#binds[@]}" "${binds[@]}" "$@"
