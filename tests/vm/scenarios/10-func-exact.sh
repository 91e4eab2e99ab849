#!/bin/bash
# kernels: all
# One real probe end to end: the func pipeline on the getppid syscall,
# driven exactly N times per thread from user space on both vCPUs.  The
# count must be exactly N * threads in debugfs, in the tool's table and in
# its JSON, and the hook must say it is armed with as many hits.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

N=5000
T=2
SYM=__x64_sys_getppid
SPIN=$SL_REPO/tests/vm/helpers/sl-spin

sl_load
echo "func add $SYM" > "$SL_DBG/control"
echo "enable func" > "$SL_DBG/control"
ret_kind
grep -q "hook $SYM *armed *$RK" "$SL_DBG/status" || fail "hook not armed: $(grep "hook $SYM" "$SL_DBG/status")"

# sl-spin sets "filter func tgid=<itself>" before its threads start
"$SPIN" -n $N -t $T -f "$SL_DBG/control"

dbg=$(awk -v s=$SYM '$1 == s { print $2 }' "$SL_DBG/func")
assert_eq "debugfs count" $((N * T)) "$dbg"

hits=$(grep "hook $SYM" "$SL_DBG/status" | sed -n 's/.*hits=\([0-9]*\).*/\1/p')
assert_eq "hook hits" $((N * T)) "$hits"

json=$("$SL_TOOL" show -j func)
nl=$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])
objs = d if isinstance(d, list) else [d]
for o in objs:
    for p in ([o] if "stages" in o else o.get("pipelines", [])):
        for s in p["stages"]:
            if s["name"] == sys.argv[2]:
                print(s["count"])
' "$json" "$SYM")
assert_eq "netlink count" $((N * T)) "$nl"

grep -q "^ *$SYM *$((N * T)) " <<<"$("$SL_TOOL" show func)" || fail "tool table lacks count $((N * T)): $("$SL_TOOL" show func)"

# percentiles are sane: p50 <= p99 <= max, min <= p50
python3 - "$json" "$SYM" <<'PY' || fail "percentiles out of order"
import json, sys
d = json.loads(sys.argv[1])
objs = d if isinstance(d, list) else [d]
for o in objs:
    for p in ([o] if "stages" in o else o.get("pipelines", [])):
        for s in p["stages"]:
            if s["name"] == sys.argv[2]:
                assert s["min_ns"] <= s["p50_ns"] <= s["p90_ns"] <= s["p99_ns"] <= s["max_ns"], s
                assert s["min_ns"] > 0
PY
pass "func count exact: $((N * T)) in debugfs, hits and netlink"
