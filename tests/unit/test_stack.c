// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the kernel stacks' table, kmod/core/stack.c built in
 * userspace from the module's own source (included below): insert, the
 * same stack twice (one id, count 2, the values summed), hash collisions
 * (equal hashes, other frames: two ids), a full table (the insert that
 * finds no slot says so, and what was counted stays), a slot being
 * written (busy), trimming at the anchor, the readers' order and reset.
 * Two threads inserting the same stacks: every insert counted once.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#ifndef min
#define min(a, b)	((a) < (b) ? (a) : (b))
#endif

#include "../../kmod/core/stack.c"

static const unsigned long A[] = { 0x1000, 0x2000, 0x3000 };
static const unsigned long B[] = { 0x1000, 0x2000, 0x4000 };
static const unsigned long C[] = { 0x1000, 0x2000 };

static struct sl_stack_info info(struct sl_stacks *t, int id)
{
	struct sl_stack_info si = { 0 };

	assert_true(id > 0);
	assert_true(sl_stacks_get(t, id, &si));
	return si;
}

static void test_same_twice(void **state)
{
	struct sl_stacks *t = sl_stacks_create(64, 8);
	int a, a2, b;

	(void)state;
	assert_non_null(t);
	assert_int_equal(t->slots, 64);
	a = sl_stacks_insert(t, A, 3, 0x1234, 10, false);
	a2 = sl_stacks_insert(t, A, 3, 0x1234, 5, false);
	b = sl_stacks_insert(t, B, 3, 0x9999, 1, true);
	assert_true(a > 0);
	assert_int_equal(a, a2);
	assert_true(b > 0 && b != a);
	assert_int_equal(info(t, a).count, 2);
	assert_int_equal(info(t, a).sum, 15);
	assert_int_equal(info(t, a).nr, 3);
	assert_memory_equal(info(t, a).ip, A, sizeof(A));
	assert_false(info(t, a).truncated);
	assert_true(info(t, b).truncated);
	assert_int_equal(atomic_read(&t->used), 2);
	sl_stacks_destroy(t);
}

/* equal hashes, other frames (or fewer of them): each its own id */
static void test_collision(void **state)
{
	struct sl_stacks *t = sl_stacks_create(16, 8);
	int a, b, c, i;

	(void)state;
	a = sl_stacks_insert(t, A, 3, 7, 1, false);
	b = sl_stacks_insert(t, B, 3, 7, 1, false);
	c = sl_stacks_insert(t, C, 2, 7, 1, false);
	assert_true(a > 0 && b > 0 && c > 0);
	assert_true(a != b && b != c && a != c);
	/* linear probing from the hash's slot */
	assert_int_equal(a, 8);
	assert_int_equal(b, 9);
	assert_int_equal(c, 10);
	for (i = 0; i < 3; i++)
		assert_int_equal(sl_stacks_insert(t, B, 3, 7, 2, false), b);
	assert_int_equal(info(t, a).count, 1);
	assert_int_equal(info(t, b).count, 4);
	assert_int_equal(info(t, b).sum, 7);
	assert_int_equal(info(t, c).count, 1);
	assert_int_equal(info(t, c).nr, 2);
	sl_stacks_destroy(t);
}

/* 16 slots: 16 stacks fit, the 17th is refused; the 16 still count */
static void test_full(void **state)
{
	struct sl_stacks *t = sl_stacks_create(16, 4);
	unsigned long ip[1];
	u32 ids[32];
	int i, id;

	(void)state;
	for (i = 0; i < 16; i++) {
		ip[0] = 0x100 + i;
		assert_true(sl_stacks_insert(t, ip, 1, i * 5, 1, false) > 0);
	}
	ip[0] = 0x999;
	assert_int_equal(sl_stacks_insert(t, ip, 1, 3, 1, false), SL_STACK_E_FULL);
	ip[0] = 0x100;
	id = sl_stacks_insert(t, ip, 1, 0, 1, false);
	assert_true(id > 0);
	assert_int_equal(info(t, id).count, 2);
	assert_int_equal(sl_stacks_ids(t, ids, 32), 16);
	/* the most counted first */
	assert_int_equal(ids[0], id);
	assert_int_equal(atomic_read(&t->used), 16);
	sl_stacks_destroy(t);
}

/* more than SL_STACK_PROBES slots away: full even with free slots */
static void test_probe_window(void **state)
{
	struct sl_stacks *t = sl_stacks_create(64, 4);
	unsigned long ip[1];
	int i;

	(void)state;
	for (i = 0; i < SL_STACK_PROBES; i++) {
		ip[0] = 0x100 + i;
		assert_true(sl_stacks_insert(t, ip, 1, 0, 1, false) > 0);
	}
	ip[0] = 0x999;
	assert_int_equal(sl_stacks_insert(t, ip, 1, 0, 1, false), SL_STACK_E_FULL);
	assert_true(sl_stacks_insert(t, ip, 1, 40, 1, false) > 0);
	sl_stacks_destroy(t);
}

/* a slot of the same hash claimed and not yet published: busy, not a copy */
static void test_busy(void **state)
{
	struct sl_stacks *t = sl_stacks_create(16, 4);
	int id;

	(void)state;
	sl_stack_slot(t, 5)->key = (u64)5 << 32 | SL_STACK_FILLING;
	assert_int_equal(sl_stacks_insert(t, A, 3, 5, 1, false), SL_STACK_E_BUSY);
	/* another hash probes past it */
	id = sl_stacks_insert(t, A, 3, 0x15, 1, false);
	assert_int_equal(id, 7);
	/* a reader does not see the slot being written */
	assert_false(sl_stacks_get(t, 6, &(struct sl_stack_info){ 0 }));
	sl_stacks_destroy(t);
}

static void test_trim(void **state)
{
	/* probe frames, then the function's entry (anchor + 5), its callers */
	const unsigned long buf[] = { 0xa0, 0xa1, 0xa2, 0x1005, 0x2000, 0x3000 };
	unsigned int nr, first;

	(void)state;
	first = sl_stack_trim(buf, 6, 0x1000, 0, 32, &nr);
	assert_int_equal(first, 3);
	assert_int_equal(nr, 3);
	/* depth cuts */
	first = sl_stack_trim(buf, 6, 0x1000, 0, 2, &nr);
	assert_int_equal(first, 3);
	assert_int_equal(nr, 2);
	/* an anchor not on the stack (or beyond the window): skip instead */
	first = sl_stack_trim(buf, 6, 0x1100, 1, 32, &nr);
	assert_int_equal(first, 1);
	assert_int_equal(nr, 5);
	first = sl_stack_trim(buf, 6, 0x1005 - SL_STACK_ANCHOR_WIN, 2, 32, &nr);
	assert_int_equal(first, 2);
	/* no anchor: skip; skip past the end: nothing */
	first = sl_stack_trim(buf, 6, 0, 2, 32, &nr);
	assert_int_equal(first, 2);
	assert_int_equal(nr, 4);
	first = sl_stack_trim(buf, 6, 0, 9, 32, &nr);
	assert_int_equal(nr, 0);
}

/* the caller of a range of code: the first frame out of it after one in it */
static void test_caller(void **state)
{
	/* probe frames, two lock functions in two ranges, the caller, more */
	const unsigned long buf[] = { 0xa0, 0xa1, 0x1010, 0x2020, 0x3000,
				      0x1000, 0x4000 };
	const struct sl_text_range r[] = { { 0x1000, 0x1100 },
					   { 0x2000, 0x2100 } };

	(void)state;
	assert_int_equal(sl_stack_caller(buf, 7, r, 2), 0x3000);
	/* one range only: the other's function is the caller */
	assert_int_equal(sl_stack_caller(buf, 7, r, 1), 0x2020);
	assert_int_equal(sl_stack_caller(buf, 7, r + 1, 1), 0x3000);
	/* never entered, never left, nothing */
	assert_int_equal(sl_stack_caller(buf, 2, r, 2), 0);
	assert_int_equal(sl_stack_caller(buf, 4, r, 2), 0);
	assert_int_equal(sl_stack_caller(buf, 0, r, 2), 0);
	/* the range's end is not in it */
	assert_int_equal(sl_stack_caller((const unsigned long[]){ 0x1000, 0x1100 },
					 2, r, 1), 0x1100);
}

static void test_reset(void **state)
{
	struct sl_stacks *t = sl_stacks_create(16, 4);
	u32 ids[16];
	int id;

	(void)state;
	id = sl_stacks_insert(t, A, 3, 1, 1, false);
	assert_true(id > 0);
	sl_stacks_reset(t);
	assert_false(sl_stacks_get(t, id, &(struct sl_stack_info){ 0 }));
	assert_int_equal(sl_stacks_ids(t, ids, 16), 0);
	assert_int_equal(atomic_read(&t->used), 0);
	assert_true(READ_ONCE(t->open));
	assert_int_equal(sl_stacks_insert(t, A, 3, 1, 1, false), id);
	assert_int_equal(info(t, id).count, 1);
	sl_stacks_destroy(t);
}

/* the bounds of the parameters */
static void test_bounds(void **state)
{
	(void)state;
	assert_null(sl_stacks_create(SL_STACK_MIN_SLOTS - 1, 8));
	assert_null(sl_stacks_create(16, SL_STACK_MAX_DEPTH + 1));
	assert_null(sl_stacks_create(16, SL_STACK_MIN_DEPTH - 1));
}

/* two threads, the same 8 stacks (colliding hashes): no insert lost */
#define TH_N	20000
static struct sl_stacks *th_t;
static u64 th_lost;

static void *th_run(void *arg)
{
	unsigned long ip[2] = { 0x10, 0 };
	int i;

	(void)arg;
	for (i = 0; i < TH_N; i++) {
		ip[1] = i & 7;
		if (sl_stacks_insert(th_t, ip, 2, (i & 7) >> 1, 1, false) <= 0)
			__atomic_fetch_add(&th_lost, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t a, b;
	u32 ids[64];
	unsigned int i, n;
	u64 sum = 0;

	(void)state;
	th_t = sl_stacks_create(64, 4);
	pthread_create(&a, NULL, th_run, NULL);
	pthread_create(&b, NULL, th_run, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	n = sl_stacks_ids(th_t, ids, 64);
	for (i = 0; i < n; i++)
		sum += info(th_t, ids[i]).count;
	/* a stack seen while another thread wrote it is busy, and counted */
	assert_int_equal(sum + th_lost, 2 * TH_N);
	assert_int_equal(n, 8);
	sl_stacks_destroy(th_t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_twice),
		cmocka_unit_test(test_collision),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_probe_window),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_trim),
		cmocka_unit_test(test_caller),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
