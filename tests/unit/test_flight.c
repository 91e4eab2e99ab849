// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the in-flight table, kmod/core/flight.c, built in
 * userspace from the module's own source (included below, white box:
 * the tests read the bucket layout to build collisions and to check
 * invariants).
 *
 * The three defects of the old table (issue 9, points 1-3) are checks
 * run against both the table and a reference model of the old algorithm
 * (flight_old.h): each check must pass on the table and fail on the model.
 *
 * The threaded tests are seeded and bounded by operation counts.
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../kmod/core/flight.c"
#include "flight_old.h"

#define AGE	1000000ULL			/* stale bound of the tests */
#define PTR(i)	(0xffff888000000000UL + (unsigned long)(i) * 64)

/* ---- helpers ---------------------------------------------------------- */

/* @n keys of @owner whose home bucket is @home, from ident index *@i on */
static void keys_home(struct sl_flight *t, unsigned int owner,
		      unsigned int home, u64 *out, int n, unsigned long *i)
{
	while (n) {
		u64 k = sl_flight_key(owner, PTR(*i));

		(*i)++;
		if (sl_fl_home(t, k) == home) {
			*out++ = k;
			n--;
		}
	}
}

static int count_key(struct sl_flight *t, u64 key)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < t->nslots; i++)
		n += *sl_fl_keyp(t, i) == key;
	return n;
}

static int spilled(struct sl_flight *t, unsigned int b)
{
	return atomic_read(&t->bkt[b].meta) / SL_FL_SPILL;
}

/* quiescent invariants: no lock, no claim, no hold, no duplicate, spills */
static void check_quiet(struct sl_flight *t)
{
	unsigned int b, j, i, n;

	for (b = 0; b < t->nbkt; b++) {
		assert_int_equal(atomic_read(&t->bkt[b].lock), 0);
		n = 0;
		for (j = 0; j < SL_FL_BKEYS; j++) {
			u64 k = t->bkt[sl_fl_next_bkt(t, b)].key[j];

			n += k > SL_FL_CLAIM && sl_fl_home(t, k) == b;
		}
		assert_int_equal(spilled(t, b), n);
	}
	for (i = 0; i < t->nslots; i++) {
		u64 k = *sl_fl_keyp(t, i);

		assert_int_not_equal(k, SL_FL_CLAIM);
		assert_int_equal(t->ent[i].seq & 1, 0);
		if (k)
			assert_int_equal(count_key(t, k), 1);
	}
}

static u64 stat_used(struct sl_flight *t)
{
	struct sl_flight_stats st;

	sl_flight_stats(t, &st);
	return st.used;
}

static void put_unlock(struct sl_flight *t, u64 key, u64 now)
{
	struct sl_flight_ent *e;
	int how;

	e = sl_flight_put(t, key, now, SL_FL_KEEP, &how);
	assert_non_null(e);
	assert_int_equal(how, SL_FL_NEW);
	sl_flight_unlock(e);
}

static bool end_key(struct sl_flight *t, u64 key)
{
	struct sl_flight_ent *e = sl_flight_get(t, key);

	if (!e)
		return false;
	sl_flight_unlock_remove(t, e);
	return true;
}

/* ---- single thread ---------------------------------------------------- */

static void test_keys(void **state)
{
	static const unsigned long ids[] = {
		0, 1, 2, 1234, 0x7fffffff, 0xffffffffUL, PTR(0), PTR(12345),
		0xffffffff80000000UL, 0xffffffffffffffffUL,
	};
	unsigned int o, i;

	(void)state;
	for (o = 0; o < SL_FLIGHT_OWNERS; o++)
		for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			u64 k = sl_flight_key(o, ids[i]);

			assert_true(k > 1);
			assert_int_equal(sl_flight_key_owner(k), o);
		}
	/* two owners, one object: two keys */
	assert_int_not_equal(sl_flight_key(0, PTR(5)), sl_flight_key(1, PTR(5)));
}

static void test_basic(void **state)
{
	struct sl_flight *t = sl_flight_create(1000, AGE);
	struct sl_flight_ent *e, *e2;
	u64 k = sl_flight_key(3, PTR(7));
	struct sl_flight_stats st;
	int how = -1, i;

	(void)state;
	assert_non_null(t);
	assert_true(t->nslots >= 1000 && t->nslots < 1000 + SL_FL_BKEYS);
	assert_false(sl_flight_has(t, k));
	assert_null(sl_flight_get(t, k));
	/* keys 0 and 1 belong to the table */
	assert_null(sl_flight_put(t, 0, 5, SL_FL_KEEP, &how));
	assert_null(sl_flight_put(t, 1, 5, SL_FL_KEEP, &how));

	e = sl_flight_put(t, k, 500, SL_FL_KEEP, &how);
	assert_non_null(e);
	assert_int_equal(how, SL_FL_NEW);
	assert_int_equal(e->seq & 1, 1);		/* held */
	assert_int_equal(e->owner, 3);
	assert_int_equal(e->born, 500);
	for (i = 0; i < SL_FLIGHT_NTS; i++)
		assert_int_equal(e->ts[i], 0);
	e->ts[2] = 777;
	e->aux[1] = 42;
	sl_flight_unlock(e);
	assert_int_equal(e->seq & 1, 0);
	assert_true(sl_flight_has(t, k));

	e2 = sl_flight_get(t, k);
	assert_ptr_equal(e2, e);
	assert_int_equal(e2->ts[2], 777);
	assert_int_equal(e2->aux[1], 42);
	/* held: a nested get (same CPU) gives up, counted busy */
	assert_null(sl_flight_get(t, k));
	assert_null(sl_flight_put(t, k, 600, SL_FL_KEEP, &how));
	sl_flight_unlock(e2);

	assert_true(end_key(t, k));
	assert_false(sl_flight_has(t, k));
	assert_null(sl_flight_get(t, k));
	sl_flight_stats(t, &st);
	assert_int_equal(st.used, 0);
	assert_int_equal(st.inserts, 1);
	assert_int_equal(st.busy, 2);
	assert_int_equal(st.full, 0);
	assert_true(st.bytes >= t->nslots * (sizeof(struct sl_flight_ent) + 8));
	check_quiet(t);
	sl_flight_destroy(t);
}

static void test_restart_keep(void **state)
{
	struct sl_flight *t = sl_flight_create(100, AGE);
	u64 k = sl_flight_key(1, 99);
	struct sl_flight_ent *e, *e2;
	int how;

	(void)state;
	e = sl_flight_put(t, k, 10, SL_FL_KEEP, &how);
	e->ts[0] = 5;
	e->aux[0] = 6;
	sl_flight_unlock(e);

	e2 = sl_flight_put(t, k, 20, SL_FL_KEEP, &how);
	assert_ptr_equal(e2, e);
	assert_int_equal(how, SL_FL_EXISTED);
	assert_int_equal(e2->seq & 1, 1);
	assert_int_equal(e2->ts[0], 5);
	assert_int_equal(e2->born, 10);
	sl_flight_unlock(e2);

	e2 = sl_flight_put(t, k, 30, SL_FL_RESTART, &how);
	assert_ptr_equal(e2, e);
	assert_int_equal(how, SL_FL_EXISTED);
	assert_int_equal(e2->ts[0], 0);
	assert_int_equal(e2->aux[0], 0);
	assert_int_equal(e2->born, 30);
	sl_flight_unlock(e2);
	assert_int_equal(stat_used(t), 1);
	check_quiet(t);
	sl_flight_destroy(t);
}

/* 7 keys fill home, the next 7 spill into the neighbour, then full */
static void test_spill_full(void **state)
{
	struct sl_flight *t = sl_flight_create(70, AGE);
	unsigned int home = 3, nb = 4;
	struct sl_flight_ent *e;
	struct sl_flight_stats st;
	unsigned long i = 0;
	u64 k[16], miss;
	int how, n;

	(void)state;
	assert_int_equal(t->nbkt, 10);
	keys_home(t, 0, home, k, 16, &i);
	for (n = 0; n < 7; n++) {
		put_unlock(t, k[n], 1);
		assert_int_equal(spilled(t, home), 0);
	}
	for (n = 7; n < 14; n++) {
		put_unlock(t, k[n], 1);
		assert_int_equal(spilled(t, home), n - 6);
		assert_true(sl_flight_has(t, k[n]));
	}
	/* neighbour full of home's keys: its own keys spill on in turn */
	{
		u64 own;

		keys_home(t, 0, nb, &own, 1, &i);
		put_unlock(t, own, 1);
		assert_int_equal(spilled(t, nb), 1);
		assert_true(end_key(t, own));
		assert_int_equal(spilled(t, nb), 0);
	}
	assert_null(sl_flight_put(t, k[14], 1, SL_FL_KEEP, &how));
	sl_flight_stats(t, &st);
	assert_int_equal(st.full, 1);
	assert_int_equal(st.used, 14);
	/* a key already there is found, even spilled, even when full */
	e = sl_flight_put(t, k[10], 1, SL_FL_KEEP, &how);
	assert_ptr_equal(e, &t->ent[nb * SL_FL_BKEYS + 3]);
	assert_int_equal(how, SL_FL_EXISTED);
	sl_flight_unlock(e);
	check_quiet(t);

	/* removing spilled entries gives the count back */
	for (n = 7; n < 14; n++)
		assert_true(end_key(t, k[n]));
	assert_int_equal(spilled(t, home), 0);
	/* home full again: a miss reads home's line only (spill count 0) */
	keys_home(t, 0, home, &miss, 1, &i);
	assert_false(sl_flight_has(t, miss));
	check_quiet(t);
	sl_flight_destroy(t);
}

static void test_stale_reclaim(void **state)
{
	struct sl_flight *t = sl_flight_create(70, AGE);
	struct sl_flight_ent *e;
	struct sl_flight_stats st;
	unsigned long i = 0;
	u64 k[16];
	int how, n;

	(void)state;
	keys_home(t, 2, 5, k, 16, &i);
	for (n = 0; n < 14; n++)	/* home and neighbour full */
		put_unlock(t, k[n], n < 8 ? 100 : 100 + AGE);
	/* at 100 + AGE + 50: k[0..7] are stale (k[7] spilled) */
	assert_null(sl_flight_put(t, k[14], 100 + AGE, SL_FL_KEEP, &how));
	e = sl_flight_put(t, k[14], 100 + AGE + 50, SL_FL_KEEP, &how);
	assert_non_null(e);
	assert_int_equal(how, SL_FL_NEW);
	assert_int_equal(e->born, 100 + AGE + 50);
	assert_int_equal(e->owner, 2);
	sl_flight_unlock(e);
	assert_false(sl_flight_has(t, k[0]));	/* the first stale one */
	sl_flight_stats(t, &st);
	assert_int_equal(st.stale, 1);
	assert_int_equal(st.full, 1);
	assert_int_equal(st.used, 14);
	check_quiet(t);

	/* the sweep takes the rest of the stale ones, spilled k[7] too */
	{
		u64 stale[SL_FLIGHT_OWNERS] = { 0 };

		assert_int_equal(sl_flight_sweep(t, 100 + AGE + 50, stale), 7);
		assert_int_equal(stale[2], 7);
		assert_int_equal(spilled(t, 5), 6);
	}
	check_quiet(t);
	sl_flight_destroy(t);
}

/*
 * Every loss is counted under its own owner (issue 25, defect 8): a stale
 * entry reclaimed by another owner's insert under the entry's owner, a
 * full table and a busy entry under the owner that tried.
 */
static void test_owner_losses(void **state)
{
	struct sl_flight *t = sl_flight_create(70, AGE);
	struct sl_flight_ent *e;
	struct sl_flight_stats st;
	unsigned long i = 0, j = 0;
	u64 k[14], other[2], lost[SL_FL_NLOST];
	int how, n;

	(void)state;
	keys_home(t, 2, 5, k, 14, &i);
	keys_home(t, 9, 5, other, 2, &j);
	for (n = 0; n < 14; n++)	/* home and neighbour full, owner 2 */
		put_unlock(t, k[n], n < 1 ? 100 : 100 + AGE);
	/* owner 9 finds no slot: its table_full */
	assert_null(sl_flight_put(t, other[0], 100 + AGE, SL_FL_KEEP, &how));
	sl_flight_owner_lost(t, 9, lost);
	assert_int_equal(lost[SL_FL_LOST_FULL], 1);
	sl_flight_owner_lost(t, 2, lost);
	assert_int_equal(lost[SL_FL_LOST_FULL], 0);
	/* later, owner 9 reclaims owner 2's stale k[0]: owner 2's stale */
	e = sl_flight_put(t, other[0], 100 + AGE + 50, SL_FL_KEEP, &how);
	assert_non_null(e);
	assert_false(sl_flight_has(t, k[0]));
	/* held: owner 9's own nested get gives up, its busy */
	assert_null(sl_flight_get(t, other[0]));
	sl_flight_unlock(e);
	sl_flight_owner_lost(t, 2, lost);
	assert_int_equal(lost[SL_FL_LOST_STALE], 1);
	assert_int_equal(lost[SL_FL_LOST_BUSY], 0);
	sl_flight_owner_lost(t, 9, lost);
	assert_int_equal(lost[SL_FL_LOST_STALE], 0);
	assert_int_equal(lost[SL_FL_LOST_BUSY], 1);
	assert_int_equal(lost[SL_FL_LOST_FULL], 1);
	/* the table's totals are the owners' sums */
	sl_flight_stats(t, &st);
	assert_int_equal(st.stale, 1);
	assert_int_equal(st.busy, 1);
	assert_int_equal(st.full, 1);
	/* a reset is one owner's */
	sl_flight_owner_reset(t, 9);
	sl_flight_owner_lost(t, 9, lost);
	assert_int_equal(lost[SL_FL_LOST_FULL] + lost[SL_FL_LOST_BUSY], 0);
	sl_flight_owner_lost(t, 2, lost);
	assert_int_equal(lost[SL_FL_LOST_STALE], 1);
	check_quiet(t);
	sl_flight_destroy(t);
}

static void test_sweep_flush(void **state)
{
	struct sl_flight *t = sl_flight_create(4096, AGE);
	u64 stale[SL_FLIGHT_OWNERS] = { 0 };
	struct sl_flight_stats st;
	unsigned int o, n;

	(void)state;
	for (o = 0; o < 4; o++)
		for (n = 0; n < 100; n++)	/* owner o: o * 10 old ones */
			put_unlock(t, sl_flight_key(o, PTR(n)),
				   n < o * 10 ? 1 : 5 * AGE);
	assert_int_equal(sl_flight_sweep(t, 1 + AGE, stale), 0);
	assert_int_equal(sl_flight_sweep(t, 1 + AGE + 1, stale), 60);
	for (o = 0; o < 4; o++)
		assert_int_equal(stale[o], o * 10);
	sl_flight_stats(t, &st);
	assert_int_equal(st.stale, 60);
	assert_int_equal(st.used, 340);
	assert_false(sl_flight_has(t, sl_flight_key(3, PTR(0))));
	assert_true(sl_flight_has(t, sl_flight_key(3, PTR(30))));

	sl_flight_flush(t, 2);
	assert_int_equal(stat_used(t), 260);
	for (n = 0; n < 100; n++) {
		assert_false(sl_flight_has(t, sl_flight_key(2, PTR(n))));
		assert_true(sl_flight_has(t, sl_flight_key(1, PTR(n))) == (n >= 10));
	}
	for (o = 0; o < 4; o++)
		sl_flight_flush(t, o);
	assert_int_equal(stat_used(t), 0);
	check_quiet(t);
	sl_flight_destroy(t);
}

static void test_next(void **state)
{
	struct sl_flight *t = sl_flight_create(2000, AGE);
	struct sl_flight_ent *e, out;
	unsigned int pos = 0, n, seen = 0;
	u64 key, mask = 0;

	(void)state;
	for (n = 0; n < 50; n++) {
		int how;

		e = sl_flight_put(t, sl_flight_key(n % 3, PTR(n)), 1000 + n,
				  SL_FL_KEEP, &how);
		e->ts[1] = n;
		e->aux[0] = n * 2;
		sl_flight_unlock(e);
	}
	while (sl_flight_next(t, &pos, &out, &key)) {
		n = out.ts[1];
		assert_true(n < 50);
		assert_int_equal(key, sl_flight_key(n % 3, PTR(n)));
		assert_int_equal(out.owner, n % 3);
		assert_int_equal(out.born, 1000 + n);
		assert_int_equal(out.aux[0], n * 2);
		assert_int_equal(out.seq & 1, 0);
		assert_false(mask & (1ULL << n));
		mask |= 1ULL << n;
		seen++;
	}
	assert_int_equal(seen, 50);
	assert_int_equal(pos, t->nslots);
	assert_false(sl_flight_next(t, &pos, &out, &key));
	check_quiet(t);				/* next released every hold */
	sl_flight_destroy(t);
}

/* ---- the old table's defects: each check passes here, fails on the model */

/* a table behind four operations, so one check runs on both */
struct ops {
	void *t;
	bool (*put)(void *t, u64 key, u64 ts0);	/* start or restart */
	bool (*end)(void *t, u64 key);
	int (*count)(void *t, u64 key);
	bool (*ts0)(void *t, u64 key, u64 *ts0);	/* a reader's lookup */
};

static bool new_put(void *t, u64 key, u64 ts0)
{
	struct sl_flight_ent *e;
	int how;

	e = sl_flight_put(t, key, 1, SL_FL_KEEP, &how);
	if (!e)
		return false;
	if (ts0)
		e->ts[0] = ts0;
	sl_flight_unlock(e);
	return true;
}

static bool new_end(void *t, u64 key)
{
	return end_key(t, key);
}

static int new_count(void *t, u64 key)
{
	return count_key(t, key);
}

static bool new_ts0(void *t, u64 key, u64 *ts0)
{
	struct sl_flight_ent *e = sl_flight_get(t, key);

	if (!e)
		return false;
	*ts0 = e->ts[0];
	sl_flight_unlock(e);
	return true;
}

static bool old_put(void *t, u64 key, u64 ts0)
{
	struct old_ent *e;
	bool stale;

	e = old_insert(t, key, 1, &stale);
	if (e && ts0)
		e->ts[0] = ts0;
	return e;
}

static bool old_end(void *t, u64 key)
{
	struct old_ent *e = old_lookup(t, key);

	return e && old_remove(e, key);
}

static int old_count(void *t, u64 key)
{
	struct old_tab *o = t;
	unsigned int i;
	int n = 0;

	for (i = 0; i < 1U << o->bits; i++)
		n += o->tab[i].key == key;
	return n;
}

static bool old_ts0(void *t, u64 key, u64 *ts0)
{
	struct old_ent *e = old_lookup(t, key);

	if (!e)
		return false;
	*ts0 = e->ts[0];
	return true;
}

/* two keys sharing the new table's home bucket and the old one's window */
static void twins(struct sl_flight *t, struct old_tab *o, u64 *a, u64 *b)
{
	unsigned long i;
	u64 k0 = sl_flight_key(0, PTR(0));

	for (i = 1; ; i++) {
		u64 k = sl_flight_key(0, PTR(i));

		if (sl_fl_home(t, k) == sl_fl_home(t, k0) &&
		    old_slot(o, k, 0) == old_slot(o, k0, 0)) {
			*a = k0;
			*b = k;
			return;
		}
	}
}

/*
 * Defect 1: A and K share a window, A first; A ends, K is started again
 * (a push path inserts without looking up): K must live once.
 */
static bool check_unique(const struct ops *op, u64 a, u64 k)
{
	if (!op->put(op->t, a, 0) || !op->put(op->t, k, 0))
		return false;
	if (!op->end(op->t, a))
		return false;
	op->put(op->t, k, 0);		/* the same object, again */
	return op->count(op->t, k) == 1;
}

/*
 * Defect 2: a reader running while an insert is in progress (at the
 * table's instrumentation points) must not see the new key with the
 * previous occupant's timestamps.
 */
static const struct ops *pub_op;
static u64 pub_key;
static int pub_seen_stale;

static void pub_hook(const char *name, const void *arg)
{
	u64 ts0;

	(void)name;
	(void)arg;
	if (pub_op->ts0(pub_op->t, pub_key, &ts0) && ts0 == 111)
		pub_seen_stale++;
}

static bool check_publish(const struct ops *op, u64 a, u64 k)
{
	bool ok;

	/* A leaves its ts[0] = 111 in the slot K will take */
	if (!op->put(op->t, a, 111) || !op->end(op->t, a))
		return false;
	pub_op = op;
	pub_key = k;
	pub_seen_stale = 0;
	sl_shim_point_hook = pub_hook;
	ok = op->put(op->t, k, 0);
	sl_shim_point_hook = NULL;
	return ok && pub_seen_stale == 0;
}

/*
 * Defect 3: at 50% load after churn (holes everywhere), a lookup that
 * misses reads about one cache line; the old table read eight.
 */
static unsigned long lines[16];
static int nlines;

static void touch_hook(const void *p)
{
	unsigned long l = (unsigned long)p / 64;
	int i;

	for (i = 0; i < nlines; i++)
		if (lines[i] == l)
			return;
	if (nlines < 16)
		lines[nlines++] = l;
}

static bool check_miss_lines(const struct ops *op, unsigned int size,
			     double *avg, int *max)
{
	unsigned int n, misses = 20000;
	unsigned long sum = 0;
	u64 ts0;

	srand(7);
	for (n = 0; n < size; n++)	/* 100% offered, ends half: holes */
		op->put(op->t, sl_flight_key(1, PTR(n)), 0);
	for (n = 0; n < size; n += 2)
		op->end(op->t, sl_flight_key(1, PTR(n)));
	*max = 0;
	sl_shim_touch_hook = touch_hook;
	for (n = 0; n < misses; n++) {
		nlines = 0;
		if (op->ts0(op->t, sl_flight_key(1, PTR(size + n)), &ts0))
			return false;
		sum += nlines;
		if (nlines > *max)
			*max = nlines;
	}
	sl_shim_touch_hook = NULL;
	*avg = (double)sum / misses;
	return *avg <= 1.25 && *max <= 2;
}

static void mk_ops(struct ops *nw, struct ops *old, unsigned int size)
{
	*nw = (struct ops){ sl_flight_create(size, AGE), new_put, new_end,
			    new_count, new_ts0 };
	*old = (struct ops){ old_create(size, AGE), old_put, old_end,
			     old_count, old_ts0 };
}

static void test_defect1_unique(void **state)
{
	struct ops nw, old;
	u64 a, k;

	(void)state;
	mk_ops(&nw, &old, 4096);
	twins(nw.t, old.t, &a, &k);
	assert_true(check_unique(&nw, a, k));
	assert_false(check_unique(&old, a, k));	/* K lived twice */
	check_quiet(nw.t);
	sl_flight_destroy(nw.t);
	old_destroy(old.t);
}

static void test_defect2_publish(void **state)
{
	struct ops nw, old;
	u64 a, k;

	(void)state;
	mk_ops(&nw, &old, 4096);
	twins(nw.t, old.t, &a, &k);
	assert_true(check_publish(&nw, a, k));
	assert_int_equal(pub_seen_stale, 0);
	assert_false(check_publish(&old, a, k));	/* saw ts[0] = 111 */
	assert_int_equal(pub_seen_stale, 1);
	check_quiet(nw.t);
	sl_flight_destroy(nw.t);
	old_destroy(old.t);
}

static void test_defect3_miss_lines(void **state)
{
	struct ops nw, old;
	double avg;
	int max;

	(void)state;
	mk_ops(&nw, &old, 16384);
	assert_true(check_miss_lines(&nw, 16384, &avg, &max));
	print_message("misses: table %.3f lines (max %d)", avg, max);
	assert_false(check_miss_lines(&old, 16384, &avg, &max));
	print_message(", old %.3f lines (max %d)\n", avg, max);
	assert_true(avg >= 7.99);
	sl_flight_destroy(nw.t);
	old_destroy(old.t);
}

/* ---- threads ---------------------------------------------------------- */

struct mt {
	struct sl_flight *t;
	u64 *keys;
	int nkeys;
	int live[64];		/* entries of keys[i], checked while held */
	int stop;
	int bad;
	unsigned long ops;
	unsigned int seed;
};

static void live_add(struct mt *m, int i, int d, int want)
{
	if (__atomic_add_fetch(&m->live[i], d, __ATOMIC_SEQ_CST) != want)
		__atomic_add_fetch(&m->bad, 1, __ATOMIC_SEQ_CST);
}

static void live_is(struct mt *m, int i, int want)
{
	if (__atomic_load_n(&m->live[i], __ATOMIC_SEQ_CST) != want)
		__atomic_add_fetch(&m->bad, 1, __ATOMIC_SEQ_CST);
}

/* random starts, restarts, marks, ends on a small set of keys */
static void *churn(void *arg)
{
	struct mt *m = arg;
	unsigned int seed = __atomic_fetch_add(&m->seed, 1, __ATOMIC_SEQ_CST);
	struct sl_flight_ent *e;
	unsigned long n;
	int how, i;

	for (n = 0; n < m->ops; n++) {
		i = rand_r(&seed) % m->nkeys;
		if (rand_r(&seed) & 1) {
			e = sl_flight_put(m->t, m->keys[i], n, rand_r(&seed) & 1,
					  &how);
			if (!e)
				continue;
			if (how == SL_FL_NEW)
				live_add(m, i, 1, 1);
			else
				live_is(m, i, 1);
		} else {
			e = sl_flight_get(m->t, m->keys[i]);
			if (!e)
				continue;
			live_is(m, i, 1);
		}
		e->ts[0] = n;
		if (rand_r(&seed) & 1) {
			live_add(m, i, -1, 0);
			sl_flight_unlock_remove(m->t, e);
		} else {
			sl_flight_unlock(e);
		}
	}
	return NULL;
}

/*
 * A duplicate confirmed without stopping the world: slot i held k
 * throughout (same key and same seq before and after reading slot j).
 */
static void *dup_checker(void *arg)
{
	struct mt *m = arg;
	struct sl_flight *t = m->t;
	unsigned int i, j;

	while (!__atomic_load_n(&m->stop, __ATOMIC_SEQ_CST)) {
		for (i = 0; i < t->nslots; i++) {
			u64 k = READ_ONCE(*sl_fl_keyp(t, i));
			u32 s = READ_ONCE(t->ent[i].seq);

			if (k <= SL_FL_CLAIM)
				continue;
			for (j = i + 1; j < t->nslots; j++) {
				if (READ_ONCE(*sl_fl_keyp(t, j)) != k)
					continue;
				smp_mb();
				if (READ_ONCE(t->ent[i].seq) == s &&
				    READ_ONCE(*sl_fl_keyp(t, i)) == k)
					__atomic_add_fetch(&m->bad, 1,
							   __ATOMIC_SEQ_CST);
			}
		}
	}
	return NULL;
}

static void run(struct mt *m, int nchurn, bool checker)
{
	pthread_t th[8];
	int i;

	for (i = 0; i < nchurn; i++)
		pthread_create(&th[i], NULL, churn, m);
	if (checker)
		pthread_create(&th[nchurn], NULL, dup_checker, m);
	for (i = 0; i < nchurn; i++)
		pthread_join(th[i], NULL);
	__atomic_store_n(&m->stop, 1, __ATOMIC_SEQ_CST);
	if (checker)
		pthread_join(th[nchurn], NULL);
}

/* no duplicate ever: 16 keys of two neighbouring homes, spilling */
static void test_mt_no_dup(void **state)
{
	struct mt m = { .ops = 300000, .seed = 11 };
	unsigned long i = 0;
	u64 keys[16];

	(void)state;
	m.t = sl_flight_create(70, 10 * m.ops);	/* never stale */
	keys_home(m.t, 1, 6, keys, 10, &i);
	keys_home(m.t, 1, 7, keys + 10, 6, &i);
	m.keys = keys;
	m.nkeys = 16;
	run(&m, 3, true);
	assert_int_equal(m.bad, 0);
	check_quiet(m.t);
	for (i = 0; i < 16; i++)
		assert_int_equal(count_key(m.t, keys[i]), m.live[i]);
	sl_flight_destroy(m.t);
}

/* concurrent puts, gets and removes of one key */
static void test_mt_same_key(void **state)
{
	struct mt m = { .ops = 300000, .seed = 21 };
	u64 key = sl_flight_key(0, PTR(42));

	(void)state;
	m.t = sl_flight_create(256, 10 * m.ops);
	m.keys = &key;
	m.nkeys = 1;
	run(&m, 3, false);
	assert_int_equal(m.bad, 0);
	assert_int_equal(count_key(m.t, key), m.live[0]);
	end_key(m.t, key);
	assert_int_equal(stat_used(m.t), 0);
	check_quiet(m.t);
	sl_flight_destroy(m.t);
}

/* N starts on two threads, N ends of the same keys on two others */
struct pair {
	struct sl_flight *t;
	int id;
	unsigned int n;
	unsigned int started;	/* published by the starter */
	unsigned long busy;
};

#define PAIR_KEY(p, i)	sl_flight_key((p)->id, PTR((u64)(p)->id << 32 | (i)))

static void *starter(void *arg)
{
	struct pair *p = arg;
	struct sl_flight_ent *e;
	unsigned int i;
	int how;

	for (i = 0; i < p->n; i++) {
		while (!(e = sl_flight_put(p->t, PAIR_KEY(p, i), i, SL_FL_KEEP,
					   &how)))
			sched_yield();
		e->ts[0] = i;
		sl_flight_unlock(e);
		__atomic_store_n(&p->started, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void *ender(void *arg)
{
	struct pair *p = arg;
	struct sl_flight_ent *e;
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		while (__atomic_load_n(&p->started, __ATOMIC_ACQUIRE) <= i)
			sched_yield();
		while (!(e = sl_flight_get(p->t, PAIR_KEY(p, i)))) {
			p->busy++;
			sched_yield();
		}
		if (e->ts[0] != i)
			abort();
		sl_flight_unlock_remove(p->t, e);
	}
	return NULL;
}

static void test_mt_starts_ends(void **state)
{
	struct sl_flight *t = sl_flight_create(400000, 1ULL << 62);
	struct pair p[2];
	pthread_t th[4];
	struct sl_flight_stats st;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		p[i] = (struct pair){ .t = t, .id = i + 1, .n = 150000 };
		pthread_create(&th[2 * i], NULL, starter, &p[i]);
		pthread_create(&th[2 * i + 1], NULL, ender, &p[i]);
	}
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	sl_flight_stats(t, &st);
	assert_int_equal(st.used, 0);
	assert_int_equal(st.inserts, 300000);
	assert_int_equal(st.full, 0);
	check_quiet(t);
	sl_flight_destroy(t);
}

/*
 * ABA: A starts and marks its key K over and over, C ends A's chains from
 * another thread, B recycles the same slots with its own keys.  Every
 * field a thread sees while holding carries its own tag.
 */
#define TAG(who, n)	((u64)(who) << 56 | (n))
#define WHO(v)		((v) >> 56)

struct aba {
	struct sl_flight *t;
	u64 ka, kb[12];
	int stop;
	int bad;
	unsigned long a_marks, c_ends, b_cycles;
};

static void aba_bad(struct aba *x)
{
	__atomic_add_fetch(&x->bad, 1, __ATOMIC_SEQ_CST);
}

static bool tagged(const struct sl_flight_ent *e, u64 tag, int nts)
{
	int i;

	for (i = 0; i < nts; i++)
		if (e->ts[i] != tag)
			return false;
	return e->aux[0] == tag;
}

static void stamp(struct sl_flight_ent *e, u64 tag)
{
	int i;

	for (i = 0; i < SL_FLIGHT_NTS; i++)
		e->ts[i] = tag;
	e->aux[0] = tag;
}

static void *aba_a(void *arg)
{
	struct aba *x = arg;
	struct sl_flight_ent *e;
	u64 last = 0, n;
	int how;

	/* until B and C have had their go (bounded) */
	for (n = 1; n < 20000000; n++) {
		if (!(n & 1023) &&
		    __atomic_load_n(&x->c_ends, __ATOMIC_RELAXED) > 5000 &&
		    __atomic_load_n(&x->b_cycles, __ATOMIC_RELAXED) > 20000)
			break;
		if (n & 1) {
			e = sl_flight_put(x->t, x->ka, n, SL_FL_KEEP, &how);
			if (!e)
				continue;
			if (how == SL_FL_NEW && !tagged(e, 0, SL_FLIGHT_NTS))
				aba_bad(x);
		} else {
			e = sl_flight_get(x->t, x->ka);
			if (!e)
				continue;
		}
		/* held: its fields are A's last stamp or fresh zeros */
		if (e->owner != 1 || !(tagged(e, last, SL_FLIGHT_NTS) ||
				       tagged(e, 0, SL_FLIGHT_NTS)))
			aba_bad(x);
		last = TAG(1, n);
		stamp(e, last);
		x->a_marks++;
		sl_flight_unlock(e);
	}
	__atomic_store_n(&x->stop, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *aba_c(void *arg)
{
	struct aba *x = arg;
	struct sl_flight_ent *e;

	while (!__atomic_load_n(&x->stop, __ATOMIC_SEQ_CST)) {
		e = sl_flight_get(x->t, x->ka);
		if (!e)
			continue;
		if (WHO(e->ts[0]) != 1 && e->ts[0])
			aba_bad(x);
		__atomic_add_fetch(&x->c_ends, 1, __ATOMIC_RELAXED);
		sl_flight_unlock_remove(x->t, e);
	}
	return NULL;
}

static void *aba_b(void *arg)
{
	struct aba *x = arg;
	struct sl_flight_ent *e;
	unsigned int seed = 5;
	u64 n = 0;
	int how, i;

	while (!__atomic_load_n(&x->stop, __ATOMIC_SEQ_CST)) {
		i = rand_r(&seed) % 12;
		e = sl_flight_put(x->t, x->kb[i], n, SL_FL_RESTART, &how);
		if (!e)
			continue;
		if (e->owner != 2 || !tagged(e, 0, SL_FLIGHT_NTS))
			aba_bad(x);
		stamp(e, TAG(2, ++n));
		sl_flight_unlock(e);
		e = sl_flight_get(x->t, x->kb[i]);
		if (!e)
			continue;
		if (!tagged(e, TAG(2, n), SL_FLIGHT_NTS))
			aba_bad(x);
		sl_flight_unlock_remove(x->t, e);
		__atomic_add_fetch(&x->b_cycles, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_mt_aba(void **state)
{
	struct aba x = { 0 };
	unsigned long i = 0;
	pthread_t th[3];

	(void)state;
	x.t = sl_flight_create(70, 1ULL << 62);
	keys_home(x.t, 1, 8, &x.ka, 1, &i);	/* A: owner 1, home 8 */
	keys_home(x.t, 2, 8, x.kb, 12, &i);	/* B: owner 2, same home */
	pthread_create(&th[0], NULL, aba_a, &x);
	pthread_create(&th[1], NULL, aba_b, &x);
	pthread_create(&th[2], NULL, aba_c, &x);
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	print_message("aba: %lu marks by A, %lu of its chains ended by C, %lu cycles by B\n",
		      x.a_marks, x.c_ends, x.b_cycles);
	assert_int_equal(x.bad, 0);
	assert_true(x.c_ends > 10 && x.b_cycles > 100);
	check_quiet(x.t);
	sl_flight_destroy(x.t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_restart_keep),
		cmocka_unit_test(test_spill_full),
		cmocka_unit_test(test_stale_reclaim),
		cmocka_unit_test(test_owner_losses),
		cmocka_unit_test(test_sweep_flush),
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_defect1_unique),
		cmocka_unit_test(test_defect2_publish),
		cmocka_unit_test(test_defect3_miss_lines),
		cmocka_unit_test(test_mt_no_dup),
		cmocka_unit_test(test_mt_same_key),
		cmocka_unit_test(test_mt_starts_ends),
		cmocka_unit_test(test_mt_aba),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
