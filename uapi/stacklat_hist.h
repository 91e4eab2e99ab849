/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * stacklat histogram bucket math, shared verbatim by the kernel module, the
 * stacklat tool and the unit tests.
 *
 * Log-linear buckets: values 0..15 ns each have a bucket of their own; above
 * that every power of two [2^e, 2^(e+1)) is split into 16 equal sub-buckets.
 * A bucket's representative value is its midpoint, so any value read back
 * from a bucket is within 1/32 (3.125 %) of the true value.  The top bucket
 * ends at 2^36 ns (68.7 s); larger samples are counted as overflow.
 *
 * Pure integer arithmetic, no floating point: it runs in the kernel.
 */
#ifndef _UAPI_STACKLAT_HIST_H
#define _UAPI_STACKLAT_HIST_H

#include <linux/types.h>

#define STACKLAT_HIST_SUB_BITS	4
#define STACKLAT_HIST_SUB	(1U << STACKLAT_HIST_SUB_BITS)
#define STACKLAT_HIST_MAX_SHIFT	36
#define STACKLAT_HIST_MAX_NS	(1ULL << STACKLAT_HIST_MAX_SHIFT)
#define STACKLAT_HIST_NBUCKETS \
	((STACKLAT_HIST_MAX_SHIFT - STACKLAT_HIST_SUB_BITS + 1) * STACKLAT_HIST_SUB)

/* Percentiles are given in hundredths of a percent: 9990 is p99.9. */
#define STACKLAT_PCT_SCALE	10000U

/* Bucket index of @v, or STACKLAT_HIST_NBUCKETS if @v overflows. */
static inline __u32 stacklat_hist_bucket(__u64 v)
{
	unsigned int e;

	if (v < STACKLAT_HIST_SUB)
		return (__u32)v;
	if (v >= STACKLAT_HIST_MAX_NS)
		return STACKLAT_HIST_NBUCKETS;
	e = 63 - __builtin_clzll(v);
	return ((e - STACKLAT_HIST_SUB_BITS + 1) << STACKLAT_HIST_SUB_BITS) +
	       (__u32)((v >> (e - STACKLAT_HIST_SUB_BITS)) &
		       (STACKLAT_HIST_SUB - 1));
}

/* Smallest value that falls in bucket @idx (idx < STACKLAT_HIST_NBUCKETS). */
static inline __u64 stacklat_hist_lower(__u32 idx)
{
	__u32 g = idx >> STACKLAT_HIST_SUB_BITS;
	__u32 s = idx & (STACKLAT_HIST_SUB - 1);

	if (!g)
		return idx;
	return (__u64)(STACKLAT_HIST_SUB + s) << (g - 1);
}

/* Number of distinct values bucket @idx holds. */
static inline __u64 stacklat_hist_width(__u32 idx)
{
	__u32 g = idx >> STACKLAT_HIST_SUB_BITS;

	return g ? 1ULL << (g - 1) : 1;
}

/* The value a bucket stands for: its midpoint. */
static inline __u64 stacklat_hist_mid(__u32 idx)
{
	return stacklat_hist_lower(idx) + stacklat_hist_width(idx) / 2;
}

/*
 * Percentile @pct (hundredths of a percent, 0..STACKLAT_PCT_SCALE) by the
 * nearest-rank method over @n buckets starting at bucket index @first.
 * @total counts every sample including @overflow ones; @min and @max clamp
 * the result (pass 0 and ~0ULL when unknown).  Returns 0 for no samples.
 */
static inline __u64 stacklat_hist_percentile(const __u64 *buckets, __u32 first,
					     __u32 n, __u64 total,
					     __u64 overflow, __u64 min,
					     __u64 max, __u32 pct)
{
	__u64 rank, cum = 0, v;
	__u32 i;

	(void)overflow;
	if (!total)
		return 0;
	if (pct > STACKLAT_PCT_SCALE)
		pct = STACKLAT_PCT_SCALE;
	/* nearest rank: ceil(pct * total / scale), at least 1 */
	rank = (total / STACKLAT_PCT_SCALE) * pct +
	       ((total % STACKLAT_PCT_SCALE) * pct + STACKLAT_PCT_SCALE - 1) /
	       STACKLAT_PCT_SCALE;
	if (!rank)
		rank = 1;
	for (i = 0; i < n; i++) {
		cum += buckets[i];
		if (cum >= rank) {
			v = stacklat_hist_mid(first + i);
			if (v < min)
				v = min;
			if (v > max)
				v = max;
			return v;
		}
	}
	/* the rank lies among the overflowed samples */
	return max;
}

#endif /* _UAPI_STACKLAT_HIST_H */
