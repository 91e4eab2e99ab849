// SPDX-License-Identifier: GPL-2.0
/*
 * tcpconnect and tcpaccept: how long TCP connections take to set up, on
 * both sides, the questions bcc's tcpconnlat, tcpaccept and tcpsynbl
 * answer, as tables of points keyed by the socket.
 *
 * tcpconnect: connect() (the entry of tcp_v4_connect / tcp_v6_connect)
 * -> established (inet_sock_set_state SYN_SENT -> ESTABLISHED), in total
 * and per remote port ("<port>.connect", SL_DIM_SLOTS ports, then
 * "other.connect").  A connect that fails is a sample of the stage of its
 * errno, the time until it failed: "refused" (a RST: ECONNREFUSED),
 * "timedout" (no answer: ETIMEDOUT), "unreachable" (EHOSTUNREACH,
 * ENETUNREACH, from an ICMP error or from the route lookup inside
 * connect()) and "failed" (any other errno, or 0: the application closed
 * it while it was connecting).  The chain starts when tcp_v*_connect
 * returns 0 in SYN_SENT, stamped with its entry: the socket is locked by
 * its caller until then, so its answer cannot be processed earlier.
 * A v4-mapped IPv6 connect runs tcp_v4_connect inside tcp_v6_connect: the
 * inner call is left to the outer one.
 * Its lines (events, a threshold or "all"): one per connect, established
 * or failed, with its stage and time, the socket's addresses and ports and
 * the result (0 or the errno); the process is the one that called
 * connect(), remembered in the chain (the answer is processed in softirq).
 *
 * tcpaccept, per listening port ("<port>.<stage>"):
 *   synq           the first SYN-ACK sent (the request's snt_synack, in
 *                  us of CLOCK_MONOTONIC, the clock of sl_now()) -> the
 *                  handshake completed (tcp_v*_syn_recv_sock returned the
 *                  child): the time in the SYN queue
 *   acceptq        handshake completed -> accept() returned it
 *                  (inet_csk_accept): the time in the accept queue
 *   synq_depth     value: requests in the SYN queue a SYN found arriving
 *   acceptq_depth  value: connections in the accept queue it found
 *   overflow       value: the accept-queue depth at each overflow, a SYN
 *                  (tcp_conn_request) or a handshake (syn_recv_sock) the
 *                  kernel dropped because the queue was full; its count is
 *                  the kernel's ListenOverflows for that port
 * A child closed before it is accepted (the listener closed) is forgotten.
 * Its lines: one per accepted connection, when accept() returns it, with
 * its synq and acceptq stages, its addresses and ports, the accept queue's
 * length and limit then; the process is the acceptor.
 */
#include <linux/errno.h>
#include <net/inet_connection_sock.h>
#include <net/request_sock.h>

#include "net.h"

/* ---- shared ------------------------------------------------------------ */

SL_TP_DEFINE(inet_sock_set_state,
	     (const struct sock *sk, const int oldstate, const int newstate),
	     (unsigned long)sk, (unsigned long)oldstate,
	     (unsigned long)newstate)

static __always_inline u32 sl_tc_port_tag(struct sl_dim *d, u16 port)
{
	char name[8];

	sl_net_port_name(name, port);
	return sl_dim_tag(d, port, name);
}

static __always_inline bool sl_tc_is_tcp(const struct sock *sk)
{
	return READ_ONCE(sk->sk_protocol) == IPPROTO_TCP &&
	       READ_ONCE(sk->sk_type) == SOCK_STREAM;
}

/* ---- tcpconnect -------------------------------------------------------- */

enum { C_CONNECT, C_ESTAB };

#define SL_TC_CONN_SLOT	SL_DIM_SLOTS

enum {
	CS_CONNECT, CS_REFUSED, CS_TIMEDOUT, CS_UNREACH, CS_FAILED,
	CS_NFIXED,
	CS_NSTAGES = CS_NFIXED + SL_DIM_SLOTS + 1
};

static struct sl_stage sl_tc_conn_stages[CS_NSTAGES] = {
	[CS_CONNECT] = { "connect", "connect", "established", C_CONNECT,
			 C_ESTAB },
	[CS_REFUSED] = { "refused", "connect", "closed", SL_PT_NONE,
			 SL_PT_NONE },
	[CS_TIMEDOUT] = { "timedout", "connect", "closed", SL_PT_NONE,
			  SL_PT_NONE },
	[CS_UNREACH] = { "unreachable", "connect", "closed", SL_PT_NONE,
			 SL_PT_NONE },
	[CS_FAILED] = { "failed", "connect", "closed", SL_PT_NONE,
			SL_PT_NONE },
};

static struct sl_dim sl_tc_rports;
static const char * const sl_tc_conn_suffix[1] = { ".connect" };

/*
 * aux[0] of a connect chain: 1 + its remote port's tag, and in bits 32-47
 * the local port connect() chose: a failed connect's socket gives its
 * port back (inet_put_port in tcp_set_state) before the state change's
 * tracepoint, so its line takes the port from here
 */
#define SL_TC_AUX_TAG	0
#define SL_TC_SPORT_SHIFT	32
/* aux[1]: the connecting task's tgid << 32 | pid */
#define SL_TC_AUX_TASK	1
/*
 * ts[2..3] of a connect chain (no point's: C_CONNECT and C_ESTAB are the
 * only two): the connecting task's comm, kept at connect(), since the
 * answer may be processed on any task (softirq on whatever it interrupted:
 * on loopback usually the connecting task itself, not always).  No stage
 * is derived from them and the chain writes its own lines (own_lines).
 */
#define SL_TC_TS_COMM	2
#define SL_TC_COMM_LEN	(2 * sizeof(u64))
/* ts[4]: the connecting task's cgroup v2 id, taken with its comm */
#define SL_TC_TS_CGROUP	4

/* The failure stage of errno @err (positive, or 0). */
static __always_inline unsigned int sl_tc_fail_stage(int err)
{
	switch (err) {
	case ECONNREFUSED:
		return CS_REFUSED;
	case ETIMEDOUT:
		return CS_TIMEDOUT;
	case EHOSTUNREACH:
	case ENETUNREACH:
		return CS_UNREACH;
	default:
		return CS_FAILED;
	}
}

/*
 * The line of a connect (events): @stage from @start to @end, @err its
 * result; the task is @task (tgid << 32 | pid), named @comm, in cgroup @cg
 * (the one that called connect(), kept in the chain: SL_TC_TS_COMM,
 * SL_TC_TS_CGROUP).
 */
static __always_inline void sl_tc_conn_line(struct sl_pipeline *p,
					    const struct sock *sk,
					    unsigned int stage, u64 start,
					    u64 end, int err, u64 task,
					    u16 sport, const char *comm, u64 cg)
{
	struct sl_ev_obj o;

	memset(&o, 0, sizeof(o));
	sl_net_sk_obj(sk, &o);
	if (!o.sport)
		o.sport = sport;
	o.flags |= STACKLAT_EVENT_F_RESULT;
	o.result = err;
	o.task = true;
	o.tgid = (u32)(task >> 32);
	o.tid = (u32)task;
	o.comm = comm;
	o.cgroup = cg;
	sl_event_emit_obj(p, stage, start, end, &o);
}

/* The local port connect() chose, kept in the chain */
static __always_inline u16 sl_tc_sport(const struct sl_flight_ent *e)
{
	return (u16)(e->aux[SL_TC_AUX_TAG] >> SL_TC_SPORT_SHIFT);
}

/* Task context: current's tgid << 32 | pid. */
static __always_inline u64 sl_tc_task(void)
{
	return (u64)(u32)current->tgid << 32 | (u32)current->pid;
}

/* tcp_v*_connect(sk, uaddr, len) entry: the caller's filter, the clock. */
static int sl_tc_connect_pre(struct sl_ev *ev)
{
	if (!sl_task_ok(ev->p)) {
		sl_loss(ev->p, SL_LOSS_FILTERED);
		return -1;
	}
	*(u64 *)ev->data = sl_now();
	return 0;
}

/* tcp_v4_connect of an IPv6 socket: the v4-mapped case, left to v6's row. */
static int sl_tc_connect4_pre(struct sl_ev *ev)
{
	const struct sock *sk = sl_ev_ptr(ev, 0);

	if (READ_ONCE(sk->sk_family) != AF_INET)
		return -1;
	return sl_tc_connect_pre(ev);
}

/* tcp_v*_connect returned: start the chain, or count the failure. */
static int sl_tc_connect_ret(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sl_pipeline *p = ev->p;
	struct sock *sk = sl_ev_ptr(ev, 0);
	u64 t0 = *(u64 *)ev->data;
	int ret = (int)ev->ret;
	struct sl_flight_ent *e;
	u16 rport, fr;

	if (ret < 0) {
		/* in connect(): process context */
		if (sl_record(p, sl_tc_fail_stage(-ret),
			      (s64)(sl_ev_now(ev) - t0)) &&
		    unlikely(sl_events_thresh(p)))
			sl_tc_conn_line(p, sk, sl_tc_fail_stage(-ret), t0,
					sl_ev_now(ev), -ret, sl_tc_task(), 0,
					current->comm,
					sl_task_cgroup_id(current));
		return SL_KEEP;
	}
	if (ret || READ_ONCE(sk->sk_state) != TCP_SYN_SENT)
		return SL_KEEP;
	rport = ntohs(READ_ONCE(inet_sk(sk)->inet_dport));
	fr = READ_ONCE(sl_filter_of(p)->rport);
	if (fr && fr != rport) {
		sl_loss(p, SL_LOSS_FILTERED);
		return SL_KEEP;
	}
	e = sl_chain_start(p, (unsigned long)sk, C_CONNECT, t0);
	if (!e)
		return SL_KEEP;
	e->aux[SL_TC_AUX_TAG] = (1 + sl_tc_port_tag(&sl_tc_rports, rport)) |
		(u64)READ_ONCE(inet_sk(sk)->inet_num) << SL_TC_SPORT_SHIFT;
	e->aux[SL_TC_AUX_TASK] = sl_tc_task();
	/* task context: current's comm, NUL-terminated in its 16 bytes */
	BUILD_BUG_ON(sizeof(current->comm) < SL_TC_COMM_LEN);
	memcpy(&e->ts[SL_TC_TS_COMM], current->comm, SL_TC_COMM_LEN - 1);
	((char *)&e->ts[SL_TC_TS_COMM])[SL_TC_COMM_LEN - 1] = '\0';
	e->ts[SL_TC_TS_CGROUP] = sl_task_cgroup_id(current);
	sl_chain_put(e);
	return SL_KEEP;
}

/* SYN_SENT -> ESTABLISHED or -> CLOSE of a TCP socket, nothing else. */
static int sl_tc_conn_state_pre(struct sl_ev *ev)
{
	int old = (int)sl_ev_arg(ev, 1), new = (int)sl_ev_arg(ev, 2);

	if (old != TCP_SYN_SENT ||
	    (new != TCP_ESTABLISHED && new != TCP_CLOSE) ||
	    !sl_tc_is_tcp(sl_ev_ptr(ev, 0)))
		return -1;
	return 0;
}

/* Softirq (the answer) or process context (a close, an error). */
static int sl_tc_conn_state_post(struct sl_ev *ev, struct sl_flight_ent *e)
{
	const struct sock *sk = sl_ev_ptr(ev, 0);
	u64 t0 = e->ts[C_CONNECT], now = sl_ev_now(ev);
	unsigned int stage;
	int err;

	if ((int)sl_ev_arg(ev, 2) == TCP_ESTABLISHED) {
		e->ts[C_ESTAB] = now;
		if (unlikely(sl_events_thresh(ev->p)))
			sl_tc_conn_line(ev->p, sk, CS_CONNECT, t0, now, 0,
					e->aux[SL_TC_AUX_TASK], sl_tc_sport(e),
					(const char *)&e->ts[SL_TC_TS_COMM],
					e->ts[SL_TC_TS_CGROUP]);
		sl_chain_finish(ev->p, e);
		return SL_DONE;
	}
	/* the error is set before the state changes (tcp_reset, tcp_write_err, tcp_v4_err) */
	err = READ_ONCE(sk->sk_err);
	stage = sl_tc_fail_stage(err);
	if (sl_record(ev->p, stage, (s64)(now - t0)) &&
	    unlikely(sl_events_thresh(ev->p)))
		sl_tc_conn_line(ev->p, sk, stage, t0, now, err,
				e->aux[SL_TC_AUX_TASK], sl_tc_sport(e),
				(const char *)&e->ts[SL_TC_TS_COMM],
				e->ts[SL_TC_TS_CGROUP]);
	return SL_FORGET;
}

/* debugfs "inflight": a connect waiting for its answer (not its comm's words as points) */
static void sl_tc_conn_flight_fmt(const struct sl_pipeline *p,
				  const struct sl_flight_ent *e, u64 now,
				  char *buf, size_t len)
{
	char d[16];

	sl_fmt_ns(d, sizeof(d), now - e->ts[C_CONNECT]);
	scnprintf(buf, len, " connecting for %s from port %u, by %.*s", d,
		  sl_tc_sport(e), (int)SL_TC_COMM_LEN - 1,
		  (const char *)&e->ts[SL_TC_TS_COMM]);
}

static void sl_tc_conn_on_record(struct sl_pipeline *p,
				 const struct sl_flight_ent *e)
{
	u64 tag = (u32)e->aux[SL_TC_AUX_TAG];

	if (tag)
		sl_record(p, sl_dim_stage(&sl_tc_rports, (u32)(tag - 1)),
			  (s64)(e->ts[C_ESTAB] - e->ts[C_CONNECT]));
}

static const struct sl_cand sl_c_tc_connect4[] = {
	SL_KRPD("tcp_v4_connect", 0),
};

static const struct sl_cand sl_c_tc_connect6[] = {
	SL_KRPD("tcp_v6_connect", 0),
};

static const struct sl_cand sl_c_tc_state[] = {
	SL_TPD(inet_sock_set_state),
};

static struct sl_hook sl_tc_conn_hooks[] = {
	SL_POINT("connect4", sl_c_tc_connect4, SL_ACT_NONE, C_CONNECT, 0,
		 .pre = sl_tc_connect4_pre, .post = sl_tc_connect_ret,
		 .data_size = sizeof(u64)),
	SL_POINT("connect6", sl_c_tc_connect6, SL_ACT_NONE, C_CONNECT, 0,
		 .optional = true,
		 .pre = sl_tc_connect_pre, .post = sl_tc_connect_ret,
		 .data_size = sizeof(u64)),
	SL_POINT("state", sl_c_tc_state, SL_ACT_HOLD, C_ESTAB, 0,
		 .pre = sl_tc_conn_state_pre, .post = sl_tc_conn_state_post),
};

static int sl_tc_conn_setup(struct sl_pipeline *p)
{
	static const char * const from[] = { "connect" };
	static const char * const to[] = { "established" };

	sl_dim_init(&sl_tc_rports, sl_tc_conn_stages, CS_NFIXED, 1,
		    sl_tc_conn_suffix, from, to);
	return 0;
}

SL_PIPELINE(tcpconnect) = {
	.name = "tcpconnect",
	.desc = "TCP connect() to established per remote port; failures by errno",
	.key = STACKLAT_KEY_SOCK,
	.filter_caps = SL_F_TGID | SL_F_TID | SL_F_RPORT,
	.hooks = sl_tc_conn_hooks,
	.nhooks = ARRAY_SIZE(sl_tc_conn_hooks),
	.stages = sl_tc_conn_stages,
	.nstages = ARRAY_SIZE(sl_tc_conn_stages),
	.setup = sl_tc_conn_setup,
	.on_record = sl_tc_conn_on_record,
	.own_events = true,
	.flight_fmt = sl_tc_conn_flight_fmt,
	.own_lines = true,
};

/* ---- tcpaccept --------------------------------------------------------- */

enum { A_ESTAB, A_ACCEPT };

enum {
	AS_SYNQ, AS_ACCEPTQ, AS_SYNQ_DEPTH, AS_ACCEPTQ_DEPTH, AS_OVERFLOW,
	AS_NPER
};

#define AS_NSTAGES	((SL_DIM_SLOTS + 1) * AS_NPER)

static struct sl_stage sl_tc_acc_stages[AS_NSTAGES];
static struct sl_dim sl_tc_lports;

static const char * const sl_tc_acc_suffix[AS_NPER] = {
	[AS_SYNQ] = ".synq",
	[AS_ACCEPTQ] = ".acceptq",
	[AS_SYNQ_DEPTH] = ".synq_depth",
	[AS_ACCEPTQ_DEPTH] = ".acceptq_depth",
	[AS_OVERFLOW] = ".overflow",
};

static const u8 sl_tc_acc_unit[AS_NPER] = {
	[AS_SYNQ_DEPTH] = STACKLAT_UNIT_COUNT,
	[AS_ACCEPTQ_DEPTH] = STACKLAT_UNIT_COUNT,
	[AS_OVERFLOW] = STACKLAT_UNIT_COUNT,
};

/* aux[0] of an accept chain: 1 + its listening port's tag */
#define SL_TC_AUX_LTAG	0
/* aux[1]: its time in the SYN queue (0: unknown) */
#define SL_TC_AUX_SYNQ	1

/* A listener on a port the filter lets through: its stages' first index. */
static __always_inline int sl_tc_listener(struct sl_pipeline *p,
					  const struct sock *sk, u32 *tag)
{
	u16 lport = READ_ONCE(inet_sk(sk)->inet_num);
	u16 fl = READ_ONCE(sl_filter_of(p)->lport);

	if (fl && fl != lport) {
		sl_loss(p, SL_LOSS_FILTERED);
		return -1;
	}
	*tag = sl_tc_port_tag(&sl_tc_lports, lport);
	return (int)sl_dim_stage(&sl_tc_lports, *tag);
}

/*
 * tcp_conn_request(rsk_ops, af_ops, sk, skb): a SYN reaches listener sk.
 * The depths it finds; an overflow when the accept queue is full and the
 * SYN queue is not (else the SYN-flood path decides first).
 */
static int sl_tc_syn_post(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sock *sk = sl_ev_ptr(ev, 2);
	struct sl_pipeline *p = ev->p;
	u32 ackq, tag;
	int st;

	if (READ_ONCE(sk->sk_state) != TCP_LISTEN)
		return SL_KEEP;
	st = sl_tc_listener(p, sk, &tag);
	if (st < 0)
		return SL_KEEP;
	ackq = READ_ONCE(sk->sk_ack_backlog);
	sl_record_value(p, st + AS_SYNQ_DEPTH, inet_csk_reqsk_queue_len(sk));
	sl_record_value(p, st + AS_ACCEPTQ_DEPTH, ackq);
	if (sk_acceptq_is_full(sk) && !inet_csk_reqsk_queue_is_full(sk))
		sl_record_value(p, st + AS_OVERFLOW, ackq);
	return SL_KEEP;
}

/*
 * tcp_v*_syn_recv_sock(sk, skb, req, dst, req_unhash, own_req, ...): its
 * out-argument own_req (a bool of the caller's frame, alive at return) is
 * kept for the return.  Two ACKs of one request processed at once on two
 * CPUs (a retransmitted SYN-ACK's and the client's first data, say) both
 * make a child; the one that does not own the request is undone by the
 * caller (inet_csk_complete_hashdance) and is no handshake.
 */
static int sl_tc_hs_pre(struct sl_ev *ev)
{
	*(unsigned long *)ev->data = sl_ev_arg(ev, 5);
	return 0;
}

/* tcp_v4_syn_recv_sock of an IPv6 listener: mapped, left to v6's row. */
static int sl_tc_hs4_pre(struct sl_ev *ev)
{
	const struct sock *sk = sl_ev_ptr(ev, 0);

	if (READ_ONCE(sk->sk_family) != AF_INET)
		return -1;
	return sl_tc_hs_pre(ev);
}

/*
 * tcp_v*_syn_recv_sock(sk, skb, req, ...) returned: the child, or NULL (an
 * overflow when the accept queue is full, else out of memory or a route).
 */
static int sl_tc_hs_ret(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sl_pipeline *p = ev->p;
	struct sock *sk = sl_ev_ptr(ev, 0);
	struct request_sock *req = sl_ev_ptr(ev, 2);
	struct sock *child = (struct sock *)ev->ret;
	const bool *own_req = *(const bool **)ev->data;
	struct sl_flight_ent *e;
	u64 synack;
	u32 tag;
	int st;

	st = sl_tc_listener(p, sk, &tag);
	if (st < 0)
		return SL_KEEP;
	if (!child) {
		if (sk_acceptq_is_full(sk))
			sl_record_value(p, st + AS_OVERFLOW,
					READ_ONCE(sk->sk_ack_backlog));
		return SL_KEEP;
	}
	if (!own_req || !READ_ONCE(*own_req))
		return SL_KEEP;
	synack = READ_ONCE(tcp_rsk(req)->snt_synack) * NSEC_PER_USEC;
	if (synack && !sl_record(p, st + AS_SYNQ, (s64)(sl_ev_now(ev) - synack)))
		synack = 0;
	e = sl_chain_start(p, (unsigned long)child, A_ESTAB, sl_ev_now(ev));
	if (!e)
		return SL_KEEP;
	e->aux[SL_TC_AUX_LTAG] = 1 + tag;
	e->aux[SL_TC_AUX_SYNQ] = synack ? sl_ev_now(ev) - synack : 0;
	sl_chain_put(e);
	return SL_KEEP;
}

/*
 * The line of an accepted connection @child of listener @sk (events): its
 * SYN-queue and accept-queue times, addresses and ports, the accept
 * queue's length and limit now; the process is current, the acceptor
 * (inet_csk_accept: process context).
 */
static void sl_tc_acc_line(struct sl_pipeline *p, const struct sock *sk,
			   const struct sock *child,
			   const struct sl_flight_ent *e)
{
	unsigned int stage[2], n = 0, st;
	struct sl_ev_obj o;
	u64 ns[2];

	if (!e->aux[SL_TC_AUX_LTAG])
		return;
	st = sl_dim_stage(&sl_tc_lports, (u32)(e->aux[SL_TC_AUX_LTAG] - 1));
	if (e->aux[SL_TC_AUX_SYNQ]) {
		stage[n] = st + AS_SYNQ;
		ns[n++] = e->aux[SL_TC_AUX_SYNQ];
	}
	stage[n] = st + AS_ACCEPTQ;
	ns[n++] = e->ts[A_ACCEPT] - e->ts[A_ESTAB];
	memset(&o, 0, sizeof(o));
	sl_net_sk_obj(child, &o);
	o.flags |= STACKLAT_EVENT_F_QUEUE;
	o.qlen = READ_ONCE(sk->sk_ack_backlog);
	o.qmax = READ_ONCE(sk->sk_max_ack_backlog);
	sl_event_emit_stages(p, stage, ns, n, e->ts[A_ACCEPT], &o);
}

/* inet_csk_accept(sk, ...) returned a child: its accept-queue wait ends. */
static int sl_tc_accept_ret(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sl_flight_ent *e;

	if (!ev->ret)
		return SL_KEEP;
	e = sl_chain_get(ev->p, ev->ret);
	if (!e)
		return SL_KEEP;
	e->ts[A_ACCEPT] = sl_ev_now(ev);
	if (unlikely(sl_events_thresh(ev->p)) && e->ts[A_ESTAB] &&
	    (s64)(e->ts[A_ACCEPT] - e->ts[A_ESTAB]) >= 0)
		sl_tc_acc_line(ev->p, sl_ev_ptr(ev, 0),
			       (const struct sock *)ev->ret, e);
	sl_chain_finish(ev->p, e);
	return SL_KEEP;
}

static void sl_tc_acc_on_record(struct sl_pipeline *p,
				const struct sl_flight_ent *e)
{
	u64 tag = e->aux[SL_TC_AUX_LTAG];

	if (tag && e->ts[A_ESTAB] && e->ts[A_ACCEPT])
		sl_record(p, sl_dim_stage(&sl_tc_lports, (u32)(tag - 1)) +
			  AS_ACCEPTQ, (s64)(e->ts[A_ACCEPT] - e->ts[A_ESTAB]));
}

/* A TCP socket closing: a child that was never accepted is forgotten. */
static int sl_tc_close_pre(struct sl_ev *ev)
{
	if ((int)sl_ev_arg(ev, 2) != TCP_CLOSE ||
	    !sl_tc_is_tcp(sl_ev_ptr(ev, 0)))
		return -1;
	return 0;
}

static const struct sl_cand sl_c_tc_syn[] = {
	SL_KPD("tcp_conn_request", 0),
};

static const struct sl_cand sl_c_tc_hs4[] = {
	SL_KRPD("tcp_v4_syn_recv_sock", 0),
};

static const struct sl_cand sl_c_tc_hs6[] = {
	SL_KRPD("tcp_v6_syn_recv_sock", 0),
};

static const struct sl_cand sl_c_tc_accept[] = {
	SL_KRPD("inet_csk_accept", 0),
};

static struct sl_hook sl_tc_acc_hooks[] = {
	SL_POINT("syn", sl_c_tc_syn, SL_ACT_NONE, A_ESTAB, 2,
		 .post = sl_tc_syn_post),
	SL_POINT("handshake4", sl_c_tc_hs4, SL_ACT_NONE, A_ESTAB, 0,
		 .pre = sl_tc_hs4_pre, .post = sl_tc_hs_ret,
		 .data_size = sizeof(bool *)),
	SL_POINT("handshake6", sl_c_tc_hs6, SL_ACT_NONE, A_ESTAB, 0,
		 .optional = true, .pre = sl_tc_hs_pre, .post = sl_tc_hs_ret,
		 .data_size = sizeof(bool *)),
	SL_POINT("accept", sl_c_tc_accept, SL_ACT_NONE, A_ACCEPT, 0,
		 .post = sl_tc_accept_ret),
	SL_POINT("close", sl_c_tc_state, SL_ACT_FORGET, A_ACCEPT, 0,
		 .pre = sl_tc_close_pre),
};

static int sl_tc_acc_setup(struct sl_pipeline *p)
{
	static const char * const from[AS_NPER] = {
		"synack", "handshake", "syn", "syn", "syn/handshake",
	};
	static const char * const to[AS_NPER] = {
		"handshake", "accept", "syn", "syn", "syn/handshake",
	};
	unsigned int i;

	sl_dim_init(&sl_tc_lports, sl_tc_acc_stages, 0, AS_NPER,
		    sl_tc_acc_suffix, from, to);
	for (i = 0; i < AS_NSTAGES; i++)
		sl_tc_acc_stages[i].unit = sl_tc_acc_unit[i % AS_NPER];
	return 0;
}

SL_PIPELINE(tcpaccept) = {
	.name = "tcpaccept",
	.desc = "TCP accept path per listening port: SYN queue, accept queue, depths, overflows",
	.key = STACKLAT_KEY_SOCK,
	.filter_caps = SL_F_LPORT,
	.hooks = sl_tc_acc_hooks,
	.nhooks = ARRAY_SIZE(sl_tc_acc_hooks),
	.stages = sl_tc_acc_stages,
	.nstages = ARRAY_SIZE(sl_tc_acc_stages),
	.setup = sl_tc_acc_setup,
	.on_record = sl_tc_acc_on_record,
	.own_events = true,
	.own_lines = true,
};
