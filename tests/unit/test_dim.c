// SPDX-License-Identifier: GPL-2.0
/*
 * The module's breakdown dimensions (kmod/core/dim.c, on dim_shim.h and
 * kshim.h) with a slot released and taken by the next key exactly at the
 * instrumentation points of a probe's path (issue 25, defect 10: a chain
 * recorded under the next interface that takes its slot):
 *  - a probe looking up key A's tag ("found": the key matched, the
 *    generation not yet read) while A's slot is released and B takes it:
 *    the tag must not be B's;
 *  - a probe that checked A's tag against the generation ("checked") and
 *    is about to record, in an RCU read-side section as every probe runs
 *    (preemption off), while another thread releases A and B takes the
 *    slot: B's histogram must not get A's sample.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "dim_shim.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

struct mutex sl_lock;
u32 sl_dump_seq;

static u64 hist_count(struct sl_hist *h)
{
	struct sl_hist_sum s;

	sl_hist_read(h, &s);
	return s.count;
}

#define NPER	1
#define KEY_A	0x1000000001ULL
#define KEY_B	0x1000000002ULL

static const char * const suffix[NPER] = { ".total" };
static const char * const from[NPER] = { "driver" };
static const char * const to[NPER] = { "app" };
static struct sl_stage stages[(SL_DIM_SLOTS + 1) * NPER];
static struct sl_hist hists[(SL_DIM_SLOTS + 1) * NPER];
static struct sl_pipeline pipe = { .priv = { .hists = hists } };
static struct sl_dim dim;

static int setup(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(hists); i++) {
		if (sl_hist_init(&hists[i]))
			return -1;
	}
	sl_dim_init(&dim, stages, 0, NPER, suffix, from, to);
	return 0;
}

static int teardown(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(hists); i++)
		sl_hist_free(&hists[i]);
	return 0;
}

/* ---- a tag looked up while the slot changes hands --------------------- */

static int swapped;
static u32 tag_b;

static void swap_hook(const char *name, const void *arg)
{
	(void)arg;
	if (swapped || strcmp(name, "found"))
		return;
	swapped = 1;
	sl_dim_release(&pipe, &dim, KEY_A);
	tag_b = sl_dim_tag(&dim, KEY_B, "b");
}

static void test_find_during_release(void **state)
{
	u32 tag_a;

	(void)state;
	tag_a = sl_dim_tag(&dim, KEY_A, "a");
	assert_int_equal(tag_a & 0xff, 0);
	swapped = 0;
	sl_shim_point_hook = swap_hook;
	tag_a = sl_dim_find(&dim, KEY_A);	/* a later packet of A's */
	sl_shim_point_hook = NULL;
	assert_int_equal(swapped, 1);
	/* B took the slot A left */
	assert_int_equal(tag_b & 0xff, 0);
	assert_string_equal(stages[0].name, "b.total");
	/* A's chain, recorded later, goes to "other", never to B */
	assert_int_not_equal(sl_dim_stage(&dim, tag_a), sl_dim_stage(&dim, tag_b));
	assert_int_equal(sl_dim_stage(&dim, tag_a), SL_DIM_SLOTS * NPER);
}

/* ---- a record under way while the slot changes hands ------------------ */

static volatile int go, done;
static u32 tag_rec;

static void wait_flag(volatile int *f, int ms)
{
	struct timespec ts = { 0, 1000000 };

	while (!*f && ms-- > 0)
		nanosleep(&ts, NULL);
}

/* the probe, between its check of the tag and its record */
static void rec_hook(const char *name, const void *arg)
{
	(void)arg;
	if (strcmp(name, "checked") || go)
		return;
	go = 1;
	/* a release that waits for probes keeps waiting: 300 ms, then on */
	wait_flag(&done, 300);
}

static void *releaser(void *arg)
{
	(void)arg;
	wait_flag(&go, 10000);
	sl_dim_release(&pipe, &dim, KEY_A);
	tag_b = sl_dim_tag(&dim, KEY_B, "b");
	done = 1;
	return NULL;
}

static void test_record_during_release(void **state)
{
	unsigned int st;
	pthread_t t;
	u32 tag_a;

	(void)state;
	tag_a = sl_dim_tag(&dim, KEY_A, "a");
	sl_hist_add(&hists[sl_dim_stage(&dim, tag_a)], 500);
	go = 0;
	done = 0;
	assert_int_equal(pthread_create(&t, NULL, releaser, NULL), 0);
	/* the probe: preemption off (an RCU read-side section), check, record */
	sl_shim_point_hook = rec_hook;
	preempt_disable_notrace();
	st = sl_dim_stage(&dim, tag_a);
	sl_hist_add(&hists[st], 1000);
	preempt_enable_notrace();
	sl_shim_point_hook = NULL;
	assert_int_equal(pthread_join(t, NULL), 0);
	tag_rec = tag_b;
	/* B has A's slot, and none of A's samples */
	assert_int_equal(tag_rec & 0xff, tag_a & 0xff);
	assert_int_equal(hist_count(&hists[sl_dim_stage(&dim, tag_rec)]), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_find_during_release, setup, teardown),
		cmocka_unit_test_setup_teardown(test_record_during_release, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
