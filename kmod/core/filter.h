/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pipeline's filter (struct sl_filter, types.h): parsed and printed by
 * filter.c, and the task test every probe of a task-filtered row makes.
 */
#ifndef _STACKLAT_FILTER_H
#define _STACKLAT_FILTER_H

#include <linux/sched.h>

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

/* Task @t passes the pipeline's tgid/tid filter (sched: not current). */
static __always_inline bool sl_filter_task_ok(const struct sl_pipeline *p,
					      const struct task_struct *t)
{
	u32 tgid = READ_ONCE(p->priv.filter.tgid);
	u32 tid = READ_ONCE(p->priv.filter.tid);

	if (tgid && tgid != (u32)READ_ONCE(t->tgid))
		return false;
	if (tid && tid != (u32)READ_ONCE(t->pid))
		return false;
	return true;
}

/* The calling task passes the pipeline's tgid/tid filter. */
static __always_inline bool sl_task_ok(const struct sl_pipeline *p)
{
	return sl_filter_task_ok(p, current);
}

#endif /* _STACKLAT_FILTER_H */
