/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-flight table's layout and the operations of its hot path that
 * need no bucket lock - finding and holding an entry (sl_fl_get),
 * releasing it (sl_fl_unlock) and removing it (sl_fl_unlock_remove) -
 * inline here so that the dispatcher and the pipelines run them without
 * a call.  flight.c has the rest, and the layout's
 * description; flight.h the contract.  Userspace builds (tests/unit)
 * include this too, through flight.c.
 */
#ifndef _STACKLAT_FLIGHT_FAST_H
#define _STACKLAT_FLIGHT_FAST_H

#ifndef SL_USERSPACE
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/processor.h>
#endif

#include "flight.h"

#ifdef SL_SHIM_TRACE
#define sl_fl_touch(p)		sl_shim_touch(p)
#else
#define sl_fl_touch(p)		do { } while (0)
#endif

/*
 * Unroll the loop that follows: over a bucket's keys or an entry's
 * stamps, a dozen iterations at most whose counter and branch cost as much
 * as their body (a compare, a store).
 */
#define SL_UNROLL	_Pragma("GCC unroll 16")

#define SL_FL_BKEYS	7		/* keys a bucket */
#define SL_FL_FREE	0ULL		/* key of a free slot */
#define SL_FL_CLAIM	1ULL		/* key of a slot being claimed */
#define SL_FL_SPILL	1		/* meta: one key spilled into the next */
#define SL_FL_TRIES	64		/* attempts to hold (probe context) */

/* one cache line: the keys of a bucket and its meta word */
struct sl_fl_bucket {
	u64 key[SL_FL_BKEYS];
	atomic_t meta;			/* keys of this home in the next */
	atomic_t lock;			/* home's insert lock */
} __aligned(64);

/*
 * What the table lost, per CPU and per owner (the pipeline of the key):
 * the table-wide counts are their sums, and each pipeline shows its own
 * (sl_flight_owner_lost()).
 */
struct sl_flight_cpu {
	u64 inserts;
	u64 lost[SL_FLIGHT_OWNERS][SL_FL_NLOST];
};

struct sl_flight {
	struct sl_fl_bucket *bkt;
	struct sl_flight_ent *ent;
	unsigned int nbkt;
	unsigned int nslots;
	u64 max_age;
	struct sl_flight_cpu __percpu *cnt;
};

enum { SL_FL_HELD, SL_FL_GONE, SL_FL_BUSY };

static __always_inline unsigned int sl_fl_owner(u64 key)
{
	u8 top = key >> 56;

	return (unsigned int)((top & 0x80) ? (u8)(top ^ 0xff) : top) - 1;
}

void sl_flight_busy(struct sl_flight *t, u64 key);

/* Count a loss @what (SL_FL_LOST_*) of @owner's; cold paths only. */
static __always_inline void sl_fl_lost(struct sl_flight *t,
				       unsigned int owner, unsigned int what)
{
	if (likely(owner < SL_FLIGHT_OWNERS))
		this_cpu_inc(t->cnt->lost[owner][what]);
}

/* home bucket: the top 32 bits of the golden-ratio hash, scaled to nbkt */
static __always_inline unsigned int sl_fl_home(const struct sl_flight *t,
					       u64 key)
{
	return (unsigned int)(((u64)hash_64(key, 32) * t->nbkt) >> 32);
}

static __always_inline unsigned int sl_fl_next_bkt(const struct sl_flight *t,
						   unsigned int b)
{
	return b + 1 == t->nbkt ? 0 : b + 1;
}

static __always_inline u64 *sl_fl_keyp(struct sl_flight *t, unsigned int idx)
{
	return &t->bkt[idx / SL_FL_BKEYS].key[idx % SL_FL_BKEYS];
}

static __always_inline bool sl_fl_is_old(const struct sl_flight *t,
					 const struct sl_flight_ent *e, u64 now)
{
	u64 age = now - READ_ONCE(e->born);

	return (s64)age > 0 && age > t->max_age;
}

static __always_inline int sl_fl_find_in(const struct sl_fl_bucket *b, u64 key)
{
	int j;

	sl_fl_touch(b);
	/*
	 * A plain read of each key, which the compiler may compare in place:
	 * a key that changes meanwhile only makes this a miss, or a hit
	 * that sl_fl_hold() checks again under the entry's seq.
	 */
	SL_UNROLL
	for (j = 0; j < SL_FL_BKEYS; j++)
		if (data_race(b->key[j]) == key)	/* racy: see above */
			return j;
	return -1;
}

/*
 * The slot holding @key, or -1: home, then the neighbour if home spilled.
 * *@kp is set to the key's word (no division on the way).
 */
static __always_inline int sl_fl_find(struct sl_flight *t, u64 key,
				      unsigned int home, u64 **kp)
{
	struct sl_fl_bucket *b = &t->bkt[home];
	int j = sl_fl_find_in(b, key);

	if (j < 0) {
		if (likely(atomic_read(&b->meta) < SL_FL_SPILL))
			return -1;
		home = sl_fl_next_bkt(t, home);
		b = &t->bkt[home];
		j = sl_fl_find_in(b, key);
		if (j < 0)
			return -1;
	}
	*kp = &b->key[j];
	return (int)(home * SL_FL_BKEYS + j);
}

/* hold entry @idx, whose key word is @kp, if it still holds @key */
static __always_inline int sl_fl_hold(struct sl_flight *t, unsigned int idx,
				      const u64 *kp, u64 key,
				      unsigned int tries)
{
	struct sl_flight_ent *e = &t->ent[idx];
	u32 s;

	while (tries--) {
		s = READ_ONCE(e->seq);
		if (!(s & 1)) {
			smp_rmb();	/* seq before the key it guards */
			if (READ_ONCE(*kp) != key)
				return SL_FL_GONE;
			if (cmpxchg(&e->seq, s, s + 1) == s)
				return SL_FL_HELD;
		}
		cpu_relax();
	}
	return SL_FL_BUSY;
}

static __always_inline void sl_fl_release(struct sl_flight_ent *e)
{
	/* the holder's writes (fields, key) before the entry is free again */
	smp_store_release(&e->seq, READ_ONCE(e->seq) + 1);
}

/* Find @key's entry and hold it; NULL if it is not there (or busy). */
static __always_inline struct sl_flight_ent *sl_fl_get(struct sl_flight *t,
						       u64 key)
{
	int idx, r;
	u64 *kp;

	idx = sl_fl_find(t, key, sl_fl_home(t, key), &kp);
	if (idx < 0)
		return NULL;
	r = sl_fl_hold(t, idx, kp, key, SL_FL_TRIES);
	if (likely(r == SL_FL_HELD))
		return &t->ent[idx];
	if (r == SL_FL_BUSY)
		sl_flight_busy(t, key);	/* out of line: cold */
	/* gone: removed between the find and the hold, a miss */
	return NULL;
}

/* Release entry @e held by sl_fl_get() or sl_flight_put(). */
static __always_inline void sl_fl_unlock(struct sl_flight_ent *e)
{
	sl_fl_release(e);
}

/* @key left bucket @b: if it had spilled there, home has one fewer */
static __always_inline void sl_fl_unspill(struct sl_flight *t, unsigned int b,
					  u64 key)
{
	unsigned int home = sl_fl_home(t, key);

	if (b != home)
		atomic_sub(SL_FL_SPILL, &t->bkt[home].meta);
}

/* Remove entry @e held by sl_fl_get() or sl_flight_put(), releasing it. */
static __always_inline void sl_fl_unlock_remove(struct sl_flight *t,
						struct sl_flight_ent *e)
{
	unsigned int idx = e - t->ent, b = idx / SL_FL_BKEYS;
	u64 *kp = &t->bkt[b].key[idx - b * SL_FL_BKEYS];
	u64 key = READ_ONCE(*kp);

	WRITE_ONCE(*kp, SL_FL_FREE);
	/* the entry's flag says what sl_fl_unspill() would hash the key for */
	if (unlikely(e->spilled))
		atomic_sub(SL_FL_SPILL, &t->bkt[sl_fl_home(t, key)].meta);
	sl_fl_release(e);	/* orders the key's clearing before */
}

#endif /* _STACKLAT_FLIGHT_FAST_H */
