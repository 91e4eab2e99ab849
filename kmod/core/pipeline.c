// SPDX-License-Identifier: GPL-2.0
/*
 * Pipelines: tables of hook points and the stages measured between them.
 * Everything that changes a pipeline runs under sl_lock in process context;
 * handlers only read the enabled flag and the filter.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/rcupdate.h>

#include "sl.h"

DEFINE_MUTEX(sl_lock);

/* Bumped on every reset, enable, disable or func change: dumps compare it. */
u32 sl_dump_seq = 1;

struct sl_pipeline *sl_pipelines[] = {
	&sl_pipe_func,
	&sl_pipe_net_rx,
	&sl_pipe_net_tx,
	&sl_pipe_storage,
	&sl_pipe_block,
};

unsigned int sl_nr_pipelines = ARRAY_SIZE(sl_pipelines);

struct sl_pipeline *sl_pipeline_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < sl_nr_pipelines; i++)
		if (!strcmp(sl_pipelines[i]->name, name))
			return sl_pipelines[i];
	return NULL;
}

static void sl_pipeline_free(struct sl_pipeline *p)
{
	unsigned int i;

	if (p->hists) {
		for (i = 0; i < p->max_stages; i++)
			sl_hist_free(&p->hists[i]);
		kfree(p->hists);
		p->hists = NULL;
	}
	for (i = 0; i < p->nhooks; i++)
		sl_hook_free(&p->hooks[i]);
	free_percpu(p->loss);
	p->loss = NULL;
}

static int sl_pipeline_setup(struct sl_pipeline *p, unsigned int id)
{
	unsigned int i;
	int ret;

	p->id = id;
	p->enabled = false;
	p->generation = 1;
	if (!p->max_stages)
		p->max_stages = p->nstages;
	p->loss = alloc_percpu(struct sl_losses);
	p->hists = kcalloc(p->max_stages, sizeof(*p->hists), GFP_KERNEL);
	if (!p->loss || !p->hists)
		goto nomem;
	for (i = 0; i < p->max_stages; i++)
		if (sl_hist_init(&p->hists[i]))
			goto nomem;
	for (i = 0; i < p->nhooks; i++) {
		ret = sl_hook_init(&p->hooks[i], p);
		if (ret)
			goto nomem;
	}
	if (p->setup) {
		ret = p->setup(p);
		if (ret)
			goto err;
	}
	sl_hooks_resolve(p->hooks, p->nhooks);
	return 0;
nomem:
	ret = -ENOMEM;
err:
	sl_pipeline_free(p);
	return ret;
}

int sl_pipelines_init(void)
{
	unsigned int i;
	int ret;

	/* a pipeline id must fit a key's top byte and the readers' arrays */
	BUILD_BUG_ON(ARRAY_SIZE(sl_pipelines) > SL_MAX_PIPELINES);
	ret = sl_skip_validate();
	if (ret)
		return ret;
	mutex_lock(&sl_lock);
	for (i = 0; i < sl_nr_pipelines; i++) {
		ret = sl_pipeline_setup(sl_pipelines[i], i);
		if (ret) {
			sl_err("pipeline %s: setup failed (%d)\n",
			       sl_pipelines[i]->name, ret);
			while (i--) {
				if (sl_pipelines[i]->teardown)
					sl_pipelines[i]->teardown(sl_pipelines[i]);
				sl_pipeline_free(sl_pipelines[i]);
			}
			break;
		}
	}
	mutex_unlock(&sl_lock);
	return ret;
}

/* Caller holds sl_lock.  Disarm every hook, then wait for handlers. */
static void sl_pipeline_disarm(struct sl_pipeline *p)
{
	WRITE_ONCE(p->enabled, false);
	sl_hooks_disarm(p->hooks, p->nhooks);
	tracepoint_synchronize_unregister();
	/* kprobe handlers run with preemption off: this waits for them too */
	synchronize_rcu();
	if (p->on_disable)
		p->on_disable(p);
	sl_flight_flush(p->id);
}

void sl_pipelines_exit(void)
{
	unsigned int i;

	mutex_lock(&sl_lock);
	for (i = 0; i < sl_nr_pipelines; i++) {
		struct sl_pipeline *p = sl_pipelines[i];

		if (p->enabled)
			sl_pipeline_disarm(p);
	}
	for (i = 0; i < sl_nr_pipelines; i++) {
		struct sl_pipeline *p = sl_pipelines[i];

		if (p->teardown)
			p->teardown(p);
		sl_pipeline_free(p);
	}
	mutex_unlock(&sl_lock);
}

/*
 * Enable: arm every resolved hook, then open the gate.  A hook that fails
 * to arm is reported in status; the stages that remain measurable are
 * measured.  Only if no hook at all could be armed is enabling an error.
 * Caller holds sl_lock.
 */
int sl_pipeline_enable(struct sl_pipeline *p, bool on)
{
	unsigned int i, armed = 0;
	int ret;

	lockdep_assert_held(&sl_lock);
	if (on == p->enabled)
		return 0;
	sl_dump_seq++;
	if (!on) {
		sl_pipeline_disarm(p);
		return 0;
	}
	if (p->on_enable) {
		ret = p->on_enable(p);
		if (ret)
			return ret;
	}
	WRITE_ONCE(p->enabled, true);
	for (i = 0; i < p->nhooks; i++) {
		struct sl_hook *hk = &p->hooks[i];

		/* a module (ext4, xfs, a NIC driver) may have come since load */
		if (hk->ncands && (hk->state == STACKLAT_HOOK_UNAVAILABLE ||
				   hk->state == STACKLAT_HOOK_FAILED))
			sl_hook_resolve(hk);
		if (hk->state == STACKLAT_HOOK_DISARMED && !sl_hook_arm(hk))
			armed++;
	}
	if (!armed && p->nhooks && p->key != STACKLAT_KEY_NONE) {
		sl_pipeline_disarm(p);
		sl_err("%s: no hook point could be armed on this kernel\n",
		       p->name);
		return -ENOENT;
	}
	return 0;
}

void sl_pipeline_reset(struct sl_pipeline *p)
{
	unsigned int i;
	int cpu;

	lockdep_assert_held(&sl_lock);
	for (i = 0; i < p->max_stages; i++)
		sl_hist_reset(&p->hists[i]);
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(p->loss, cpu), 0, sizeof(struct sl_losses));
	p->generation++;
	sl_dump_seq++;
}

void sl_pipeline_set_filter(struct sl_pipeline *p, const struct sl_filter *f)
{
	lockdep_assert_held(&sl_lock);
	WRITE_ONCE(p->filter.tgid, f->tgid);
	WRITE_ONCE(p->filter.tid, f->tid);
	WRITE_ONCE(p->filter.lport, f->lport);
	WRITE_ONCE(p->filter.rport, f->rport);
	WRITE_ONCE(p->filter.proto, f->proto);
	WRITE_ONCE(p->filter.ifindex, f->ifindex);
	WRITE_ONCE(p->filter.dev, f->dev);
	WRITE_ONCE(p->filter.op, f->op);
	WRITE_ONCE(p->filter.fs, f->fs);
	sl_dump_seq++;
}

void sl_pipeline_losses(struct sl_pipeline *p, struct sl_losses *out)
{
	unsigned int i;
	int cpu;

	memset(out, 0, sizeof(*out));
	for_each_possible_cpu(cpu) {
		const struct sl_losses *l = per_cpu_ptr(p->loss, cpu);

		for (i = 0; i < SL_LOSS_NR; i++)
			out->v[i] += READ_ONCE(l->v[i]);
	}
}

/* Enable the comma-separated pipelines of the "enable" module parameter. */
int sl_pipelines_enable_list(const char *list)
{
	char name[STACKLAT_NAME_MAX];
	const char *p = list;
	int ret = 0;

	mutex_lock(&sl_lock);
	while (p && *p && !ret) {
		const char *end = strchrnul(p, ',');
		size_t n = end - p;
		struct sl_pipeline *pl = NULL;

		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			pl = sl_pipeline_find(name);
		}
		if (!pl) {
			sl_err("enable: '%.*s' is not a pipeline\n", (int)n, p);
			ret = -EINVAL;
		} else {
			ret = sl_pipeline_enable(pl, true);
		}
		p = *end ? end + 1 : NULL;
	}
	mutex_unlock(&sl_lock);
	return ret;
}

/* ---- chains ----------------------------------------------------------- */

struct sl_flight_ent *sl_chain_start(struct sl_pipeline *p, unsigned long ident,
				     unsigned int pt, u64 now)
{
	struct sl_flight_ent *e;
	bool stale;

	e = sl_flight_insert(sl_flight_key(p->id, ident), now, &stale);
	if (unlikely(!e)) {
		sl_loss(p, SL_LOSS_TABLE_FULL);
		return NULL;
	}
	if (stale)
		sl_loss(p, SL_LOSS_STALE);
	e->ts[pt] = now;
	return e;
}

struct sl_flight_ent *sl_chain_mark(struct sl_pipeline *p, unsigned long ident,
				    unsigned int pt, u64 now)
{
	struct sl_flight_ent *e = sl_flight_lookup(sl_flight_key(p->id, ident));

	if (e && !e->ts[pt])
		e->ts[pt] = now;
	return e;
}

/* Record every stage whose two points were passed, in order. */
void sl_chain_record(struct sl_pipeline *p, const struct sl_flight_ent *e)
{
	unsigned int i;

	for (i = 0; i < p->nstages; i++) {
		const struct sl_stage *s = &p->stages[i];
		u64 a = e->ts[s->from_pt], b = e->ts[s->to_pt];

		if (a && b)
			sl_record(p, i, (s64)(b - a));
	}
}

bool sl_chain_end(struct sl_pipeline *p, unsigned long ident, unsigned int pt,
		  u64 now)
{
	u64 key = sl_flight_key(p->id, ident);
	struct sl_flight_ent *e = sl_flight_lookup(key);

	if (!e) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return false;
	}
	e->ts[pt] = now;
	sl_chain_record(p, e);
	sl_flight_remove(e, key);
	return true;
}

/* The object was freed before it finished (a drop): forget it. */
bool sl_chain_drop(struct sl_pipeline *p, unsigned long ident)
{
	u64 key = sl_flight_key(p->id, ident);
	struct sl_flight_ent *e = sl_flight_lookup(key);

	if (!e || !sl_flight_remove(e, key))
		return false;
	sl_loss(p, SL_LOSS_DROPPED);
	return true;
}
