#!/bin/bash
# kernels: any
#   one kernel: netlink and debugfs formatting one histogram; 10 counts the hook exactly on each kernel
# The netlink dump and the debugfs table agree: same count, and the same
# percentiles (debugfs rounds to three significant digits).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

sl_load
echo "func add __x64_sys_getppid" > "$SL_DBG/control"
echo "func add __x64_sys_getpid" > "$SL_DBG/control"
echo "enable func" > "$SL_DBG/control"
"$SL_REPO/tests/vm/helpers/sl-spin" -n 3000 -t 2 -f "$SL_DBG/control" >/dev/null
python3 - "$SL_DBG/func" "$("$SL_TOOL" show -j func)" <<'PY' || fail "debugfs and netlink disagree"
import json, re, sys
units = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
def ns(s):
    m = re.fullmatch(r"([0-9.]+)(ns|us|ms|s)", s)
    return float(m.group(1)) * units[m.group(2)]
rows = {}
for line in open(sys.argv[1]).read().splitlines()[1:]:
    f = line.split()
    rows[f[0]] = f
d = json.loads(sys.argv[2])
objs = d if isinstance(d, list) else [d]
seen = 0
for o in objs:
    for p in ([o] if "stages" in o else o.get("pipelines", [])):
        for s in p["stages"]:
            r = rows[s["name"]]
            assert int(r[1]) == s["count"], (r, s)
            for col, key in ((3, "p50_ns"), (4, "p90_ns"), (5, "p99_ns"), (6, "p999_ns"), (7, "max_ns")):
                v = ns(r[col])
                assert abs(v - s[key]) <= 0.01 * s[key] + 1, (col, r[col], s[key])
            # the per-cgroup stages (cg<ID>.total) agree too; two are functions'
            seen += not re.fullmatch(r"cg(\d+|-other)\.total", s["name"])
assert seen == 2, seen
assert rows["__x64_sys_getppid"][1] == "6000", rows
PY
pass "netlink and debugfs agree on counts and percentiles"
