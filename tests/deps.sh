#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Installs the Debian packages that building, the unit tests, the VM tests,
# the demo and the bench need - only those missing, and only as root
# (one `apt-get update` first).  Not root and something missing: says what
# to install and exits 1.  Nothing missing: does nothing, no network.
#
# The guest runs the host's userland over 9p, so the programs the scenarios
# run inside the VM (python3, memcached, fio, dmsetup, ip/tc, ...) are host
# packages too.
set -euo pipefail
pkgs=(
	# module, tool and unit tests (libelf-dev: also the tool's ELF reader,
	# func add PATH:SYMBOL)
	gcc make bc flex bison libelf-dev libssl-dev pkg-config
	libnl-3-dev libnl-genl-3-dev libjson-c-dev libcmocka-dev sparse dwarves
	linux-source-6.1 shellcheck
	# the libFuzzer harness of the tool (tests/fuzz)
	clang libclang-rt-14-dev
	# the QEMU harness (debootstrap: the chroot 7.x modules are built in;
	# dkms: make dkmscheck; git: make firstrun clones)
	qemu-system-x86 busybox-static cpio kmod xz-utils zstd e2fsprogs debootstrap
	dkms git
	ca-certificates debian-archive-keyring
	# make deb and make debcheck (strace: that stacklat-apply-conf writes
	# the file in one write)
	dpkg-dev debhelper dh-dkms lintian strace
	# programs the scenarios run in the guest (host userland over 9p)
	# (libcap2-bin: capsh for 17-privileges; jq: a value of a JSON
	# document in some 20 ms, where python3 takes 0.5-5 s to start in a
	# guest under load: 72, 74, 75)
	bash coreutils util-linux libcap2-bin procps iproute2 ethtool nftables python3 memcached python3-pymemcache fio dmsetup jq
	# perf lock record/contention, the peer 99-lock compares with (tracepoint mode)
	linux-perf
	# promtool, which checks `stacklat metrics` (80-json-metrics); the
	# Prometheus and the node_exporter of 85-prometheus
	prometheus prometheus-node-exporter
	# make bench: the peers stacklat is compared with (tests/vm/bench/4*)
	bpftrace
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages: ${missing[*]}" >&2
	echo "deps: run as root, or: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
