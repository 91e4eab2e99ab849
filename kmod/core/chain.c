// SPDX-License-Identifier: GPL-2.0
/*
 * Chains: the out-of-line operations on a pipeline's chains in the
 * in-flight table (chain.h has the inline ones).  Probe context.
 */
#include "chain.h"
#include "events.h"

/* main.c sets them from its parameters at load */
struct sl_flight *sl_ft;
u64 sl_max_delta_ns;

/*
 * A DROP point's chain @e (held): removed, counted as dropped unless the
 * pipeline's on_drop says the object was not lost.
 */
void sl_chain_drop(struct sl_pipeline *p, struct sl_flight_ent *e)
{
	sl_post_apply(p, e, !p->on_drop || p->on_drop(p, e) ? SL_DROPPED :
							      SL_FORGET);
}

/* ---- chains ----------------------------------------------------------- */

bool sl_chain_followed(struct sl_pipeline *p, unsigned long ident)
{
	return sl_flight_has(sl_ft, sl_chain_key(p, ident));
}

/*
 * The chain in @e (held) continues as @ident: copied to that object's
 * entry, @e forgotten.  Returns the new entry held, or NULL if the table
 * had no room or the slot was busy (the chain is then lost, counted by
 * the table: table_full, busy).
 */
struct sl_flight_ent *sl_chain_move(struct sl_pipeline *p,
				    struct sl_flight_ent *e,
				    unsigned long ident)
{
	struct sl_flight_ent *n;
	unsigned int i;

	n = sl_chain_start(p, ident, 0, e->born);
	if (n) {
		n->born = e->born;
		for (i = 0; i < SL_FLIGHT_NTS; i++)
			n->ts[i] = e->ts[i];
		for (i = 0; i < SL_FLIGHT_NAUX; i++)
			n->aux[i] = e->aux[i];
	}
	sl_flight_unlock_remove(sl_ft, e);
	return n;
}

/* Record every stage whose two points were passed, in order. */
void sl_chain_record(struct sl_pipeline *p, const struct sl_flight_ent *e)
{
	const struct sl_rec_pair *r = p->priv.rec;
	const struct sl_rec_pair *end = p->priv.rec + p->priv.nrec;

	for (; r < end; r++) {
		u64 a = e->ts[r->from_pt], b = e->ts[r->to_pt];

		if (a && b)
			sl_record(p, r->stage, (s64)(b - a));
	}
	if (READ_ONCE(p->priv.cg_live)) {
		u64 last = e->born;
		unsigned int i;

		for (i = 0; i < SL_FLIGHT_NTS; i++)
			if ((s64)(e->ts[i] - last) > 0)
				last = e->ts[i];
		sl_cgroup_record(p, (s64)(last - e->born));
	}
	if (p->on_record)
		p->on_record(p, e);
	if (unlikely(READ_ONCE(p->priv.ev_thresh)) && !p->own_lines)
		sl_event_emit(p, e);
}

/* The chain in @e (held) is complete: record it and forget it. */
void sl_chain_finish(struct sl_pipeline *p, struct sl_flight_ent *e)
{
	sl_chain_record(p, e);
	sl_flight_unlock_remove(sl_ft, e);
}

/* Stamp point @pt of @ident's chain (the first pass counts). */
bool sl_chain_mark(struct sl_pipeline *p, unsigned long ident,
		   unsigned int pt, u64 now)
{
	struct sl_flight_ent *e = sl_chain_get(p, ident);

	if (!e)
		return false;
	if (!e->ts[pt])
		e->ts[pt] = now;
	sl_chain_put(e);
	return true;
}

bool sl_chain_forget(struct sl_pipeline *p, unsigned long ident, int loss)
{
	struct sl_flight_ent *e = sl_chain_get(p, ident);

	if (!e)
		return false;
	sl_chain_remove(p, e, loss);
	return true;
}
