// SPDX-License-Identifier: GPL-2.0
/*
 * netsize and netdrop: value histograms of the network, every packet (not
 * only the followed ones), in bytes.
 *
 * netsize:
 *   "<if>.rx"       skb->len handed to the stack (netif_receive_skb
 *                   tracepoint, after GRO: one sample per skb, the
 *                   Ethernet header already pulled)
 *   "<if>.tx"       skb->len handed to the driver (net_dev_start_xmit, the
 *                   Ethernet header included; a GSO skb is one sample)
 *   "<proto>.sendmsg"  the size asked of inet_sendmsg / inet6_sendmsg
 *   "<proto>.recvmsg"  the bytes inet_recvmsg / inet6_recvmsg returned
 *                   (errors are not sizes), <proto> tcp, udp or other
 *   Interfaces in SL_DIM_SLOTS slots, then "other.rx" / "other.tx", freed
 *   when the interface is unregistered.
 *
 * netdrop: every skb freed as a drop (the kfree_skb tracepoint), its
 * length in bytes, by reason and by interface ("<if>.drops", the skb's
 * device, "other.drops" when it has none).  Reasons are named by the
 * kernel itself: its drop_reasons_by_subsys lists (6.4+) or drop_reasons
 * array (6.0-6.3), read when a reason is first seen.  A kernel without
 * them (older, or a reason no list names) has the stage named after the
 * dropping function instead, resolved (%ps) in process context when the
 * stages are read; until then it is "~".  SL_DIM_SLOTS reasons or
 * locations, then "other".  The loss accounting: everything is counted
 * in some stage; nmissed of the probes is in status.  With a threshold
 * (events --all netdrop), a line for every drop: sl_zd_line().
 */
#include <linux/kallsyms.h>
#if defined(COMPAT_HAS_DROP_REASONS_BY_SUBSYS) || defined(COMPAT_HAS_DROP_REASONS)
#include <net/dropreason.h>
#endif

#include "net.h"

/* ---- netsize ----------------------------------------------------------- */

enum {
	ZS_TCP_SEND, ZS_UDP_SEND, ZS_OTHER_SEND,
	ZS_TCP_RECV, ZS_UDP_RECV, ZS_OTHER_RECV,
	ZS_NFIXED,
	ZS_RX = ZS_NFIXED,
	ZS_TX = ZS_RX + SL_DIM_SLOTS + 1,
	ZS_NSTAGES = ZS_TX + SL_DIM_SLOTS + 1
};

#define ZS_B(n, f, t) { n, f, t, SL_PT_NONE, SL_PT_NONE, STACKLAT_UNIT_BYTES }

static struct sl_stage sl_zs_stages[ZS_NSTAGES] = {
	[ZS_TCP_SEND] = ZS_B("tcp.sendmsg", "sendmsg", "sendmsg"),
	[ZS_UDP_SEND] = ZS_B("udp.sendmsg", "sendmsg", "sendmsg"),
	[ZS_OTHER_SEND] = ZS_B("other.sendmsg", "sendmsg", "sendmsg"),
	[ZS_TCP_RECV] = ZS_B("tcp.recvmsg", "recvmsg", "recvmsg"),
	[ZS_UDP_RECV] = ZS_B("udp.recvmsg", "recvmsg", "recvmsg"),
	[ZS_OTHER_RECV] = ZS_B("other.recvmsg", "recvmsg", "recvmsg"),
};

static struct sl_dim sl_zs_rx_ifs, sl_zs_tx_ifs;
static const char * const sl_zs_rx_suffix[1] = { ".rx" };
static const char * const sl_zs_tx_suffix[1] = { ".tx" };

static __always_inline unsigned int sl_zs_proto(const struct socket *sock)
{
	const struct sock *sk = READ_ONCE(sock->sk);
	u16 proto = sk ? READ_ONCE(sk->sk_protocol) : 0;

	return proto == IPPROTO_TCP ? 0 : proto == IPPROTO_UDP ? 1 : 2;
}

static __always_inline bool sl_zs_dev_ok(struct sl_pipeline *p,
					 const struct net_device *dev)
{
	if (sl_net_dev_ok(p, dev))
		return true;
	sl_loss(p, SL_LOSS_FILTERED);
	return false;
}

static int sl_zs_rx(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct sk_buff *skb = sl_ev_ptr(ev, 0);
	const struct net_device *dev = READ_ONCE(skb->dev);

	if (sl_zs_dev_ok(ev->p, dev))
		sl_record_value(ev->p, sl_dim_stage(&sl_zs_rx_ifs,
			(u32)(sl_net_if_tag(&sl_zs_rx_ifs, dev) - 1)), skb->len);
	return SL_KEEP;
}

static int sl_zs_tx(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct sk_buff *skb = sl_ev_ptr(ev, 0);
	const struct net_device *dev = sl_ev_ptr(ev, 1);

	if (sl_zs_dev_ok(ev->p, dev))
		sl_record_value(ev->p, sl_dim_stage(&sl_zs_tx_ifs,
			(u32)(sl_net_if_tag(&sl_zs_tx_ifs, dev) - 1)), skb->len);
	return SL_KEEP;
}

/* inet_sendmsg(sock, msg, size) */
static int sl_zs_send(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	if (!sl_task_ok(ev->p)) {
		sl_loss(ev->p, SL_LOSS_FILTERED);
		return SL_KEEP;
	}
	sl_record_value(ev->p, ZS_TCP_SEND + sl_zs_proto(sl_ev_ptr(ev, 0)),
			sl_ev_arg(ev, 2));
	return SL_KEEP;
}

/* inet_recvmsg(sock, msg, size, flags) entry: the task filter */
static int sl_zs_recv_entry(struct sl_ev *ev)
{
	if (sl_task_ok(ev->p))
		return 0;
	sl_loss(ev->p, SL_LOSS_FILTERED);
	return -1;
}

static int sl_zs_recv_ret(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	int ret = (int)ev->ret;

	if (ret >= 0)
		sl_record_value(ev->p,
				ZS_TCP_RECV + sl_zs_proto(sl_ev_ptr(ev, 0)),
				(u64)ret);
	return SL_KEEP;
}

SL_TP_DEFINE(netif_receive_skb, (struct sk_buff *skb), (unsigned long)skb)
SL_TP_DEFINE(net_dev_start_xmit,
	     (const struct sk_buff *skb, const struct net_device *dev),
	     (unsigned long)skb, (unsigned long)dev)

static const struct sl_cand sl_c_zs_rx[] = { SL_TPD(netif_receive_skb) };
static const struct sl_cand sl_c_zs_tx[] = { SL_TPD(net_dev_start_xmit) };
static const struct sl_cand sl_c_zs_send4[] = { SL_KPD("inet_sendmsg", 0) };
static const struct sl_cand sl_c_zs_send6[] = { SL_KPD("inet6_sendmsg", 0) };
static const struct sl_cand sl_c_zs_recv4[] = { SL_KRPD("inet_recvmsg", 0) };
static const struct sl_cand sl_c_zs_recv6[] = { SL_KRPD("inet6_recvmsg", 0) };

static struct sl_hook sl_zs_hooks[] = {
	SL_POINT("rx", sl_c_zs_rx, SL_ACT_NONE, 0, 0, .post = sl_zs_rx),
	SL_POINT("tx", sl_c_zs_tx, SL_ACT_NONE, 0, 0, .post = sl_zs_tx),
	SL_POINT("sendmsg4", sl_c_zs_send4, SL_ACT_NONE, 0, 0,
		 .post = sl_zs_send),
	SL_POINT("sendmsg6", sl_c_zs_send6, SL_ACT_NONE, 0, 0,
		 .optional = true, .post = sl_zs_send),
	SL_POINT("recvmsg4", sl_c_zs_recv4, SL_ACT_NONE, 0, 0,
		 .pre = sl_zs_recv_entry, .post = sl_zs_recv_ret),
	SL_POINT("recvmsg6", sl_c_zs_recv6, SL_ACT_NONE, 0, 0,
		 .optional = true,
		 .pre = sl_zs_recv_entry, .post = sl_zs_recv_ret),
};

static void sl_net_units(struct sl_stage *st, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		st[i].unit = STACKLAT_UNIT_BYTES;
}

static int sl_zs_setup(struct sl_pipeline *p)
{
	static const char * const rx[] = { "rx" };
	static const char * const tx[] = { "tx" };
	static struct sl_dim *const dims[] = { &sl_zs_rx_ifs, &sl_zs_tx_ifs };

	sl_dim_init(&sl_zs_rx_ifs, sl_zs_stages, ZS_RX, 1, sl_zs_rx_suffix,
		    rx, rx);
	sl_dim_init(&sl_zs_tx_ifs, sl_zs_stages, ZS_TX, 1, sl_zs_tx_suffix,
		    tx, tx);
	sl_net_units(sl_zs_stages, ZS_NSTAGES);
	return sl_net_notifier_get(p, dims, ARRAY_SIZE(dims));
}

SL_PIPELINE(netsize) = {
	.name = "netsize",
	.desc = "sizes in bytes: rx/tx skbs per interface, sendmsg/recvmsg per protocol",
	.key = STACKLAT_KEY_NONE,
	.filter_caps = SL_F_TGID | SL_F_TID | SL_F_IFINDEX,
	.hooks = sl_zs_hooks,
	.nhooks = ARRAY_SIZE(sl_zs_hooks),
	.stages = sl_zs_stages,
	.nstages = ARRAY_SIZE(sl_zs_stages),
	.setup = sl_zs_setup,
	.teardown = sl_net_notifier_put,
};

/* ---- netdrop ----------------------------------------------------------- */

enum {
	ZD_REASON = 0,
	ZD_IF = ZD_REASON + SL_DIM_SLOTS + 1,
	ZD_NSTAGES = ZD_IF + SL_DIM_SLOTS + 1
};

static struct sl_stage sl_zd_stages[ZD_NSTAGES];
static struct sl_dim sl_zd_reasons;
static struct sl_dim sl_zd_ifs;
static const char * const sl_zd_reason_suffix[1] = { "" };
static const char * const sl_zd_if_suffix[1] = { ".drops" };

/* slot names still to resolve: a location named in process context */
#define SL_ZD_UNNAMED	"~"
#define SL_ZD_LOC_KEY	BIT_ULL(63)

/* The kernel's own name of drop reason @reason, or NULL. */
static __always_inline const char *sl_zd_reason_name(u32 reason)
{
#if defined(COMPAT_HAS_DROP_REASONS_BY_SUBSYS)
	const struct drop_reason_list *l;
	u32 subsys = reason >> SKB_DROP_REASON_SUBSYS_SHIFT;
	u32 code = reason & ~SKB_DROP_REASON_SUBSYS_MASK;

	if (subsys >= SKB_DROP_REASON_SUBSYS_NUM)
		return NULL;
	/*
	 * preemption is off in a probe (SL_TP_DEFINE turns it off where the
	 * kernel does not): an RCU-sched read-side section
	 */
	l = rcu_dereference_sched_check(drop_reasons_by_subsys[subsys], 1);
	if (!l || code >= READ_ONCE(l->n_reasons))
		return NULL;
	return READ_ONCE(l->reasons[code]);
#elif defined(COMPAT_HAS_DROP_REASONS)
	if (reason >= SKB_DROP_REASON_MAX)
		return NULL;
	return READ_ONCE(drop_reasons[reason]);
#else
	return NULL;
#endif
}

/* Is [@h, @h + @len) inside @skb's linear buffer (head to tail)? */
static __always_inline bool sl_zd_in(const struct sk_buff *skb, const void *h,
				     unsigned int len)
{
	const unsigned char *c = h;

	return c >= skb->head && c + len <= skb_tail_pointer(skb);
}

/*
 * A dropped packet's protocol, addresses (its source, then destination)
 * and ports, where its IP header is set and in the linear buffer: the
 * header at skb->network_header, whatever skb->data points at (the layer
 * that drops it has pulled its own header or not).  IPv6 extension
 * headers are not walked (the protocol is then the first of them, no
 * ports); a fragment after the first has no ports.
 */
static void sl_zd_hdrs(const struct sk_buff *skb, struct sl_ev_obj *o)
{
	const unsigned char *nh, *th = NULL;
	u16 off = skb->network_header;
	u8 proto;

	if (!off)
		return;		/* never set: at the head of the buffer */
	nh = skb->head + off;
	if (skb->protocol == htons(ETH_P_IP)) {
		const struct iphdr *h = (const struct iphdr *)nh;

		if (!sl_zd_in(skb, h, sizeof(*h)) || h->version != 4 || h->ihl < 5)
			return;
		proto = h->protocol;
		o->family = AF_INET;
		memcpy(o->saddr, &h->saddr, 4);
		memcpy(o->daddr, &h->daddr, 4);
		if (!(h->frag_off & htons(IP_OFFSET)))
			th = nh + h->ihl * 4;
	} else if (skb->protocol == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *h = (const struct ipv6hdr *)nh;

		if (!sl_zd_in(skb, h, sizeof(*h)) || h->version != 6)
			return;
		proto = h->nexthdr;
		o->family = AF_INET6;
		memcpy(o->saddr, &h->saddr, 16);
		memcpy(o->daddr, &h->daddr, 16);
		th = nh + sizeof(*h);
	} else {
		return;
	}
	o->proto = proto;
	o->flags |= STACKLAT_EVENT_F_PROTO | STACKLAT_EVENT_F_ADDR;
	if ((proto == IPPROTO_TCP || proto == IPPROTO_UDP) && th &&
	    sl_zd_in(skb, th, 4)) {
		const __be16 *ports = (const __be16 *)th;

		o->sport = ntohs(ports[0]);
		o->dport = ntohs(ports[1]);
		o->flags |= STACKLAT_EVENT_F_PORTS;
	}
}

/*
 * The line of a drop (events: a threshold, any, or "all"): its reason as
 * the stage (the reason's slot: "other" once the slots are taken), where
 * (the dropping function and offset, named when read), the interface and
 * what the headers say.  The task is the one whose context dropped it
 * (process context: a send, a socket's backlog); a drop in softirq or
 * interrupt context belongs to no process: tgid 0, comm "-".
 */
static void sl_zd_line(struct sl_pipeline *p, const struct sk_buff *skb,
		       const struct net_device *dev, u32 stage,
		       unsigned long where, u64 now, bool stacks, u32 stack)
{
	struct sl_ev_obj o;

	memset(&o, 0, sizeof(o));
	if (stacks) {
		o.flags |= STACKLAT_EVENT_F_STACK;
		o.stack = stack;
	}
	if (dev) {
		memcpy(o.ifname, dev->name, sizeof(o.ifname));
		o.flags |= STACKLAT_EVENT_F_IF;
	}
	if (where) {
		o.where = where;
		o.flags |= STACKLAT_EVENT_F_WHERE;
	}
	sl_zd_hdrs(skb, &o);
	o.anon = !in_task();
	sl_event_emit_line(p, stage, now, &o);
}

/* kfree_skb(skb, location[, reason[, rx_sk]]) tracepoint */
static int sl_zd_drop(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct sk_buff *skb = sl_ev_ptr(ev, 0);
	const struct net_device *dev = READ_ONCE(skb->dev);
	struct sl_pipeline *p = ev->p;
	u32 reason = (u32)sl_ev_arg(ev, 2);
	const char *name = sl_zd_reason_name(reason);
	/* a kernel text address has the top bit set, a reason + 1 never */
	u64 key = name ? (u64)reason + 1 : (u64)sl_ev_arg(ev, 1);
	u32 tag, stack = 0;
	bool stacks;

	if (!sl_zs_dev_ok(p, dev))
		return SL_KEEP;
	tag = sl_dim_tag(&sl_zd_reasons, key, name ?: SL_ZD_UNNAMED);
	sl_record_value(p, sl_dim_stage(&sl_zd_reasons, tag), skb->len);
	/* on request: the stack that dropped it, its bytes summed per stack */
	stacks = sl_pipeline_stacks_on(p);
	if (unlikely(stacks))
		stack = sl_stack_capture(p, 0, 0, skb->len);
	if (unlikely(sl_events_thresh(p)))
		sl_zd_line(p, skb, dev, sl_dim_stage(&sl_zd_reasons, tag),
			   (unsigned long)sl_ev_arg(ev, 1), sl_ev_now(ev),
			   stacks, stack);
	sl_record_value(p, sl_dim_stage(&sl_zd_ifs,
			(u32)(sl_net_if_tag(&sl_zd_ifs, dev) - 1)), skb->len);
	return SL_KEEP;
}

#if defined(COMPAT_KFREE_SKB_TP_HAS_REASON)
#define SL_ZD_REASON	((unsigned long)reason)
#else
#define SL_ZD_REASON	0UL
#endif
SL_TP_DEFINE(kfree_skb, (SL_COMPAT_KFREE_SKB_ARGS), (unsigned long)skb,
	     (unsigned long)location, SL_ZD_REASON)

static const struct sl_cand sl_c_zd_drop[] = { SL_TPD(kfree_skb) };

static struct sl_hook sl_zd_hooks[] = {
	SL_POINT("kfree_skb", sl_c_zd_drop, SL_ACT_NONE, 0, 0,
		 .post = sl_zd_drop),
};

/*
 * Before the stages are read (process context, sl_lock): name the slots
 * of dropping locations "<function>" (%ps, never an address).
 */
static void sl_zd_refresh(struct sl_pipeline *p)
{
	unsigned int i;
	u64 key;

	for (i = 0; i < SL_DIM_SLOTS; i++) {
		struct sl_stage *st = &sl_zd_reasons.stages[i];

		key = READ_ONCE(sl_zd_reasons.key[i]);
		if (!(key & SL_ZD_LOC_KEY) || READ_ONCE(st->name[0]) != '~')
			continue;
		snprintf(st->name, sizeof(st->name), "%ps",
			 (void *)(unsigned long)key);
		/* an address %ps could not name is never shown */
		if (!strncmp(st->name, "0x", 2))
			strscpy(st->name, "unknown", sizeof(st->name));
	}
}

static int sl_zd_setup(struct sl_pipeline *p)
{
	static const char * const from[] = { "kfree_skb" };
	static struct sl_dim *const dims[] = { &sl_zd_ifs };

	sl_dim_init(&sl_zd_reasons, sl_zd_stages, ZD_REASON, 1,
		    sl_zd_reason_suffix, from, from);
	sl_dim_init(&sl_zd_ifs, sl_zd_stages, ZD_IF, 1, sl_zd_if_suffix,
		    from, from);
	sl_net_units(sl_zd_stages, ZD_NSTAGES);
	return sl_net_notifier_get(p, dims, ARRAY_SIZE(dims));
}

SL_PIPELINE(netdrop) = {
	.name = "netdrop",
	.desc = "dropped packets (kfree_skb) in bytes, by the kernel's drop reason (or dropping function) and by interface",
	.key = STACKLAT_KEY_NONE,
	.filter_caps = SL_F_IFINDEX,
	.hooks = sl_zd_hooks,
	.nhooks = ARRAY_SIZE(sl_zd_hooks),
	.stages = sl_zd_stages,
	.nstages = ARRAY_SIZE(sl_zd_stages),
	.setup = sl_zd_setup,
	.teardown = sl_net_notifier_put,
	.refresh = sl_zd_refresh,
	/* a line for every drop (sl_zd_line()) */
	.own_events = true,
	/* "stacks netdrop on": the dropping stack, per drop */
	.stack_points = true,
};
