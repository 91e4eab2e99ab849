// SPDX-License-Identifier: GPL-2.0
/*
 * reqresp: where each request to a TCP server spends its time, from the
 * wire to the wire, per request (see docs/pipelines/reqresp.md).
 *
 * A request is the data one read-type call (tcp_recvmsg: read, recv,
 * recvmsg, readv) returns on a server socket; its response is what is next
 * written on that socket (tcp_sendmsg).  Its points, in wire order, are
 * the timestamp slots R_DRV .. R_TXDONE; consecutive points make the
 * stages, which therefore add up to the total exactly (the points are made
 * monotonic before recording: a point that came before the previous one,
 * as a blocking read's entry before the data arrived, takes its time).
 *
 * Four kinds of chains live in the table, told apart by their ident:
 *  - an skb (its address): from the driver to the socket's receive queue,
 *    only for TCP segments with payload to a server port;
 *  - the data pending on a socket (sk | SL_RR_PEND): the stamps of the
 *    first skb queued since the socket was last read (and of the newest
 *    one), the number of segments;
 *  - the request of a socket (sk | SL_RR_REQ): from its read to the driver
 *    taking the last byte of its response;
 *  - a server thread (its pid): when it was woken by the data of a
 *    followed socket, when it got a CPU, when its wait returned, how many
 *    requests it read since, and the last request it wrote;
 *  - while it samples ("sample reqresp N"), the marks of a request not
 *    followed, which hold nothing: its data pending (sk | SL_RR_SKIP |
 *    SL_RR_PEND), and itself read and not answered yet (sk | SL_RR_SKIP |
 *    SL_RR_REQ).  They keep its boundaries (the data after it is another
 *    request, the data before its response is its own), so that the
 *    requests around it are the ones a full run has (reqresp_sample.c).
 *
 * A server socket is one returned by accept() while the pipeline was
 * enabled (its local port is then a server port), or any socket on the
 * port of the lport filter.  Everything else costs one bit test (at the
 * driver) and is never inserted.
 */
#include "net.h"
#include <linux/bitmap.h>
#include <linux/sched.h>
#include <trace/events/sched.h>

/* the points of a request, in wire order */
enum {
	R_DRV, R_IP, R_QUEUE, R_WAKE, R_ONCPU, R_WAITRET, R_RDSTART, R_RDRET,
	R_WRSTART, R_TXDONE, R_NPT
};

/* slots of a pending entry holding the newest skb's R_DRV..R_QUEUE */
#define R_LAST		R_WAKE
/* slots of a request entry holding sequence numbers, not times */
#define R_TARGET	10	/* write_seq after its last write */
#define R_SENT		11	/* highest end sequence a driver took */
#define SL_RR_SEQ	BIT_ULL(32)	/* the sequence slot is set */

/* request aux[0]: the reader's pid, and flags (SL_RR_WRITTEN: net.h) */
#define SL_RR_BUSY	BIT_ULL(33)	/* arrived at a busy thread */
/* thread aux[1]: requests read since its wakeup, and flags */
#define SL_RR_WOKEN	BIT_ULL(32)	/* woken by a followed socket's data */

/* idents: a socket's address with SL_RR_PEND, _REQ, _SKIP (net.h) */

enum {
	RRS_RX, RRS_TCPIP, RRS_NOTIFY, RRS_RUNQ, RRS_WAITRET, RRS_QUEUE,
	RRS_READ, RRS_APP, RRS_TX, RRS_TOTAL, RRS_PERWAKE, RRS_SEGS, RRS_BUSY,
	RRS_NSTAGES
};

static struct sl_stage sl_rr_stages[RRS_NSTAGES] = {
	[RRS_RX] = { "rx", "driver", "ip_rcv", R_DRV, R_IP },
	[RRS_TCPIP] = { "tcpip", "ip_rcv", "tcp_queue", R_IP, R_QUEUE },
	[RRS_NOTIFY] = { "notify", "tcp_queue", "waking", R_QUEUE, R_WAKE },
	[RRS_RUNQ] = { "runqueue", "waking", "oncpu", R_WAKE, R_ONCPU },
	[RRS_WAITRET] = { "wait-return", "oncpu", "wait_return", R_ONCPU,
			  R_WAITRET },
	[RRS_QUEUE] = { "queue", "wait_return", "read", R_WAITRET, R_RDSTART },
	[RRS_READ] = { "read", "read", "read_return", R_RDSTART, R_RDRET },
	[RRS_APP] = { "app", "read_return", "write", R_RDRET, R_WRSTART },
	[RRS_TX] = { "tx", "write", "xmit", R_WRSTART, R_TXDONE },
	[RRS_TOTAL] = { "total", "driver", "xmit", R_DRV, R_TXDONE },
	/* counts, not times: plain numbers, unit "count" */
	[RRS_PERWAKE] = SL_VALUE_STAGE("reads-per-wakeup", "waking", "wait",
				       STACKLAT_UNIT_COUNT),
	[RRS_SEGS] = SL_VALUE_STAGE("segments", "driver", "tcp_queue",
				    STACKLAT_UNIT_COUNT),
	/*
	 * the queue stage of the requests that arrived at a busy thread: a
	 * time, recorded by the callbacks (no pair of points derives it)
	 */
	[RRS_BUSY] = { "busy.queue", "tcp_queue", "read", SL_PT_NONE,
		       SL_PT_NONE },
};

enum {
	HRR_DRV, HRR_IP, HRR_IP6, HRR_QUEUE, HRR_COALESCE_TRY, HRR_COALESCE,
	HRR_KFREE, HRR_CONSUME, HRR_READY, HRR_WAKING, HRR_ONCPU, HRR_EPOLL,
	HRR_POLL, HRR_SELECT, HRR_SKWAIT, HRR_CHILD, HRR_ACCEPT, HRR_READ,
	HRR_WRITE, HRR_XSTART, HRR_XMIT, HRR_CLOSE, HRR_EXIT, HRR_NR
};

static struct sl_hook sl_rr_hooks[HRR_NR];

/* server ports: learned at accept(), cleared at enable */
static DECLARE_BITMAP(sl_rr_ports, 65536);

/*
 * data_ready calls of followed sockets running now (entered, not
 * returned): while there are none, a wakeup needs no lookup
 */
static atomic_t sl_rr_ready_open;

/* a response segment between net_dev_start_xmit and net_dev_xmit */
struct sl_rr_tx {
	const struct sk_buff *skb;
	unsigned long req;
	u32 end;
};

static DEFINE_PER_CPU(struct sl_rr_tx, sl_rr_tx);

static __always_inline bool sl_rr_port_ok(const struct sl_pipeline *p,
					  u16 port)
{
	u16 fl = READ_ONCE(sl_filter_of(p)->lport);

	if (fl)
		return port == fl;
	return test_bit(port, sl_rr_ports);
}

/*
 * A TCP segment with payload, read at the network header (skb->data at the
 * driver and IP points); its destination port in *@dport.  IPv6 extension
 * headers are not looked through.
 */
static bool sl_rr_skb_tcp(const struct sk_buff *skb, u16 *dport)
{
	const unsigned char *nh = skb->data;
	const struct tcphdr *th;
	unsigned int len, hl;

	if (skb->protocol == htons(ETH_P_IP)) {
		const struct iphdr *h = (const struct iphdr *)nh;

		if (!sl_net_linear(skb, h, sizeof(*h)) ||
		    h->protocol != IPPROTO_TCP ||
		    (h->frag_off & htons(IP_MF | IP_OFFSET)))
			return false;
		hl = h->ihl * 4U;
		len = ntohs(h->tot_len);
	} else if (skb->protocol == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *h = (const struct ipv6hdr *)nh;

		if (!sl_net_linear(skb, h, sizeof(*h)) ||
		    h->nexthdr != IPPROTO_TCP)
			return false;
		hl = sizeof(*h);
		len = hl + ntohs(h->payload_len);
	} else {
		return false;
	}
	th = (const struct tcphdr *)(nh + hl);
	if (!sl_net_linear(skb, th, sizeof(*th)) || len <= hl + th->doff * 4U)
		return false;
	*dport = ntohs(th->dest);
	return true;
}

/*
 * A chain starts: an skb at the driver (or IP, when the driver point is
 * not armed) only if it carries data to a server port; a thread at its
 * wakeup always (its filter ran before).
 */
static int sl_rr_start_ok(struct sl_ev *ev)
{
	const struct sk_buff *skb;
	u16 dport;

	if (ev->hk->pt > R_IP)
		return SL_KEEP;
	skb = (const struct sk_buff *)ev->ident;
	if (!sl_rr_skb_tcp(skb, &dport))
		return SL_FORGET;
	if (!sl_rr_port_ok(ev->p, dport))
		return READ_ONCE(sl_filter_of(ev->p)->lport) ? SL_FILTERED :
							       SL_FORGET;
	return SL_KEEP;
}

/*
 * tcp_queue_rcv(sk, skb, ...): the segment is queued on the socket.  Its
 * chain ends; its stamps become the socket's pending data's if none is
 * pending (the first byte's skb is the one a request follows), else its
 * newest skb's.
 */
static int sl_rr_queue_post(struct sl_ev *ev, struct sl_flight_ent *e)
{
	struct sl_pipeline *p = ev->p;
	unsigned long sk = (unsigned long)sl_ev_ptr(ev, 0);
	unsigned long id = sk | SL_RR_PEND;
	struct sl_flight_ent *q;
	unsigned int i;

	e->ts[R_QUEUE] = sl_ev_now(ev);
	if (sl_sample_on(p) && !sl_rr_queue_take(p, sk, sl_ev_now(ev)))
		return SL_FORGET;
	/*
	 * The pending data as it is, else a new entry: never "get, else
	 * start", which restarted the entry (its first skb's times, its
	 * count) when the get failed only because a reader on another CPU
	 * held it.
	 */
	q = sl_chain_open(p, id, sl_ev_now(ev));
	if (!q)
		return SL_FORGET;
	if (!q->ts[R_QUEUE]) {
		/* new: the first skb's times */
		for (i = R_DRV; i <= R_QUEUE; i++)
			q->ts[i] = e->ts[i];
	}
	for (i = R_DRV; i <= R_QUEUE; i++)
		q->ts[R_LAST + i] = e->ts[i];
	q->aux[1]++;
	sl_chain_put(q);
	return SL_FORGET;
}

/* A request is over: record it if its response left, else count it. */
static void sl_rr_finish(struct sl_pipeline *p, struct sl_flight_ent *e)
{
	u64 tgt = e->ts[R_TARGET], sent = e->ts[R_SENT];
	unsigned int i;

	if (!(e->aux[0] & SL_RR_WRITTEN) || !(tgt & SL_RR_SEQ) ||
	    !(sent & SL_RR_SEQ) || before((u32)sent, (u32)tgt)) {
		sl_chain_remove(p, e, SL_LOSS_UNMATCHED);
		return;
	}
	e->ts[R_TARGET] = 0;
	e->ts[R_SENT] = 0;
	for (i = R_DRV + 1; i < R_NPT; i++)
		if (e->ts[i] < e->ts[i - 1])
			e->ts[i] = e->ts[i - 1];
	sl_chain_record(p, e);
	sl_record_value(p, RRS_SEGS, e->aux[1]);
	if (e->aux[0] & SL_RR_BUSY)
		sl_record(p, RRS_BUSY, (s64)(e->ts[R_RDSTART] - e->ts[R_QUEUE]));
	sl_chain_remove(p, e, SL_NO_LOSS);
}

/* Has the last byte written for the request in @e left? */
static bool sl_rr_sent(const struct sl_flight_ent *e)
{
	u64 tgt = e->ts[R_TARGET], sent = e->ts[R_SENT];

	return (tgt & SL_RR_SEQ) && (sent & SL_RR_SEQ) &&
	       !before((u32)sent, (u32)tgt);
}

/*
 * The thread that wrote request @req moved on (to another socket, or back
 * to waiting): the response is complete; record it now if it left, else
 * it is recorded when it leaves or at the socket's next read.
 */
static void sl_rr_settle(struct sl_pipeline *p, unsigned long req)
{
	struct sl_flight_ent *e = sl_chain_get(p, req);

	if (!e)
		return;
	if ((e->aux[0] & SL_RR_WRITTEN) && sl_rr_sent(e))
		sl_rr_finish(p, e);
	else
		sl_chain_put(e);
}

/*
 * sock_def_readable(sk) at entry: a followed socket's data wakes its
 * readers: the wakeups in this call are theirs.  Which call a wakeup is
 * in is kept per task and context (sl_net_ctx_ident()), in an entry of
 * the table whose aux[0] is the socket: the wakeups are in the same task
 * and context as the call, on whatever CPU it runs by then.  Not per CPU:
 * data_ready runs in process context too (the socket backlog, processed
 * in release_sock), which PREEMPT_RT and preempt=full preempt and
 * migrate, and on PREEMPT_RT softirqs run preemptible in threads.  A
 * per-CPU marker was another task's after a preemption (the wakeups of
 * this call then not seen: its request filed as one that found its thread
 * busy), or stayed behind on the CPU the call entered on, naming this
 * task, when it returned on another - and every later wakeup by this task
 * on that CPU, outside any data_ready, was taken for a reader woken by
 * data.  A data_ready inside another in the same task and context (none
 * is expected) keeps the outer one's socket in its kretprobe bytes and
 * puts it back at return (post).
 */
static int sl_rr_ready_pre(struct sl_ev *ev)
{
	unsigned long *saved = ev->data;
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *m;

	if (!sl_chain_followed(p, ev->ident | SL_RR_PEND))
		return -1;
	m = sl_flight_put(sl_ft, sl_chain_key(p, sl_net_ctx_ident()),
			  sl_ev_now(ev), SL_FL_KEEP, NULL);
	if (unlikely(!m)) {
		/* its wakeups are not seen: its request looks busy */
		sl_loss(p, SL_LOSS_TABLE_FULL);
		return -1;
	}
	*saved = m->aux[0];
	m->aux[0] = ev->ident;
	sl_chain_put(m);
	atomic_inc(&sl_rr_ready_open);
	return 0;
}

static int sl_rr_ready_post(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const unsigned long *saved = ev->data;
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *m;

	atomic_dec_if_positive(&sl_rr_ready_open);
	m = sl_chain_get(p, sl_net_ctx_ident());
	if (!m)
		return SL_DONE;
	if (m->aux[0] != ev->ident) {
		sl_chain_put(m);	/* not ours: flushed and made again */
		return SL_DONE;
	}
	if (*saved) {
		m->aux[0] = *saved;
		sl_chain_put(m);
	} else {
		sl_chain_remove(p, m, SL_NO_LOSS);
	}
	return SL_DONE;
}

/* The socket whose data_ready the current task is in, in this context. */
static unsigned long sl_rr_ready_sk(struct sl_pipeline *p)
{
	struct sl_flight_ent *m;
	unsigned long sk;

	if (!atomic_read(&sl_rr_ready_open))
		return 0;
	m = sl_chain_get(p, sl_net_ctx_ident());
	if (!m)
		return 0;
	sk = m->aux[0];
	sl_chain_put(m);
	return sk;
}

/* sched_waking(p): a thread woken by a followed socket's data. */
static int sl_rr_waking_pre(struct sl_ev *ev)
{
	const struct task_struct *t = sl_ev_ptr(ev, 0);
	struct sl_pipeline *p = ev->p;

	if (!sl_filter_task_ok(p, t))
		return -1;
	/*
	 * Not a reader woken by the data: a kernel thread (on PREEMPT_RT the
	 * rcuc and softirq threads a release inside sock_def_readable wakes),
	 * or a task woken to take a lock released there (PREEMPT_RT, where
	 * the wait queue's and epoll's spinlocks are rtmutexes).  Followed,
	 * such a thread would never reach a wait point that ends its entry
	 * (6.1-rt: a kernel thread's entry left in flight).  In-kernel
	 * servers reading with sk_wait_data are not followed.
	 */
	if (READ_ONCE(t->flags) & PF_KTHREAD)
		return -1;
#ifdef TASK_RTLOCK_WAIT
	if (READ_ONCE(t->__state) & TASK_RTLOCK_WAIT)
		return -1;
#endif
	if (!sl_rr_ready_sk(p))
		return -1;
	ev->ident = (unsigned long)t->pid;
	return 0;
}

static int sl_rr_waking_post(struct sl_ev *ev, struct sl_flight_ent *e)
{
	e->aux[1] = SL_RR_WOKEN;
	return SL_KEEP;
}

/* sched_switch(preempt, prev, next, ...): the thread gets a CPU */
static int sl_rr_oncpu_pre(struct sl_ev *ev)
{
	if (sl_ev_cand(ev)->kind == STACKLAT_HOOK_KIND_TRACEPOINT)
		ev->ident = (unsigned long)((const struct task_struct *)
					    sl_ev_ptr(ev, 0))->pid;
	return 0;
}

/*
 * The entry of a wait (epoll_wait, poll, select, a blocking read's
 * sk_wait_data), or the thread's exit: the thread's last wakeup is over.  Its reads since count
 * as requests per wakeup, and the response it wrote last is complete.
 * The return (the row's MARK) stamps the wait's return on the chain a
 * wakeup during the wait started.
 */
static int sl_rr_wait_pre(struct sl_ev *ev)
{
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *t;
	unsigned long req;
	u64 n;

	if (!sl_task_ok(p))
		return -1;
	t = sl_chain_get(p, ev->ident);
	if (!t)
		return 0;
	n = t->aux[1] & U32_MAX;
	if ((t->aux[1] & SL_RR_WOKEN) && n)
		sl_record_value(p, RRS_PERWAKE, n);
	req = t->aux[0];
	sl_chain_remove(p, t, SL_NO_LOSS);
	if (req)
		sl_rr_settle(p, req);
	return 0;
}

/*
 * A passive connection: its local port is a server's.  inet_csk_clone_lock()
 * makes it when the handshake completes (in softirq, before any data of
 * the connection can arrive); with a tgid filter only inet_csk_accept(),
 * in the server, says whose it is (the data sent before the accept is not
 * followed then).
 */
static int sl_rr_accept_post(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct sock *sk = (const struct sock *)ev->ret;
	u32 tgid = READ_ONCE(sl_filter_of(ev->p)->tgid);
	u16 port;

	if (IS_ERR_OR_NULL(sk))
		return SL_DONE;
	if (ev->hk == &sl_rr_hooks[HRR_ACCEPT] ?
	    tgid && tgid != (u32)current->tgid : tgid != 0)
		return SL_DONE;
	port = inet_sk(sk)->inet_num;
	if (!test_bit(port, sl_rr_ports))
		set_bit(port, sl_rr_ports);
	return SL_DONE;
}

/* the thread's chain, made if it has none (a thread that was not woken) */
static struct sl_flight_ent *sl_rr_thread(struct sl_pipeline *p, u64 now)
{
	/*
	 * As it is, else a new blank one: a get that failed only because the
	 * wakeup path held it on another CPU must not restart it (its wakeup
	 * time and flags lost), as "get, else start" did.
	 */
	return sl_chain_open(p, (unsigned long)current->pid, now);
}

/*
 * tcp_recvmsg(sk, ...) at entry: a server socket read by a thread the
 * filter keeps.  A thread the filter excludes takes its socket's chains
 * out of the table (counted filtered).
 */
static int sl_rr_read_pre(struct sl_ev *ev)
{
	const struct sock *sk = (const struct sock *)ev->ident;
	struct sl_pipeline *p = ev->p;

	if (!sl_rr_port_ok(p, inet_sk(sk)->inet_num))
		return -1;
	if (!sl_task_ok(p)) {
		sl_chain_forget(p, ev->ident | SL_RR_PEND, SL_LOSS_FILTERED);
		sl_chain_forget(p, ev->ident | SL_RR_REQ, SL_LOSS_FILTERED);
		sl_rr_forget_skipped(p, ev->ident);
		return -1;
	}
	*(u64 *)ev->data = sl_now();
	return 0;
}

/* A read returned data: the request it read, from the pending data. */
static void sl_rr_read_data(struct sl_ev *ev, struct sock *sk)
{
	struct sl_pipeline *p = ev->p;
	unsigned long id = (unsigned long)sk;
	struct sl_flight_ent *q, *e, *t;
	unsigned int i;

	q = sl_chain_get(p, id | SL_RR_PEND);
	e = sl_chain_get(p, id | SL_RR_REQ);
	if (e && !(e->aux[0] & SL_RR_WRITTEN)) {
		/* no response yet: this read goes on with the request */
		e->ts[R_RDRET] = sl_ev_now(ev);
		if (q) {
			e->aux[1] += q->aux[1];
			sl_chain_remove(p, q, SL_NO_LOSS);
		} else if (sl_sample_on(p)) {
			/* chosen while the request's entry was busy: its own */
			sl_chain_forget(p, id | SL_RR_SKIP | SL_RR_PEND,
					SL_NO_LOSS);
		}
		sl_chain_put(e);
		return;
	}
	if (e)
		sl_rr_finish(p, e);
	if (sl_sample_on(p) && sl_rr_read_skipped(ev, sk, q))
		return;
	if (!q) {
		/*
		 * data that arrived before the pipeline was enabled (or
		 * before it stopped sampling: that of a request not followed)
		 */
		if (!sl_chain_forget(p, id | SL_RR_SKIP | SL_RR_PEND, SL_NO_LOSS))
			sl_loss(p, SL_LOSS_UNMATCHED);
		return;
	}
	/* a request is born, followed */
	sl_sample_count(p, true);
	e = sl_chain_start(p, id | SL_RR_REQ, R_RDRET, sl_ev_now(ev));
	if (!e) {
		sl_chain_remove(p, q, SL_NO_LOSS);
		return;
	}
	for (i = R_DRV; i <= R_QUEUE; i++)
		e->ts[i] = q->ts[i];
	e->aux[1] = q->aux[1];
	e->aux[0] = (u32)current->pid;
	e->ts[R_RDSTART] = *(u64 *)ev->data;
	t = sl_rr_thread(p, sl_ev_now(ev));
	if (t && (t->aux[1] & SL_RR_WOKEN) && t->ts[R_WAKE] >= q->ts[R_QUEUE]) {
		e->ts[R_WAKE] = t->ts[R_WAKE];
		e->ts[R_ONCPU] = t->ts[R_ONCPU];
		e->ts[R_WAITRET] = t->ts[R_WAITRET];
	} else {
		/* arrived at a busy thread: no wakeup, no wait */
		e->aux[0] |= SL_RR_BUSY;
		e->ts[R_WAKE] = q->ts[R_QUEUE];
		e->ts[R_ONCPU] = q->ts[R_QUEUE];
		e->ts[R_WAITRET] = q->ts[R_QUEUE];
	}
	if (t) {
		t->aux[1]++;
		sl_chain_put(t);
	}
	sl_chain_put(e);
	if (skb_queue_empty_lockless(&sk->sk_receive_queue)) {
		sl_chain_remove(p, q, SL_NO_LOSS);
		return;
	}
	/* data left for the next read: it arrived with the newest skb */
	for (i = R_DRV; i <= R_QUEUE; i++)
		q->ts[i] = q->ts[R_LAST + i];
	q->aux[1] = 1;
	sl_chain_put(q);
}

/*
 * tcp_recvmsg() returns: data is a request (the previous one on the socket
 * ends here if its response was written); 0 is the end of the connection.
 */
static int sl_rr_read_post(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sock *sk = sl_ev_ptr(ev, 0);
	struct sl_pipeline *p = ev->p;
	long ret = (long)ev->ret;
	struct sl_flight_ent *e;

	if (ret > 0) {
		sl_rr_read_data(ev, sk);
	} else if (!ret) {
		e = sl_chain_get(p, (unsigned long)sk | SL_RR_REQ);
		if (e)
			sl_rr_finish(p, e);
		else
			sl_rr_forget_skipped(p, (unsigned long)sk);
	}
	return SL_DONE;
}

/*
 * tcp_sendmsg(sk, ...) at entry: the response of the socket's request.
 * Process context (the writer's task).  The response of a request not
 * followed only ends its mark: the socket's next data is another request.
 */
static int sl_rr_write_pre(struct sl_ev *ev)
{
	struct sl_flight_ent *e = sl_chain_get(ev->p, ev->ident | SL_RR_REQ);
	const struct sock *sk = (const struct sock *)ev->ident;

	if (!e) {
		/* a request not followed is answered (at any rate now) */
		if (sl_rr_port_ok(ev->p, READ_ONCE(inet_sk(sk)->inet_num)))
			sl_chain_forget(ev->p,
					ev->ident | SL_RR_SKIP | SL_RR_REQ,
					SL_NO_LOSS);
		return -1;
	}
	if (!(e->aux[0] & SL_RR_WRITTEN)) {
		e->aux[0] |= SL_RR_WRITTEN;
		e->ts[R_WRSTART] = sl_now();
	}
	sl_chain_put(e);
	return 0;
}

/*
 * tcp_sendmsg() returns: the response's last byte so far is write_seq.
 * The thread remembers the request; the one it wrote before, on another
 * socket, is complete.
 */
static int sl_rr_write_post(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct sock *sk = sl_ev_ptr(ev, 0);
	unsigned long req = (unsigned long)sk | SL_RR_REQ;
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e, *t;
	unsigned long old = 0;

	e = sl_chain_get(p, req);
	if (!e)
		return SL_DONE;
	e->ts[R_TARGET] = READ_ONCE(tcp_sk(sk)->write_seq) | SL_RR_SEQ;
	sl_chain_put(e);
	t = sl_rr_thread(p, sl_ev_now(ev));
	if (t) {
		old = t->aux[0];
		t->aux[0] = req;
		sl_chain_put(t);
	}
	if (old && old != req)
		sl_rr_settle(p, old);
	return SL_DONE;
}

/*
 * net_dev_start_xmit(skb, dev): a segment of a socket with a request in
 * flight is handed to the driver.  If it carries the response's newest
 * byte, the response has left now (tx ends here for now): over a NIC the
 * peer can answer, and its next request be read on another CPU, before
 * this driver call returns (seen on 5.10 over virtio-net), and the request
 * must be complete by then.  Its end sequence is kept for net_dev_xmit,
 * which (same CPU, same call) says when the driver took it; the skb
 * cannot be read there.
 */
static int sl_rr_xstart_pre(struct sl_ev *ev)
{
	const struct sk_buff *skb = sl_ev_ptr(ev, 0);
	const struct sock *sk = skb->sk;
	unsigned long req = (unsigned long)sk | SL_RR_REQ;
	const struct tcphdr *th;
	struct sl_flight_ent *e;
	unsigned int hl;
	u64 sent;
	u32 end;

	this_cpu_write(sl_rr_tx.skb, NULL);
	if (!sk || !skb_transport_header_was_set(skb) ||
	    !sl_chain_followed(ev->p, req))
		return -1;
	th = (const struct tcphdr *)skb_transport_header(skb);
	if (!sl_net_linear(skb, th, sizeof(*th)))
		return -1;
	hl = skb_transport_offset(skb) + th->doff * 4U;
	if (skb->len <= hl)
		return -1;
	end = ntohl(th->seq) + skb->len - hl;
	e = sl_chain_get(ev->p, req);
	if (!e)
		return -1;
	sent = e->ts[R_SENT];
	if (!(e->aux[0] & SL_RR_WRITTEN) ||
	    ((sent & SL_RR_SEQ) && before(end, (u32)sent))) {
		sl_chain_put(e);
		return -1;
	}
	e->ts[R_SENT] = end | SL_RR_SEQ;
	e->ts[R_TXDONE] = sl_ev_now(ev);
	sl_chain_put(e);
	this_cpu_write(sl_rr_tx.req, req);
	this_cpu_write(sl_rr_tx.end, end);
	this_cpu_write(sl_rr_tx.skb, skb);
	return -1;
}

/*
 * net_dev_xmit(skb, rc, ...): the driver took the segment: the time tx
 * ends, if the request is still in flight and this is still its newest
 * byte.  A driver that refused it (busy) is handed it again later.
 */
static int sl_rr_xmit_pre(struct sl_ev *ev)
{
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;

	if (this_cpu_read(sl_rr_tx.skb) != (void *)sl_ev_arg(ev, 0))
		return -1;
	this_cpu_write(sl_rr_tx.skb, NULL);
	if (!dev_xmit_complete((int)sl_ev_arg(ev, 1)))
		return -1;
	e = sl_chain_get(p, this_cpu_read(sl_rr_tx.req));
	if (!e)
		return -1;
	if (e->ts[R_SENT] == (this_cpu_read(sl_rr_tx.end) | SL_RR_SEQ))
		e->ts[R_TXDONE] = sl_ev_now(ev);
	sl_chain_put(e);
	return -1;
}

/* tcp_close(sk, timeout): the socket's request ends, its pending data goes */
static int sl_rr_close_pre(struct sl_ev *ev)
{
	struct sl_flight_ent *e;

	sl_chain_forget(ev->p, ev->ident | SL_RR_PEND, SL_NO_LOSS);
	e = sl_chain_get(ev->p, ev->ident | SL_RR_REQ);
	if (e)
		sl_rr_finish(ev->p, e);
	else
		sl_rr_forget_skipped(ev->p, ev->ident);	/* at any rate now */
	return -1;
}

static int sl_rr_on_enable(struct sl_pipeline *p)
{
	bitmap_zero(sl_rr_ports, 65536);
	/* data_ready calls whose return was disarmed (their entries flushed) */
	atomic_set(&sl_rr_ready_open, 0);
	return 0;
}

SL_TP_DEFINE(sched_waking, (struct task_struct *p), (unsigned long)p)
SL_TP_DEFINE(sched_process_exit, (SL_COMPAT_PROCESS_EXIT_ARGS), (unsigned long)p)
SL_TP_DEFINE(sched_switch, (SL_COMPAT_SCHED_SWITCH_ARGS), (unsigned long)next)
/*
 * driver, ip_rcv, ipv6_rcv, tcp_queue, coalesce, xmit_start and xmit:
 * net_common.c's (net_rx and net_tx have them too)
 */

static const struct sl_cand sl_c_rr_ready[] = {
	SL_KRPD("sock_def_readable", 0),
};

static const struct sl_cand sl_c_rr_waking[] = {
	SL_TPD(sched_waking),
	SL_KPD("try_to_wake_up", 0),
};

/* finish_task_switch(prev) runs in the next task: the ident is current */
static const struct sl_cand sl_c_rr_oncpu[] = {
	SL_TPD(sched_switch),
	SL_KPD("finish_task_switch", 0),
};

static const struct sl_cand sl_c_rr_epoll[] = {
	SL_KRPD("do_epoll_wait", 0),
	SL_KRPD("ep_poll", 0),
};

static const struct sl_cand sl_c_rr_poll[] = { SL_KRPD("do_sys_poll", 0) };

static const struct sl_cand sl_c_rr_select[] = {
	SL_KRPD("core_sys_select", 0),
	SL_KRPD("do_select", 0),
};

static const struct sl_cand sl_c_rr_skwait[] = { SL_KRPD("sk_wait_data", 0) };

static const struct sl_cand sl_c_rr_child[] = {
	SL_KRPD("inet_csk_clone_lock", 0),
};

static const struct sl_cand sl_c_rr_accept[] = {
	SL_KRPD("inet_csk_accept", 0),
};

static const struct sl_cand sl_c_rr_read[] = { SL_KRPD("tcp_recvmsg", 0) };
static const struct sl_cand sl_c_rr_write[] = { SL_KRPD("tcp_sendmsg", 0) };

static const struct sl_cand sl_c_rr_close[] = { SL_KPD("tcp_close", 0) };

/* a thread that ends after a response, with no wait after it */
static const struct sl_cand sl_c_rr_exit[] = { SL_TPD(sched_process_exit) };

#define F	.flags = SL_PF_FIRST
#define WAIT(n, c) \
	SL_POINT(n, c, SL_ACT_MARK, R_WAITRET, SL_OBJ_TASK, \
		 .optional = true, .pre = sl_rr_wait_pre)

static struct sl_hook sl_rr_hooks[HRR_NR] = {
	[HRR_DRV] = SL_POINT("driver", sl_net_c_rx_drv, SL_ACT_START, R_DRV, 0, F),
	[HRR_IP] = SL_POINT("ip_rcv", sl_net_c_ip_rcv, SL_ACT_MARK, R_IP, 0, F),
	[HRR_IP6] = SL_POINT("ipv6_rcv", sl_net_c_ip6_rcv, SL_ACT_MARK, R_IP, 0, F),
	[HRR_QUEUE] = SL_POINT("tcp_queue", sl_net_c_tcp_queue, SL_ACT_HOLD,
			       R_QUEUE, 1, .post = sl_rr_queue_post),
	[HRR_COALESCE_TRY] = SL_POINT("coalesce_try", sl_net_c_coalesce_try,
				      SL_ACT_NONE, R_QUEUE, 0, .optional = true,
				      .post = sl_net_coalesce_try),
	[HRR_COALESCE] = SL_POINT("coalesce", sl_net_c_coalesce, SL_ACT_NONE,
				  R_QUEUE, 0, .optional = true,
				  .flags = SL_PF_NOHIT, .post = sl_net_coalesce),
	/*
	 * a segment TCP drops (a duplicate, out of the window) is no lost
	 * request: the one TCP keeps, or its retransmission, is followed
	 */
	[HRR_KFREE] = SL_POINT("kfree_skb", sl_net_c_kfree, SL_ACT_FORGET,
			       R_QUEUE, 0),
	[HRR_CONSUME] = SL_POINT("consume_skb", sl_net_c_consume, SL_ACT_FORGET,
				 R_QUEUE, 0),
	[HRR_READY] = SL_POINT("data_ready", sl_c_rr_ready, SL_ACT_NONE,
			       R_WAKE, 0, .pre = sl_rr_ready_pre,
			       .post = sl_rr_ready_post,
			       .data_size = sizeof(unsigned long)),
	[HRR_WAKING] = SL_POINT("waking", sl_c_rr_waking, SL_ACT_START, R_WAKE,
				0, .pre = sl_rr_waking_pre,
				.post = sl_rr_waking_post),
	[HRR_ONCPU] = SL_POINT("oncpu", sl_c_rr_oncpu, SL_ACT_MARK, R_ONCPU,
			       SL_OBJ_TASK, .pre = sl_rr_oncpu_pre),
	[HRR_EPOLL] = WAIT("epoll_wait", sl_c_rr_epoll),
	[HRR_POLL] = WAIT("poll", sl_c_rr_poll),
	[HRR_SELECT] = WAIT("select", sl_c_rr_select),
	[HRR_SKWAIT] = WAIT("sk_wait_data", sl_c_rr_skwait),
	[HRR_CHILD] = SL_POINT("child", sl_c_rr_child, SL_ACT_NONE, R_NPT, 0,
			       .post = sl_rr_accept_post),
	[HRR_ACCEPT] = SL_POINT("accept", sl_c_rr_accept, SL_ACT_NONE, R_NPT,
				0, .post = sl_rr_accept_post),
	[HRR_READ] = SL_POINT("read", sl_c_rr_read, SL_ACT_NONE, R_RDSTART, 0,
			      .pre = sl_rr_read_pre, .post = sl_rr_read_post,
			      .data_size = sizeof(u64)),
	[HRR_WRITE] = SL_POINT("write", sl_c_rr_write, SL_ACT_NONE, R_WRSTART,
			       0, .pre = sl_rr_write_pre,
			       .post = sl_rr_write_post),
	[HRR_XSTART] = SL_POINT("xmit_start", sl_net_c_tx_start, SL_ACT_NONE,
				R_TXDONE, 0, .pre = sl_rr_xstart_pre),
	[HRR_XMIT] = SL_POINT("xmit", sl_net_c_tx_done, SL_ACT_NONE, R_TXDONE, 0,
			      .pre = sl_rr_xmit_pre),
	[HRR_CLOSE] = SL_POINT("close", sl_c_rr_close, SL_ACT_NONE, R_NPT, 0,
			       .pre = sl_rr_close_pre),
	[HRR_EXIT] = SL_POINT("thread_exit", sl_c_rr_exit, SL_ACT_NONE, R_NPT,
			      SL_OBJ_TASK, .optional = true,
			      .pre = sl_rr_wait_pre),
};

#undef WAIT
#undef F

SL_PIPELINE(reqresp) = {
	.name = "reqresp",
	.desc = "TCP server requests: rx, tcpip, notify, runqueue, wait-return, queue, read, app, tx",
	.key = STACKLAT_KEY_SOCK,
	.filter_caps = SL_F_TGID | SL_F_TID | SL_F_LPORT,
	.hooks = sl_rr_hooks,
	.nhooks = ARRAY_SIZE(sl_rr_hooks),
	.stages = sl_rr_stages,
	.nstages = ARRAY_SIZE(sl_rr_stages),
	.on_enable = sl_rr_on_enable,
	.start_ok = sl_rr_start_ok,
	.own_events = true,
	/*
	 * a request, at its data's first segment (sl_rr_queue_take()),
	 * counted at the read that makes it one; the segments' and threads'
	 * chains before are every one's
	 */
	.sampling = true,
	.sample_own = true,
};
