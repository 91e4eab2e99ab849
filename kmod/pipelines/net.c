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
 * Every point can be missing (skip_hooks= or an older kernel): chains then
 * start at the first point that is armed, and every stage whose two points
 * remain is still measured.  Totals are also split by interface (the
 * receiving device for rx, the device queued on for tx): one
 * "<ifname>.total" stage per interface seen, SL_NET_IFSLOTS per load, the
 * rest in "other.total".
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
#include <net/net_namespace.h>
#include <trace/events/skb.h>
#include <trace/events/net.h>
#include <trace/events/sock.h>

#include "sl.h"

/* ---- shared ------------------------------------------------------------ */

#define SL_NET_IFSLOTS	8			/* interfaces named per load */
#define SL_NET_NOPT	(SL_FLIGHT_NTS - 1)	/* a point no hook sets */
#define SL_NET_LIST_MAX	256			/* skbs walked in one list */

/* aux[0] of an skb entry: 1 + its interface slot, 0 when unknown */
#define SL_AUX_IF	0

/* The points (timestamp slots) of the two pipelines. */
enum { RX_DRV, RX_IP, RX_L4, RX_QUEUE, RX_APP };
enum { TX_APP, TX_TCP, TX_IP, TX_DEVQ, TX_DRV, TX_DONE, TX_UAPP };

struct sl_net_ifs {
	u64 key[SL_NET_IFSLOTS];	/* netns inode << 32 | ifindex; 0 free */
	struct sl_stage *stages;	/* SL_NET_IFSLOTS + 1 ("other") */
};

static __always_inline unsigned long sl_net_id(const void *obj)
{
	return (unsigned long)obj;
}

static __always_inline bool sl_net_armed(const struct sl_hook *hk)
{
	return READ_ONCE(hk->state) == STACKLAT_HOOK_ARMED;
}

static __always_inline void *sl_arg(struct pt_regs *regs, unsigned int n)
{
	return (void *)regs_get_kernel_argument(regs, n);
}

/* A task filter is set: packets without an application point are out. */
static __always_inline bool sl_net_task_filter(const struct sl_pipeline *p)
{
	return READ_ONCE(p->filter.tgid) || READ_ONCE(p->filter.tid);
}

/* Stop following @obj without counting it as lost. */
static void sl_net_forget(struct sl_pipeline *p, unsigned long ident)
{
	u64 key = sl_flight_key(p->id, ident);
	struct sl_flight_ent *e = sl_flight_lookup(key);

	if (e)
		sl_flight_remove(e, key);
}

/*
 * Start following @ident at point @pt.  An entry that is already there
 * belongs to the same skb handed to the stack again (a tunnel's inner
 * packet) or to an earlier life of this address that ended without a free
 * tracepoint: either way the chain starts over.
 */
static struct sl_flight_ent *sl_net_start(struct sl_pipeline *p,
					  unsigned long ident, unsigned int pt,
					  u64 now)
{
	struct sl_flight_ent *e = sl_flight_lookup(sl_flight_key(p->id, ident));
	unsigned int i;

	if (!e)
		return sl_chain_start(p, ident, pt, now);
	WRITE_ONCE(e->born, now);
	for (i = 0; i < SL_FLIGHT_NTS; i++)
		e->ts[i] = 0;
	e->aux[0] = 0;
	e->aux[1] = 0;
	e->ts[pt] = now;
	return e;
}

/*
 * The chain in @e (key @key) continues as @ident: copied to a new entry,
 * the old one freed.  Returns false if the table had no room (the chain is
 * then lost, counted table_full by sl_chain_start()).
 */
static bool sl_net_move(struct sl_pipeline *p, struct sl_flight_ent *e,
			u64 key, unsigned long ident)
{
	struct sl_flight_ent *n;
	unsigned int i;

	n = sl_net_start(p, ident, 0, READ_ONCE(e->born));
	if (n) {
		for (i = 0; i < SL_FLIGHT_NTS; i++)
			n->ts[i] = e->ts[i];
		n->aux[0] = e->aux[0];
		n->aux[1] = e->aux[1];
	}
	sl_flight_remove(e, key);
	return n != NULL;
}

/* Is @st the per-interface stage of @ifname ("<ifname>.total" or "<ifname>#N.total")? */
static bool sl_net_stage_is(const struct sl_stage *st, const char *ifname)
{
	unsigned int i;
	char c, want;

	for (i = 0; i < IFNAMSIZ; i++) {
		c = READ_ONCE(st->name[i]);
		want = READ_ONCE(ifname[i]);
		if (!want)
			return i && (c == '.' || c == '#');
		if (c != want)
			return false;
	}
	return false;
}

/*
 * Name slot @slot "<ifname>.total" (with "#<slot>" after the name when
 * another namespace's interface of that name has a slot already).  Runs in
 * a handler, once per interface: byte stores only, the first byte last, so
 * a reader that sees a name sees all of it.
 */
static void sl_net_name_slot(struct sl_net_ifs *ifs, unsigned int slot,
			     const char *ifname)
{
	static const char suffix[] = ".total";
	struct sl_stage *st = &ifs->stages[slot];
	unsigned int i, n = 0, k;
	bool dup = false;
	char first;

	for (i = 0; i < SL_NET_IFSLOTS; i++)
		if (i != slot && READ_ONCE(ifs->stages[i].name[0]) &&
		    sl_net_stage_is(&ifs->stages[i], ifname))
			dup = true;
	first = READ_ONCE(ifname[0]);
	if (!first) {
		first = '?';
		n = 1;
	} else {
		while (n < IFNAMSIZ - 1 && READ_ONCE(ifname[n])) {
			if (n)
				WRITE_ONCE(st->name[n], READ_ONCE(ifname[n]));
			n++;
		}
	}
	if (dup) {
		WRITE_ONCE(st->name[n++], '#');
		WRITE_ONCE(st->name[n++], '0' + slot);
	}
	for (k = 0; k < sizeof(suffix); k++)
		WRITE_ONCE(st->name[n + k], suffix[k]);
	/* the rest of the name before its first byte: readers skip a stage
	 * whose name is empty
	 */
	smp_wmb();
	WRITE_ONCE(st->name[0], first);
}

/* The slot of @dev, claimed on first sight; SL_NET_IFSLOTS is "other". */
static unsigned int sl_net_ifslot(struct sl_net_ifs *ifs,
				  const struct net_device *dev)
{
	unsigned int i;
	u64 key, k;

	if (!dev)
		return SL_NET_IFSLOTS;
	key = (u64)dev_net(dev)->ns.inum << 32 | (u32)dev->ifindex;
	for (i = 0; i < SL_NET_IFSLOTS; i++) {
		k = READ_ONCE(ifs->key[i]);
		if (k == key)
			return i;
		if (k)
			continue;
		k = cmpxchg(&ifs->key[i], 0, key);
		if (!k) {
			sl_net_name_slot(ifs, i, dev->name);
			return i;
		}
		if (k == key)
			return i;
	}
	return SL_NET_IFSLOTS;
}

static __always_inline bool sl_net_dev_ok(const struct sl_pipeline *p,
					  const struct net_device *dev)
{
	u32 ifx = READ_ONCE(p->filter.ifindex);

	return !ifx || (dev && (u32)dev->ifindex == ifx);
}

/*
 * Record every stage of the chain whose two points were passed, and the
 * total of its interface.  Per-interface stages use SL_NET_NOPT as both
 * points, so sl_chain_record() leaves them alone.
 */
static void sl_net_record(struct sl_pipeline *p, const struct sl_flight_ent *e,
			  unsigned int nfixed, unsigned int from,
			  unsigned int to)
{
	u64 slot = e->aux[SL_AUX_IF];

	sl_chain_record(p, e);
	if (slot && slot <= SL_NET_IFSLOTS + 1 && e->ts[from] && e->ts[to])
		sl_record(p, nfixed + slot - 1, (s64)(e->ts[to] - e->ts[from]));
}

static void sl_net_setup_ifs(struct sl_net_ifs *ifs, struct sl_stage *st,
			     const char *from, const char *to)
{
	unsigned int i;

	ifs->stages = st;
	for (i = 0; i <= SL_NET_IFSLOTS; i++) {
		st[i].from = from;
		st[i].to = to;
		st[i].from_pt = SL_NET_NOPT;
		st[i].to_pt = SL_NET_NOPT;
		st[i].name[0] = '\0';
		if (i < SL_NET_IFSLOTS)
			ifs->key[i] = 0;
	}
	strscpy(st[SL_NET_IFSLOTS].name, "other.total",
		sizeof(st[SL_NET_IFSLOTS].name));
}

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

static struct sl_net_ifs sl_rx_ifs;

/* Hook indices: handlers look at which of the points are armed. */
enum {
	HRX_DRV, HRX_IP, HRX_IP_LIST, HRX_IP6, HRX_IP6_LIST, HRX_TCP4, HRX_TCP6,
	HRX_UDP4, HRX_UDP6, HRX_TCP_QUEUE, HRX_UDP_QUEUE, HRX_COALESCE,
	HRX_COPY, HRX_UDP_READ, HRX_KFREE, HRX_CONSUME, HRX_NR
};

static struct sl_hook sl_rx_hooks[HRX_NR];

/*
 * The point chains start at: the driver hand-off, or where it is missing
 * the first receive point that is armed.
 */
static unsigned int sl_rx_start_pt(void)
{
	if (sl_net_armed(&sl_rx_hooks[HRX_DRV]))
		return RX_DRV;
	if (sl_net_armed(&sl_rx_hooks[HRX_IP]) ||
	    sl_net_armed(&sl_rx_hooks[HRX_IP6]))
		return RX_IP;
	return RX_L4;
}

static struct sl_flight_ent *sl_rx_begin(struct sl_pipeline *p,
					 struct sk_buff *skb, unsigned int pt,
					 u64 now)
{
	struct sl_flight_ent *e;

	if (!sl_net_dev_ok(p, skb->dev)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return NULL;
	}
	e = sl_net_start(p, sl_net_id(skb), pt, now);
	if (e)
		e->aux[SL_AUX_IF] = 1 + sl_net_ifslot(&sl_rx_ifs, skb->dev);
	return e;
}

/* Mark point @pt of @skb's chain, or start the chain there if @pt is first. */
static struct sl_flight_ent *sl_rx_follow(struct sl_pipeline *p,
					  struct sk_buff *skb, unsigned int pt,
					  u64 now)
{
	struct sl_flight_ent *e = sl_chain_mark(p, sl_net_id(skb), pt, now);

	if (e || pt != sl_rx_start_pt())
		return e;
	return sl_rx_begin(p, skb, pt, now);
}

static void sl_rx_drv(struct sl_hook *hk, struct sk_buff *skb)
{
	struct sl_pipeline *p = hk->pipe;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	sl_rx_begin(p, skb, RX_DRV, sl_now());
}

static void sl_rx_drv_tp(void *data, struct sk_buff *skb)
{
	sl_rx_drv(data, skb);
}

/* __netif_receive_skb(skb) */
static int sl_rx_drv_kp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_rx_drv(sl_hook_of_kp(kp), sl_arg(regs, 0));
	return 0;
}

/*
 * Can the IP packet in @skb (skb->data at its header) reach a transport
 * point?  TCP and UDP can, and so can what may still carry them here: IPsec
 * in transport mode (the same skb goes on to TCP/UDP once decrypted) and,
 * for IPv6, extension headers.  Anything else (ICMP, IGMP, a tunnel whose
 * inner packet is received again as a new chain) can never be a sample.
 * A header outside the linear part is given the benefit of the doubt.
 */
static __always_inline bool sl_rx_ip_carries_l4(const struct sk_buff *skb,
						bool v6)
{
	u8 proto;

	if (v6) {
		const struct ipv6hdr *h = (const struct ipv6hdr *)skb->data;

		if (!sl_net_linear(skb, h, sizeof(*h)))
			return true;
		proto = h->nexthdr;
	} else {
		const struct iphdr *h = (const struct iphdr *)skb->data;

		if (!sl_net_linear(skb, h, sizeof(*h)))
			return true;
		proto = h->protocol;
	}
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
 * The IP point of @skb.  A packet that cannot reach a transport point
 * leaves the chain here, uncounted like a segment without payload: its
 * entry would otherwise wait for a free that some protocols do without a
 * tracepoint.
 */
static void sl_rx_ip_one(struct sl_pipeline *p, struct sk_buff *skb, bool v6,
			 u64 now)
{
	if (sl_rx_follow(p, skb, RX_IP, now) && !sl_rx_ip_carries_l4(skb, v6))
		sl_net_forget(p, sl_net_id(skb));
}

/* ip_rcv_core(skb, net), ip_rcv(skb, ...), ip6_rcv_core(skb, ...), ipv6_rcv(skb, ...) */
static int sl_rx_ip(struct kprobe *kp, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_kp(kp);

	if (!sl_on(hk->pipe))
		return 0;
	sl_hook_hit(hk);
	sl_rx_ip_one(hk->pipe, sl_arg(regs, 0), hk == &sl_rx_hooks[HRX_IP6],
		     sl_now());
	return 0;
}

/*
 * ip_list_rcv(head, pt, orig_dev) / ipv6_list_rcv(...): only needed where
 * the per-skb hook could not go on *_rcv_core (its first candidate), which
 * the list path calls too.  The list is the caller's, on this CPU.
 */
static int sl_rx_ip_list(struct kprobe *kp, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_kp(kp);
	struct sl_hook *single = hk == &sl_rx_hooks[HRX_IP_LIST] ?
				 &sl_rx_hooks[HRX_IP] : &sl_rx_hooks[HRX_IP6];
	struct list_head *head = sl_arg(regs, 0);
	struct sk_buff *skb;
	unsigned int n = 0;
	u64 now;

	if (!sl_on(hk->pipe) ||
	    (sl_net_armed(single) && READ_ONCE(single->cand) == 0))
		return 0;
	sl_hook_hit(hk);
	now = sl_now();
	list_for_each_entry(skb, head, list) {
		if (++n > SL_NET_LIST_MAX)
			break;
		sl_rx_ip_one(hk->pipe, skb, single == &sl_rx_hooks[HRX_IP6],
			     now);
	}
	return 0;
}

/*
 * Transport receive: skb->data points at the TCP or UDP header.  Segments
 * without payload leave the chain here, and so do those the port or
 * protocol filter rejects.  A header that is not in the linear part (never
 * seen from the drivers tested) cannot be read safely: the skb is let go.
 */
static void sl_rx_l4(struct sl_hook *hk, struct sk_buff *skb, u8 proto)
{
	struct sl_pipeline *p = hk->pipe;
	__be16 sport = 0, dport = 0;
	bool empty = false;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	if (!sl_rx_follow(p, skb, RX_L4, sl_now()))
		return;
	if (proto == IPPROTO_TCP) {
		const struct tcphdr *th = (const struct tcphdr *)skb->data;

		if (!sl_net_linear(skb, th, sizeof(*th)))
			goto forget;
		sport = th->source;
		dport = th->dest;
		empty = skb->len <= th->doff * 4U;
	} else {
		const struct udphdr *uh = (const struct udphdr *)skb->data;

		if (!sl_net_linear(skb, uh, sizeof(*uh)))
			goto forget;
		sport = uh->source;
		dport = uh->dest;
	}
	if (empty)
		goto forget;
	if (!sl_net_ports_ok(p, proto, dport, sport)) {
		sl_loss(p, SL_LOSS_FILTERED);
		goto forget;
	}
	return;
forget:
	sl_net_forget(p, sl_net_id(skb));
}

static int sl_rx_tcp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_rx_l4(sl_hook_of_kp(kp), sl_arg(regs, 0), IPPROTO_TCP);
	return 0;
}

static int sl_rx_udp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_rx_l4(sl_hook_of_kp(kp), sl_arg(regs, 0), IPPROTO_UDP);
	return 0;
}

/* tcp_queue_rcv(sk, skb, ...), tcp_rcv_established(sk, skb), __udp_enqueue_schedule_skb(sk, skb) */
static int sl_rx_queue(struct kprobe *kp, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_kp(kp);

	if (!sl_on(hk->pipe))
		return 0;
	sl_hook_hit(hk);
	sl_chain_mark(hk->pipe, sl_net_id(sl_arg(regs, 1)), RX_QUEUE, sl_now());
	return 0;
}

/*
 * skb_try_coalesce(to, from, ...): TCP merges @from's data into @to, the skb
 * queued before it (on the socket's receive queue or its backlog), and
 * frees @from without a tracepoint.  If @to is followed, its sample stands
 * for both and @from's chain ends here: counted in this hook's hits.  If it
 * is not (a pure ACK whose chain ended at the transport layer, or an skb
 * whose chain ended at its first, partial read), @from's chain moves to
 * @to, so that the read of that data still ends it.
 */
struct sl_coalesce_args {
	struct sk_buff *to;
	struct sk_buff *from;
};

static int sl_rx_coalesce(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_coalesce_args *a = (struct sl_coalesce_args *)ri->data;
	struct sl_pipeline *p = hk->pipe;

	if (!sl_on(p))
		return 1;
	a->from = sl_arg(regs, 1);
	if (!sl_flight_lookup(sl_flight_key(p->id, sl_net_id(a->from))))
		return 1;	/* not followed: no return handler */
	a->to = sl_arg(regs, 0);
	return 0;
}

static int sl_rx_coalesce_ret(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_coalesce_args *a = (struct sl_coalesce_args *)ri->data;
	struct sl_pipeline *p = hk->pipe;
	u64 key = sl_flight_key(p->id, sl_net_id(a->from));
	struct sl_flight_ent *e;

	if (!(u8)regs_return_value(regs))
		return 0;	/* not merged: both go on */
	e = sl_flight_lookup(key);
	if (!e)
		return 0;
	if (sl_flight_lookup(sl_flight_key(p->id, sl_net_id(a->to)))) {
		sl_hook_hit(hk);
		sl_flight_remove(e, key);
	} else {
		sl_net_move(p, e, key, sl_net_id(a->to));
	}
	return 0;
}

/* kfree_skb_partial(skb, head_stolen), where skb_try_coalesce is missing */
static int sl_rx_absorbed(struct kprobe *kp, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_kp(kp);
	u64 key;
	struct sl_flight_ent *e;

	if (!sl_on(hk->pipe))
		return 0;
	key = sl_flight_key(hk->pipe->id, sl_net_id(sl_arg(regs, 0)));
	e = sl_flight_lookup(key);
	if (e && sl_flight_remove(e, key))
		sl_hook_hit(hk);
	return 0;
}

/* The application copies @skb's data: the chain ends, in the reader. */
static void sl_rx_app(struct sl_hook *hk, const struct sk_buff *skb)
{
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;
	u64 key;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	key = sl_flight_key(p->id, sl_net_id(skb));
	e = sl_flight_lookup(key);
	if (!e)
		return;		/* not followed */
	if (!sl_task_ok(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		sl_flight_remove(e, key);
		return;
	}
	e->ts[RX_APP] = sl_now();
	sl_net_record(p, e, RXS_NFIXED, RX_DRV, RX_APP);
	sl_flight_remove(e, key);
}

static void sl_rx_app_tp(void *data, const struct sk_buff *skb, int len)
{
	sl_rx_app(data, skb);
}

/* skb_copy_datagram_iter(skb, offset, to, len) */
static int sl_rx_app_kp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_rx_app(sl_hook_of_kp(kp), sl_arg(regs, 0));
	return 0;
}

/* skb_consume_udp(sk, skb, len): after udp_recvmsg copied the datagram */
static int sl_rx_app_udp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_rx_app(sl_hook_of_kp(kp), sl_arg(regs, 1));
	return 0;
}

/* ---- frees, for both pipelines ---------------------------------------- */

static void sl_tx_freed(struct sl_pipeline *p, const struct sk_buff *skb);

/*
 * Does the drop of chain @e count?  Only if the packet is known to pass the
 * filter: with a port or protocol filter, an rx packet dropped before the
 * transport layer (where its ports are read) is not counted; with an
 * interface filter, neither is a tx packet dropped before its device queue.
 */
static bool sl_net_drop_counts(const struct sl_pipeline *p,
			       const struct sl_flight_ent *e)
{
	if (p == &sl_pipe_net_rx)
		return e->ts[RX_L4] || !(READ_ONCE(p->filter.lport) ||
					 READ_ONCE(p->filter.rport) ||
					 READ_ONCE(p->filter.proto));
	return e->ts[TX_DEVQ] || !READ_ONCE(p->filter.ifindex);
}

/* skbs freed before their chain ended: drops count, consumption does not */
static void sl_net_kfree(struct sl_hook *hk, const struct sk_buff *skb)
{
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;
	bool counts;
	u64 key;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	key = sl_flight_key(p->id, sl_net_id(skb));
	e = sl_flight_lookup(key);
	if (!e)
		return;
	counts = sl_net_drop_counts(p, e);
	if (sl_flight_remove(e, key) && counts)
		sl_loss(p, SL_LOSS_DROPPED);
}

static void sl_net_consume(struct sl_hook *hk, const struct sk_buff *skb)
{
	if (!sl_on(hk->pipe))
		return;
	sl_hook_hit(hk);
	if (hk->pipe == &sl_pipe_net_tx)
		sl_tx_freed(hk->pipe, skb);
	else
		sl_net_forget(hk->pipe, sl_net_id(skb));
}

static void sl_net_kfree_tp(void *data, SL_COMPAT_KFREE_SKB_ARGS)
{
	sl_net_kfree(data, skb);
}

static void sl_net_consume_tp(void *data, SL_COMPAT_CONSUME_SKB_ARGS)
{
	sl_net_consume(data, skb);
}

/* kfree_skb_reason(skb, reason) / kfree_skb(skb) / consume_skb(skb) */
static int sl_net_kfree_kp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_net_kfree(sl_hook_of_kp(kp), sl_arg(regs, 0));
	return 0;
}

/* sk_skb_reason_drop(sk, skb, reason), kfree_skb_reason's name since 6.11 */
static int sl_net_kfree_sk_kp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_net_kfree(sl_hook_of_kp(kp), sl_arg(regs, 1));
	return 0;
}

static int sl_net_consume_kp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_net_consume(sl_hook_of_kp(kp), sl_arg(regs, 0));
	return 0;
}

/* shared by the two pipelines' kfree_skb and consume_skb hooks */
static const struct sl_cand sl_c_kfree[] = {
	SL_TP("kfree_skb", sl_net_kfree_tp),
	SL_KP("sk_skb_reason_drop", sl_net_kfree_sk_kp),
	SL_KP("kfree_skb_reason", sl_net_kfree_kp),
	SL_KP("kfree_skb", sl_net_kfree_kp),
};

static const struct sl_cand sl_c_consume[] = {
	SL_TP("consume_skb", sl_net_consume_tp),
	SL_KP("consume_skb", sl_net_consume_kp),
};

/* ---- net_rx hooks ------------------------------------------------------ */

#define SL_HOOK(idx, hname, c, opt) \
	[idx] = { .name = hname, .cands = c, .ncands = ARRAY_SIZE(c), \
		  .optional = opt }

static const struct sl_cand sl_c_rx_drv[] = {
	SL_TP("netif_receive_skb", sl_rx_drv_tp),
	SL_KP("__netif_receive_skb", sl_rx_drv_kp),
};

static const struct sl_cand sl_c_rx_ip[] = {
	SL_KP("ip_rcv_core", sl_rx_ip),
	SL_KP("ip_rcv", sl_rx_ip),
};

static const struct sl_cand sl_c_rx_ip_list[] = {
	SL_KP("ip_list_rcv", sl_rx_ip_list),
};

static const struct sl_cand sl_c_rx_ip6[] = {
	SL_KP("ip6_rcv_core", sl_rx_ip),
	SL_KP("ipv6_rcv", sl_rx_ip),
};

static const struct sl_cand sl_c_rx_ip6_list[] = {
	SL_KP("ipv6_list_rcv", sl_rx_ip_list),
};

static const struct sl_cand sl_c_rx_tcp4[] = { SL_KP("tcp_v4_rcv", sl_rx_tcp) };
static const struct sl_cand sl_c_rx_tcp6[] = { SL_KP("tcp_v6_rcv", sl_rx_tcp) };
static const struct sl_cand sl_c_rx_udp4[] = { SL_KP("udp_rcv", sl_rx_udp) };
static const struct sl_cand sl_c_rx_udp6[] = { SL_KP("udpv6_rcv", sl_rx_udp) };

static const struct sl_cand sl_c_rx_tcp_queue[] = {
	SL_KP("tcp_queue_rcv", sl_rx_queue),
	SL_KP("tcp_rcv_established", sl_rx_queue),
};

static const struct sl_cand sl_c_rx_udp_queue[] = {
	SL_KP("__udp_enqueue_schedule_skb", sl_rx_queue),
	SL_KP("udp_queue_rcv_one_skb", sl_rx_queue),
};

static const struct sl_cand sl_c_rx_coalesce[] = {
	SL_KRP("skb_try_coalesce", sl_rx_coalesce, sl_rx_coalesce_ret,
	       sizeof(struct sl_coalesce_args)),
	SL_KP("kfree_skb_partial", sl_rx_absorbed),
};

static const struct sl_cand sl_c_rx_copy[] = {
	SL_TP("skb_copy_datagram_iovec", sl_rx_app_tp),
	SL_KP("skb_copy_datagram_iter", sl_rx_app_kp),
};

static const struct sl_cand sl_c_rx_udp_read[] = {
	SL_KP("skb_consume_udp", sl_rx_app_udp),
};

static struct sl_hook sl_rx_hooks[HRX_NR] = {
	SL_HOOK(HRX_DRV, "driver", sl_c_rx_drv, false),
	SL_HOOK(HRX_IP, "ip_rcv", sl_c_rx_ip, false),
	SL_HOOK(HRX_IP_LIST, "ip_list_rcv", sl_c_rx_ip_list, true),
	SL_HOOK(HRX_IP6, "ipv6_rcv", sl_c_rx_ip6, false),
	SL_HOOK(HRX_IP6_LIST, "ipv6_list_rcv", sl_c_rx_ip6_list, true),
	SL_HOOK(HRX_TCP4, "tcp_v4_rcv", sl_c_rx_tcp4, false),
	SL_HOOK(HRX_TCP6, "tcp_v6_rcv", sl_c_rx_tcp6, false),
	SL_HOOK(HRX_UDP4, "udp_rcv", sl_c_rx_udp4, false),
	SL_HOOK(HRX_UDP6, "udpv6_rcv", sl_c_rx_udp6, false),
	SL_HOOK(HRX_TCP_QUEUE, "tcp_queue", sl_c_rx_tcp_queue, false),
	SL_HOOK(HRX_UDP_QUEUE, "udp_queue", sl_c_rx_udp_queue, false),
	SL_HOOK(HRX_COALESCE, "coalesce", sl_c_rx_coalesce, true),
	SL_HOOK(HRX_COPY, "copy_to_app", sl_c_rx_copy, false),
	SL_HOOK(HRX_UDP_READ, "udp_read", sl_c_rx_udp_read, false),
	SL_HOOK(HRX_KFREE, "kfree_skb", sl_c_kfree, false),
	SL_HOOK(HRX_CONSUME, "consume_skb", sl_c_consume, false),
};

static int sl_rx_setup(struct sl_pipeline *p)
{
	sl_net_setup_ifs(&sl_rx_ifs, &sl_rx_stages[RXS_NFIXED], "driver",
			 "copy_to_app");
	return 0;
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

static struct sl_net_ifs sl_tx_ifs;

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
static int sl_tx_tcp_send(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_pipeline *p = hk->pipe;
	struct sock *sk = sl_arg(regs, 0);
	const struct tcp_sock *tp = tcp_sk(sk);
	struct sl_flight_ent *e;
	u32 wseq, nxt;
	u64 now;

	if (!sl_on(p))
		return 1;
	if (!sl_task_ok(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return 1;
	}
	now = sl_now();
	wseq = READ_ONCE(tp->write_seq);
	nxt = READ_ONCE(tp->snd_nxt);
	e = sl_flight_lookup(sl_flight_key(p->id, sl_sk_id(sk)));
	if (!e) {
		e = sl_chain_start(p, sl_sk_id(sk), SK_OLD, now);
		if (!e)
			return 1;
	} else if (!after(wseq, nxt)) {
		/* all earlier data is out: this send's is the oldest */
		e->ts[SK_OLD] = now;
		e->ts[SK_NEW] = 0;
	} else {
		e->ts[SK_NEW] = now;
		e->aux[SK_NEW_SEQ] = wseq;
	}
	WRITE_ONCE(e->born, now);
	WRITE_ONCE(e->aux[SK_BUSY], 1);
	*(struct sock **)ri->data = sk;
	return 0;
}

static int sl_tx_tcp_send_ret(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_pipeline *p = hk->pipe;
	struct sock *sk = *(struct sock **)ri->data;
	const struct tcp_sock *tp = tcp_sk(sk);
	u64 key = sl_flight_key(p->id, sl_sk_id(sk));
	struct sl_flight_ent *e;

	sl_hook_hit(hk);
	e = sl_flight_lookup(key);
	if (!e)
		return 0;
	WRITE_ONCE(e->aux[SK_BUSY], 0);
	if (!after(READ_ONCE(tp->write_seq), READ_ONCE(tp->snd_nxt)))
		sl_flight_remove(e, key);
	return 0;
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
	u64 key = sl_flight_key(p->id, sl_sk_id(sk));
	struct sl_flight_ent *e;
	u64 app, newer;

	if (before(seq, READ_ONCE(tp->snd_nxt)))
		return 0;
	e = sl_flight_lookup(key);
	if (!e)
		return 0;
	newer = READ_ONCE(e->ts[SK_NEW]);
	if (newer && !before(seq, (u32)READ_ONCE(e->aux[SK_NEW_SEQ]))) {
		/* the older data is out: the newer send is now the oldest */
		app = newer;
		e->ts[SK_OLD] = newer;
		e->ts[SK_NEW] = 0;
	} else {
		app = READ_ONCE(e->ts[SK_OLD]);
	}
	if (!READ_ONCE(e->aux[SK_BUSY]) &&
	    !before(end_seq, READ_ONCE(tp->write_seq)))
		sl_flight_remove(e, key);
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
static int sl_tx_tcp(struct kprobe *kp, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_kp(kp);
	struct sl_pipeline *p = hk->pipe;
	struct sock *sk = sl_arg(regs, 0);
	struct sk_buff *skb = sl_arg(regs, 1);
	const struct tcp_skb_cb *tcb = TCP_SKB_CB(skb);
	u64 key = sl_flight_key(p->id, sl_sk_pend_id(sk));
	struct sl_flight_ent *e;
	s32 payload;
	u64 app;

	if (!sl_on(p))
		return 0;
	sl_hook_hit(hk);
	e = sl_flight_lookup(key);
	if (e && sl_flight_remove(e, key))
		sl_loss(p, SL_LOSS_UNMATCHED);	/* its IP output never came */
	payload = tcb->end_seq - tcb->seq;
	payload -= !!(tcb->tcp_flags & TCPHDR_SYN) + !!(tcb->tcp_flags & TCPHDR_FIN);
	if (payload <= 0)
		return 0;	/* ACK, SYN, FIN: not followed */
	app = sl_tx_tcp_app(p, sk, tcb->seq, tcb->end_seq);
	if (!app && sl_net_task_filter(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return 0;
	}
	e = sl_chain_start(p, sl_sk_pend_id(sk), TX_TCP, sl_now());
	if (e) {
		e->aux[PEND_APP] = app;
		e->aux[PEND_TCP] = e->ts[TX_TCP];
	}
	return 0;
}

/*
 * Without the __tcp_transmit_skb hook, IP output decides from the TCP
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
static int sl_tx_udp_send(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_pipeline *p = hk->pipe;
	u64 key;

	if (!sl_on(p))
		return 1;
	if (!sl_task_ok(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return 1;
	}
	key = sl_flight_key(p->id, current->pid);
	if (sl_flight_lookup(key))
		return 1;	/* udpv6_sendmsg to a v4-mapped address */
	return sl_chain_start(p, current->pid, TX_UAPP, sl_now()) ? 0 : 1;
}

static int sl_tx_udp_send_ret(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);

	sl_hook_hit(hk);
	sl_net_forget(hk->pipe, current->pid);
	return 0;
}

/* IP output: the skb here goes down to the device; its chain starts. */
static void sl_tx_ip(struct sl_hook *hk, struct sock *sk, struct sk_buff *skb,
		     u8 proto)
{
	struct sl_pipeline *p = hk->pipe;
	const struct udphdr *uh;
	struct sl_flight_ent *e;
	u64 now, app = 0, tcp = 0;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	if (!sk || READ_ONCE(sk->sk_protocol) != proto)
		return;		/* SCTP, a TCP reset, ICMP, ... */
	now = sl_now();
	if (proto == IPPROTO_TCP) {
		if (sl_net_armed(&sl_tx_hooks[HTX_TCP])) {
			u64 key = sl_flight_key(p->id, sl_sk_pend_id(sk));

			e = sl_flight_lookup(key);
			if (!e)
				return;	/* not a segment with payload */
			app = READ_ONCE(e->aux[PEND_APP]);
			tcp = READ_ONCE(e->aux[PEND_TCP]);
			if (!sl_flight_remove(e, key))
				return;
		} else if (!sl_tx_tcp_hdr(p, sk, skb, &app)) {
			return;
		}
	} else {
		struct sl_flight_ent *t;

		t = in_task() ? sl_flight_lookup(sl_flight_key(p->id,
							       current->pid)) :
				NULL;
		if (t)
			app = t->ts[TX_UAPP];
		if (!app && sl_net_task_filter(p))
			return;	/* counted at sendmsg */
	}
	if (READ_ONCE(p->filter.lport) || READ_ONCE(p->filter.rport) ||
	    READ_ONCE(p->filter.proto)) {
		/* the first four bytes of a TCP and a UDP header are the ports */
		uh = (const struct udphdr *)skb_transport_header(skb);
		if (!skb_transport_header_was_set(skb) ||
		    !sl_net_linear(skb, uh, sizeof(*uh)) ||
		    !sl_net_ports_ok(p, proto, uh->source, uh->dest)) {
			sl_loss(p, SL_LOSS_FILTERED);
			return;
		}
	}
	e = sl_net_start(p, sl_net_id(skb), TX_IP, now);
	if (!e)
		return;
	e->ts[TX_APP] = app;
	if (proto == IPPROTO_TCP)
		e->ts[TX_TCP] = tcp;
	else
		e->ts[TX_UAPP] = app;
}

/* __ip_queue_xmit(sk, skb, fl, tos), ip6_xmit(sk, skb, ...), inet6_csk_xmit(sk, skb, fl) */
static int sl_tx_ip_tcp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_tx_ip(sl_hook_of_kp(kp), sl_arg(regs, 0), sl_arg(regs, 1),
		 IPPROTO_TCP);
	return 0;
}

/* ip_send_skb(net, skb) */
static int sl_tx_ip_udp4(struct kprobe *kp, struct pt_regs *regs)
{
	struct sk_buff *skb = sl_arg(regs, 1);

	sl_tx_ip(sl_hook_of_kp(kp), skb->sk, skb, IPPROTO_UDP);
	return 0;
}

/* ip6_send_skb(skb) */
static int sl_tx_ip_udp6(struct kprobe *kp, struct pt_regs *regs)
{
	struct sk_buff *skb = sl_arg(regs, 0);

	sl_tx_ip(sl_hook_of_kp(kp), skb->sk, skb, IPPROTO_UDP);
	return 0;
}

/* The skb enters the device's queue (__dev_queue_xmit). */
static void sl_tx_devq(struct sl_hook *hk, struct sk_buff *skb)
{
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;
	u64 key;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	key = sl_flight_key(p->id, sl_net_id(skb));
	e = sl_flight_lookup(key);
	if (!e || e->ts[TX_DEVQ])
		return;		/* not followed, or a stacked device below */
	if (!sl_net_dev_ok(p, skb->dev)) {
		sl_loss(p, SL_LOSS_FILTERED);
		sl_flight_remove(e, key);
		return;
	}
	e->ts[TX_DEVQ] = sl_now();
	e->aux[SL_AUX_IF] = 1 + sl_net_ifslot(&sl_tx_ifs, skb->dev);
}

static void sl_tx_devq_tp(void *data, struct sk_buff *skb)
{
	sl_tx_devq(data, skb);
}

/* __dev_queue_xmit(skb, sb_dev) / dev_queue_xmit(skb) */
static int sl_tx_devq_kp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_tx_devq(sl_hook_of_kp(kp), sl_arg(regs, 0));
	return 0;
}

static void sl_tx_drv(struct sl_hook *hk, const struct sk_buff *skb)
{
	if (!sl_on(hk->pipe))
		return;
	sl_hook_hit(hk);
	sl_chain_mark(hk->pipe, sl_net_id(skb), TX_DRV, sl_now());
}

static void sl_tx_drv_tp(void *data, const struct sk_buff *skb,
			 const struct net_device *dev)
{
	sl_tx_drv(data, skb);
}

/* dev_hard_start_xmit(first, dev, txq, ret): the first skb of the list */
static int sl_tx_drv_kp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_tx_drv(sl_hook_of_kp(kp), sl_arg(regs, 0));
	return 0;
}

static void sl_tx_end(struct sl_pipeline *p, struct sl_flight_ent *e, u64 key)
{
	e->ts[TX_DONE] = sl_now();
	sl_net_record(p, e, TXS_NFIXED, TX_APP, TX_DONE);
	sl_flight_remove(e, key);
}

/*
 * The driver returned.  NETDEV_TX_BUSY: the skb goes back to the qdisc and
 * comes again (its queueing goes on).  Anything else: the driver has it.
 * An entry that never reached the driver is another life of this address.
 */
static void sl_tx_done(void *data, struct sk_buff *skb, int rc,
		       struct net_device *dev, unsigned int skb_len)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;
	u64 key;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	key = sl_flight_key(p->id, sl_net_id(skb));
	e = sl_flight_lookup(key);
	if (!e || !e->ts[TX_DRV])
		return;
	if (rc == NETDEV_TX_BUSY) {
		e->ts[TX_DRV] = 0;
		return;
	}
	sl_tx_end(p, e, key);
}

/*
 * consume_skb of a followed skb: without the driver_done hook, the free of
 * an skb the driver took is its transmit done; otherwise it ends the chain
 * unrecorded (the original of a software segmentation, a copy replaced).
 */
static void sl_tx_freed(struct sl_pipeline *p, const struct sk_buff *skb)
{
	u64 key = sl_flight_key(p->id, sl_net_id(skb));
	struct sl_flight_ent *e = sl_flight_lookup(key);

	if (!e)
		return;
	if (e->ts[TX_DRV] && !sl_net_armed(&sl_tx_hooks[HTX_DONE]))
		sl_tx_end(p, e, key);
	else
		sl_flight_remove(e, key);
}

/*
 * __skb_gso_segment(skb, features, tx_path): software segmentation.  The
 * chain moves to the first segment; the original is consumed after.
 */
static int sl_tx_gso(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sk_buff *skb = sl_arg(regs, 0);

	if (!sl_on(hk->pipe) ||
	    !sl_flight_lookup(sl_flight_key(hk->pipe->id, sl_net_id(skb))))
		return 1;
	*(struct sk_buff **)ri->data = skb;
	return 0;
}

static int sl_tx_gso_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_pipeline *p = hk->pipe;
	struct sk_buff *segs = (struct sk_buff *)regs_return_value(regs);
	struct sk_buff *skb = *(struct sk_buff **)ri->data;
	u64 key = sl_flight_key(p->id, sl_net_id(skb));
	struct sl_flight_ent *e;

	sl_hook_hit(hk);
	if (IS_ERR_OR_NULL(segs) || segs == skb)
		return 0;
	e = sl_flight_lookup(key);
	if (!e)
		return 0;
	sl_net_move(p, e, key, sl_net_id(segs));
	return 0;
}

/* A TCP socket closes: forget its application entry. */
static void sl_tx_close(struct sl_hook *hk, const struct sock *sk, int state)
{
	if (!sl_on(hk->pipe))
		return;
	sl_hook_hit(hk);
	if (state == TCP_CLOSE && READ_ONCE(sk->sk_protocol) == IPPROTO_TCP) {
		sl_net_forget(hk->pipe, sl_sk_id(sk));
		sl_net_forget(hk->pipe, sl_sk_pend_id(sk));
	}
}

static void sl_tx_close_tp(void *data, const struct sock *sk,
			   const int oldstate, const int newstate)
{
	sl_tx_close(data, sk, newstate);
}

/* tcp_set_state(sk, state) */
static int sl_tx_close_kp(struct kprobe *kp, struct pt_regs *regs)
{
	sl_tx_close(sl_hook_of_kp(kp), sl_arg(regs, 0),
		    (int)regs_get_kernel_argument(regs, 1));
	return 0;
}

static const struct sl_cand sl_c_tx_tcp_send[] = {
	SL_KRP("tcp_sendmsg", sl_tx_tcp_send, sl_tx_tcp_send_ret,
	       sizeof(struct sock *)),
	SL_KRP("tcp_sendmsg_locked", sl_tx_tcp_send, sl_tx_tcp_send_ret,
	       sizeof(struct sock *)),
};

static const struct sl_cand sl_c_tx_udp_send[] = {
	SL_KRP("udp_sendmsg", sl_tx_udp_send, sl_tx_udp_send_ret, 0),
};

static const struct sl_cand sl_c_tx_udp6_send[] = {
	SL_KRP("udpv6_sendmsg", sl_tx_udp_send, sl_tx_udp_send_ret, 0),
};

static const struct sl_cand sl_c_tx_tcp[] = {
	SL_KP("__tcp_transmit_skb", sl_tx_tcp),
};

static const struct sl_cand sl_c_tx_ip[] = {
	SL_KP("__ip_queue_xmit", sl_tx_ip_tcp),
	SL_KP("ip_queue_xmit", sl_tx_ip_tcp),
};

static const struct sl_cand sl_c_tx_ip6[] = {
	SL_KP("ip6_xmit", sl_tx_ip_tcp),
	SL_KP("inet6_csk_xmit", sl_tx_ip_tcp),
};

static const struct sl_cand sl_c_tx_ip_udp[] = {
	SL_KP("ip_send_skb", sl_tx_ip_udp4),
};

static const struct sl_cand sl_c_tx_ip6_udp[] = {
	SL_KP("ip6_send_skb", sl_tx_ip_udp6),
};

static const struct sl_cand sl_c_tx_devq[] = {
	SL_TP("net_dev_queue", sl_tx_devq_tp),
	SL_KP("__dev_queue_xmit", sl_tx_devq_kp),
	SL_KP("dev_queue_xmit", sl_tx_devq_kp),
};

static const struct sl_cand sl_c_tx_drv[] = {
	SL_TP("net_dev_start_xmit", sl_tx_drv_tp),
	SL_KP("dev_hard_start_xmit", sl_tx_drv_kp),
};

static const struct sl_cand sl_c_tx_done[] = {
	SL_TP("net_dev_xmit", sl_tx_done),
};

static const struct sl_cand sl_c_tx_gso[] = {
	SL_KRP("__skb_gso_segment", sl_tx_gso, sl_tx_gso_ret,
	       sizeof(struct sk_buff *)),
};

static const struct sl_cand sl_c_tx_close[] = {
	SL_TP("inet_sock_set_state", sl_tx_close_tp),
	SL_KP("tcp_set_state", sl_tx_close_kp),
};

static struct sl_hook sl_tx_hooks[HTX_NR] = {
	SL_HOOK(HTX_TCP_SEND, "tcp_sendmsg", sl_c_tx_tcp_send, false),
	SL_HOOK(HTX_UDP_SEND, "udp_sendmsg", sl_c_tx_udp_send, false),
	SL_HOOK(HTX_UDP6_SEND, "udpv6_sendmsg", sl_c_tx_udp6_send, false),
	SL_HOOK(HTX_TCP, "tcp_transmit", sl_c_tx_tcp, false),
	SL_HOOK(HTX_IP, "ip_queue_xmit", sl_c_tx_ip, false),
	SL_HOOK(HTX_IP6, "ip6_xmit", sl_c_tx_ip6, false),
	SL_HOOK(HTX_IP_UDP, "ip_send_skb", sl_c_tx_ip_udp, false),
	SL_HOOK(HTX_IP6_UDP, "ip6_send_skb", sl_c_tx_ip6_udp, false),
	SL_HOOK(HTX_DEVQ, "dev_queue", sl_c_tx_devq, false),
	SL_HOOK(HTX_DRV, "driver_start", sl_c_tx_drv, false),
	SL_HOOK(HTX_DONE, "driver_done", sl_c_tx_done, false),
	SL_HOOK(HTX_GSO, "gso_segment", sl_c_tx_gso, true),
	SL_HOOK(HTX_CLOSE, "sock_close", sl_c_tx_close, true),
	SL_HOOK(HTX_KFREE, "kfree_skb", sl_c_kfree, false),
	SL_HOOK(HTX_CONSUME, "consume_skb", sl_c_consume, false),
};

static int sl_tx_setup(struct sl_pipeline *p)
{
	sl_net_setup_ifs(&sl_tx_ifs, &sl_tx_stages[TXS_NFIXED], "sendmsg",
			 "driver_done");
	return 0;
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
};

/*
 * A tracepoint probe with the wrong prototype is a crash.  Each probe is
 * type-checked here against the running kernel's own declaration: a
 * mismatch is a build error (incompatible pointer type), not an oops.
 */
static inline void __maybe_unused sl_net_proto_check(void)
{
	BUILD_BUG_ON(sizeof(register_trace_netif_receive_skb(sl_rx_drv_tp, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_skb_copy_datagram_iovec(sl_rx_app_tp, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_kfree_skb(sl_net_kfree_tp, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_consume_skb(sl_net_consume_tp, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_net_dev_queue(sl_tx_devq_tp, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_net_dev_start_xmit(sl_tx_drv_tp, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_net_dev_xmit(sl_tx_done, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_inet_sock_set_state(sl_tx_close_tp, NULL)) != sizeof(int));
}
