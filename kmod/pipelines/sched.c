// SPDX-License-Identifier: GPL-2.0
/*
 * sched: run-queue latency (bcc's runqlat) - how long a thread waits,
 * runnable, for a CPU - as the stage "runqueue" (every thread of the
 * host, or those the filter lets in) and per thread in the engine's keyed
 * aggregation (core/keyed.c): count, total, max and a log2 histogram, so
 * that a reader sums a process's threads and takes percentiles.
 *
 * A wait begins when the thread becomes runnable:
 *   - woken (sched_wakeup, sched_wakeup_new: the task is on a runqueue
 *     from then on), or
 *   - switched out while still runnable (sched_switch's prev): preempted
 *     by a task of higher priority or at the end of its slice, or yielding
 *     - the kernel's task_is_running(prev), read at the tracepoint (the
 *     prev_state argument of 5.18+ is the state before __schedule()
 *     looked at signals; 5.10 has none).  bcc's runqlat counts both kinds
 *     too; a row says how many of its waits began with a switch-out
 *     ("preempted").
 * That is the kernel's own accounting (sched_info: run_delay and pcount in
 * /proc/PID/task/TID/schedstat), with one difference: a task preempted
 * after it set a sleeping state (between prepare_to_wait() and
 * schedule()) is on its runqueue but not runnable, and its wait starts
 * when it is woken (sched_wakeup from ttwu_runnable), where sched_info
 * counts none.
 * and ends when it is switched in (sched_switch's next).  The time asleep
 * (blocked, not runnable) is not in it: that is off-CPU time.
 *
 * The start is kept per thread in the in-flight table (the chain of the
 * thread's id, as syscalls keeps sys_enter's time), since the wakeup and
 * the switch-in happen on different CPUs: a wakeup opens the chain or keeps
 * the one there (a preempted task woken from the sleeping state it had set
 * is runnable since its preemption), a runnable switch-out starts it anew,
 * the switch-in records and forgets it.  A wakeup of a task that is on its
 * CPU (->on_cpu: woken before it got to sleep, sched_wakeup from
 * ttwu_runnable) starts nothing: no switch-in follows.  A switch-in with no
 * start is counted "unmatched": the threads that were runnable when the
 * pipeline was enabled, a start the table had no room for (table_full,
 * busy), a wait longer than stale_ms (stale).  The idle tasks (pid 0) are
 * never followed.
 *
 * Context: sched_wakeup and sched_wakeup_new run inside the scheduler
 * with the woken task's runqueue locked and interrupts off; sched_switch
 * inside __schedule() with the runqueue locked and interrupts off.  On
 * 7.x the tracepoint calls its probes under SRCU, preemptible as far as
 * the tracepoint is concerned, and SL_TP_DEFINE_POST turns preemption off
 * around the probe (a no-op here: interrupts are already off).  Nothing
 * here may take a runqueue lock or wake anything: the probes use the
 * in-flight table (bounded, lock-free for the reader that gives up),
 * per-CPU histograms and keyed buffers, and count - no printk, no wakeup.
 * Slow events are not written: the event records the current task, which
 * at sched_switch is the one leaving, not the one whose wait ended.
 *
 * Rows (sched.h, shared with cpu.c): (tgid, tid), the thread's; their group is the process, retired
 * when its last thread exits (sched_process_exit) and aged out
 * keyed_linger_ms later, so a thread that ended in a process that goes on
 * keeps its row until the process ends.  Each row carries the thread's
 * name and its process's (the group leader's), taken when the row is
 * first used in a CPU's buffer.  Filters: tgid, tid - of the thread that
 * waits, not of the task running the probe.
 */
#include "sched.h"
#include "sched_tp.h"

/* timestamp slots */
enum { SD_READY, SD_ONCPU };

/* the stages */
enum { SD_ST_RUNQ };

/* aux[0] of a chain: the wait began with a switch-out */
#define SD_AUX_PREEMPTED	1

static struct sl_stage sl_sd_stages[] = {
	[SD_ST_RUNQ] = { "runqueue", "runnable", "oncpu", SD_READY, SD_ONCPU },
};

/* One ended wait of @t, @ns long, in its row of this CPU's buffer. */
static __always_inline void sl_sd_count(struct sl_keyed *t,
					const struct task_struct *tsk,
					u64 ns, bool preempted)
{
	struct sl_keyed_buf *b = sl_keyed_begin(t);
	u64 *v;

	if (!b)
		return;
	v = sl_tr_row(t, b, tsk);
	if (v)
		sl_tr_add(v, ns, preempted);
	sl_keyed_end(b);
}

/* A wait of @t begins @now (a wakeup: an earlier start is kept). */
static __always_inline void sl_sd_runnable(struct sl_pipeline *p,
					   const struct task_struct *t,
					   u64 now, bool preempted)
{
	struct sl_flight_ent *e;
	u32 pid = (u32)READ_ONCE(t->pid);

	if (!pid || !sl_filter_task_ok(p, t))
		return;
	if (preempted) {
		e = sl_chain_start(p, pid, SD_READY, now);
		if (!e)
			return;		/* counted by the table */
		e->aux[0] = SD_AUX_PREEMPTED;
	} else {
		e = sl_chain_open(p, pid, now);
		if (!e)
			return;
		if (!e->ts[SD_READY]) {
			e->ts[SD_READY] = now;
			e->aux[0] = 0;
		}
	}
	sl_chain_put(e);
}

/* sched_wakeup(p), sched_wakeup_new(p) */
static __always_inline int sl_sd_wakeup(struct sl_ev *ev,
					struct sl_flight_ent *unused)
{
	const struct task_struct *t = sl_ev_ptr(ev, 0);

	/* on its CPU still: woken before it slept, no switch-in follows */
	if (READ_ONCE(t->on_cpu))
		return SL_KEEP;
	sl_sd_runnable(ev->p, t, sl_ev_now(ev), false);
	return SL_KEEP;
}

/* sched_switch(preempt, prev, next[, prev_state]) */
static __always_inline int sl_sd_switch(struct sl_ev *ev,
					struct sl_flight_ent *unused)
{
	const struct task_struct *prev = sl_ev_ptr(ev, 1);
	const struct task_struct *next = sl_ev_ptr(ev, 2);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	struct sl_keyed *t;
	u64 now = sl_ev_now(ev), t0, ns;
	bool preempted;

	if (sl_compat_task_running(prev))
		sl_sd_runnable(p, prev, now, true);
	if (!next->pid)
		return SL_KEEP;
	if (!sl_filter_task_ok(p, next)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return SL_KEEP;
	}
	e = sl_chain_get(p, next->pid);
	if (!e) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return SL_KEEP;
	}
	t0 = e->ts[SD_READY];
	preempted = e->aux[0] == SD_AUX_PREEMPTED;
	sl_chain_remove(p, e, SL_NO_LOSS);
	ns = now - t0;
	if (!t0) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return SL_KEEP;
	}
	if (!sl_record(p, SD_ST_RUNQ, (s64)ns))
		return SL_KEEP;
	t = sl_pipeline_keyed(p);
	if (t)
		sl_sd_count(t, next, ns, preempted);
	return SL_KEEP;
}

SL_SCHED_TPS(sd, sl_sd_wakeup, sl_sd_switch);

static struct sl_hook sl_sd_hooks[] = {
	SL_POINT("wakeup", sl_c_sd_wakeup, SL_ACT_NONE, SD_READY, 0,
		 .post = sl_sd_wakeup),
	SL_POINT("wakeup_new", sl_c_sd_wakeup_new, SL_ACT_NONE, SD_READY, 0,
		 .post = sl_sd_wakeup),
	SL_POINT("switch", sl_c_sd_switch, SL_ACT_NONE, SD_ONCPU, 0,
		 .post = sl_sd_switch),
	/* the exiting thread's chain is forgotten; its process's rows retire */
	SL_POINT("process_exit", sl_c_sd_pexit, SL_ACT_FORGET, 0, SL_OBJ_TASK,
		 .pre = sl_pipeline_keyed_pexit),
};

/* ---- reading (process context) ---------------------------------------- */

static const struct sl_tr_view sl_sd_view = {
	.count = "waits", .total = "total", .hist = "run-queue latency",
};

static void sl_sd_show(struct seq_file *m, u64 key, const u64 *v)
{
	sl_tr_show(m, key, v, &sl_sd_view);
}

static int sl_sd_put(struct sk_buff *skb, u64 key, const u64 *v)
{
	return sl_tr_put(skb, key, v, false);
}

SL_PIPELINE(sched) = {
	.name = "sched",
	.desc = "run-queue latency (runnable to on CPU) per thread and process: count, total, max, log2 histogram",
	.key = STACKLAT_KEY_TASK,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.hooks = sl_sd_hooks,
	.nhooks = ARRAY_SIZE(sl_sd_hooks),
	.stages = sl_sd_stages,
	.nstages = ARRAY_SIZE(sl_sd_stages),
	.on_enable = sl_tr_on_enable,
	.on_disable = sl_pipeline_keyed_disable,
	.teardown = sl_pipeline_keyed_teardown,
	.keyed_show = sl_sd_show,
	.keyed_put = sl_sd_put,
};
