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

/* Record @segs samples of @delta in @kind and in the remote port's stage. */
static __always_inline void sl_rt_record(struct sl_pipeline *p, u32 kind,
					 u16 lport, u16 rport, s64 delta,
					 unsigned int segs)
{
	u16 fl = READ_ONCE(p->filter.lport), fr = READ_ONCE(p->filter.rport);
	unsigned int st, i;
	char name[8];

	if ((fl && fl != lport) || (fr && fr != rport)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return;
	}
	sl_net_port_name(name, rport);
	st = sl_dim_stage(&sl_rt_rports, sl_dim_tag(&sl_rt_rports, rport, name));
	segs = clamp(segs, 1U, (unsigned int)SL_RT_SEGS_MAX);
	for (i = 0; i < segs; i++) {
		sl_record(p, kind, delta);
		sl_record(p, st, delta);
	}
}

/*
 * A retransmitting call in progress on this CPU: tcp_retransmit_skb (RTO,
 * fast retransmit, SYN) or tcp_send_loss_probe (TLP), followed to its
 * return.  Its entry reads the time the segment was last sent before the
 * transmission overwrites it, and pushes the frame on this CPU's chain;
 * its return pops it.  A softirq retransmitting for another socket in
 * between pushes and pops its own (interrupts nest), so the top frame of
 * the tracepoint's CPU is its call's.  The frames live in the kretprobe
 * instances; the chain is emptied whenever the pipeline is enabled.
 */
struct sl_rt_frame {
	struct sl_rt_frame *up;
	const struct sock *sk;
	u64 prev;			/* the segment's last transmission */
};

static DEFINE_PER_CPU(struct sl_rt_frame *, sl_rt_top);

static __always_inline void sl_rt_push(struct sl_ev *ev, const struct sock *sk,
				       u64 prev)
{
	struct sl_rt_frame *f = ev->data;

	f->sk = sk;
	f->prev = prev;
	f->up = this_cpu_read(sl_rt_top);
	this_cpu_write(sl_rt_top, f);
}

/* tcp_retransmit_skb(sk, skb, segs) entry */
static int sl_rt_entry(struct sl_ev *ev)
{
	const struct sk_buff *skb = sl_ev_ptr(ev, 1);

	sl_rt_push(ev, sl_ev_ptr(ev, 0), READ_ONCE(skb->skb_mstamp_ns));
	return 0;
}

/* tcp_send_loss_probe(sk) entry: the probe resends the last segment sent */
static int sl_rt_tlp_entry(struct sl_ev *ev)
{
	const struct sock *sk = sl_ev_ptr(ev, 0);
	const struct sk_buff *skb = skb_rb_last(&sk->tcp_rtx_queue);

	sl_rt_push(ev, sk, skb ? READ_ONCE(skb->skb_mstamp_ns) : 0);
	return 0;
}

static int sl_rt_pop(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sl_rt_frame *f = ev->data;

	if (this_cpu_read(sl_rt_top) == f)
		this_cpu_write(sl_rt_top, f->up);
	return SL_KEEP;
}

static int sl_rt_on_enable(struct sl_pipeline *p)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(sl_rt_top, cpu) = NULL;
	return 0;
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
	const struct sl_rt_frame *f = this_cpu_read(sl_rt_top);
	u8 ca = icsk->icsk_ca_state;
	u32 kind;

	if ((int)sl_ev_arg(ev, 2))
		return SL_KEEP;
	if (!f || f->sk != sk || !f->prev) {
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
	sl_rt_record(ev->p, kind, READ_ONCE(inet_sk(sk)->inet_num),
		     ntohs(READ_ONCE(inet_sk(sk)->inet_dport)),
		     (s64)(sl_ev_now(ev) - f->prev), tcp_skb_pcount(skb));
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

static int sl_rt_synack(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct request_sock *req = sl_ev_ptr(ev, 1);
	const struct inet_request_sock *ireq = inet_rsk(req);
	u64 first = READ_ONCE(tcp_rsk(req)->snt_synack) * NSEC_PER_USEC;

	sl_rt_record(ev->p, RS_SYNACK, READ_ONCE(ireq->ir_num),
		     ntohs(READ_ONCE(ireq->ir_rmt_port)),
		     first ? (s64)(sl_ev_now(ev) - first) : 0, 1);
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

static int sl_rt_setup(struct sl_pipeline *p)
{
	static const char * const from[] = { "sent" };
	static const char * const to[] = { "resent" };

	sl_dim_init(&sl_rt_rports, sl_rt_stages, RS_NFIXED, 1, sl_rt_suffix,
		    from, to);
	return 0;
}

struct sl_pipeline sl_pipe_tcpretrans = {
	.name = "tcpretrans",
	.desc = "TCP retransmissions by kind and remote port: time since the segment was last sent",
	.key = STACKLAT_KEY_NONE,
	.filter_caps = SL_F_LPORT | SL_F_RPORT,
	.hooks = sl_rt_hooks,
	.nhooks = ARRAY_SIZE(sl_rt_hooks),
	.stages = sl_rt_stages,
	.nstages = ARRAY_SIZE(sl_rt_stages),
	.setup = sl_rt_setup,
	.on_enable = sl_rt_on_enable,
};
