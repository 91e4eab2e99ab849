// SPDX-License-Identifier: GPL-2.0
/*
 * Network pipelines, following each skb through the in-flight table.
 *
 * net_rx: driver hand-off (netif_receive_skb tracepoint) -> IP receive
 * (ip_rcv / ipv6_rcv) -> transport receive (tcp_v4_rcv, tcp_v6_rcv, udp_rcv,
 * udpv6_rcv) -> queued on the socket (tcp_queue_rcv, or __udp_enqueue_...)
 * -> copied to the application (skb_copy_datagram_iovec tracepoint, in the
 * reading task, where the tgid/tid filter applies).
 *
 * What a sample is: one skb as the stack sees it.  After GRO that is one
 * aggregated skb for several wire segments; a TCP segment the stack merges
 * into the previous one still queued (coalescing) never reaches the
 * application on its own and ends as a stale entry; segments without
 * payload (pure ACKs, SYN, FIN) are dropped from the chain at the transport
 * layer; an skb the application reads in several pieces ends at its first
 * copy.  An skb freed by kfree_skb (a drop) is removed and counted as
 * dropped; one freed by consume_skb before the end is removed silently.
 *
 * net_tx: application send (tcp_sendmsg / udp_sendmsg, per task) -> TCP
 * transmit (__tcp_transmit_skb) -> IP output (__ip_queue_xmit / ip6_xmit /
 * ip_send_skb, where the clone TCP made is picked up) -> device queue
 * (net_dev_queue tracepoint, in __dev_queue_xmit) -> driver transmit start
 * (net_dev_start_xmit) -> done (net_dev_xmit).  The qdisc stage (device
 * queue to driver) is where queueing and netem delays show up.  Segments
 * TCP sends later from softirq (ACK clocking, retransmits) have no
 * application point: they count in every stage but app->tcp and total.
 */
#include <linux/skbuff.h>
#include <linux/netdevice.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <linux/in.h>
#include <net/sock.h>
#include <net/inet_sock.h>

#include "sl.h"

/* ---- net_rx ------------------------------------------------------------ */

enum { RX_DRV, RX_IP, RX_L4, RX_QUEUE, RX_APP };

static struct sl_stage sl_rx_stages[] = {
	{ "driver->ip", "netif_receive_skb", "ip_rcv", RX_DRV, RX_IP },
	{ "ip->transport", "ip_rcv", "tcp/udp_rcv", RX_IP, RX_L4 },
	{ "transport->socket", "tcp/udp_rcv", "socket queue", RX_L4, RX_QUEUE },
	{ "socket->app", "socket queue", "copy to user", RX_QUEUE, RX_APP },
	{ "total", "netif_receive_skb", "copy to user", RX_DRV, RX_APP },
};

static struct sk_buff *sl_arg_skb(struct pt_regs *regs, unsigned int n)
{
	return (struct sk_buff *)regs_get_kernel_argument(regs, n);
}

/* Stop following @skb without counting it as lost. */
static void sl_net_forget(struct sl_pipeline *p, const void *skb)
{
	u64 key = sl_flight_key(p->id, (unsigned long)skb);
	struct sl_flight_ent *e = sl_flight_lookup(key);

	if (e)
		sl_flight_remove(e, key);
}

static void sl_rx_drv(void *data, struct sk_buff *skb)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	u32 ifx;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	ifx = READ_ONCE(p->filter.ifindex);
	if (ifx && (!skb->dev || skb->dev->ifindex != ifx)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return;
	}
	sl_chain_start(p, (unsigned long)skb, RX_DRV, sl_now());
}

static int sl_rx_ip(struct kprobe *kp, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_kp(kp);

	if (!sl_on(hk->pipe))
		return 0;
	sl_hook_hit(hk);
	sl_chain_mark(hk->pipe, (unsigned long)sl_arg_skb(regs, 0), RX_IP,
		      sl_now());
	return 0;
}

/*
 * At the transport layer skb->data points at the TCP or UDP header.
 * Segments without payload leave the chain here; so do those the port or
 * protocol filter rejects.
 */
static void sl_rx_l4(struct sl_hook *hk, struct sk_buff *skb, u8 proto)
{
	struct sl_pipeline *p = hk->pipe;
	u16 lport = READ_ONCE(p->filter.lport), rport = READ_ONCE(p->filter.rport);
	u8 fproto = READ_ONCE(p->filter.proto);
	unsigned int hlen = proto == IPPROTO_TCP ? sizeof(struct tcphdr) :
			    sizeof(struct udphdr);
	__be16 sport, dport;
	bool empty;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	if (!sl_chain_mark(p, (unsigned long)skb, RX_L4, sl_now()))
		return;
	if (skb_headlen(skb) < hlen) {
		sl_net_forget(p, skb);
		return;
	}
	if (proto == IPPROTO_TCP) {
		const struct tcphdr *th = (const struct tcphdr *)skb->data;

		sport = th->source;
		dport = th->dest;
		empty = skb->len <= th->doff * 4U;
	} else {
		const struct udphdr *uh = (const struct udphdr *)skb->data;

		sport = uh->source;
		dport = uh->dest;
		empty = false;
	}
	if (empty || (fproto && fproto != proto) ||
	    (lport && ntohs(dport) != lport) || (rport && ntohs(sport) != rport)) {
		if (!empty)
			sl_loss(p, SL_LOSS_FILTERED);
		sl_net_forget(p, skb);
	}
}

static int sl_rx_tcp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_rx_l4(sl_hook_of_kp(kp), sl_arg_skb(regs, 0), IPPROTO_TCP);
	return 0;
}

static int sl_rx_udp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_rx_l4(sl_hook_of_kp(kp), sl_arg_skb(regs, 0), IPPROTO_UDP);
	return 0;
}

/* tcp_queue_rcv(sk, skb, ...) / tcp_data_queue(sk, skb) / udp enqueue(sk, skb) */
static int sl_rx_queue(struct kprobe *kp, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_kp(kp);

	if (!sl_on(hk->pipe))
		return 0;
	sl_hook_hit(hk);
	sl_chain_mark(hk->pipe, (unsigned long)sl_arg_skb(regs, 1), RX_QUEUE,
		      sl_now());
	return 0;
}

static void sl_rx_app(void *data, const struct sk_buff *skb, int len)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	u64 key;
	struct sl_flight_ent *e;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	key = sl_flight_key(p->id, (unsigned long)skb);
	e = sl_flight_lookup(key);
	if (!e)
		return;		/* not followed (before enable, or filtered) */
	if (!sl_task_ok(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		sl_flight_remove(e, key);
		return;
	}
	e->ts[RX_APP] = sl_now();
	sl_chain_record(p, e);
	sl_flight_remove(e, key);
}

static void sl_net_kfree(void *data, SL_COMPAT_KFREE_SKB_ARGS);
static void sl_net_consume(void *data, SL_COMPAT_CONSUME_SKB_ARGS);

static struct sl_hook sl_rx_hooks[] = {
	{ .name = "driver", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("netif_receive_skb", sl_rx_drv) } },
	{ .name = "ip_rcv", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KP("ip_rcv", sl_rx_ip) } },
	{ .name = "ipv6_rcv", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KP("ipv6_rcv", sl_rx_ip) } },
	{ .name = "tcp_v4_rcv", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KP("tcp_v4_rcv", sl_rx_tcp) } },
	{ .name = "tcp_v6_rcv", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KP("tcp_v6_rcv", sl_rx_tcp) } },
	{ .name = "udp_rcv", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KP("udp_rcv", sl_rx_udp) } },
	{ .name = "udpv6_rcv", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KP("udpv6_rcv", sl_rx_udp) } },
	{ .name = "tcp_queue", .ncands = 3, .cands = (const struct sl_cand[]){
		SL_KP("tcp_queue_rcv", sl_rx_queue),
		SL_KP("tcp_data_queue", sl_rx_queue),
		SL_KP("tcp_rcv_established", sl_rx_queue) } },
	{ .name = "udp_queue", .ncands = 2, .cands = (const struct sl_cand[]){
		SL_KP("__udp_enqueue_schedule_skb", sl_rx_queue),
		SL_KP("sock_queue_rcv_skb", sl_rx_queue) } },
	{ .name = "copy_to_app", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("skb_copy_datagram_iovec", sl_rx_app) } },
	{ .name = "kfree_skb", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("kfree_skb", sl_net_kfree) } },
	{ .name = "consume_skb", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("consume_skb", sl_net_consume) } },
};

struct sl_pipeline sl_pipe_net_rx = {
	.name = "net_rx",
	.desc = "receive path per packet: driver, IP, transport, socket, application",
	.key = STACKLAT_KEY_SKB,
	.filter_caps = SL_F_TGID | SL_F_TID | SL_F_LPORT | SL_F_RPORT |
		       SL_F_PROTO | SL_F_IFINDEX,
	.hooks = sl_rx_hooks,
	.nhooks = ARRAY_SIZE(sl_rx_hooks),
	.stages = sl_rx_stages,
	.nstages = ARRAY_SIZE(sl_rx_stages),
};

/* ---- net_tx ------------------------------------------------------------ */

enum { TX_APP, TX_TCP, TX_IP, TX_DEVQ, TX_DRV, TX_DONE };

static struct sl_stage sl_tx_stages[] = {
	{ "app->tcp", "tcp/udp_sendmsg", "__tcp_transmit_skb", TX_APP, TX_TCP },
	{ "tcp->ip", "__tcp_transmit_skb", "ip_queue_xmit", TX_TCP, TX_IP },
	{ "ip->dev_queue", "ip_queue_xmit", "net_dev_queue", TX_IP, TX_DEVQ },
	{ "qdisc", "net_dev_queue", "net_dev_start_xmit", TX_DEVQ, TX_DRV },
	{ "driver", "net_dev_start_xmit", "net_dev_xmit", TX_DRV, TX_DONE },
	{ "total", "tcp/udp_sendmsg", "net_dev_xmit", TX_APP, TX_DONE },
};

/* What __tcp_transmit_skb saw, for the ip_queue_xmit it calls on this CPU. */
struct sl_tx_pending {
	u64 app;
	u64 tcp;
	u32 armed;
};

static DEFINE_PER_CPU(struct sl_tx_pending, sl_tx_pend);

/* tcp_sendmsg / udp_sendmsg: the task's send starts now */
static int sl_tx_send_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;

	if (!sl_on(p))
		return 1;
	if (!sl_task_ok(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return 1;
	}
	e = sl_chain_start(p, current->pid, TX_APP, sl_now());
	return e ? 0 : 1;
}

static int sl_tx_send_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_pipeline *p = hk->pipe;
	u64 key = sl_flight_key(p->id, current->pid);
	struct sl_flight_ent *e = sl_flight_lookup(key);

	sl_hook_hit(hk);
	if (e)
		sl_flight_remove(e, key);
	return 0;
}

/* The application timestamp of the send this task is in, if any. */
static u64 sl_tx_app_ts(struct sl_pipeline *p)
{
	struct sl_flight_ent *e;

	if (!in_task())
		return 0;
	e = sl_flight_lookup(sl_flight_key(p->id, current->pid));
	return e ? e->ts[TX_APP] : 0;
}

static bool sl_tx_sk_ok(struct sl_pipeline *p, struct sock *sk)
{
	u16 lport = READ_ONCE(p->filter.lport), rport = READ_ONCE(p->filter.rport);
	u8 proto = READ_ONCE(p->filter.proto);
	const struct inet_sock *inet;

	if (!lport && !rport && !proto)
		return true;
	if (!sk || (sk->sk_family != AF_INET && sk->sk_family != AF_INET6))
		return false;
	inet = inet_sk(sk);
	if (proto && sk->sk_protocol != proto)
		return false;
	if (lport && ntohs(inet->inet_sport) != lport)
		return false;
	if (rport && ntohs(inet->inet_dport) != rport)
		return false;
	return true;
}

/* __tcp_transmit_skb(sk, skb, ...): the clone it makes goes to IP next */
static int sl_tx_tcp(struct kprobe *kp, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_kp(kp);
	struct sl_pipeline *p = hk->pipe;
	struct sock *sk = (struct sock *)regs_get_kernel_argument(regs, 0);

	if (!sl_on(p))
		return 0;
	sl_hook_hit(hk);
	if (!sl_tx_sk_ok(p, sk)) {
		this_cpu_write(sl_tx_pend.armed, 0);
		return 0;
	}
	this_cpu_write(sl_tx_pend.app, sl_tx_app_ts(p));
	this_cpu_write(sl_tx_pend.tcp, sl_now());
	this_cpu_write(sl_tx_pend.armed, 1);
	return 0;
}

/* IP output: the skb here is the one that travels down; start its chain. */
static void sl_tx_ip(struct sl_hook *hk, struct sock *sk, struct sk_buff *skb)
{
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;
	u64 now, app, tcp = 0;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	now = sl_now();
	if (this_cpu_read(sl_tx_pend.armed)) {
		/* set by __tcp_transmit_skb just before, on this CPU; a
		 * task that migrated in between leaves an old one behind
		 */
		this_cpu_write(sl_tx_pend.armed, 0);
		tcp = this_cpu_read(sl_tx_pend.tcp);
		if (now - tcp > 10 * NSEC_PER_MSEC)
			return;
		app = this_cpu_read(sl_tx_pend.app);
	} else {
		if (sk && sk->sk_protocol == IPPROTO_TCP)
			return;	/* a TCP segment __tcp_transmit_skb rejected */
		if (!sl_tx_sk_ok(p, sk)) {
			sl_loss(p, SL_LOSS_FILTERED);
			return;
		}
		app = sl_tx_app_ts(p);
	}
	e = sl_chain_start(p, (unsigned long)skb, TX_IP, now);
	if (!e)
		return;
	e->ts[TX_APP] = app;
	e->ts[TX_TCP] = tcp;
}

/* __ip_queue_xmit(sk, skb, fl, tos), ip_queue_xmit(sk, skb, fl), ip6_xmit(sk, skb, ...) */
static int sl_tx_ip_sk(struct kprobe *kp, struct pt_regs *regs)
{
	sl_tx_ip(sl_hook_of_kp(kp), (struct sock *)regs_get_kernel_argument(regs, 0),
		 sl_arg_skb(regs, 1));
	return 0;
}

/* ip_send_skb(net, skb) / ip6_send_skb(skb): UDP's way out */
static int sl_tx_ip_udp4(struct kprobe *kp, struct pt_regs *regs)
{
	struct sk_buff *skb = sl_arg_skb(regs, 1);

	sl_tx_ip(sl_hook_of_kp(kp), skb->sk, skb);
	return 0;
}

static int sl_tx_ip_udp6(struct kprobe *kp, struct pt_regs *regs)
{
	struct sk_buff *skb = sl_arg_skb(regs, 0);

	sl_tx_ip(sl_hook_of_kp(kp), skb->sk, skb);
	return 0;
}

static void sl_tx_devq(void *data, struct sk_buff *skb)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	u32 ifx;
	u64 key;
	struct sl_flight_ent *e;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	key = sl_flight_key(p->id, (unsigned long)skb);
	e = sl_flight_lookup(key);
	if (!e)
		return;
	ifx = READ_ONCE(p->filter.ifindex);
	if (ifx && (!skb->dev || skb->dev->ifindex != ifx)) {
		sl_loss(p, SL_LOSS_FILTERED);
		sl_flight_remove(e, key);
		return;
	}
	if (!e->ts[TX_DEVQ])
		e->ts[TX_DEVQ] = sl_now();
}

static void sl_tx_drv(void *data, const struct sk_buff *skb,
		      const struct net_device *dev)
{
	struct sl_hook *hk = data;

	if (!sl_on(hk->pipe))
		return;
	sl_hook_hit(hk);
	sl_chain_mark(hk->pipe, (unsigned long)skb, TX_DRV, sl_now());
}

static void sl_tx_done(void *data, struct sk_buff *skb, int rc,
		       struct net_device *dev, unsigned int skb_len)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	u64 key;
	struct sl_flight_ent *e;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	key = sl_flight_key(p->id, (unsigned long)skb);
	e = sl_flight_lookup(key);
	if (!e)
		return;
	if (rc == NETDEV_TX_OK) {
		e->ts[TX_DONE] = sl_now();
		sl_chain_record(p, e);
	}
	sl_flight_remove(e, key);
}

/* skbs freed before their chain ended: drops count, consumption does not */
static void sl_net_kfree(void *data, SL_COMPAT_KFREE_SKB_ARGS)
{
	struct sl_hook *hk = data;

	if (!sl_on(hk->pipe))
		return;
	sl_hook_hit(hk);
	sl_chain_drop(hk->pipe, (unsigned long)skb);
}

static void sl_net_consume(void *data, SL_COMPAT_CONSUME_SKB_ARGS)
{
	struct sl_hook *hk = data;

	if (!sl_on(hk->pipe))
		return;
	sl_hook_hit(hk);
	sl_net_forget(hk->pipe, skb);
}

static struct sl_hook sl_tx_hooks[] = {
	{ .name = "tcp_sendmsg", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KRP("tcp_sendmsg", sl_tx_send_entry, sl_tx_send_ret, 0) } },
	{ .name = "udp_sendmsg", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KRP("udp_sendmsg", sl_tx_send_entry, sl_tx_send_ret, 0) } },
	{ .name = "tcp_transmit", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KP("__tcp_transmit_skb", sl_tx_tcp) } },
	{ .name = "ip_queue_xmit", .ncands = 2, .cands = (const struct sl_cand[]){
		SL_KP("__ip_queue_xmit", sl_tx_ip_sk),
		SL_KP("ip_queue_xmit", sl_tx_ip_sk) } },
	{ .name = "ip6_xmit", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KP("ip6_xmit", sl_tx_ip_sk) } },
	{ .name = "ip_send_skb", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KP("ip_send_skb", sl_tx_ip_udp4) } },
	{ .name = "ip6_send_skb", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_KP("ip6_send_skb", sl_tx_ip_udp6) } },
	{ .name = "dev_queue", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("net_dev_queue", sl_tx_devq) } },
	{ .name = "driver_start", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("net_dev_start_xmit", sl_tx_drv) } },
	{ .name = "driver_done", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("net_dev_xmit", sl_tx_done) } },
	{ .name = "kfree_skb", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("kfree_skb", sl_net_kfree) } },
	{ .name = "consume_skb", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("consume_skb", sl_net_consume) } },
};

struct sl_pipeline sl_pipe_net_tx = {
	.name = "net_tx",
	.desc = "transmit path per packet: application, TCP, IP, qdisc, driver, done",
	.key = STACKLAT_KEY_SKB,
	.filter_caps = SL_F_TGID | SL_F_TID | SL_F_LPORT | SL_F_RPORT |
		       SL_F_PROTO | SL_F_IFINDEX,
	.hooks = sl_tx_hooks,
	.nhooks = ARRAY_SIZE(sl_tx_hooks),
	.stages = sl_tx_stages,
	.nstages = ARRAY_SIZE(sl_tx_stages),
};
