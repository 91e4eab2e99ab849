/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels stacklat supports lives here, behind
 * a wrapper named for what it does.  The rest of the module never tests a
 * kernel version.  This header is force-included into every object by Kbuild.
 *
 * The differences are detected, not assumed: Kbuild runs compat-probe.sh
 * over the target kernel's headers and passes one -DCOMPAT_<capability> per
 * thing it found (a declaration, a struct member, a tracepoint prototype).
 * Distribution and stable kernels backport API changes, so a version number
 * says little: the block_rq_* tracepoints lost their queue argument in
 * 5.10.137, not 5.11.  A version is compared only where nothing can be
 * probed, with a comment saying why.
 *
 * Each flag below names the first upstream release that has the capability;
 * compat-probe.sh is run on every header set of the test matrix (5.10, 6.1,
 * 6.1-rt, 6.12, 7.3 booted; 7.2 and 7.3-rt built) and the flags each set
 * gets are listed in docs/kernels.md.
 */
#ifndef _STACKLAT_COMPAT_H
#define _STACKLAT_COMPAT_H

#include <linux/version.h>

#ifdef COMPAT_PROBE_FAILED
#error "stacklat: compat-probe.sh could not read this kernel's headers (include/linux/kprobes.h, include/trace/events/skb.h)"
#endif

/*
 * The supported range: the oldest and newest kernels stacklat is built and
 * tested on.  Nothing in the headers says "too old" or "too new", so this
 * is a version check: outside it, the probes above have not been checked
 * against real headers (a header that moved could silently read as a
 * missing capability).  The newest bound is the newest major.minor built
 * (7.3); raise it after a build and a run on the newer kernel.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "stacklat supports Linux 5.10 to 7.3: this kernel is older"
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 4, 0)
#error "stacklat supports Linux 5.10 to 7.3: this kernel is newer, and untested"
#endif

#ifndef __ASSEMBLY__
#include <linux/kprobes.h>
#include <net/netlink.h>

/*
 * ri->rp became get_kretprobe(ri) in 5.11 (COMPAT_HAS_GET_KRETPROBE).  It
 * can read NULL (SL_KRP_MAY_VANISH) only where it reads ri->rph->rp, which
 * unregister_kretprobe() clears: not where kretprobes run on rethook
 * (CONFIG_KRETPROBE_ON_RETHOOK, in the target's configuration), whose
 * get_kretprobe() reads rethook->data, set once at registration, nor on
 * 5.10, whose ri->rp never changes.
 */
#if defined(COMPAT_HAS_GET_KRETPROBE) && !defined(CONFIG_KRETPROBE_ON_RETHOOK)
#define SL_KRP_MAY_VANISH	1
#else
#define SL_KRP_MAY_VANISH	0
#endif

/*
 * kallsyms_lookup_name() scans every symbol where the kernel cannot search
 * names sorted at build time (COMPAT_HAS_KALLSYMS_NAME_SEARCH): there a
 * kretprobe's trial by name costs three scans, which the kprobe backend
 * makes one (hook_kprobe.c); elsewhere that would cost one more
 * registration, whose check of the jump labels (an instruction decode of
 * each) is the dearer part of a registration on those kernels.
 */
#ifdef COMPAT_HAS_KALLSYMS_NAME_SEARCH
#define SL_KALLSYMS_SCAN	0
#else
#define SL_KALLSYMS_SCAN	1
#endif

static inline struct kretprobe *sl_compat_kretprobe(struct kretprobe_instance *ri)
{
#ifdef COMPAT_HAS_GET_KRETPROBE
	return get_kretprobe(ri);
#else
	return ri->rp;
#endif
}

/*
 * The ftrace backend of function-entry points (core/hook.c): an
 * ftrace_ops callback with saved registers and ftrace's own per-context
 * recursion lock.  Needs the callback prototype with struct ftrace_regs,
 * ftrace_test_recursion_trylock() and ftrace_free_filter()
 * (COMPAT_HAS_FTRACE_OPS_REGS) and a kernel that saves registers at
 * function entry; elsewhere those points stay kprobes.
 */
#if defined(COMPAT_HAS_FTRACE_OPS_REGS) && \
	defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS) && defined(CONFIG_KPROBES_ON_FTRACE)
#define SL_HAVE_FTRACE	1
#include <linux/ftrace.h>
#include <linux/trace_recursion.h>

static __always_inline struct pt_regs *
sl_compat_ftrace_pt_regs(struct ftrace_regs *fregs)
{
	return ftrace_get_regs(fregs);
}
#endif

/*
 * The ftrace backend of return points (core/hook.c): an fprobe, whose
 * entry handler runs under ftrace's per-context recursion lock and whose
 * exit handler gets the entry's own bytes, where its handlers get pt_regs
 * (COMPAT_FPROBE_PT_REGS: the rethook-based fprobe, 6.2 to 6.13).
 *
 * The function-graph based fprobe (COMPAT_FPROBE_FTRACE_REGS, 6.14 and
 * later) is not used: fgraph hands out its ops indexes round-robin and
 * marks every frame with bit 0, so once fprobe's graph ops is registered
 * again at index 0, a call still in flight from a registration at another
 * index (a task asleep in a probed function across a disable and enable)
 * returns into fprobe_return() with no data for index 0, which warns
 * (fprobe.c:676 in 7.3; 16-krp-toggle hit it within 20 cycles).  Return
 * points stay kretprobes there.
 */
#if defined(CONFIG_FPROBE) && defined(COMPAT_FPROBE_PT_REGS)
#define SL_HAVE_FPROBE	1
#include <linux/fprobe.h>

static inline void sl_compat_fprobe_maxactive(struct fprobe *fp, int n)
{
#ifdef COMPAT_FPROBE_HAS_NR_MAXACTIVE
	fp->nr_maxactive = n;
#endif
}
#endif

/*
 * How the kernel calls tracepoint probes.  To 6.12 every probe runs with
 * preemption off (__DO_TRACE's preempt_disable_notrace()).  7.x calls
 * them under SRCU (guard(srcu_fast_notrace), COMPAT_TP_PROBES_PREEMPTIBLE)
 * and, from 6.13, syscall tracepoints, which may fault, under RCU tasks
 * trace (COMPAT_TP_SYSCALL_PROBES_PREEMPTIBLE): preemptible, and the
 * kernel's own probes turn preemption off themselves.  So do stacklat's
 * (SL_TP_DEFINE*, core/dispatch.h), only where the kernel does not: a constant
 * 0 compiles the two calls out.
 */
#ifdef COMPAT_TP_PROBES_PREEMPTIBLE
#define SL_TP_PREEMPTIBLE		1
#else
#define SL_TP_PREEMPTIBLE		0
#endif
#if defined(COMPAT_TP_SYSCALL_PROBES_PREEMPTIBLE) || SL_TP_PREEMPTIBLE
#define SL_TP_SYSCALL_PREEMPTIBLE	1
#else
#define SL_TP_SYSCALL_PREEMPTIBLE	0
#endif

/*
 * A probe for a tracepoint named at run time (sl_tp_any(), a span's
 * point) cannot have the tracepoint's prototype; it is called through a
 * pointer of the tracepoint's type.  That is sound on the C calling
 * conventions of the kernel's architectures (the arguments in registers,
 * the caller's to clean up) except under the control-flow integrity that
 * checks a pointer's type at each indirect call (Clang's kCFI:
 * CONFIG_CFI_CLANG, CONFIG_CFI since 6.18), which would trap: there such
 * points are refused.
 */
#if defined(CONFIG_CFI_CLANG) || defined(CONFIG_CFI)
#define SL_TP_UNTYPED_OK		0
#else
#define SL_TP_UNTYPED_OK		1
#endif

/* nla_strlcpy() was renamed nla_strscpy() in 5.11 (and returns -E2BIG). */
static inline ssize_t sl_compat_nla_strscpy(char *dst, const struct nlattr *nla,
					    size_t size)
{
#ifdef COMPAT_HAS_NLA_STRSCPY
	return nla_strscpy(dst, nla, size);
#else
	size_t n = nla_strlcpy(dst, nla, size);

	return n >= size ? -E2BIG : (ssize_t)n;
#endif
}

/*
 * An extack message naming @name (NUL-terminated), @attr the attribute at
 * fault.  Messages formatted at run time (NL_SET_ERR_MSG_FMT, 6.2); before,
 * only the fixed text @msg is sent, with @attr pointing at the name.
 * Also since 6.2 the start callback of a dump sees the request's extack:
 * before, cb->extack is NULL there and only the errno reaches user space.
 */
#ifdef COMPAT_HAS_NL_SET_ERR_MSG_FMT
#define sl_compat_err_msg_name(extack, attr, msg, name) do {	\
	NL_SET_ERR_MSG_FMT(extack, msg " '%s'", name);		\
	NL_SET_BAD_ATTR(extack, attr);				\
} while (0)
#else
#define sl_compat_err_msg_name(extack, attr, msg, name)		\
	NL_SET_ERR_MSG_ATTR(extack, attr, msg)
#endif

/* ---- storage (pipelines/storage.c) --------------------------------------------
 *
 * Each tracepoint probe in pipelines/storage.c is also type-checked at build
 * time against the kernel's own register_trace_*() declaration, so a
 * prototype that drifts is a build error, never a crash.
 */

/* The bio tracepoints (block_bio_queue, block_bio_backmerge/frontmerge,
 * block_split) lost their request_queue argument in 5.11.
 */
#ifdef COMPAT_BLOCK_BIO_TP_HAS_QUEUE
#define SL_COMPAT_BIO_TP_ARGS(bio)	struct request_queue *q, struct bio *bio
#else
#define SL_COMPAT_BIO_TP_ARGS(bio)	struct bio *bio
#endif
#ifdef COMPAT_BLOCK_MERGE_TP_HAS_QUEUE
#define SL_COMPAT_MERGE_TP_ARGS(bio)	struct request_queue *q, \
					struct request *rq, struct bio *bio
#else
#define SL_COMPAT_MERGE_TP_ARGS(bio)	struct bio *bio
#endif
#ifdef COMPAT_BLOCK_SPLIT_TP_HAS_QUEUE
#define SL_COMPAT_SPLIT_TP_ARGS(bio)	struct request_queue *q, \
					struct bio *bio, unsigned int new_sector
#else
#define SL_COMPAT_SPLIT_TP_ARGS(bio)	struct bio *bio, unsigned int new_sector
#endif

/*
 * The request tracepoints (block_rq_insert/issue/requeue/merge) lost their
 * request_queue argument in 5.11, and in the 5.10.137 stable release.
 * pipelines/storage.c takes the request only: 5.10.0 to 5.10.136 are not
 * supported (Debian's bullseye kernel has been past 5.10.137 since 2022).
 */
#ifdef COMPAT_BLOCK_RQ_TP_HAS_QUEUE
#error "stacklat: this kernel's block_rq_* tracepoints still pass a request_queue (before 5.10.137): not supported"
#endif

/* block_rq_complete's error became a blk_status_t in 5.16. */
#ifdef COMPAT_BLOCK_RQ_COMPLETE_TP_HAS_BLK_STATUS
#define SL_COMPAT_RQ_COMPLETE_ERR	blk_status_t
#else
#define SL_COMPAT_RQ_COMPLETE_ERR	int
#endif

#ifdef COMPAT_BLOCK_BIO_COMPLETE_TP_UNKNOWN
#error "stacklat: block_bio_complete's prototype is not (struct request_queue *q, struct bio *bio)"
#endif

/* The gendisk of a bio: bio->bi_disk became bio->bi_bdev->bd_disk in 5.12. */
#ifdef COMPAT_BIO_HAS_BI_DISK
#define sl_compat_bio_disk(bio)	((bio)->bi_disk)
#else
#define sl_compat_bio_disk(bio)	((bio)->bi_bdev->bd_disk)
#endif

/* What req_op() and bio_op() return: enum req_op (6.0) or enum req_opf. */
#include <linux/blk_types.h>
#ifdef COMPAT_HAS_ENUM_REQ_OP
#define sl_compat_req_op_t enum req_op
#else
#define sl_compat_req_op_t enum req_opf
#endif

/* The gendisk of a request: rq->rq_disk went away in 5.17 for rq->q->disk. */
#ifdef COMPAT_REQUEST_HAS_RQ_DISK
#define sl_compat_rq_disk(rq)	((rq)->rq_disk)
#else
#define sl_compat_rq_disk(rq)	((rq)->q->disk)
#endif

/*
 * The dev_t of the block device at @path (filter "dev=vda"): lookup_bdev()
 * returned a referenced block_device until 5.11, fills a dev_t since.
 */
#ifdef COMPAT_LOOKUP_BDEV_HAS_DEV_T
#define sl_compat_lookup_bdev(path, devp)	lookup_bdev(path, devp)
#else
#define sl_compat_lookup_bdev(path, devp) ({				\
	struct block_device *__b = lookup_bdev(path);			\
	int __r = PTR_ERR_OR_ZERO(__b);					\
									\
	if (!__r) {							\
		*(devp) = __b->bd_dev;					\
		bdput(__b);						\
	}								\
	__r;								\
})
#endif

/* ---- end of storage ---------------------------------------------------- */

/* ---- network (pipelines/net.c) -------------------------------------------------
 *
 * pipelines/net.c type-checks every tracepoint probe against the kernel's
 * own register_trace_*() declaration at build time, so a prototype that
 * drifts is a build error, never a crash.  The prototypes it writes out
 * (net_dev_*, netif_receive_skb) are checked by compat-probe.sh too, so
 * that a new one is named here.
 */
#if defined(COMPAT_NET_DEV_QUEUE_TP_UNKNOWN) || \
	defined(COMPAT_NET_DEV_START_XMIT_TP_UNKNOWN) || \
	defined(COMPAT_NET_DEV_XMIT_TP_UNKNOWN) || \
	defined(COMPAT_NETIF_RECEIVE_SKB_TP_UNKNOWN)
#error "stacklat: a net_dev_* or netif_receive_skb tracepoint has a prototype pipelines/net.c does not know"
#endif

/* kfree_skb's tracepoint grew a drop reason in 5.17 and an sk in 6.11,
 * made const in 7.x.
 */
#if defined(COMPAT_KFREE_SKB_TP_HAS_CONST_RX_SK)
#define SL_COMPAT_KFREE_SKB_ARGS	struct sk_buff *skb, void *location, \
					enum skb_drop_reason reason, \
					const struct sock *rx_sk
#elif defined(COMPAT_KFREE_SKB_TP_HAS_RX_SK)
#define SL_COMPAT_KFREE_SKB_ARGS	struct sk_buff *skb, void *location, \
					enum skb_drop_reason reason, \
					struct sock *rx_sk
#elif defined(COMPAT_KFREE_SKB_TP_HAS_REASON)
#define SL_COMPAT_KFREE_SKB_ARGS	struct sk_buff *skb, void *location, \
					enum skb_drop_reason reason
#else
#define SL_COMPAT_KFREE_SKB_ARGS	struct sk_buff *skb, void *location
#endif

/* consume_skb's tracepoint grew a location argument in 6.3. */
#ifdef COMPAT_CONSUME_SKB_TP_HAS_LOCATION
#define SL_COMPAT_CONSUME_SKB_ARGS	struct sk_buff *skb, void *location
#else
#define SL_COMPAT_CONSUME_SKB_ARGS	struct sk_buff *skb
#endif

/* ---- scheduler (pipelines/reqresp.c) -------------------------------------- */

/* sched_switch's tracepoint gained the previous task's state in 5.18. */
#if defined(COMPAT_SCHED_SWITCH_TP_UNKNOWN) || \
	defined(COMPAT_SCHED_WAKING_TP_UNKNOWN)
#error "stacklat: sched_switch or sched_waking has a prototype pipelines/reqresp.c does not know"
#endif
#ifdef COMPAT_SCHED_SWITCH_TP_HAS_PREV_STATE
#define SL_COMPAT_SCHED_SWITCH_ARGS	bool preempt, struct task_struct *prev, \
					struct task_struct *next, \
					unsigned int prev_state
#else
#define SL_COMPAT_SCHED_SWITCH_ARGS	bool preempt, struct task_struct *prev, \
					struct task_struct *next
#endif

/*
 * Whether task @t is runnable (TASK_RUNNING: on a runqueue, or on its
 * CPU): the kernel's task_is_running(), on ->__state from 5.14, ->state
 * before (pipelines/sched.c).  sched_wakeup and sched_wakeup_new take the
 * woken task alone on every kernel known; compat-probe.sh checks it.
 */
#if defined(COMPAT_TASK_STATE_UNKNOWN) || \
	defined(COMPAT_SCHED_WAKEUP_TP_UNKNOWN)
#error "stacklat: the task's state or sched_wakeup is not what pipelines/sched.c knows"
#endif
#ifdef COMPAT_TASK_STATE_IS___STATE
#define sl_compat_task_running(t)	(READ_ONCE((t)->__state) == TASK_RUNNING)
#else
#define sl_compat_task_running(t)	(READ_ONCE((t)->state) == TASK_RUNNING)
#endif

/*
 * lock:contention_begin(lock, flags) and contention_end(lock, ret), 5.19
 * (COMPAT_HAS_LOCK_CONTENTION_TP): without them the lock pipeline's points
 * have no candidate and are "not available" (pipelines/lock.c).
 */
#ifdef COMPAT_LOCK_CONTENTION_TP_UNKNOWN
#error "stacklat: lock:contention_begin or contention_end has a prototype pipelines/lock.c does not know"
#endif

/*
 * sched_process_exit tells whether the thread was the last of its process
 * (group_dead) in 7.x; before, the probe reads the signal struct's count
 * of live threads, which do_exit() decremented before the tracepoint.
 */
#ifdef COMPAT_SCHED_PROCESS_EXIT_TP_UNKNOWN
#error "stacklat: sched_process_exit has a prototype pipelines/syscalls.c does not know"
#endif
#ifdef COMPAT_SCHED_PROCESS_EXIT_TP_HAS_GROUP_DEAD
#define SL_COMPAT_PROCESS_EXIT_ARGS	struct task_struct *p, bool group_dead
#define sl_compat_group_dead(p)		group_dead
#else
#define SL_COMPAT_PROCESS_EXIT_ARGS	struct task_struct *p
#define sl_compat_group_dead(p)		(atomic_read(&(p)->signal->live) == 0)
#endif

/* ---- end of network ---------------------------------------------------- */

/* ---- interrupts (pipelines/irq.c) ------------------------------------------
 *
 * The irq_handler_* and softirq_* prototypes irq.c writes out have been the
 * same on every kernel of the range; compat-probe.sh checks them, so that a
 * new one is named here rather than failing deep in irq.c (whose probes
 * are type-checked against register_trace_*() as well).
 */
#if defined(COMPAT_IRQ_HANDLER_ENTRY_TP_UNKNOWN) || \
	defined(COMPAT_IRQ_HANDLER_EXIT_TP_UNKNOWN) || \
	defined(COMPAT_SOFTIRQ_TP_UNKNOWN)
#error "stacklat: irq_handler_entry/exit or softirq_entry/exit has a prototype pipelines/irq.c does not know"
#endif

/*
 * The names of the softirq vectors, as /proc/softirqs prints them.  The
 * kernel's own table, softirq_to_name[] (kernel/softirq.c), is declared
 * in <linux/interrupt.h> but exported to modules by no kernel of the range
 * (it is not in any Module.symvers): hence this copy, indexed by the
 * kernel's own enum, so that a reordering cannot misname a vector.  A
 * vector this table does not know (a kernel that adds one) is left NULL
 * and named "softirq<N>" by irq.c.  An initialiser for a
 * const char *[NR_SOFTIRQS]; needs <linux/interrupt.h>.
 */
#define SL_COMPAT_SOFTIRQ_NAMES {					\
	[HI_SOFTIRQ] = "HI",						\
	[TIMER_SOFTIRQ] = "TIMER",					\
	[NET_TX_SOFTIRQ] = "NET_TX",					\
	[NET_RX_SOFTIRQ] = "NET_RX",					\
	[BLOCK_SOFTIRQ] = "BLOCK",					\
	[IRQ_POLL_SOFTIRQ] = "IRQ_POLL",				\
	[TASKLET_SOFTIRQ] = "TASKLET",					\
	[SCHED_SOFTIRQ] = "SCHED",					\
	[HRTIMER_SOFTIRQ] = "HRTIMER",					\
	[RCU_SOFTIRQ] = "RCU",						\
}

/* ---- end of interrupts ------------------------------------------------- */

/*
 * The unbound system workqueue: system_dfl_wq (7.x warns at queueing on
 * system_unbound_wq), system_unbound_wq before it.
 */
#include <linux/workqueue.h>
#ifdef COMPAT_HAS_SYSTEM_DFL_WQ
#define sl_compat_unbound_wq	system_dfl_wq
#else
#define sl_compat_unbound_wq	system_unbound_wq
#endif

/* ---- uprobes (core/hook_uprobe.c) ------------------------------------- */

/*
 * uprobe_register() returned an int and uprobe_unregister() took the
 * inode and offset back, synchronising itself, until 6.12; since then it
 * returns the uprobe (an ERR_PTR on failure), which is given back to
 * uprobe_unregister_nosync(), and uprobe_unregister_sync() waits for the
 * handlers (COMPAT_UPROBE_REGISTER_RETURNS_UPROBE).  The handlers gained
 * a session cookie in 6.13 (COMPAT_UPROBE_HANDLER_HAS_DATA), which
 * stacklat does not use (it is not on the older kernels): SL_UP_HANDLER
 * and SL_UP_RET_HANDLER declare a handler either way.
 */
#include <linux/uprobes.h>
#include <linux/err.h>

#ifdef COMPAT_UPROBE_HANDLER_HAS_DATA
#define SL_UP_HANDLER(name, uc, regs)					\
	int name(struct uprobe_consumer *uc, struct pt_regs *regs,	\
		 __u64 *data)
#define SL_UP_RET_HANDLER(name, uc, func, regs)				\
	int name(struct uprobe_consumer *uc, unsigned long func,	\
		 struct pt_regs *regs, __u64 *data)
#else
#define SL_UP_HANDLER(name, uc, regs)					\
	int name(struct uprobe_consumer *uc, struct pt_regs *regs)
#define SL_UP_RET_HANDLER(name, uc, func, regs)				\
	int name(struct uprobe_consumer *uc, unsigned long func,	\
		 struct pt_regs *regs)
#endif

struct sl_compat_uprobe {
	struct inode *inode;
	loff_t offset;
#ifdef COMPAT_UPROBE_REGISTER_RETURNS_UPROBE
	struct uprobe *up;
#endif
};

static inline int sl_compat_uprobe_register(struct sl_compat_uprobe *u,
					    struct uprobe_consumer *uc)
{
#ifdef COMPAT_UPROBE_REGISTER_RETURNS_UPROBE
	u->up = uprobe_register(u->inode, u->offset, 0, uc);
	return PTR_ERR_OR_ZERO(u->up);
#else
	return uprobe_register(u->inode, u->offset, uc);
#endif
}

/* Unregister and wait until no handler of @uc runs. */
static inline void sl_compat_uprobe_unregister(struct sl_compat_uprobe *u,
					       struct uprobe_consumer *uc)
{
#ifdef COMPAT_UPROBE_REGISTER_RETURNS_UPROBE
	uprobe_unregister_nosync(u->up, uc);
	uprobe_unregister_sync();
#else
	uprobe_unregister(u->inode, u->offset, uc);
#endif
}

#endif /* __ASSEMBLY__ */
#endif /* _STACKLAT_COMPAT_H */
