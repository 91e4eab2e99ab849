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
#include <linux/smp.h>
#include <asm/local64.h>
#endif

#include "cpus.h"
#include "stacklat_hist.h"

/*
 * A CPU's copy.  local64_t: this CPU's writers only, each update one
 * read-modify-write instruction that an interrupt cannot split (on x86 an
 * add without the lock prefix), as this_cpu_inc() was on per-CPU memory.
 */
struct sl_hist_cpu {
	local64_t sum;
	local64_t min;
	local64_t max;
	local64_t overflow;
	local64_t buckets[STACKLAT_HIST_NBUCKETS];
};

/*
 * A histogram: a copy for each CPU that has been online since it was
 * made (cpus.h), not for each possible one - 4.2 KiB a stage and CPU, on
 * a machine with 1024 possible CPUs and 2 online.
 */
struct sl_hist {
	struct sl_hist_cpu **cpu;	/* [nr_cpu_ids], NULL: none yet */
	unsigned int ncpus;		/* copies allocated */
	struct sl_cpus_user cpus;
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
 * is a local64_cmpxchg() (on x86 a cmpxchg without the lock prefix),
 * retried with what a nested update left.
 */
static __always_inline void sl_hist_lower(struct sl_hist_cpu *c, u64 cur,
					  u64 v)
{
	u64 was;

	do {
		sl_hist_point("min", c);
		was = local64_cmpxchg(&c->min, cur, v);
	} while (unlikely(was != cur) && (cur = was, v < cur));
}

static __always_inline void sl_hist_raise(struct sl_hist_cpu *c, u64 cur,
					  u64 v)
{
	u64 was;

	do {
		sl_hist_point("max", c);
		was = local64_cmpxchg(&c->max, cur, v);
	} while (unlikely(was != cur) && (cur = was, v > cur));
}

/*
 * The update path: a handful of local64 operations on this CPU's copy, no
 * atomics, no locks; the caller runs with preemption off (every probe
 * does), so this CPU's copy stays this CPU's.  A value inside [min, max],
 * nearly every one, costs a read and a compare of each.  False when this
 * CPU has no copy yet (it just came online: cpus.h), for the caller to
 * count.
 */
static __always_inline bool sl_hist_add(struct sl_hist *h, u64 v)
{
	struct sl_hist_cpu *c = READ_ONCE(h->cpu[raw_smp_processor_id()]);
	u32 b = stacklat_hist_bucket(v);
	u64 cur;

	if (unlikely(!c))
		return false;
	if (likely(b < STACKLAT_HIST_NBUCKETS))
		local64_inc(&c->buckets[b]);
	else
		local64_inc(&c->overflow);
	local64_add(v, &c->sum);
	cur = local64_read(&c->min);
	if (unlikely(v < cur))
		sl_hist_lower(c, cur, v);
	cur = local64_read(&c->max);
	if (unlikely(v > cur))
		sl_hist_raise(c, cur, v);
	return true;
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
u64 sl_hist_bytes(const struct sl_hist *h);
void sl_hist_free(struct sl_hist *h);
void sl_hist_reset(struct sl_hist *h);
void sl_hist_read(const struct sl_hist *h, struct sl_hist_sum *out);
u64 sl_hist_pct(const struct sl_hist_sum *s, u32 pct);

#endif /* _STACKLAT_HIST_H */
