#!/bin/bash
# kernels: all
# net_rx and net_tx arm on this kernel: every hook point resolves to one of
# its candidates (tracepoint first, then kprobes on the names the function
# has had) and is armed once the pipeline is enabled; disabling disarms
# them all.  The status of every hook is printed, so the log of each kernel
# says which candidate armed.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"

RX_HOOKS="driver ip_rcv ip_list_rcv ipv6_rcv ipv6_list_rcv tcp_v4_rcv tcp_v6_rcv udp_rcv udpv6_rcv tcp_queue udp_queue coalesce_try coalesce copy_to_app udp_read kfree_skb consume_skb"
TX_HOOKS="tcp_sendmsg udp_sendmsg udpv6_sendmsg tcp_transmit ip_queue_xmit ip6_xmit ip_send_skb ip6_send_skb dev_queue driver_start driver_done gso_segment sock_close kfree_skb consume_skb"

# "hook NAME STATE KIND TARGET ..." lines of one pipeline in the status file
hooks_of() {
	awk -v p="$1" '/^pipeline / { cur = $2; sub(":", "", cur) }
		cur == p && $1 == "hook" { print }' "$SL_DBG/status"
}

# the state column is one or two words ("armed", "not available")
hook_state() {
	hooks_of "$1" | awk -v h="$2" '$2 == h { s = $3; if ($3 == "not") s = s " " $4; print s }'
}

sl_load
for p in net_rx net_tx; do
	grep -q "^pipeline $p: disabled, follows skb" "$SL_DBG/status" || fail "$p missing or not disabled at load"
	hooks=$RX_HOOKS
	[ $p = net_tx ] && hooks=$TX_HOOKS
	for h in $hooks; do
		assert_eq "$p $h at load" disarmed "$(hook_state $p $h)"
	done
	echo "enable $p" > "$SL_DBG/control"
done
echo "== $KERNEL ($KVER)"
declare -A narmed
for p in net_rx net_tx; do
	hooks_of $p
	hooks=$RX_HOOKS
	[ $p = net_tx ] && hooks=$TX_HOOKS
	n=0
	for h in $hooks; do
		assert_eq "$p $h" armed "$(hook_state $p $h)"
		n=$((n + 1))
	done
	# the preferred candidate, where every supported kernel has it; a
	# function entry on ftrace where the kernel allows it
	entry_kind
	ret_kind
	for want in driver:tracepoint:netif_receive_skb ip_rcv:$EK:ip_rcv_core \
		ipv6_rcv:$EK:ip6_rcv_core tcp_queue:$EK:tcp_queue_rcv \
		copy_to_app:tracepoint:skb_copy_datagram_iovec \
		tcp_transmit:$EK:__tcp_transmit_skb ip_queue_xmit:$EK:__ip_queue_xmit \
		dev_queue:tracepoint:net_dev_queue driver_start:tracepoint:net_dev_start_xmit \
		driver_done:tracepoint:net_dev_xmit kfree_skb:tracepoint:kfree_skb \
		tcp_sendmsg:$RK:tcp_sendmsg gso_segment:$RK:__skb_gso_segment \
		coalesce_try:$EK:skb_try_coalesce coalesce:$EK:kfree_skb_partial \
		udp_read:$EK:skb_consume_udp; do
		IFS=: read -r h kind target <<<"$want"
		line=$(hooks_of $p | awk -v h="$h" '$2 == h')
		[ -n "$line" ] || continue
		got=$(awk '{ print $4, $5 }' <<<"$line")
		assert_eq "$p $h candidate" "$kind $target" "$got"
	done
	narmed[$p]=$n
done
grep -q "^pipeline net_rx: enabled" "$SL_DBG/status" || fail "net_rx not enabled"
grep -q "^pipeline net_tx: enabled" "$SL_DBG/status" || fail "net_tx not enabled"

# the stage tables name every stage, per-interface stages appear once seen
for s in driver-\>ip ip-\>transport transport-\>socket socket-\>app total other.total; do
	awk -v s="$s" '$1 == s { f = 1 } END { exit !f }' "$SL_DBG/net_rx" || fail "net_rx lacks stage $s"
done
for s in app-\>tcp tcp-\>ip udp-\>ip ip-\>dev_queue qdisc driver total other.total; do
	awk -v s="$s" '$1 == s { f = 1 } END { exit !f }' "$SL_DBG/net_tx" || fail "net_tx lacks stage $s"
done

for p in net_rx net_tx; do
	echo "disable $p" > "$SL_DBG/control"
	[ -z "$(hooks_of $p | awk '$3 == "armed"')" ] || fail "$p: hooks still armed after disable"
done
sl_unload

# ftrace=0: the same function-entry points on kprobes
ek_default=$EK
sl_load ftrace=0
entry_kind ftrace=0
echo "enable net_rx" > "$SL_DBG/control"
assert_eq "net_rx ip_rcv with ftrace=0" "kprobe ip_rcv_core" \
	"$(hooks_of net_rx | awk '$2 == "ip_rcv" { print $4, $5 }')"
echo "disable net_rx" > "$SL_DBG/control"
sl_unload
pass "net_rx: ${narmed[net_rx]} hook points armed, net_tx: ${narmed[net_tx]} armed, preferred candidates on $KERNEL, entry points on $ek_default; all disarmed by disable; kprobes with ftrace=0"
