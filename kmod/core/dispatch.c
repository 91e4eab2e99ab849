// SPDX-License-Identifier: GPL-2.0
/*
 * The dispatcher: one handler for every row of every pipeline's table of
 * points, whichever way the point is attached (tracepoint, kprobe, or
 * kretprobe entry and return).  It does what each row has in common - the
 * gate, the hit count, the clock, reading the object from the arguments,
 * the table insert or lookup, the stamp, recording the stages at the end,
 * counting what is lost - and calls the row's pre/post callbacks and the
 * pipeline's on_start/on_record/on_drop for what only the protocol knows.
 *
 * Everything here runs in probe context: no sleeping, no allocation, no
 * locks, nothing probeable (helpers are inline or in this module, which
 * kprobes refuse to probe).
 */
#include <linux/kprobes.h>
#include <linux/sched.h>

#include "dispatch.h"

/*
 * Start @ev's object's chain at the row's point; NULL if not started.  The
 * pipeline's filters run first: an object they exclude is never inserted.
 */
static __always_inline struct sl_flight_ent *sl_ev_start(struct sl_ev *ev)
{
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	int r;

	if (p->start_ok) {
		r = p->start_ok(ev);
		if (r != SL_KEEP) {
			if (r == SL_FILTERED)
				sl_loss(p, SL_LOSS_FILTERED);
			return NULL;
		}
	}
	if (!p->sample_own && !sl_sample_take(p))
		return NULL;
	e = sl_chain_start(p, ev->ident, ev->hk->pt, sl_ev_now(ev));
	if (e && p->on_start)
		p->on_start(ev, e);
	return e;
}

/*
 * The end of a hit whose chain @e is held and stamped: the row's post
 * callback, then what the action does with a chain kept.
 */
static __always_inline void sl_dispatch_post(struct sl_ev *ev,
					     struct sl_flight_ent *e)
{
	struct sl_hook *hk = ev->hk;
	struct sl_pipeline *p = ev->p;
	int r;

	r = hk->post ? hk->post(ev, e) : SL_KEEP;
	if (r == SL_KEEP)
		sl_act_kept(p, e, ev->act);
	else
		sl_post_apply(p, e, r);
}

void sl_dispatch(struct sl_ev *ev)
{
	struct sl_hook *hk = ev->hk;
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e = NULL;

	if (!sl_on(p))
		return;
	if (!(hk->flags & SL_PF_NOHIT) && !ev->nohit)
		sl_hook_hit(hk);
	ev->p = p;
	/* at a kretprobe's return, entry did this */
	if (!ev->data) {
		ev->act = hk->act;
		if (hk->obj == SL_OBJ_TASK)
			ev->ident = (unsigned long)current->pid;
		else
			ev->ident = sl_ev_arg(ev, hk->obj);
		if (hk->pre && hk->pre(ev) < 0)
			return;
	}

	switch (ev->act) {
	case SL_ACT_NONE:
		if (hk->post)
			hk->post(ev, NULL);
		return;
	case SL_ACT_START:
		e = sl_ev_start(ev);
		break;
	case SL_ACT_MARK:
		e = sl_chain_get(p, ev->ident);
		if (e) {
			if (!e->ts[hk->pt])
				e->ts[hk->pt] = sl_ev_now(ev);
		} else if ((hk->flags & SL_PF_FIRST) &&
			   hk->pt == READ_ONCE(p->priv.start_pt)) {
			e = sl_ev_start(ev);
		}
		break;
	case SL_ACT_END:
		e = sl_chain_get(p, ev->ident);
		if (e)
			e->ts[hk->pt] = sl_ev_now(ev);
		break;
	case SL_ACT_FORGET:
	case SL_ACT_DROP:
	case SL_ACT_HOLD:
		e = sl_chain_get(p, ev->ident);
		break;
	}
	if (e)
		sl_dispatch_post(ev, e);
}

/*
 * An SL_PATH_LOOKUP row's hit whose object is followed: the probe found
 * its chain @e (held) and built the event; the action's stamp and the
 * rest of sl_dispatch().
 */
void sl_dispatch_held(struct sl_ev *ev, struct sl_flight_ent *e)
{
	struct sl_hook *hk = ev->hk;

	switch (ev->act) {
	case SL_ACT_MARK:
		if (!e->ts[hk->pt])
			e->ts[hk->pt] = sl_ev_now(ev);
		break;
	case SL_ACT_END:
		e->ts[hk->pt] = sl_ev_now(ev);
		break;
	}
	sl_dispatch_post(ev, e);
}

/*
 * The out-of-line half of a tracepoint probe (sl_tp_dispatch()): the
 * arguments into an array, the event, and the row's path.
 */
void sl_tp_slow(struct sl_hook *hk, bool nohit, unsigned long a0,
		unsigned long a1, unsigned long a2, unsigned long a3)
{
	const unsigned long a[SL_EV_ARGS] = { a0, a1, a2, a3 };
	struct sl_ev ev = {
		.hk = hk, .args = a, .argoff = hk->priv.argoff, .nohit = nohit,
	};

	if (hk->priv.path == SL_PATH_NONE)
		sl_dispatch_none(&ev);
	else
		sl_dispatch(&ev);
}

/* A tracepoint's LOOKUP row found its object's chain @e (held). */
void sl_tp_held(struct sl_hook *hk, struct sl_flight_ent *e,
		unsigned long ident, unsigned long a0, unsigned long a1,
		unsigned long a2, unsigned long a3)
{
	const unsigned long a[SL_EV_ARGS] = { a0, a1, a2, a3 };
	struct sl_ev ev = {
		.hk = hk, .p = hk->pipe, .args = a, .ident = ident,
		.argoff = hk->priv.argoff, .act = hk->act,
	};

	sl_dispatch_held(&ev, e);
}

/*
 * The row of @hk (resolved, its table row final): which path its probe
 * takes (enum sl_path).
 */
u8 sl_hook_path(const struct sl_hook *hk)
{
	if (hk->pre)
		return SL_PATH_GENERIC;
	switch (hk->act) {
	case SL_ACT_NONE:
		return hk->post ? SL_PATH_NONE : SL_PATH_GENERIC;
	case SL_ACT_MARK:
	case SL_ACT_END:
	case SL_ACT_FORGET:
	case SL_ACT_DROP:
	case SL_ACT_HOLD:
		return SL_PATH_LOOKUP;
	}
	return SL_PATH_GENERIC;
}

/* sl_regs_arg() beyond the registers it reads itself. */
noinline unsigned long sl_regs_arg_slow(struct pt_regs *regs, unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}

/* Bytes a return point of @hk needs per instance. */
size_t sl_krp_data_size(const struct sl_hook *hk)
{
	if (hk->act == SL_ACT_SPAN)
		return sizeof(u64);
	return sizeof(struct sl_krp_data) + hk->data_size;
}
