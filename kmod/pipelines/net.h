/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network pipelines (net_rx.c, net_tx.c, net_common.c): where a packet
 * spends its time inside the kernel, packet by packet, following each skb
 * through the in-flight table.
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
 *    first segment, and the segments it added are counted in the
 *    "gso_segment" hook's hits.  Retransmissions are followed from TCP down but have no
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
#ifndef _STACKLAT_NET_H
#define _STACKLAT_NET_H

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

#define SL_NET_IFSLOTS	SL_DIM_SLOTS		/* interfaces named */
#define SL_NET_LIST_MAX	256			/* skbs walked in one list */

/* aux[0] of an skb entry: 1 + its interface tag, 0 when unknown */
#define SL_AUX_IF	0

/* The points (timestamp slots) of the two pipelines. */
enum { RX_DRV, RX_IP, RX_L4, RX_QUEUE, RX_APP };
enum { TX_APP, TX_TCP, TX_IP, TX_DEVQ, TX_DRV, TX_DONE, TX_UAPP };

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
	u32 ifx = READ_ONCE(sl_filter_of(p)->ifindex);

	return !ifx || (dev && (u32)dev->ifindex == ifx);
}

/* The total of the chain's interface, between points @from and @to. */
static inline void sl_net_record_if(struct sl_pipeline *p, struct sl_dim *d,
			     const struct sl_flight_ent *e, unsigned int from,
			     unsigned int to)
{
	u64 tag = e->aux[SL_AUX_IF];

	if (tag && e->ts[from] && e->ts[to])
		sl_record(p, sl_dim_stage(d, (u32)(tag - 1)),
			  (s64)(e->ts[to] - e->ts[from]));
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
	const struct sl_filter *f = sl_filter_of(p);
	u16 fl = READ_ONCE(f->lport), fr = READ_ONCE(f->rport);
	u8 fp = READ_ONCE(f->proto);

	return (!fp || fp == proto) && (!fl || ntohs(lport) == fl) &&
	       (!fr || ntohs(rport) == fr);
}

static __always_inline bool sl_net_port_filter(const struct sl_pipeline *p)
{
	const struct sl_filter *f = sl_filter_of(p);

	return READ_ONCE(f->lport) || READ_ONCE(f->rport) ||
	       READ_ONCE(f->proto);
}

/*
 * The current task in its current context, as the ident of a per-task
 * entry in the in-flight table: the task's address (task_structs are
 * cache-line aligned) with the context in its two low bits - 0 task, 1
 * softirq, 2 hardirq, 3 NMI.  What a task does in one context is strictly
 * sequential whatever CPU it runs on, where per-CPU state is not: a task
 * preempted inside a call (PREEMPT_RT, preempt=full) lets another task
 * run on its CPU, and it may resume on another one.  Not the pid: every
 * CPU's idle task has pid 0, and a softirq runs on whichever task it
 * interrupted (its own context there).  Never shown (a pointer).
 */
static __always_inline unsigned long sl_net_ctx_ident(void)
{
	unsigned long ctx;

	if (in_nmi())
		ctx = 3;
	else if (hardirq_count())
		ctx = 2;
	else if (in_serving_softirq())
		ctx = 1;
	else
		ctx = 0;
	BUILD_BUG_ON(__alignof__(struct task_struct) < 4);
	return (unsigned long)current | ctx;
}

/* "<port>" in @b (6 bytes) for a breakdown slot's name, nothing probeable. */
static __always_inline void sl_net_port_name(char *b, u16 port)
{
	char t[6];
	int n = 0, i = 0;

	do {
		t[n++] = '0' + port % 10;
		port /= 10;
	} while (port && n < 5);
	while (n)
		b[i++] = t[--n];
	b[i] = '\0';
}

/*
 * net_common.c: the candidates the pipelines share (the frees net_rx,
 * net_tx and reqresp watch; driver, IP and TCP queue receive for net_rx
 * and reqresp; driver transmit for net_tx and reqresp), the interface
 * notifier
 */
extern const struct sl_cand sl_net_c_kfree[4];
extern const struct sl_cand sl_net_c_consume[2];
extern const struct sl_cand sl_net_c_rx_drv[2];
extern const struct sl_cand sl_net_c_ip_rcv[2];
extern const struct sl_cand sl_net_c_ip6_rcv[2];
extern const struct sl_cand sl_net_c_tcp_queue[2];
extern const struct sl_cand sl_net_c_coalesce_try[1];
extern const struct sl_cand sl_net_c_coalesce[1];
extern const struct sl_cand sl_net_c_tx_drv[2];
extern const struct sl_cand sl_net_c_tx_start[1];
extern const struct sl_cand sl_net_c_tx_done[1];
extern const char * const sl_net_if_suffix[1];
/* the "coalesce_try" and "coalesce" points (net_rx, reqresp): net_common.c */
int sl_net_coalesce_try(struct sl_ev *ev, struct sl_flight_ent *unused);
int sl_net_coalesce(struct sl_ev *ev, struct sl_flight_ent *unused);
/*
 * Probe context: the socket's identity for an event line: its addresses
 * and ports, local then remote (_F_ADDR, _F_PORTS).  A v6 socket talking
 * v4 (a v4-mapped peer) is shown as v4, as ss shows it.
 */
static __always_inline void sl_net_sk_obj(const struct sock *sk,
					  struct sl_ev_obj *o)
{
	const struct inet_sock *inet = inet_sk(sk);

	o->sport = READ_ONCE(inet->inet_num);
	o->dport = ntohs(READ_ONCE(inet->inet_dport));
	o->flags |= STACKLAT_EVENT_F_PORTS | STACKLAT_EVENT_F_ADDR;
#if IS_ENABLED(CONFIG_IPV6)
	if (READ_ONCE(sk->sk_family) == AF_INET6 &&
	    !ipv6_addr_v4mapped(&sk->sk_v6_daddr)) {
		o->family = AF_INET6;
		memcpy(o->saddr, &sk->sk_v6_rcv_saddr, sizeof(o->saddr));
		memcpy(o->daddr, &sk->sk_v6_daddr, sizeof(o->daddr));
		return;
	}
#endif
	o->family = AF_INET;
	memcpy(o->saddr, &sk->sk_rcv_saddr, 4);
	memcpy(o->daddr, &sk->sk_daddr, 4);
}

/*
 * Probe context: a TCP socket's state and figures for an event line
 * (_F_TCP).  The RTO from jiffies without a call (HZ divides a million
 * on every configuration the kernel offers: 100, 250, 300, 1000).
 */
static __always_inline void sl_net_tcp_obj(const struct sock *sk,
					   struct sl_ev_obj *o)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u64 rto = READ_ONCE(inet_csk(sk)->icsk_rto);

	o->flags |= STACKLAT_EVENT_F_TCP;
	o->tcp_state = READ_ONCE(sk->sk_state);
	o->rto_us = (u32)min_t(u64, rto * (USEC_PER_SEC / HZ), U32_MAX);
	o->srtt_us = READ_ONCE(tp->srtt_us) >> 3;
	o->cwnd = READ_ONCE(tp->snd_cwnd);
	o->retrans = READ_ONCE(tp->total_retrans);
}

/*
 * reqresp (reqresp.c, reqresp_sample.c): the idents of a socket's chains,
 * its address (at least 8-aligned) with the kind in the low bits - its
 * pending data, its request, and with SL_RR_SKIP the marks of a request
 * not followed while the pipeline samples - and a request's aux[0] flag
 * the sampling reads.
 */
#define SL_RR_PEND	1UL
#define SL_RR_REQ	2UL
#define SL_RR_SKIP	4UL
#define SL_RR_WRITTEN	BIT_ULL(32)	/* a write of its response started */

/*
 * Probe context (reqresp_sample.c): is the data queued on @sk followed,
 * chosen if it starts a request; a read of data not followed (@q: the
 * socket's followed pending data, held); a socket's marks forgotten.
 */
bool sl_rr_queue_take(struct sl_pipeline *p, unsigned long sk, u64 now);
bool sl_rr_read_skipped(struct sl_ev *ev, struct sock *sk,
			struct sl_flight_ent *q);
void sl_rr_forget_skipped(struct sl_pipeline *p, unsigned long sk);

/*
 * Setup: @p's per-interface dimensions (@n of @dims) are released when an
 * interface goes away, from now until @p's teardown puts it back.
 */
int sl_net_notifier_get(struct sl_pipeline *p, struct sl_dim *const *dims,
			unsigned int n);
void sl_net_notifier_put(struct sl_pipeline *p);

#endif /* _STACKLAT_NET_H */
