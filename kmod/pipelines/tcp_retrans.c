// SPDX-License-Identifier: GPL-2.0
/*
 * tcpretrans: TCP retransmissions by kind and per remote port, each a
 * sample of the time since that segment was last sent (for a first
 * retransmission: since its original transmission; for the next ones the
 * backoff shows, RTO after RTO).  bcc's tcpretrans, as a table.
 *
 * Points:
 *   retransmit  the tcp_retransmit_skb tracepoint: a segment sent again
 *               (fired on success: the device took it); its kind from the
 *               socket's state then; one sample per segment
 *               (tcp_skb_pcount), which is what the socket added to
 *               tcpi_total_retrans.  (__tcp_retransmit_skb itself is
 *               inlined into its callers on 6.1: no probe sees it.)
 *   retransmit_call, loss_probe_call
 *               tcp_retransmit_skb and tcp_send_loss_probe followed to
 *               their return: the time the segment was last sent
 *               (skb->skb_mstamp_ns, CLOCK_MONOTONIC as sl_now()), read
 *               before the transmission overwrites it.  A retransmission
 *               no such call is around (a caller that inlined it) is
 *               counted "unmatched", not recorded.
 *   synack      the tcp_retransmit_synack tracepoint: a SYN-ACK sent again
 *               for a request (the child socket inherits the count in its
 *               tcpi_total_retrans); the time since the first SYN-ACK.
 * Kinds: "syn" (the segment carries SYN), "rto" (congestion state Loss:
 * after a retransmission timeout), "tlp" (a tail loss probe: the probe
 * timer is what runs, state Open), "fast" (Recovery, Disorder or CWR:
 * fast retransmit, RACK), "other" (anything else).  The per-port stages
 * ("<port>.retrans", SL_DIM_SLOTS ports then "other.retrans") hold every
 * kind.
 */
#include <net/inet_connection_sock.h>
#include <net/request_sock.h>
#include <trace/events/tcp.h>

#include "net.h"

enum {
	RS_RTO, RS_FAST, RS_TLP, RS_SYN, RS_SYNACK, RS_OTHER,
	RS_NFIXED,
	RS_NSTAGES = RS_NFIXED + SL_DIM_SLOTS + 1
};

#define RS_STAGE(n)	{ n, "sent", "resent", SL_PT_NONE, SL_PT_NONE }

static struct sl_stage sl_rt_stages[RS_NSTAGES] = {
	[RS_RTO] = RS_STAGE("rto"),
	[RS_FAST] = RS_STAGE("fast"),
	[RS_TLP] = RS_STAGE("tlp"),
	[RS_SYN] = RS_STAGE("syn"),
	[RS_SYNACK] = RS_STAGE("synack"),
	[RS_OTHER] = RS_STAGE("other"),
};

static struct sl_dim sl_rt_rports;
static const char * const sl_rt_suffix[1] = { ".retrans" };

/* segments recorded for one retransmission at most (a 64 KiB GSO skb) */
#define SL_RT_SEGS_MAX	64

/*
 * Record @segs samples of @delta in @kind and in the remote port's stage;
 * false when the filter keeps it out.
 */
static __always_inline bool sl_rt_record(struct sl_pipeline *p, u32 kind,
					 u16 lport, u16 rport, s64 delta,
					 unsigned int segs)
{
	const struct sl_filter *f = sl_filter_of(p);
	u16 fl = READ_ONCE(f->lport), fr = READ_ONCE(f->rport);
	unsigned int st, i;
	char name[8];

	if ((fl && fl != lport) || (fr && fr != rport)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return false;
	}
	sl_net_port_name(name, rport);
	st = sl_dim_stage(&sl_rt_rports, sl_dim_tag(&sl_rt_rports, rport, name));
	segs = clamp(segs, 1U, (unsigned int)SL_RT_SEGS_MAX);
	for (i = 0; i < segs; i++) {
		sl_record(p, kind, delta);
		sl_record(p, st, delta);
	}
	return true;
}

/*
 * The line of a retransmission (events: a threshold, or "all" for every
 * one): its kind as the stage with the time since the segment was last
 * sent, the socket's addresses, ports, state and figures.  The task is
 * the sender's where one sends (process context: the socket's backlog
 * processed in release_sock); a retransmission from a timer or an
 * incoming ACK (softirq) belongs to no process: tgid 0, comm "-".
 */
static __always_inline void sl_rt_line(struct sl_pipeline *p, u32 kind,
				       const struct sock *sk, u64 prev, u64 now,
				       bool stacks, u32 stack)
{
	struct sl_ev_obj o;

	memset(&o, 0, sizeof(o));
	sl_net_sk_obj(sk, &o);
	sl_net_tcp_obj(sk, &o);
	o.anon = !in_task();
	if (stacks) {
		o.flags |= STACKLAT_EVENT_F_STACK;
		o.stack = stack;
	}
	sl_event_emit_obj(p, kind, prev, now, &o);
}

/*
 * The retransmitting calls in progress: tcp_retransmit_skb (RTO, fast
 * retransmit, SYN) and tcp_send_loss_probe (TLP), followed to their
 * return.  An entry reads the time the segment was last sent before the
 * transmission overwrites it and pushes a frame (the socket and that
 * time); the tracepoint inside the call reads the top frame; the return
 * pops it.
 *
 * The frames are kept per task and context, in an entry of the in-flight
 * table keyed by the task and by what it runs (sl_net_ctx_ident()), never
 * per CPU: tcp_retransmit_skb runs in process context too (the socket
 * backlog, processed in release_sock), which PREEMPT_RT and preempt=full
 * preempt and migrate - and on PREEMPT_RT softirqs run preemptible in
 * threads as well.  A per-CPU stack let a task preempted
 * inside a call find another task's frame on top (its retransmission
 * counted unmatched), or migrate and leave its frame on the old CPU's
 * stack, in a kretprobe instance that was then recycled.  One task in one
 * context runs its calls strictly nested: a softirq that runs on a task's
 * stack (at the end of an interrupt, or in local_bh_enable inside a
 * transmission) is the task's softirq context, another key.  So the top
 * frame of the key is the current call's, whatever CPU the task runs on
 * now.
 *
 * The entry: frame d's segment time in ts[2d], its socket in ts[2d + 1],
 * the depth in aux[0].  It is removed when the outermost call returns
 * (and flushed when the pipeline is disabled).  The instance keeps the
 * depth and the frame, to check at return that the frame is still its
 * own.
 */
#define SL_RT_DEPTH	(SL_FLIGHT_NTS / 2)	/* frames a task and context */

struct sl_rt_frame {
	const struct sock *sk;
	u64 prev;			/* the segment's last transmission */
	u32 depth;			/* its frame in the entry */
};

/*
 * Push the frame of the call entering now.  Returns 0 to follow the call
 * to its return, < 0 not to (the table had no entry for it: counted
 * table_full here, and its retransmission unmatched at the tracepoint).
 */
static __always_inline int sl_rt_push(struct sl_ev *ev, const struct sock *sk,
				      u64 prev)
{
	struct sl_rt_frame *f = ev->data;
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	u32 d;

	e = sl_flight_put(sl_ft, sl_chain_key(p, sl_net_ctx_ident()), sl_now(),
			  SL_FL_KEEP, NULL);
	if (unlikely(!e)) {
		sl_loss(p, SL_LOSS_TABLE_FULL);
		return -1;
	}
	d = (u32)e->aux[0];
	if (unlikely(d >= SL_RT_DEPTH)) {
		/* nested deeper than the entry holds: counted, not followed */
		sl_chain_put(e);
		sl_loss(p, SL_LOSS_TABLE_FULL);
		return -1;
	}
	e->ts[2 * d] = prev;
	e->ts[2 * d + 1] = (unsigned long)sk;
	e->aux[0] = d + 1;
	sl_chain_put(e);
	f->sk = sk;
	f->prev = prev;
	f->depth = d;
	return 0;
}

/* tcp_retransmit_skb(sk, skb, segs) entry */
static int sl_rt_entry(struct sl_ev *ev)
{
	const struct sk_buff *skb = sl_ev_ptr(ev, 1);

	return sl_rt_push(ev, sl_ev_ptr(ev, 0), READ_ONCE(skb->skb_mstamp_ns));
}

/* tcp_send_loss_probe(sk) entry: the probe resends the last segment sent */
static int sl_rt_tlp_entry(struct sl_ev *ev)
{
	const struct sock *sk = sl_ev_ptr(ev, 0);
	const struct sk_buff *skb = skb_rb_last(&sk->tcp_rtx_queue);

	return sl_rt_push(ev, sk, skb ? READ_ONCE(skb->skb_mstamp_ns) : 0);
}

/*
 * The call returns: pop its frame, and any above it (calls whose return
 * never came: none is expected).  A frame that is no longer its own (the
 * entry was flushed, or reclaimed by age) is left alone.
 */
static int sl_rt_pop(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct sl_rt_frame *f = ev->data;
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	u32 d = f->depth;

	e = sl_chain_get(p, sl_net_ctx_ident());
	if (!e)
		return SL_DONE;
	if ((u32)e->aux[0] <= d || e->ts[2 * d] != f->prev ||
	    e->ts[2 * d + 1] != (unsigned long)f->sk) {
		sl_chain_put(e);
		return SL_DONE;
	}
	if (!d) {
		sl_chain_remove(p, e, SL_NO_LOSS);
		return SL_DONE;
	}
	e->aux[0] = d;
	sl_chain_put(e);
	return SL_DONE;
}

/*
 * tcp_retransmit_skb(sk, skb[, err]) tracepoint: a segment was sent again
 * (with err, 7.x calls it for failures too).  Its kind from the socket's
 * state now; one sample per segment (what tcpi_total_retrans adds).
 */
static int sl_rt_retransmit(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct sock *sk = sl_ev_ptr(ev, 0);
	const struct sk_buff *skb = sl_ev_ptr(ev, 1);
	const struct inet_connection_sock *icsk = inet_csk(sk);
	struct sl_flight_ent *e;
	u8 ca = icsk->icsk_ca_state;
	u32 kind, d, stack = 0;
	u64 prev = 0;
	bool stacks;

	if ((int)sl_ev_arg(ev, 2))
		return SL_KEEP;
	/* the top frame of this task's calls in this context is this call's */
	e = sl_chain_get(ev->p, sl_net_ctx_ident());
	if (e) {
		d = (u32)e->aux[0];
		if (d && d <= SL_RT_DEPTH &&
		    e->ts[2 * (d - 1) + 1] == (unsigned long)sk)
			prev = e->ts[2 * (d - 1)];
		sl_chain_put(e);
	}
	if (!prev) {
		sl_loss(ev->p, SL_LOSS_UNMATCHED);
		return SL_KEEP;
	}
	if (TCP_SKB_CB(skb)->tcp_flags & TCPHDR_SYN)
		kind = RS_SYN;
	else if (ca == TCP_CA_Loss)
		kind = RS_RTO;
	else if (ca == TCP_CA_Open &&
		 READ_ONCE(icsk->icsk_pending) == ICSK_TIME_LOSS_PROBE)
		kind = RS_TLP;
	else if (ca == TCP_CA_Recovery || ca == TCP_CA_Disorder ||
		 ca == TCP_CA_CWR)
		kind = RS_FAST;
	else
		kind = RS_OTHER;
	if (!sl_rt_record(ev->p, kind, READ_ONCE(inet_sk(sk)->inet_num),
			  ntohs(READ_ONCE(inet_sk(sk)->inet_dport)),
			  (s64)(sl_ev_now(ev) - prev), tcp_skb_pcount(skb)))
		return SL_KEEP;
	/* on request: the stack that retransmitted, counted per segment */
	stacks = sl_pipeline_stacks_on(ev->p);
	if (unlikely(stacks))
		stack = sl_stack_capture(ev->p, 0, 0, tcp_skb_pcount(skb));
	if (unlikely(sl_events_thresh(ev->p)))
		sl_rt_line(ev->p, kind, sk, prev, sl_ev_now(ev), stacks, stack);
	return SL_KEEP;
}

#ifdef COMPAT_TCP_RETRANSMIT_SKB_TP_HAS_ERR
SL_TP_DEFINE(tcp_retransmit_skb,
	     (const struct sock *sk, const struct sk_buff *skb, int err),
	     (unsigned long)sk, (unsigned long)skb, (unsigned long)err)
#else
SL_TP_DEFINE(tcp_retransmit_skb,
	     (const struct sock *sk, const struct sk_buff *skb),
	     (unsigned long)sk, (unsigned long)skb, 0UL)
#endif

SL_TP_DEFINE(tcp_retransmit_synack,
	     (const struct sock *sk, const struct request_sock *req),
	     (unsigned long)sk, (unsigned long)req)

/*
 * The line of a SYN-ACK sent again: the request's addresses and ports
 * (local, remote), state SYN_RECV, the SYN-ACKs it has retransmitted
 * with this one;
 * from the timer (softirq): no process.
 */
static void sl_rt_synack_line(struct sl_pipeline *p,
			      const struct request_sock *req, u64 first,
			      u64 now)
{
	const struct inet_request_sock *ireq = inet_rsk(req);
	struct sl_ev_obj o;

	memset(&o, 0, sizeof(o));
	o.flags = STACKLAT_EVENT_F_PORTS | STACKLAT_EVENT_F_ADDR |
		  STACKLAT_EVENT_F_TCP;
	o.sport = READ_ONCE(ireq->ir_num);
	o.dport = ntohs(READ_ONCE(ireq->ir_rmt_port));
	o.family = AF_INET;
#if IS_ENABLED(CONFIG_IPV6)
	if (READ_ONCE(req->rsk_ops->family) == AF_INET6 &&
	    !ipv6_addr_v4mapped(&ireq->ir_v6_rmt_addr)) {
		o.family = AF_INET6;
		memcpy(o.saddr, &ireq->ir_v6_loc_addr, sizeof(o.saddr));
		memcpy(o.daddr, &ireq->ir_v6_rmt_addr, sizeof(o.daddr));
	}
#endif
	if (o.family == AF_INET) {
		memcpy(o.saddr, &ireq->ir_loc_addr, 4);
		memcpy(o.daddr, &ireq->ir_rmt_addr, 4);
	}
	o.tcp_state = TCP_SYN_RECV;
	/* inet_rtx_syn_ack() counts it after the tracepoint: this one too */
	o.retrans = READ_ONCE(req->num_retrans) + 1;
	o.anon = !in_task();
	sl_event_emit_obj(p, RS_SYNACK, first, now, &o);
}

static int sl_rt_synack(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct request_sock *req = sl_ev_ptr(ev, 1);
	const struct inet_request_sock *ireq = inet_rsk(req);
	u64 first = READ_ONCE(tcp_rsk(req)->snt_synack) * NSEC_PER_USEC;

	if (sl_rt_record(ev->p, RS_SYNACK, READ_ONCE(ireq->ir_num),
			 ntohs(READ_ONCE(ireq->ir_rmt_port)),
			 first ? (s64)(sl_ev_now(ev) - first) : 0, 1) &&
	    unlikely(sl_events_thresh(ev->p)))
		sl_rt_synack_line(ev->p, req, first, sl_ev_now(ev));
	return SL_KEEP;
}

static const struct sl_cand sl_c_rt_entry[] = {
	SL_KRPD("tcp_retransmit_skb", 0),
};

static const struct sl_cand sl_c_rt_tlp[] = {
	SL_KRPD("tcp_send_loss_probe", 0),
};

static const struct sl_cand sl_c_rt_retransmit[] = {
	SL_TPD(tcp_retransmit_skb),
};

static const struct sl_cand sl_c_rt_synack[] = {
	SL_TPD(tcp_retransmit_synack),
};

static struct sl_hook sl_rt_hooks[] = {
	SL_POINT("retransmit_call", sl_c_rt_entry, SL_ACT_NONE, 0, 0,
		 .pre = sl_rt_entry, .post = sl_rt_pop,
		 .data_size = sizeof(struct sl_rt_frame)),
	SL_POINT("loss_probe_call", sl_c_rt_tlp, SL_ACT_NONE, 0, 0,
		 .pre = sl_rt_tlp_entry, .post = sl_rt_pop,
		 .data_size = sizeof(struct sl_rt_frame)),
	SL_POINT("retransmit", sl_c_rt_retransmit, SL_ACT_NONE, 0, 0,
		 .post = sl_rt_retransmit),
	SL_POINT("synack", sl_c_rt_synack, SL_ACT_NONE, 0, 0,
		 .post = sl_rt_synack),
};

/* debugfs "inflight": a task's open calls (never its address) */
static void sl_rt_flight_fmt(const struct sl_pipeline *p,
			     const struct sl_flight_ent *e, u64 now, char *buf,
			     size_t len)
{
	scnprintf(buf, len, " %llu retransmitting call(s) open",
		  min_t(u64, e->aux[0], SL_RT_DEPTH));
}

static int sl_rt_setup(struct sl_pipeline *p)
{
	static const char * const from[] = { "sent" };
	static const char * const to[] = { "resent" };

	sl_dim_init(&sl_rt_rports, sl_rt_stages, RS_NFIXED, 1, sl_rt_suffix,
		    from, to);
	return 0;
}

SL_PIPELINE(tcpretrans) = {
	.name = "tcpretrans",
	.desc = "TCP retransmissions by kind and remote port: time since the segment was last sent",
	.key = STACKLAT_KEY_NONE,
	.filter_caps = SL_F_LPORT | SL_F_RPORT,
	.hooks = sl_rt_hooks,
	.nhooks = ARRAY_SIZE(sl_rt_hooks),
	.stages = sl_rt_stages,
	.nstages = ARRAY_SIZE(sl_rt_stages),
	.setup = sl_rt_setup,
	.flight_fmt = sl_rt_flight_fmt,
	.own_events = true,
	/* "stacks tcpretrans on": the retransmitting stack, per segment */
	.stack_points = true,
};
