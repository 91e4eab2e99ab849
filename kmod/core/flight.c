// SPDX-License-Identifier: GPL-2.0
/*
 * The in-flight table (see flight.h for the contract).
 *
 * Layout.  Keys live apart from the entries, in buckets of one cache line:
 * seven u64 keys, a meta word and a lock word.  Slot j of bucket b is
 * entry b * 7 + j.
 * A key is 0 when its slot is free and 1 while an insert is claiming it.
 * A key's home bucket comes from hash_64(); when home has no free slot
 * (and none gone stale) an insert may take a slot of the next bucket, and
 * counts that spill in home's meta word, so a lookup that misses reads
 * home's line only, and the neighbour's too only while home has spilled.
 *
 * The meta word counts the keys of this home living in the neighbour; the
 * lock word is home's insert lock (in a word of its own, so that it is
 * released by a plain store-release while removers count spills down with
 * an atomic op on the meta word).  Every insert of a key runs under its
 * home's lock and searches home (and the neighbour if home has spilled)
 * for the key before claiming a slot: a key lives at most once.  A slot is
 * claimed (key 0 -> 1) only under its own bucket's lock, so a spilling
 * insert takes the neighbour's lock too (home's, then the neighbour's,
 * both bounded tries).  Removals take no bucket lock: the spill count is
 * an atomic add, decremented after the key is cleared, so it never
 * undercounts.
 *
 * Entries.  @seq is even when free to take and odd while held; the holder
 * owns born/ts/aux.  Holding is: find the key (lockless), read seq (even),
 * smp_rmb, re-check the key, cmpxchg(seq, s, s + 1).  Keys change only
 * under a hold (publish, remove, reclaim) or from 0 to 1 (claim), so a
 * successful cmpxchg proves the slot held this key throughout: a handler
 * whose entry was removed and recycled fails to hold it.  Releasing is a
 * store-release of seq + 1.  An insert publishes the key (store-release)
 * only once the entry is initialised, and still holds it.
 *
 * Every wait is bounded (SL_FL_TRIES): a holder interrupted on this CPU by
 * a nested probe, or stalled on another one, makes the attempt fail,
 * counted busy.  No allocation after create, no calls to out-of-line kernel
 * functions on the probe paths (loops, not memset).
 *
 * The same source compiles in userspace (-DSL_USERSPACE, tests/unit/kshim.h)
 * for the unit tests and the native benchmark.
 */
#ifndef SL_USERSPACE
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/processor.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#endif

#include "flight_fast.h"

/* tests/unit instrumentation points; nothing in the kernel */
#ifdef SL_SHIM_TRACE
#define sl_fl_point(name, arg)	sl_shim_point(name, arg)
#else
#define sl_fl_point(name, arg)	do { } while (0)
#endif

#define SL_FL_SLOW	(1U << 16)	/* attempts outside probe context */
#define SL_FL_MAX_BKT	(1U << 22)	/* 29M slots, 3.5 GiB: a sane bound */

unsigned int sl_flight_key_owner(u64 key)
{
	return sl_fl_owner(key);
}

static __always_inline bool sl_fl_lock(struct sl_fl_bucket *b)
{
	unsigned int n;
	int m;

	for (n = 0; n < SL_FL_TRIES; n++) {
		m = 0;
		if (!atomic_read(&b->lock) &&
		    atomic_try_cmpxchg_acquire(&b->lock, &m, 1))
			return true;
		cpu_relax();
	}
	return false;
}

static __always_inline void sl_fl_unlock_bkt(struct sl_fl_bucket *b)
{
	atomic_set_release(&b->lock, 0);
}

/* a held entry starts over: owner, born = now, no point passed, no data */
static __always_inline void sl_fl_init(struct sl_flight_ent *e, u64 key,
				       u64 now)
{
	unsigned int i;

	e->owner = sl_fl_owner(key);
	e->born = now;
	/* WRITE_ONCE: a loop the compiler cannot turn into a memset() call */
	SL_UNROLL
	for (i = 0; i < SL_FLIGHT_NTS; i++)
		WRITE_ONCE(e->ts[i], 0);
	SL_UNROLL
	for (i = 0; i < SL_FLIGHT_NAUX; i++)
		WRITE_ONCE(e->aux[i], 0);
}

/*
 * Claim a slot of bucket @b, whose lock the caller holds: a free one, else
 * one older than the stale bound.  Returns the slot, its key set to
 * SL_FL_CLAIM (invisible to lookups) and its entry held, or -1; *@kp is
 * set to the slot's key word.
 *
 * Only the holder of a bucket's lock turns its free keys into claims, so a
 * free slot is claimed with plain stores; a slot whose key was cleared by
 * a remover that has not released the entry yet is passed over.
 */
static __always_inline int sl_fl_claim(struct sl_flight *t, unsigned int b,
				       u64 now, u64 **kp)
{
	struct sl_fl_bucket *bk = &t->bkt[b];
	unsigned int idx;
	u64 k;
	u32 s;
	int j;

	for (j = 0; j < SL_FL_BKEYS; j++) {
		if (READ_ONCE(bk->key[j]) != SL_FL_FREE)
			continue;
		idx = b * SL_FL_BKEYS + j;
		smp_rmb();	/* the remover's release, if the key was its */
		s = READ_ONCE(t->ent[idx].seq);
		if (s & 1)
			continue;
		WRITE_ONCE(bk->key[j], SL_FL_CLAIM);
		WRITE_ONCE(t->ent[idx].seq, s + 1);
		*kp = &bk->key[j];
		return idx;
	}
	for (j = 0; j < SL_FL_BKEYS; j++) {
		k = READ_ONCE(bk->key[j]);
		idx = b * SL_FL_BKEYS + j;
		if (k <= SL_FL_CLAIM || !sl_fl_is_old(t, &t->ent[idx], now))
			continue;
		if (sl_fl_hold(t, idx, &bk->key[j], k, SL_FL_TRIES) !=
		    SL_FL_HELD)
			continue;
		if (!sl_fl_is_old(t, &t->ent[idx], now)) {
			sl_fl_release(&t->ent[idx]);
			continue;
		}
		WRITE_ONCE(bk->key[j], SL_FL_CLAIM);
		sl_fl_unspill(t, b, k);
		/* the previous owner's chain is lost: counted as its stale */
		sl_fl_lost(t, t->ent[idx].owner, SL_FL_LOST_STALE);
		*kp = &bk->key[j];
		return idx;
	}
	return -1;
}

/* sl_fl_get() gave up on a holder of @key's entry: its owner's busy */
notrace noinline void sl_flight_busy(struct sl_flight *t, u64 key)
{
	sl_fl_lost(t, sl_fl_owner(key), SL_FL_LOST_BUSY);
}
NOKPROBE_SYMBOL(sl_flight_busy);

notrace struct sl_flight_ent *sl_flight_get(struct sl_flight *t, u64 key)
{
	return sl_fl_get(t, key);
}
NOKPROBE_SYMBOL(sl_flight_get);

notrace bool sl_flight_has(struct sl_flight *t, u64 key)
{
	u64 *kp;

	return sl_fl_find(t, key, sl_fl_home(t, key), &kp) >= 0;
}
NOKPROBE_SYMBOL(sl_flight_has);

notrace struct sl_flight_ent *sl_flight_put(struct sl_flight *t, u64 key,
					    u64 now, unsigned int flags,
					    int *how)
{
	unsigned int home = sl_fl_home(t, key);
	struct sl_fl_bucket *hb = &t->bkt[home];
	struct sl_flight_ent *e;
	int idx, r, round;
	bool spilled;
	u64 *kp;

	if (unlikely(key <= SL_FL_CLAIM))
		return NULL;
	if (unlikely(!sl_fl_lock(hb)))
		goto busy;
	/* the key may be here already: search home (and its spill) first */
	for (round = 0; round < 2; round++) {
		idx = sl_fl_find(t, key, home, &kp);
		if (idx < 0)
			break;
		r = sl_fl_hold(t, idx, kp, key, SL_FL_TRIES);
		if (r == SL_FL_BUSY)
			goto busy_unlock;
		if (r == SL_FL_HELD) {
			e = &t->ent[idx];
			if (flags & SL_FL_RESTART)
				sl_fl_init(e, key, now);
			sl_fl_unlock_bkt(hb);
			if (how)
				*how = SL_FL_EXISTED;
			return e;
		}
		/* gone meanwhile: nobody else can insert it, look once more */
	}
	if (unlikely(idx >= 0))
		goto busy_unlock;

	spilled = false;
	idx = sl_fl_claim(t, home, now, &kp);
	if (unlikely(idx < 0)) {
		/* home is full: a slot of the next bucket, under its lock */
		struct sl_fl_bucket *nb = &t->bkt[sl_fl_next_bkt(t, home)];

		if (!sl_fl_lock(nb))
			goto busy_unlock;
		idx = sl_fl_claim(t, nb - t->bkt, now, &kp);
		sl_fl_unlock_bkt(nb);
		if (idx < 0) {
			sl_fl_unlock_bkt(hb);
			sl_fl_lost(t, sl_fl_owner(key), SL_FL_LOST_FULL);
			return NULL;
		}
		/* counted before the key is published: never undercounts */
		atomic_add(SL_FL_SPILL, &hb->meta);
		spilled = true;
	}
	e = &t->ent[idx];
	sl_fl_point("claimed", e);
	sl_fl_init(e, key, now);
	/* a removal reads it instead of hashing the key again */
	e->spilled = spilled;
	sl_fl_point("initialised", e);
	/* publish: the initialised entry before its key */
	smp_store_release(kp, key);
	sl_fl_unlock_bkt(hb);
	this_cpu_inc(t->cnt->inserts);
	if (how)
		*how = SL_FL_NEW;
	return e;

busy_unlock:
	sl_fl_unlock_bkt(hb);
busy:
	sl_fl_lost(t, sl_fl_owner(key), SL_FL_LOST_BUSY);
	return NULL;
}
NOKPROBE_SYMBOL(sl_flight_put);

notrace void sl_flight_unlock(struct sl_flight_ent *e)
{
	sl_fl_unlock(e);
}
NOKPROBE_SYMBOL(sl_flight_unlock);

notrace void sl_flight_unlock_remove(struct sl_flight *t,
				     struct sl_flight_ent *e)
{
	sl_fl_unlock_remove(t, e);
}
NOKPROBE_SYMBOL(sl_flight_unlock_remove);

/* ---- outside probe context -------------------------------------------- */

enum { SL_FL_ANY, SL_FL_OLD, SL_FL_OWNER };

static __always_inline bool sl_fl_want(struct sl_flight *t, unsigned int idx,
				       u64 key, int what, u64 arg)
{
	if (what == SL_FL_OLD)
		return sl_fl_is_old(t, &t->ent[idx], arg);
	if (what == SL_FL_OWNER)
		return sl_fl_owner(key) == arg;
	return true;
}

/*
 * Hold slot @idx if its key is live and wanted (@what, @arg), with
 * preemption off so that a probe on another CPU never waits on a preempted
 * reader.  Returns the key, held with preemption off, or 0.
 */
static u64 sl_fl_hold_slow(struct sl_flight *t, unsigned int idx, int what,
			   u64 arg)
{
	u64 *kp = sl_fl_keyp(t, idx);
	u64 k = READ_ONCE(*kp);

	if (k <= SL_FL_CLAIM || !sl_fl_want(t, idx, k, what, arg))
		return 0;
	preempt_disable();
	if (sl_fl_hold(t, idx, kp, k, SL_FL_SLOW) == SL_FL_HELD) {
		if (sl_fl_want(t, idx, k, what, arg))
			return k;
		sl_fl_release(&t->ent[idx]);
	}
	preempt_enable();
	return 0;
}

/*
 * The first slot from @idx on whose key is live, or nslots: a walk of the
 * dense key array, bucket by bucket, that passes free slots without a
 * call or a division each (the table is mostly free).
 */
static unsigned int sl_fl_live_from(struct sl_flight *t, unsigned int idx)
{
	unsigned int b = idx / SL_FL_BKEYS, j = idx % SL_FL_BKEYS;

	for (; b < t->nbkt; b++, j = 0)
		for (; j < SL_FL_BKEYS; j++)
			if (READ_ONCE(t->bkt[b].key[j]) > SL_FL_CLAIM)
				return b * SL_FL_BKEYS + j;
	return t->nslots;
}

#define sl_fl_for_each_live(t, idx)					\
	for (idx = sl_fl_live_from(t, 0); idx < (t)->nslots;		\
	     idx = sl_fl_live_from(t, idx + 1))

unsigned int sl_flight_sweep(struct sl_flight *t, u64 now, u64 *stale)
{
	unsigned int idx, owner, n = 0;
	struct sl_flight_ent *e;

	sl_fl_for_each_live(t, idx) {
		if (!sl_fl_hold_slow(t, idx, SL_FL_OLD, now))
			continue;
		e = &t->ent[idx];
		owner = e->owner;
		sl_flight_unlock_remove(t, e);
		sl_fl_lost(t, owner, SL_FL_LOST_STALE);
		preempt_enable();
		if (stale && owner < SL_FLIGHT_OWNERS)
			stale[owner]++;
		n++;
	}
	return n;
}

void sl_flight_flush(struct sl_flight *t, unsigned int owner)
{
	unsigned int idx;

	sl_fl_for_each_live(t, idx) {
		if (!sl_fl_hold_slow(t, idx, SL_FL_OWNER, owner))
			continue;
		sl_flight_unlock_remove(t, &t->ent[idx]);
		preempt_enable();
	}
}

bool sl_flight_next(struct sl_flight *t, unsigned int *pos,
		    struct sl_flight_ent *out, u64 *key)
{
	const struct sl_flight_ent *e;
	unsigned int i;
	u64 k;

	for (*pos = sl_fl_live_from(t, *pos); *pos < t->nslots;
	     *pos = sl_fl_live_from(t, *pos + 1)) {
		k = sl_fl_hold_slow(t, *pos, SL_FL_ANY, 0);
		if (!k)
			continue;
		e = &t->ent[*pos];
		out->seq = e->seq - 1;
		out->owner = e->owner;
		out->born = e->born;
		for (i = 0; i < SL_FLIGHT_NTS; i++)
			out->ts[i] = e->ts[i];
		for (i = 0; i < SL_FLIGHT_NAUX; i++)
			out->aux[i] = e->aux[i];
		sl_fl_release(&t->ent[*pos]);
		preempt_enable();
		*key = k;
		(*pos)++;
		return true;
	}
	return false;
}

void sl_flight_stats(struct sl_flight *t, struct sl_flight_stats *st)
{
	unsigned int idx, o;
	int cpu;

	*st = (struct sl_flight_stats){ 0 };
	st->size = t->nslots;
	st->max_age_ns = t->max_age;
	st->bytes = sizeof(*t) + (u64)t->nbkt * sizeof(*t->bkt) +
		    (u64)t->nslots * sizeof(*t->ent);
	for (idx = 0; idx < t->nslots; idx++)
		if (READ_ONCE(*sl_fl_keyp(t, idx)) > SL_FL_CLAIM)
			st->used++;
	for_each_possible_cpu(cpu) {
		const struct sl_flight_cpu *c = per_cpu_ptr(t->cnt, cpu);

		st->inserts += READ_ONCE(c->inserts);
		for (o = 0; o < SL_FLIGHT_OWNERS; o++) {
			st->full += READ_ONCE(c->lost[o][SL_FL_LOST_FULL]);
			st->busy += READ_ONCE(c->lost[o][SL_FL_LOST_BUSY]);
			st->stale += READ_ONCE(c->lost[o][SL_FL_LOST_STALE]);
		}
	}
}

void sl_flight_owner_lost(struct sl_flight *t, unsigned int owner, u64 *out)
{
	unsigned int i;
	int cpu;

	for (i = 0; i < SL_FL_NLOST; i++)
		out[i] = 0;
	if (owner >= SL_FLIGHT_OWNERS)
		return;
	for_each_possible_cpu(cpu)
		for (i = 0; i < SL_FL_NLOST; i++)
			out[i] += READ_ONCE(per_cpu_ptr(t->cnt, cpu)->lost[owner][i]);
}

/* Like a pipeline's own counters, a reset races with probes counting. */
void sl_flight_owner_reset(struct sl_flight *t, unsigned int owner)
{
	unsigned int i;
	int cpu;

	if (owner >= SL_FLIGHT_OWNERS)
		return;
	for_each_possible_cpu(cpu)
		for (i = 0; i < SL_FL_NLOST; i++)
			WRITE_ONCE(per_cpu_ptr(t->cnt, cpu)->lost[owner][i], 0);
}

/* ---- life ------------------------------------------------------------- */

struct sl_flight *sl_flight_create(unsigned int entries, u64 max_age_ns)
{
	unsigned int nbkt = DIV_ROUND_UP(entries, SL_FL_BKEYS);
	struct sl_flight *t;

	BUILD_BUG_ON(sizeof(struct sl_fl_bucket) != 64);
	if (nbkt < 2)
		nbkt = 2;
	if (nbkt > SL_FL_MAX_BKT)
		return NULL;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	t->nbkt = nbkt;
	t->nslots = nbkt * SL_FL_BKEYS;
	t->max_age = max_age_ns;
	t->bkt = vzalloc((size_t)nbkt * sizeof(*t->bkt));
	t->ent = vzalloc((size_t)t->nslots * sizeof(*t->ent));
	t->cnt = alloc_percpu(struct sl_flight_cpu);
	if (!t->bkt || !t->ent || !t->cnt) {
		sl_flight_destroy(t);
		return NULL;
	}
	return t;
}

void sl_flight_destroy(struct sl_flight *t)
{
	if (!t)
		return;
	free_percpu(t->cnt);
	vfree(t->ent);
	vfree(t->bkt);
	kfree(t);
}
