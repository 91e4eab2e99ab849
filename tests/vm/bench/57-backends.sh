#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The hook backends against each other, same module, one boot: the
# module loaded as it is (function entries on the pipeline's ftrace_ops,
# return points on its fprobe where the kernel has one) and with ftrace=0
# (kprobes and kretprobes), interleaved rounds, medians of the time per
# operation: getppid(2) with the func pipeline on __x64_sys_getppid (one
# return point), and 4 KiB pread(2) from the page cache with the storage
# pipeline (syscall, vfs_read and ext4_file_read_iter return points).  The
# status line says what each backend was.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench.sh"

ROUNDS=${BENCH_ROUNDS:-5}
f=${SL_MNT:-/tmp}/sl-bench.dat
dd if=/dev/zero of="$f" bs=4k count=1 status=none
spin=("$SL_REPO/tests/vm/helpers/sl-spin" -n "${BENCH_N:-200000}" -t 1)
pread=("$SL_REPO/tests/vm/helpers/sl-loop" pread "$f" "${BENCH_N:-100000}")
ctl() { echo "$*" > "$SL_DBG/control"; }
declare -A t
for _ in $(seq "$ROUNDS"); do
	t[none-func]+=" $(bench_ns "${spin[@]}")"
	t[none-storage]+=" $(bench_ns "${pread[@]}")"
	for mode in ftrace=1 ftrace=0; do
		sl_load "$mode"
		ctl func add __x64_sys_getppid
		ctl enable func
		t[$mode-func]+=" $(bench_ns "${spin[@]}")"
		ctl disable func
		ctl enable storage
		t[$mode-storage]+=" $(bench_ns "${pread[@]}")"
		ctl disable storage
		grep "points:" "$SL_DBG/status" | sed "s/^/$mode: /"
		sl_unload
	done
done
rm -f "$f"
for w in func storage; do
	# shellcheck disable=SC2086 # word lists
	n=$(median ${t[none-$w]}) a=$(median ${t[ftrace=1-$w]}) b=$(median ${t[ftrace=0-$w]})
	echo "rounds $w: none${t[none-$w]} | ftrace=1${t[ftrace=1-$w]} | ftrace=0${t[ftrace=0-$w]}"
	awk -v n="$n" -v a="$a" -v b="$b" -v k="$KERNEL" -v w="$w" 'BEGIN {
		printf "STACKLAT-BENCH backends-%s kernel=%s none_ns=%s ftrace_ns=%s probes_ns=%s cost_ftrace_ns=%.1f cost_probes_ns=%.1f ratio_cost=%.2f\n",
			w, k, n, a, b, a - n, b - n, (b - n > 0) ? (a - n) / (b - n) : 0 }'
done
pass "backends compared over $ROUNDS rounds"
