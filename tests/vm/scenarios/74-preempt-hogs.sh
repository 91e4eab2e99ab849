#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 7.3
# (the kernel of the matrix where a tracepoint probe can be preempted: 7.3
# calls them under SRCU, not with preemption off, and the harness boots it
# with preempt=full.  6.1-rt, like every kernel before 7.x, calls them
# with preemption off, as kprobe and ftrace handlers are everywhere; what
# RT preempts there, the callers between entry and return, is 75's.)
#
# Probes on a preemptible kernel under CPU pressure: a busy loop pinned on
# every vCPU (nice 0: the scheduler preempts whatever runs beside it at
# every tick) for the whole run, while traffic goes through pipelines
# driven by tracepoints.  A probe preempted while it holds an in-flight
# entry or a bucket lock would make the others give up on it (busy), one
# migrated between a per-CPU read and write would write into another
# CPU's copy; what must hold:
#  - net_tx: N UDP request/response rounds on loopback, exactly N samples
#    in every stage and the total their sum;
#  - block: N direct 4 KiB reads of a null_blk disk under mq-deadline,
#    exactly N in Q2I, I2D, Q2D, D2C and Q2C;
#  - netdrop: N datagrams to a closed UDP port on lo, N drops (before
#    the namespace of the next step has a loopback named lo too);
#  - tcpretrans: a peer blackholed after the handshake, NRTO RTO
#    retransmissions (or one more), as many as the socket's
#    tcpi_total_retrans; 5 %
#    netem loss on bulk transfers, the kinds sum to tcpi_total_retrans;
#  - the in-flight table: nothing full, nothing busy, over the whole run.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/net.sh"

N=200
NRTO=4
NS=slp
TR=$SL_REPO/tests/vm/helpers/tcpretrans.py

# js JSON FILTER: a jq filter over the JSON (python3 took 0.5-5 s to start
# under the hogs of 74 and 75, for each value)
js() { jq -r "$2" <<<"$1"; }
# table COUNTER: a counter of the in-flight table's status line
table() { sed -n "s/^in-flight table: .* $1 \([0-9]*\)[,;].*/\1/p" "$SL_DBG/status"; }

# ---- the kernel must preempt task context: say how it does
pmode=/sys/kernel/debug/sched/preempt
if uname -v | grep -q PREEMPT_RT; then
	note "preemption: PREEMPT_RT"
elif [ -r $pmode ] && grep -q '(full)' $pmode; then
	note "preemption: $(cat $pmode)"
else
	# the matrix boots 7.3 with preempt=full: there, anything else is
	# a harness that lost it, not a kernel to skip
	model=$(cat $pmode 2>/dev/null || echo "no dynamic preemption")
	case $KERNEL in
	7.3*) fail "7.3 runs with '$model': boot it with preempt=full (VM_APPEND=preempt=full)" ;;
	esac
	skip "not a fully preemptible kernel ($model): neither PREEMPT_RT nor preempt=full"
fi

HOGS=()
cleanup() {
	[ ${#HOGS[@]} = 0 ] || kill "${HOGS[@]}" 2>/dev/null || true
	ip netns del $NS 2>/dev/null || true
}
trap cleanup EXIT
for c in $(seq 0 $(($(nproc) - 1))); do
	taskset -c "$c" bash -c 'while :; do :; done' &
	HOGS+=($!)
done
note "${#HOGS[@]} busy loops, one pinned on each vCPU"

sl_nullblk 1 queue_mode=2 gb=1
sl_modprobe sch_netem
no_tlp -

sl_load
ctl enable net_tx
ctl enable block
ctl enable tcpretrans
ctl enable netdrop

note "net_tx: $N UDP rounds on loopback"
ctl filter net_tx clear lport=7401
ctl reset
run_pair - - udp 127.0.0.1 7401 $N 100 rr
cat "$SL_DBG/net_tx"
check_tx_udp $N lo.total

note "block: $N direct reads of nullb0"
echo mq-deadline > /sys/block/nullb0/queue/scheduler
ctl filter block dev=nullb0
ctl reset
dd if=/dev/nullb0 of=/dev/null bs=4k count=$N iflag=direct status=none
cat "$SL_DBG/block"
for s in Q2I I2D Q2D D2C Q2C; do
	assert_eq "block $s" $N "$(cnt block $s)"
	assert_eq "block nullb0.$s" $N "$(cnt block nullb0.$s)"
done

note "netdrop: $N datagrams to a closed UDP port on lo"
ctl filter netdrop clear ifindex=1
ctl reset
python3 - $N <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(b"x" * 100, ("127.0.0.1", 9401))
    time.sleep(0.002)
PY
sleep 0.2
cat "$SL_DBG/netdrop"
if grep -qE ' (drop_reasons|drop_reasons_by_subsys)$' /proc/kallsyms; then
	closed=NO_SOCKET
else
	closed=$(awk '$1 ~ /udp.*rcv/ { print $1; exit }' "$SL_DBG/netdrop")
fi
assert_eq "netdrop $closed" $N "$(cnt netdrop "$closed")"
assert_eq "netdrop lo.drops" $N "$(cnt netdrop lo.drops)"

note "tcpretrans: a peer blackholed after the handshake"
ip netns add $NS
ip -n $NS link set lo mtu 1500
ip -n $NS link set lo up
ip netns exec $NS sysctl -qw net.ipv4.tcp_early_retrans=0
ctl reset
out=$(python3 "$TR" $NS blackhole 7402 $NRTO 2>/tmp/sl-tr.err) ||
	fail "tcpretrans.py blackhole: $(tail -n 2 /tmp/sl-tr.err | tr '\n' ' ')"
echo "$out"
# the helper reads the counts right after the NRTO-th; a hog can delay it
# past the next (backed-off) timeout: the exact check is against the
# socket's own count, whatever it reached
n=$(js "$out" '.total_retrans')
assert_range "RTO retransmissions (tcpi_total_retrans)" $NRTO $((NRTO + 2)) "$n"
assert_eq "rto = tcpi_total_retrans" "$n" "$(js "$out" '.kinds.rto')"
assert_eq "7402.retrans" "$n" "$(js "$out" '.ports["7402.retrans"]')"

note "tcpretrans: netem loss 5% on bulk transfers"
ip netns exec $NS tc qdisc add dev lo root netem loss 5%
ctl reset
out=$(python3 "$TR" $NS bulk 7403 1000000 2>/tmp/sl-tr.err) ||
	fail "tcpretrans.py bulk: $(tail -n 2 /tmp/sl-tr.err | tr '\n' ' ')"
ip netns exec $NS tc qdisc del dev lo root
echo "$out"
tot=$(js "$out" '.total_retrans')
assert_range "retransmissions (tcpi_total_retrans of all sockets)" 1 100000 "$tot"
assert_eq "kinds counted = tcpi_total_retrans" "$tot" "$(js "$out" '[.kinds[]] | add // 0')"
assert_eq "ports counted = tcpi_total_retrans" "$tot" "$(js "$out" '[.ports[]] | add // 0')"
assert_eq "tcpretrans unmatched" 0 "$(lost tcpretrans unmatched)"

grep "^in-flight table:" "$SL_DBG/status"
grep -A4 "^pipeline \(net_tx\|block\|tcpretrans\|netdrop\):" "$SL_DBG/status" | grep "lost:"
assert_eq "in-flight table: inserts that found no slot" 0 "$(table full)"
assert_eq "in-flight table: gets and puts that gave up on a holder" 0 "$(table busy)"
for p in net_tx block tcpretrans netdrop; do
	assert_eq "$p table_full" 0 "$(lost $p table_full)"
	assert_eq "$p busy" 0 "$(lost $p busy)"
done
ctl disable net_tx
ctl disable block
ctl disable tcpretrans
ctl disable netdrop
sl_unload
pass "with a busy loop on each of $(nproc) vCPUs: net_tx $N of $N, block $N of $N in every stage, netdrop $N of $N, tcpretrans $n RTOs and $tot of $tot bulk retransmissions by kind; the table 0 full, 0 busy"
