/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-cgroup totals (cgdim.c): a pipeline that sets cgroup_totals gets
 * the total of every object it ends also kept per cgroup v2 of the task
 * it ends in, in bounded slots (a breakdown dimension, dim.h) named
 * "cg<ID>.total", "cg-other.total" beyond them.  The engine keeps them:
 * the pipeline only opts in, and the operator turns them on
 * (sl_cgdim_set(): off at load, they cost a cgroup lookup and a second
 * histogram at the end of every object).
 */
#ifndef _STACKLAT_CGDIM_H
#define _STACKLAT_CGDIM_H

#include "types.h"
#include "dim.h"
#include "filter.h"

struct sl_cgdim {
	struct sl_dim d;
	struct sl_stage stages[SL_DIM_SLOTS + 1];
};

extern unsigned int sl_cgdim_slots;	/* main.c's cgroup_slots= */

int sl_cgdim_init(struct sl_pipeline *p);
void sl_cgdim_free(struct sl_pipeline *p);
void sl_cgdim_sweep(struct sl_pipeline *p);
int sl_cgdim_check(const struct sl_pipeline *p,
		   struct netlink_ext_ack *extack);
int sl_cgdim_set(struct sl_pipeline *p, bool on,
		 struct netlink_ext_ack *extack);
bool sl_cgdim_recycles(void);
unsigned int sl_stage_end(const struct sl_pipeline *p);
const struct sl_stage *sl_stage_at(const struct sl_pipeline *p,
				   unsigned int i);
u32 sl_cgdim_claim(struct sl_cgdim *cg, u64 id);

/*
 * Probe context: the stage of current's cgroup in @cg (claiming a slot on
 * first sight: sl_cgdim_claim() names it), "other" beyond the slots or
 * without cgroup v2.
 */
static __always_inline unsigned int sl_cgdim_stage(struct sl_cgdim *cg)
{
	u64 id = sl_task_cgroup_id(current);
	u32 tag = sl_dim_find(&cg->d, id);

	if (tag == SL_DIM_NONE)
		tag = sl_cgdim_claim(cg, id);
	return sl_dim_stage(&cg->d, tag);
}

#endif /* _STACKLAT_CGDIM_H */
