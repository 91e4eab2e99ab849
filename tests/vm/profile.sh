#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profile.sh CASE [KERNEL]   (make profile PROFILE=CASE BENCH_KERNEL=...)
#
# Where a bench case's guest instructions go, per function: boots KERNEL
# (6.1 by default) with the TCG plugin prof/tbprof.c, runs CASE (func,
# net, net-s16, storage, storage-s16, block, syscalls or syscalls-s16:
# prof/cases.sh, the benches' workloads) once with
# its pipelines enabled, and puts the plugin's per-block counts on the
# guest's functions (from its /proc/kallsyms).  With BENCH_BASE=REV, a
# second boot does the same with REV's module, shown beside it.  Counts
# are per operation (20000 operations); the
# module's functions are the case's alone, the kernel's include the boot
# (their differences above the threshold are shown, flagged).
# PROFILE_LINES="fn ..." (make profile PROFILE_LINES=...) also splits those
# functions of the working copy's module by translation block, each with
# its source line and the lines it was inlined from (addr2line -i).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
case=${1:?usage: profile.sh CASE [KERNEL]}
k=${2:-6.1}
cache=$here/.cache
out=$here/out/$k
so=$cache/tbprof.so
mkdir -p "$cache"
gcc -O2 -shared -fPIC -Wall -Wextra -o "$so" "$here/prof/tbprof.c"
runs=(new)
[ -z "${BENCH_BASE:-}" ] || runs+=(base)
for which in "${runs[@]}"; do
	SL_PROF="$case,$which" VM_PLUGIN="$so,out=$cache/prof-$which.tb" \
		SL_BUILD_DEBUG=1 "$here/run.sh" --profile "$k"
	grep -a '^\[cases\] KSYM ' "$out/results.log" | cut -d' ' -f3- > "$cache/prof-$which.ksyms"
	mv "$cache/prof-$which.tb" "$cache/prof-$which.ksyms" "$out/"
	# the module the counts are of, for PROFILE_LINES (the build dir is reused)
	[ "$which" != new ] || cp "$cache/build/$k/stacklat.ko" "$out/prof-new.ko"
done
python3 "$here/prof/report.py" "$out" 20000 "${runs[@]}"
