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
#include <pthread.h>

#include "hist.h"

static struct sl_hist h;

/* the copy of "this CPU" (this thread's), as hist.c's init leaves it */
static struct sl_hist_cpu *mine(void)
{
	return h.cpu[raw_smp_processor_id()];
}

/* a histogram with a copy for this thread's "CPU", and nothing in it */
static int setup(void **state)
{
	(void)state;
	if (sl_hist_init(&h))
		return -1;
	sl_hist_add(&h, 1);
	sl_hist_grow_now();
	sl_hist_reset(&h);
	return mine() ? 0 : -1;
}

/* a histogram as sl_hist_init() leaves it: the shared copy only */
static int setup_bare(void **state)
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

/*
 * A CPU without a copy records into the shared one, asks for a copy, and
 * gets it at the next grow; a reader sums both; a reset clears both.
 */
static void test_shared_then_copy(void **state)
{
	struct sl_hist_sum sum;
	unsigned int cpu = raw_smp_processor_id();

	(void)state;
	assert_null(mine());
	sl_hist_add(&h, 300);
	sl_hist_add(&h, 20);
	sl_hist_add(&h, 1ULL << 62);	/* beyond the top bucket */
	assert_null(mine());
	assert_int_equal(h.want[cpu], 1);
	sl_hist_read(&h, &sum);
	assert_int_equal(sum.count, 3);
	assert_int_equal(sum.overflow, 1);
	assert_int_equal(sum.sum, 320 + (1ULL << 62));
	assert_int_equal(sum.min, 20);
	assert_int_equal(sum.max, 1ULL << 62);
	assert_int_equal(sl_hist_cpu_bytes(&h, cpu), 0);

	sl_hist_grow_now();
	assert_non_null(mine());
	assert_int_equal(h.want[cpu], 0);
	assert_int_equal(h.ncpus, 1);
	assert_int_equal(sl_hist_cpu_bytes(&h, cpu), sizeof(struct sl_hist_cpu));
	sl_hist_add(&h, 10);
	sl_hist_add(&h, 5000);
	assert_int_equal(local64_read(&mine()->sum), 5010);
	sl_hist_read(&h, &sum);
	assert_int_equal(sum.count, 5);
	assert_int_equal(sum.sum, 5330 + (1ULL << 62));
	assert_int_equal(sum.min, 10);
	assert_int_equal(sum.max, 1ULL << 62);
	/* nothing more asked: a second grow allocates nothing */
	sl_hist_grow_now();
	assert_int_equal(h.ncpus, 1);

	sl_hist_reset(&h);
	sl_hist_read(&h, &sum);
	assert_int_equal(sum.count, 0);
	assert_int_equal(sum.sum, 0);
	assert_int_equal(sum.min, 0);
	assert_int_equal(sum.max, 0);
}

/*
 * Threads (the shim's CPUs) record at once, each starting without a copy,
 * while another grows the copies as the work would: every sample counted
 * once, in the shared copy or a CPU's, and every thread has a copy at the
 * end.
 */
#define NTHR	8
#define NPER	200000

static volatile int stop_growing;

static void *writer(void *arg)
{
	unsigned long i, t = (unsigned long)arg;

	for (i = 0; i < NPER; i++)
		sl_hist_add(&h, t * 1000 + i % 977 + 1);
	return NULL;
}

static void *grower(void *arg)
{
	(void)arg;
	while (!stop_growing)
		sl_hist_grow_now();
	return NULL;
}

static void test_concurrent_grow(void **state)
{
	pthread_t w[NTHR], g;
	struct sl_hist_sum sum;
	unsigned long t, i, want = 0, n = 0;

	(void)state;
	stop_growing = 0;
	assert_int_equal(pthread_create(&g, NULL, grower, NULL), 0);
	for (t = 0; t < NTHR; t++)
		assert_int_equal(pthread_create(&w[t], NULL, writer, (void *)t), 0);
	for (t = 0; t < NTHR; t++)
		pthread_join(w[t], NULL);
	stop_growing = 1;
	pthread_join(g, NULL);
	sl_hist_grow_now();
	for (t = 0; t < NTHR; t++)
		for (i = 0; i < NPER; i++)
			want += t * 1000 + i % 977 + 1;
	sl_hist_read(&h, &sum);
	assert_int_equal(sum.count, NTHR * NPER);
	assert_int_equal(sum.sum, want);
	assert_int_equal(sum.min, 1);
	assert_int_equal(sum.max, (NTHR - 1) * 1000 + 977);
	for (i = 0; i < nr_cpu_ids; i++)
		n += h.cpu[i] != NULL;
	assert_int_equal(n, h.ncpus);
	assert_true(n >= NTHR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nested_min, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nested_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nested_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_first_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_then_copy, setup_bare, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_grow, setup_bare, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
