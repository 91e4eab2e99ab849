// SPDX-License-Identifier: GPL-2.0
/*
 * cpu: CPU time per thread (SystemTap's thread-times.stp, bcc's cpudist),
 * exact from sched_switch: a slice runs from a thread's switch-in (it is
 * sched_switch's next) to its switch-out (prev), and each ended slice is
 * the stage "oncpu" (every thread of the host, or those the filter lets
 * in) and a row per thread (sched.h: count, total, max, preempted and a
 * log2 histogram of the slices, summed by a reader per process).  A slice
 * ended with the thread still runnable (preempted, or yielding: the
 * kernel's task_is_running(prev)) is counted "preempted" - the kernel's
 * nivcsw, less a preemption of a thread that had set a sleeping state.
 * The kernel's own figures: sum_exec_runtime (the first field of
 * /proc/PID/task/TID/schedstat) for the total, pcount (its third) for
 * the slices begun, nvcsw + nivcsw for those ended.
 *
 * User and system time.  The kernel accounts a thread's CPU time to user
 * or system in task->utime and task->stime: on a tick-accounted kernel
 * (CONFIG_TICK_CPU_ACCOUNTING, Debian's) the tick adds a tick's worth
 * (TICK_NSEC) to the one it interrupted, on CONFIG_VIRT_CPU_ACCOUNTING_GEN
 * CPUs (nohz_full=) the kernel-user transitions flush exact times into
 * them, and at every context switch.  /proc/PID/stat's utime and stime are
 * those samples scaled to sum_exec_runtime (cputime_adjust(), in clock
 * ticks).  Here the switch-in keeps the thread's utime and stime beside
 * its start and the switch-out adds what they grew by to the row: the
 * samples the kernel took during the slices seen - for a thread followed
 * from its start, all of them.  The tool splits a row's on-CPU time in
 * that ratio as cputime_adjust() does; the granularity is the tick's
 * (HZ: 4 ms at 250), so a thread that ran less than a few ticks has no
 * meaningful split.  Why the raw fields and not task_cputime() or
 * task_cputime_adjusted(): the first takes vtime's seqcount, which can
 * spin against the CPU's own writer in this context; the second may call
 * it and keeps a per-task lock-free adjustment that is the kernel's, not
 * ours to advance.  Both fields are read race-free: at sched_switch, with
 * interrupts off, no tick can add to prev (it is the current task) or to
 * next (on no CPU until this switch ends).  On vtime CPUs the switch's own
 * flush (vtime_task_switch) comes after the tracepoint: the last part of
 * a slice lands in the thread's next one.
 *
 * A slice's length is what the scheduler charged the thread for it: the
 * growth of its se.sum_exec_runtime from the switch-in to the switch-out
 * (update_curr() has run for prev before the tracepoint, from the rq
 * clock taken at the top of __schedule(); for next it starts from that
 * clock too), so the totals are the kernel's own and a thread followed
 * from its start adds up to its schedstat exactly.  Stamping the two
 * tracepoints with the engine's clock instead measured a little more
 * (pick_next_task() between the rq clock and the tracepoint, and a
 * different clock: sched_clock_cpu() against ktime), seen 0.1 to 3.2 %
 * over a second under TCG.  On CONFIG_IRQ_TIME_ACCOUNTING kernels the
 * interrupts taken during a slice are not in it, as in the kernel's.
 *
 * The start is kept per thread in the in-flight table, so that the table
 * holds the threads on a CPU only: born the switch-in (the engine's clock:
 * the stale sweep and the in-flight ages go by it), ts[CPU_IN] the
 * thread's sum_exec_runtime then (the scheduler's clock of the thread,
 * never above the time since boot, so readers show the point at +0),
 * aux[] its utime and stime then.  The switch-out removes it.  A
 * switch-out without a start is counted "unmatched": the threads on a CPU
 * when the pipeline was enabled, a start the table had no room for
 * (table_full, busy), a slice longer than stale_ms (the start swept as
 * stale: a thread alone on a CPU that never switches).  The idle tasks (pid 0) are not followed.
 * The thread's final switch-out after sched_process_exit ends its last
 * slice (the exit point forgets nothing).
 *
 * Context: sched_switch runs inside __schedule() with the runqueue
 * locked and interrupts off (on 7.x SL_TP_DEFINE_POST disables
 * preemption around the probe, a no-op here); sched_process_exit in the
 * exiting thread.  Nothing here takes a lock or wakes anything.  No slow
 * events: the event would name the current task, at sched_switch the one
 * leaving, but its time is not a latency.
 */
#include <linux/sched.h>
#include <linux/seq_file.h>
#include "sched.h"
#include "sched_tp.h"

/* timestamp slots */
enum { CPU_IN, CPU_OUT };

/* the stages */
enum { CPU_ST_ONCPU };

static struct sl_stage sl_cpu_stages[] = {
	[CPU_ST_ONCPU] = { "oncpu", "switch_in", "switch_out", CPU_IN,
			   CPU_OUT },
};

/* @tsk's slice of @ns ended, its utime and stime having grown @du, @ds */
static __always_inline void sl_cpu_count(struct sl_keyed *t,
					 const struct task_struct *tsk,
					 u64 ns, u64 du, u64 ds, bool preempted)
{
	struct sl_keyed_buf *b = sl_keyed_begin(t);
	u64 *v;

	if (!b)
		return;
	v = sl_tr_row(t, b, tsk);
	if (v) {
		sl_tr_add(v, ns, preempted);
		v[SL_TR_USER] += du;
		v[SL_TR_SYS] += ds;
	}
	sl_keyed_end(b);
}

/* @prev leaves its CPU */
static __always_inline void sl_cpu_out(struct sl_pipeline *p,
				       const struct task_struct *prev)
{
	struct sl_flight_ent *e;
	struct sl_keyed *t;
	u64 r0, u0, s0, ns, du, ds;

	e = sl_chain_get(p, prev->pid);
	if (!e) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return;
	}
	r0 = e->ts[CPU_IN];
	u0 = e->aux[0];
	s0 = e->aux[1];
	sl_chain_remove(p, e, SL_NO_LOSS);
	ns = READ_ONCE(prev->se.sum_exec_runtime) - r0;
	if (!sl_record(p, CPU_ST_ONCPU, (s64)ns))
		return;
	/* never less: a thread's utime and stime only grow */
	du = READ_ONCE(prev->utime) - u0;
	ds = READ_ONCE(prev->stime) - s0;
	t = sl_pipeline_keyed(p);
	if (t)
		sl_cpu_count(t, prev, ns, du, ds,
			     sl_compat_task_running(prev));
}

/* sched_switch(preempt, prev, next[, prev_state]) */
static __always_inline int sl_cpu_switch(struct sl_ev *ev,
					 struct sl_flight_ent *unused)
{
	const struct task_struct *prev = sl_ev_ptr(ev, 1);
	const struct task_struct *next = sl_ev_ptr(ev, 2);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	u64 now = sl_ev_now(ev);

	if (prev->pid) {
		if (sl_filter_task_ok(p, prev))
			sl_cpu_out(p, prev);
		else
			sl_loss(p, SL_LOSS_FILTERED);
	}
	if (!next->pid || !sl_filter_task_ok(p, next))
		return SL_KEEP;
	e = sl_chain_start(p, next->pid, CPU_IN, now);
	if (!e)
		return SL_KEEP;		/* counted by the table */
	e->ts[CPU_IN] = READ_ONCE(next->se.sum_exec_runtime);
	e->aux[0] = READ_ONCE(next->utime);
	e->aux[1] = READ_ONCE(next->stime);
	sl_chain_put(e);
	return SL_KEEP;
}

SL_SCHED_TP_SWITCH(cpu, sl_cpu_switch);
SL_SCHED_TP_PEXIT(cpu);

static struct sl_hook sl_cpu_hooks[] = {
	SL_POINT("switch", sl_c_cpu_switch, SL_ACT_NONE, CPU_OUT, 0,
		 .post = sl_cpu_switch),
	/* the process's rows retire; the thread's last slice is still to end */
	SL_POINT("process_exit", sl_c_cpu_pexit, SL_ACT_NONE, 0, SL_OBJ_TASK,
		 .pre = sl_pipeline_keyed_pexit),
};

/* ---- reading (process context) ---------------------------------------- */

static const struct sl_tr_view sl_cpu_view = {
	.count = "slices", .total = "oncpu", .hist = "on-CPU slices",
	.times = true,
};

static void sl_cpu_show(struct seq_file *m, u64 key, const u64 *v)
{
	sl_tr_show(m, key, v, &sl_cpu_view);
}

static int sl_cpu_put(struct sk_buff *skb, u64 key, const u64 *v)
{
	return sl_tr_put(skb, key, v, true);
}

SL_PIPELINE(cpu) = {
	.name = "cpu",
	.desc = "CPU time per thread and process (switch-in to switch-out): slices, total, user/system split, log2 histogram of slices",
	.key = STACKLAT_KEY_TASK,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.hooks = sl_cpu_hooks,
	.nhooks = ARRAY_SIZE(sl_cpu_hooks),
	.stages = sl_cpu_stages,
	.nstages = ARRAY_SIZE(sl_cpu_stages),
	.on_enable = sl_tr_on_enable,
	.on_disable = sl_pipeline_keyed_disable,
	.teardown = sl_pipeline_keyed_teardown,
	.keyed_show = sl_cpu_show,
	.keyed_put = sl_cpu_put,
};
