#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A test of the checker, not of the module: builds stacklat with a leak
# planted on purpose (-DSL_PLANT_LEAK: one 4 KiB kmalloc at load, never
# freed), runs 00-boot on the debug kernel (6.1-debug, kmemleak) and
# passes only if guest-run.sh's verdict "kmemleak" FAILs and names
# stacklat.  Run once, by hand or `make check-kmemleak`; the debug kernel
# takes 20-40 minutes to build when it is not cached.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/out/6.1-debug/results.log
SL_KCFLAGS=-DSL_PLANT_LEAK VM_JOBS=1 SCENARIOS=00 "$here/run.sh" 6.1-debug
if grep -q "^STACKLAT-RESULT kmemleak FAIL .*suspected leaks involve stacklat" "$out"; then
	echo "kmemleak-selftest: PASS the planted leak was caught: $(grep '^STACKLAT-RESULT kmemleak' "$out")"
	exit 0
fi
echo "kmemleak-selftest: FAIL the planted leak was not caught: $(grep '^STACKLAT-RESULT kmemleak' "$out" || echo 'no kmemleak verdict')"
exit 1
