/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pipelines' lifecycle (pipeline.c), process context under sl_lock:
 * setup at load, enable (arm with the gate closed, then open it), disable
 * (close, disarm, synchronise, flush), reset, filter, the keyed tables'
 * life, the age sweep, and what a module going away takes with it.
 */
#ifndef _STACKLAT_PIPELINE_H
#define _STACKLAT_PIPELINE_H

#include <linux/compiler.h>
#include <linux/mutex.h>

#include "types.h"

struct sl_keyed_ops;
struct sl_stacks;
struct netlink_ext_ack;
struct stacklat_event;

/*
 * A pipeline's definition, struct sl_pipeline sl_pipe_<name>, declared
 * first (pipelines/all.c lists it, and a global wants a declaration
 * before its definition):
 *
 *	SL_PIPELINE(conn) = { .name = "conn", ... };
 */
#define SL_PIPELINE(name)						\
	extern struct sl_pipeline sl_pipe_##name;			\
	struct sl_pipeline sl_pipe_##name

extern struct mutex sl_lock;
extern struct sl_pipeline *const *sl_pipelines;
extern unsigned int sl_nr_pipelines;
extern u32 sl_dump_seq;

struct sl_pipeline *sl_pipeline_find(const char *name);
int sl_pipelines_init(struct sl_pipeline *const *list, unsigned int n);
void sl_pipelines_exit(void);
int sl_pipeline_enable(struct sl_pipeline *p, bool on);
void sl_pipeline_reset(struct sl_pipeline *p);
/* A keyed table's life, for on_enable (a wrapper), on_disable, teardown. */
int sl_pipeline_keyed_enable(struct sl_pipeline *p, unsigned int nvals,
			     const struct sl_keyed_ops *ops,
			     unsigned int fold_ms);
/* The pipeline's keyed table, NULL before it is made (any context). */
static __always_inline struct sl_keyed *
sl_pipeline_keyed(const struct sl_pipeline *p)
{
	return READ_ONCE(p->priv.keyed);
}

void sl_pipeline_keyed_disable(struct sl_pipeline *p);
void sl_pipeline_keyed_teardown(struct sl_pipeline *p);
/*
 * For a keyed pipeline whose rows are grouped by process (tgid): its
 * process_exit point's pre (sched_process_exit(p[, group_dead]), in the
 * exiting thread's own context, group_dead its argument 1): the last
 * thread of a process the filter lets in notes that its rows may age out.
 */
int sl_pipeline_keyed_pexit(struct sl_ev *ev);
/* ops->alive for such rows (process context): is @tgid still there? */
bool sl_keyed_tgid_alive(u32 tgid);
/*
 * A pipeline that captures kernel stacks (sl_stack_capture()): its table,
 * stack_slots= stacks of stack_depth= frames, made on its first enable
 * (from on_enable); reset with the pipeline, shown in status and the
 * "stacks" file and GET_STACKS, freed at unload.
 */
int sl_pipeline_stacks_enable(struct sl_pipeline *p);
/* The pipeline's stack table, NULL before it is made. */
static __always_inline struct sl_stacks *
sl_pipeline_stacks(const struct sl_pipeline *p)
{
	return READ_ONCE(p->priv.stacks);
}
/*
 * Process context, by a reader of the events (debugfs, netlink) after
 * sl_events_take(): what @ev's pipeline names from its stack (_F_STACK),
 * into its where[] (_F_WHERE), when the pipeline names one.
 */
void sl_pipeline_ev_name(struct stacklat_event *ev);
/*
 * A pipeline with stack_points: take stacks at its points (@on) or stop;
 * the first "on" makes its stack table (may fail: -ENOMEM).  Others:
 * -EOPNOTSUPP, said.  sl_lock held; sl_pipeline_stacks_check() checks
 * only.
 */
int sl_pipeline_stacks_check(const struct sl_pipeline *p,
			     struct netlink_ext_ack *extack);
int sl_pipeline_stacks_set(struct sl_pipeline *p, bool on,
			   struct netlink_ext_ack *extack);
/* Probe context: are stacks asked for at @p's points? */
static __always_inline bool sl_pipeline_stacks_on(const struct sl_pipeline *p)
{
	return READ_ONCE(p->priv.stacks_on);
}
void sl_pipeline_set_filter(struct sl_pipeline *p, const struct sl_filter *f);
int sl_pipeline_set_threshold(struct sl_pipeline *p, u64 ns,
			      struct netlink_ext_ack *extack);
/* sample PIPELINE N, or auto OBJECTS (@budget; sample.h checks it) */
int sl_pipeline_set_sample(struct sl_pipeline *p, u32 n, u32 budget,
			   struct netlink_ext_ack *extack);

void sl_pipeline_losses(struct sl_pipeline *p, struct sl_losses *out);
int sl_pipelines_enable_list(const char *list);
u64 sl_pipeline_mem(const struct sl_pipeline *p);
unsigned int sl_pipeline_hist_copies(const struct sl_pipeline *p);
u64 sl_pipeline_mem_all(struct sl_pipeline *p);
u64 sl_pipeline_mem_cpu(const struct sl_pipeline *p);
int sl_modules_watch(void);
void sl_modules_unwatch(void);
void sl_sweep_start(u64 stale_ns);
void sl_sweep_stop(void);

/* The sizes of keyed tables (main.c's parameters). */
extern unsigned int sl_keyed_rows;
extern unsigned int sl_keyed_cpu_rows;
extern u64 sl_keyed_linger_ns;

/* points added and removed at run time (func add, del) */
int sl_point_add(struct sl_pipeline *p, struct sl_hook *hk,
		 const struct sl_cand *cands, unsigned int n,
		 unsigned int stage);
void sl_point_del(struct sl_pipeline *p, struct sl_hook *hk);
/*
 * Can the user-space point "/PATH:0xOFFSET" be probed: 0, or -ENOENT (no
 * such file), -ENOEXEC (not a regular file), -ERANGE (the offset is past
 * its end), another lookup error (core/hook_uprobe.c).
 */
int sl_uprobe_check(const char *target);
int sl_pipeline_point(struct sl_pipeline *p, bool add, const char *arg,
		      struct netlink_ext_ack *extack);

#endif /* _STACKLAT_PIPELINE_H */
