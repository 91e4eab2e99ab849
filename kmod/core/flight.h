/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-flight table: which followed object (an skb, a request, a task, a
 * socket) has passed which hook point, and when.  Fixed size, allocated at
 * load; never allocates, sleeps or takes a lock that can block; usable from
 * any context a probe runs in.
 *
 * This header and flight.c compile in the kernel and in userspace
 * (tests/unit, with -DSL_USERSPACE and tests/unit/kshim.h standing in for
 * the kernel primitives), so the unit tests and the native benchmark run
 * the very code the module runs.
 *
 * Rules the implementation guarantees:
 *  - a key lives at most once in the table (the whole probe window is
 *    searched for it before a slot is claimed, under the bucket's lock);
 *  - an entry becomes visible to lookups only once initialised;
 *  - a lookup that misses reads one cache line of keys unless the key's
 *    home bucket has overflowed into its neighbour;
 *  - every access that reads or writes an entry's fields holds the entry
 *    (sl_flight_get / sl_flight_put, then sl_flight_unlock or
 *    sl_flight_unlock_remove): a handler whose entry was removed and
 *    recycled meanwhile fails to get it and never writes into the new
 *    owner's chain (no ABA: the entry's sequence number changes on every
 *    claim and removal);
 *  - holding is a bounded try: a holder on the same CPU (a nested probe in
 *    an interrupt) or one stalled on another CPU makes the attempt fail,
 *    counted as "busy", never a spin without end;
 *  - entries older than the stale bound are removed by sl_flight_sweep(),
 *    run from a timer/work outside probe context, or reclaimed by an
 *    insert that needs their slot, and counted as stale;
 *  - every loss (full, busy, stale) is counted under the key's owner.
 */
#ifndef _STACKLAT_FLIGHT_H
#define _STACKLAT_FLIGHT_H

#ifdef SL_USERSPACE
#include "kshim.h"
#else
#include <linux/types.h>
#endif

#define SL_FLIGHT_NTS		12	/* timestamps (hook points) per entry */
#define SL_FLIGHT_NAUX		2	/* words of pipeline data per entry */
#define SL_FLIGHT_OWNERS	32	/* pipelines (SL_MAX_PIPELINES): a key's top byte */

/*
 * One entry.  @seq is odd while someone holds the entry.  The holder owns
 * born/ts/aux until it unlocks.  Timestamps are 0 when the point was not
 * passed.
 */
struct sl_flight_ent {
	u32 seq;
	u16 owner;			/* pipeline id of the key (for readers) */
	u16 spilled;			/* its slot is in the home's neighbour */
	u64 born;
	u64 ts[SL_FLIGHT_NTS];
	u64 aux[SL_FLIGHT_NAUX];
};

struct sl_flight;

struct sl_flight_stats {
	u32 size;			/* slots: entries rounded up to 7s */
	u32 used;			/* live entries */
	u64 max_age_ns;
	u64 inserts;			/* puts that made a new entry */
	u64 full;			/* inserts that found no slot */
	u64 busy;			/* gets/puts that gave up on a holder */
	u64 stale;			/* entries removed by age */
	u64 bytes;			/* memory of the table */
};

/*
 * What the table loses, counted per owner (the pipeline of the key):
 * FULL an insert that found no slot, BUSY a get or put that gave up on a
 * holder, STALE an entry removed by age (by the sweep, or reclaimed by an
 * insert that needed its slot).
 */
enum { SL_FL_LOST_FULL, SL_FL_LOST_BUSY, SL_FL_LOST_STALE, SL_FL_NLOST };

/* sl_flight_put() flags: what to do when the key is already there */
#define SL_FL_KEEP	0		/* hand the existing entry over as is */
#define SL_FL_RESTART	1		/* reinitialise it (born = now, ts/aux 0) */

/* sl_flight_put() *how (how may be NULL) */
#define SL_FL_NEW	0
#define SL_FL_EXISTED	1

struct sl_flight *sl_flight_create(unsigned int entries, u64 max_age_ns);
void sl_flight_destroy(struct sl_flight *t);

/*
 * The key of @ident (a pointer or a small id) for pipeline @owner: never
 * 0 or 1 (reserved by the table), and the owner is recoverable from it.
 */
static inline u64 sl_flight_key(unsigned int owner, unsigned long ident)
{
	return (u64)ident ^ ((u64)(owner + 1) << 56);
}

unsigned int sl_flight_key_owner(u64 key);

/* Probe context. */
struct sl_flight_ent *sl_flight_get(struct sl_flight *t, u64 key);
struct sl_flight_ent *sl_flight_put(struct sl_flight *t, u64 key, u64 now,
				    unsigned int flags, int *how);
void sl_flight_unlock(struct sl_flight_ent *e);
void sl_flight_unlock_remove(struct sl_flight *t, struct sl_flight_ent *e);
bool sl_flight_has(struct sl_flight *t, u64 key);	/* no hold */

/*
 * Outside probe context.  sweep: remove entries older than the stale bound
 * at @now, adding per owner to @stale[SL_FLIGHT_OWNERS]; returns the
 * number removed.  flush: remove every entry of @owner.  next: copy the
 * first live entry at or after *@pos (a consistent snapshot) into @out and
 * its key into *@key, advance *@pos; false past the end.
 */
unsigned int sl_flight_sweep(struct sl_flight *t, u64 now, u64 *stale);
void sl_flight_flush(struct sl_flight *t, unsigned int owner);
bool sl_flight_next(struct sl_flight *t, unsigned int *pos,
		    struct sl_flight_ent *out, u64 *key);
void sl_flight_stats(struct sl_flight *t, struct sl_flight_stats *st);
/* @owner's losses (summed over CPUs) into @out[SL_FL_NLOST]; and zeroed */
void sl_flight_owner_lost(struct sl_flight *t, unsigned int owner, u64 *out);
void sl_flight_owner_reset(struct sl_flight *t, unsigned int owner);

#endif /* _STACKLAT_FLIGHT_H */
