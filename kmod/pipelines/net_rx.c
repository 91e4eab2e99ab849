// SPDX-License-Identifier: GPL-2.0
/*
 * net_rx: the receive path, per packet (see net.h).
 */
#include "net.h"

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

/* the per-interface stages' slots */
static struct sl_dim sl_rx_ifs;


/* Hook indices: a few callbacks look at which points are armed. */
enum {
	HRX_DRV, HRX_IP, HRX_IP_LIST, HRX_IP6, HRX_IP6_LIST, HRX_TCP4, HRX_TCP6,
	HRX_UDP4, HRX_UDP6, HRX_TCP_QUEUE, HRX_UDP_QUEUE, HRX_COALESCE_TRY,
	HRX_COALESCE, HRX_COPY, HRX_UDP_READ, HRX_KFREE, HRX_CONSUME, HRX_NR
};

static struct sl_hook sl_rx_hooks[HRX_NR];

/* IPv6 extension headers walked to find the transport protocol */
#define SL_RX_V6_EXT_MAX	4

/*
 * The transport protocol of the packet at @nh (the network header, IPv4 or
 * IPv6 by @v6), looking through IPv6 extension headers (Hop-by-Hop, as
 * MLD reports carry, routing, destination options, fragment), and for TCP
 * and UDP its ports (*@ports says whether they were readable: not in a
 * later fragment, nor outside the linear part).  False when the IP header
 * itself is not in the linear part: nothing is decided then.  An extension
 * header that cannot be read leaves *@proto at its type.
 */
static __always_inline bool sl_rx_l3(const struct sk_buff *skb,
				     const unsigned char *nh, bool v6,
				     u8 *proto, __be16 *sport, __be16 *dport,
				     bool *ports)
{
	const unsigned char *th;
	unsigned int i;

	if (v6) {
		const struct ipv6hdr *h = (const struct ipv6hdr *)nh;

		if (!sl_net_linear(skb, h, sizeof(*h)))
			return false;
		*proto = h->nexthdr;
		th = nh + sizeof(*h);
		for (i = 0; i < SL_RX_V6_EXT_MAX; i++) {
			const struct ipv6_opt_hdr *eh =
				(const struct ipv6_opt_hdr *)th;

			if (*proto != NEXTHDR_HOP && *proto != NEXTHDR_ROUTING &&
			    *proto != NEXTHDR_DEST && *proto != NEXTHDR_FRAGMENT)
				break;
			if (!sl_net_linear(skb, eh, 8))
				break;
			if (*proto == NEXTHDR_FRAGMENT) {
				const struct frag_hdr *fh =
					(const struct frag_hdr *)th;

				*proto = fh->nexthdr;
				/* a later fragment has no transport header */
				if (fh->frag_off & htons(IP6_OFFSET)) {
					th = NULL;
					break;
				}
				th += sizeof(*fh);
			} else {
				*proto = eh->nexthdr;
				th += ipv6_optlen(eh);
			}
		}
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
 * mode (the same skb goes on to TCP/UDP once decrypted) and, for IPv6, an
 * extension header sl_rx_l3() could not look through.  Anything else (ICMP, IGMP, a tunnel whose inner
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
static int sl_rx_start_ok(struct sl_ev *ev)
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
	return SL_KEEP;
}

/* aux[1] of an skb entry: its ports (source << 16 | destination), for events */
#define SL_AUX_PORTS	1
#define SL_RX_PORTS_SET	BIT_ULL(32)

/*
 * A chain started: its interface's slot, and with slow events on, its
 * ports (at the driver and IP points, where the network header is at
 * skb->data).
 */
static void sl_rx_on_start(struct sl_ev *ev, struct sl_flight_ent *e)
{
	const struct sk_buff *skb = (const struct sk_buff *)ev->ident;
	__be16 sport, dport;
	bool ports;
	u8 proto;

	e->aux[SL_AUX_IF] = sl_net_if_tag(&sl_rx_ifs, skb->dev);
	e->aux[SL_AUX_PORTS] = 0;
	if (likely(!sl_events_thresh(ev->p)) || ev->hk->pt > RX_IP ||
	    (skb->protocol != htons(ETH_P_IP) &&
	     skb->protocol != htons(ETH_P_IPV6)))
		return;
	if (sl_rx_l3(skb, skb->data, skb->protocol == htons(ETH_P_IPV6),
		     &proto, &sport, &dport, &ports) && ports)
		e->aux[SL_AUX_PORTS] = SL_RX_PORTS_SET |
				       (u32)ntohs(sport) << 16 | ntohs(dport);
}

/* a slow packet: its interface and ports */
static void sl_rx_ev_obj(const struct sl_pipeline *p,
			 const struct sl_flight_ent *e, struct sl_ev_obj *o)
{
	u64 ports = e->aux[SL_AUX_PORTS];

	if (e->aux[SL_AUX_IF]) {
		sl_dim_label(&sl_rx_ifs, (u32)(e->aux[SL_AUX_IF] - 1),
			     o->ifname, sizeof(o->ifname));
		o->flags |= STACKLAT_EVENT_F_IF;
	}
	if (ports & SL_RX_PORTS_SET) {
		o->sport = (u16)(ports >> 16);
		o->dport = (u16)ports;
		o->flags |= STACKLAT_EVENT_F_PORTS;
	}
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

	if (sl_hook_armed(single) && sl_hook_cand(single) == 0)
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

SL_TP_DEFINE(skb_copy_datagram_iovec, (const struct sk_buff *skb, int len),
	     (unsigned long)skb)

/*
 * driver, ip_rcv, ipv6_rcv, tcp_queue and coalesce: net_common.c's (reqresp
 * has them too)
 */
static const struct sl_cand sl_c_rx_ip_list[] = { SL_KPD("ip_list_rcv", 0) };
static const struct sl_cand sl_c_rx_ip6_list[] = { SL_KPD("ipv6_list_rcv", 0) };
static const struct sl_cand sl_c_rx_tcp4[] = { SL_KPD("tcp_v4_rcv", 0) };
static const struct sl_cand sl_c_rx_tcp6[] = { SL_KPD("tcp_v6_rcv", 0) };
static const struct sl_cand sl_c_rx_udp4[] = { SL_KPD("udp_rcv", 0) };
static const struct sl_cand sl_c_rx_udp6[] = { SL_KPD("udpv6_rcv", 0) };

/* __udp_enqueue_schedule_skb(sk, skb) */
static const struct sl_cand sl_c_rx_udp_queue[] = {
	SL_KPD("__udp_enqueue_schedule_skb", 0),
	SL_KPD("udp_queue_rcv_one_skb", 0),
};

static const struct sl_cand sl_c_rx_copy[] = {
	SL_TPD(skb_copy_datagram_iovec),
	SL_KPD("skb_copy_datagram_iter", 0),
};

/* skb_consume_udp(sk, skb, len): after udp_recvmsg copied the datagram */
static const struct sl_cand sl_c_rx_udp_read[] = { SL_KPD("skb_consume_udp", 0) };

#define F	.flags = SL_PF_FIRST

static struct sl_hook sl_rx_hooks[HRX_NR] = {
	[HRX_DRV] = SL_POINT("driver", sl_net_c_rx_drv, SL_ACT_START, RX_DRV, 0, F),
	[HRX_IP] = SL_POINT("ip_rcv", sl_net_c_ip_rcv, SL_ACT_MARK, RX_IP, 0, F,
			    .post = sl_rx_ip4_post),
	[HRX_IP_LIST] = SL_POINT("ip_list_rcv", sl_c_rx_ip_list, SL_ACT_NONE,
				 RX_IP, 0, .optional = true,
				 .pre = sl_rx_ip_list),
	[HRX_IP6] = SL_POINT("ipv6_rcv", sl_net_c_ip6_rcv, SL_ACT_MARK, RX_IP, 0, F,
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
	[HRX_TCP_QUEUE] = SL_POINT("tcp_queue", sl_net_c_tcp_queue, SL_ACT_MARK,
				   RX_QUEUE, 1),
	[HRX_UDP_QUEUE] = SL_POINT("udp_queue", sl_c_rx_udp_queue, SL_ACT_MARK,
				   RX_QUEUE, 1),
	[HRX_COALESCE_TRY] = SL_POINT("coalesce_try", sl_net_c_coalesce_try,
				      SL_ACT_NONE, RX_QUEUE, 0, .optional = true,
				      .post = sl_net_coalesce_try),
	[HRX_COALESCE] = SL_POINT("coalesce", sl_net_c_coalesce, SL_ACT_NONE,
				  RX_QUEUE, 0, .optional = true,
				  .flags = SL_PF_NOHIT, .post = sl_net_coalesce),
	[HRX_COPY] = SL_POINT("copy_to_app", sl_c_rx_copy, SL_ACT_END, RX_APP,
			      0, .post = sl_rx_app_post),
	[HRX_UDP_READ] = SL_POINT("udp_read", sl_c_rx_udp_read, SL_ACT_END,
				  RX_APP, 1, .post = sl_rx_app_post),
	[HRX_KFREE] = SL_POINT("kfree_skb", sl_net_c_kfree, SL_ACT_DROP, RX_APP, 0),
	[HRX_CONSUME] = SL_POINT("consume_skb", sl_net_c_consume, SL_ACT_FORGET,
				 RX_APP, 0),
};

#undef F

static int sl_rx_setup(struct sl_pipeline *p)
{
	static const char * const from[] = { "driver" };
	static const char * const to[] = { "copy_to_app" };

	static struct sl_dim *const dims[] = { &sl_rx_ifs };

	sl_dim_init(&sl_rx_ifs, sl_rx_stages, RXS_NFIXED, 1, sl_net_if_suffix,
		    from, to);
	return sl_net_notifier_get(p, dims, ARRAY_SIZE(dims));
}

SL_PIPELINE(net_rx) = {
	.name = "net_rx",
	.desc = "receive path per packet: driver, IP, transport, socket, application",
	.key = STACKLAT_KEY_SKB,
	.filter_caps = SL_F_TGID | SL_F_TID | SL_F_LPORT | SL_F_RPORT |
		       SL_F_PROTO | SL_F_IFINDEX,
	.sampling = true,		/* a packet, at the first point armed */
	.hooks = sl_rx_hooks,
	.nhooks = ARRAY_SIZE(sl_rx_hooks),
	.stages = sl_rx_stages,
	.nstages = ARRAY_SIZE(sl_rx_stages),
	.setup = sl_rx_setup,
	.teardown = sl_net_notifier_put,
	.start_ok = sl_rx_start_ok,
	.on_start = sl_rx_on_start,
	.on_record = sl_rx_on_record,
	.on_drop = sl_rx_on_drop,
	.ev_obj = sl_rx_ev_obj,
};

