/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pipeline author's API: what a file in pipelines/ includes, and all
 * it includes of the engine (tests/layers.py checks that, and that no
 * pipeline touches what types.h keeps behind "priv").  A pipeline is a
 * table of points and the stages measured between them: kmod/README.
 *
 *   types.h     the table: struct sl_pipeline, sl_hook, sl_stage, sl_cand,
 *               and struct sl_ev, one hit as the callbacks see it
 *   dispatch.h  SL_TP_DEFINE*, SL_KRP_DEFINE, SL_POINT and the candidates
 *               (SL_TPD, SL_KPD, SL_KRPD), an event's arguments
 *   chain.h     the chains a pipeline follows, recording, losses
 *   filter.h    the pipeline's filter
 *   events.h    slow events
 *   dim.h       breakdown dimensions (per interface, per disk)
 *   keyed.h     keyed aggregation (per process and syscall, ...)
 *   stack.h     kernel stacks: sl_stack_capture() into a table of stack ids
 *   pipeline.h  sl_lock, a keyed or stack table's life, points added at
 *               run time
 *   clock.h     sl_now()
 *   fmt.h       sl_err(), sl_info(), sl_fmt_ns()
 *
 * The engine's own files include what they use, never this one.
 */
#ifndef _STACKLAT_SL_H
#define _STACKLAT_SL_H

#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/sched.h>

#include "stacklat.h"
#include "stacklat_hist.h"

#include "types.h"
#include "dispatch.h"
#include "chain.h"
#include "filter.h"
#include "events.h"
#include "dim.h"
#include "keyed.h"
#include "sample.h"
#include "stack.h"
#include "pipeline.h"
#include "clock.h"
#include "fmt.h"

#endif /* _STACKLAT_SL_H */
