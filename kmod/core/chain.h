/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probe-context operations on one pipeline's chains in the in-flight
 * table (chain.c, and inline here for the hot path): start, get, mark,
 * record, finish, forget, drop, move, and the losses they count.
 */
#ifndef _STACKLAT_CHAIN_H
#define _STACKLAT_CHAIN_H

#include <linux/percpu.h>

#include "types.h"
#include "hist.h"
#include "flight_fast.h"
#include "cgdim.h"

/* The one table every pipeline's chains live in (main.c creates it). */
extern struct sl_flight *sl_ft;

/* Deltas above it are discarded as absurd (max_delta_ms). */
extern u64 sl_max_delta_ns;

static __always_inline void sl_loss(struct sl_pipeline *p, enum sl_loss l)
{
	this_cpu_inc(p->priv.loss->v[l]);
}

/*
 * Record one sample @delta of stage @stage, checking it is plausible:
 * false when it is not (counted bad_delta), for a caller that keeps more
 * of the sample (a keyed row) only when it was recorded.
 */
static __always_inline bool sl_record(struct sl_pipeline *p, unsigned int stage,
				      s64 delta)
{
	if (unlikely(delta < 0 || (u64)delta > sl_max_delta_ns)) {
		sl_loss(p, SL_LOSS_BAD_DELTA);
		return false;
	}
	sl_hist_add(&p->priv.hists[stage], (u64)delta);
	return true;
}

/*
 * Probe context: @delta is the total of an object that ended in its own
 * task (current): recorded in that task's cgroup slot when the pipeline
 * keeps per-cgroup totals (cgroup_totals) and they are on (cgtotals).
 * The engine calls it at SPAN and END rows; a pipeline that ends its
 * objects itself calls it there.
 */
static __always_inline void sl_cgroup_record(struct sl_pipeline *p, s64 delta)
{
	struct sl_cgdim *cg = READ_ONCE(p->priv.cg_live);

	if (cg)
		sl_record(p, sl_cgdim_stage(cg), delta);
}

/*
 * Record value @v (bytes, a count) of value stage @stage: any value is
 * plausible, one beyond the top bucket is counted as overflow.
 */
static __always_inline void sl_record_value(struct sl_pipeline *p,
					    unsigned int stage, u64 v)
{
	sl_hist_add(&p->priv.hists[stage], v);
}

/*
 * Chains: an object (skb, request, task) followed across hook points, in
 * an entry of the in-flight table keyed by pipeline and object.  Point
 * indices are the timestamp slots of struct sl_flight_ent.  Functions that
 * return an entry return it held: the caller may read and write it until
 * sl_chain_put() (or sl_chain_finish/remove, which also release it).
 */
struct sl_flight_ent *sl_chain_move(struct sl_pipeline *p,
				    struct sl_flight_ent *e,
				    unsigned long ident);
void sl_chain_record(struct sl_pipeline *p, const struct sl_flight_ent *e);
void sl_chain_finish(struct sl_pipeline *p, struct sl_flight_ent *e);
bool sl_chain_mark(struct sl_pipeline *p, unsigned long ident,
		   unsigned int pt, u64 now);
bool sl_chain_forget(struct sl_pipeline *p, unsigned long ident, int loss);
bool sl_chain_followed(struct sl_pipeline *p, unsigned long ident);

static __always_inline u64 sl_chain_key(const struct sl_pipeline *p,
					unsigned long ident)
{
	return sl_flight_key(p->priv.id, ident);
}

/* @ident's chain, held; NULL if it is not followed.  Inline: hot path. */
static __always_inline struct sl_flight_ent *
sl_chain_get(struct sl_pipeline *p, unsigned long ident)
{
	return sl_fl_get(sl_ft, sl_chain_key(p, ident));
}

static __always_inline void sl_chain_put(struct sl_flight_ent *e)
{
	sl_fl_unlock(e);
}

/*
 * Start following @ident at point @pt.  An entry that is already there
 * belongs to the same object handed on again (a tunnel's inner packet) or
 * to an earlier life of it that ended unseen: either way the chain starts
 * over.  Returns the entry held, or NULL if the table had no slot or the
 * key's bucket or entry was held by another (counted by the table under
 * the pipeline: table_full, busy).
 */
static __always_inline struct sl_flight_ent *
sl_chain_start(struct sl_pipeline *p, unsigned long ident, unsigned int pt,
	       u64 now)
{
	struct sl_flight_ent *e;

	e = sl_flight_put(sl_ft, sl_chain_key(p, ident), now, SL_FL_RESTART,
			  NULL);
	if (unlikely(!e))
		return NULL;
	e->ts[pt] = now;
	return e;
}

/*
 * @ident's chain, held, as it is if there is one, else a new one born
 * @now; NULL if the table had no slot or the key's bucket or entry was
 * held by another (counted by the table under the pipeline: table_full,
 * busy).
 */
static __always_inline struct sl_flight_ent *
sl_chain_open(struct sl_pipeline *p, unsigned long ident, u64 now)
{
	return sl_flight_put(sl_ft, sl_chain_key(p, ident), now, SL_FL_KEEP,
			     NULL);
}

#define SL_NO_LOSS	(-1)

/* Forget the chain in @e (held), counting @loss unless SL_NO_LOSS. */
static __always_inline void sl_chain_remove(struct sl_pipeline *p,
					    struct sl_flight_ent *e, int loss)
{
	sl_fl_unlock_remove(sl_ft, e);
	if (loss >= 0)
		sl_loss(p, loss);
}

void sl_chain_drop(struct sl_pipeline *p, struct sl_flight_ent *e);

/* Apply a post callback's verdict to the chain @e it held. */
static __always_inline void sl_post_apply(struct sl_pipeline *p,
					  struct sl_flight_ent *e, int r)
{
	switch (r) {
	case SL_KEEP:
		sl_chain_put(e);
		break;
	case SL_FORGET:
		sl_chain_remove(p, e, SL_NO_LOSS);
		break;
	case SL_FILTERED:
		sl_chain_remove(p, e, SL_LOSS_FILTERED);
		break;
	case SL_DROPPED:
		sl_chain_remove(p, e, SL_LOSS_DROPPED);
		break;
	case SL_DONE:
		break;
	}
}

#endif /* _STACKLAT_CHAIN_H */
