// SPDX-License-Identifier: GPL-2.0
/*
 * lock: kernel lock contention (perf lock contention's view, in tracepoint
 * mode) from lock:contention_begin(lock, flags) and contention_end(lock,
 * ret), 5.19 and later; on an older kernel (no such tracepoints in its
 * headers, compat.h) the points are "not available" and enabling the
 * pipeline is refused.  A wait runs from a begin to the end of the same
 * lock in the same context, and is the stage "wait" and a row per (lock
 * type, caller): contended waits, those that ended in an error (-EINTR,
 * a timeout), the total and longest wait, a log2 histogram, and the waits
 * that began inside a row's own wait (below), with the last wait's stack.
 *
 * The type is named from the begin's flags as perf lock names it:
 * spinlock, rwlock:R/W (spinning), rwsem:R/W, mutex (its optimistic spin
 * and its sleep alike), rtmutex, rwlock-rt:R/W (PREEMPT_RT's rwlock_t),
 * percpu-rwsem:R/W, semaphore; other flags as "flags:0x..".
 *
 * The caller is the first return address on the stack outside the
 * locking code, found in the probe when the wait begins: the stack is
 * unwound by the engine's stack facility (core/stack.h; the stack is
 * kept in the pipeline's stack table too, and the row names the last
 * wait's stack id), and sl_stack_caller() steps over the locking code,
 * known as address ranges resolved at load (like offcpu's scheduler text,
 * from kallsyms sizes of exported functions, never by name in a probe):
 *  - the spinlock text (.spinlock.text, every __lockfunc function:
 *    _raw_spin_lock* and the rest of kernel/locking/spinlock.c), the hull
 *    of _raw_spin_lock .. _raw_spin_unlock_irqrestore, and the queued
 *    spinlock and rwlock slow paths as functions of their own;
 *  - for sleeping locks (mutex, rwsem, rtmutex, percpu-rwsem, semaphore,
 *    the rt spinlocks of PREEMPT_RT) also the scheduler text
 *    (.sched.text: every __sched function, mutex_lock, down_write,
 *    __mutex_lock, rwsem_down_write_slowpath, __percpu_down_read,
 *    rt_mutex_slowlock...), the hull of exported __sched functions from
 *    kernel/sched to kernel/time, which holds kernel/locking's.
 * A spinning lock's caller may itself be __sched (__schedule taking a
 * runqueue lock): only the spinlock text is stepped over for those.  The
 * caller is shown as function+offset when read, never as an address.
 *
 * Read as debugfs's table and as GET_KEYED rows (uapi enum stacklat_lk_attr,
 * `stacklat top lock`), the caller by name in both.
 *
 * Keys: a row's key is (the type's flags + 1, the caller's low 32 bits):
 * kernel text and modules share the top 32 bits on x86-64; the row keeps
 * the whole address and counts "alias" a wait of another caller folded
 * into it (none expected).  Rows are the engine's keyed table (bounded,
 * what does not fit counted full/dropped); they are not per process and
 * do not age.
 *
 * Context: contention_begin fires in any context - process, softirq,
 * hard interrupt, NMI - with preemption or interrupts off for spinning
 * locks (and for rwsems with their wait_lock held, interrupts off);
 * contention_end of a sleeping lock fires in the waiter after it slept,
 * perhaps on another CPU.  A wait is keyed in the in-flight table by the
 * context it waits in: the task (its tid) in process context, the CPU and
 * the level (softirq, hard interrupt, NMI) outside it and for the idle
 * tasks (all tid 0), which cannot sleep there.  Waits nest: a mutex's
 * optimistic spin then its sleep are two begins of the same lock (one
 * wait), and a wait may contend on the lock's own wait_lock inside; a
 * begin while a wait of this context is under way is part of that wait
 * and counted in its row's "nested", and its end (of another lock) is
 * not the wait's.  The wait's lock, caller and flags, nested count and
 * stack id are kept in the entry (aux[0], aux[1], the slot LK_META: not
 * a time).  Nothing here sleeps, allocates or takes a lock (the keyed
 * table, the in-flight table and the stack table are lockless: a lock
 * taken here would trace into this very probe).
 *
 * Losses: an end with no begin (begun before the pipeline was enabled) is
 * normal and not counted; begins lost are the in-flight table's
 * (table_full, busy, stale); stack_busy / stack_full are counted by the
 * stack table (the wait is still counted, its caller "?" when not found).
 * Filters: tgid, tid of the waiting task; a wait outside process context
 * (or of an idle task) has none and is counted filtered while a filter is
 * set.
 */
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/percpu-rwsem.h>
#include <linux/rtmutex.h>
#include <linux/spinlock.h>
#include <linux/completion.h>
#include <linux/wait_bit.h>
#include <linux/hrtimer.h>
#include <net/netlink.h>
#include <trace/events/lock.h>

#include "sl.h"

/* timestamp slots: the begin, and LK_META, not a time (above) */
enum { LK_BEGIN, LK_META, LK_END };

/* the stages */
enum { LK_ST_WAIT };

/* A row's values (keyed.h: value 0 is its weight, the waits). */
enum {
	LV_WAITS,				/* contended waits that ended */
	LV_FAILED,				/* of which ended in an error */
	LV_TIME,				/* their total */
	LV_MAX,
	LV_NESTED,				/* begins inside its waits */
	LV_CALLER,				/* the caller's address */
	LV_FLAGS,				/* the type's flags */
	LV_STACK,				/* the last wait's stack id */
	LV_ALIAS,				/* waits of another caller */
	LV_HIST,
	LV_NVALS = LV_HIST + STACKLAT_SC_NBUCKETS
};

static struct sl_stage sl_lk_stages[] = {
	[LK_ST_WAIT] = { "wait", "contention_begin", "contention_end",
			 LK_BEGIN, LK_END },
};

/* the begin's flags (trace/events/lock.h, 5.19 on): here on every kernel */
#define SL_LCB_SPIN	(1U << 0)
#define SL_LCB_READ	(1U << 1)
#define SL_LCB_WRITE	(1U << 2)
#define SL_LCB_RT	(1U << 3)
#define SL_LCB_PERCPU	(1U << 4)
#define SL_LCB_MUTEX	(1U << 5)
#define SL_LCB_MASK	0xffU

/* a wait outside process context, or of an idle task: CPU and level */
#define SL_LK_CPU_IDENT	(1UL << 40)

/* ---- the locking code, resolved at load --------------------------------- */

/* __lockfunc (.spinlock.text) on every kernel we build for: the hull */
static void *const sl_lk_spin_anchors[] = {
	(void *)_raw_spin_lock, (void *)_raw_spin_lock_irqsave,
	(void *)_raw_spin_lock_irq, (void *)_raw_spin_lock_bh,
	(void *)_raw_spin_unlock_irqrestore,
};

/* the spinning slow paths, perhaps outside it: each its own range */
static void *const sl_lk_spin_funcs[] = {
#ifdef CONFIG_QUEUED_SPINLOCKS
	(void *)queued_spin_lock_slowpath,
#endif
#ifdef CONFIG_QUEUED_RWLOCKS
	(void *)queued_read_lock_slowpath, (void *)queued_write_lock_slowpath,
#endif
};

/*
 * exported and __sched (.sched.text), kernel/sched .. kernel/time (not
 * mutex_lock: a macro on 5.10-rt and with lockdep)
 */
static void *const sl_lk_sched_anchors[] = {
	(void *)schedule, (void *)io_schedule, (void *)schedule_timeout,
	(void *)wait_for_completion, (void *)out_of_line_wait_on_bit,
	(void *)schedule_hrtimeout, (void *)down_read, (void *)down_write,
	(void *)percpu_down_write,
};

enum { SL_LK_R_SPIN, SL_LK_R_SCHED, SL_LK_R_FUNCS };
static struct sl_text_range sl_lk_ranges[SL_LK_R_FUNCS +
					 ARRAY_SIZE(sl_lk_spin_funcs) + 1];
/* the spinning set: the spin hull and the funcs; the sleeping set: all */
static struct sl_text_range sl_lk_spin_ranges[ARRAY_SIZE(sl_lk_spin_funcs) + 1];
static unsigned int sl_lk_nranges, sl_lk_nspin;

/* the size of the function at @addr (0: unknown), from kallsyms */
static unsigned long sl_lk_fsize(unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];
	unsigned long size;
	char *s;

	sprint_symbol(buf, addr);
	s = strchr(buf, '/');
	if (!s || kstrtoul(s + 1, 0, &size))
		return 0;
	s = strchr(s + 1, ' ');	/* a module's name after it: not ours */
	return s ? 0 : size;
}

/* The hull of the functions @fn (@n): every byte from lowest to highest. */
static unsigned int sl_lk_hull(void *const *fn, unsigned int n,
			       struct sl_text_range *r)
{
	unsigned long lo = ULONG_MAX, hi = 0, a, sz;
	unsigned int i, found = 0;

	for (i = 0; i < n; i++) {
		a = (unsigned long)dereference_symbol_descriptor(fn[i]);
		sz = sl_lk_fsize(a);
		if (!sz)
			continue;
		lo = min(lo, a);
		hi = max(hi, a + sz);
		found++;
	}
	r->lo = hi > lo ? lo : 0;
	r->hi = hi > lo ? hi : 0;
	return found;
}

static int sl_lk_setup(struct sl_pipeline *p)
{
	unsigned int i, n, s, k = 0;

	s = sl_lk_hull(sl_lk_spin_anchors, ARRAY_SIZE(sl_lk_spin_anchors),
		       &sl_lk_ranges[SL_LK_R_SPIN]);
	n = sl_lk_hull(sl_lk_sched_anchors, ARRAY_SIZE(sl_lk_sched_anchors),
		       &sl_lk_ranges[SL_LK_R_SCHED]);
	sl_lk_spin_ranges[k++] = sl_lk_ranges[SL_LK_R_SPIN];
	for (i = 0; i < ARRAY_SIZE(sl_lk_spin_funcs); i++) {
		struct sl_text_range *r = &sl_lk_ranges[SL_LK_R_FUNCS + i];

		sl_lk_hull(&sl_lk_spin_funcs[i], 1, r);
		sl_lk_spin_ranges[k++] = *r;
	}
	sl_lk_nspin = k;
	sl_lk_nranges = SL_LK_R_FUNCS + ARRAY_SIZE(sl_lk_spin_funcs);
	/* said only when some function is missing (counts, no address) */
	if (s < ARRAY_SIZE(sl_lk_spin_anchors) ||
	    n < ARRAY_SIZE(sl_lk_sched_anchors))
		sl_info("lock: locking text bounded by %u of %zu spinlock and %u of %zu scheduler functions\n",
			s, ARRAY_SIZE(sl_lk_spin_anchors), n,
			ARRAY_SIZE(sl_lk_sched_anchors));
	return 0;
}

/* ---- probes --------------------------------------------------------------- */

/* The type's flags as a row keeps them: a mutex's spin is the mutex's. */
static __always_inline u32 sl_lk_type(u32 flags)
{
	flags &= SL_LCB_MASK;
	if (flags & SL_LCB_MUTEX)
		flags &= ~SL_LCB_SPIN;
	return flags;
}

static __always_inline bool sl_lk_spins(u32 type)
{
	return type & SL_LCB_SPIN;
}

/*
 * The context a wait is keyed by: the task in process context (its tid),
 * else the CPU and the level, which cannot sleep; *@task whether it is a
 * task's (the filter applies).
 */
static __always_inline unsigned long sl_lk_ident(bool *task)
{
	unsigned long level;
	u32 pid;

	if (in_task()) {
		pid = (u32)current->pid;
		*task = pid != 0;
		if (pid)
			return pid;
		level = 0;		/* an idle task: one a CPU, tid 0 */
	} else {
		*task = false;
		level = in_nmi() ? 3 : hardirq_count() ? 2 : 1;
	}
	return SL_LK_CPU_IDENT | (unsigned long)raw_smp_processor_id() << 2 |
	       level;
}

static __always_inline u64 sl_lk_key(u32 type, unsigned long caller)
{
	return (u64)(type + 1) << 32 | (u32)caller;
}

/* One ended wait in its row of this CPU's buffer. */
static __always_inline void sl_lk_count(struct sl_keyed *t, u32 type,
					unsigned long caller, u32 stack,
					u32 nested, bool failed, u64 ns)
{
	struct sl_keyed_buf *b = sl_keyed_begin(t);
	bool fresh;
	u64 *v;

	if (!b)
		return;
	v = sl_keyed_row(t, b, sl_lk_key(type, caller), &fresh);
	if (v) {
		if (fresh) {
			v[LV_CALLER] = caller;
			v[LV_FLAGS] = type;
		} else if (v[LV_CALLER] != caller) {
			v[LV_ALIAS]++;
		}
		v[LV_WAITS]++;
		v[LV_FAILED] += failed;
		v[LV_TIME] += ns;
		if (ns > v[LV_MAX])
			v[LV_MAX] = ns;
		v[LV_NESTED] += nested;
		if (stack)
			v[LV_STACK] = stack;
		v[LV_HIST + sl_keyed_bucket(ns)]++;
	}
	sl_keyed_end(b);
}

/* contention_begin(lock, flags): a wait begins, or goes on (nested) */
static int sl_lk_begin(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	unsigned long lock = sl_ev_arg(ev, 0), caller, ident;
	u32 type = sl_lk_type((u32)sl_ev_arg(ev, 1)), stack;
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	bool task;

	ident = sl_lk_ident(&task);
	e = sl_chain_get(p, ident);
	if (e) {
		/* a wait of this context under way: this is part of it */
		if (e->aux[0] != lock && e->ts[LK_BEGIN])
			e->ts[LK_META] += 1ULL << 8;
		sl_chain_put(e);
		return SL_KEEP;
	}
	/* a wait of no task is not let in while a task filter is set */
	if (task ? !sl_task_ok(p) : sl_filter_tasks(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return SL_KEEP;
	}
	stack = sl_stack_capture_caller(p, 0, sl_lk_spins(type) ?
					sl_lk_spin_ranges : sl_lk_ranges,
					sl_lk_spins(type) ?
					sl_lk_nspin : sl_lk_nranges, &caller);
	e = sl_chain_start(p, ident, LK_BEGIN, sl_ev_now(ev));
	if (!e)
		return SL_KEEP;		/* counted by the table */
	e->aux[0] = lock;
	e->aux[1] = caller;
	/* type in bits 0-7, nested begins in 8-31, the stack id in 32-63 */
	e->ts[LK_META] = type | (u64)stack << 32;
	sl_chain_put(e);
	return SL_KEEP;
}

/* contention_end(lock, ret): the wait on @lock, if it is this context's */
static int sl_lk_end(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	unsigned long lock = sl_ev_arg(ev, 0), caller, ident;
	int ret = (int)sl_ev_arg(ev, 1);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	struct sl_keyed *t;
	u64 t0, meta, ns;
	bool task;

	ident = sl_lk_ident(&task);
	e = sl_chain_get(p, ident);
	if (!e)
		return SL_KEEP;		/* begun before we looked */
	if (e->aux[0] != lock) {
		sl_chain_put(e);	/* a nested wait's end */
		return SL_KEEP;
	}
	t0 = e->ts[LK_BEGIN];
	meta = e->ts[LK_META];
	caller = e->aux[1];
	sl_chain_remove(p, e, SL_NO_LOSS);
	if (!t0) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return SL_KEEP;
	}
	ns = sl_ev_now(ev) - t0;
	if (!sl_record(p, LK_ST_WAIT, (s64)ns))
		return SL_KEEP;
	t = sl_pipeline_keyed(p);
	if (t)
		sl_lk_count(t, (u32)meta & SL_LCB_MASK, caller,
			    (u32)(meta >> 32), (u32)(meta >> 8) & 0xffffff,
			    ret != 0, ns);
	return SL_KEEP;
}

#ifdef COMPAT_HAS_LOCK_CONTENTION_TP
SL_TP_DEFINE_POST(contention_begin, sl_lk_begin,
		  (void *lock, unsigned int flags),
		  (unsigned long)lock, (unsigned long)flags)
SL_TP_DEFINE_POST(contention_end, sl_lk_end, (void *lock, int ret),
		  (unsigned long)lock, (unsigned long)ret)
#else
/*
 * Before 5.19 there are no such tracepoints: the candidates name them,
 * the lookup by name finds none and the points are "not available"; these
 * probes are never registered.
 */
static void sl_tp_contention_begin(void *data, void *lock, unsigned int flags)
{
}

static void sl_tp_contention_end(void *data, void *lock, int ret)
{
}
#endif

static const struct sl_cand sl_c_lk_begin[] = {
	SL_TPD_POST(contention_begin, sl_lk_begin) };
static const struct sl_cand sl_c_lk_end[] = {
	SL_TPD_POST(contention_end, sl_lk_end) };

static struct sl_hook sl_lk_hooks[] = {
	SL_POINT("contention_begin", sl_c_lk_begin, SL_ACT_NONE, LK_BEGIN, 0,
		 .post = sl_lk_begin),
	SL_POINT("contention_end", sl_c_lk_end, SL_ACT_NONE, LK_END, 0,
		 .post = sl_lk_end),
};

/* ---- folding and reading (process context) ---------------------------- */

static void sl_lk_merge(u64 *dst, const u64 *src, unsigned int nvals,
			bool fresh)
{
	if (fresh) {
		dst[LV_CALLER] = src[LV_CALLER];
		dst[LV_FLAGS] = src[LV_FLAGS];
	} else if (dst[LV_CALLER] != src[LV_CALLER]) {
		dst[LV_ALIAS] += src[LV_WAITS];
	}
	dst[LV_WAITS] += src[LV_WAITS];
	dst[LV_FAILED] += src[LV_FAILED];
	dst[LV_TIME] += src[LV_TIME];
	dst[LV_MAX] = max(dst[LV_MAX], src[LV_MAX]);
	dst[LV_NESTED] += src[LV_NESTED];
	dst[LV_ALIAS] += src[LV_ALIAS];
	if (src[LV_STACK])
		dst[LV_STACK] = src[LV_STACK];
	sl_keyed_merge_hist(&dst[LV_HIST], &src[LV_HIST]);
}

static const struct sl_keyed_ops sl_lk_keyed_ops = {
	.merge = sl_lk_merge,
};

/* perf lock's name of a type */
static void sl_lk_type_name(char *buf, size_t len, u32 type)
{
	static const struct {
		u32 flags;
		const char *name;
	} names[] = {
		{ 0, "semaphore" },
		{ SL_LCB_SPIN, "spinlock" },
		{ SL_LCB_SPIN | SL_LCB_READ, "rwlock:R" },
		{ SL_LCB_SPIN | SL_LCB_WRITE, "rwlock:W" },
		{ SL_LCB_READ, "rwsem:R" },
		{ SL_LCB_WRITE, "rwsem:W" },
		{ SL_LCB_RT, "rtmutex" },
		{ SL_LCB_RT | SL_LCB_READ, "rwlock-rt:R" },
		{ SL_LCB_RT | SL_LCB_WRITE, "rwlock-rt:W" },
		{ SL_LCB_PERCPU | SL_LCB_READ, "percpu-rwsem:R" },
		{ SL_LCB_PERCPU | SL_LCB_WRITE, "percpu-rwsem:W" },
		{ SL_LCB_MUTEX, "mutex" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].flags == type) {
			strscpy(buf, names[i].name, len);
			return;
		}
	snprintf(buf, len, "flags:%#x", type);
}

/*
 * "function+0xoff" of @ip, and its module as "[mod]" (no blank: a
 * column); "?" when it has none or was not found.
 */
static void sl_lk_caller(char *buf, size_t len, unsigned long ip)
{
	char *s, *mod;

	if (!ip) {
		strscpy(buf, "?", len);
		return;
	}
	sl_stack_frame(buf, len, ip);
	s = strchr(buf, '/');
	if (!s)
		return;
	mod = strchr(s, '[');
	if (mod)
		memmove(s, mod, strlen(mod) + 1);
	else
		*s = '\0';
}

/* The debugfs table's rows, the times in ns; the caller function+offset. */
static void sl_lk_show(struct seq_file *m, u64 key, const u64 *v)
{
	char avg[16], type[20], caller[KSYM_SYMBOL_LEN];

	if (!v) {
		seq_printf(m, "%-15s %-40s %8s %6s %14s %9s %12s %7s %6s %6s  %s\n",
			   "type", "caller", "waits", "failed", "total_ns",
			   "avg", "max_ns", "nested", "stack", "alias",
			   "| wait from:count...");
		return;
	}
	sl_lk_type_name(type, sizeof(type), (u32)v[LV_FLAGS]);
	sl_lk_caller(caller, sizeof(caller), v[LV_CALLER]);
	sl_fmt_ns(avg, sizeof(avg),
		  v[LV_WAITS] ? div64_u64(v[LV_TIME], v[LV_WAITS]) : 0);
	seq_printf(m, "%-15s %-40s %8llu %6llu %14llu %9s %12llu %7llu %6llu %6llu  |",
		   type, caller, v[LV_WAITS], v[LV_FAILED], v[LV_TIME], avg,
		   v[LV_MAX], v[LV_NESTED], v[LV_STACK], v[LV_ALIAS]);
	sl_keyed_show_hist(m, &v[LV_HIST]);
}

static int sl_lk_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, STACKLAT_LK_A_PAD);
}

/*
 * One row for GET_KEYED (inside its STACKLAT_A_KEYED nest): the type and
 * the caller by name, as debugfs shows them; never the caller's address.
 */
static int sl_lk_put(struct sk_buff *skb, u64 key, const u64 *v)
{
	char type[20], caller[KSYM_SYMBOL_LEN];

	sl_lk_type_name(type, sizeof(type), (u32)v[LV_FLAGS]);
	sl_lk_caller(caller, sizeof(caller), v[LV_CALLER]);
	if (nla_put_u32(skb, STACKLAT_LK_A_FLAGS, (u32)v[LV_FLAGS]) ||
	    nla_put_string(skb, STACKLAT_LK_A_TYPE, type) ||
	    nla_put_string(skb, STACKLAT_LK_A_CALLER, caller) ||
	    sl_lk_put_u64(skb, STACKLAT_LK_A_WAITS, v[LV_WAITS]) ||
	    sl_lk_put_u64(skb, STACKLAT_LK_A_FAILED, v[LV_FAILED]) ||
	    sl_lk_put_u64(skb, STACKLAT_LK_A_TIME_NS, v[LV_TIME]) ||
	    sl_lk_put_u64(skb, STACKLAT_LK_A_MAX_NS, v[LV_MAX]) ||
	    sl_lk_put_u64(skb, STACKLAT_LK_A_NESTED, v[LV_NESTED]) ||
	    nla_put_u32(skb, STACKLAT_LK_A_STACK_ID, (u32)v[LV_STACK]) ||
	    sl_lk_put_u64(skb, STACKLAT_LK_A_ALIAS, v[LV_ALIAS]))
		return -EMSGSIZE;
	return sl_keyed_put_hist(skb, STACKLAT_LK_A_HIST_FIRST,
				 STACKLAT_LK_A_HIST, &v[LV_HIST],
				 STACKLAT_SC_NBUCKETS);
}

/* ---- life ---------------------------------------------------------------- */

#define SL_LK_FOLD_MS	1000

/* The stack table and the rows come with the first enable. */
static int sl_lk_on_enable(struct sl_pipeline *p)
{
	int ret = sl_pipeline_stacks_enable(p);

	if (ret)
		return ret;
	return sl_pipeline_keyed_enable(p, LV_NVALS, &sl_lk_keyed_ops,
					SL_LK_FOLD_MS);
}

SL_PIPELINE(lock) = {
	.name = "lock",
	.desc = "kernel lock contention (lock:contention_begin to contention_end, 5.19+) per lock type and caller: waits, total, max, log2 histogram",
	.key = STACKLAT_KEY_TASK,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.hooks = sl_lk_hooks,
	.nhooks = ARRAY_SIZE(sl_lk_hooks),
	.stages = sl_lk_stages,
	.nstages = ARRAY_SIZE(sl_lk_stages),
	.setup = sl_lk_setup,
	.on_enable = sl_lk_on_enable,
	.on_disable = sl_pipeline_keyed_disable,
	.teardown = sl_pipeline_keyed_teardown,
	.keyed_show = sl_lk_show,
	.keyed_put = sl_lk_put,
};
