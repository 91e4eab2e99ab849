// SPDX-License-Identifier: GPL-2.0
/*
 * Network pipelines: where a packet spends its time inside the kernel,
 * packet by packet, following each skb through the in-flight table.
 *
 * net_rx, keyed by the skb:
 *   driver hand-off (netif_receive_skb tracepoint, after GRO)
 *   -> IP receive (ip_rcv_core / ip6_rcv_core, which see both the single
 *      and the list receive path; ip_rcv + ip_list_rcv where they are gone)
 *   -> transport receive (tcp_v4_rcv, tcp_v6_rcv, udp_rcv, udpv6_rcv)
 *   -> queued on the socket (tcp_queue_rcv, __udp_enqueue_schedule_skb)
 *   -> copied to the application (skb_copy_datagram_iovec tracepoint; for
 *      UDP also skb_consume_udp, since a linear datagram is copied without
 *      that tracepoint), in the reading task: the tgid/tid filter applies
 *      there.
 *
 * net_tx, keyed by the skb that goes down the stack:
 *   application send (tcp_sendmsg / udp_sendmsg / udpv6_sendmsg)
 *   -> TCP transmit (__tcp_transmit_skb)
 *   -> IP output (__ip_queue_xmit / ip6_xmit for TCP, ip_send_skb /
 *      ip6_send_skb for UDP)
 *   -> device queue (net_dev_queue tracepoint, in __dev_queue_xmit)
 *   -> driver transmit start (net_dev_start_xmit)
 *   -> transmit done (net_dev_xmit: the driver took the packet).
 *   The qdisc stage (device queue to driver start) is where queueing, and a
 *   netem delay, shows up.
 *
 * What one sample is:
 *  - rx: one skb as the stack hands it over.  After GRO that is one skb for
 *    several wire segments.  A TCP segment merged into the skb queued before
 *    it (tcp_try_coalesce, or coalescing into the socket backlog) never
 *    reaches the application on its own: when the skb it joined is followed
 *    too, that one's sample stands for both and the merge is counted in the
 *    "coalesce" hook's hits; when it is not (a pure ACK in the socket's
 *    backlog, an skb already partly read), the chain moves to it.
 *    Segments without payload (pure ACKs, SYN, FIN) leave the chain at the
 *    transport layer, packets that cannot reach it (ICMP, ...) at IP.  An
 *    skb the application reads in several pieces ends at its first copy.
 *  - tx: one TCP segment with payload as __tcp_transmit_skb hands it to IP
 *    (the clone TCP transmits, not the skb kept for retransmission), or one
 *    UDP datagram.  A GSO skb is one sample; when it is segmented in
 *    software (after the qdisc, before the driver) the chain continues on its
 *    first segment.  Retransmissions are followed from TCP down but have no
 *    application point, so they count in every stage except app->tcp and
 *    total.  Pure ACKs and other segments without payload are not followed.
 *  - The application point of a TCP segment is the entry of the sendmsg that
 *    handed over its first byte: the socket remembers when its oldest unsent
 *    data and its newest send arrived, so data waiting for the congestion
 *    window or for autocorking is charged to app->tcp.
 *  - skbs freed before their chain ends are removed at once: kfree_skb (a
 *    drop) counts as "dropped", consume_skb (freed normally, e.g. the unused
 *    original of a software segmentation) does not.
 *
 * Each pipeline is a table of points (the rows at the end of its section)
 * run by the engine's dispatcher; what is here besides the rows is what
 * only the protocol knows, as callbacks.  Every point can be missing
 * (skip_hooks= or an older kernel): chains then start at the first point
 * that is armed, and every stage whose two points remain is still
 * measured.  Filters act at the first point that can read them: interface,
 * protocol and ports when an rx chain starts (an excluded packet is never
 * inserted), tx ports at IP output, tasks where a task is known.
 *
 * Totals are also split by interface (the receiving device for rx, the
 * device queued on for tx), a breakdown dimension of the engine: one
 * "<ifname>.total" stage per interface seen, SL_NET_IFSLOTS at a time, the
 * rest in "other.total"; an interface's slot is freed when it is
 * unregistered.
 */
#include <linux/skbuff.h>
#include <linux/netdevice.h>
#include <linux/list.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <linux/in.h>
#include <linux/err.h>
#include <linux/preempt.h>
#include <net/sock.h>
#include <net/inet_sock.h>
#include <net/tcp.h>
#include <net/tcp_states.h>
#include <trace/events/skb.h>
#include <trace/events/net.h>
#include <trace/events/sock.h>

#include "sl.h"

/* ---- shared ------------------------------------------------------------ */

#define SL_NET_IFSLOTS	SL_DIM_SLOTS		/* interfaces named */
#define SL_NET_LIST_MAX	256			/* skbs walked in one list */

/* aux[0] of an skb entry: 1 + its interface tag, 0 when unknown */
#define SL_AUX_IF	0

/* The points (timestamp slots) of the two pipelines. */
enum { RX_DRV, RX_IP, RX_L4, RX_QUEUE, RX_APP };
enum { TX_APP, TX_TCP, TX_IP, TX_DEVQ, TX_DRV, TX_DONE, TX_UAPP };

/* A task filter is set: packets without an application point are out. */
static __always_inline bool sl_net_task_filter(const struct sl_pipeline *p)
{
	return READ_ONCE(p->filter.tgid) || READ_ONCE(p->filter.tid);
}

/* An interface as a breakdown key: its namespace and index. */
static __always_inline u64 sl_net_dev_key(const struct net_device *dev)
{
	return (u64)dev_net(dev)->ns.inum << 32 | (u32)dev->ifindex;
}

/* The tag of @dev's per-interface slot, + 1 (0: unknown) for aux. */
static __always_inline u64 sl_net_if_tag(struct sl_dim *d,
					 const struct net_device *dev)
{
	if (!dev)
		return 1 + SL_DIM_OTHER;
	return 1 + sl_dim_tag(d, sl_net_dev_key(dev), dev->name);
}

static __always_inline bool sl_net_dev_ok(const struct sl_pipeline *p,
					  const struct net_device *dev)
{
	u32 ifx = READ_ONCE(p->filter.ifindex);

	return !ifx || (dev && (u32)dev->ifindex == ifx);
}

/* The total of the chain's interface, between points @from and @to. */
static void sl_net_record_if(struct sl_pipeline *p, struct sl_dim *d,
			     const struct sl_flight_ent *e, unsigned int from,
			     unsigned int to)
{
	u64 tag = e->aux[SL_AUX_IF];

	if (tag && e->ts[from] && e->ts[to])
		sl_record(p, sl_dim_stage(d, (u32)(tag - 1)),
			  (s64)(e->ts[to] - e->ts[from]));
}

static const char * const sl_net_if_suffix[] = { ".total" };

/*
 * A header at @h of @len bytes lies in the linear part of @skb, between
 * skb->data and the end of the head: reading it cannot fault.
 */
static __always_inline bool sl_net_linear(const struct sk_buff *skb,
					  const void *h, unsigned int len)
{
	const unsigned char *c = h;

	return c >= skb->data && c + len <= skb->data + skb_headlen(skb);
}

static __always_inline bool sl_net_ports_ok(const struct sl_pipeline *p,
					    u8 proto, __be16 lport, __be16 rport)
{
	u16 fl = READ_ONCE(p->filter.lport), fr = READ_ONCE(p->filter.rport);
	u8 fp = READ_ONCE(p->filter.proto);

	return (!fp || fp == proto) && (!fl || ntohs(lport) == fl) &&
	       (!fr || ntohs(rport) == fr);
}

static __always_inline bool sl_net_port_filter(const struct sl_pipeline *p)
{
	return READ_ONCE(p->filter.lport) || READ_ONCE(p->filter.rport) ||
	       READ_ONCE(p->filter.proto);
}

/* Shared by both pipelines' frees: a tracepoint each, kprobes behind. */
SL_TP_DEFINE(kfree_skb, (SL_COMPAT_KFREE_SKB_ARGS), (unsigned long)skb)
SL_TP_DEFINE(consume_skb, (SL_COMPAT_CONSUME_SKB_ARGS), (unsigned long)skb)

static const struct sl_cand sl_c_kfree[] = {
	SL_TPD(kfree_skb),
	/* sk_skb_reason_drop(sk, skb, reason): kfree_skb_reason's name since 6.11 */
	SL_KPD("sk_skb_reason_drop", 1),
	SL_KPD("kfree_skb_reason", 0),
	SL_KPD("kfree_skb", 0),
};

static const struct sl_cand sl_c_consume[] = {
	SL_TPD(consume_skb),
	SL_KPD("consume_skb", 0),
};

/*
 * An interface that goes away frees its per-interface slots, so that the
 * interfaces of containers that come and go each get theirs.
 */
static struct sl_dim sl_rx_ifs, sl_tx_ifs;
static unsigned int sl_net_notifier_users;

static int sl_net_netdev_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	u64 key;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	key = sl_net_dev_key(dev);
	mutex_lock(&sl_lock);
	sl_dim_release(&sl_pipe_net_rx, &sl_rx_ifs, key);
	sl_dim_release(&sl_pipe_net_tx, &sl_tx_ifs, key);
	mutex_unlock(&sl_lock);
	return NOTIFY_DONE;
}

static struct notifier_block sl_net_nb = {
	.notifier_call = sl_net_netdev_event,
};

/* Under sl_lock, from the pipelines' setup and teardown. */
static int sl_net_notifier_get(void)
{
	int ret;

	if (sl_net_notifier_users++)
		return 0;
	/* the notifier takes sl_lock: register without it */
	mutex_unlock(&sl_lock);
	ret = register_netdevice_notifier(&sl_net_nb);
	mutex_lock(&sl_lock);
	if (ret)
		sl_net_notifier_users--;
	return ret;
}

static void sl_net_notifier_put(struct sl_pipeline *p)
{
	if (--sl_net_notifier_users)
		return;
	mutex_unlock(&sl_lock);
	unregister_netdevice_notifier(&sl_net_nb);
	mutex_lock(&sl_lock);
}

/* ---- net_rx ------------------------------------------------------------ */

enum {
	RXS_DRV_IP, RXS_IP_L4, RXS_L4_SOCK, RXS_SOCK_APP, RXS_TOTAL,
	RXS_NFIXED,
	RXS_NSTAGES = RXS_NFIXED + SL_NET_IFSLOTS + 1
};

static struct sl_stage sl_rx_stages[RXS_NSTAGES] = {
	[RXS_DRV_IP] = { "driver->ip", "driver", "ip_rcv", RX_DRV, RX_IP },
	[RXS_IP_L4] = { "ip->transport", "ip_rcv", "tcp/udp_rcv", RX_IP, RX_L4 },
	[RXS_L4_SOCK] = { "transport->socket", "tcp/udp_rcv", "tcp/udp_queue",
			  RX_L4, RX_QUEUE },
	[RXS_SOCK_APP] = { "socket->app", "tcp/udp_queue", "copy_to_app",
			   RX_QUEUE, RX_APP },
	[RXS_TOTAL] = { "total", "driver", "copy_to_app", RX_DRV, RX_APP },
};


/* Hook indices: a few callbacks look at which points are armed. */
enum {
	HRX_DRV, HRX_IP, HRX_IP_LIST, HRX_IP6, HRX_IP6_LIST, HRX_TCP4, HRX_TCP6,
	HRX_UDP4, HRX_UDP6, HRX_TCP_QUEUE, HRX_UDP_QUEUE, HRX_COALESCE,
	HRX_COPY, HRX_UDP_READ, HRX_KFREE, HRX_CONSUME, HRX_NR
};

static struct sl_hook sl_rx_hooks[HRX_NR];

/*
 * The IP protocol of the packet at @nh (the network header, IPv4 or IPv6
 * by @v6) and, for TCP and UDP, its ports; false when the header is not in
 * the linear part (nothing is decided then).
 */
static __always_inline bool sl_rx_l3(const struct sk_buff *skb,
				     const unsigned char *nh, bool v6,
				     u8 *proto, __be16 *sport, __be16 *dport,
				     bool *ports)
{
	const unsigned char *th;

	if (v6) {
		const struct ipv6hdr *h = (const struct ipv6hdr *)nh;

		if (!sl_net_linear(skb, h, sizeof(*h)))
			return false;
		*proto = h->nexthdr;
		th = nh + sizeof(*h);
	} else {
		const struct iphdr *h = (const struct iphdr *)nh;

		if (!sl_net_linear(skb, h, sizeof(*h)))
			return false;
		*proto = h->protocol;
		/* a fragment's ports are in its first piece only */
		if (h->frag_off & htons(IP_MF | IP_OFFSET))
			th = NULL;
		else
			th = nh + h->ihl * 4;
	}
	*ports = (*proto == IPPROTO_TCP || *proto == IPPROTO_UDP) && th &&
		 sl_net_linear(skb, th, 4);
	if (*ports) {
		*sport = ((const __be16 *)th)[0];
		*dport = ((const __be16 *)th)[1];
	}
	return true;
}

/*
 * Can an IP packet with next protocol @proto reach a transport point?  TCP
 * and UDP can, and so can what may still carry them: IPsec in transport
 * mode (the same skb goes on to TCP/UDP once decrypted) and, for IPv6,
 * extension headers.  Anything else (ICMP, IGMP, a tunnel whose inner
 * packet is received again as a new chain) can never be a sample.
 */
static __always_inline bool sl_rx_carries_l4(u8 proto, bool v6)
{
	switch (proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_ESP:
	case IPPROTO_AH:
		return true;
	case NEXTHDR_HOP:
	case NEXTHDR_ROUTING:
	case NEXTHDR_FRAGMENT:
	case NEXTHDR_DEST:
		return v6;
	}
	return false;
}

/*
 * A chain starts (at the driver, or at the first receive point armed):
 * the interface filter, and as early as the headers can be read the
 * protocol and port filters, so that an excluded packet is never
 * followed.  At the driver and IP points skb->data is at the network
 * header; frames that are not IP (ARP, LLDP) are not followed at all, and
 * neither are IP packets that cannot reach TCP or UDP.
 */
static int sl_rx_on_start(struct sl_ev *ev, struct sl_flight_ent *e)
{
	struct sl_pipeline *p = ev->p;
	struct sk_buff *skb = (struct sk_buff *)ev->ident;
	__be16 sport, dport;
	bool v6, ports;
	u8 proto;

	if (!sl_net_dev_ok(p, skb->dev))
		return SL_FILTERED;
	if (ev->hk->pt <= RX_IP) {
		switch (skb->protocol) {
		case htons(ETH_P_IP):
			v6 = false;
			break;
		case htons(ETH_P_IPV6):
			v6 = true;
			break;
		default:
			return SL_FORGET;
		}
		if (sl_rx_l3(skb, skb->data, v6, &proto, &sport, &dport,
			     &ports)) {
			if (!sl_rx_carries_l4(proto, v6))
				return SL_FORGET;
			if (ports && sl_net_port_filter(p) &&
			    !sl_net_ports_ok(p, proto, dport, sport))
				return SL_FILTERED;
		}
	}
	e->aux[SL_AUX_IF] = sl_net_if_tag(&sl_rx_ifs, skb->dev);
	return SL_KEEP;
}

/*
 * The IP point of @skb.  A packet that cannot reach a transport point
 * leaves the chain here, uncounted like a segment without payload: its
 * entry would otherwise wait for a free that some protocols do without a
 * tracepoint.  A header outside the linear part is given the benefit of
 * the doubt.
 */
static int sl_rx_ip_check(const struct sk_buff *skb, bool v6)
{
	__be16 sport, dport;
	bool ports;
	u8 proto;

	if (sl_rx_l3(skb, skb->data, v6, &proto, &sport, &dport, &ports) &&
	    !sl_rx_carries_l4(proto, v6))
		return SL_FORGET;
	return SL_KEEP;
}

static int sl_rx_ip4_post(struct sl_ev *ev, struct sl_flight_ent *e)
{
	return sl_rx_ip_check((const struct sk_buff *)ev->ident, false);
}

static int sl_rx_ip6_post(struct sl_ev *ev, struct sl_flight_ent *e)
{
	return sl_rx_ip_check((const struct sk_buff *)ev->ident, true);
}

/*
 * ip_list_rcv(head, pt, orig_dev) / ipv6_list_rcv(...): only needed where
 * the per-skb point could not go on *_rcv_core (its first candidate),
 * which the list path calls too.  Each skb of the list (the caller's, on
 * this CPU) passes the per-skb point's row.
 */
static int sl_rx_ip_list(struct sl_ev *ev)
{
	struct sl_hook *single = ev->hk == &sl_rx_hooks[HRX_IP_LIST] ?
				 &sl_rx_hooks[HRX_IP] : &sl_rx_hooks[HRX_IP6];
	struct list_head *head = sl_ev_ptr(ev, 0);
	struct sk_buff *skb;
	unsigned int n = 0;

	if (sl_hook_armed(single) && READ_ONCE(single->cand) == 0)
		return -1;
	list_for_each_entry(skb, head, list) {
		unsigned long a[1] = { (unsigned long)skb };
		struct sl_ev one = { .hk = single, .args = a, .nohit = true };

		if (++n > SL_NET_LIST_MAX)
			break;
		sl_dispatch(&one);
	}
	return -1;
}

/*
 * Transport receive: skb->data points at the TCP or UDP header.  Segments
 * without payload leave the chain here, and so do those the port or
 * protocol filter rejects (only those whose ports could not be read when
 * the chain started).  A header that is not in the linear part (never seen
 * from the drivers tested) cannot be read safely: the skb is let go.
 */
static int sl_rx_l4(struct sl_ev *ev, u8 proto)
{
	const struct sk_buff *skb = (const struct sk_buff *)ev->ident;
	__be16 sport, dport;

	if (proto == IPPROTO_TCP) {
		const struct tcphdr *th = (const struct tcphdr *)skb->data;

		if (!sl_net_linear(skb, th, sizeof(*th)))
			return SL_FORGET;
		if (skb->len <= th->doff * 4U)
			return SL_FORGET;
		sport = th->source;
		dport = th->dest;
	} else {
		const struct udphdr *uh = (const struct udphdr *)skb->data;

		if (!sl_net_linear(skb, uh, sizeof(*uh)))
			return SL_FORGET;
		sport = uh->source;
		dport = uh->dest;
	}
	if (!sl_net_ports_ok(ev->p, proto, dport, sport))
		return SL_FILTERED;
	return SL_KEEP;
}

static int sl_rx_tcp_post(struct sl_ev *ev, struct sl_flight_ent *e)
{
	return sl_rx_l4(ev, IPPROTO_TCP);
}

static int sl_rx_udp_post(struct sl_ev *ev, struct sl_flight_ent *e)
{
	return sl_rx_l4(ev, IPPROTO_UDP);
}

/*
 * skb_try_coalesce(to, from, ...): TCP merges @from's data into @to, the skb
 * queued before it (on the socket's receive queue or its backlog), and
 * frees @from without a tracepoint.  If @to is followed, its sample stands
 * for both and @from's chain ends here: counted in this point's hits.  If
 * it is not (a pure ACK whose chain ended at the transport layer, or an skb
 * whose chain ended at its first, partial read), @from's chain moves to
 * @to, so that the read of that data still ends it.  The row's object is
 * @from; entry skips calls whose @from is not followed.
 */
static int sl_rx_coalesce_pre(struct sl_ev *ev)
{
	return sl_chain_followed(ev->p, ev->ident) ? 0 : -1;
}

static int sl_rx_coalesce_ret(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sl_pipeline *p = ev->p;
	unsigned long to = sl_ev_arg(ev, 0);
	struct sl_flight_ent *e, *n;

	if (!ev->data) {
		/* kfree_skb_partial(skb, head_stolen): the skb was absorbed */
		if (sl_chain_forget(p, ev->ident, SL_NO_LOSS))
			sl_hook_hit(ev->hk);
		return SL_DONE;
	}
	if (!(u8)ev->ret)
		return SL_DONE;	/* not merged: both go on */
	e = sl_chain_get(p, ev->ident);
	if (!e)
		return SL_DONE;
	if (sl_chain_followed(p, to)) {
		sl_hook_hit(ev->hk);
		sl_chain_remove(p, e, SL_NO_LOSS);
	} else {
		n = sl_chain_move(p, e, to);
		if (n)
			sl_chain_put(n);
	}
	return SL_DONE;
}

/* The application copies the data: the chain ends, in the reader. */
static int sl_rx_app_post(struct sl_ev *ev, struct sl_flight_ent *e)
{
	return sl_task_ok(ev->p) ? SL_KEEP : SL_FILTERED;
}

/* per-interface totals, from the driver to the application */
static void sl_rx_on_record(struct sl_pipeline *p,
			    const struct sl_flight_ent *e)
{
	sl_net_record_if(p, &sl_rx_ifs, e, RX_DRV, RX_APP);
}

/*
 * Does the drop of chain @e count?  Only if the packet is known to pass the
 * filter: with a port or protocol filter, a packet dropped before its ports
 * were read is not counted.
 */
static bool sl_rx_on_drop(struct sl_pipeline *p, const struct sl_flight_ent *e)
{
	return e->ts[RX_L4] || !sl_net_port_filter(p);
}

SL_TP_DEFINE(netif_receive_skb, (struct sk_buff *skb), (unsigned long)skb)
SL_TP_DEFINE(skb_copy_datagram_iovec, (const struct sk_buff *skb, int len),
	     (unsigned long)skb)

static const struct sl_cand sl_c_rx_drv[] = {
	SL_TPD(netif_receive_skb),
	SL_KPD("__netif_receive_skb", 0),
};

static const struct sl_cand sl_c_rx_ip[] = {
	SL_KPD("ip_rcv_core", 0),
	SL_KPD("ip_rcv", 0),
};

static const struct sl_cand sl_c_rx_ip_list[] = { SL_KPD("ip_list_rcv", 0) };

static const struct sl_cand sl_c_rx_ip6[] = {
	SL_KPD("ip6_rcv_core", 0),
	SL_KPD("ipv6_rcv", 0),
};

static const struct sl_cand sl_c_rx_ip6_list[] = { SL_KPD("ipv6_list_rcv", 0) };
static const struct sl_cand sl_c_rx_tcp4[] = { SL_KPD("tcp_v4_rcv", 0) };
static const struct sl_cand sl_c_rx_tcp6[] = { SL_KPD("tcp_v6_rcv", 0) };
static const struct sl_cand sl_c_rx_udp4[] = { SL_KPD("udp_rcv", 0) };
static const struct sl_cand sl_c_rx_udp6[] = { SL_KPD("udpv6_rcv", 0) };

/* tcp_queue_rcv(sk, skb, ...), tcp_rcv_established(sk, skb), __udp_enqueue_schedule_skb(sk, skb) */
static const struct sl_cand sl_c_rx_tcp_queue[] = {
	SL_KPD("tcp_queue_rcv", 0),
	SL_KPD("tcp_rcv_established", 0),
};

static const struct sl_cand sl_c_rx_udp_queue[] = {
	SL_KPD("__udp_enqueue_schedule_skb", 0),
	SL_KPD("udp_queue_rcv_one_skb", 0),
};

/* skb_try_coalesce(to, from, ...); where it is missing kfree_skb_partial(skb, ...) */
static const struct sl_cand sl_c_rx_coalesce[] = {
	SL_KRPD("skb_try_coalesce", 0),
	SL_KPD("kfree_skb_partial", -1),	/* the row's object is argument 1 */
};

static const struct sl_cand sl_c_rx_copy[] = {
	SL_TPD(skb_copy_datagram_iovec),
	SL_KPD("skb_copy_datagram_iter", 0),
};

/* skb_consume_udp(sk, skb, len): after udp_recvmsg copied the datagram */
static const struct sl_cand sl_c_rx_udp_read[] = { SL_KPD("skb_consume_udp", 0) };

#define F	.flags = SL_PF_FIRST

static struct sl_hook sl_rx_hooks[HRX_NR] = {
	[HRX_DRV] = SL_POINT("driver", sl_c_rx_drv, SL_ACT_START, RX_DRV, 0, F),
	[HRX_IP] = SL_POINT("ip_rcv", sl_c_rx_ip, SL_ACT_MARK, RX_IP, 0, F,
			    .post = sl_rx_ip4_post),
	[HRX_IP_LIST] = SL_POINT("ip_list_rcv", sl_c_rx_ip_list, SL_ACT_NONE,
				 RX_IP, 0, .optional = true,
				 .pre = sl_rx_ip_list),
	[HRX_IP6] = SL_POINT("ipv6_rcv", sl_c_rx_ip6, SL_ACT_MARK, RX_IP, 0, F,
			     .post = sl_rx_ip6_post),
	[HRX_IP6_LIST] = SL_POINT("ipv6_list_rcv", sl_c_rx_ip6_list,
				  SL_ACT_NONE, RX_IP, 0, .optional = true,
				  .pre = sl_rx_ip_list),
	[HRX_TCP4] = SL_POINT("tcp_v4_rcv", sl_c_rx_tcp4, SL_ACT_MARK, RX_L4, 0,
			      F, .post = sl_rx_tcp_post),
	[HRX_TCP6] = SL_POINT("tcp_v6_rcv", sl_c_rx_tcp6, SL_ACT_MARK, RX_L4, 0,
			      F, .post = sl_rx_tcp_post),
	[HRX_UDP4] = SL_POINT("udp_rcv", sl_c_rx_udp4, SL_ACT_MARK, RX_L4, 0, F,
			      .post = sl_rx_udp_post),
	[HRX_UDP6] = SL_POINT("udpv6_rcv", sl_c_rx_udp6, SL_ACT_MARK, RX_L4, 0,
			      F, .post = sl_rx_udp_post),
	[HRX_TCP_QUEUE] = SL_POINT("tcp_queue", sl_c_rx_tcp_queue, SL_ACT_MARK,
				   RX_QUEUE, 1),
	[HRX_UDP_QUEUE] = SL_POINT("udp_queue", sl_c_rx_udp_queue, SL_ACT_MARK,
				   RX_QUEUE, 1),
	[HRX_COALESCE] = SL_POINT("coalesce", sl_c_rx_coalesce, SL_ACT_NONE,
				  RX_QUEUE, 1, .optional = true,
				  .flags = SL_PF_NOHIT,
				  .pre = sl_rx_coalesce_pre,
				  .post = sl_rx_coalesce_ret),
	[HRX_COPY] = SL_POINT("copy_to_app", sl_c_rx_copy, SL_ACT_END, RX_APP,
			      0, .post = sl_rx_app_post),
	[HRX_UDP_READ] = SL_POINT("udp_read", sl_c_rx_udp_read, SL_ACT_END,
				  RX_APP, 1, .post = sl_rx_app_post),
	[HRX_KFREE] = SL_POINT("kfree_skb", sl_c_kfree, SL_ACT_DROP, RX_APP, 0),
	[HRX_CONSUME] = SL_POINT("consume_skb", sl_c_consume, SL_ACT_FORGET,
				 RX_APP, 0),
};

#undef F

static int sl_rx_setup(struct sl_pipeline *p)
{
	static const char * const from[] = { "driver" };
	static const char * const to[] = { "copy_to_app" };

	sl_dim_init(&sl_rx_ifs, sl_rx_stages, RXS_NFIXED, 1, sl_net_if_suffix,
		    from, to);
	return sl_net_notifier_get();
}

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
	.setup = sl_rx_setup,
	.teardown = sl_net_notifier_put,
	.on_start = sl_rx_on_start,
	.on_record = sl_rx_on_record,
	.on_drop = sl_rx_on_drop,
};

/* ---- net_tx ------------------------------------------------------------ */

enum {
	TXS_APP_TCP, TXS_TCP_IP, TXS_UDP_IP, TXS_IP_DEVQ, TXS_QDISC, TXS_DRV,
	TXS_TOTAL, TXS_NFIXED,
	TXS_NSTAGES = TXS_NFIXED + SL_NET_IFSLOTS + 1
};

static struct sl_stage sl_tx_stages[TXS_NSTAGES] = {
	[TXS_APP_TCP] = { "app->tcp", "tcp_sendmsg", "tcp_transmit", TX_APP,
			  TX_TCP },
	[TXS_TCP_IP] = { "tcp->ip", "tcp_transmit", "ip_queue_xmit", TX_TCP,
			 TX_IP },
	[TXS_UDP_IP] = { "udp->ip", "udp_sendmsg", "ip_send_skb", TX_UAPP,
			 TX_IP },
	[TXS_IP_DEVQ] = { "ip->dev_queue", "ip_queue_xmit", "dev_queue", TX_IP,
			  TX_DEVQ },
	[TXS_QDISC] = { "qdisc", "dev_queue", "driver_start", TX_DEVQ, TX_DRV },
	[TXS_DRV] = { "driver", "driver_start", "driver_done", TX_DRV,
		      TX_DONE },
	[TXS_TOTAL] = { "total", "sendmsg", "driver_done", TX_APP, TX_DONE },
};


enum {
	HTX_TCP_SEND, HTX_UDP_SEND, HTX_UDP6_SEND, HTX_TCP, HTX_IP, HTX_IP6,
	HTX_IP_UDP, HTX_IP6_UDP, HTX_DEVQ, HTX_DRV, HTX_DONE, HTX_GSO,
	HTX_CLOSE, HTX_KFREE, HTX_CONSUME, HTX_NR
};

static struct sl_hook sl_tx_hooks[HTX_NR];

/*
 * The application side of TCP, one entry per socket with unsent data,
 * keyed by the socket's address with the low bit set (skb keys are even):
 *   ts[SK_OLD]  when the oldest data not yet transmitted was handed over
 *   ts[SK_NEW]  when the newest send arrived while older data was waiting,
 *               aux[SK_NEW_SEQ] the sequence number its data starts at
 *   aux[SK_BUSY] a sendmsg is running on the socket
 * The entry goes when everything written has been transmitted and no send
 * is running, or when the socket closes.
 */
enum { SK_OLD, SK_NEW };
enum { SK_NEW_SEQ, SK_BUSY };

static __always_inline unsigned long sl_sk_id(const struct sock *sk)
{
	return (unsigned long)sk | 1;
}

/* tcp_sendmsg(sk, msg, size) entry, in the sending task, socket unlocked */
static int sl_tx_tcp_send(struct sl_ev *ev)
{
	struct sl_pipeline *p = ev->p;
	struct sock *sk = sl_ev_ptr(ev, 0);
	const struct tcp_sock *tp = tcp_sk(sk);
	struct sl_flight_ent *e;
	u32 wseq, nxt;
	u64 now;

	if (!sl_task_ok(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return -1;
	}
	now = sl_now();
	wseq = READ_ONCE(tp->write_seq);
	nxt = READ_ONCE(tp->snd_nxt);
	e = sl_chain_get(p, sl_sk_id(sk));
	if (!e) {
		e = sl_chain_start(p, sl_sk_id(sk), SK_OLD, now);
		if (!e)
			return -1;
	} else if (!after(wseq, nxt)) {
		/* all earlier data is out: this send's is the oldest */
		e->ts[SK_OLD] = now;
		e->ts[SK_NEW] = 0;
	} else {
		e->ts[SK_NEW] = now;
		e->aux[SK_NEW_SEQ] = wseq;
	}
	e->born = now;
	e->aux[SK_BUSY] = 1;
	sl_chain_put(e);
	return 0;
}

static int sl_tx_tcp_send_ret(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sock *sk = sl_ev_ptr(ev, 0);
	const struct tcp_sock *tp = tcp_sk(sk);
	struct sl_flight_ent *e;

	e = sl_chain_get(ev->p, sl_sk_id(sk));
	if (!e)
		return SL_DONE;
	e->aux[SK_BUSY] = 0;
	if (!after(READ_ONCE(tp->write_seq), READ_ONCE(tp->snd_nxt)))
		sl_chain_remove(ev->p, e, SL_NO_LOSS);
	else
		sl_chain_put(e);
	return SL_DONE;
}

/*
 * When the application handed over the first byte of the TCP segment
 * [@seq, @end_seq) that is being transmitted, or 0 if unknown (a
 * retransmission, or data sent before the pipeline was enabled).
 */
static u64 sl_tx_tcp_app(struct sl_pipeline *p, const struct sock *sk,
			 u32 seq, u32 end_seq)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct sl_flight_ent *e;
	u64 app, newer;

	if (before(seq, READ_ONCE(tp->snd_nxt)))
		return 0;
	e = sl_chain_get(p, sl_sk_id(sk));
	if (!e)
		return 0;
	newer = e->ts[SK_NEW];
	if (newer && !before(seq, (u32)e->aux[SK_NEW_SEQ])) {
		/* the older data is out: the newer send is now the oldest */
		app = newer;
		e->ts[SK_OLD] = newer;
		e->ts[SK_NEW] = 0;
	} else {
		app = e->ts[SK_OLD];
	}
	if (!e->aux[SK_BUSY] && !before(end_seq, READ_ONCE(tp->write_seq)))
		sl_chain_remove(p, e, SL_NO_LOSS);
	else
		sl_chain_put(e);
	return app;
}

/*
 * What __tcp_transmit_skb saw, for the IP output it calls next: an entry
 * keyed by the socket's address with bit 1 set (bit 0 is the application
 * entry), aux[PEND_APP] the segment's application time, aux[PEND_TCP] when
 * TCP handed it on.  TCP output is serialised per socket (the socket lock,
 * owned or bh-locked), so one entry per socket cannot mix two segments,
 * whichever task, softirq or CPU transmits next: a per-CPU slot could, when
 * a task was preempted between the two points (PREEMPT_RT) and another
 * transmitted on its CPU meanwhile.
 */
enum { PEND_APP, PEND_TCP };

static __always_inline unsigned long sl_sk_pend_id(const struct sock *sk)
{
	return (unsigned long)sk | 2;
}

/* __tcp_transmit_skb(sk, skb, clone_it, gfp, rcv_nxt): the original skb */
static int sl_tx_tcp(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sl_pipeline *p = ev->p;
	struct sock *sk = sl_ev_ptr(ev, 0);
	struct sk_buff *skb = sl_ev_ptr(ev, 1);
	const struct tcp_skb_cb *tcb = TCP_SKB_CB(skb);
	struct sl_flight_ent *e;
	s32 payload;
	u64 app;

	/* its IP output never came */
	sl_chain_forget(p, sl_sk_pend_id(sk), SL_LOSS_UNMATCHED);
	payload = tcb->end_seq - tcb->seq;
	payload -= !!(tcb->tcp_flags & TCPHDR_SYN) + !!(tcb->tcp_flags & TCPHDR_FIN);
	if (payload <= 0)
		return SL_DONE;	/* ACK, SYN, FIN: not followed */
	app = sl_tx_tcp_app(p, sk, tcb->seq, tcb->end_seq);
	if (!app && sl_net_task_filter(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return SL_DONE;
	}
	e = sl_chain_start(p, sl_sk_pend_id(sk), TX_TCP, ev->now);
	if (e) {
		e->aux[PEND_APP] = app;
		e->aux[PEND_TCP] = e->ts[TX_TCP];
		sl_chain_put(e);
	}
	return SL_DONE;
}

/*
 * Without the __tcp_transmit_skb point, IP output decides from the TCP
 * header (skb->data is at it; the IP header is not pushed yet).
 */
static bool sl_tx_tcp_hdr(struct sl_pipeline *p, const struct sock *sk,
			  const struct sk_buff *skb, u64 *app)
{
	const struct tcphdr *th = (const struct tcphdr *)skb->data;
	u32 seq, hlen;
	s32 payload;

	if (!sl_net_linear(skb, th, sizeof(*th)))
		return false;
	hlen = th->doff * 4U;
	payload = (s32)(skb->len - hlen);
	if (hlen < sizeof(*th) || payload <= 0)
		return false;
	seq = ntohl(th->seq);
	*app = sl_tx_tcp_app(p, sk, seq, seq + payload + th->fin);
	if (!*app && sl_net_task_filter(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return false;
	}
	return true;
}

/* udp_sendmsg / udpv6_sendmsg: the task's send starts now */
static int sl_tx_udp_send(struct sl_ev *ev)
{
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;

	if (!sl_task_ok(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return -1;
	}
	if (sl_chain_followed(p, ev->ident))
		return -1;	/* udpv6_sendmsg to a v4-mapped address */
	e = sl_chain_start(p, ev->ident, TX_UAPP, sl_now());
	if (!e)
		return -1;
	sl_chain_put(e);
	return 0;
}

/* IP output: the skb here goes down to the device; its chain starts. */
static void sl_tx_ip(struct sl_ev *ev, struct sock *sk, struct sk_buff *skb,
		     u8 proto)
{
	struct sl_pipeline *p = ev->p;
	const struct udphdr *uh;
	struct sl_flight_ent *e;
	u64 app = 0, tcp = 0;

	if (!sk || READ_ONCE(sk->sk_protocol) != proto)
		return;		/* SCTP, a TCP reset, ICMP, ... */
	if (proto == IPPROTO_TCP) {
		if (sl_hook_armed(&sl_tx_hooks[HTX_TCP])) {
			e = sl_chain_get(p, sl_sk_pend_id(sk));
			if (!e)
				return;	/* not a segment with payload */
			app = e->aux[PEND_APP];
			tcp = e->aux[PEND_TCP];
			sl_chain_remove(p, e, SL_NO_LOSS);
		} else if (!sl_tx_tcp_hdr(p, sk, skb, &app)) {
			return;
		}
	} else {
		e = in_task() ? sl_chain_get(p, current->pid) : NULL;
		if (e) {
			app = e->ts[TX_UAPP];
			sl_chain_put(e);
		}
		if (!app && sl_net_task_filter(p))
			return;	/* counted at sendmsg */
	}
	if (sl_net_port_filter(p)) {
		/* the first four bytes of a TCP and a UDP header are the ports */
		uh = (const struct udphdr *)skb_transport_header(skb);
		if (!skb_transport_header_was_set(skb) ||
		    !sl_net_linear(skb, uh, sizeof(*uh)) ||
		    !sl_net_ports_ok(p, proto, uh->source, uh->dest)) {
			sl_loss(p, SL_LOSS_FILTERED);
			return;
		}
	}
	e = sl_chain_start(p, (unsigned long)skb, TX_IP, ev->now);
	if (!e)
		return;
	e->ts[TX_APP] = app;
	if (proto == IPPROTO_TCP)
		e->ts[TX_TCP] = tcp;
	else
		e->ts[TX_UAPP] = app;
	sl_chain_put(e);
}

/* __ip_queue_xmit(sk, skb, fl, tos), ip6_xmit(sk, skb, ...), inet6_csk_xmit(sk, skb, fl) */
static int sl_tx_ip_tcp(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	sl_tx_ip(ev, sl_ev_ptr(ev, 0), sl_ev_ptr(ev, 1), IPPROTO_TCP);
	return SL_DONE;
}

/* ip_send_skb(net, skb) */
static int sl_tx_ip_udp4(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sk_buff *skb = sl_ev_ptr(ev, 1);

	sl_tx_ip(ev, skb->sk, skb, IPPROTO_UDP);
	return SL_DONE;
}

/* ip6_send_skb(skb) */
static int sl_tx_ip_udp6(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sk_buff *skb = sl_ev_ptr(ev, 0);

	sl_tx_ip(ev, skb->sk, skb, IPPROTO_UDP);
	return SL_DONE;
}

/*
 * The skb enters the device's queue (__dev_queue_xmit): the first time
 * only (a stacked device below passes it again), the interface filter.
 */
static int sl_tx_devq(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct sk_buff *skb = (const struct sk_buff *)ev->ident;
	struct sl_flight_ent *e = sl_chain_get(ev->p, ev->ident);

	if (!e)
		return SL_DONE;
	if (e->ts[TX_DEVQ]) {
		sl_chain_put(e);
		return SL_DONE;
	}
	if (!sl_net_dev_ok(ev->p, skb->dev)) {
		sl_chain_remove(ev->p, e, SL_LOSS_FILTERED);
		return SL_DONE;
	}
	e->ts[TX_DEVQ] = ev->now;
	e->aux[SL_AUX_IF] = sl_net_if_tag(&sl_tx_ifs, skb->dev);
	sl_chain_put(e);
	return SL_DONE;
}

/*
 * The driver returned.  NETDEV_TX_BUSY: the skb goes back to the qdisc and
 * comes again (its queueing goes on).  Anything else: the driver has it.
 * An entry that never reached the driver is another life of this address.
 */
static int sl_tx_done(struct sl_ev *ev, struct sl_flight_ent *e)
{
	if (!e->ts[TX_DRV]) {
		e->ts[TX_DONE] = 0;
		return SL_KEEP;
	}
	if ((int)sl_ev_arg(ev, 1) == NETDEV_TX_BUSY) {
		e->ts[TX_DRV] = 0;
		e->ts[TX_DONE] = 0;
		return SL_KEEP;
	}
	sl_chain_finish(ev->p, e);
	return SL_DONE;
}

/*
 * consume_skb of a followed skb: without the driver_done point, the free
 * of an skb the driver took is its transmit done; otherwise it ends the
 * chain unrecorded (the original of a software segmentation, a copy
 * replaced).
 */
static int sl_tx_consume(struct sl_ev *ev, struct sl_flight_ent *e)
{
	if (e->ts[TX_DRV] && !sl_hook_armed(&sl_tx_hooks[HTX_DONE])) {
		e->ts[TX_DONE] = ev->now;
		sl_chain_finish(ev->p, e);
		return SL_DONE;
	}
	return SL_FORGET;
}

/*
 * __skb_gso_segment(skb, features, tx_path): software segmentation.  The
 * chain moves to the first segment; the original is consumed after.
 */
static int sl_tx_gso_pre(struct sl_ev *ev)
{
	return sl_chain_followed(ev->p, ev->ident) ? 0 : -1;
}

static int sl_tx_gso_ret(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sk_buff *segs = (struct sk_buff *)ev->ret;
	struct sl_flight_ent *e, *n;

	if (IS_ERR_OR_NULL(segs) || (unsigned long)segs == ev->ident)
		return SL_DONE;
	e = sl_chain_get(ev->p, ev->ident);
	if (!e)
		return SL_DONE;
	n = sl_chain_move(ev->p, e, (unsigned long)segs);
	if (n)
		sl_chain_put(n);
	return SL_DONE;
}

/* A TCP socket closes: forget its application entries. */
static int sl_tx_close(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct sock *sk = sl_ev_ptr(ev, 0);

	if ((int)sl_ev_arg(ev, 1) == TCP_CLOSE &&
	    READ_ONCE(sk->sk_protocol) == IPPROTO_TCP) {
		sl_chain_forget(ev->p, sl_sk_id(sk), SL_NO_LOSS);
		sl_chain_forget(ev->p, sl_sk_pend_id(sk), SL_NO_LOSS);
	}
	return SL_DONE;
}

/* per-interface totals, from the application to the driver */
static void sl_tx_on_record(struct sl_pipeline *p,
			    const struct sl_flight_ent *e)
{
	sl_net_record_if(p, &sl_tx_ifs, e, TX_APP, TX_DONE);
}

/* With an interface filter, a packet dropped before its device queue does not count. */
static bool sl_tx_on_drop(struct sl_pipeline *p, const struct sl_flight_ent *e)
{
	return e->ts[TX_DEVQ] || !READ_ONCE(p->filter.ifindex);
}

SL_TP_DEFINE(net_dev_queue, (struct sk_buff *skb), (unsigned long)skb)
SL_TP_DEFINE(net_dev_start_xmit,
	     (const struct sk_buff *skb, const struct net_device *dev),
	     (unsigned long)skb)
SL_TP_DEFINE(net_dev_xmit,
	     (struct sk_buff *skb, int rc, struct net_device *dev,
	      unsigned int skb_len),
	     (unsigned long)skb, (unsigned long)rc)
SL_TP_DEFINE(inet_sock_set_state,
	     (const struct sock *sk, const int oldstate, const int newstate),
	     (unsigned long)sk, (unsigned long)newstate)

static const struct sl_cand sl_c_tx_tcp_send[] = {
	SL_KRPD("tcp_sendmsg", 0),
	SL_KRPD("tcp_sendmsg_locked", 0),
};

static const struct sl_cand sl_c_tx_udp_send[] = { SL_KRPD("udp_sendmsg", 0) };
static const struct sl_cand sl_c_tx_udp6_send[] = { SL_KRPD("udpv6_sendmsg", 0) };
static const struct sl_cand sl_c_tx_tcp[] = { SL_KPD("__tcp_transmit_skb", 0) };

static const struct sl_cand sl_c_tx_ip[] = {
	SL_KPD("__ip_queue_xmit", 0),
	SL_KPD("ip_queue_xmit", 0),
};

static const struct sl_cand sl_c_tx_ip6[] = {
	SL_KPD("ip6_xmit", 0),
	SL_KPD("inet6_csk_xmit", 0),
};

static const struct sl_cand sl_c_tx_ip_udp[] = { SL_KPD("ip_send_skb", 0) };
static const struct sl_cand sl_c_tx_ip6_udp[] = { SL_KPD("ip6_send_skb", 0) };

/* net_dev_queue(skb), __dev_queue_xmit(skb, sb_dev), dev_queue_xmit(skb) */
static const struct sl_cand sl_c_tx_devq[] = {
	SL_TPD(net_dev_queue),
	SL_KPD("__dev_queue_xmit", 0),
	SL_KPD("dev_queue_xmit", 0),
};

/* net_dev_start_xmit(skb, dev), dev_hard_start_xmit(first, dev, txq, ret) */
static const struct sl_cand sl_c_tx_drv[] = {
	SL_TPD(net_dev_start_xmit),
	SL_KPD("dev_hard_start_xmit", 0),
};

static const struct sl_cand sl_c_tx_done[] = { SL_TPD(net_dev_xmit) };
static const struct sl_cand sl_c_tx_gso[] = { SL_KRPD("__skb_gso_segment", 0) };

/* inet_sock_set_state(sk, old, new), tcp_set_state(sk, new) */
static const struct sl_cand sl_c_tx_close[] = {
	SL_TPD(inet_sock_set_state),
	SL_KPD("tcp_set_state", 0),
};

#define TASK	SL_OBJ_TASK

static struct sl_hook sl_tx_hooks[HTX_NR] = {
	[HTX_TCP_SEND] = SL_POINT("tcp_sendmsg", sl_c_tx_tcp_send, SL_ACT_NONE,
				  TX_APP, 0, .pre = sl_tx_tcp_send,
				  .post = sl_tx_tcp_send_ret),
	[HTX_UDP_SEND] = SL_POINT("udp_sendmsg", sl_c_tx_udp_send,
				  SL_ACT_FORGET, TX_UAPP, TASK,
				  .pre = sl_tx_udp_send),
	[HTX_UDP6_SEND] = SL_POINT("udpv6_sendmsg", sl_c_tx_udp6_send,
				   SL_ACT_FORGET, TX_UAPP, TASK,
				   .pre = sl_tx_udp_send),
	[HTX_TCP] = SL_POINT("tcp_transmit", sl_c_tx_tcp, SL_ACT_NONE, TX_TCP,
			     1, .post = sl_tx_tcp),
	[HTX_IP] = SL_POINT("ip_queue_xmit", sl_c_tx_ip, SL_ACT_NONE, TX_IP, 1,
			    .post = sl_tx_ip_tcp),
	[HTX_IP6] = SL_POINT("ip6_xmit", sl_c_tx_ip6, SL_ACT_NONE, TX_IP, 1,
			     .post = sl_tx_ip_tcp),
	[HTX_IP_UDP] = SL_POINT("ip_send_skb", sl_c_tx_ip_udp, SL_ACT_NONE,
				TX_IP, 1, .post = sl_tx_ip_udp4),
	[HTX_IP6_UDP] = SL_POINT("ip6_send_skb", sl_c_tx_ip6_udp, SL_ACT_NONE,
				 TX_IP, 0, .post = sl_tx_ip_udp6),
	[HTX_DEVQ] = SL_POINT("dev_queue", sl_c_tx_devq, SL_ACT_NONE, TX_DEVQ,
			      0, .post = sl_tx_devq),
	[HTX_DRV] = SL_POINT("driver_start", sl_c_tx_drv, SL_ACT_MARK, TX_DRV,
			     0),
	[HTX_DONE] = SL_POINT("driver_done", sl_c_tx_done, SL_ACT_END, TX_DONE,
			      0, .post = sl_tx_done),
	[HTX_GSO] = SL_POINT("gso_segment", sl_c_tx_gso, SL_ACT_NONE, TX_DEVQ,
			     0, .optional = true, .pre = sl_tx_gso_pre,
			     .post = sl_tx_gso_ret),
	[HTX_CLOSE] = SL_POINT("sock_close", sl_c_tx_close, SL_ACT_NONE, TX_APP,
			       0, .optional = true, .post = sl_tx_close),
	[HTX_KFREE] = SL_POINT("kfree_skb", sl_c_kfree, SL_ACT_DROP, TX_DONE, 0),
	[HTX_CONSUME] = SL_POINT("consume_skb", sl_c_consume, SL_ACT_FORGET,
				 TX_DONE, 0, .post = sl_tx_consume),
};

#undef TASK

static int sl_tx_setup(struct sl_pipeline *p)
{
	static const char * const from[] = { "sendmsg" };
	static const char * const to[] = { "driver_done" };

	sl_dim_init(&sl_tx_ifs, sl_tx_stages, TXS_NFIXED, 1, sl_net_if_suffix,
		    from, to);
	return sl_net_notifier_get();
}

struct sl_pipeline sl_pipe_net_tx = {
	.name = "net_tx",
	.desc = "transmit path per packet: application, TCP/UDP, IP, qdisc, driver, done",
	.key = STACKLAT_KEY_SKB,
	.filter_caps = SL_F_TGID | SL_F_TID | SL_F_LPORT | SL_F_RPORT |
		       SL_F_PROTO | SL_F_IFINDEX,
	.hooks = sl_tx_hooks,
	.nhooks = ARRAY_SIZE(sl_tx_hooks),
	.stages = sl_tx_stages,
	.nstages = ARRAY_SIZE(sl_tx_stages),
	.setup = sl_tx_setup,
	.teardown = sl_net_notifier_put,
	.on_record = sl_tx_on_record,
	.on_drop = sl_tx_on_drop,
};
