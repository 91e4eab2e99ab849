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

/* The update path: a handful of this_cpu ops, no atomics, no locks. */
static __always_inline void sl_hist_add(struct sl_hist *h, u64 v)
{
	struct sl_hist_cpu __percpu *p = h->pcpu;
	u32 b = stacklat_hist_bucket(v);

	if (likely(b < STACKLAT_HIST_NBUCKETS))
		this_cpu_inc(p->buckets[b]);
	else
		this_cpu_inc(p->overflow);
	this_cpu_add(p->sum, v);
	if (v < this_cpu_read(p->min))
		this_cpu_write(p->min, v);
	if (v > this_cpu_read(p->max))
		this_cpu_write(p->max, v);
}

#endif /* _STACKLAT_HIST_H */
