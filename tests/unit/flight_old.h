/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reference model of the old in-flight table (kmod/core/flight.c before
 * v2, commit d82f3d0): the algorithm, verbatim except that the global
 * table became a struct.  Entries of 128 bytes carry their key; an insert
 * claims the first empty slot of an 8-slot window with cmpxchg (before
 * looking at the rest of the window for the same key), then writes born,
 * ts and aux; a lookup reads all 8 keys of the window.
 *
 * The unit tests run their checks of the three defects against this model
 * too, to show each check fails on the old algorithm; the benchmark times
 * its misses for comparison.  The hooks are the ones of kshim.h.
 */
#ifndef _STACKLAT_FLIGHT_OLD_H
#define _STACKLAT_FLIGHT_OLD_H

#include "kshim.h"

#ifdef SL_SHIM_TRACE
#define old_touch(p)		sl_shim_touch(p)
#define old_point(n, a)		sl_shim_point(n, a)
#else
#define old_touch(p)		do { } while (0)
#define old_point(n, a)		do { } while (0)
#endif

#define OLD_PROBES	8
#define OLD_NTS		12

struct old_ent {
	u64 key;
	u64 born;
	u64 ts[OLD_NTS];
	u64 aux[2];
};

struct old_tab {
	struct old_ent *tab;
	unsigned int bits;
	u64 max_age;
};

static inline struct old_tab *old_create(unsigned int entries, u64 max_age)
{
	struct old_tab *t = calloc(1, sizeof(*t));

	t->bits = ilog2(roundup_pow_of_two(entries));
	t->max_age = max_age;
	t->tab = sl_shim_zalloc(sizeof(*t->tab) << t->bits);
	return t;
}

static inline void old_destroy(struct old_tab *t)
{
	free(t->tab);
	free(t);
}

static __always_inline struct old_ent *old_slot(struct old_tab *t, u64 key,
						unsigned int i)
{
	u32 h = hash_64(key, t->bits);

	return &t->tab[(h + i) & ((1U << t->bits) - 1)];
}

static inline struct old_ent *old_insert(struct old_tab *t, u64 key, u64 now,
					 bool *stale)
{
	struct old_ent *e;
	unsigned int i;
	u64 old;

	*stale = false;
	for (i = 0; i < OLD_PROBES; i++) {
		e = old_slot(t, key, i);
		old = READ_ONCE(e->key);
		if (old == key) {
			*stale = true;
			goto claimed;
		}
		if (!old && cmpxchg(&e->key, 0, key) == 0)
			goto claimed;
	}
	for (i = 0; i < OLD_PROBES; i++) {
		e = old_slot(t, key, i);
		old = READ_ONCE(e->key);
		if (old && now - READ_ONCE(e->born) > t->max_age &&
		    (s64)(now - READ_ONCE(e->born)) > 0 &&
		    cmpxchg(&e->key, old, key) == old) {
			*stale = true;
			goto claimed;
		}
	}
	return NULL;

claimed:
	old_point("old_claimed", e);
	WRITE_ONCE(e->born, now);
	for (i = 0; i < OLD_NTS; i++)
		e->ts[i] = 0;
	e->aux[0] = 0;
	e->aux[1] = 0;
	return e;
}

static __attribute__((__noinline__)) struct old_ent *old_lookup(struct old_tab *t,
							   u64 key)
{
	struct old_ent *e;
	unsigned int i;

	for (i = 0; i < OLD_PROBES; i++) {
		e = old_slot(t, key, i);
		old_touch(e);
		if (READ_ONCE(e->key) == key)
			return e;
	}
	return NULL;
}

static inline bool old_remove(struct old_ent *e, u64 key)
{
	return cmpxchg(&e->key, key, 0) == key;
}

#endif /* _STACKLAT_FLIGHT_OLD_H */
