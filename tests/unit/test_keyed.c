// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the keyed aggregation, kmod/core/keyed.c built in
 * userspace from the module's own source (included below, white box: the
 * tests check the folded table's slots and rows against each other).
 *
 * Every test checks the weight invariant: the updates made are exactly the
 * weight in the rows plus what is counted full, busy, dropped and aged.
 * The threaded test folds while two threads update (the double buffer
 * flipped under the shim's membarrier-based synchronize_rcu()).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../kmod/core/keyed.c"

#define NV	4				/* values a row in most tests */
#define KEY(grp, sub)	((u64)(grp) << 32 | 0x80000000U | (sub))
#define MS	1000000ULL

/* ---- helpers ---------------------------------------------------------- */

/* the threaded test widens the window between finding a row and adding */
static int upd_spin;

/* one update of @key: weight 1, value 1 += @x, value 2 = max, 3 += 1 */
static bool upd(struct sl_keyed *t, u64 key, u64 x)
{
	struct sl_keyed_buf *b = sl_keyed_begin(t);
	volatile int z;
	bool fresh;
	u64 *v;

	if (!b)
		return false;
	v = sl_keyed_row(t, b, key, &fresh);
	if (v) {
		u64 w = v[0];

		if (fresh)
			assert_true(!v[0] && !v[1] && !v[2] && !v[3]);
		/* a read-modify-write a fold must never cut in two */
		if (upd_spin && !(w & 15))
			for (z = 0; z < 300; z++)
				;
		v[0] = w + 1;
		v[1] += x;
		if (x > v[2])
			v[2] = x;
		v[3]++;
	}
	sl_keyed_end(b);
	return v != NULL;
}

static void retire(struct sl_keyed *t, u32 grp)
{
	struct sl_keyed_buf *b = sl_keyed_begin(t);

	assert_non_null(b);
	sl_keyed_retire(b, grp);
	sl_keyed_end(b);
}

/* value 2 is a maximum: the merge keeps the larger */
static void merge_max(u64 *dst, const u64 *src, unsigned int nvals, bool fresh)
{
	(void)nvals;
	(void)fresh;
	dst[0] += src[0];
	dst[1] += src[1];
	if (src[2] > dst[2])
		dst[2] = src[2];
	dst[3] += src[3];
}

static const struct sl_keyed_ops ops_max = { .merge = merge_max };

/* the folded row of @key: its values into @v; false if absent */
static bool get(struct sl_keyed *t, u64 key, u64 *v)
{
	unsigned int pos = 0;
	u64 k, tmp[SL_KEYED_MAX_VALS];
	bool found = false;

	sl_keyed_lock(t);
	while (sl_keyed_next(t, &pos, &k, tmp)) {
		if (k != key)
			continue;
		assert_false(found);
		memcpy(v, tmp, t->nvals * sizeof(u64));
		found = true;
	}
	sl_keyed_unlock(t);
	return found;
}

/* the weight of every folded row */
static u64 weight(struct sl_keyed *t)
{
	unsigned int pos = 0;
	u64 k, v[SL_KEYED_MAX_VALS], w = 0;

	sl_keyed_lock(t);
	while (sl_keyed_next(t, &pos, &k, v))
		w += v[0];
	sl_keyed_unlock(t);
	return w;
}

/*
 * Quiescent invariants of the folded table: every row's slot holds its key
 * and points back, every key is found from its home, no key twice, no row
 * beyond the bound, the free slots' count.
 */
static void check_folded(struct sl_keyed *t)
{
	unsigned int i, r, nkeys = 0;

	assert_true(t->used <= t->max_rows);
	for (r = 0; r < t->used; r++) {
		u32 s = t->meta[r].slot;

		assert_true(s < t->slots);
		assert_true(t->keys[s] != 0);
		assert_int_equal(t->rowof[s], r);
	}
	for (i = 0; i < t->slots; i++) {
		if (!t->keys[i])
			continue;
		nkeys++;
		assert_int_equal(sl_kf_find(t, t->keys[i]), i);
		assert_true(t->rowof[i] < t->used);
	}
	assert_int_equal(nkeys, t->used);
}

/* updates made == weight in rows + full + busy + dropped + aged */
static void check_weight(struct sl_keyed *t, u64 made)
{
	struct sl_keyed_stats st;

	sl_keyed_stats(t, &st);
	assert_int_equal(weight(t) + st.full + st.busy + st.dropped + st.aged,
			 made);
}

/* ---- single thread ---------------------------------------------------- */

/* exact sums (and a maximum) per key across folds, against a model */
static void test_exact(void **state)
{
	struct sl_keyed *t = sl_keyed_create(NV, 4096, 1024, 1024, 0, 0, &ops_max);
	static u64 cnt[300], sum[300], mx[300];
	struct sl_keyed_stats st;
	u64 v[NV], made = 0;
	unsigned int round, i, k;

	(void)state;
	assert_non_null(t);
	srand(1);
	for (round = 0; round < 20; round++) {
		for (i = 0; i < 2000; i++) {
			k = (unsigned int)rand() % 300;
			u64 x = (u64)rand() % 100000;

			assert_true(upd(t, KEY(k % 17 + 1, k), x));
			cnt[k]++;
			sum[k] += x;
			if (x > mx[k])
				mx[k] = x;
			made++;
		}
		sl_keyed_fold(t, round * MS);
		check_folded(t);
	}
	for (k = 0; k < 300; k++) {
		assert_true(get(t, KEY(k % 17 + 1, k), v));
		assert_int_equal(v[0], cnt[k]);
		assert_int_equal(v[1], sum[k]);
		assert_int_equal(v[2], mx[k]);
		assert_int_equal(v[3], cnt[k]);
	}
	sl_keyed_stats(t, &st);
	assert_int_equal(st.rows, 300);
	assert_int_equal(st.folds, 20);
	assert_int_equal(st.full + st.busy + st.dropped + st.aged, 0);
	assert_true(st.row_bytes >= NV * 8 + sizeof(struct sl_keyed_meta));
	assert_true(st.row_bytes_cpu >= NV * 8);
	check_weight(t, made);
	/* nothing is lost between a fold and the next update */
	assert_true(upd(t, KEY(1, 0), 7));
	assert_true(get(t, KEY(1, 0), v));
	assert_int_equal(v[0], cnt[0]);		/* not folded yet */
	sl_keyed_fold(t, 100 * MS);
	assert_true(get(t, KEY(1, 0), v));
	assert_int_equal(v[0], cnt[0] + 1);

	sl_keyed_reset(t);
	assert_int_equal(weight(t), 0);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.rows, 0);
	assert_false(get(t, KEY(1, 0), v));
	sl_keyed_destroy(t);
}

/* a CPU buffer takes cpu_rows keys a fold; the rest is counted full */
static void test_full(void **state)
{
	struct sl_keyed *t = sl_keyed_create(NV, 64, 16, 16, 0, 0, NULL);
	struct sl_keyed_stats st;
	unsigned int i, ok = 0;
	u64 v[NV], made = 0;

	(void)state;
	for (i = 0; i < 100; i++) {
		ok += upd(t, KEY(1, i), 1);
		made++;
	}
	assert_int_equal(ok, 16);
	/* keys that made it keep counting */
	for (i = 0; i < 100; i++) {
		ok += upd(t, KEY(1, i), 1);
		made++;
	}
	assert_int_equal(ok, 32);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.full, 168);		/* live, not folded yet */
	sl_keyed_fold(t, 0);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.full, 168);
	assert_int_equal(st.rows, 16);
	check_weight(t, made);
	/* a fold frees the buffer: 16 more keys, then the folded table */
	for (i = 100; i < 200; i++) {
		upd(t, KEY(2, i), 1);
		made++;
	}
	sl_keyed_fold(t, 0);
	for (i = 200; i < 300; i++) {
		upd(t, KEY(3, i), 5);
		made++;
	}
	sl_keyed_fold(t, 0);
	for (i = 300; i < 400; i++) {
		upd(t, KEY(4, i), 5);
		made++;
	}
	sl_keyed_fold(t, 0);
	for (i = 400; i < 500; i++) {
		upd(t, KEY(5, i), 5);
		made++;
	}
	sl_keyed_fold(t, 0);
	sl_keyed_stats(t, &st);
	/* 16 rows a fold offered to 64: four folds in, the fifth dropped */
	assert_int_equal(st.rows, 64);
	assert_int_equal(st.dropped_rows, 16);
	assert_int_equal(st.dropped, 16);
	check_folded(t);
	check_weight(t, made);
	/* a folded row still counts once the table is full */
	assert_true(get(t, KEY(1, 0), v));
	assert_int_equal(v[0], 2);
	upd(t, KEY(1, 0), 1);
	made++;
	sl_keyed_fold(t, 0);
	assert_true(get(t, KEY(1, 0), v));
	assert_int_equal(v[0], 3);
	check_weight(t, made);
	sl_keyed_destroy(t);
}

/* a nested update on the same CPU is refused and counted busy */
static void test_busy(void **state)
{
	struct sl_keyed *t = sl_keyed_create(NV, 64, 16, 16, 0, 0, NULL);
	struct sl_keyed_buf *b = sl_keyed_begin(t);
	struct sl_keyed_stats st;
	bool fresh;
	u64 *v;

	(void)state;
	assert_non_null(b);
	v = sl_keyed_row(t, b, KEY(1, 1), &fresh);
	assert_true(fresh);
	v[0]++;
	assert_false(upd(t, KEY(1, 1), 1));	/* "an interrupt" */
	sl_keyed_end(b);
	assert_true(upd(t, KEY(1, 1), 1));
	sl_keyed_fold(t, 0);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.busy, 1);
	check_weight(t, 3);
	sl_keyed_destroy(t);
}

/* ended groups age out after the linger time, and only they */
static void test_aging(void **state)
{
	struct sl_keyed *t = sl_keyed_create(NV, 1024, 256, 256, 0, 50 * MS, NULL);
	struct sl_keyed_stats st;
	unsigned int i;
	u64 v[NV], made = 0;

	(void)state;
	for (i = 0; i < 10; i++) {
		upd(t, KEY(100, i), 1);
		upd(t, KEY(200, i), 1);
		upd(t, KEY(300, i), 1);
		made += 3;
	}
	retire(t, 200);
	sl_keyed_fold(t, 1000 * MS);
	/* dead, still there for readers until the linger time is over */
	assert_true(get(t, KEY(200, 3), v));
	assert_int_equal(t->meta[t->rowof[sl_kf_find(t, KEY(200, 3))]].dead_ns,
			 1000 * MS);
	sl_keyed_fold(t, 1049 * MS);
	assert_true(get(t, KEY(200, 3), v));
	sl_keyed_fold(t, 1050 * MS);
	assert_false(get(t, KEY(200, 3), v));
	assert_true(get(t, KEY(100, 3), v));
	assert_true(get(t, KEY(300, 3), v));
	sl_keyed_stats(t, &st);
	assert_int_equal(st.rows, 20);
	assert_int_equal(st.aged_rows, 10);
	assert_int_equal(st.aged, 10);
	check_folded(t);
	check_weight(t, made);

	/* a dead row updated again (a reused id) is alive again */
	retire(t, 300);
	sl_keyed_fold(t, 2000 * MS);
	upd(t, KEY(300, 1), 1);
	made++;
	sl_keyed_fold(t, 2010 * MS);
	sl_keyed_fold(t, 2100 * MS);
	assert_true(get(t, KEY(300, 1), v));
	assert_int_equal(v[0], 2);
	assert_false(get(t, KEY(300, 2), v));
	check_folded(t);
	check_weight(t, made);

	/* the same group retired twice, on two folds: no harm */
	retire(t, 100);
	retire(t, 100);
	sl_keyed_fold(t, 3000 * MS);
	sl_keyed_fold(t, 4000 * MS);
	assert_false(get(t, KEY(100, 0), v));
	sl_keyed_stats(t, &st);
	assert_int_equal(st.rows, 1);
	check_weight(t, made);
	sl_keyed_destroy(t);
}

/* lost retire notes: counted; the alive() backstop ages the rows anyway */
static u32 gone_from;

static bool alive_below(u32 grp)
{
	return grp < gone_from;
}

static void test_retire_lost_alive(void **state)
{
	static const struct sl_keyed_ops ops = { .alive = alive_below };
	struct sl_keyed *t = sl_keyed_create(NV, 4096, 1024, 1024, 0, 0, &ops);
	struct sl_keyed_stats st;
	unsigned int i;
	u64 made = 0;

	(void)state;
	gone_from = 1U << 31;
	for (i = 0; i < SL_KEYED_RETIRE + 10; i++) {
		upd(t, KEY(1000 + i, 1), 1);
		made++;
		retire(t, 1000 + i);
	}
	sl_keyed_fold(t, 10 * MS);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.retire_lost, 10);
	assert_int_equal(st.aged_rows, SL_KEYED_RETIRE);
	assert_int_equal(st.rows, 10);
	/* still "alive" to the backstop: stay */
	sl_keyed_fold(t, 20 * MS);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.rows, 10);
	/* gone: idle rows are asked about, and age out */
	gone_from = 1000;
	upd(t, KEY(5, 1), 1);			/* alive, updated */
	made++;
	sl_keyed_fold(t, 30 * MS);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.rows, 1);
	assert_int_equal(st.aged_rows, SL_KEYED_RETIRE + 10);
	check_folded(t);
	check_weight(t, made);
	sl_keyed_destroy(t);
}

/*
 * 10,000 short-lived groups, 3 keys each, a fold every 50 groups, ended
 * groups lingering 3 folds: the table stays bounded, the losses are
 * counted, the rows age out, and at the end nothing is left.
 */
static void test_churn_bounded(void **state)
{
	struct sl_keyed *t = sl_keyed_create(NV, 256, 64, 64, 0, 3 * MS, NULL);
	struct sl_keyed_stats st;
	unsigned int g, j, maxrows = 0, now = 0;
	u64 made = 0;

	(void)state;
	for (g = 1; g <= 10000; g++) {
		for (j = 0; j < 3; j++) {
			upd(t, KEY(g, j), 1);
			upd(t, KEY(g, j), 1);
			made += 2;
		}
		retire(t, g);
		if (g % 50 == 0) {
			sl_keyed_fold(t, ++now * MS);
			maxrows = t->used > maxrows ? t->used : maxrows;
			check_folded(t);
		}
	}
	sl_keyed_stats(t, &st);
	assert_true(maxrows <= 256);
	assert_true(st.full > 0);		/* 150 keys a fold, 64 rows */
	assert_true(st.aged_rows > 0);
	check_weight(t, made);
	for (j = 0; j < 5; j++)
		sl_keyed_fold(t, ++now * MS);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.rows, 0);
	check_weight(t, made);
	sl_keyed_destroy(t);
}

/* removals in the middle of clusters (backward shift), many times over */
static void test_remove_shift(void **state)
{
	struct sl_keyed *t = sl_keyed_create(NV, 512, 512, 512, 0, 0, NULL);
	unsigned int round, i;
	u64 v[NV], made = 0;

	(void)state;
	srand(7);
	for (round = 0; round < 200; round++) {
		for (i = 0; i < 100; i++) {
			u32 g = (u32)rand() % 64 + 1;

			upd(t, KEY(g, (u32)rand() % 8), 1);
			made++;
		}
		retire(t, (u32)rand() % 64 + 1);
		retire(t, (u32)rand() % 64 + 1);
		sl_keyed_fold(t, round * MS);
		check_folded(t);
		check_weight(t, made);
	}
	/* every group retired once more: empty */
	for (i = 1; i <= 64; i++)
		retire(t, i);
	sl_keyed_fold(t, 1000 * MS);
	assert_false(get(t, KEY(1, 0), v));
	assert_int_equal(t->used, 0);
	check_weight(t, made);
	sl_keyed_destroy(t);
}

/* ---- two threads ------------------------------------------------------ */

#define MT_KEYS		97
#define MT_CYCLE	(MT_KEYS * 5)	/* every key once */
#define MT_FOLDS	300

struct mt {
	struct sl_keyed *t;
	int id;
	u64 cycles, ok;
	pthread_barrier_t *bar;
};

static int mt_stop;

static void *mt_writer(void *arg)
{
	struct mt *m = arg;
	unsigned int i;

	pthread_barrier_wait(m->bar);
	while (!__atomic_load_n(&mt_stop, __ATOMIC_RELAXED)) {
		/* keys shared by both threads, each on its own "CPU" */
		for (i = 0; i < MT_CYCLE; i++)
			m->ok += upd(m->t, KEY(i % MT_KEYS + 1, i % 5),
				     (u64)m->id + 1);
		/* the main thread folds until both have made a cycle */
		__atomic_store_n(&m->cycles, m->cycles + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/*
 * Both threads update the same keys while the main thread folds
 * MT_FOLDS times, and on until each thread has made a whole cycle (on a
 * loaded host a thread may not have run at all in MT_FOLDS folds: then it
 * added nothing and the per-key checks had no rows): every update is in
 * its row, none lost or counted twice.
 */
static void run_mt(struct sl_keyed *t)
{
	struct mt m[2];
	pthread_t th[2];
	pthread_barrier_t bar;
	struct sl_keyed_stats st;
	unsigned int i, k, folds;
	u64 v[NV], n, made;

	mt_stop = 0;
	upd_spin = 1;
	pthread_barrier_init(&bar, NULL, 3);
	for (i = 0; i < 2; i++) {
		m[i] = (struct mt){ .t = t, .id = (int)i, .bar = &bar };
		pthread_create(&th[i], NULL, mt_writer, &m[i]);
	}
	pthread_barrier_wait(&bar);
	for (folds = 0; folds < MT_FOLDS ||
		    !__atomic_load_n(&m[0].cycles, __ATOMIC_ACQUIRE) ||
		    !__atomic_load_n(&m[1].cycles, __ATOMIC_ACQUIRE); folds++)
		sl_keyed_fold(t, (u64)folds * MS);
	__atomic_store_n(&mt_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	upd_spin = 0;
	sl_keyed_fold(t, (u64)folds * MS);
	sl_keyed_stats(t, &st);
	made = (m[0].cycles + m[1].cycles) * MT_CYCLE;
	assert_int_equal(st.full + st.busy, 0);
	assert_int_equal(m[0].ok + m[1].ok, made);
	check_weight(t, made);
	check_folded(t);
	/* per key: exactly what both threads added */
	n = m[0].cycles + m[1].cycles;
	for (k = 0; k < MT_CYCLE; k++) {
		assert_true(get(t, KEY(k % MT_KEYS + 1, k % 5), v));
		assert_int_equal(v[0], n);
		assert_int_equal(v[1], m[0].cycles + 2 * m[1].cycles);
		assert_int_equal(v[2], m[1].cycles ? 2 : 1);
	}
	printf("  two writers, %u folds meanwhile: %llu updates (%llu spilled), all accounted\n",
	       folds, (unsigned long long)made,
	       (unsigned long long)st.spilled);
	pthread_barrier_destroy(&bar);
}

static void test_mt_fold(void **state)
{
	struct sl_keyed *t = sl_keyed_create(NV, 4096, 1024, 1024, 0, 0,
					     &ops_max);
	struct sl_keyed_stats st;

	(void)state;
	run_mt(t);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.spilled, 0);
	sl_keyed_destroy(t);
}

/*
 * The same with CPU buffers of 16 rows and a spill buffer that holds
 * every key: most updates of both threads go to the shared spill buffer,
 * the same rows under its lock, while the main thread folds - none lost,
 * none counted twice.
 */
static void test_mt_spill(void **state)
{
	struct sl_keyed *t = sl_keyed_create(NV, 4096, 16, 16, 1024, 0,
					     &ops_max);
	struct sl_keyed_stats st;

	(void)state;
	run_mt(t);
	sl_keyed_stats(t, &st);
	assert_true(st.spilled > st.folds);
	sl_keyed_destroy(t);
}

/*
 * A CPU buffer that is full spills into its side's spill buffer; what
 * finds no room there either is counted full; at the fold both are
 * folded, and the spill buffer grows (bound: the larger of spill_rows and
 * cpu_rows) as a CPU buffer does.
 */
static void test_spill(void **state)
{
	struct sl_keyed *t = sl_keyed_create(NV, 4096, 16, 64, 16, 0, NULL);
	struct sl_keyed_stats st;
	unsigned int i, ok = 0;
	u64 v[NV], made = 0;

	(void)state;
	assert_non_null(t);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.spill_rows_now, 16);
	/* 16 rows here, 16 in the spill buffer, 8 lost */
	for (i = 0; i < 40; i++, made++)
		ok += upd(t, KEY(1, i), 1);
	assert_int_equal(ok, 32);
	/* keys of either buffer keep counting, in their buffer */
	for (i = 0; i < 32; i++, made++)
		ok += upd(t, KEY(1, i), 2);
	assert_int_equal(ok, 64);
	assert_true(sl_keyed_crowded(t));
	sl_keyed_stats(t, &st);
	assert_int_equal(st.spilled, 32);
	assert_int_equal(st.full, 8);
	sl_keyed_fold(t, 0);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.rows, 32);
	assert_int_equal(st.spilled, 32);
	assert_int_equal(st.full, 8);
	/* this CPU's two buffers and the two spill buffers grew */
	assert_int_equal(st.cpu_rows_now, 64);
	assert_int_equal(st.spill_rows_now, 64);
	assert_int_equal(st.grows, 4);
	assert_true(get(t, KEY(1, 20), v));
	assert_int_equal(v[0], 2);
	assert_int_equal(v[1], 3);
	assert_false(get(t, KEY(1, 35), v));
	/* grown: 100 new keys, 64 here and 36 spilled, none lost */
	for (i = 100, ok = 0; i < 200; i++, made++)
		ok += upd(t, KEY(2, i), 1);
	assert_int_equal(ok, 100);
	sl_keyed_fold(t, 0);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.spilled, 32 + 36);
	assert_int_equal(st.full, 8);
	assert_int_equal(st.rows, 132);
	check_folded(t);
	check_weight(t, made);
	sl_keyed_reset(t);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.spilled, 0);
	sl_keyed_destroy(t);
}

/*
 * A CPU buffer starts small and grows at a fold that finds it full (both
 * sides at once), up to its bound; the work's early-fold hint says when a
 * live buffer is more than half used, so that a fold drains it first.
 */
static void test_grow(void **state)
{
	struct sl_keyed *t = sl_keyed_create(NV, 4096, 16, 256, 0, 0, NULL);
	struct sl_keyed_stats st;
	unsigned int i, ok = 0;
	u64 v[NV], made = 0, b0;

	(void)state;
	assert_non_null(t);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.cpu_rows, 256);
	assert_int_equal(st.cpu_rows_now, 16);
	b0 = st.bytes;
	for (i = 0; i < 8; i++, made++)
		ok += upd(t, KEY(1, i), 1);
	assert_false(sl_keyed_crowded(t));
	for (; i < 30; i++, made++)
		ok += upd(t, KEY(1, i), 1);
	assert_true(sl_keyed_crowded(t));
	assert_int_equal(ok, 16);
	sl_keyed_fold(t, 0);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.full, 14);
	assert_int_equal(st.cpu_rows_now, 64);
	assert_int_equal(st.grows, 2);	/* this CPU's two, not the idle CPUs' */
	assert_true(st.bytes > b0);
	assert_false(sl_keyed_crowded(t));
	/*
	 * both sides grew: the next period takes 60 new keys; more than
	 * half used, it wants an early fold, which drains it without growth
	 * (it did not fill)
	 */
	for (i = 100, ok = 0; i < 160; i++, made++)
		ok += upd(t, KEY(2, i), 1);
	assert_int_equal(ok, 60);
	assert_true(sl_keyed_crowded(t));
	sl_keyed_fold(t, 0);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.cpu_rows_now, 64);
	assert_int_equal(st.grows, 2);
	/* 100 new keys fill it (36 full): it grows at the fold */
	for (i = 1000, ok = 0; i < 1100; i++, made++)
		ok += upd(t, KEY(4, i), 1);
	assert_int_equal(ok, 64);
	sl_keyed_fold(t, 0);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.cpu_rows_now, 256);
	/* at its bound: no further growth, the rest counted full */
	for (i = 200, ok = 0; i < 500; i++, made++)
		ok += upd(t, KEY(3, i), 1);
	assert_int_equal(ok, 256);
	/* crowded at its bound too: an early fold drains it */
	assert_true(sl_keyed_crowded(t));
	sl_keyed_fold(t, 0);
	sl_keyed_stats(t, &st);
	assert_int_equal(st.cpu_rows_now, 256);
	assert_int_equal(st.full, 14 + 36 + 44);
	assert_int_equal(st.grows, 4);
	assert_true(get(t, KEY(2, 100), v));
	assert_int_equal(v[0], 1);
	check_folded(t);
	check_weight(t, made);
	sl_keyed_destroy(t);
}

static void test_create_bounds(void **state)
{
	(void)state;
	assert_null(sl_keyed_create(0, 64, 64, 64, 0, 0, NULL));
	assert_null(sl_keyed_create(SL_KEYED_MAX_VALS + 1, 64, 64, 64, 0, 0, NULL));
	assert_null(sl_keyed_create(4, SL_KEYED_MIN_ROWS - 1, 64, 64, 0, 0, NULL));
	assert_null(sl_keyed_create(4, 64, SL_KEYED_MIN_ROWS - 1,
				    SL_KEYED_MIN_ROWS - 1, 0, 0, NULL));
	assert_null(sl_keyed_create(4, 64, SL_KEYED_MAX_ROWS + 1,
				    SL_KEYED_MAX_ROWS + 1, 0, 0, NULL));
	/* a CPU buffer starts at least as large as the least, at most its bound */
	assert_null(sl_keyed_create(4, 64, SL_KEYED_MIN_ROWS - 1, 64, 0, 0, NULL));
	assert_null(sl_keyed_create(4, 64, 128, 64, 0, 0, NULL));
	/* a spill buffer, if any, within the same bounds */
	assert_null(sl_keyed_create(4, 64, 64, 64, SL_KEYED_MIN_ROWS - 1, 0,
				    NULL));
	assert_null(sl_keyed_create(4, 64, 64, 64, SL_KEYED_MAX_ROWS + 1, 0,
				    NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_bounds),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_aging),
		cmocka_unit_test(test_retire_lost_alive),
		cmocka_unit_test(test_churn_bounded),
		cmocka_unit_test(test_remove_shift),
		cmocka_unit_test(test_mt_fold),
		cmocka_unit_test(test_spill),
		cmocka_unit_test(test_mt_spill),
	};

	if (sl_shim_rcu_fence)
		printf("(no membarrier: read-side sections fence)\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
