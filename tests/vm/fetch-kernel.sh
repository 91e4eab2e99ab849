#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh [--headers] KERNEL
#   KERNEL: 5.10 | 6.1 | 6.12 | 7.3 | 7.2, each also with -rt or -cloud
#
# Downloads a Debian kernel image and its headers with a private apt state
# (the machine's own sources are never touched), unpacks them into
# tests/vm/.cache/k/KERNEL/root, makes the headers usable from there and
# writes tests/vm/.cache/k/KERNEL/env (KVER, VMLINUZ, KDIR, MODROOT).
# With --headers only the headers are fetched (for a build-only check; the
# env then has no VMLINUZ), into tests/vm/.cache/k/KERNEL-headers.
#
# From 7.x on, Debian's linux-image-VER is a meta package: the kernel is in
# linux-binary-VER, the modules in linux-modules-VER, both unpacked under
# usr/lib/modules/VER/ (the image is usr/lib/modules/VER/vmlinuz).
# Cached: a second run with everything in place does no network I/O.
# The mirror is the one this machine's apt already uses.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
headers_only=
[ "${1:-}" != --headers ] || { headers_only=1; shift; }
kernel=${1:?usage: fetch-kernel.sh [--headers] KERNEL}
cache=${SL_VM_CACHE:-$here/.cache}
kc=$cache/k/$kernel${headers_only:+-headers}
# one fetch of a kernel at a time (run.sh fetches ahead while the kernels
# that start ask for theirs; style.sh asks for 6.1): the second waits and
# finds it cached
mkdir -p "$cache/k"
exec {lockfd}> "$kc.lock"
flock "$lockfd"
# cached: everything in place means no network at all
if [ -s "$kc/env" ]; then
	# shellcheck disable=SC1091
	. "$kc/env"
	# shellcheck disable=SC2153
	if [ -n "$headers_only" ]; then
		[ -f "$KDIR/Makefile" ] && exit 0
	else
		[ -f "$VMLINUZ" ] && [ -f "$KDIR/Makefile" ] && [ -d "$MODROOT/lib/modules/$KVER" ] && exit 0
	fi
	echo "fetch-kernel: $kc is incomplete, fetching again" >&2
	rm -f "$kc/env"
fi

# KERNEL is a series, with -rt or -cloud for Debian's other flavours
case $kernel in
*-rt)	flavour=rt-amd64 ;;
*-cloud) flavour=cloud-amd64 ;;
*)	flavour=amd64 ;;
esac
case ${kernel%-*} in
5.10)	suites="bullseye bullseye-security" ;;
6.1)	suites="bookworm bookworm-security" ;;
6.12)	suites="bookworm-backports" ;;
7.3)	suites="trixie-backports" ;;
7.2)	suites="sid" ;;
*)	echo "fetch-kernel: unknown kernel '$kernel' (5.10 6.1 6.12 7.3 7.2, each with -rt or -cloud)" >&2; exit 2 ;;
esac

# The mirror: the first Debian archive URI of this machine's apt sources.
mirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)
[ -n "$mirror" ] || mirror=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^http/) {print $i; exit}}' | head -n1 || true)
[ -n "$mirror" ] || { echo "fetch-kernel: no Debian mirror in this machine's apt sources" >&2; exit 1; }
secmirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -- '-security' | head -n1 || true)
[ -n "$secmirror" ] || secmirror=${mirror%/debian}/debian-security

apt_dir=$cache/apt/$kernel${headers_only:+-headers}
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$kc/debs"
: > "$apt_dir/sources.list"
for s in $suites; do
	case $s in
	*-security) echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $secmirror $s main" ;;
	*) echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $s main" ;;
	esac >> "$apt_dir/sources.list"
done
O=(-oDir::State::Lists="$apt_dir/lists" -oDir::Etc::SourceList="$apt_dir/sources.list"
   -oDir::Etc::SourceParts=/dev/null -oDir::Cache="$apt_dir/cache"
   -oDir::State::Status=/dev/null -oAPT::Get::AllowUnauthenticated=false
   -oDebug::NoLocking=1 -oAPT::Sandbox::User=root -qq)
apt-get "${O[@]}" update

# resolve the meta packages to the real ones, newest first
dep() { apt-cache "${O[@]}" depends "$1" 2>/dev/null | awk '/Depends:/ {print $2}' | grep -v '^<' ; }
pick() { # pick META PATTERN: the first dependency of META matching PATTERN
	dep "$1" | grep -E "$2" | head -n1
}
# the meta packages of this suite name the current ABI (newest suite wins:
# -security and backports carry higher versions than the base suite)
image=$(pick "linux-image-$flavour" '^linux-image-[0-9]')
hmeta=$(pick "linux-headers-$flavour" '^linux-headers-[0-9]')
{ [ -n "$image" ] && [ -n "$hmeta" ]; } || { echo "fetch-kernel: cannot resolve $kernel packages" >&2; exit 1; }
common=$(dep "$hmeta" | grep -E '^linux-headers-.*-common' | head -n1)
kbuild=$(dep "$hmeta" | grep -E '^linux-kbuild-' | head -n1)
# 7.x: the image package is itself a meta package of the split ones
split=$(dep "$image" | grep -E '^linux-(binary|modules|base)-[0-9]' || true)
[ -z "$split" ] || image=$(echo "$split" | tr '\n' ' ')
[ -z "$headers_only" ] || image=
pkgs="$image $hmeta $common $kbuild"
echo "fetch-kernel: $kernel: $pkgs"
# shellcheck disable=SC2086
(cd "$kc/debs" && apt-get "${O[@]}" download $pkgs)

rm -rf "$kc/root"
mkdir -p "$kc/root"
for d in "$kc"/debs/*.deb; do dpkg -x "$d" "$kc/root"; done
rm -rf "$kc/debs"

# 7.x packages are usr-merged (usr/lib/modules/VER): depmod and modprobe -d
# look in ROOT/lib/modules
[ -e "$kc/root/lib" ] || ln -s usr/lib "$kc/root/lib"
if [ -n "$headers_only" ]; then
	kver=$(ls -d "$kc"/root/usr/src/linux-headers-*-"${flavour}" | head -n1)
	kver=${kver##*/linux-headers-}
else
	kver=$(ls "$kc/root/lib/modules" | head -n1)
fi
kdir=$(ls -d "$kc"/root/usr/src/linux-headers-*-${flavour} 2>/dev/null | head -n1)
[ -n "$kdir" ] || kdir=$(ls -d "$kc"/root/usr/src/linux-headers-"$kver" | head -n1)
# the arch headers' Makefile includes the -common one by absolute path, and
# scripts/ and tools/ link to the kbuild package by absolute path
sed -i "s|/usr/src/|$kc/root/usr/src/|g" "$kdir/Makefile"
find "$kc/root/usr/src" -maxdepth 2 -type l | while read -r l; do
	t=$(readlink "$l")
	case $t in /*) ln -sfn "$kc/root$t" "$l" ;; esac
done
if [ -n "$headers_only" ]; then
	printf 'KVER=%s\nKDIR=%s\n' "$kver" "$kdir" > "$kc/env"
	echo "fetch-kernel: $kernel headers ready: $kver"
	exit 0
fi
depmod -b "$kc/root" "$kver"
vmlinuz=$(ls "$kc"/root/boot/vmlinuz-* "$kc/root/lib/modules/$kver/vmlinuz" 2>/dev/null | head -n1 || true)
cat > "$kc/env" <<EOF
KVER=$kver
VMLINUZ=$vmlinuz
KDIR=$kdir
MODROOT=$kc/root
EOF
echo "fetch-kernel: $kernel ready: $kver"
