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
cp "$here"/Kbuild "$here"/*.c "$here"/*.S "$b"/
# a second copy, sl_direct2: a second direct caller (or a kretprobe)
# on the same function beside the first
cp "$b"/main.c "$b"/main2.c
cp "$b"/tramp.S "$b"/tramp2.S
printf 'obj-m += sl_direct2.o\nsl_direct2-y := main2.o tramp2.o\n' >> "$b"/Kbuild
make -C "$H" M="$b" W=1 CC=x86_64-linux-gnu-gcc-12 KCFLAGS=-g0 \
	CONFIG_DEBUG_INFO_BTF_MODULES= modules
