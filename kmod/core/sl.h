/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacklat internal interfaces: histograms, the in-flight table, hook
 * points and pipelines.
 */
#ifndef _STACKLAT_SL_H
#define _STACKLAT_SL_H

#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>
#include <linux/mutex.h>
#include <linux/timekeeping.h>
#include <linux/netlink.h>
#include <linux/sched.h>

#include "stacklat.h"
#include "stacklat_hist.h"

#define SL_VERSION	"0.1.0"

#define sl_info(fmt, ...)	pr_info("stacklat: " fmt, ##__VA_ARGS__)
#define sl_err(fmt, ...)	pr_err("stacklat: " fmt, ##__VA_ARGS__)

/*
 * The clock: ktime_get_mono_fast_ns(), CLOCK_MONOTONIC read without the
 * timekeeping seqcount (through its NMI-safe latch), so it is usable from
 * any context and never spins, even in a probe placed inside timekeeping
 * (the func pipeline allows any symbol).  It is one clock for all CPUs,
 * which matters because stages start on one CPU and end on another (a
 * packet received by softirq on CPU 0 and read by a task on CPU 1).
 * local_clock() was rejected: when the TSC is marked unstable the scheduler
 * clock is clamped to the last tick plus one tick period, so back-to-back
 * readings come out equal and cross-CPU deltas come out skewed - measured
 * here as zero-length kretprobe calls under QEMU.  Every delta is still
 * checked: a negative one, or one above max_delta_ms, is discarded and
 * counted as a bad delta, never recorded.
 */
static __always_inline u64 sl_now(void)
{
	return ktime_get_mono_fast_ns();
}

#define SL_CLOCK_NAME	"ktime_get_mono_fast_ns"

/* ---- histograms ------------------------------------------------------ */

struct sl_hist_cpu {
	u64 sum;
	u64 min;
	u64 max;
	u64 overflow;
	u64 buckets[STACKLAT_HIST_NBUCKETS];
};

struct sl_hist {
	struct sl_hist_cpu __percpu *pcpu;
};

/* A histogram summed over all CPUs, for readers. */
struct sl_hist_sum {
	u64 count;
	u64 sum;
	u64 min;
	u64 max;
	u64 overflow;
	u64 buckets[STACKLAT_HIST_NBUCKETS];
};

int sl_hist_init(struct sl_hist *h);
void sl_hist_free(struct sl_hist *h);
void sl_hist_reset(struct sl_hist *h);
void sl_hist_read(const struct sl_hist *h, struct sl_hist_sum *out);
u64 sl_hist_pct(const struct sl_hist_sum *s, u32 pct);

/* The update path: a handful of this_cpu ops, no atomics, no locks. */
static __always_inline void sl_hist_add(struct sl_hist *h, u64 v)
{
	struct sl_hist_cpu __percpu *p = h->pcpu;
	u32 b = stacklat_hist_bucket(v);

	if (likely(b < STACKLAT_HIST_NBUCKETS))
		this_cpu_inc(p->buckets[b]);
	else
		this_cpu_inc(p->overflow);
	this_cpu_add(p->sum, v);
	if (v < this_cpu_read(p->min))
		this_cpu_write(p->min, v);
	if (v > this_cpu_read(p->max))
		this_cpu_write(p->max, v);
}

/* ---- loss counters ---------------------------------------------------- */

enum sl_loss {
	SL_LOSS_TABLE_FULL,
	SL_LOSS_STALE,
	SL_LOSS_BAD_DELTA,
	SL_LOSS_UNMATCHED,
	SL_LOSS_FILTERED,
	SL_LOSS_DROPPED,
	SL_LOSS_NR
};

struct sl_losses {
	u64 v[SL_LOSS_NR];
};

/* ---- in-flight table -------------------------------------------------- */

#define SL_FLIGHT_NTS	12	/* timestamps (hook points) per entry */

/*
 * One in-flight object.  @key is 0 when the slot is free and is claimed with
 * cmpxchg; a pipeline never stores a point index >= SL_FLIGHT_NTS.
 */
struct sl_flight_ent {
	u64 key;
	u64 born;
	u64 ts[SL_FLIGHT_NTS];
	u64 aux[2];
};

struct sl_flight_stats {
	u32 size;
	u32 used;
	u64 max_age_ns;
	u64 inserts;
	u64 full;
	u64 stale;
};

int sl_flight_init(unsigned int entries, u64 max_age_ns);
void sl_flight_exit(void);
u64 sl_flight_key(unsigned int pipe_id, unsigned long ident);
struct sl_flight_ent *sl_flight_insert(u64 key, u64 now, bool *stale);
struct sl_flight_ent *sl_flight_lookup(u64 key);
bool sl_flight_remove(struct sl_flight_ent *e, u64 key);
void sl_flight_stats(struct sl_flight_stats *st);
void sl_flight_flush(unsigned int pipe_id);
int sl_flight_next(unsigned int *pos, struct sl_flight_ent *out);

/* ---- filters ---------------------------------------------------------- */

/* Which filter keys a pipeline honours. */
#define SL_F_TGID	BIT(0)
#define SL_F_TID	BIT(1)
#define SL_F_LPORT	BIT(2)
#define SL_F_RPORT	BIT(3)
#define SL_F_PROTO	BIT(4)
#define SL_F_IFINDEX	BIT(5)
#define SL_F_DEV	BIT(6)
#define SL_F_OP		BIT(7)
#define SL_F_FS		BIT(8)

/* A value of 0 matches anything. */
struct sl_filter {
	u32 tgid;
	u32 tid;
	u16 lport;
	u16 rport;
	u8 proto;
	u32 ifindex;
	u32 dev;
	u32 op;
	u32 fs;			/* filesystem magic (storage) */
};

struct sl_pipeline;
int sl_filter_parse(struct sl_pipeline *p, char *args, struct sl_filter *f);
int sl_filter_from_nla(struct sl_pipeline *p, const struct nlattr *nla,
		       struct sl_filter *f, struct netlink_ext_ack *extack);
int sl_filter_fmt(const struct sl_filter *f, char *buf, size_t len);

/* ---- hook points ------------------------------------------------------ */

/*
 * One way of attaching a hook point.  A tracepoint candidate gives its probe
 * function (prototype void fn(void *data, TP_PROTO...), data is the struct
 * sl_hook); a kprobe candidate a pre-handler; a kretprobe candidate an entry
 * and/or return handler and the per-instance data size.
 */
struct sl_cand {
	u32 kind;			/* enum stacklat_hook_kind */
	const char *target;		/* tracepoint name or symbol */
	void *tp_probe;
	kprobe_pre_handler_t pre;
	kretprobe_handler_t entry;
	kretprobe_handler_t ret;
	size_t data_size;
};

#define SL_TP(name, fn) \
	{ .kind = STACKLAT_HOOK_KIND_TRACEPOINT, .target = name, .tp_probe = fn }
#define SL_KP(sym, fn) \
	{ .kind = STACKLAT_HOOK_KIND_KPROBE, .target = sym, .pre = fn }
#define SL_KRP(sym, e, r, sz) \
	{ .kind = STACKLAT_HOOK_KIND_KRETPROBE, .target = sym, .entry = e, \
	  .ret = r, .data_size = sz }

struct sl_hook {
	const char *name;		/* the hook point, e.g. "ip_rcv" */
	const struct sl_cand *cands;	/* in order of preference */
	unsigned int ncands;
	bool optional;			/* absence is expected on some kernels */

	/* runtime state, under sl_lock */
	struct sl_pipeline *pipe;
	u32 state;			/* enum stacklat_hook_state */
	int err;			/* errno (positive) of the last failure */
	int cand;			/* index of the resolved candidate, or -1 */
	struct tracepoint *tp;
	struct kprobe kp;
	struct kretprobe krp;
	u64 __percpu *hits;
	u64 nmissed_acc;		/* nmissed of earlier registrations */
};

/* The hook a probe handler runs for. */
static inline struct sl_hook *sl_hook_of_kp(struct kprobe *kp)
{
	return container_of(kp, struct sl_hook, kp);
}

/*
 * A kretprobe handler's hook.  The kernel does not call the candidate's
 * handlers directly but hook.c's trampolines, which find the hook with a
 * NULL check (see sl_krp_entry()) and leave it here for the handler.
 */
DECLARE_PER_CPU(struct sl_hook *, sl_ri_hook);

static inline struct sl_hook *sl_hook_of_ri(struct kretprobe_instance *ri)
{
	return this_cpu_read(sl_ri_hook);
}

static __always_inline void sl_hook_hit(struct sl_hook *hk)
{
	this_cpu_inc(*hk->hits);
}

int sl_hook_init(struct sl_hook *hk, struct sl_pipeline *p);
void sl_hook_free(struct sl_hook *hk);
int sl_hook_resolve(struct sl_hook *hk);
int sl_hook_arm(struct sl_hook *hk);
void sl_hook_disarm(struct sl_hook *hk);
void sl_hooks_resolve(struct sl_hook *hooks, unsigned int n);
void sl_hooks_disarm(struct sl_hook *hooks, unsigned int n);
u64 sl_hook_hits(const struct sl_hook *hk);
u64 sl_hook_nmissed(const struct sl_hook *hk);
const char *sl_hook_target(const struct sl_hook *hk);
u32 sl_hook_kind(const struct sl_hook *hk);
bool sl_hook_skipped(const char *pipe, const char *hook, const char *target);
int sl_skip_validate(void);

/* ---- pipelines -------------------------------------------------------- */

struct sl_stage {
	char name[STACKLAT_NAME_MAX];
	const char *from;		/* hook point names, for the reader */
	const char *to;
	u8 from_pt;			/* point (timestamp slot) indices */
	u8 to_pt;
};

struct sl_pipeline {
	const char *name;
	const char *desc;
	u32 key;			/* enum stacklat_key */
	u32 filter_caps;		/* SL_F_* this pipeline honours */
	struct sl_hook *hooks;
	unsigned int nhooks;
	struct sl_stage *stages;
	unsigned int nstages;		/* may change under sl_lock (func) */
	unsigned int max_stages;	/* histograms allocated */

	/* optional callbacks, all under sl_lock */
	int (*setup)(struct sl_pipeline *p);
	void (*teardown)(struct sl_pipeline *p);
	int (*on_enable)(struct sl_pipeline *p);
	void (*on_disable)(struct sl_pipeline *p);
	/* describe a live in-flight entry (debugfs "inflight"); optional */
	void (*flight_fmt)(const struct sl_pipeline *p,
			   const struct sl_flight_ent *e, u64 now, char *buf,
			   size_t len);

	/* runtime */
	unsigned int id;
	bool enabled;			/* READ_ONCE in handlers */
	u64 generation;
	struct sl_filter filter;	/* fields READ_ONCE in handlers */
	struct sl_hist *hists;		/* max_stages */
	struct sl_losses __percpu *loss;
};

#define SL_MAX_PIPELINES	16

extern struct mutex sl_lock;
extern struct sl_pipeline *sl_pipelines[];
extern unsigned int sl_nr_pipelines;
extern u32 sl_dump_seq;
extern u64 sl_max_delta_ns;

struct sl_pipeline *sl_pipeline_find(const char *name);
int sl_pipelines_init(void);
void sl_pipelines_exit(void);
int sl_pipeline_enable(struct sl_pipeline *p, bool on);
void sl_pipeline_reset(struct sl_pipeline *p);
void sl_pipeline_set_filter(struct sl_pipeline *p, const struct sl_filter *f);
void sl_pipeline_losses(struct sl_pipeline *p, struct sl_losses *out);
int sl_pipelines_enable_list(const char *list);

static __always_inline bool sl_on(const struct sl_pipeline *p)
{
	return READ_ONCE(p->enabled);
}

static __always_inline void sl_loss(struct sl_pipeline *p, enum sl_loss l)
{
	this_cpu_inc(p->loss->v[l]);
}

/* Record one sample @delta of stage @stage, checking it is plausible. */
static __always_inline void sl_record(struct sl_pipeline *p, unsigned int stage,
				      s64 delta)
{
	if (unlikely(delta < 0 || (u64)delta > sl_max_delta_ns)) {
		sl_loss(p, SL_LOSS_BAD_DELTA);
		return;
	}
	sl_hist_add(&p->hists[stage], (u64)delta);
}

/* The calling task passes the pipeline's tgid/tid filter. */
static __always_inline bool sl_task_ok(const struct sl_pipeline *p)
{
	u32 tgid = READ_ONCE(p->filter.tgid);
	u32 tid = READ_ONCE(p->filter.tid);

	if (tgid && tgid != (u32)current->tgid)
		return false;
	if (tid && tid != (u32)current->pid)
		return false;
	return true;
}

/*
 * Chains: an object (skb, request, task) followed across hook points.  Point
 * indices are the timestamp slots of struct sl_flight_ent.  sl_chain_end()
 * records every stage of the pipeline whose two points were both passed and
 * frees the entry.
 */
struct sl_flight_ent *sl_chain_start(struct sl_pipeline *p, unsigned long ident,
				     unsigned int pt, u64 now);
struct sl_flight_ent *sl_chain_mark(struct sl_pipeline *p, unsigned long ident,
				    unsigned int pt, u64 now);
bool sl_chain_end(struct sl_pipeline *p, unsigned long ident, unsigned int pt,
		  u64 now);
void sl_chain_record(struct sl_pipeline *p, const struct sl_flight_ent *e);
bool sl_chain_drop(struct sl_pipeline *p, unsigned long ident);

/* ---- reading ---------------------------------------------------------- */

int sl_debugfs_init(void);
void sl_debugfs_exit(void);
int sl_netlink_init(void);
void sl_netlink_exit(void);
int sl_control_exec(char *line, struct netlink_ext_ack *extack);
void sl_fmt_ns(char *buf, size_t len, u64 ns);

/* ---- the func pipeline ------------------------------------------------ */

extern struct sl_pipeline sl_pipe_func;

/* ---- the other pipelines (pipelines/) ----------------------- */

extern struct sl_pipeline sl_pipe_net_rx;
extern struct sl_pipeline sl_pipe_net_tx;
extern struct sl_pipeline sl_pipe_storage;
extern struct sl_pipeline sl_pipe_block;
int sl_func_add(const char *sym, struct netlink_ext_ack *extack);
int sl_func_del(const char *sym, struct netlink_ext_ack *extack);

#endif /* _STACKLAT_SL_H */
