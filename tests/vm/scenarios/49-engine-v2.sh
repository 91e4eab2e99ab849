#!/bin/bash
# kernels: 5.10 6.1 6.12 7.3
# (not 6.1-rt: its hooks and fallbacks are 6.1's - 40-net-hooks and
# 52-storage-hooks check every hook armed the same way there; what
# PREEMPT_RT changes, preemptible handlers and threaded softirqs, is 10,
# 12, 13, 14, 42, 47, 57, 62, 64, 72, 74 and 75's)
# What the engine guarantees to every pipeline, on the network pipelines:
#
# 0. No histogram memory until a pipeline is first enabled.
# 1. Filters act at the first point that can read them.  With
#    "filter net_rx lport=7001", a flow to port 7002 over a veth pair
#    inserts nothing at all into the in-flight table (its packets are
#    excluded where the chain would start, at the driver), and a flow of N
#    requests to 7001 gives exactly N samples in driver->ip and total.
# 2. The gate opens after every hook is armed: net_rx and net_tx enabled
#    while loopback request/response traffic runs (twice) leave nothing
#    in flight once the traffic has ended - a chain started before the
#    points that end it were armed would wait there for the age sweep.
#    Where a point runs on a kprobe or kretprobe (5.10's entries, 6.1's
#    and 7.x's returns), a hit the kernel skips as nested inside another
#    probe's handler on its CPU (counted: nmissed) can leave the chain
#    whose end it was; so there, at most as many entries as hits missed.
# (3., breakdown slots recycled: 49-engine-v2-slots.)
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

N=60

inserts() { sed -n 's/^in-flight table: .* inserts \([0-9]*\),.*/\1/p' "$SL_DBG/status"; }
pipe_in_flight() { awk -v p="$1:" '$1 == p && $3 == "in" { print $2 }' "$SL_DBG/inflight"; }

# ---- 0. memory: histograms come with the first enable ----------------------
sl_load
mem=$(awk '$1 == "memory:" { s += $2 } END { print s + 0 }' "$SL_DBG/status")
assert_eq "KiB of histograms with no pipeline ever enabled" 0 "$mem"
ctl enable net_rx
assert_range "net_rx KiB of histograms once enabled" 1 100000 \
	"$(awk '/^pipeline net_rx:/ { p = 1 } p && $1 == "memory:" { print $2; exit }' "$SL_DBG/status")"
sl_unload

# ---- 1. early filters ---------------------------------------------------
trap veth_down EXIT
veth_up
sl_load
ctl filter net_rx clear lport=7001
ctl enable net_rx
sleep 1
i0=$(inserts)
run_pair slb sla tcp 10.9.0.2 7002 $N 100 rr
i1=$(inserts)
assert_eq "in-flight inserts by a flow the filter excludes" "$i0" "$i1"
assert_eq "net_rx samples of the excluded flow" 0 "$(cnt net_rx total)"
ctl reset
run_pair slb sla tcp 10.9.0.2 7001 $N 100 rr
check_rx $N "$CLI_RETRANS" veth1.total
note "early filter: 0 inserts for the excluded flow, $(cnt net_rx driver-\>ip) in driver->ip for $N requests"
ctl disable net_rx
sl_unload
veth_down

# ---- 2. gate after arming -----------------------------------------------
# The traffic must span the arming, or this checks nothing: rounds for
# about 20 s of each protocol at the rate a short calibration run of it
# measures (arming both pipelines has taken up to 12 s in a loaded
# emulated guest), and both clients must still be running once both
# pipelines are enabled; an attempt where they were not is redone with
# twice the rounds.
sl_load
rounds20() { # rounds20 PROTO PORT: rounds for ~20 s of PROTO
	local t0
	t0=$(date +%s%N)
	run_pair - - "$1" 127.0.0.1 "$2" 300 64 rr >&2
	echo $((300 * 20000000000 / ($(date +%s%N) - t0)))
}
ru=$(rounds20 udp 7100) && [ -n "$ru" ] || fail "gate: UDP calibration failed"
rt=$(rounds20 tcp 7099) && [ -n "$rt" ] || fail "gate: TCP calibration failed"
note "gate: $ru UDP and $rt TCP rounds (about 20 s each)"
entry_kind
ret_kind
checked=0
for attempt in 1 2 3 4 5 6; do
	m0=$(($(missed net_rx) + $(missed net_tx)))
	[ $checked -lt 2 ] || break
	server - udp 127.0.0.1 7101 "$ru" 64 rr
	server - tcp 127.0.0.1 7102 "$rt" 64 rr
	client - udp 127.0.0.1 7101 "$ru" 64 rr "g1-$attempt"
	client - tcp 127.0.0.1 7102 "$rt" 64 rr "g2-$attempt"
	sleep 0.5
	ctl enable net_rx
	ctl enable net_tx
	spanned=1
	for p in "${PIDS[@]}"; do
		kill -0 "$p" 2>/dev/null || spanned=0
	done
	wait_all
	# the last datagrams are read; closing sockets end the tx entries
	sleep 1
	rx=$(pipe_in_flight net_rx)
	tx=$(pipe_in_flight net_tx)
	m=$(($(missed net_rx) + $(missed net_tx) - m0))
	# every point on ftrace (6.12): nothing is skipped, nothing may stay
	[ "$EK:$RK" != ftrace:fprobe ] || [ "$m" = 0 ] ||
		fail "attempt $attempt: $m probe hits missed on ftrace and fprobe"
	if [ $((rx + tx)) -gt "$m" ]; then
		grep -v '^net_' "$SL_DBG/inflight" | head -3
		grep '^net_' "$SL_DBG/inflight" | head -8
		grep -E 'nmissed=[1-9]' "$SL_DBG/status" || true
		fail "attempt $attempt: $rx net_rx and $tx net_tx entries left in flight after enabling under traffic ($m probe hits missed)"
	fi
	[ "$m" = 0 ] || note "gate: attempt $attempt: $m probe hits missed, $((rx + tx)) entries left"
	ctl disable net_rx
	ctl disable net_tx
	if [ $spanned = 1 ]; then
		checked=$((checked + 1))
	else
		# arming outlasted the traffic: nothing was checked, twice as long
		note "gate: attempt $attempt: the traffic ended before both pipelines were armed; again with twice the rounds"
		ru=$((ru * 2))
		rt=$((rt * 2))
	fi
done
[ $checked = 2 ] || fail "gate: only $checked of 2 enables happened under traffic"
note "gate: 2 enables under loopback traffic, nothing left in flight"
sl_unload

pass "early filters: 0 in-flight inserts for an excluded flow, $N of $N for the selected; gate: 2 enables under traffic leave nothing in flight"
