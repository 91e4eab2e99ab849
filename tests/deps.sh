#!/bin/bash
# Installs the Debian packages that building, the unit tests, the VM tests,
# the demo and the bench need - only those missing, and only as root.
set -euo pipefail
pkgs=(
	gcc make pkg-config libnl-3-dev libnl-genl-3-dev libcmocka-dev
	sparse dwarves bc flex bison libelf-dev libssl-dev linux-source-6.1
	qemu-system-x86 busybox-static cpio kmod xz-utils zstd e2fsprogs
	iproute2 util-linux procps python3 ca-certificates debian-archive-keyring
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages: ${missing[*]}" >&2
	echo "deps: run as root (or apt-get install them) and try again" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
