#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the benches (tests/vm/bench/*.sh) after lib.sh.
#
# bench_compare NAME ROUNDS RUN ARM: ROUNDS rounds, each measuring the
# command RUN (which prints ns_per_op=X or ns_per_call=X) with no module,
# with the module loaded and idle, and after running ARM (which enables
# what is measured); reports the medians, the armed minus idle difference
# per operation and the ratios, as STACKLAT-BENCH lines.  The three cases
# alternate within a round, in one boot: only their ratios and differences
# mean something under emulation.

median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

bench_ns() { "$@" | sed -n 's/.*ns_per_[a-z]*=\([0-9.]*\).*/\1/p'; }

bench_compare() {
	local name=$1 rounds=$2 run=$3 arm=$4 m0 m1 m2
	local -a none=() idle=() armed=()
	for _ in $(seq 1 "$rounds"); do
		none+=("$(bench_ns $run)")
		sl_load
		idle+=("$(bench_ns $run)")
		$arm
		armed+=("$(bench_ns $run)")
		sl_unload
	done
	m0=$(median "${none[@]}")
	m1=$(median "${idle[@]}")
	m2=$(median "${armed[@]}")
	echo "rounds: none ${none[*]} | idle ${idle[*]} | armed ${armed[*]}"
	echo "STACKLAT-BENCH $name kernel=$KERNEL rounds=$rounds no_module_ns=$m0 loaded_idle_ns=$m1 armed_ns=$m2"
	awk -v a="$m2" -v b="$m1" -v c="$m0" -v k="$KERNEL" -v n="$name" 'BEGIN {
		printf "STACKLAT-BENCH %s kernel=%s cost_per_op_ns=%.1f ratio_armed_vs_idle=%.2f ratio_idle_vs_none=%.3f\n", n, k, a - b, a / b, b / c
	}'
}
