/* SPDX-License-Identifier: GPL-2.0 */
/* The one clock every timestamp and delta of stacklat is read from. */
#ifndef _STACKLAT_CLOCK_H
#define _STACKLAT_CLOCK_H

#include <linux/timekeeping.h>

/*
 * The clock: ktime_get_mono_fast_ns(), CLOCK_MONOTONIC read without the
 * timekeeping seqcount (through its NMI-safe latch), so it is usable from
 * any context and never spins, even in a probe placed inside timekeeping
 * (the func pipeline allows any symbol).  It is one clock for all CPUs,
 * which matters because stages start on one CPU and end on another (a
 * packet received by softirq on CPU 0 and read by a task on CPU 1).
 * local_clock() was rejected: when the TSC is marked unstable the scheduler
 * clock is clamped to the last tick plus one tick period, so back-to-back
 * readings come out equal and cross-CPU deltas come out skewed - measured
 * here as zero-length kretprobe calls under QEMU.  Every delta is still
 * checked: a negative one, or one above max_delta_ms, is discarded and
 * counted as a bad delta, never recorded.
 */
static __always_inline u64 sl_now(void)
{
	return ktime_get_mono_fast_ns();
}

#define SL_CLOCK_NAME	"ktime_get_mono_fast_ns"

#endif /* _STACKLAT_CLOCK_H */
