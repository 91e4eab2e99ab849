/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's tracepoints as the pipelines built on them (sched.c,
 * offcpu.c, cpu.c) hook them: sched_wakeup and sched_wakeup_new calling
 * @wake, sched_switch calling @sw, each directly from its probe
 * (SL_TP_DEFINE_POST: what a hand-written handler costs, on the hottest
 * path there is), and sched_process_exit with group_dead as argument 1
 * (for sl_pipeline_keyed_pexit()); their candidates
 * sl_c_<pfx>_{wakeup,wakeup_new,switch,pexit} for the file's hook table.
 * SL_SCHED_TPS defines all four, SL_SCHED_TP_SWITCH and SL_SCHED_TP_PEXIT
 * one each (cpu.c needs no wakeups).
 * Context: see sched.c.  One use a file (the probes are the file's).
 */
#ifndef _STACKLAT_SCHED_TP_H
#define _STACKLAT_SCHED_TP_H

#include <trace/events/sched.h>

#define SL_SCHED_TP_SWITCH(pfx, sw)					\
SL_TP_DEFINE_POST(sched_switch, sw, (SL_COMPAT_SCHED_SWITCH_ARGS),	\
		  (unsigned long)preempt, (unsigned long)prev,		\
		  (unsigned long)next)					\
static const struct sl_cand sl_c_##pfx##_switch[] = {			\
	SL_TPD_POST(sched_switch, sw) }

#define SL_SCHED_TP_PEXIT(pfx)						\
SL_TP_DEFINE(sched_process_exit, (SL_COMPAT_PROCESS_EXIT_ARGS),		\
	     (unsigned long)p, (unsigned long)sl_compat_group_dead(p))	\
static const struct sl_cand sl_c_##pfx##_pexit[] = {			\
	SL_TPD(sched_process_exit) }

#define SL_SCHED_TPS(pfx, wake, sw)					\
SL_TP_DEFINE_POST(sched_wakeup, wake, (struct task_struct *p),		\
		  (unsigned long)p)					\
SL_TP_DEFINE_POST(sched_wakeup_new, wake, (struct task_struct *p),	\
		  (unsigned long)p)					\
static const struct sl_cand sl_c_##pfx##_wakeup[] = {			\
	SL_TPD_POST(sched_wakeup, wake) };				\
static const struct sl_cand sl_c_##pfx##_wakeup_new[] = {		\
	SL_TPD_POST(sched_wakeup_new, wake) };				\
SL_SCHED_TP_SWITCH(pfx, sw);						\
SL_SCHED_TP_PEXIT(pfx)

#endif /* _STACKLAT_SCHED_TP_H */
