/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pipeline's filter (struct sl_filter, types.h): parsed and printed by
 * filter.c, and the task test every probe of a task-filtered row makes.
 */
#ifndef _STACKLAT_FILTER_H
#define _STACKLAT_FILTER_H

#include <linux/sched.h>
#include <linux/cgroup.h>

#include "types.h"

struct nlattr;
struct netlink_ext_ack;

struct sl_pipeline;
int sl_filter_parse(struct sl_pipeline *p, char *args, struct sl_filter *f);
int sl_filter_from_nla(struct sl_pipeline *p, const struct nlattr *nla,
		       struct sl_filter *f, struct netlink_ext_ack *extack);
int sl_filter_fmt(const struct sl_filter *f, char *buf, size_t len);

/* The pipeline's filter, for probes: read each field with READ_ONCE(). */
static __always_inline const struct sl_filter *
sl_filter_of(const struct sl_pipeline *p)
{
	return &p->priv.filter;
}

/*
 * The id of task @t's cgroup in the v2 hierarchy (0 without cgroups):
 * probe context, any task.  t->cgroups is RCU-protected; with preemption
 * off this is an RCU read-side section (one RCU flavour since 5.0), and
 * the css_set and its cgroup stay while it lasts.
 */
static __always_inline u64 sl_task_cgroup_id(const struct task_struct *t)
{
	u64 id = 0;
#ifdef CONFIG_CGROUPS
	const struct css_set *cs;
	struct cgroup *cg;

	preempt_disable_notrace();
	cs = rcu_dereference_raw(t->cgroups);
	cg = cs ? READ_ONCE(cs->dfl_cgrp) : NULL;
	if (cg)
		id = cgroup_id(cg);
	preempt_enable_notrace();
#endif
	return id;
}

/*
 * Task @t passes the pipeline's tgid/tid/cgroup filter (sched: not
 * current).  cgroup=: the task's own cgroup, not an ancestor of it.
 */
static __always_inline bool sl_filter_task_ok(const struct sl_pipeline *p,
					      const struct task_struct *t)
{
	u32 tgid = READ_ONCE(p->priv.filter.tgid);
	u32 tid = READ_ONCE(p->priv.filter.tid);
	u64 cg = READ_ONCE(p->priv.filter.cgroup);

	if (tgid && tgid != (u32)READ_ONCE(t->tgid))
		return false;
	if (tid && tid != (u32)READ_ONCE(t->pid))
		return false;
	if (unlikely(cg) && cg != sl_task_cgroup_id(t))
		return false;
	return true;
}

/* A task filter (tgid=, tid= or cgroup=) is set. */
static __always_inline bool sl_filter_tasks(const struct sl_pipeline *p)
{
	return READ_ONCE(p->priv.filter.tgid) || READ_ONCE(p->priv.filter.tid) ||
	       READ_ONCE(p->priv.filter.cgroup);
}

/* The calling task passes the pipeline's tgid/tid/cgroup filter. */
static __always_inline bool sl_task_ok(const struct sl_pipeline *p)
{
	return sl_filter_task_ok(p, current);
}

#endif /* _STACKLAT_FILTER_H */
