// SPDX-License-Identifier: GPL-2.0
/*
 * net_tx: the transmit path, per packet (see net.h).
 */
#include "net.h"

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

/* the per-interface stages' slots */
static struct sl_dim sl_tx_ifs;


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
 *   aux[SK_BUSY] how many sendmsg calls are running on the socket
 * The entry goes when everything written has been transmitted and no send
 * is running, or when the socket closes.
 *
 * Several threads may send on one socket at once: their calls enter
 * before the socket lock and wait for it in turn.  A count, not a bit,
 * keeps the entry while any of them runs: with a bit, the first to return
 * cleared it, and once its data was out the entry went (at its return, or
 * at the next transmission) while the others were still to write theirs -
 * their segments were then sent without an application point, not in
 * app->tcp nor in the totals, and counted nowhere.  Which of them hands
 * over the next byte is the lock's choice, unknown at entry: while one is
 * running, the oldest data's time stays the earliest entry's (a wait for
 * the lock is time in app->tcp, like a wait for the window).
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
	/*
	 * The entry as it is, or a new one: not "get, else start", which
	 * restarted (zeroed) an entry another sender's call had made between
	 * the two - its count in SK_BUSY lost, the entry went at the first
	 * return while the other still had data to write, and that data's
	 * segments left without an application point, counted nowhere (42's
	 * two senders: 1 segment in 1,400-3,800, in 3 of 7 make checks).
	 */
	e = sl_chain_open(p, sl_sk_id(sk), now);
	if (!e)
		return -1;
	if (!e->ts[SK_OLD]) {
		/* new: this send's data is the oldest not yet transmitted */
		e->ts[SK_OLD] = now;
	} else if (!after(wseq, nxt)) {
		/*
		 * all earlier data is out: this send's is the oldest, unless
		 * another send, entered earlier, is still to write its own
		 */
		if (!e->aux[SK_BUSY]) {
			e->ts[SK_OLD] = now;
			e->ts[SK_NEW] = 0;
		}
	} else {
		e->ts[SK_NEW] = now;
		e->aux[SK_NEW_SEQ] = wseq;
	}
	e->born = now;
	e->aux[SK_BUSY]++;
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
	/* not below 0: an entry made after this call's (its own went stale) */
	if (e->aux[SK_BUSY])
		e->aux[SK_BUSY]--;
	if (!e->aux[SK_BUSY] &&
	    !after(READ_ONCE(tp->write_seq), READ_ONCE(tp->snd_nxt)))
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
	if (!app && sl_filter_tasks(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return SL_DONE;
	}
	e = sl_chain_start(p, sl_sk_pend_id(sk), TX_TCP, sl_ev_now(ev));
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
	if (!*app && sl_filter_tasks(p)) {
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
		if (!app && sl_filter_tasks(p))
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
	/* the packet's chain starts here: sample it (one in N) */
	if (!sl_sample_take(p))
		return;
	e = sl_chain_start(p, (unsigned long)skb, TX_IP, sl_ev_now(ev));
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
static __always_inline int sl_tx_devq(struct sl_ev *ev,
				      struct sl_flight_ent *unused)
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
	e->ts[TX_DEVQ] = sl_ev_now(ev);
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
		e->ts[TX_DONE] = sl_ev_now(ev);
		sl_chain_finish(ev->p, e);
		return SL_DONE;
	}
	return SL_FORGET;
}

/*
 * __skb_gso_segment(skb, features, tx_path): software segmentation.  The
 * chain moves to the first segment; the original is consumed after.  The
 * receiver sees every segment, so the point's hits count the segments
 * added to followed skbs (all but the first), not its calls: a test's
 * balance of segments sent and read needs them (loopback, which offloads
 * TSO, still segments a 2-MSS skb in software now and then on 7.3).  The
 * list is the caller's, just made and not yet handed on: read without a
 * lock, at most SL_TX_GSO_MAX segments counted.
 */
#define SL_TX_GSO_MAX	(U16_MAX + 1)

static int sl_tx_gso_pre(struct sl_ev *ev)
{
	return sl_chain_followed(ev->p, ev->ident) ? 0 : -1;
}

static int sl_tx_gso_ret(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sk_buff *segs = (struct sk_buff *)ev->ret, *s;
	struct sl_flight_ent *e, *n;
	unsigned int k = 0;

	if (IS_ERR_OR_NULL(segs) || (unsigned long)segs == ev->ident)
		return SL_DONE;
	e = sl_chain_get(ev->p, ev->ident);
	if (!e)
		return SL_DONE;
	n = sl_chain_move(ev->p, e, (unsigned long)segs);
	if (n)
		sl_chain_put(n);
	for (s = READ_ONCE(segs->next); s && k < SL_TX_GSO_MAX;
	     s = READ_ONCE(s->next))
		k++;
	sl_hook_hit_n(ev->hk, k);
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

/* a slow packet: its interface */
static void sl_tx_ev_obj(const struct sl_pipeline *p,
			 const struct sl_flight_ent *e, struct sl_ev_obj *o)
{
	if (e->aux[SL_AUX_IF]) {
		sl_dim_label(&sl_tx_ifs, (u32)(e->aux[SL_AUX_IF] - 1),
			     o->ifname, sizeof(o->ifname));
		o->flags |= STACKLAT_EVENT_F_IF;
	}
}

/* With an interface filter, a packet dropped before its device queue does not count. */
static bool sl_tx_on_drop(struct sl_pipeline *p, const struct sl_flight_ent *e)
{
	return e->ts[TX_DEVQ] || !READ_ONCE(sl_filter_of(p)->ifindex);
}

SL_TP_DEFINE_POST(net_dev_queue, sl_tx_devq, (struct sk_buff *skb),
		  (unsigned long)skb)
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
	SL_TPD_POST(net_dev_queue, sl_tx_devq),
	SL_KPD("__dev_queue_xmit", 0),
	SL_KPD("dev_queue_xmit", 0),
};

/* driver_start and driver_done: net_common.c's (reqresp has them too) */
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
	/* the return only forgets the task's chain: no argument saved */
	[HTX_UDP_SEND] = SL_POINT("udp_sendmsg", sl_c_tx_udp_send,
				  SL_ACT_FORGET, TX_UAPP, TASK,
				  .flags = SL_PF_NOARGS, .pre = sl_tx_udp_send),
	[HTX_UDP6_SEND] = SL_POINT("udpv6_sendmsg", sl_c_tx_udp6_send,
				   SL_ACT_FORGET, TX_UAPP, TASK,
				   .flags = SL_PF_NOARGS, .pre = sl_tx_udp_send),
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
	[HTX_DRV] = SL_POINT("driver_start", sl_net_c_tx_drv, SL_ACT_MARK, TX_DRV,
			     0),
	[HTX_DONE] = SL_POINT("driver_done", sl_net_c_tx_done, SL_ACT_END, TX_DONE,
			      0, .post = sl_tx_done),
	[HTX_GSO] = SL_POINT("gso_segment", sl_c_tx_gso, SL_ACT_NONE, TX_DEVQ,
			     0, .optional = true, .flags = SL_PF_NOHIT,
			     .pre = sl_tx_gso_pre,
			     .post = sl_tx_gso_ret),
	[HTX_CLOSE] = SL_POINT("sock_close", sl_c_tx_close, SL_ACT_NONE, TX_APP,
			       0, .optional = true, .post = sl_tx_close),
	[HTX_KFREE] = SL_POINT("kfree_skb", sl_net_c_kfree, SL_ACT_DROP, TX_DONE, 0),
	[HTX_CONSUME] = SL_POINT("consume_skb", sl_net_c_consume, SL_ACT_FORGET,
				 TX_DONE, 0, .post = sl_tx_consume),
};

#undef TASK

static int sl_tx_setup(struct sl_pipeline *p)
{
	static const char * const from[] = { "sendmsg" };
	static const char * const to[] = { "driver_done" };

	static struct sl_dim *const dims[] = { &sl_tx_ifs };

	sl_dim_init(&sl_tx_ifs, sl_tx_stages, TXS_NFIXED, 1, sl_net_if_suffix,
		    from, to);
	return sl_net_notifier_get(p, dims, ARRAY_SIZE(dims));
}

SL_PIPELINE(net_tx) = {
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
	.ev_obj = sl_tx_ev_obj,
	/*
	 * a packet, at IP output (sl_tx_ip(): where its skb's chain starts;
	 * the application's and TCP's times before it are kept for every
	 * send, and only a followed skb takes them on)
	 */
	.sampling = true,
};

