/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU histogram and its update path, the one every recorded sample
 * takes.  Like flight.h, this header also compiles in userspace
 * (-DSL_USERSPACE, tests/unit/kshim.h), so the native benchmark
 * (tests/unit/bench_flight.c) times the module's own code.
 */
#ifndef _STACKLAT_HIST_H
#define _STACKLAT_HIST_H

#ifdef SL_USERSPACE
#include "kshim.h"
#else
#include <linux/types.h>
#include <linux/percpu.h>
#endif

#include "stacklat_hist.h"

struct sl_hist_cpu {
	u64 sum;
	u64 min;
	u64 max;
	u64 overflow;
	u64 buckets[STACKLAT_HIST_NBUCKETS];
};

struct sl_hist {
	struct sl_hist_cpu __percpu *pcpu;
};

/* tests/unit instrumentation: a nested update run at a named point */
#ifdef SL_SHIM_TRACE
#define sl_hist_point(name, arg)	sl_shim_point(name, arg)
#else
#define sl_hist_point(name, arg)	do { } while (0)
#endif

/*
 * A new minimum or maximum (the slow path of sl_hist_add()).  A probe can
 * nest on this CPU between the read of min and its write (an interrupt or
 * an NMI whose handler records into the same histogram): a plain write
 * would then put back a larger minimum over the nested one's.  The write
 * is a this_cpu_cmpxchg() (on x86 a cmpxchg on this CPU's copy, without
 * the lock prefix), retried with what a nested update left.  The per-CPU
 * pointer is read again here (READ_ONCE) so that the compiler cannot
 * compute the field's address ahead of the branch, in the common path.
 */
static __always_inline void sl_hist_lower(struct sl_hist *h, u64 cur, u64 v)
{
	struct sl_hist_cpu __percpu *p = READ_ONCE(h->pcpu);
	u64 was;

	do {
		sl_hist_point("min", h);
		was = this_cpu_cmpxchg(p->min, cur, v);
	} while (unlikely(was != cur) && (cur = was, v < cur));
}

static __always_inline void sl_hist_raise(struct sl_hist *h, u64 cur, u64 v)
{
	struct sl_hist_cpu __percpu *p = READ_ONCE(h->pcpu);
	u64 was;

	do {
		sl_hist_point("max", h);
		was = this_cpu_cmpxchg(p->max, cur, v);
	} while (unlikely(was != cur) && (cur = was, v > cur));
}

/*
 * The update path: a handful of this_cpu ops, no atomics, no locks; the
 * caller runs with preemption off (every probe does), so this CPU's copy
 * stays this CPU's.  A value inside [min, max], nearly every one, costs a
 * read and a compare of each, as a plain read-then-write did.
 */
static __always_inline void sl_hist_add(struct sl_hist *h, u64 v)
{
	struct sl_hist_cpu __percpu *p = h->pcpu;
	u32 b = stacklat_hist_bucket(v);
	u64 cur;

	if (likely(b < STACKLAT_HIST_NBUCKETS))
		this_cpu_inc(p->buckets[b]);
	else
		this_cpu_inc(p->overflow);
	this_cpu_add(p->sum, v);
	cur = this_cpu_read(p->min);
	if (unlikely(v < cur))
		sl_hist_lower(h, cur, v);
	cur = this_cpu_read(p->max);
	if (unlikely(v > cur))
		sl_hist_raise(h, cur, v);
}

/* A histogram summed over all CPUs, for readers. */
struct sl_hist_sum {
	u64 count;
	u64 sum;
	u64 min;
	u64 max;
	u64 overflow;
	u64 buckets[STACKLAT_HIST_NBUCKETS];
};

int sl_hist_init(struct sl_hist *h);
void sl_hist_free(struct sl_hist *h);
void sl_hist_reset(struct sl_hist *h);
void sl_hist_read(const struct sl_hist *h, struct sl_hist_sum *out);
u64 sl_hist_pct(const struct sl_hist_sum *s, u32 pct);

#endif /* _STACKLAT_HIST_H */
