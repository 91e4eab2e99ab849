/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "stacklat metrics": every enabled pipeline's histograms and loss
 * counters in the Prometheus / OpenMetrics text format (no libnl).
 *
 * Histograms: stacklat_stage_seconds{pipeline,stage} with cumulative
 * _bucket{le=...}, _sum (seconds) and _count.  The kernel's buckets split
 * every power of two of nanoseconds in 16; the exported ones are the
 * powers of two themselves: le = 2^k - 1 ns for k = 1..36, printed as an
 * exact decimal number of seconds, then +Inf.  Samples are whole
 * nanoseconds and every 2^k is a kernel bucket edge, so each cumulative
 * count is exact (the number of samples <= le, never an estimate); what is
 * coarser is the resolution: a quantile computed from these buckets
 * (histogram_quantile) can be off by up to a factor of two, where the
 * kernel's own percentiles (stacklat show) are within 1/16.
 * Samples of 2^36 ns (68.7 s) or more are only in +Inf (the kernel's
 * overflow), as they are in _count.
 *
 * Value stages (their unit is not ns) are in a family of their unit, with
 * the same buckets in that unit, whole numbers: stacklat_stage_bytes
 * (sizes) and stacklat_stage_items (numbers of things: queue depths,
 * reads per wakeup, segments), each only when some stage has that unit.
 *
 * Loss counters: stacklat_lost_REASON_total{pipeline} for every loss the
 * module reports (nmissed, table_full, stale, bad_delta, unmatched,
 * filtered, dropped).  Labels are bounded: pipeline and stage only (a
 * per-interface or per-disk stage carries its interface or disk in its
 * name, from at most 8 slots and "other"); never a pid.
 *
 * Keyed pipelines' rows are not exported (their keys are processes,
 * futexes, stacks), except the lock pipeline's summed per lock type, its
 * only bounded label (at most 256 flag sets; no caller, no pid), while it
 * is enabled: stacklat_lock_contention_waits_total{type} and
 * stacklat_lock_contention_seconds_total{type}.
 */
#ifndef STACKLAT_TOOL_METRICS_H
#define STACKLAT_TOOL_METRICS_H

#include <stdio.h>

#include "model.h"

#define METRICS_POW_MIN	1
#define METRICS_POW_MAX	STACKLAT_HIST_MAX_SHIFT

/*
 * Write the exposition of @pl's enabled pipelines, their stages from @set;
 * @lock: the lock pipeline's rows (struct lk_row), or NULL.
 */
void metrics_render(FILE *f, const struct pipe_list *pl, const struct hist_set *set,
		    const struct keyed_set *lock);

/* @v units of 10^-@decimals as an exact decimal string ("0.000001023"). */
void metrics_decimal(char *buf, size_t len, uint64_t v, unsigned int decimals);

#endif
