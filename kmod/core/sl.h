/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacklat internal interfaces: histograms, the in-flight table, hook
 * points and pipelines.
 */
#ifndef _STACKLAT_SL_H
#define _STACKLAT_SL_H

#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>
#include <linux/mutex.h>
#include <linux/timekeeping.h>
#include <linux/netlink.h>
#include <linux/sched.h>

#include "stacklat.h"
#include "stacklat_hist.h"

#include "fmt.h"		/* sl_err(), sl_fmt_ns() */
#include "types.h"		/* rows, stages, pipelines, events, losses */
#include "clock.h"		/* sl_now() */

/* ---- histograms ------------------------------------------------------ */

#include "hist.h"		/* struct sl_hist, sl_hist_add(), the sums */
#include "chain.h"		/* chains, recording, losses */

/* ---- keyed aggregation (keyed.h) -------------------------------------- */

#include "keyed.h"

/* ---- filters ---------------------------------------------------------- */

#include "filter.h"

#include "dispatch.h"		/* the probes, SL_POINT, the event */

#include "hook.h"

/* ---- pipelines -------------------------------------------------------- */

#include "pipeline.h"

/* ---- breakdown dimensions (dim.c) ------------------------------------- */

#include "dim.h"

/* ---- slow events (events.c) ------------------------------------------- */

#include "events.h"

#endif /* _STACKLAT_SL_H */
