#!/bin/bash
# kernels: all
# Concurrent updates from both vCPUs while readers hammer debugfs and
# netlink: per-CPU histograms lose no count, and nothing is reported lost.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

N=20000
sl_load
echo "func add __x64_sys_getppid" > "$SL_DBG/control"
echo "enable func" > "$SL_DBG/control"
(
	while :; do
		cat "$SL_DBG/status" "$SL_DBG/func" "$SL_DBG/hist/func" >/dev/null
		"$SL_TOOL" show func >/dev/null
	done
) &
reader=$!
"$SL_REPO/tests/vm/helpers/sl-spin" -n $N -t 2 -f "$SL_DBG/control"
kill $reader; wait $reader 2>/dev/null || true
count=$(awk '$1 == "__x64_sys_getppid" { print $2 }' "$SL_DBG/func")
assert_eq "count after concurrent updates and reads" $((2 * N)) "$count"
grep -q "table_full=0 stale=0 bad_delta=0 unmatched=0" <<<"$(grep -A3 "^pipeline func" "$SL_DBG/status")" || fail "losses reported: $(grep -A3 '^pipeline func' "$SL_DBG/status")"
nmissed=$(sed -n '/^pipeline func/,/^pipeline/ s/^  \(hook __x64_sys_getppid\|fprobe:\) .*nmissed=\([0-9]*\).*/\2/p' "$SL_DBG/status" | awk '{ t += $1 } END { print t + 0 }')
assert_eq "nmissed (the hook's and the pipeline's fprobe)" 0 "$nmissed"
pass "2 vCPUs x $N updates under concurrent readers: exact"
