#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# Spans with chains in flight (issue 27, safety): sl-span makes one round
# of getppid(2), a sleep of 3 s, getuid(2); the test acts while its
# thread sleeps (its /proc/PID/syscall is clock_nanosleep's):
#  - span del, then span add of the same name and points: the chain the
#    deleted span started is not the new one's: 0 samples once the round
#    ends (1 if the old chain were matched);
#  - a span whose TO is the sleep's own return (a kretprobe or the fprobe
#    with the call in flight): span del mid-sleep, the thread returns
#    normally, 0 samples; the same added again and the module removed
#    mid-sleep: the thread returns normally (exit 0), the kernel log stays
#    clean (checked after every scenario);
#  - one round with nothing done in between: exactly 1 sample of each, so
#    that the zeros above can fail.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

SP=$SL_REPO/tests/vm/helpers/sl-span
US=3000000
# go PID: once PID catches SIGUSR1, start it
go() {
	sl_wait_usr1 "$1"
	kill -USR1 "$1"
}
cnt_span() { awk -v s="$1" '$1 == s { print $2 }' "$SL_DBG/span"; }
KK="__x64_sys_getppid __x64_sys_getuid"
SLP="__x64_sys_clock_nanosleep __x64_sys_clock_nanosleep%return"

sl_load
echo "enable span" > "$SL_DBG/control"
"$SL_TOOL" span add kk $KK || fail "span add kk"
"$SL_TOOL" span add sl $SLP || fail "span add sl"

# ---- nothing done in between: 1 sample of each (the filter keeps
# sl-span's own, not the test's sleeps)
"$SP" 1 $US > /dev/null & P=$!
"$SL_TOOL" filter span tgid=$P
go $P
wait $P || fail "sl-span exited $?"
assert_eq "kk, one round" 1 "$(cnt_span kk)"
assert_eq "sl, one round" 1 "$(cnt_span sl)"

# ---- del and add again mid-round
"$SL_TOOL" reset span
"$SP" 1 $US > /dev/null & P=$!
"$SL_TOOL" filter span tgid=$P
go $P
sl_wait_asleep $P
"$SL_TOOL" span del kk || fail "span del kk mid-round"
"$SL_TOOL" span del sl || fail "span del sl mid-sleep"
"$SL_TOOL" span add kk $KK || fail "span add kk again"
wait $P || fail "sl-span exited $? after span del mid-sleep"
assert_eq "kk added again mid-round: the old chain not matched" 0 "$(cnt_span kk)"
assert_eq "sl: no row" "" "$(cnt_span sl)"

# ---- rmmod mid-sleep with the return point in flight
"$SL_TOOL" span add sl $SLP || fail "span add sl again"
"$SP" 1 $US > /dev/null & P=$!
"$SL_TOOL" filter span tgid=$P
go $P
sl_wait_asleep $P
sl_unload
wait $P || fail "sl-span exited $? after rmmod mid-sleep"
pass "one round: 1 sample of each span; del + add mid-round: 0 (old chain not matched); del and rmmod with a return point in flight: the thread returns (exit 0)"
