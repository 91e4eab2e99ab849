/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling (sample.c): "sample PIPELINE N" follows one object in N of a
 * pipeline that can (struct sl_pipeline's @sampling), "sample PIPELINE
 * auto OBJECTS" chooses N each second from the busiest CPU's objects.
 */
#ifndef _STACKLAT_SAMPLE_H
#define _STACKLAT_SAMPLE_H

#include <linux/percpu.h>
#include <linux/compiler.h>

#include "types.h"

struct seq_file;
struct netlink_ext_ack;

/*
 * At the point where an object's chain starts (the dispatcher's start, a
 * SPAN row's entry), after the filters: follow this object?  While the
 * pipeline samples (priv.sample N >= 1; 0: off, every object, nothing
 * counted) each CPU follows the first object it starts and every Nth
 * after it, and counts every one it saw (the exact totals); later points
 * follow only the chains that exist, so they agree.  A systematic sample
 * per CPU, not a coin per point: N consecutive objects of a CPU give
 * exactly one chain.  Probe context, preemption off; the counts are
 * per-CPU operations an interrupt cannot split (an object started by an
 * interrupt inside another's start may share its turn).
 */
static __always_inline bool sl_sample_take(struct sl_pipeline *p)
{
	u32 n = READ_ONCE(p->priv.sample);

	if (likely(!n))
		return true;
	this_cpu_inc(p->priv.smp->seen);
	if (this_cpu_dec_return(p->priv.smp->left) >= 0) {
		this_cpu_inc(p->priv.smp->skipped);
		return false;
	}
	this_cpu_write(p->priv.smp->left, n - 1);
	return true;
}

/*
 * The two halves of sl_sample_take(), for a pipeline that chooses an
 * object before it knows it is one, and counts it where it is born
 * (reqresp, whose @sample_own says so: a request's data is chosen at its
 * first segment, the request is born at the read that returns it; data
 * that goes on with a request open on its socket takes that request's
 * choice).  sl_sample_choose(): follow the object starting now?  The
 * per-CPU countdown alone, nothing counted.  sl_sample_count(): an object
 * is born, @followed or not: the exact totals.  Probe context,
 * preemption off, as sl_sample_take().
 */
static __always_inline bool sl_sample_choose(struct sl_pipeline *p)
{
	u32 n = READ_ONCE(p->priv.sample);

	if (likely(!n))
		return true;
	if (this_cpu_dec_return(p->priv.smp->left) >= 0)
		return false;
	this_cpu_write(p->priv.smp->left, n - 1);
	return true;
}

static __always_inline void sl_sample_count(struct sl_pipeline *p,
					    bool followed)
{
	if (likely(!READ_ONCE(p->priv.sample)))
		return;
	this_cpu_inc(p->priv.smp->seen);
	if (!followed)
		this_cpu_inc(p->priv.smp->skipped);
}

/*
 * Does @p skip objects now (sampling 1 in N, N > 1)?  A later point that
 * finds no chain then expects it, and does not count it lost.  Probe
 * context.
 */
static __always_inline bool sl_sample_skips(const struct sl_pipeline *p)
{
	return READ_ONCE(p->priv.sample) > 1;
}

/*
 * Does @p sample now, at any N (its objects counted: N >= 1, auto's N
 * back at 1 too)?  Probe context.
 */
static __always_inline bool sl_sample_on(const struct sl_pipeline *p)
{
	return READ_ONCE(p->priv.sample) != 0;
}

/* What status says of a pipeline's sampling. */
struct sl_sample_info {
	u32 n;			/* 1 in @n followed now (1: every one) */
	u32 budget;		/* auto: objects a second a CPU; 0: fixed */
	u64 seen, followed;	/* since the rate (or auto) was set */
	u64 peak;		/* auto: the busiest CPU's objects a second */
};

/* Process context, under sl_lock (sl_sample_set(): sl_pipeline_set_sample()). */
int sl_sample_init(struct sl_pipeline *p);
void sl_sample_free(struct sl_pipeline *p);
void sl_sample_reset(struct sl_pipeline *p);
int sl_sample_check(const struct sl_pipeline *p, u32 n, u32 budget,
		    struct netlink_ext_ack *extack);
int sl_sample_set(struct sl_pipeline *p, u32 n, u32 budget,
		  struct netlink_ext_ack *extack);
void sl_sample_get(const struct sl_pipeline *p, struct sl_sample_info *si);
void sl_sample_status(struct seq_file *m, const struct sl_pipeline *p);

#endif /* _STACKLAT_SAMPLE_H */
