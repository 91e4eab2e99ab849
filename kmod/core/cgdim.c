// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cgroup totals: a breakdown dimension (dim.c) keyed by the cgroup v2
 * id of the task an object ends in.  A slot is claimed in probe context
 * and named after the id ("cg<ID>.total": a path cannot be had without
 * sleeping there; the tool names it by its path).  No notifier tells a
 * module that a cgroup was removed: a slot is released lazily, in process
 * context with sl_lock held, when its id no longer resolves
 * (cgroup_get_from_id(), exported where compat-probe.sh finds it
 * declared; without it slots are never recycled and status says so):
 * before the stages are read (debugfs, netlink) and at each age sweep.
 * The slots' histograms follow the pipeline's own (p->max_stages grows by
 * SL_DIM_SLOTS + 1 at setup), so reset, memory and freeing need nothing.
 * They are kept only while asked for (control "cgtotals PIPELINE on",
 * SET_PIPELINE's STACKLAT_A_CGTOTALS): off, the end of an object costs
 * no cgroup lookup and no second histogram.
 */
#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cgdim.h"
#include "fmt.h"

unsigned int sl_cgdim_slots = SL_DIM_SLOTS;

/*
 * The key of a slot cgroup_slots= leaves unused: never a cgroup's id,
 * neither free (0) nor being released (SL_DIM_DYING, which a release
 * frees), so no claim takes it and no release frees it.
 */
#define SL_CGDIM_OFF	(SL_DIM_DYING - 1)

static const char *const sl_cgdim_suffix[] = { ".total" };
static const char *const sl_cgdim_pts[] = { "first point" };
static const char *const sl_cgdim_end[] = { "last point" };

/* A pipeline's stage @i: its own, then its cgroup slots; NULL between. */
const struct sl_stage *sl_stage_at(const struct sl_pipeline *p,
				   unsigned int i)
{
	const struct sl_cgdim *cg = p->priv.cg;

	if (i < p->nstages)
		return &p->stages[i];
	if (cg && i >= cg->d.first && i <= cg->d.first + SL_DIM_SLOTS)
		return &cg->stages[i - cg->d.first];
	return NULL;
}

/* One past the last stage sl_stage_at() may give. */
unsigned int sl_stage_end(const struct sl_pipeline *p)
{
	return p->priv.cg ? p->max_stages : p->nstages;
}

/* Probe context: claim a slot for @id, named "cg<ID>" (digits by hand). */
u32 sl_cgdim_claim(struct sl_cgdim *cg, u64 id)
{
	char name[24], digits[21];
	unsigned int n = 0, k = 0;
	u64 v = id;

	if (!id)
		return SL_DIM_OTHER;
	do {
		digits[n++] = '0' + (char)(v % 10);
		v /= 10;
	} while (v && n < sizeof(digits));
	name[k++] = 'c';
	name[k++] = 'g';
	while (n)
		name[k++] = digits[--n];
	name[k] = '\0';
	return sl_dim_tag(&cg->d, id, name);
}

/*
 * At setup, before the histograms are allocated (sl_lock held): the
 * slots' stages after the pipeline's, the first sl_cgdim_slots of them
 * usable (the rest held by SL_CGDIM_OFF); 0 slots: off.
 */
int sl_cgdim_init(struct sl_pipeline *p)
{
	struct sl_cgdim *cg;
	unsigned int i;

	if (!p->cgroup_totals || !sl_cgdim_slots)
		return 0;
	cg = kzalloc(sizeof(*cg), GFP_KERNEL);
	if (!cg)
		return -ENOMEM;
	sl_dim_init(&cg->d, cg->stages, 0, 1, sl_cgdim_suffix, sl_cgdim_pts,
		    sl_cgdim_end);
	/* the histograms' index: after the pipeline's own */
	cg->d.first = p->max_stages;
	strscpy(cg->stages[SL_DIM_SLOTS].name, "cg-other.total",
		sizeof(cg->stages[0].name));
	for (i = min_t(unsigned int, sl_cgdim_slots, SL_DIM_SLOTS);
	     i < SL_DIM_SLOTS; i++)
		cg->d.key[i] = SL_CGDIM_OFF;
	p->max_stages += SL_DIM_SLOTS + 1;
	p->priv.cg = cg;
	return 0;
}

/* cgtotals PIPELINE on|off: can @p keep them?  (sl_lock held) */
int sl_cgdim_check(const struct sl_pipeline *p,
		   struct netlink_ext_ack *extack)
{
	if (p->priv.cg)
		return 0;
	sl_compat_err_msg_name(extack, NULL, "no cgroup totals in pipeline",
			       p->name);
	if (p->cgroup_totals)
		sl_err("cgtotals %s: no slots (the module was loaded with cgroup_slots=0)\n",
		       p->name);
	else
		sl_err("cgtotals %s: %s keeps no per-cgroup totals (func and storage do)\n",
		       p->name, p->name);
	return -EOPNOTSUPP;
}

/*
 * sl_lock held.  On: the next object ends into its cgroup's slot; off:
 * a handler that read the slots before may still record one object.
 */
int sl_cgdim_set(struct sl_pipeline *p, bool on,
		 struct netlink_ext_ack *extack)
{
	int ret = sl_cgdim_check(p, extack);

	if (ret)
		return ret;
	WRITE_ONCE(p->priv.cg_live, on ? p->priv.cg : NULL);
	return 0;
}

/* After the pipeline's last handler has run (teardown). */
void sl_cgdim_free(struct sl_pipeline *p)
{
	p->priv.cg_live = NULL;
	kfree(p->priv.cg);
	p->priv.cg = NULL;
}

/* Are the slots of removed cgroups released on this kernel? */
bool sl_cgdim_recycles(void)
{
#ifdef COMPAT_HAS_CGROUP_GET_FROM_ID
	return true;
#else
	return false;
#endif
}

/* Does cgroup v2 id @id still name a cgroup?  (process context) */
static bool sl_cgdim_alive(u64 id)
{
#ifdef COMPAT_HAS_CGROUP_GET_FROM_ID
	struct cgroup *c = cgroup_get_from_id(id);

	if (IS_ERR_OR_NULL(c))
		return false;
	cgroup_put(c);
#endif
	return true;
}

/*
 * Process context, sl_lock held: release the slots of cgroups removed
 * since (their histograms emptied, the slot free for the next cgroup).
 */
void sl_cgdim_sweep(struct sl_pipeline *p)
{
	struct sl_cgdim *cg = p->priv.cg;
	unsigned int i;
	u64 k;

	if (!cg)
		return;
	for (i = 0; i < SL_DIM_SLOTS; i++) {
		k = READ_ONCE(cg->d.key[i]);
		if (k && k < SL_CGDIM_OFF && !sl_cgdim_alive(k))
			sl_dim_release(p, &cg->d, k);
	}
}
