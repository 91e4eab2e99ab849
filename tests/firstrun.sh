#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# firstrun.sh: what a new user does first.  Clones HEAD of this repository
# into a scratch directory (no tests/vm/.cache, nothing built, no kernel
# fetched) and runs the README's two commands there, on their cheap paths:
#
#   make demo
#   make check KERNELS=6.1 SCENARIOS=00 CHECK_EXTRAS= CHECK_TAIL=
#
# Each must exit 0.  Only committed work is tested (it is a clone).  The
# scratch directory goes at the end; FIRSTRUN_KEEP=1 keeps it.  Output and
# per-command times go to tests/vm/out/firstrun/.  FIRSTRUN_CHECK=0: make
# demo only (make check's own run: CI is make check on a fresh clone).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=$repo/tests/vm/out/firstrun
mkdir -p "$out"
rm -f "$out"/*.log
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stacklat-firstrun.XXXXXX")
# shellcheck disable=SC2317  # (called from the trap)
cleanup() {
	[ "${FIRSTRUN_KEEP:-0}" = 1 ] || rm -rf "$tmp"
}
trap cleanup EXIT
git clone -q "$repo" "$tmp/stacklat"
cd "$tmp/stacklat"
echo "firstrun: fresh clone of $(git log -1 --format=%h) in $tmp/stacklat"

fail=0
run() { # run NAME CMD...: CMD must exit 0
	local name=$1 t0=$SECONDS rc=0
	shift
	"$@" > "$out/$name.log" 2>&1 || rc=$?
	if [ $rc = 0 ]; then
		echo "firstrun: '$*' exited 0 ($((SECONDS - t0))s)"
	else
		echo "firstrun: FAIL '$*' exited $rc ($((SECONDS - t0))s): see $out/$name.log"
		tail -n 5 "$out/$name.log" | sed 's/^/firstrun:   /'
		fail=1
	fi
}
run demo make demo
if [ "${FIRSTRUN_CHECK:-1}" = 1 ]; then
	run check make check KERNELS=6.1 SCENARIOS=00 CHECK_EXTRAS= CHECK_TAIL=
	[ $fail = 0 ] && echo "firstrun: both commands exit 0 on a fresh clone"
else
	[ $fail = 0 ] && echo "firstrun: make demo exits 0 on a fresh clone"
fi
exit $fail
