/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler pipelines' rows (sched.c: run-queue waits; cpu.c: on-CPU
 * slices), kept per thread in the engine's keyed aggregation
 * (core/keyed.c) and shared here (sched_common.c): a row's key is
 * (tgid, tid), its group the process, retired when the process's last
 * thread exits (sched_process_exit) and aged out keyed_linger_ms later.
 *
 * A row: how many intervals ended (waits, slices), their total, the
 * longest, how many were bounded by a switch-out of a task still runnable
 * ("preempted"), the user and system time the kernel's own accounting
 * gave the thread during them (cpu only: task->utime/stime, see cpu.c),
 * the thread's and its process's names (taken when the row is first used
 * in a CPU's buffer) and a log2 histogram of the intervals (syscalls'
 * buckets, stacklat_sc_lower()).
 */
#ifndef _STACKLAT_PIPE_SCHED_H
#define _STACKLAT_PIPE_SCHED_H

#include <linux/sched.h>

#include "sl.h"

enum {
	SL_TR_COUNT,				/* intervals that ended */
	SL_TR_TIME,				/* their total */
	SL_TR_MAX,
	SL_TR_PREEMPTED,			/* ... by a runnable switch-out */
	SL_TR_USER,				/* utime accounted during them */
	SL_TR_SYS,				/* stime */
	SL_TR_COMM,				/* the thread's name, 16 bytes */
	SL_TR_PCOMM = SL_TR_COMM + 2,		/* the process's */
	SL_TR_HIST = SL_TR_PCOMM + 2,
	SL_TR_NVALS = SL_TR_HIST + STACKLAT_SC_NBUCKETS
};

static __always_inline u64 sl_tr_key(u32 tgid, u32 tid)
{
	return (u64)tgid << 32 | tid;
}

/*
 * The row of thread @tsk in buffer @b (between sl_keyed_begin() and
 * sl_keyed_end()), its names set when it is new; NULL when there is no
 * room (counted by the table).
 */
static __always_inline u64 *sl_tr_row(struct sl_keyed *t,
				      struct sl_keyed_buf *b,
				      const struct task_struct *tsk)
{
	const struct task_struct *g;
	bool fresh;
	u64 *v;

	v = sl_keyed_row(t, b, sl_tr_key((u32)tsk->tgid, (u32)tsk->pid),
			 &fresh);
	if (v && fresh) {
		g = READ_ONCE(tsk->group_leader);
		sl_keyed_name((char *)&v[SL_TR_COMM], tsk->comm);
		sl_keyed_name((char *)&v[SL_TR_PCOMM], g->comm);
	}
	return v;
}

/* One interval of @ns in row @v. */
static __always_inline void sl_tr_add(u64 *v, u64 ns, bool preempted)
{
	v[SL_TR_COUNT]++;
	v[SL_TR_TIME] += ns;
	if (ns > v[SL_TR_MAX])
		v[SL_TR_MAX] = ns;
	if (preempted)
		v[SL_TR_PREEMPTED]++;
	v[SL_TR_HIST + sl_keyed_bucket(ns)]++;
}

/* How a pipeline's rows read in debugfs. */
struct sl_tr_view {
	const char *count;		/* the intervals' column: "waits" */
	const char *total;		/* their total's: "total" */
	const char *hist;		/* the histogram's: "run-queue latency" */
	bool times;			/* with the user and system columns */
};

/* ---- sched_common.c (process context) --------------------------------- */

/* a thread's rows, from the first enable on; disabling folds the last */
int sl_tr_on_enable(struct sl_pipeline *p);
void sl_tr_show(struct seq_file *m, u64 key, const u64 *v,
		const struct sl_tr_view *view);
int sl_tr_put(struct sk_buff *skb, u64 key, const u64 *v, bool times);

#endif /* _STACKLAT_PIPE_SCHED_H */
