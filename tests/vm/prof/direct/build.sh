#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh KERNEL: sl_direct.ko (and sl_direct2.ko) for KERNEL's headers, in
# tests/vm/.cache/build/KERNEL-direct/ (where its guest finds it)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=$here/../../.cache
k=${1:?usage: build.sh KERNEL}
b=$cache/build/$k-direct
H=$(ls -d "$cache"/k/"$k"/root/usr/src/linux-headers-*-amd64 | head -1)
rm -rf "$b"
mkdir -p "$b"
cp "$here"/Kbuild "$here"/*.c "$here"/*.h "$here"/*.S "$b"/
# a second copy, sl_direct2: a second direct caller (or a kretprobe)
# on the same function beside the first
cp "$b"/main.c "$b"/main2.c
cp "$b"/tramp.S "$b"/tramp2.S
printf 'obj-m += sl_direct2.o\nsl_direct2-y := main2.o tramp2.o\n' >> "$b"/Kbuild
# the compiler the headers name, else gcc-12 (5.10-6.12) or, for a
# newer one the host lacks, run.sh's way: toolchain.sh's chroot (7.x)
need=$(sed -n 's/^CONFIG_GCC_VERSION=\([0-9]*\)[0-9]\{4\}$/\1/p' "$H/include/config/auto.conf")
run=()
if command -v "gcc-$need" > /dev/null; then
	cc=gcc-$need
elif [ "$need" -le 12 ]; then
	cc=gcc-12
else
	cc=gcc-$need
	run=("$here/../../toolchain.sh" "gcc-$need" --)
fi
"${run[@]}" make -C "$H" M="$b" W=1 CC="$cc" KCFLAGS=-g0 \
	CONFIG_DEBUG_INFO_BTF_MODULES= modules
