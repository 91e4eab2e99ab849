// SPDX-License-Identifier: GPL-2.0
/*
 * The module's histogram update (kmod/core/hist.h's sl_hist_add) on
 * kshim.h, with a probe nesting on the same CPU simulated exactly: at the
 * update's instrumentation point between the read of min (or max) and its
 * write, a "nested" update (an interrupt's probe on this CPU) records into
 * the same histogram.  Every count, the sum, min and max must come out
 * exact whatever the order: a plain read-then-write of min put the outer
 * update's larger value back over the nested one's smaller (issue 25,
 * defect 11).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hist.h"

static struct sl_hist h;

/* the copy of "this CPU" (this thread's), as hist.c's init leaves it */
static struct sl_hist_cpu *mine(void)
{
	return h.cpu[raw_smp_processor_id()];
}

static int setup(void **state)
{
	(void)state;
	return sl_hist_init(&h);
}

static int teardown(void **state)
{
	(void)state;
	sl_hist_free(&h);
	return 0;
}

/* the nested update: once, at the named point, value nest_v */
static const char *nest_at;
static u64 nest_v;
static int nested;

static void nest_hook(const char *name, const void *arg)
{
	(void)arg;
	if (nested || strcmp(name, nest_at))
		return;
	nested = 1;
	sl_hist_add(&h, nest_v);
}

/* outer update of @v with a nested one of @n at point @at */
static void add_nested(u64 v, const char *at, u64 n)
{
	nest_at = at;
	nest_v = n;
	nested = 0;
	sl_shim_point_hook = nest_hook;
	sl_hist_add(&h, v);
	sl_shim_point_hook = NULL;
	assert_int_equal(nested, 1);
}

static u64 count(void)
{
	struct sl_hist_cpu *c = mine();
	u64 n = local64_read(&c->overflow);
	unsigned int i;

	for (i = 0; i < STACKLAT_HIST_NBUCKETS; i++)
		n += local64_read(&c->buckets[i]);
	return n;
}

/* an interrupt records a smaller minimum while the task's update is at min */
static void test_nested_min(void **state)
{
	(void)state;
	sl_hist_add(&h, 100);
	add_nested(50, "min", 10);
	assert_int_equal(local64_read(&mine()->min), 10);
	assert_int_equal(local64_read(&mine()->max), 100);
	assert_int_equal(local64_read(&mine()->sum), 160);
	assert_int_equal(count(), 3);
	/* the outer value the smaller: it wins after the retry */
	add_nested(5, "min", 7);
	assert_int_equal(local64_read(&mine()->min), 5);
	assert_int_equal(local64_read(&mine()->sum), 172);
	assert_int_equal(count(), 5);
}

/* the same at max */
static void test_nested_max(void **state)
{
	(void)state;
	sl_hist_add(&h, 100);
	add_nested(500, "max", 1000);
	assert_int_equal(local64_read(&mine()->max), 1000);
	assert_int_equal(local64_read(&mine()->min), 100);
	add_nested(2000, "max", 1500);
	assert_int_equal(local64_read(&mine()->max), 2000);
	assert_int_equal(local64_read(&mine()->sum), 100 + 500 + 1000 + 2000 + 1500);
	assert_int_equal(count(), 5);
}

/* a nested value that moves neither: the outer write goes through once */
static void test_nested_inside(void **state)
{
	(void)state;
	sl_hist_add(&h, 100);
	sl_hist_add(&h, 900);
	add_nested(10, "min", 500);
	add_nested(1000, "max", 400);
	assert_int_equal(local64_read(&mine()->min), 10);
	assert_int_equal(local64_read(&mine()->max), 1000);
	assert_int_equal(count(), 6);
}

/* the first sample of an empty histogram sets both, nested or not */
static void test_first_sample(void **state)
{
	(void)state;
	add_nested(300, "min", 200);
	assert_int_equal(local64_read(&mine()->min), 200);
	assert_int_equal(local64_read(&mine()->max), 300);
	assert_int_equal(count(), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nested_min, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nested_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nested_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_first_sample, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
