#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2086  # stage lists are split into words on purpose
# Sourced by the network scenarios (4x-net-*.sh) after lib.sh: reading the
# module's counters, a veth pair between two namespaces, and request /
# response traffic from helpers/netgen.py with its retransmissions known.
#
# TCP under software emulation can take long enough to acknowledge that
# the sender probes (tail loss probe) or retransmits.  Tail loss probes
# are switched off in every namespace the tests use (tcp_early_retrans=0);
# what is still retransmitted is counted per socket (tcpi_total_retrans,
# printed by netgen.py) and the assertions account for it exactly.

NETGEN=$SL_REPO/tests/vm/helpers/netgen.py
RX_STAGES="driver->ip ip->transport transport->socket socket->app"
TX_TCP_STAGES="app->tcp tcp->ip ip->dev_queue qdisc driver"
TX_UDP_STAGES="udp->ip ip->dev_queue qdisc driver"

ctl() { echo "$*" > "$SL_DBG/control" || fail "control: '$*' refused"; }

# cnt PIPE STAGE: the stage's count in the debugfs table (0 if absent)
cnt() {
	local c
	c=$(awk -v s="$2" '$1 == s { print $2 }' "$SL_DBG/$1")
	echo "${c:-0}"
}

# lost PIPE KIND: a loss counter from the status file
lost() {
	awk -v p="$1" -v k="$2" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == p && $1 == "lost:" { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) print a[2] } }' "$SL_DBG/status"
}

# hits PIPE HOOK: the hook's hit count
hits() {
	awk -v p="$1" -v h="$2" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == p && $1 == "hook" && $2 == h { for (i = 3; i <= NF; i++) if ($i ~ /^hits=/) { sub("hits=", "", $i); print $i } }' "$SL_DBG/status"
}

# hook PIPE HOOK: "state kind target" of a hook
hook() {
	awk -v p="$1" -v h="$2" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == p && $1 == "hook" && $2 == h { s = $3; i = 4; if ($3 == "not") { s = s " " $4; i = 5 }
			print s, $i, $(i + 1) }' "$SL_DBG/status"
}

# in_flight: entries in use in the in-flight table
in_flight() { sed -n 's/^in-flight table: \([0-9]*\)\/.*/\1/p' "$SL_DBG/status"; }

# missed PIPE: hits the kernel could not deliver to the pipeline's probes
# (kprobe reentrancy, kretprobe instances), summed over its hooks and its
# fprobe
missed() {
	awk -v p="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == p && ($1 == "hook" || $1 == "fprobe:") { for (i = 3; i <= NF; i++) if ($i ~ /^nmissed=/) { sub("nmissed=", "", $i); m += $i } }
		END { print m + 0 }' "$SL_DBG/status"
}

# expect PIPE N STAGES...: every stage has exactly N samples - or, when the
# kernel reports M missed probe hits on the pipeline (a kprobe that fired
# inside another probe's handler on the same CPU is skipped and counted),
# between N - M and N: a missed point leaves its two stages without that
# sample, and nothing else.
expect() {
	local p=$1 n=$2 s m
	shift 2
	m=$(missed "$p")
	[ "$m" = 0 ] || note "$p: $m probe hits missed (reported by the kernel)"
	for s in "$@"; do
		if [ "$m" = 0 ]; then
			assert_eq "$p $s" "$n" "$(cnt "$p" "$s")"
		else
			assert_range "$p $s" $((n > m ? n - m : 0)) "$n" "$(cnt "$p" "$s")"
		fi
	done
}

# expect_r PIPE N R STAGES...: N samples plus at most the R segments
# retransmitted (exactly N when nothing was)
expect_r() {
	local p=$1 n=$2 r=$3 s m
	shift 3
	m=$(missed "$p")
	for s in "$@"; do
		assert_range "$p $s" $((n > m ? n - m : 0)) $((n + r)) "$(cnt "$p" "$s")"
	done
}

# expect_lost PIPE KIND N: a loss counter is N, or N - M .. N when the
# kernel reports M missed probe hits on the pipeline (see expect)
expect_lost() {
	local m
	m=$(missed "$1")
	if [ "$m" = 0 ]; then
		assert_eq "$1 $2" "$3" "$(lost "$1" "$2")"
	else
		assert_range "$1 $2 ($m probe hits missed)" $(($3 > m ? $3 - m : 0)) "$3" "$(lost "$1" "$2")"
	fi
}

# sums_match PIPE STAGES...: the total is the sum of the stages, to the ns
# (true when every sample has every point: no retransmission, no drop)
sums_match() {
	if [ "$(missed "$1")" != 0 ]; then
		note "$1: probe hits were missed, a sample may lack a stage: total vs sum not checked"
		return 0
	fi
	python3 - "$("$SL_TOOL" show -j "$1")" "$@" <<'PY' || fail "$1: total is not the sum of its stages"
import json, sys
d = json.loads(sys.argv[1])
d = d["pipelines"] if isinstance(d, dict) else d
st = {s["name"]: s for x in d if x["pipeline"] == sys.argv[2] for s in x["stages"]}
parts = sys.argv[3:]
tot, sm = st["total"]["sum_ns"], sum(st[n]["sum_ns"] for n in parts)
print("%s: total %d ns = %s; avg %s" % (sys.argv[2], tot, "+".join(parts),
      " ".join("%s=%dus" % (n, st[n]["avg_ns"] // 1000) for n in parts + ["total"])))
assert tot == sm, (tot, sm)
PY
}

# no tail loss probes in the namespace (NS or - for the initial one)
no_tlp() {
	if [ "$1" = - ]; then
		sysctl -qw net.ipv4.tcp_early_retrans=0
	else
		ip netns exec "$1" sysctl -qw net.ipv4.tcp_early_retrans=0
	fi
}

# veth_up: namespaces sla (veth0 10.9.0.1 fd00::1) and slb (veth1
# 10.9.0.2 fd00::2); optional ifindexes for veth0 and veth1
veth_down() {
	ip netns del sla 2>/dev/null || true
	ip netns del slb 2>/dev/null || true
}
veth_up() {
	local idx0=() idx1=() ns
	[ -z "${1:-}" ] || idx0=(index "$1")
	[ -z "${2:-}" ] || idx1=(index "$2")
	sl_modprobe veth
	veth_down
	ip netns add sla
	ip netns add slb
	ip link add veth0 "${idx0[@]}" netns sla type veth peer name veth1 "${idx1[@]}" netns slb
	ip -n sla addr add 10.9.0.1/24 dev veth0
	ip -n slb addr add 10.9.0.2/24 dev veth1
	ip -n sla addr add fd00::1/64 dev veth0 nodad
	ip -n slb addr add fd00::2/64 dev veth1 nodad
	for ns in sla slb; do
		ip -n $ns link set lo up
		no_tlp $ns
	done
	ip -n sla link set veth0 up
	ip -n slb link set veth1 up
}

# in_ns NS CMD...: run CMD in namespace NS (- for the initial one)
in_ns() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}

# server NS PROTO ADDR PORT N SIZE [MODE]: start a server in the
# background (its pid in SERVER_PID), return once it listens
server() {
	local ns=$1 out=/tmp/sl-srv.$4
	shift
	rm -f "$out"
	in_ns "$ns" python3 "$NETGEN" server "$@" > "$out" &
	SERVER_PID=$!
	PIDS+=("$SERVER_PID")
	for _ in $(seq 200); do
		grep -q ready "$out" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "server $* did not start"
}
srv_pid() { awk '$1 == "ready" { print $2 }' "/tmp/sl-srv.$1"; }

# client NS PROTO ADDR PORTS COUNTS SIZE MODE TAG [GOFILE]: start a client
# in the background; with GOFILE, return once all its threads connected
client() {
	local ns=$1 out=/tmp/sl-cli.$8 want
	rm -f "$out"
	in_ns "$ns" python3 "$NETGEN" client "$2" "$3" "$4" "$5" "$6" "$7" ${9:+"$9"} > "$out" &
	PIDS+=($!)
	[ -n "${9:-}" ] || return 0
	want=$(($(tr -cd , <<<"$4" | wc -c) + 1))
	for _ in $(seq 200); do
		[ "$(grep -c '^tid ' "$out" 2>/dev/null)" = "$want" ] && return 0
		sleep 0.05
	done
	fail "client $* did not connect"
}
cli_pid() { awk '$1 == "pid" { print $2 }' "/tmp/sl-cli.$1"; }
cli_tid() { awk -v p="$2" '$1 == "tid" && $3 == p { print $2 }' "/tmp/sl-cli.$1"; }

# wait_all: wait for every server and client started, fail if one failed
wait_all() {
	local p
	for p in "${PIDS[@]}"; do
		wait "$p" || fail "a traffic process failed"
	done
	PIDS=()
}
PIDS=()

# retrans FILE PORT: segments the TCP end writing FILE retransmitted
retrans() {
	local r
	r=$(awk -v p="$2" '$1 == "retrans" && $2 == p { print $3 }' "$1" 2>/dev/null)
	echo "${r:-0}"
}

# run_pair SRV_NS CLI_NS PROTO ADDR PORT N SIZE [MODE]: one server, one
# client, to the end.  Sets SRV_RETRANS and CLI_RETRANS.
run_pair() {
	local sns=$1 cns=$2 proto=$3 addr=$4 port=$5 bind
	bind=$addr
	if [ "$sns" != "$cns" ]; then
		case $addr in *:*) bind=:: ;; *) bind=0.0.0.0 ;; esac
	fi
	server "$sns" "$proto" "$bind" "$port" "$6" "$7" "${8:-rr}"
	client "$cns" "$proto" "$addr" "$port" "$6" "$7" "${8:-rr}" "p$port"
	wait_all
	SRV_RETRANS=$(retrans "/tmp/sl-srv.$port" "$port")
	CLI_RETRANS=$(retrans "/tmp/sl-cli.p$port" "$port")
	if [ "$SRV_RETRANS" != 0 ] || [ "$CLI_RETRANS" != 0 ]; then
		note "retransmitted: server $SRV_RETRANS, client $CLI_RETRANS"
	fi
}

# check_rx N PEER_RETRANS STAGES_EXTRA...: the receiver side of a flow of
# N messages whose sender retransmitted PEER_RETRANS segments.  An rx chain
# is recorded when the application reads it, so a duplicate TCP drops is
# never a sample: it only counts as dropped.  Every stage (and the extra
# ones named) has exactly N samples and the total is their sum.
check_rx() {
	local n=$1 pr=$2
	shift 2
	assert_range "net_rx dropped (duplicates of $pr retransmitted)" 0 "$pr" "$(lost net_rx dropped)"
	expect net_rx "$n" $RX_STAGES total "$@"
	sums_match net_rx $RX_STAGES
}

# check_tx_tcp N RETRANS STAGES_EXTRA...: the sender side; retransmitted
# segments go through every stage from TCP down but have no application
# point (not in app->tcp nor in the totals)
check_tx_tcp() {
	local n=$1 r=$2
	shift 2
	expect net_tx "$n" "app->tcp" total "$@"
	expect net_tx $((n + r)) "tcp->ip" "ip->dev_queue" qdisc driver
	assert_eq "net_tx udp->ip" 0 "$(cnt net_tx udp-\>ip)"
	# every segment TCP handed on reached IP output as the same segment
	assert_eq "net_tx unmatched" 0 "$(lost net_tx unmatched)"
	[ "$r" != 0 ] || sums_match net_tx $TX_TCP_STAGES
}

check_tx_udp() {
	local n=$1
	shift
	expect net_tx "$n" $TX_UDP_STAGES total "$@"
	assert_eq "net_tx app->tcp" 0 "$(cnt net_tx app-\>tcp)"
	sums_match net_tx $TX_UDP_STAGES
}

# flush_skb_defer: free what each CPU holds in its deferred-free list.
# An skb freed on another CPU than the one that allocated it may wait on
# the allocating CPU's list (skb_attempt_defer_free(): TCP receive since
# 5.19, and a driver's transmit completion on 7.x, through
# napi_consume_skb()) until that CPU next runs NET_RX; its consume_skb
# fires only then.  A loopback datagram sent from each CPU runs NET_RX
# there (loopback queues to the sending CPU's backlog).
flush_skb_defer() {
	local c
	for c in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$c" bash -c 'echo x > /dev/udp/127.0.0.1/9' 2> /dev/null || true
	done
}

# serve_host N SIZE [ECHO]: the guest's server for the host peer (lib.sh):
# instructs "rr N SIZE", answers N requests of SIZE bytes, prints
# "retrans PORT K" for its own retransmissions
serve_host() {
	timeout 120 python3 - "$SL_GUESTPORT" "$1" "$2" <<'PY'
import socket, struct, sys
port, n, size = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("0.0.0.0", port))
srv.listen(1)
c, peer = srv.accept()
srv.close()
c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
c.sendall(b"rr %d %d\n" % (n, size))
for _ in range(n):
    b = b""
    while len(b) < size:
        d = c.recv(size - len(b))
        if not d:
            raise SystemExit("host closed early")
        b += d
    c.sendall(b)
while c.recv(4096):
    pass
info = c.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
print("retrans", port, struct.unpack_from("I", info, 100)[0])
PY
}
