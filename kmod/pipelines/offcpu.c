// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu: off-CPU time by reason and kernel stack (SystemTap's
 * latencytap, bcc's offcputime).  For each thread that blocks - switched
 * out (sched_switch's prev) not runnable and not preempted - the time
 * from that switch-out to its next wakeup (sched_wakeup, sched_wakeup_new),
 * as the stage "offcpu" (every thread the filter lets in) and per
 * (process, kernel stack) in the engine's keyed aggregation: count, total,
 * max and a log2 histogram.
 *
 * The stack is captured at the switch-out, in the blocked thread's own
 * context (sched_switch runs in prev's), into the pipeline's stack table
 * (core/stack.h: bounded, shared by the CPUs, symbolised only when read);
 * its id goes with the thread's start in the in-flight table (the chain
 * of its tid) and becomes, with the process, the row's key at the wakeup.
 * A stack the table has no room for is counted (stack_full, stack_busy)
 * and its block counted in the process's row of stack id 0 ("not kept").
 *
 * The reason.  A row's reason is the innermost frame of its stack that is
 * not scheduler machinery, found when the row is read (process context),
 * never in the probe.  Scheduler machinery is what the kernel itself skips
 * for /proc/PID/wchan (get_wchan(), in_sched_functions()): the functions
 * it marks __sched, placed in the one contiguous section .sched.text
 * (schedule, io_schedule, schedule_timeout, the completions, mutexes,
 * rwsems and rtmutexes' slow paths, do_nanosleep...).  A module cannot
 * see __sched_text_start/_end (not exported, and kallsyms_lookup_name is
 * not either since 5.7), so at load the range is bounded from inside: the
 * addresses of functions that are __sched on every kernel we build for and
 * exported (schedule ... out_of_line_wait_on_bit, sl_oc_anchors[]), their
 * sizes from kallsyms (sprint_symbol(): "name+0x0/0xsize"), and every
 * byte between the lowest start and the highest end lies in .sched.text,
 * since the section is one contiguous range holding only __sched code.
 * __sched functions outside that hull (static ones placed before schedule,
 * __schedule itself) are named in sl_oc_names[] and matched by name.  A
 * consequence, as for wchan: a mutex or rwsem wait's reason is its caller
 * (mutex_lock is __sched), and on PREEMPT_RT, where spinlocks sleep,
 * contention shows as off-CPU time under the lock's caller too.
 *
 * Context: as sched.c - sched_switch inside __schedule() and the wakeups
 * inside try_to_wake_up(), runqueue locked, interrupts off; SL_TP_DEFINE_POST
 * turns preemption off on 7.x (SRCU tracepoints).  The capture unwinds the
 * current stack (stack_trace_save(), no lock, no allocation).  Nothing
 * here takes a runqueue lock or wakes anything (the event rings wake their
 * readers from a work item, never from a probe), and nothing prints.
 *
 * Slow events ("events -t 10ms offcpu"): a block over the threshold is a
 * line of the thread that blocked (not of the waker, the current task at
 * the wakeup), with its stack (_F_STACK): debugfs writes the frames, the
 * tool fetches them by id (GET_STACKS), and where[] is the reason.
 *
 * Losses: a wakeup of a thread with no start is normal (it did not block
 * while the pipeline was on, or was preempted, or is a new task) and not
 * counted; the starts lost are the table's (table_full, busy, stale after
 * stale_ms: a thread asleep longer than that has its block dropped).
 * Filters: tgid, tid - of the blocked thread.  Rows of ended processes
 * linger keyed_linger_ms as syscalls'.
 */
#include <linux/kallsyms.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/completion.h>
#include <linux/rwsem.h>
#include <linux/wait_bit.h>
#include <linux/hrtimer.h>
#include <net/netlink.h>

#include "sl.h"
#include "sched_tp.h"

/* timestamp slots */
enum { OC_OFF, OC_WOKEN };

/* the stages */
enum { OC_ST_OFFCPU };

/* A row's values (keyed.h: value 0 is its weight, the blocks). */
enum {
	OV_COUNT,				/* blocks that ended */
	OV_TIME,				/* their total */
	OV_MAX,
	OV_PCOMM,				/* the process's name, 16 bytes */
	OV_HIST = OV_PCOMM + 2,
	OV_NVALS = OV_HIST + STACKLAT_SC_NBUCKETS
};

static struct sl_stage sl_oc_stages[] = {
	[OC_ST_OFFCPU] = { "offcpu", "blocked", "woken", OC_OFF, OC_WOKEN },
};

/* ---- scheduler machinery, resolved at load ----------------------------- */

/* exported, and __sched on 5.10 .. 7.x: they bound the hull */
static void *const sl_oc_anchors[] = {
	(void *)schedule, (void *)io_schedule, (void *)yield,
	(void *)schedule_timeout, (void *)wait_for_completion,
	(void *)down_read, (void *)out_of_line_wait_on_bit,
	(void *)schedule_hrtimeout,
};

/* __sched, perhaps outside the hull: matched by name */
static const char *const sl_oc_names[] = {
	"__schedule", "schedule", "schedule_idle", "schedule_user",
	"preempt_schedule_common", "preempt_schedule", "preempt_schedule_irq",
	"schedule_preempt_disabled", "schedule_rtlock", "io_schedule",
	"io_schedule_timeout", "__cond_resched", "yield", "yield_to",
};

static unsigned long sl_oc_lo, sl_oc_hi;	/* set once, at setup */
/* the pipeline, whose stack table the rows' readers look reasons up in */
static struct sl_pipeline *sl_oc_self;

/* the size of the function at @addr (0: unknown), from kallsyms */
static unsigned long sl_oc_fsize(unsigned long addr)
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

static int sl_oc_setup(struct sl_pipeline *p)
{
	unsigned long lo = ULONG_MAX, hi = 0, a, sz;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(sl_oc_anchors); i++) {
		a = (unsigned long)dereference_symbol_descriptor(sl_oc_anchors[i]);
		sz = sl_oc_fsize(a);
		if (!sz)
			continue;
		lo = min(lo, a);
		hi = max(hi, a + sz);
		n++;
	}
	if (hi > lo) {
		sl_oc_lo = lo;
		sl_oc_hi = hi;
	}
	/*
	 * Said only when some anchor is missing (sizes, never an address):
	 * a load is silent in dmesg otherwise (12-load-loop)
	 */
	if (n < ARRAY_SIZE(sl_oc_anchors))
		sl_info("offcpu: scheduler text bounded by %u of %zu functions, %lu bytes\n",
			n, ARRAY_SIZE(sl_oc_anchors), hi > lo ? hi - lo : 0);
	sl_oc_self = p;
	return 0;
}

/* Process context: is @ip (its function @fn) scheduler machinery? */
static bool sl_oc_machinery(unsigned long ip, const char *fn)
{
	unsigned int i;

	if (ip >= sl_oc_lo && ip < sl_oc_hi)
		return true;
	for (i = 0; i < ARRAY_SIZE(sl_oc_names); i++)
		if (!strcmp(fn, sl_oc_names[i]))
			return true;
	return false;
}

/* "function" of @ip, without offset and size; "?" with no symbol */
static void sl_oc_fname(char *buf, size_t len, unsigned long ip)
{
	char *s;

	sl_stack_frame(buf, len, ip);
	s = strchr(buf, '+');
	if (s)
		*s = '\0';
}

/*
 * Process context: the reason of stack @id of @p: the first frame, after
 * the first machinery frame (those before it are the probe's own), that is
 * not machinery; "-" when the stack was not kept, "?" when it has none.
 */
static void sl_oc_reason(struct sl_pipeline *p, u32 id, char *buf,
			 size_t len)
{
	struct sl_stacks *t = sl_pipeline_stacks(p);
	struct sl_stack_info si;
	bool in = false;
	unsigned int i;

	strscpy(buf, id ? "?" : "-", len);
	if (!t || !id || !sl_stacks_get(t, id, &si))
		return;
	for (i = 0; i < si.nr; i++) {
		sl_oc_fname(buf, len, si.ip[i]);
		if (sl_oc_machinery(si.ip[i], buf))
			in = true;
		else if (in)
			return;
	}
	strscpy(buf, "?", len);
}

/* ---- probes --------------------------------------------------------------- */

static __always_inline u64 sl_oc_key(u32 tgid, u32 stack)
{
	return (u64)tgid << 32 | stack;
}

/* One ended block of @tsk, @ns long, in its row of this CPU's buffer. */
static __always_inline void sl_oc_count(struct sl_keyed *t,
					const struct task_struct *tsk,
					u32 stack, u64 ns)
{
	struct sl_keyed_buf *b = sl_keyed_begin(t);
	bool fresh;
	u64 *v;

	if (!b)
		return;
	v = sl_keyed_row(t, b, sl_oc_key((u32)tsk->tgid, stack), &fresh);
	if (v) {
		if (fresh)
			sl_keyed_name((char *)&v[OV_PCOMM],
				      READ_ONCE(tsk->group_leader)->comm);
		v[OV_COUNT]++;
		v[OV_TIME] += ns;
		if (ns > v[OV_MAX])
			v[OV_MAX] = ns;
		v[OV_HIST + sl_keyed_bucket(ns)]++;
	}
	sl_keyed_end(b);
}

/*
 * A block over the threshold: its line names the thread that blocked, not
 * the waker (current); the stack's frames and the reason are named when
 * the line is read (_F_STACK: sl_oc_reason() as the pipeline's stack_where).
 * The thread's comm is read as get_task_comm() would without its lock: a
 * rename meanwhile shows half of either name, never past the array.
 */
static noinline void sl_oc_event(struct sl_pipeline *p,
				 const struct task_struct *t, u32 stack,
				 u64 t0, u64 now)
{
	struct sl_ev_obj o = {
		.flags = STACKLAT_EVENT_F_STACK,
		.stack = stack,
		.task = true,
		.tgid = (u32)READ_ONCE(t->tgid),
		.tid = (u32)READ_ONCE(t->pid),
		.comm = t->comm,
		.cgroup = sl_task_cgroup_id(t),
	};

	sl_event_emit_obj(p, OC_ST_OFFCPU, t0, now, &o);
}

/* sched_wakeup(p), sched_wakeup_new(p): on the waker's CPU */
static __always_inline int sl_oc_wakeup(struct sl_ev *ev,
					struct sl_flight_ent *unused)
{
	const struct task_struct *t = sl_ev_ptr(ev, 0);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	struct sl_keyed *k;
	u64 now = sl_ev_now(ev), t0, ns;
	u32 pid = (u32)READ_ONCE(t->pid), stack;

	if (!pid)
		return SL_KEEP;
	e = sl_chain_get(p, pid);
	if (!e)
		return SL_KEEP;		/* it did not block while we looked */
	/* a block begun before the filter changed: not let in either */
	if (!sl_filter_task_ok(p, t)) {
		sl_chain_remove(p, e, SL_LOSS_FILTERED);
		return SL_KEEP;
	}
	t0 = e->ts[OC_OFF];
	stack = (u32)e->aux[0];
	sl_chain_remove(p, e, SL_NO_LOSS);
	ns = now - t0;
	if (!t0) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return SL_KEEP;
	}
	if (!sl_record(p, OC_ST_OFFCPU, (s64)ns))
		return SL_KEEP;
	k = sl_pipeline_keyed(p);
	if (k)
		sl_oc_count(k, t, stack, ns);
	if (unlikely(sl_events_thresh(p)))
		sl_oc_event(p, t, stack, t0, now);
	return SL_KEEP;
}

/* sched_switch(preempt, prev, next[, prev_state]), in prev's context */
static __always_inline int sl_oc_switch(struct sl_ev *ev,
					struct sl_flight_ent *unused)
{
	const struct task_struct *prev = sl_ev_ptr(ev, 1);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	u32 pid = (u32)READ_ONCE(prev->pid);

	/* runnable, or preempted while setting a sleeping state: no block */
	if (!pid || sl_ev_arg(ev, 0) || sl_compat_task_running(prev))
		return SL_KEEP;
	if (!sl_filter_task_ok(p, prev)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return SL_KEEP;
	}
	e = sl_chain_start(p, pid, OC_OFF, sl_ev_now(ev));
	if (!e)
		return SL_KEEP;		/* counted by the table */
	/* the whole stack, from the probe's frames: trimmed when read */
	e->aux[0] = sl_stack_capture(p, 0, 0, 0);
	sl_chain_put(e);
	return SL_KEEP;
}

SL_SCHED_TPS(oc, sl_oc_wakeup, sl_oc_switch);

static struct sl_hook sl_oc_hooks[] = {
	SL_POINT("switch", sl_c_oc_switch, SL_ACT_NONE, OC_OFF, 0,
		 .post = sl_oc_switch),
	SL_POINT("wakeup", sl_c_oc_wakeup, SL_ACT_NONE, OC_WOKEN, 0,
		 .post = sl_oc_wakeup),
	SL_POINT("wakeup_new", sl_c_oc_wakeup_new, SL_ACT_NONE, OC_WOKEN, 0,
		 .post = sl_oc_wakeup),
	SL_POINT("process_exit", sl_c_oc_pexit, SL_ACT_FORGET, 0, SL_OBJ_TASK,
		 .pre = sl_pipeline_keyed_pexit),
};

/* ---- folding and reading (process context) ---------------------------- */

static void sl_oc_merge(u64 *dst, const u64 *src, unsigned int nvals,
			bool fresh)
{
	dst[OV_COUNT] += src[OV_COUNT];
	dst[OV_TIME] += src[OV_TIME];
	dst[OV_MAX] = max(dst[OV_MAX], src[OV_MAX]);
	if (src[OV_PCOMM])
		memcpy(&dst[OV_PCOMM], &src[OV_PCOMM], 16);
	sl_keyed_merge_hist(&dst[OV_HIST], &src[OV_HIST]);
}

static const struct sl_keyed_ops sl_oc_keyed_ops = {
	.merge = sl_oc_merge,
	.alive = sl_keyed_tgid_alive,
};

static void sl_oc_show(struct seq_file *m, u64 key, const u64 *v)
{
	char tot[16], avg[16], mx[16], pcomm[16];
	char reason[KSYM_SYMBOL_LEN];

	if (!v) {
		seq_printf(m, "%8s %-15s %6s %-28s %8s %9s %9s %9s  %s\n",
			   "tgid", "process", "stack", "reason", "blocks",
			   "total", "avg", "max",
			   "| off-CPU time from:count...");
		return;
	}
	sl_keyed_show_comm(pcomm, &v[OV_PCOMM]);
	sl_oc_reason(sl_oc_self, (u32)key, reason, sizeof(reason));
	sl_fmt_ns(tot, sizeof(tot), v[OV_TIME]);
	sl_fmt_ns(avg, sizeof(avg),
		  v[OV_COUNT] ? div64_u64(v[OV_TIME], v[OV_COUNT]) : 0);
	sl_fmt_ns(mx, sizeof(mx), v[OV_MAX]);
	seq_printf(m, "%8u %-15s %6u %-28s %8llu %9s %9s %9s  |",
		   sl_keyed_group(key), pcomm, (u32)key, reason, v[OV_COUNT],
		   tot, avg, mx);
	sl_keyed_show_hist(m, &v[OV_HIST]);
}

static int sl_oc_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, STACKLAT_OC_A_PAD);
}

/* One row for GET_KEYED (inside its STACKLAT_A_KEYED nest). */
static int sl_oc_put(struct sk_buff *skb, u64 key, const u64 *v)
{
	char pcomm[16], reason[KSYM_SYMBOL_LEN];

	memcpy(pcomm, &v[OV_PCOMM], sizeof(pcomm));
	pcomm[15] = '\0';
	sl_oc_reason(sl_oc_self, (u32)key, reason, sizeof(reason));
	if (nla_put_u32(skb, STACKLAT_OC_A_TGID, sl_keyed_group(key)) ||
	    nla_put_u32(skb, STACKLAT_OC_A_STACK_ID, (u32)key) ||
	    nla_put_string(skb, STACKLAT_OC_A_COMM, pcomm) ||
	    nla_put_string(skb, STACKLAT_OC_A_REASON, reason) ||
	    sl_oc_put_u64(skb, STACKLAT_OC_A_COUNT, v[OV_COUNT]) ||
	    sl_oc_put_u64(skb, STACKLAT_OC_A_TIME_NS, v[OV_TIME]) ||
	    sl_oc_put_u64(skb, STACKLAT_OC_A_MAX_NS, v[OV_MAX]))
		return -EMSGSIZE;
	return sl_keyed_put_hist(skb, STACKLAT_OC_A_HIST_FIRST,
				 STACKLAT_OC_A_HIST, &v[OV_HIST],
				 STACKLAT_SC_NBUCKETS);
}

/* ---- life ---------------------------------------------------------------- */

#define SL_OC_FOLD_MS	1000

/* The stack table and the rows come with the first enable. */
static int sl_oc_on_enable(struct sl_pipeline *p)
{
	int ret = sl_pipeline_stacks_enable(p);

	if (ret)
		return ret;
	return sl_pipeline_keyed_enable(p, OV_NVALS, &sl_oc_keyed_ops,
					SL_OC_FOLD_MS);
}

SL_PIPELINE(offcpu) = {
	.name = "offcpu",
	.desc = "off-CPU time (blocked to woken) per process and kernel stack, by reason: count, total, max, log2 histogram",
	.key = STACKLAT_KEY_TASK,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.hooks = sl_oc_hooks,
	.nhooks = ARRAY_SIZE(sl_oc_hooks),
	.stages = sl_oc_stages,
	.nstages = ARRAY_SIZE(sl_oc_stages),
	.setup = sl_oc_setup,
	.on_enable = sl_oc_on_enable,
	.on_disable = sl_pipeline_keyed_disable,
	.teardown = sl_pipeline_keyed_teardown,
	.keyed_show = sl_oc_show,
	.keyed_put = sl_oc_put,
	.stack_where = sl_oc_reason,
	.own_events = true,
};
