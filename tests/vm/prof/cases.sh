#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make profile, in the guest (guest-run.sh's profile mode): one case of the
# benches, SL_PROF="CASE,WHICH" (WHICH: new, the working copy's module, or
# base, BENCH_BASE's), run once with the case's pipelines enabled.  The
# kernel's and the module's text symbols are printed (KSYM address name
# [module]) for profile.sh to put the plugin's counts on functions.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

IFS=, read -r case which <<<"${SL_PROF:-}"
N=20000
loop=$SL_REPO/tests/vm/helpers/sl-loop
case $case in
func)
	run="$SL_REPO/tests/vm/helpers/sl-spin -n $N -t 1"
	arm() { echo "func add __x64_sys_getppid" > "$SL_DBG/control"; echo "enable func" > "$SL_DBG/control"; } ;;
syscalls|syscalls-s16)
	# getppid with syscalls on, every call or one in 16 followed
	run="$SL_REPO/tests/vm/helpers/sl-spin -n $N -t 1"
	arm() {
		[ "$case" = syscalls ] || echo "sample syscalls 16" > "$SL_DBG/control"
		echo "enable syscalls" > "$SL_DBG/control"
	} ;;
net|net-s16)
	# UDP datagrams over loopback, every packet or one in 16 followed
	run="$loop udp $N"
	arm() {
		if [ "$case" = net-s16 ]; then
			echo "sample net_rx 16" > "$SL_DBG/control"
			echo "sample net_tx 16" > "$SL_DBG/control"
		fi
		echo "enable net_rx" > "$SL_DBG/control"
		echo "enable net_tx" > "$SL_DBG/control"
	} ;;
storage|storage-s16)
	# a cached pread on ext4, every operation or one in 16 followed
	f=${SL_MNT:-/tmp}/sl-prof.dat
	dd if=/dev/zero of="$f" bs=4k count=1 status=none
	run="$loop pread $f $N"
	arm() {
		[ "$case" = storage ] || echo "sample storage 16" > "$SL_DBG/control"
		echo "enable storage" > "$SL_DBG/control"
	} ;;
block)
	sl_modprobe null_blk nr_devices=1
	run="$loop dio /dev/nullb0 $N"
	arm() { echo "enable block" > "$SL_DBG/control"; } ;;
d-none|d-direct|d-krp)
	# issue 31's direct-call study (tests/vm/prof/direct, built by its
	# build.sh): getppid bare, with sl_direct.ko's direct call, with its
	# kretprobe; stacklat loaded, nothing enabled
	run="$SL_REPO/tests/vm/helpers/sl-spin -n $N -t 1"
	arm() {
		[ "$case" = d-none ] ||
			insmod "$SL_REPO/tests/vm/.cache/build/${KERNEL%%+*}-direct/sl_direct.ko" mode="${case#d-}"
	} ;;
*)
	fail "unknown case '$case' (func, net, net-s16, storage, storage-s16, block, syscalls, syscalls-s16, d-none, d-direct, d-krp)" ;;
esac
[ "$which" = base ] && SL_KO=$SL_KO_BASE
sl_load
arm
# after arm: a module it loads has its symbols listed too
awk '$2 ~ /^[tT]$/ && $1 !~ /^0+$/ { print "KSYM", $1, $3, $4 }' /proc/kallsyms > /tmp/sl-ksyms
$run
rmmod sl_direct 2> /dev/null || true
sl_unload
cat /tmp/sl-ksyms
pass "$case ($which): $N operations"
