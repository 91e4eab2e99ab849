#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# tcpaccept: a listener with listen(fd, 4) that does not accept while 10
# clients connect (50 ms apart), then accepts them all after WAIT seconds.
#  - the accept-queue depth a SYN found (a value histogram, unit "count")
#    reaches 5 and never more: the kernel queues one connection beyond the
#    backlog (sk_acceptq_is_full() is ack_backlog > backlog);
#  - overflows counted for the port equal the namespace's ListenOverflows
#    delta exactly, and there are some;
#  - exactly 10 handshakes (synq) and 10 accept-queue waits (acceptq);
#  - the longest accept-queue wait is the time the first client waited, as
#    the client and server saw it (client connect() return -> server
#    accept() return, CLOCK_MONOTONIC in both), within 100 ms: the
#    wake-ups of two Python threads under emulation, not a kernel bound;
#  - once accepted and closed, nothing is left in flight.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

TC=$SL_REPO/tests/vm/helpers/tcpconn.py
BL=4 NC=10 WAIT=1.5 PORT=7101

stage() {
	python3 - "$("$SL_TOOL" show -j "$1")" "$1" "$2" "$3" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
d = d["pipelines"] if isinstance(d, dict) and "pipelines" in d else d
d = d if isinstance(d, list) else [d]
st = {s["name"]: s for x in d if x["pipeline"] == sys.argv[2] for s in x["stages"]}
print(st.get(sys.argv[3], {}).get(sys.argv[4], 0))
PY
}

sl_load
ctl enable tcpaccept
ctl filter tcpaccept clear lport=$PORT
ctl reset
out=$(python3 "$TC" backlog 127.0.0.1 $PORT $BL $NC $WAIT)
echo "$out"
cat "$SL_DBG/tcpaccept"
grep "lost:" "$SL_DBG/status"
j() { python3 -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$out" "$1"; }

assert_eq "acceptq_depth unit" count "$(stage tcpaccept $PORT.acceptq_depth unit)"
assert_eq "acceptq unit" ns "$(stage tcpaccept $PORT.acceptq unit)"
assert_eq "accept-queue depth max (backlog + 1)" $((BL + 1)) "$(stage tcpaccept $PORT.acceptq_depth max_ns)"
arr=$(cnt tcpaccept $PORT.acceptq_depth)
assert_eq "SYN-queue depth samples (one per SYN, as acceptq_depth)" "$arr" "$(cnt tcpaccept $PORT.synq_depth)"
assert_range "SYN arrivals" $NC 1000 "$arr"
ov=$(j overflows)
assert_range "ListenOverflows" 1 1000 "$ov"
assert_eq "overflows counted (= ListenOverflows)" "$ov" "$(cnt tcpaccept $PORT.overflow)"
assert_eq "overflow depth max" $((BL + 1)) "$(stage tcpaccept $PORT.overflow max_ns)"
assert_eq "handshakes (synq)" $NC "$(cnt tcpaccept $PORT.synq)"
assert_eq "accept-queue waits (acceptq)" $NC "$(cnt tcpaccept $PORT.acceptq)"
kmax=$(stage tcpaccept $PORT.acceptq max_ns)
first=$(j first_wait)
pmax=$(j max_wait)
note "longest accept-queue wait ${kmax} ns; the first client waited ${first} s, the longest ${pmax} s"
assert_range "longest accept-queue wait (s)" "$(awk "BEGIN { print $first - 0.1 }")" \
	"$(awk "BEGIN { print $pmax + 0.1 }")" "$(awk "BEGIN { print $kmax / 1e9 }")"
assert_range "first client's wait covers WAIT (s)" $WAIT 30 "$first"
sleep 0.2
assert_eq "in flight after the traffic" 0 "$(in_flight)"
assert_eq "stale" 0 "$(lost tcpaccept stale)"

note "the tool prints depths as counts"
"$SL_TOOL" show tcpaccept | tee /tmp/sl-71.show
grep -Eq "^$PORT\.acceptq_depth +$arr .* $((BL + 1))\$" /tmp/sl-71.show ||
	fail "tool table: no plain count max $((BL + 1)) for $PORT.acceptq_depth"
"$SL_TOOL" hist tcpaccept $PORT.acceptq_depth
ctl disable tcpaccept
sl_unload
pass "listen($BL) + $NC clients: depth max $((BL + 1)), $ov overflows = ListenOverflows, $NC handshakes and accept waits, longest wait $(awk "BEGIN { printf \"%.3f\", $kmax / 1e9 }")s (first client ${first}s)"
