// SPDX-License-Identifier: GPL-2.0
/*
 * reqresp's sampling ("sample reqresp N", see docs/pipelines/reqresp.md):
 * one request in N is followed, chosen at its data's first segment and
 * counted at the read that makes it a request.  A request not followed
 * leaves two marks in the table, which hold nothing but their existence:
 * its data pending (sk | SL_RR_SKIP | SL_RR_PEND), and itself, read and
 * not answered yet (sk | SL_RR_SKIP | SL_RR_REQ).  They keep its
 * boundaries as a full run has them, so that the data after its response
 * is another request and the data before it its own; its wakeup, read,
 * write and transmission find no chain of a followed socket, and do
 * nothing.  Everything here runs in probe context (preemption off): no
 * sleeping, nothing allocated but table entries.
 */
#include "net.h"

/*
 * Is the data of a segment queued on socket @sk followed?  The
 * one place a request is chosen: per request, at the first segment with
 * payload that arrives at the socket with no data pending.  (A request
 * is only known at the read that returns it, so the chains of every
 * segment up to here exist: the socket is not known before.)  Softirq,
 * or process context when release_sock() processes the socket's backlog;
 * a probe, preemption off, nothing allocated but a table entry.
 *  - Data pending already keeps its choice: followed (its entry), or not
 *    (the SKIP|PEND mark: nothing more is done for it).
 *  - New data while the socket's request is read and not answered is
 *    that request's (the read that returns it goes on with it, or, after
 *    the response, starts a request of its own that takes this choice):
 *    followed, or not (a SKIP|REQ mark).
 *  - Else it starts a request: the per-CPU countdown chooses
 *    (sl_sample_choose()).  One not followed leaves only its SKIP|PEND
 *    mark, so that its wakeup, read, write and transmission find no chain
 *    and do nothing: its response cannot end another request's timing.
 * Requests are counted (seen, followed) at the read that makes them one
 * (sl_rr_read_data()), so that the counts are exact whichever way the
 * data and the reads fall.
 */
bool sl_rr_queue_take(struct sl_pipeline *p, unsigned long sk, u64 now)
{
	struct sl_flight_ent *r;
	bool follow;

	if (sl_chain_followed(p, sk | SL_RR_PEND))
		return true;
	if (sl_chain_followed(p, sk | SL_RR_SKIP | SL_RR_PEND))
		return false;
	r = sl_chain_get(p, sk | SL_RR_REQ);
	if (r) {
		follow = !(r->aux[0] & SL_RR_WRITTEN);
		sl_chain_put(r);
		if (follow)
			return true;	/* the open request's */
		follow = sl_sample_choose(p);
	} else {
		follow = !sl_chain_followed(p, sk | SL_RR_SKIP | SL_RR_REQ) &&
			 sl_sample_choose(p);
	}
	if (!follow) {
		r = sl_chain_open(p, sk | SL_RR_SKIP | SL_RR_PEND, now);
		if (r)
			sl_chain_put(r);
	}
	return follow;
}

/*
 * A read of data that is not followed (the socket's marks, see
 * sl_rr_queue_take()); @q, held, is its followed pending data, if any.
 * Process context, in the kretprobe's return handler (the reader's task).
 * True if the read was a request not followed: counted (seen), its
 * SKIP|REQ mark open until its response is written.
 */
bool sl_rr_read_skipped(struct sl_ev *ev, struct sock *sk,
			struct sl_flight_ent *q)
{
	struct sl_pipeline *p = ev->p;
	unsigned long id = (unsigned long)sk | SL_RR_SKIP;
	struct sl_flight_ent *r;

	if (sl_chain_followed(p, id | SL_RR_REQ)) {
		/* no response yet: this read goes on with that request */
		if (q)
			sl_chain_remove(p, q, SL_NO_LOSS);
		sl_chain_forget(p, id | SL_RR_PEND, SL_NO_LOSS);
		return true;
	}
	if (q || !sl_chain_followed(p, id | SL_RR_PEND))
		return false;
	/* a request is born, not followed */
	sl_sample_count(p, false);
	r = sl_chain_open(p, id | SL_RR_REQ, sl_ev_now(ev));
	if (r)
		sl_chain_put(r);
	/* data left for the next read keeps its mark, as pending data does */
	if (skb_queue_empty_lockless(&sk->sk_receive_queue))
		sl_chain_forget(p, id | SL_RR_PEND, SL_NO_LOSS);
	return true;
}

/* A socket's marks of a request not followed go (nothing counted). */
void sl_rr_forget_skipped(struct sl_pipeline *p, unsigned long sk)
{
	sl_chain_forget(p, sk | SL_RR_SKIP | SL_RR_PEND, SL_NO_LOSS);
	sl_chain_forget(p, sk | SL_RR_SKIP | SL_RR_REQ, SL_NO_LOSS);
}
