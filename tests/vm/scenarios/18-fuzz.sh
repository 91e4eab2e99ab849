#!/bin/bash
# kernels: any
#   one kernel: the parsers fuzzed are the module's own (make fuzz: more messages, FUZZ_KERNELS)
# Fuzzing the two ways in: SL_FUZZ_NL generic-netlink messages and
# SL_FUZZ_CTL control-file writes (run.sh's SL_FUZZ=NL,CTL,SEED; `make
# check` runs a few thousand, `make fuzz` >= 100,000 and >= 20,000), seeded
# and reproducible (tests/fuzz/*.py, the oracle in stacklat_model.py).  No
# message the oracle says must be refused may be accepted, and the kernel
# log must stay clean (run.sh judges it; the console is kept quiet while
# the expected refusals are logged).
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

nl=${SL_FUZZ_NL:-2000}
ctl=${SL_FUZZ_CTL:-1000}
seed=${SL_FUZZ_SEED:-1}
fz=$SL_REPO/tests/fuzz
sl_load
dmesg -n 1
rc=0
t0=$SECONDS
out=$(python3 "$fz/nl_fuzz.py" -n "$nl" -s "$seed" 2>&1) || rc=1
echo "$out"
t1=$SECONDS
out2=$(python3 "$fz/ctl_fuzz.py" -n "$ctl" -s "$seed" 2>&1) || rc=1
echo "$out2"
dmesg -n 5
note "netlink $((t1 - t0)) s, control $((SECONDS - t1)) s"
# still alive and answering
"$SL_TOOL" status >/dev/null || fail "status after fuzzing"
echo "disable func" > "$SL_DBG/control"
sl_unload
summary="$(tail -n 1 <<<"$out"); $(tail -n 1 <<<"$out2")"
[ $rc = 0 ] || fail "$summary"
pass "$summary"
