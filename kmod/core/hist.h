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
#include <linux/list.h>
#include <linux/atomic.h>
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
 * What the CPUs without a copy of their own record into: the same counts
 * with atomic64 operations (min and max by compare-and-exchange).
 */
struct sl_hist_shared {
	atomic64_t sum;
	atomic64_t min;
	atomic64_t max;
	atomic64_t overflow;
	atomic64_t buckets[STACKLAT_HIST_NBUCKETS];
};

/*
 * A histogram: a shared copy, and a copy for each CPU that recorded into
 * it, made after the fact.  A CPU without a copy records into the shared
 * one - exactly, at the price of a few uncontended atomics - and asks for
 * its copy (@want); the grow work (hist.c, in process context, an eighth
 * of a second while a pipeline is enabled) allocates and publishes it.
 * So a stage that no CPU records into takes its shared copy only, 4.2 KiB,
 * not 4.2 KiB on each CPU, and a CPU that comes online loses nothing.
 * Readers add the shared copy to the CPUs'.
 */
struct sl_hist {
	struct sl_hist_cpu **cpu;	/* [nr_cpu_ids], NULL: none yet */
	struct sl_hist_shared *shared;
	u8 *want;			/* [nr_cpu_ids]: recorded into shared */
	bool wanted;			/* some @want set (a hint for the work) */
	unsigned int ncpus;		/* copies allocated */
	struct list_head node;		/* every histogram, for the grow work */
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

void sl_hist_add_shared(struct sl_hist *h, unsigned int cpu, u64 v);

/*
 * The update path: a handful of local64 operations on this CPU's copy, no
 * atomics, no locks; the caller runs with preemption off (every probe
 * does), so this CPU's copy stays this CPU's.  A value inside [min, max],
 * nearly every one, costs a read and a compare of each.  A CPU without a
 * copy yet records into the shared one (hist.c).
 */
static __always_inline void sl_hist_add(struct sl_hist *h, u64 v)
{
	unsigned int cpu = raw_smp_processor_id();
	struct sl_hist_cpu *c = READ_ONCE(h->cpu[cpu]);
	u32 b = stacklat_hist_bucket(v);
	u64 cur;

	if (unlikely(!c)) {
		sl_hist_add_shared(h, cpu, v);
		return;
	}
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
u64 sl_hist_cpu_bytes(const struct sl_hist *h, unsigned int cpu);
void sl_hist_grow_now(void);
void sl_hist_poll(bool on);
void sl_hist_exit(void);
void sl_hist_free(struct sl_hist *h);
void sl_hist_reset(struct sl_hist *h);
void sl_hist_read(const struct sl_hist *h, struct sl_hist_sum *out);
u64 sl_hist_pct(const struct sl_hist_sum *s, u32 pct);

#endif /* _STACKLAT_HIST_H */
