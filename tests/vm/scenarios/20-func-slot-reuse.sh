#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 6.12 7.3
# (6.12 runs return points on the fprobe, which keeps a deleted function
# until the pipeline is disabled: the case this checks; 7.3 on
# kretprobes, whose unregistration drops the calls in flight: the same
# counts must hold there, with nothing orphaned.)
#
# A func slot reused while calls of its previous function are in flight:
# K sleepers block inside hrtimer_nanosleep (traced, in slot 0; another
# function in slot 1), the function is deleted and __x64_sys_getppid
# added - into slot 0, the first free - then sl-spin calls getppid
# exactly N times and the sleepers wake
# and return through the deleted function.  The new function's stage
# holds exactly its own N calls (hits N, max far below the sleep); on the
# fprobe the K returns are counted "orphaned", not recorded.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

K=4
N=2000
SLEEP=6
OLD=hrtimer_nanosleep
FILL=__x64_sys_getpgid
NEW=__x64_sys_getppid
SPIN=$SL_REPO/tests/vm/helpers/sl-spin

sl_load
ctl "func add $OLD"
ctl "func add $FILL"
ctl enable func
ret_kind
grep -q "hook $OLD *armed *$RK" "$SL_DBG/status" ||
	fail "hook not armed on $RK: $(grep "hook $OLD" "$SL_DBG/status")"
sleepers=()
for _ in $(seq $K); do
	sleep $SLEEP &
	sleepers+=($!)
done
# every sleeper inside the function: its entry passed (hits K)
for _ in $(seq 100); do
	h=$(hits func $OLD)
	[ "${h:-0}" -ge $K ] && break
	sleep 0.1
done
assert_range "$OLD entries (the sleepers)" $K $((K + 100)) "$(hits func $OLD)"
ctl "func del $OLD"
ctl "func add $NEW"
# the first free slot, the one $OLD left, before $FILL's (status lists
# the slots in order)
sed -n '/^pipeline func:/,/^$/p' "$SL_DBG/status" | grep "hook "
order=$(sed -n '/^pipeline func:/,/^$/ s/^  hook \([^ ]*\) .*/\1/p' "$SL_DBG/status" | tr '\n' ' ')
assert_eq "the slots in order" "$NEW $FILL " "$order"
# sl-spin sets "filter func tgid=<itself>" before its threads start
"$SPIN" -n $N -t 1 -f "$SL_DBG/control" > /dev/null
for p in "${sleepers[@]}"; do
	wait "$p"
done
sleep 0.5
cat "$SL_DBG/func"
grep -A4 "^pipeline func:" "$SL_DBG/status" | grep "lost:"
assert_eq "$NEW count" $N "$(cnt func $NEW)"
assert_eq "$NEW hits" $N "$(hits func $NEW)"
max=$("$SL_TOOL" show -j func | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d["pipelines"] if isinstance(d, dict) and "pipelines" in d else d
d = d if isinstance(d, list) else [d]
print([s for p in d for s in p["stages"] if s["name"] == sys.argv[1]][0]["max_ns"])' $NEW)
# a getppid call takes microseconds; a sleeper's return would be ~SLEEP s
assert_range "$NEW max (ns)" 1 $(((SLEEP - 1) * 1000000000)) "$max"
if [ "$RK" = fprobe ]; then
	want=$K
else
	want=0	# a kretprobe's unregistration drops its calls in flight
fi
assert_eq "func orphaned (the sleepers' returns)" $want "$(lost func orphaned)"
ctl disable func
sl_unload
pass "$K calls in flight in the deleted $OLD ($RK): $NEW in its slot holds exactly its $N calls, $want returns counted orphaned"
