#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the benches (tests/vm/bench/*.sh) after lib.sh.
#
# bench_compare NAME ROUNDS RUN ARM [DISARM]: ROUNDS rounds, each measuring the
# command RUN (which prints ns_per_op=X or ns_per_call=X) with no module,
# with the module loaded and idle, and after running ARM (which enables
# what is measured); reports the medians, the armed minus idle difference
# per operation and the ratios, as STACKLAT-BENCH lines.  DISARM, when
# given, runs after each armed measurement, before the module is unloaded
# (to stop what ARM started, a reader holding a debugfs file open, say).  The three cases
# alternate within a round, in one boot: only their ratios and differences
# mean something under emulation.  With a baseline module (make bench
# BENCH_BASE=REV builds SL_KO_BASE from another revision), a fourth case
# arms that one the same way, and its cost per operation is reported
# beside ours with the ratio of the two (when the baseline can arm it).

median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

bench_ns() { "$@" | sed -n 's/.*ns_per_[a-z]*=\([0-9.]*\).*/\1/p'; }

# bench_compare NAME ROUNDS RUN ARM [DISARM]; BENCH_LOAD: module
# parameters of stacklat's load (not the baseline's, which may not know
# them)
bench_compare() {
	local name=$1 rounds=$2 run=$3 arm=$4 disarm=${5:-true} m0 m1 m2 m3 ko=$SL_KO
	local -a none=() idle=() armed=() base=()
	for _ in $(seq 1 "$rounds"); do
		none+=("$(bench_ns $run)")
		# shellcheck disable=SC2086 # BENCH_LOAD: words of parameters
		sl_load ${BENCH_LOAD:-}
		idle+=("$(bench_ns $run)")
		$arm
		armed+=("$(bench_ns $run)")
		$disarm
		sl_unload
		if [ -s "${SL_KO_BASE:-}" ]; then
			SL_KO=$SL_KO_BASE
			sl_load
			# a pipeline the baseline does not have: no baseline case
			if $arm 2>/dev/null; then
				base+=("$(bench_ns $run)")
				$disarm
			fi
			sl_unload
			SL_KO=$ko
		fi
	done
	m0=$(median "${none[@]}")
	m1=$(median "${idle[@]}")
	m2=$(median "${armed[@]}")
	echo "rounds: none ${none[*]} | idle ${idle[*]} | armed ${armed[*]}"
	echo "STACKLAT-BENCH $name kernel=$KERNEL rounds=$rounds no_module_ns=$m0 loaded_idle_ns=$m1 armed_ns=$m2"
	awk -v a="$m2" -v b="$m1" -v c="$m0" -v k="$KERNEL" -v n="$name" 'BEGIN {
		printf "STACKLAT-BENCH %s kernel=%s cost_per_op_ns=%.1f ratio_armed_vs_idle=%.2f ratio_idle_vs_none=%.3f\n", n, k, a - b, a / b, b / c
	}'
	[ ${#base[@]} -gt 0 ] || return 0
	m3=$(median "${base[@]}")
	echo "rounds: baseline armed ${base[*]}"
	awk -v a="$m2" -v d="$m3" -v b="$m1" -v k="$KERNEL" -v n="$name" 'BEGIN {
		r = 0
		if (d - b > 0)
			r = (a - b) / (d - b)
		printf "STACKLAT-BENCH %s kernel=%s baseline_armed_ns=%s baseline_cost_per_op_ns=%.1f ratio_cost_vs_baseline=%.2f\n", n, k, d, d - b, r
	}'
}
