// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the histogram bucket math shared by module and tool
 * (uapi/stacklat_hist.h): mapping round trips, edges, memory bound, and
 * percentile error against exact sorted data for several distributions.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stacklat_hist.h"

static void test_edges(void **state)
{
	(void)state;
	assert_int_equal(stacklat_hist_bucket(0), 0);
	assert_int_equal(stacklat_hist_bucket(1), 1);
	assert_int_equal(stacklat_hist_bucket(15), 15);
	assert_int_equal(stacklat_hist_bucket(16), 16);
	assert_int_equal(stacklat_hist_bucket(31), 31);
	assert_int_equal(stacklat_hist_bucket(32), 32);
	assert_int_equal(stacklat_hist_bucket(STACKLAT_HIST_MAX_NS - 1),
			 STACKLAT_HIST_NBUCKETS - 1);
	assert_int_equal(stacklat_hist_bucket(STACKLAT_HIST_MAX_NS),
			 STACKLAT_HIST_NBUCKETS);
	assert_int_equal(stacklat_hist_bucket(UINT64_MAX), STACKLAT_HIST_NBUCKETS);
	/* covers at least 60 s */
	assert_true(STACKLAT_HIST_MAX_NS > 60ULL * 1000000000ULL);
	/* at most 5 KB a histogram a CPU, with count/sum/min/max/overflow */
	assert_true(STACKLAT_HIST_NBUCKETS * 8 + 5 * 8 <= 5 * 1024);
	/* at least 16 linear sub-buckets per power of two */
	assert_true(STACKLAT_HIST_SUB >= 16);
}

static void check_value(uint64_t v)
{
	uint32_t b = stacklat_hist_bucket(v);
	uint64_t lo = stacklat_hist_lower(b), w = stacklat_hist_width(b);
	uint64_t mid = stacklat_hist_mid(b);

	assert_true(b < STACKLAT_HIST_NBUCKETS);
	assert_true(lo <= v);
	assert_true(v < lo + w);
	/* the representative is within 1/32 of any value of the bucket */
	assert_true((mid > v ? mid - v : v - mid) * 32 <= v || v == 0);
}

static void test_round_trip(void **state)
{
	uint64_t v, s;
	uint32_t b, prev = 0;

	(void)state;
	for (v = 0; v < 100000; v++) {
		check_value(v);
		b = stacklat_hist_bucket(v);
		assert_true(b >= prev);
		assert_true(b - prev <= 1);
		prev = b;
	}
	for (s = 0; s < 36; s++)
		for (v = (1ULL << s) - 3; v < (1ULL << s) + 3; v++)
			if (v < STACKLAT_HIST_MAX_NS)
				check_value(v);
	/* every bucket starts where the previous one ends */
	for (b = 1; b < STACKLAT_HIST_NBUCKETS; b++)
		assert_true(stacklat_hist_lower(b) ==
			    stacklat_hist_lower(b - 1) + stacklat_hist_width(b - 1));
	assert_true(stacklat_hist_lower(STACKLAT_HIST_NBUCKETS - 1) +
		    stacklat_hist_width(STACKLAT_HIST_NBUCKETS - 1) ==
		    STACKLAT_HIST_MAX_NS);
}

/* xorshift64*: a fixed-seed PRNG so every run checks the same data */
static uint64_t rng = 88172645463325252ULL;

static uint64_t urand64(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

/* values spread over every power of two up to the top bucket */
static void test_round_trip_random(void **state)
{
	uint64_t v, w;
	uint32_t b, bw;
	int i;

	(void)state;
	for (i = 0; i < 1000000; i++) {
		v = urand64() >> (28 + urand64() % 36);	/* < 2^36 */
		check_value(v);
		/* monotonic: a larger value never maps to a lower bucket */
		w = v + urand64() % (v + 1);
		if (w >= STACKLAT_HIST_MAX_NS)
			continue;
		b = stacklat_hist_bucket(v);
		bw = stacklat_hist_bucket(w);
		assert_true(bw >= b);
	}
	/* every bucket's own bounds map back to it */
	for (b = 0; b < STACKLAT_HIST_NBUCKETS; b++) {
		assert_int_equal(stacklat_hist_bucket(stacklat_hist_lower(b)), b);
		assert_int_equal(stacklat_hist_bucket(stacklat_hist_lower(b) +
						      stacklat_hist_width(b) - 1), b);
		assert_int_equal(stacklat_hist_bucket(stacklat_hist_mid(b)), b);
	}
	assert_int_equal(STACKLAT_HIST_NBUCKETS, 528);
	assert_true(stacklat_hist_lower(STACKLAT_HIST_NBUCKETS - 1) == 0xF80000000ULL);
	assert_true(stacklat_hist_width(STACKLAT_HIST_NBUCKETS - 1) == 1ULL << 31);
}

static double urand(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double nrand(void)	/* Box-Muller */
{
	double u1 = urand(), u2 = urand();

	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void check_percentiles(uint64_t *data, size_t n)
{
	static const uint32_t pcts[] = { 1, 100, 5000, 9000, 9900, 9990, 9999, 10000 };
	static __u64 buckets[STACKLAT_HIST_NBUCKETS];
	uint64_t over = 0, mn = UINT64_MAX, mx = 0, exact, got, rank;
	size_t i, p;

	memset(buckets, 0, sizeof(buckets));
	for (i = 0; i < n; i++) {
		uint32_t b = stacklat_hist_bucket(data[i]);

		if (b < STACKLAT_HIST_NBUCKETS)
			buckets[b]++;
		else
			over++;
		mn = data[i] < mn ? data[i] : mn;
		mx = data[i] > mx ? data[i] : mx;
	}
	qsort(data, n, sizeof(*data), cmp_u64);
	for (p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++) {
		rank = ((uint64_t)n * pcts[p] + STACKLAT_PCT_SCALE - 1) / STACKLAT_PCT_SCALE;
		if (!rank)
			rank = 1;
		exact = data[rank - 1];
		got = stacklat_hist_percentile(buckets, 0, STACKLAT_HIST_NBUCKETS,
					       n, over, mn, mx, pcts[p]);
		if (exact >= STACKLAT_HIST_MAX_NS) {
			assert_true(got == mx);
			continue;
		}
		if (fabs((double)got - (double)exact) > 0.032 * (double)exact)
			fail_msg("p%u: got %llu, exact %llu", pcts[p],
				 (unsigned long long)got, (unsigned long long)exact);
	}
}

#define N 200000
static uint64_t data[N];

static void test_pct_uniform(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N; i++)
		data[i] = 1000 + (uint64_t)(urand() * 9000000);
	check_percentiles(data, N);
}

static void test_pct_lognormal(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N; i++)
		data[i] = (uint64_t)exp(10.0 + 2.0 * nrand());
	check_percentiles(data, N);
}

static void test_pct_bimodal(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N; i++)
		data[i] = urand() < 0.9 ? (uint64_t)(50000 + 2000 * nrand()) :
					  (uint64_t)(20000000 + 1000000 * nrand());
	check_percentiles(data, N);
}

static void test_pct_constant(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N; i++)
		data[i] = 123456;
	check_percentiles(data, N);
	/* min/max clamp makes a constant exact */
	{
		__u64 b[STACKLAT_HIST_NBUCKETS] = { 0 };

		b[stacklat_hist_bucket(123456)] = 10;
		assert_int_equal(stacklat_hist_percentile(b, 0, STACKLAT_HIST_NBUCKETS,
							  10, 0, 123456, 123456, 5000),
				 123456);
	}
}

static void test_pct_small_and_overflow(void **state)
{
	__u64 b[STACKLAT_HIST_NBUCKETS] = { 0 };

	(void)state;
	/* empty */
	assert_int_equal(stacklat_hist_percentile(b, 0, STACKLAT_HIST_NBUCKETS, 0, 0, 0, 0, 5000), 0);
	/* a single sample */
	data[0] = 777;
	check_percentiles(data, 1);
	/* values 0..15 are exact */
	for (size_t i = 0; i < 16; i++)
		data[i] = i;
	check_percentiles(data, 16);
	/* overflowed samples: the top percentiles are the max */
	for (size_t i = 0; i < 100; i++)
		data[i] = i < 90 ? 1000 : 100ULL * 1000000000ULL;
	check_percentiles(data, 100);
	b[stacklat_hist_bucket(1000)] = 90;
	assert_int_equal(stacklat_hist_percentile(b, 0, STACKLAT_HIST_NBUCKETS, 100, 10,
						  1000, 100ULL * 1000000000ULL, 9900),
			 100ULL * 1000000000ULL);
	/* a sub-range of buckets (the netlink trimmed form) */
	assert_int_equal(stacklat_hist_percentile(&b[stacklat_hist_bucket(1000)],
						  stacklat_hist_bucket(1000), 1, 90, 0,
						  0, UINT64_MAX, 5000),
			 stacklat_hist_mid(stacklat_hist_bucket(1000)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_random),
		cmocka_unit_test(test_pct_uniform),
		cmocka_unit_test(test_pct_lognormal),
		cmocka_unit_test(test_pct_bimodal),
		cmocka_unit_test(test_pct_constant),
		cmocka_unit_test(test_pct_small_and_overflow),
	};

	return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
