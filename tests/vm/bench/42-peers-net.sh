#!/bin/bash
# stacklat (net_rx + net_tx) against bpftrace (default: kprobes and
# tracepoints; tuned: kfunc and raw tracepoints) and ftrace hist triggers
# on UDP request/response rounds of 64 bytes over loopback (sl-loop udp:
# two datagrams per round, each down tx and up rx).  The peers follow the
# points of stacklat's pipelines, keyed by skb address (tid from
# udp_sendmsg to ip_send_skb), one histogram per stage:
#   rx: driver (netif_receive_skb) -> ip_rcv_core -> udp_rcv ->
#       __udp_enqueue_schedule_skb -> skb_consume_udp, + total
#   tx: udp_sendmsg -> ip_send_skb -> net_dev_queue -> net_dev_start_xmit
#       -> net_dev_xmit, + total
# ftrace follows the eight stages but not the two totals (its variables
# are read once: a start time cannot be carried along the chain and also
# used by the next stage).  stacklat's rx socket->app ends at the
# skb_copy_datagram_iovec tracepoint (the first of its two end points),
# the peers' at skb_consume_udp.  No tool filters on a pid: all packets,
# expected 2 per round per direction.  See bench-peers.sh.
set -euo pipefail
. "$SL_REPO/tests/vm/lib.sh"
. "$SL_REPO/tests/vm/bench-peers.sh"

N=${BENCH_PEER_NET_N:-5000}
W_RUN=("$SL_REPO/tests/vm/helpers/sl-loop" udp "$N")
W_OPS=$N
W_EXPECT=$((2 * N))
W_STAGES="drv_ip ip_udp udp_queue queue_app rx_total udp_ip ip_devq qdisc driver tx_total"
W_FT_STAGES="drv_ip ip_udp udp_queue queue_app udp_ip ip_devq qdisc driver"
W_BT_DEFAULT=$PB_DIR/net-default.bt
W_BT_TUNED=$PB_DIR/net-tuned.bt
# also both pipelines at sample 16: each stage then has about 1/16 of the
# packets (each CPU follows its first and every 16th after it)
W_SAMPLE="net_rx net_tx"

w_sl_arm() {
	echo "enable net_rx" > "$SL_DBG/control"
	echo "enable net_tx" > "$SL_DBG/control"
}

w_sl_count() {
	local f=net_rx s
	case $1 in
	drv_ip) s="driver->ip" ;;
	ip_udp) s="ip->transport" ;;
	udp_queue) s="transport->socket" ;;
	queue_app) s="socket->app" ;;
	rx_total) s=total ;;
	udp_ip) f=net_tx s="udp->ip" ;;
	ip_devq) f=net_tx s="ip->dev_queue" ;;
	qdisc) f=net_tx s=qdisc ;;
	driver) f=net_tx s=driver ;;
	tx_total) f=net_tx s=total ;;
	esac
	awk -v s="$s" '$1 == s { print $2 }' "$SL_DBG/$f"
}

w_ft_setup() {
	local s
	ft_kprobe iprcv "ip_rcv_core skb=%di:u64"
	ft_kprobe udprcv "udp_rcv skb=%di:u64"
	ft_kprobe udpq "__udp_enqueue_schedule_skb skb=%si:u64"
	ft_kprobe udpcons "skb_consume_udp skb=%si:u64"
	ft_kprobe usend "udp_sendmsg"
	ft_kprobe ipsend "ip_send_skb skb=%si:u64"
	for s in $W_FT_STAGES; do
		ft_synth "slb_$s"
	done
	# rx: each point keeps its time per skb, the next one reads it
	ft_trigger net/netif_receive_skb "hist:keys=skbaddr:slb_r1=common_timestamp"
	ft_trigger slb/iprcv "hist:keys=skb:slb_a=common_timestamp-\$slb_r1,slb_r2=common_timestamp:onmatch(net.netif_receive_skb).trace(slb_drv_ip,\$slb_a)"
	ft_trigger slb/udprcv "hist:keys=skb:slb_b=common_timestamp-\$slb_r2,slb_r3=common_timestamp:onmatch(slb.iprcv).trace(slb_ip_udp,\$slb_b)"
	ft_trigger slb/udpq "hist:keys=skb:slb_c=common_timestamp-\$slb_r3,slb_r4=common_timestamp:onmatch(slb.udprcv).trace(slb_udp_queue,\$slb_c)"
	ft_trigger slb/udpcons "hist:keys=skb:slb_d=common_timestamp-\$slb_r4:onmatch(slb.udpq).trace(slb_queue_app,\$slb_d)"
	# tx: by thread until ip_send_skb, then by skb
	ft_trigger slb/usend "hist:keys=common_pid:slb_t1=common_timestamp"
	ft_trigger slb/ipsend "hist:keys=common_pid:slb_e=common_timestamp-\$slb_t1:onmatch(slb.usend).trace(slb_udp_ip,\$slb_e)"
	ft_trigger slb/ipsend "hist:keys=skb:slb_t2=common_timestamp"
	ft_trigger net/net_dev_queue "hist:keys=skbaddr:slb_f=common_timestamp-\$slb_t2,slb_t3=common_timestamp:onmatch(slb.ipsend).trace(slb_ip_devq,\$slb_f)"
	ft_trigger net/net_dev_start_xmit "hist:keys=skbaddr:slb_g=common_timestamp-\$slb_t3,slb_t4=common_timestamp:onmatch(net.net_dev_queue).trace(slb_qdisc,\$slb_g)"
	ft_trigger net/net_dev_xmit "hist:keys=skbaddr:slb_h=common_timestamp-\$slb_t4:onmatch(net.net_dev_start_xmit).trace(slb_driver,\$slb_h)"
}

peer_bench net-udp-rr
