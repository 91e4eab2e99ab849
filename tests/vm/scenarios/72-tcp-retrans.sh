#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: all
# tcpretrans: retransmissions by kind, each a sample of the time since
# the segment was last sent.  In a namespace of its own, on its loopback
# (MTU 1500):
#  - netem loss 5 % on bulk transfers: the kinds add up to the sum of
#    all sockets' tcpi_total_retrans exactly (read with nothing
#    retransmitted between the two), and some are fast retransmits;
#  - a peer blackholed after the handshake, across a veth pair into a
#    second namespace whose nftables drop what comes in for the port (no
#    tail loss probes): every retransmission is "rto", as many as the socket's
#    tcpi_total_retrans and tcpi_backoff and as the kernel's own
#    TcpRetransSegs (/proc/net/snmp of the namespace) moved, and the
#    backoff shows: the last
#    came 2^(n-1) times as long after its predecessor as the first after
#    the original;
#  - a connect into a blackhole (netem loss 100 % on the loopback): the
#    SYN retransmissions, 1 s then 2 s
#    after the previous SYN, as many as tcpi_total_retrans;
#  - the per-remote-port stages hold them all;
#  - stacks at the point (stacks tcpretrans on) during the blackhole: each
#    RTO retransmission's line has its stack, from the retransmit timer,
#    and the pipeline's stack table counts them all;
#  - with "threshold tcpretrans all", one line per retransmission of the
#    blackholed and the connecting socket: kind, the 4-tuple, state,
#    no process (the timer's), the socket's count with it (1, 2, ...:
#    tcpi_total_retrans, which the kernel adds to before the tracepoint)
#    and its RTO doubling from line to line, as the kernel doubles it.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

TR=$SL_REPO/tests/vm/helpers/tcpretrans.py
NS=slr NS2=slr2 NRTO=4
trap 'ip netns del $NS 2>/dev/null || true; ip netns del $NS2 2>/dev/null || true' EXIT

# the helper's failure, with its last words, as the verdict
helper_failed() {
	cat /tmp/sl-tr.err >&2
	fail "tcpretrans.py $1 failed: $(tail -n 2 /tmp/sl-tr.err | tr '\n' ' ')"
}
# js JSON FILTER: a jq filter over the JSON (python3 took 0.5-5 s to start
# under the hogs of 74 and 75, for each value)
js() { jq -r "$2" <<<"$1"; }
stage() {
	python3 - "$("$SL_TOOL" show -j tcpretrans)" "$1" "$2" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
d = d["pipelines"] if isinstance(d, dict) and "pipelines" in d else d
d = d if isinstance(d, list) else [d]
st = {s["name"]: s for x in d if x["pipeline"] == "tcpretrans" for s in x["stages"]}
print(st.get(sys.argv[2], {}).get(sys.argv[3], 0))
PY
}

# lines KIND LPORT RPORT STATE N [LADDR RADDR]: the tcpretrans lines
# waiting (read, so consumed) are N, each of KIND from LADDR:LPORT to
# RADDR:RPORT (127.0.0.1 both by default) in STATE, from no process, with
# retrans 1..N in order; sets RTOS to their rto_us values
lines() {
	local out bad
	# in time order: the rings are per CPU and a reader takes from each
	# in turn, so a retransmission on another CPU than the next ones
	# comes out of order (6.12 in a make check: the first RTO's line last)
	out=$("$SL_TOOL" events -n "$(($5 + 1))" -d 2 tcpretrans 2>/dev/null | sort -n -k1,1) || true
	echo "$out"
	assert_eq "$1 lines" "$5" "$(grep -c ' tcpretrans ' <<<"$out" || true)"
	bad=$(awk -v k="$1" -v l="$2" -v r="$3" -v st="$4" -v la="${6:-127.0.0.1}" -v ra="${7:-127.0.0.1}" '
		{ delete f; for (i = 6; i <= NF; i++) { split($i, a, "="); f[a[1]] = a[2] } }
		!((k in f) && f["sport"] == l && f["dport"] == r && f["saddr"] == la &&
		  f["daddr"] == ra && f["state"] == st && $2 == "-" && $3 == "0/0" &&
		  f["retrans"] == NR) { print "line " NR ": " $0 }' <<<"$out")
	[ -z "$bad" ] || fail "$1 lines: not the socket's: $bad"
	RTOS=$(awk '{ for (i = 6; i <= NF; i++) if ($i ~ /^rto_us=/) { sub("rto_us=", "", $i); printf "%s ", $i } }' <<<"$out")
	LINES=$out
}

# RetransSegs of the namespace's /proc/net/snmp: the kernel's own count
retrans_segs() {
	ip netns exec $NS awk '$1 == "Tcp:" && !c { for (i = 2; i <= NF; i++) if ($i == "RetransSegs") c = i; next }
		$1 == "Tcp:" { print $c }' /proc/net/snmp
}

sl_modprobe sch_netem
sl_modprobe veth
sl_modprobe nf_tables
ip netns add $NS
ip -n $NS link set lo mtu 1500
# TCP hands the qdisc GSO packets of up to 64 KiB whatever lo's features
# say (TCP sockets always have GSO): netem draws its loss per packet, a few
# dozen per 2 MB transfer, and about one transfer in ten loses nothing
# (tcpi_total_retrans 0 on 5.10, 6.12 and 7.3 in CI runs).  The helper
# therefore transfers again, on another connection, until one retransmitted.
ip -n $NS link set lo up
sl_load
ctl enable tcpretrans

note "netem loss 5% on 2 MB transfers"
ip netns exec $NS tc qdisc add dev lo root netem loss 5%
ctl reset
out=$(python3 "$TR" $NS bulk 7201 2000000 2>/tmp/sl-tr.err) ||
	helper_failed bulk
echo "$out"
ip netns exec $NS tc qdisc del dev lo root
cat "$SL_DBG/tcpretrans"
grep -A8 "^pipeline tcpretrans" "$SL_DBG/status"
tot=$(js "$out" '.total_retrans')
assert_range "retransmissions (tcpi_total_retrans of all sockets)" 1 100000 "$tot"
assert_eq "unmatched" 0 "$(lost tcpretrans unmatched)"
assert_eq "kinds counted = tcpi_total_retrans" "$tot" "$(js "$out" '[.kinds[]] | add // 0')"
# Which kinds the losses produce is netem's draw, not a kernel guarantee:
# on 6.12 lo's GSO packets made one run lose only a SYN-ACK (1 synack, 0
# fast).  The exact checks are the sums above and below; the kinds are shown.
note "fast retransmits: $(js "$out" '.kinds.fast') of $tot"
assert_eq "7201.retrans (the client's) + the server's port" "$tot" "$(js "$out" '[.ports[]] | add // 0')"
xfers=$(js "$out" '.transfers')
bulk_kinds=$(js "$out" '.kinds | to_entries | sort_by(.key) | map("\(.key)=\(.value)") | join(" ")')

note "a peer across a veth pair blackholed by its nftables after the handshake, no tail loss probe"
ip netns add $NS2
ip link add sl72a netns $NS type veth peer name sl72b netns $NS2
ip -n $NS addr add 10.72.0.1/24 dev sl72a
ip -n $NS2 addr add 10.72.0.2/24 dev sl72b
ip -n $NS link set sl72a up
ip -n $NS2 link set sl72b up
ip netns exec $NS sysctl -qw net.ipv4.tcp_early_retrans=0
ctl reset
ctl threshold tcpretrans all
ctl stacks tcpretrans on
rs0=$(retrans_segs)
out=$(python3 "$TR" $NS blackhole 7202 $NRTO $NS2 10.72.0.2 2>/tmp/sl-tr.err) ||
	helper_failed blackhole
echo "$out"
cat "$SL_DBG/tcpretrans"
n=$(js "$out" '.total_retrans')
lines rto "$(js "$out" '.lport')" 7202 ESTAB "$n" 10.72.0.1 10.72.0.2
# the RTO each line shows is the one its timer ran with: the kernel
# doubles it after each (tcp_retransmit_timer: icsk_rto << 1), exactly
read -ra r <<<"$RTOS"
for ((i = 1; i < ${#r[@]}; i++)); do
	assert_eq "line $((i + 1))'s rto_us (twice line $i's)" $((r[i - 1] * 2)) "${r[i]}"
done
assert_eq "RTO retransmissions" $NRTO "$n"
# nothing else in the namespace sends meanwhile (no tail loss probe, the
# peer never received the data: it sends nothing)
assert_eq "TcpRetransSegs moved by (the kernel's own count)" "$n" $(($(retrans_segs) - rs0))
# Before 5.14 the x86 unwinder stops at a kretprobe's trampoline (5.14
# taught it to step over one: kretprobe_find_ret_addr, or on rethook
# rethook_find_ret_addr): tcpretrans's own
# return point on tcp_retransmit_skb ends the stack there, exactly
want='tcp_retransmit_timer\+0x[0-9a-f]+(;|$)'
grep -qE ' (kretprobe|rethook)_find_ret_addr$' /proc/kallsyms ||
	want='tcp_retransmit_skb\+0x[0-9a-f]+;kretprobe_trampoline\+0x0$'
assert_eq "lines with the retransmit timer's stack" "$n" \
	"$(grep -cE " stack=([^ ]*;)?$want" <<<"$LINES" || true)"
assert_eq "stacks counted (stacks show)" "$n" \
	"$("$SL_TOOL" stacks show | awk '$1 == "stack" && $3 == "tcpretrans" { sub("count=", "", $4); n += $4 } END { print n + 0 }')"
ctl stacks tcpretrans off
assert_eq "rto = tcpi_total_retrans" "$n" "$(js "$out" '.kinds.rto')"
assert_eq "tcpi_backoff" "$n" "$(js "$out" '.backoff')"
assert_eq "other kinds" 0 "$(js "$out" '([.kinds[]] | add // 0) - .kinds.rto')"
assert_eq "7202.retrans" "$n" "$(js "$out" '.ports["7202.retrans"]')"
"$SL_TOOL" hist tcpretrans rto
mn=$(stage rto min_ns)
mx=$(stage rto max_ns)
# the kernel doubles the RTO exactly (icsk_rto << 1); each timer fires no
# earlier than asked and, from the timer wheel, at most 1/8 later
assert_range "backoff: last / first interval (2^$((n - 1)))" \
	"$(awk "BEGIN { print 2 ^ ($n - 1) / 1.125 }")" "$(awk "BEGIN { print 2 ^ ($n - 1) * 1.125 }")" \
	"$(awk "BEGIN { print $mx / $mn }")"

note "a connect into the blackhole: SYN retransmissions"
# 6.5+ retransmits the first SYNs at a fixed interval
# (tcp_syn_linear_timeouts, 4 by default): the exponential backoff here
if [ -e /proc/sys/net/ipv4/tcp_syn_linear_timeouts ]; then
	ip netns exec $NS sysctl -qw net.ipv4.tcp_syn_linear_timeouts=0
fi
ip netns exec $NS tc qdisc add dev lo root netem loss 100%
ctl reset
out=$(python3 "$TR" $NS syn 7203 2 2>/tmp/sl-tr.err) ||
	helper_failed syn
echo "$out"
ip netns exec $NS tc qdisc del dev lo root
cat "$SL_DBG/tcpretrans"
s=$(js "$out" '.total_retrans')
lines syn "$(js "$out" '.lport')" 7203 SYN-SENT "$s"
assert_eq "lines suppressed" 0 "$(lost tcpretrans suppressed)"
ctl threshold tcpretrans 0
# SYNs at 0, 1 s and 3 s (initial RTO 1 s, doubled); a jiffies timer may
# fire up to one jiffy (4 ms at HZ=250) before the exact instant of the
# send it was armed after, and at most 1/8 late (the timer wheel)
assert_eq "SYN retransmissions" 2 "$s"
assert_eq "syn = tcpi_total_retrans" "$s" "$(js "$out" '.kinds.syn')"
assert_range "first SYN retransmission after (s)" 0.996 1.125 "$(awk "BEGIN { print $(stage syn min_ns) / 1e9 }")"
assert_range "second SYN retransmission after (s)" 1.996 2.25 "$(awk "BEGIN { print $(stage syn max_ns) / 1e9 }")"
ctl disable tcpretrans
sl_unload
pass "loss 5%: $tot retransmissions in $xfers transfer(s) = tcpi_total_retrans ($bulk_kinds); blackhole: $n RTO = backoff, intervals $(awk "BEGIN { printf \"%.0f..%.0f\", $mn / 1e6, $mx / 1e6 }") ms, $n lines with the 4-tuple, RTO ${r[0]}..${r[-1]} us; $s SYN retransmissions at 1 s and 2 s, $s lines"
