// SPDX-License-Identifier: GPL-2.0
/*
 * syscalls: every system call, per process and per syscall - how many
 * returned, how many failed and with which errno, their total time and a
 * log2 histogram of their latency - in the engine's keyed aggregation
 * (core/keyed.c), and the latency of all of them as the one stage
 * "syscall" (sys_enter -> sys_exit).
 *
 * Points (the raw_syscalls tracepoints, and the scheduler's exit):
 *   sys_enter      START the thread's chain (the in-flight table, keyed by
 *                  thread): the entry time
 *   sys_exit       the chain, if any, gives the time; the call is counted
 *                  in the row of (tgid, ABI, number) either way: a call
 *                  with no entry time (under way when the pipeline was
 *                  enabled, or longer than stale_ms so its entry was
 *                  reclaimed, or the in-flight table was full) is counted
 *                  "untimed", never dropped.  exit and exit_group never
 *                  return: not counted.  Sampling ("sample syscalls N")
 *                  follows one call in N per CPU from sys_enter: the rows
 *                  still count every call, the others untimed.
 *   process_exit   sched_process_exit: the thread's chain is forgotten (it
 *                  entered exit or exit_group), and when it was the last
 *                  thread of its process, the process's rows are noted to
 *                  age out (keyed_linger_ms after the next fold).
 *
 * A row is (tgid, ABI, number).  ABIs are counted apart (enum
 * stacklat_sc_abi): an i386 call (a 32-bit process, or int 0x80 from a
 * 64-bit one) or an x32 call has its own row, since its number names
 * another call than the same number in the 64-bit table.  Failures are
 * return values -4095..-1; each row keeps STACKLAT_SC_ERRNOS errnos apart
 * (the first ones seen in each fold period, merged), the others in
 * "other".  The comm is the process's (its group leader's), taken when a
 * row is first used in a CPU's buffer.  The cgroup (v2 id) is the
 * process's at the row's last call: a process moved to another cgroup
 * keeps its rows, which follow it (the key has no room for a 64-bit id;
 * the tool's --by cgroup folds rows by it).
 *
 * Filters: tgid, tid.  The syscall tracepoints may run with preemption on
 * (faultable from 6.13): the probes turn it off around the dispatcher
 * (SL_TP_DEFINE_FAULTABLE).
 */
#include <linux/compat.h>
#include <linux/err.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <net/netlink.h>
#include <asm/syscall.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>

#include "sl.h"

enum { SC_ENTER, SC_EXIT };

/* A row's values (keyed.h: value 0 is its weight, the calls). */
enum {
	SV_COUNT,
	SV_ERRORS,
	SV_TIME,
	SV_UNTIMED,
	SV_MAX,
	SV_ERRNO,				/* errno << 48 | count */
	SV_ERRNO_OTHER = SV_ERRNO + STACKLAT_SC_ERRNOS,
	SV_COMM,				/* 16 bytes */
	SV_HIST = SV_COMM + 2,
	SV_CGROUP = SV_HIST + STACKLAT_SC_NBUCKETS,	/* of the last call */
	SV_NVALS
};

#define SC_ERRNO_SHIFT	SL_KEYED_ERRNO_SHIFT
#define SC_COUNT_MASK	SL_KEYED_ERRNO_COUNT
#define SC_KEY_VALID	BIT(31)
#define SC_ABI_SHIFT	28

static struct sl_stage sl_sc_stages[] = {
	{ "syscall", "sys_enter", "sys_exit", SC_ENTER, SC_EXIT },
};

/* (tgid, ABI, number) as a key; the tgid is its group (keyed.h) */
static __always_inline u64 sl_sc_key(u32 tgid, u32 abi, u32 nr)
{
	return (u64)tgid << 32 | SC_KEY_VALID | abi << SC_ABI_SHIFT | nr;
}

/* The ABI of the call under way, and its number in that ABI. */
static __always_inline u32 sl_sc_abi(long *nr)
{
#ifdef __X32_SYSCALL_BIT
	if (*nr >= 0 && (*nr & __X32_SYSCALL_BIT)) {
		*nr &= ~(long)__X32_SYSCALL_BIT;
		return STACKLAT_SC_ABI_X32;
	}
#endif
	return in_compat_syscall() ? STACKLAT_SC_ABI_COMPAT :
				     STACKLAT_SC_ABI_NATIVE;
}

/* The process's name into a fresh row (no lock, no call: a probe). */
static __always_inline void sl_sc_comm(u64 *v)
{
	const struct task_struct *g = READ_ONCE(current->group_leader);

	sl_keyed_name((char *)&v[SV_COMM], g->comm);
}

static __always_inline void sl_sc_errno(u64 *v, u64 err)
{
	v[SV_ERRORS]++;
	sl_keyed_errno_add(&v[SV_ERRNO], &v[SV_ERRNO_OTHER], err, 1);
}

/* Count one returned call in its row of this CPU's buffer. */
static __always_inline void sl_sc_count(struct sl_keyed *t, u64 key, long ret,
					bool timed, u64 ns)
{
	struct sl_keyed_buf *b = sl_keyed_begin(t);
	bool fresh;
	u64 *v;

	if (!b)
		return;
	v = sl_keyed_row(t, b, key, &fresh);
	if (v) {
		if (fresh)
			sl_sc_comm(v);
		v[SV_CGROUP] = sl_task_cgroup_id(current);
		v[SV_COUNT]++;
		if (ret < 0 && ret >= -MAX_ERRNO)
			sl_sc_errno(v, (u64)-ret);
		if (timed) {
			v[SV_TIME] += ns;
			if (ns > v[SV_MAX])
				v[SV_MAX] = ns;
			v[SV_HIST + sl_keyed_bucket(ns)]++;
		} else {
			v[SV_UNTIMED]++;
		}
	}
	sl_keyed_end(b);
}

/* sys_enter(regs, id): the thread's chain starts, carrying the number */
static int sl_sc_enter(struct sl_ev *ev)
{
	return sl_task_ok(ev->p) ? 0 : -1;
}

/* sys_exit(regs, ret), before the table: the filter */
static int sl_sc_exit_ok(struct sl_ev *ev)
{
	if (sl_task_ok(ev->p))
		return 0;
	sl_loss(ev->p, SL_LOSS_FILTERED);
	return -1;
}

static int sl_sc_exit(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct sl_pipeline *p = ev->p;
	struct sl_keyed *t = sl_pipeline_keyed(p);
	struct pt_regs *regs = sl_ev_ptr(ev, 0);
	long ret = (long)sl_ev_arg(ev, 1);
	long nr = syscall_get_nr(current, regs);
	struct sl_flight_ent *e;
	bool timed = false;
	u64 ns = 0, t0;
	u32 abi;

	e = sl_chain_get(p, ev->ident);
	if (e) {
		t0 = e->ts[SC_ENTER];
		e->ts[SC_EXIT] = sl_ev_now(ev);
		ns = e->ts[SC_EXIT] - t0;
		timed = t0 && (s64)ns >= 0 && ns <= sl_max_delta_ns;
		/* the stage, and a slow event above the threshold */
		sl_chain_finish(p, e);
	} else if (!sl_sample_skips(p)) {
		/* while sampling, a call not followed has no chain */
		sl_loss(p, SL_LOSS_UNMATCHED);
	}
	if (!t)
		return SL_KEEP;
	abi = sl_sc_abi(&nr);
	if (abi == STACKLAT_SC_ABI_COMPAT)
		ret = (long)(int)ret;
	if (nr < 0 || nr >= STACKLAT_SC_NR_INVALID)
		nr = STACKLAT_SC_NR_INVALID;
	sl_sc_count(t, sl_sc_key((u32)current->tgid, abi, (u32)nr), ret, timed,
		    ns);
	return SL_KEEP;
}


/*
 * The raw syscall probes: the kernel may call them preemptible (they may
 * fault, 6.13), and SL_TP_DEFINE_FAULTABLE turns preemption off around
 * the dispatcher there: the keyed buffers are per CPU, and a fold waits
 * for the updates with synchronize_rcu().
 */
SL_TP_DEFINE_FAULTABLE(sys_enter, (struct pt_regs *regs, long id),
		       (unsigned long)regs, (unsigned long)id)
SL_TP_DEFINE_FAULTABLE(sys_exit, (struct pt_regs *regs, long ret),
		       (unsigned long)regs, (unsigned long)ret)
SL_TP_DEFINE(sched_process_exit, (SL_COMPAT_PROCESS_EXIT_ARGS),
	     (unsigned long)p, (unsigned long)sl_compat_group_dead(p))

static const struct sl_cand sl_c_sc_enter[] = { SL_TPD(sys_enter) };
static const struct sl_cand sl_c_sc_exit[] = { SL_TPD(sys_exit) };
static const struct sl_cand sl_c_sc_pexit[] = { SL_TPD(sched_process_exit) };

static struct sl_hook sl_sc_hooks[] = {
	SL_POINT("sys_enter", sl_c_sc_enter, SL_ACT_START, SC_ENTER,
		 SL_OBJ_TASK, .pre = sl_sc_enter),
	SL_POINT("sys_exit", sl_c_sc_exit, SL_ACT_NONE, SC_EXIT, SL_OBJ_TASK,
		 .pre = sl_sc_exit_ok, .post = sl_sc_exit),
	SL_POINT("process_exit", sl_c_sc_pexit, SL_ACT_FORGET, 0, SL_OBJ_TASK,
		 .pre = sl_pipeline_keyed_pexit),
};

/* ---- folding and reading (process context) ---------------------------- */

static void sl_sc_merge(u64 *dst, const u64 *src, unsigned int nvals,
			bool fresh)
{
	dst[SV_COUNT] += src[SV_COUNT];
	dst[SV_ERRORS] += src[SV_ERRORS];
	dst[SV_TIME] += src[SV_TIME];
	dst[SV_UNTIMED] += src[SV_UNTIMED];
	dst[SV_MAX] = max(dst[SV_MAX], src[SV_MAX]);
	dst[SV_ERRNO_OTHER] += src[SV_ERRNO_OTHER];
	sl_keyed_errno_merge(&dst[SV_ERRNO], &dst[SV_ERRNO_OTHER],
			     &src[SV_ERRNO]);
	/* the newest name (a process that ran exec is named anew) */
	if (src[SV_COMM])
		memcpy(&dst[SV_COMM], &src[SV_COMM], 16);
	sl_keyed_merge_hist(&dst[SV_HIST], &src[SV_HIST]);
	/* the newest cgroup: a CPU's buffer that counted a call has one */
	if (src[SV_COUNT])
		dst[SV_CGROUP] = src[SV_CGROUP];
}

static const struct sl_keyed_ops sl_sc_keyed_ops = {
	.merge = sl_sc_merge,
	.alive = sl_keyed_tgid_alive,
};

static const char * const sl_sc_abi_names[__STACKLAT_SC_ABI_MAX] = {
	[STACKLAT_SC_ABI_NATIVE] = "64",
	[STACKLAT_SC_ABI_COMPAT] = "32",
	[STACKLAT_SC_ABI_X32] = "x32",
};

static u32 sl_sc_key_abi(u64 key)
{
	return (key >> SC_ABI_SHIFT) & 3;
}

static u32 sl_sc_key_nr(u64 key)
{
	return (u32)key & STACKLAT_SC_NR_INVALID;
}

/*
 * The debugfs table's rows: numbers, not names (the tool names them); a
 * name's blanks and unprintable bytes as '?', so that columns stay columns.
 */
static void sl_sc_show(struct seq_file *m, u64 key, const u64 *v)
{
	char tot[16], avg[16], mx[16], comm[16];
	u64 timed;
	unsigned int i;
	u32 abi;

	if (!v) {
		seq_printf(m, "%8s %-15s %3s %5s %10s %8s %9s %9s %9s %8s %10s  %s\n",
			   "tgid", "comm", "abi", "nr", "count", "errors",
			   "total", "avg", "max", "untimed", "cgroup",
			   "errno:count... | latency from:count...");
		return;
	}
	abi = sl_sc_key_abi(key);
	timed = v[SV_COUNT] - v[SV_UNTIMED];
	sl_keyed_show_comm(comm, &v[SV_COMM]);
	sl_fmt_ns(tot, sizeof(tot), v[SV_TIME]);
	sl_fmt_ns(avg, sizeof(avg), timed ? div64_u64(v[SV_TIME], timed) : 0);
	sl_fmt_ns(mx, sizeof(mx), v[SV_MAX]);
	seq_printf(m, "%8u %-15s %3s %5u %10llu %8llu %9s %9s %9s %8llu %10llu ",
		   sl_keyed_group(key), comm,
		   abi < __STACKLAT_SC_ABI_MAX ? sl_sc_abi_names[abi] : "?",
		   sl_sc_key_nr(key), v[SV_COUNT], v[SV_ERRORS], tot, avg, mx,
		   v[SV_UNTIMED], v[SV_CGROUP]);
	for (i = 0; i < STACKLAT_SC_ERRNOS && v[SV_ERRNO + i]; i++)
		seq_printf(m, " %llu:%llu", v[SV_ERRNO + i] >> SC_ERRNO_SHIFT,
			   v[SV_ERRNO + i] & SC_COUNT_MASK);
	if (v[SV_ERRNO_OTHER])
		seq_printf(m, " other:%llu", v[SV_ERRNO_OTHER]);
	seq_puts(m, " |");
	sl_keyed_show_hist(m, &v[SV_HIST]);
}

static int sl_sc_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, STACKLAT_SC_A_PAD);
}

/* One row for GET_KEYED (inside its STACKLAT_A_KEYED nest). */
static int sl_sc_put(struct sk_buff *skb, u64 key, const u64 *v)
{
	unsigned int i;
	struct nlattr *nest;
	char comm[16];

	memcpy(comm, &v[SV_COMM], sizeof(comm));
	comm[15] = '\0';
	if (nla_put_u32(skb, STACKLAT_SC_A_TGID, sl_keyed_group(key)) ||
	    nla_put_string(skb, STACKLAT_SC_A_COMM, comm) ||
	    nla_put_u32(skb, STACKLAT_SC_A_ABI, sl_sc_key_abi(key)) ||
	    nla_put_u32(skb, STACKLAT_SC_A_NR, sl_sc_key_nr(key)) ||
	    sl_sc_put_u64(skb, STACKLAT_SC_A_COUNT, v[SV_COUNT]) ||
	    sl_sc_put_u64(skb, STACKLAT_SC_A_ERRORS, v[SV_ERRORS]) ||
	    sl_sc_put_u64(skb, STACKLAT_SC_A_TIME_NS, v[SV_TIME]) ||
	    sl_sc_put_u64(skb, STACKLAT_SC_A_UNTIMED, v[SV_UNTIMED]) ||
	    sl_sc_put_u64(skb, STACKLAT_SC_A_MAX_NS, v[SV_MAX]) ||
	    sl_sc_put_u64(skb, STACKLAT_SC_A_ERRNO_OTHER, v[SV_ERRNO_OTHER]) ||
	    sl_sc_put_u64(skb, STACKLAT_SC_A_CGROUP_ID, v[SV_CGROUP]))
		return -EMSGSIZE;
	for (i = 0; i < STACKLAT_SC_ERRNOS && v[SV_ERRNO + i]; i++) {
		nest = nla_nest_start(skb, STACKLAT_SC_A_ERRNO);
		if (!nest ||
		    nla_put_u32(skb, STACKLAT_SC_ERRNO_A_ERRNO,
				(u32)(v[SV_ERRNO + i] >> SC_ERRNO_SHIFT)) ||
		    nla_put_u64_64bit(skb, STACKLAT_SC_ERRNO_A_COUNT,
				      v[SV_ERRNO + i] & SC_COUNT_MASK,
				      STACKLAT_SC_ERRNO_A_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return sl_keyed_put_hist(skb, STACKLAT_SC_A_HIST_FIRST,
				 STACKLAT_SC_A_HIST, &v[SV_HIST],
				 STACKLAT_SC_NBUCKETS);
}

/* ---- life ---------------------------------------------------------------- */

#define SL_SC_FOLD_MS	1000

/* The rows come with the first enable; disabling folds the last. */
static int sl_sc_on_enable(struct sl_pipeline *p)
{
	return sl_pipeline_keyed_enable(p, SV_NVALS, &sl_sc_keyed_ops,
					SL_SC_FOLD_MS);
}

SL_PIPELINE(syscalls) = {
	.name = "syscalls",
	.desc = "system calls per process and syscall: count, errors by errno, time, log2 latency",
	.key = STACKLAT_KEY_TASK,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.sampling = true,		/* a call, at sys_enter */
	.hooks = sl_sc_hooks,
	.nhooks = ARRAY_SIZE(sl_sc_hooks),
	.stages = sl_sc_stages,
	.nstages = ARRAY_SIZE(sl_sc_stages),
	.on_enable = sl_sc_on_enable,
	.on_disable = sl_pipeline_keyed_disable,
	.teardown = sl_pipeline_keyed_teardown,
	.keyed_show = sl_sc_show,
	.keyed_put = sl_sc_put,
	.own_events = true,
};
