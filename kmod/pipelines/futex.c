// SPDX-License-Identifier: GPL-2.0
/*
 * futex: futex wait time per process and per futex (the futex-contention
 * example of SystemTap's beginners' guide, perf lock's futex half): a wait
 * runs from the raw sys_enter of a futex() call that waits - FUTEX_WAIT,
 * FUTEX_WAIT_BITSET, FUTEX_LOCK_PI, FUTEX_LOCK_PI2, FUTEX_WAIT_REQUEUE_PI,
 * any flags (private, clock) - to its sys_exit, per thread, and is the
 * stage "wait" and a row per (process, futex), the futex named by its
 * user address in the process.  A row: waits that blocked and returned
 * (woken, timed out, interrupted), waits that returned -EAGAIN at once
 * (the futex's value had changed: contention that resolved itself before
 * the thread slept, counted apart and not in the time), the total and
 * longest wait, a log2 histogram, and the last waker: the thread current
 * at the last sched_waking of the waiter during a wait - the caller of
 * FUTEX_WAKE or FUTEX_UNLOCK_PI for a woken wait (the wake_q is woken by
 * its caller), 0 for a wait ended from interrupt context (a timeout's
 * hrtimer, a signal sent from one) or never woken (EAGAIN).
 *
 * Keys: a row's key is (tgid, the futex's address folded to 32 bits: its
 * 4-byte word index xor its top bits); the row keeps the whole address and
 * counts "alias" the waits of another address of the same process that
 * folded to the same key (they are in its counts; none is expected: two
 * futexes of a process 16 GiB apart with the same low bits).  Native
 * 64-bit calls only: a compat (ia32, x32) or futex_waitv() call is not
 * followed.  Rows are the engine's keyed table (keyed_rows, keyed_cpu_rows:
 * bounded, what does not fit counted full/dropped); a process's rows age
 * out keyed_linger_ms after its exit, like syscalls'.
 *
 * Context: sys_enter and sys_exit run in the calling thread, preemptible
 * on 6.13+ (SL_TP_DEFINE_FAULTABLE turns preemption off around them);
 * sched_waking in the waker's context, any context (task, softirq, hard
 * interrupt), with the waiter's pi_lock held; sched_process_exit in the
 * exiting thread.  The wait's start, address and waker are kept in the
 * in-flight table (ts[FX_ENTER], aux[0], aux[1]), whose held entries are
 * what a waking and the waiter's own exit race on.  Nothing here sleeps,
 * allocates or takes a lock.
 */
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/futex.h>
#include <linux/unistd.h>
#include <linux/compat.h>
#include <asm/syscall.h>
#include <net/netlink.h>
#include <trace/events/syscalls.h>

#include "sl.h"
#include "sched_tp.h"

/* timestamp slots */
enum { FX_ENTER, FX_WOKEN, FX_EXIT };

/* the stages */
enum { FX_ST_WAIT };

/* A row's values (keyed.h: value 0 is its weight, the calls). */
enum {
	FV_WAITS,				/* waits that blocked */
	FV_EAGAIN,				/* returned -EAGAIN at once */
	FV_TIME,				/* the waits' total */
	FV_MAX,
	FV_WAKER,				/* the last waker's tid */
	FV_UADDR,				/* the futex's user address */
	FV_ALIAS,				/* calls on another address */
	FV_PCOMM,				/* the process's name, 16 bytes */
	FV_HIST = FV_PCOMM + 2,
	FV_NVALS = FV_HIST + STACKLAT_SC_NBUCKETS
};

static struct sl_stage sl_fx_stages[] = {
	[FX_ST_WAIT] = { "wait", "sys_enter", "sys_exit", FX_ENTER, FX_EXIT },
};

/* (tgid, the address folded) as a key; the tgid is its group */
static __always_inline u64 sl_fx_key(u32 tgid, u64 uaddr)
{
	return (u64)tgid << 32 | (u32)((uaddr >> 2) ^ (uaddr >> 34));
}

/* Does futex() operation @op wait? */
static __always_inline bool sl_fx_waits(unsigned long op)
{
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
	case FUTEX_LOCK_PI:
	case FUTEX_WAIT_REQUEUE_PI:
#ifdef FUTEX_LOCK_PI2
	case FUTEX_LOCK_PI2:
#endif
		return true;
	}
	return false;
}

/* The native futex() call under way in @regs, if it is one. */
static __always_inline bool sl_fx_native(struct pt_regs *regs)
{
	return syscall_get_nr(current, regs) == __NR_futex &&
	       !in_compat_syscall();
}

/* One ended call of @tsk on @uaddr in its row of this CPU's buffer. */
static __always_inline void sl_fx_count(struct sl_keyed *t,
					const struct task_struct *tsk,
					u64 uaddr, bool eagain, u64 ns,
					u32 waker)
{
	struct sl_keyed_buf *b = sl_keyed_begin(t);
	bool fresh;
	u64 *v;

	if (!b)
		return;
	v = sl_keyed_row(t, b, sl_fx_key((u32)tsk->tgid, uaddr), &fresh);
	if (v) {
		if (fresh) {
			sl_keyed_name((char *)&v[FV_PCOMM],
				      READ_ONCE(tsk->group_leader)->comm);
			v[FV_UADDR] = uaddr;
		} else if (v[FV_UADDR] != uaddr) {
			v[FV_ALIAS]++;
		}
		if (eagain) {
			v[FV_EAGAIN]++;
		} else {
			v[FV_WAITS]++;
			v[FV_TIME] += ns;
			if (ns > v[FV_MAX])
				v[FV_MAX] = ns;
			v[FV_HIST + sl_keyed_bucket(ns)]++;
			v[FV_WAKER] = waker;
		}
	}
	sl_keyed_end(b);
}

/* sys_enter(regs, id): a futex() call that may wait starts a wait */
static int sl_fx_enter(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct pt_regs *regs = sl_ev_ptr(ev, 0);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	unsigned long args[6];

	if ((long)sl_ev_arg(ev, 1) != __NR_futex || in_compat_syscall())
		return SL_KEEP;
	syscall_get_arguments(current, regs, args);
	if (!sl_fx_waits(args[1]))
		return SL_KEEP;
	if (!sl_task_ok(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return SL_KEEP;
	}
	e = sl_chain_start(p, current->pid, FX_ENTER, sl_ev_now(ev));
	if (!e)
		return SL_KEEP;		/* counted by the table */
	e->aux[0] = args[0];
	e->aux[1] = 0;
	sl_chain_put(e);
	return SL_KEEP;
}

/* sys_exit(regs, ret): the wait, if this thread is in one, ended */
static int sl_fx_exit(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct pt_regs *regs = sl_ev_ptr(ev, 0);
	long ret = (long)sl_ev_arg(ev, 1);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	struct sl_keyed *t;
	u64 t0, uaddr, ns, now;
	bool eagain;
	u32 waker;

	if (!sl_fx_native(regs))
		return SL_KEEP;
	e = sl_chain_get(p, current->pid);
	if (!e)
		return SL_KEEP;		/* not a wait, or not one we saw begin */
	now = sl_ev_now(ev);
	t0 = e->ts[FX_ENTER];
	uaddr = e->aux[0];
	waker = (u32)e->aux[1];
	sl_chain_remove(p, e, SL_NO_LOSS);
	if (!t0) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return SL_KEEP;
	}
	ns = now - t0;
	eagain = ret == -EAGAIN;
	if (!eagain && !sl_record(p, FX_ST_WAIT, (s64)ns))
		return SL_KEEP;
	t = sl_pipeline_keyed(p);
	if (t)
		sl_fx_count(t, current, uaddr, eagain, ns, waker);
	return SL_KEEP;
}

/* sched_waking(p): who woke a thread in a wait */
static __always_inline int sl_fx_waking(struct sl_ev *ev,
					struct sl_flight_ent *unused)
{
	const struct task_struct *t = sl_ev_ptr(ev, 0);
	struct sl_flight_ent *e;
	u32 pid = (u32)READ_ONCE(t->pid);

	if (!pid)
		return SL_KEEP;
	e = sl_chain_get(ev->p, pid);
	if (!e)
		return SL_KEEP;		/* not in a futex wait */
	e->aux[1] = in_task() ? (u32)current->pid : 0;
	e->ts[FX_WOKEN] = sl_ev_now(ev);
	sl_chain_put(e);
	return SL_KEEP;
}

SL_TP_DEFINE_FAULTABLE(sys_enter, (struct pt_regs *regs, long id),
		       (unsigned long)regs, (unsigned long)id)
SL_TP_DEFINE_FAULTABLE(sys_exit, (struct pt_regs *regs, long ret),
		       (unsigned long)regs, (unsigned long)ret)
SL_TP_DEFINE_POST(sched_waking, sl_fx_waking, (struct task_struct *p),
		  (unsigned long)p)
SL_SCHED_TP_PEXIT(fx);

static const struct sl_cand sl_c_fx_enter[] = { SL_TPD(sys_enter) };
static const struct sl_cand sl_c_fx_exit[] = { SL_TPD(sys_exit) };
static const struct sl_cand sl_c_fx_waking[] = {
	SL_TPD_POST(sched_waking, sl_fx_waking) };

static struct sl_hook sl_fx_hooks[] = {
	SL_POINT("sys_enter", sl_c_fx_enter, SL_ACT_NONE, FX_ENTER, 0,
		 .post = sl_fx_enter),
	SL_POINT("sys_exit", sl_c_fx_exit, SL_ACT_NONE, FX_EXIT, 0,
		 .post = sl_fx_exit),
	SL_POINT("waking", sl_c_fx_waking, SL_ACT_NONE, FX_WOKEN, 0,
		 .post = sl_fx_waking),
	SL_POINT("process_exit", sl_c_fx_pexit, SL_ACT_FORGET, 0, SL_OBJ_TASK,
		 .pre = sl_pipeline_keyed_pexit),
};

/* ---- folding and reading (process context) ---------------------------- */

static void sl_fx_merge(u64 *dst, const u64 *src, unsigned int nvals,
			bool fresh)
{
	if (fresh)
		dst[FV_UADDR] = src[FV_UADDR];
	else if (dst[FV_UADDR] != src[FV_UADDR])
		dst[FV_ALIAS] += src[FV_WAITS] + src[FV_EAGAIN];
	dst[FV_WAITS] += src[FV_WAITS];
	dst[FV_EAGAIN] += src[FV_EAGAIN];
	dst[FV_TIME] += src[FV_TIME];
	dst[FV_MAX] = max(dst[FV_MAX], src[FV_MAX]);
	dst[FV_ALIAS] += src[FV_ALIAS];
	/* a last waker of some CPU's updates: the newest fold's */
	if (src[FV_WAITS])
		dst[FV_WAKER] = src[FV_WAKER];
	if (src[FV_PCOMM])
		memcpy(&dst[FV_PCOMM], &src[FV_PCOMM], 16);
	sl_keyed_merge_hist(&dst[FV_HIST], &src[FV_HIST]);
}

static const struct sl_keyed_ops sl_fx_keyed_ops = {
	.merge = sl_fx_merge,
	.alive = sl_keyed_tgid_alive,
};

/*
 * The debugfs table's rows, the times in ns.  The address is the traced
 * process's own (a user address, not the kernel's): printed, so that a
 * reader can match it with the program's symbols or a debugger.
 */
static void sl_fx_show(struct seq_file *m, u64 key, const u64 *v)
{
	char avg[16], pcomm[16];

	if (!v) {
		seq_printf(m, "%8s %-15s %18s %8s %8s %14s %9s %12s %8s %6s  %s\n",
			   "tgid", "process", "uaddr", "waits", "eagain",
			   "total_ns", "avg", "max_ns", "waker", "alias",
			   "| wait from:count...");
		return;
	}
	sl_keyed_show_comm(pcomm, &v[FV_PCOMM]);
	sl_fmt_ns(avg, sizeof(avg),
		  v[FV_WAITS] ? div64_u64(v[FV_TIME], v[FV_WAITS]) : 0);
	seq_printf(m, "%8u %-15s %#18llx %8llu %8llu %14llu %9s %12llu %8llu %6llu  |",
		   sl_keyed_group(key), pcomm, v[FV_UADDR], v[FV_WAITS],
		   v[FV_EAGAIN], v[FV_TIME], avg, v[FV_MAX], v[FV_WAKER],
		   v[FV_ALIAS]);
	sl_keyed_show_hist(m, &v[FV_HIST]);
}

static int sl_fx_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, STACKLAT_FX_A_PAD);
}

/* One row for GET_KEYED (inside its STACKLAT_A_KEYED nest). */
static int sl_fx_put(struct sk_buff *skb, u64 key, const u64 *v)
{
	char pcomm[16];

	sl_keyed_show_comm(pcomm, &v[FV_PCOMM]);
	if (nla_put_u32(skb, STACKLAT_FX_A_TGID, sl_keyed_group(key)) ||
	    nla_put_string(skb, STACKLAT_FX_A_COMM, pcomm) ||
	    sl_fx_put_u64(skb, STACKLAT_FX_A_UADDR, v[FV_UADDR]) ||
	    sl_fx_put_u64(skb, STACKLAT_FX_A_WAITS, v[FV_WAITS]) ||
	    sl_fx_put_u64(skb, STACKLAT_FX_A_EAGAIN, v[FV_EAGAIN]) ||
	    sl_fx_put_u64(skb, STACKLAT_FX_A_TIME_NS, v[FV_TIME]) ||
	    sl_fx_put_u64(skb, STACKLAT_FX_A_MAX_NS, v[FV_MAX]) ||
	    nla_put_u32(skb, STACKLAT_FX_A_WAKER, (u32)v[FV_WAKER]) ||
	    sl_fx_put_u64(skb, STACKLAT_FX_A_ALIAS, v[FV_ALIAS]))
		return -EMSGSIZE;
	return sl_keyed_put_hist(skb, STACKLAT_FX_A_HIST_FIRST,
				 STACKLAT_FX_A_HIST, &v[FV_HIST],
				 STACKLAT_SC_NBUCKETS);
}

/* ---- life ---------------------------------------------------------------- */

#define SL_FX_FOLD_MS	1000

static int sl_fx_on_enable(struct sl_pipeline *p)
{
	return sl_pipeline_keyed_enable(p, FV_NVALS, &sl_fx_keyed_ops,
					SL_FX_FOLD_MS);
}

SL_PIPELINE(futex) = {
	.name = "futex",
	.desc = "futex wait time (sys_enter to sys_exit of a waiting futex()) per process and futex address: waits, EAGAIN returns, total, max, last waker, log2 histogram",
	.key = STACKLAT_KEY_TASK,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.hooks = sl_fx_hooks,
	.nhooks = ARRAY_SIZE(sl_fx_hooks),
	.stages = sl_fx_stages,
	.nstages = ARRAY_SIZE(sl_fx_stages),
	.on_enable = sl_fx_on_enable,
	.on_disable = sl_pipeline_keyed_disable,
	.teardown = sl_pipeline_keyed_teardown,
	.keyed_show = sl_fx_show,
	.keyed_put = sl_fx_put,
};
