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
#include <linux/workqueue.h>
#include <linux/jiffies.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>

#include "pipeline.h"
#include "hook.h"
#include "chain.h"
#include "dispatch.h"
#include "filter.h"
#include "events.h"
#include "keyed.h"
#include "cgdim.h"
#include "stack.h"
#include "sample.h"
#include "clock.h"
#include "fmt.h"

DEFINE_MUTEX(sl_lock);

/* main.c sets them from its parameters at load */
unsigned int sl_keyed_rows;
unsigned int sl_keyed_cpu_rows;
u64 sl_keyed_linger_ns;

/*
 * The pipelines, as main.c hands them over (pipelines/all.c's list): a
 * pipeline's id is its index.  Set once, before anything reads them.
 */
struct sl_pipeline *const *sl_pipelines;
unsigned int sl_nr_pipelines;

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

	/* first: the automatic rate's work reads the hooks' counts */
	sl_sample_free(p);
	if (p->priv.hists) {
		for (i = 0; i < p->max_stages; i++)
			sl_hist_free(&p->priv.hists[i]);
		kfree(p->priv.hists);
		p->priv.hists = NULL;
	}
	p->priv.hists_live = false;
	for (i = 0; i < p->nhooks; i++)
		sl_hook_free(&p->hooks[i]);
	kfree(p->priv.fips);
	p->priv.fips = NULL;
	free_percpu(p->priv.loss);
	p->priv.loss = NULL;
	sl_stacks_destroy(p->priv.stacks);
	p->priv.stacks = NULL;
	sl_cgdim_free(p);
}

/*
 * The list of stages sl_chain_record() derives from two points: every
 * stage of a pipeline that follows chains whose two points are distinct
 * timestamp slots.  A breakdown dimension's stages and value stages are
 * not, nor are those a pipeline records itself, whose points are left 0.
 */
static int sl_pipeline_rec_pairs(struct sl_pipeline *p)
{
	unsigned int i;

	p->priv.nrec = 0;
	if (p->key == STACKLAT_KEY_NONE)
		return 0;	/* no chains */
	for (i = 0; i < p->nstages; i++) {
		const struct sl_stage *s = &p->stages[i];

		if (s->from_pt >= SL_FLIGHT_NTS || s->to_pt >= SL_FLIGHT_NTS ||
		    s->from_pt == s->to_pt)
			continue;
		if (p->priv.nrec == SL_REC_MAX) {
			sl_err("%s: more than %u stages between two points\n",
			       p->name, SL_REC_MAX);
			return -EINVAL;
		}
		p->priv.rec[p->priv.nrec++] = (struct sl_rec_pair){
			.from_pt = s->from_pt, .to_pt = s->to_pt, .stage = i,
		};
	}
	return 0;
}

static int sl_pipeline_setup(struct sl_pipeline *p, unsigned int id)
{
	unsigned int i;
	int ret;

	p->priv.id = id;
	p->priv.enabled = false;
	p->priv.gate = false;
	p->priv.generation = 1;
	if (!p->max_stages)
		p->max_stages = p->nstages;
	if (sl_cgdim_init(p))
		return -ENOMEM;
	/* the per-CPU histograms come when the pipeline is first enabled */
	p->priv.loss = alloc_percpu(struct sl_losses);
	p->priv.hists = kcalloc(p->max_stages, sizeof(*p->priv.hists),
				GFP_KERNEL);
	p->priv.fips = kcalloc(max(p->nhooks, 1U), sizeof(*p->priv.fips),
			       GFP_KERNEL);
	if (!p->priv.loss || !p->priv.hists || !p->priv.fips ||
	    sl_sample_init(p))
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
	/* the stages are final: a pipeline's setup fills in the last ones */
	ret = sl_pipeline_rec_pairs(p);
	if (ret) {
		if (p->teardown)
			p->teardown(p);
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

int sl_pipelines_init(struct sl_pipeline *const *list, unsigned int n)
{
	unsigned int i;
	int ret;

	/* a pipeline id must fit a key's top byte and the readers' arrays */
	if (n > SL_MAX_PIPELINES) {
		sl_err("%u pipelines, at most %u\n", n, SL_MAX_PIPELINES);
		return -EINVAL;
	}
	sl_pipelines = list;
	sl_nr_pipelines = n;
	ret = sl_skip_validate(list, n);
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

/*
 * Caller holds sl_lock.  Close the gate, disarm every hook, wait for the
 * handlers still running, then forget the pipeline's chains.
 */
static void sl_pipeline_disarm(struct sl_pipeline *p)
{
	WRITE_ONCE(p->priv.gate, false);
	if (p->priv.enabled)
		sl_hist_poll(false);
	p->priv.enabled = false;
	sl_hooks_disarm(p->hooks, p->nhooks);
	tracepoint_synchronize_unregister();
	/*
	 * every probe runs with preemption off (dispatch.h; on 7.x
	 * tracepoint probes turn it off themselves): this waits for them too
	 */
	synchronize_rcu();
	if (p->on_disable)
		p->on_disable(p);
	sl_flight_flush(sl_ft, p->priv.id);
}

void sl_pipelines_exit(void)
{
	unsigned int i;

	mutex_lock(&sl_lock);
	for (i = 0; i < sl_nr_pipelines; i++) {
		struct sl_pipeline *p = sl_pipelines[i];

		if (p->priv.enabled)
			sl_pipeline_disarm(p);
	}
	for (i = 0; i < sl_nr_pipelines; i++) {
		struct sl_pipeline *p = sl_pipelines[i];

		if (p->teardown)
			p->teardown(p);
		sl_hooks_release(p);
		sl_pipeline_free(p);
	}
	sl_hist_exit();
	mutex_unlock(&sl_lock);
}

/* The per-CPU histograms, on the first enable; kept until unload. */
static int sl_pipeline_hists_alloc(struct sl_pipeline *p)
{
	unsigned int i;

	if (p->priv.hists_live)
		return 0;
	for (i = 0; i < p->max_stages; i++) {
		if (sl_hist_init(&p->priv.hists[i])) {
			while (i--)
				sl_hist_free(&p->priv.hists[i]);
			sl_err("enable %s: no memory for %u histograms of %zu bytes\n",
			       p->name, p->max_stages,
			       sizeof(struct sl_hist_shared));
			return -ENOMEM;
		}
	}
	p->priv.hists_live = true;
	return 0;
}

/* The point chains start at: the first SL_PF_FIRST point armed. */
static u8 sl_pipeline_start_pt(const struct sl_pipeline *p)
{
	unsigned int i;
	u8 pt = SL_FLIGHT_NTS;

	for (i = 0; i < p->nhooks; i++) {
		const struct sl_hook *hk = &p->hooks[i];

		if ((hk->flags & SL_PF_FIRST) &&
		    hk->priv.state == STACKLAT_HOOK_ARMED && hk->pt < pt)
			pt = hk->pt;
	}
	return pt;
}

/*
 * Enable: arm every resolved hook with the gate closed, then open it, so
 * that no chain starts before the points that end it are in place.  A hook
 * that fails to arm is reported in status; the stages that remain
 * measurable are measured.  Only if no hook at all could be armed is
 * enabling an error.  Caller holds sl_lock.
 */
int sl_pipeline_enable(struct sl_pipeline *p, bool on)
{
	unsigned int i, armed = 0;
	int ret;

	lockdep_assert_held(&sl_lock);
	if (on == p->priv.enabled)
		return 0;
	sl_dump_seq++;
	if (!on) {
		sl_pipeline_disarm(p);
		return 0;
	}
	ret = sl_pipeline_hists_alloc(p);
	if (ret)
		return ret;
	if (p->on_enable) {
		ret = p->on_enable(p);
		if (ret)
			return ret;
	}
	for (i = 0; i < p->nhooks; i++) {
		struct sl_hook *hk = &p->hooks[i];

		/* a module (ext4, xfs, a NIC driver) may have come since load */
		if (hk->ncands &&
		    (hk->priv.state == STACKLAT_HOOK_UNAVAILABLE ||
		     hk->priv.state == STACKLAT_HOOK_FAILED))
			sl_hook_resolve(hk);
		if (hk->priv.state == STACKLAT_HOOK_DISARMED &&
		    !sl_hook_arm(hk))
			armed++;
	}
	/* the entry points on ftrace, all in one code update */
	sl_hooks_commit(p);
	p->priv.enabled = true;
	/* the CPUs' histogram copies follow the samples from now on */
	sl_hist_poll(true);
	/* points added at run time (func, span) may come after the enable */
	if (!armed && p->nhooks && p->key != STACKLAT_KEY_NONE &&
	    !p->point_add) {
		sl_pipeline_disarm(p);
		sl_err("%s: no hook point could be armed on this kernel\n",
		       p->name);
		return -ENOENT;
	}
	WRITE_ONCE(p->priv.start_pt, sl_pipeline_start_pt(p));
	/* the handlers see the start point before the gate opens */
	smp_wmb();
	WRITE_ONCE(p->priv.gate, true);
	return 0;
}

/* Bytes of per-CPU histograms a pipeline holds. */
/*
 * Process context, under sl_lock: what @p allocated, its histograms and
 * its keyed and stack tables (the shared in-flight table and event rings
 * are the module's: status has them).
 */
u64 sl_pipeline_mem_all(struct sl_pipeline *p)
{
	struct sl_keyed_stats ks;
	u64 n = sl_pipeline_mem(p);

	if (p->priv.keyed) {
		sl_keyed_stats(p->priv.keyed, &ks);
		n += ks.bytes;
	}
	if (p->priv.stacks)
		n += sl_stacks_bytes(p->priv.stacks);
	return n;
}

/*
 * What of that each online CPU has: its keyed buffers, and the histogram
 * copies of the CPU that has the most (they follow the samples).
 */
u64 sl_pipeline_mem_cpu(const struct sl_pipeline *p)
{
	u64 n = 0, c, most = 0;
	unsigned int i, cpu;

	if (p->priv.hists_live) {
		for_each_possible_cpu(cpu) {
			c = 0;
			for (i = 0; i < p->max_stages; i++)
				c += sl_hist_cpu_bytes(&p->priv.hists[i], cpu);
			most = max(most, c);
		}
		n += most;
	}
	if (p->priv.keyed)
		n += sl_keyed_cpu_bytes(p->priv.keyed);
	return n;
}

/* The CPUs' copies of its histograms, all stages (they follow the samples). */
unsigned int sl_pipeline_hist_copies(const struct sl_pipeline *p)
{
	unsigned int i, n = 0;

	if (!p->priv.hists_live)
		return 0;
	for (i = 0; i < p->max_stages; i++)
		n += READ_ONCE(p->priv.hists[i].ncpus);
	return n;
}

u64 sl_pipeline_mem(const struct sl_pipeline *p)
{
	u64 n = 0;
	unsigned int i;

	if (!p->priv.hists_live)
		return 0;
	for (i = 0; i < p->max_stages; i++)
		n += sl_hist_bytes(&p->priv.hists[i]);
	return n;
}

void sl_pipeline_reset(struct sl_pipeline *p)
{
	unsigned int i;
	int cpu;

	lockdep_assert_held(&sl_lock);
	for (i = 0; i < p->max_stages; i++)
		sl_hist_reset(&p->priv.hists[i]);
	if (p->priv.keyed)
		sl_keyed_reset(p->priv.keyed);
	if (p->priv.stacks)
		sl_stacks_reset(p->priv.stacks);
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(p->priv.loss, cpu), 0,
		       sizeof(struct sl_losses));
	sl_sample_reset(p);
	sl_flight_owner_reset(sl_ft, p->priv.id);
	p->priv.generation++;
	sl_dump_seq++;
}

/*
 * A pipeline that counts in a keyed table (syscalls, disktop): its table
 * comes with the first enable, sized by the keyed_* parameters, with rows
 * of @nvals values, and is folded every @fold_ms while enabled.
 */
int sl_pipeline_keyed_enable(struct sl_pipeline *p, unsigned int nvals,
			     const struct sl_keyed_ops *ops,
			     unsigned int fold_ms)
{
	if (!p->priv.keyed) {
		p->priv.keyed = sl_keyed_create(nvals, sl_keyed_rows,
					   min(sl_keyed_cpu_rows,
					       p->keyed_cpu_start ?:
					       SL_KEYED_CPU_START),
					   sl_keyed_cpu_rows,
					   SL_KEYED_SPILL_ROWS,
					   sl_keyed_linger_ns, ops);
		if (!p->priv.keyed)
			return -ENOMEM;
	}
	sl_keyed_start(p->priv.keyed, fold_ms);
	return 0;
}

int sl_pipeline_stacks_enable(struct sl_pipeline *p)
{
	struct sl_stacks *t;

	lockdep_assert_held(&sl_lock);
	if (p->priv.stacks)
		return 0;
	t = sl_stacks_create(sl_stack_slots, sl_stack_depth);
	if (!t)
		return -ENOMEM;
	/* made whole before a probe can see it */
	smp_store_release(&p->priv.stacks, t);
	return 0;
}

int sl_pipeline_stacks_check(const struct sl_pipeline *p,
			     struct netlink_ext_ack *extack)
{
	if (p->stack_points)
		return 0;
	sl_compat_err_msg_name(extack, NULL, "no stacks at the points of pipeline",
			       p->name);
	sl_err("stacks %s: %s takes no stacks at its points (netdrop and tcpretrans do; offcpu and lock always)\n",
	       p->name, p->name);
	return -EOPNOTSUPP;
}

int sl_pipeline_stacks_set(struct sl_pipeline *p, bool on,
			   struct netlink_ext_ack *extack)
{
	int ret;

	lockdep_assert_held(&sl_lock);
	ret = sl_pipeline_stacks_check(p, extack);
	if (ret)
		return ret;
	if (on) {
		ret = sl_pipeline_stacks_enable(p);
		if (ret)
			return ret;
	}
	WRITE_ONCE(p->priv.stacks_on, on);
	return 0;
}

void sl_pipeline_ev_name(struct stacklat_event *ev)
{
	struct sl_pipeline *p;

	if ((ev->flags & (STACKLAT_EVENT_F_STACK | STACKLAT_EVENT_F_WHERE)) !=
	    STACKLAT_EVENT_F_STACK || ev->pipeline >= sl_nr_pipelines)
		return;
	p = sl_pipelines[ev->pipeline];
	if (!p->stack_where)
		return;
	p->stack_where(p, ev->stack_id, ev->where, sizeof(ev->where));
	ev->flags |= STACKLAT_EVENT_F_WHERE;
}

/* on_disable, disarmed and synchronised: the last updates folded, rows kept */
void sl_pipeline_keyed_disable(struct sl_pipeline *p)
{
	if (!p->priv.keyed)
		return;
	sl_keyed_stop(p->priv.keyed);
	sl_keyed_fold(p->priv.keyed, sl_now());
}

/* At unload (teardown): the table goes. */
void sl_pipeline_keyed_teardown(struct sl_pipeline *p)
{
	if (!p->priv.keyed)
		return;
	sl_keyed_stop(p->priv.keyed);
	sl_keyed_destroy(p->priv.keyed);
	p->priv.keyed = NULL;
}

void sl_pipeline_set_filter(struct sl_pipeline *p, const struct sl_filter *f)
{
	lockdep_assert_held(&sl_lock);
	WRITE_ONCE(p->priv.filter.tgid, f->tgid);
	WRITE_ONCE(p->priv.filter.tid, f->tid);
	WRITE_ONCE(p->priv.filter.lport, f->lport);
	WRITE_ONCE(p->priv.filter.rport, f->rport);
	WRITE_ONCE(p->priv.filter.proto, f->proto);
	WRITE_ONCE(p->priv.filter.ifindex, f->ifindex);
	WRITE_ONCE(p->priv.filter.dev, f->dev);
	WRITE_ONCE(p->priv.filter.op, f->op);
	WRITE_ONCE(p->priv.filter.fs, f->fs);
	WRITE_ONCE(p->priv.filter.cgroup, f->cgroup);
	sl_dump_seq++;
}

int sl_pipeline_set_threshold(struct sl_pipeline *p, u64 ns,
			      struct netlink_ext_ack *extack)
{
	int ret;

	lockdep_assert_held(&sl_lock);
	ret = sl_events_check_threshold(p, ns, extack);
	if (ret)
		return ret;
	if (ns) {
		ret = sl_events_alloc();
		if (ret)
			return ret;
	}
	WRITE_ONCE(p->priv.ev_thresh, ns);
	return 0;
}

/* sample PIPELINE N | auto OBJECTS (sample.c) */
int sl_pipeline_set_sample(struct sl_pipeline *p, u32 n, u32 budget,
			   struct netlink_ext_ack *extack)
{
	int ret;

	lockdep_assert_held(&sl_lock);
	ret = sl_sample_set(p, n, budget, extack);
	if (!ret)
		sl_dump_seq++;
	return ret;
}

/* Its own counters and what the in-flight table lost of its chains. */
void sl_pipeline_losses(struct sl_pipeline *p, struct sl_losses *out)
{
	u64 fl[SL_FL_NLOST];
	unsigned int i;
	int cpu;

	memset(out, 0, sizeof(*out));
	for_each_possible_cpu(cpu) {
		const struct sl_losses *l = per_cpu_ptr(p->priv.loss, cpu);

		for (i = 0; i < SL_LOSS_NR; i++)
			out->v[i] += READ_ONCE(l->v[i]);
	}
	sl_flight_owner_lost(sl_ft, p->priv.id, fl);
	out->v[SL_LOSS_TABLE_FULL] += fl[SL_FL_LOST_FULL];
	out->v[SL_LOSS_BUSY] += fl[SL_FL_LOST_BUSY];
	out->v[SL_LOSS_STALE] += fl[SL_FL_LOST_STALE];
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

/* ---- points added at run time -------------------------------------------- */

/*
 * Row @hk of @p gets the @n candidates @cands while the module runs (func
 * add; later user functions and spans): it is resolved, armed if @p is
 * enabled, and its stage @stage starts empty.  On failure the row is left
 * empty and not available, and the error is returned.  Caller holds
 * sl_lock.
 */
int sl_point_add(struct sl_pipeline *p, struct sl_hook *hk,
		 const struct sl_cand *cands, unsigned int n,
		 unsigned int stage)
{
	int ret;

	lockdep_assert_held(&sl_lock);
	ret = sl_hook_set_cands(hk, cands, n, p->priv.enabled);
	if (ret)
		return ret;
	/*
	 * An entry point put on the ftrace_ops's filter, or a return on the
	 * fprobe's, while neither is registered (the pipeline had no such
	 * point when enabled) waits there for the registration: do it.
	 */
	if (p->priv.enabled)
		sl_hooks_commit(p);
	if (stage < p->max_stages)	/* stacks' points have none */
		sl_hist_reset(&p->priv.hists[stage]);
	sl_dump_seq++;
	return 0;
}

/*
 * A point named @arg added to @p (@add) or removed from it while the
 * module runs ("func add|del SYMBOL"), by the pipeline's point_add or
 * point_del.  Caller holds sl_lock.
 */
int sl_pipeline_point(struct sl_pipeline *p, bool add, const char *arg,
		      struct netlink_ext_ack *extack)
{
	lockdep_assert_held(&sl_lock);
	if (!p || !(add ? p->point_add : p->point_del)) {
		NL_SET_ERR_MSG(extack, "no points are added to that pipeline");
		return -EOPNOTSUPP;
	}
	if (add)
		return p->point_add(p, arg, extack);
	return p->point_del(p, arg, extack);
}

/*
 * Row @hk of @p loses its point: disarmed, left empty, and no probe of it
 * still running (a tracepoint's probe may be, after its unregistration:
 * waited for, so the row can take its next point).  Under sl_lock.
 */
void sl_point_del(struct sl_pipeline *p, struct sl_hook *hk)
{
	bool tp = hk->ncands && sl_hook_cand(hk) >= 0 &&
		  hk->cands[sl_hook_cand(hk)].kind == STACKLAT_HOOK_KIND_TRACEPOINT;

	lockdep_assert_held(&sl_lock);
	sl_hook_clear_cands(hk);
	if (tp)
		tracepoint_synchronize_unregister();
	sl_dump_seq++;
}

/* ---- modules going away ------------------------------------------------ */

/*
 * A module whose functions are hooked is going away: the kprobes core
 * marks its probes gone, and so do we, so no hook shows "armed" on code
 * that no longer exists.  (Tracepoints are only looked up in the core
 * kernel, so only kprobes, kretprobes and ftrace points can sit in a
 * module.)  An ftrace point leaves its ops' filter here, before ftrace
 * forgets the module's functions (the GOING notifiers run first): an
 * address left in the filter could match a function loaded there later.
 */
static int sl_module_notify(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct module *mod = data;
	unsigned int i, j;

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&sl_lock);
	for (i = 0; i < sl_nr_pipelines; i++) {
		struct sl_pipeline *p = sl_pipelines[i];

		for (j = 0; j < p->nhooks; j++) {
			struct sl_hook *hk = &p->hooks[j];

			if (hk->priv.state != STACKLAT_HOOK_ARMED ||
			    !within_module(sl_hook_addr(hk), mod))
				continue;
			sl_hook_disarm(hk);
			hk->priv.state = STACKLAT_HOOK_UNAVAILABLE;
			sl_info("%s: hook %s: module %s unloaded\n", p->name,
				hk->name, mod->name);
		}
	}
	sl_dump_seq++;
	mutex_unlock(&sl_lock);
	return NOTIFY_OK;
}

static struct notifier_block sl_module_nb = {
	.notifier_call = sl_module_notify,
};

int sl_modules_watch(void)
{
	return register_module_notifier(&sl_module_nb);
}

void sl_modules_unwatch(void)
{
	unregister_module_notifier(&sl_module_nb);
}

/* ---- the age sweep ----------------------------------------------------- */

/*
 * Entries whose object never reached an end point (a free no hook saw, a
 * request that never completed) leave the table by age, from a work item
 * outside probe context, and are counted stale in their pipeline (by the
 * table, under the entry's owner).
 */
static void sl_sweep_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(sl_sweep_work, sl_sweep_fn);
static unsigned long sl_sweep_period;

static void sl_sweep_fn(struct work_struct *w)
{
	unsigned int i;

	sl_flight_sweep(sl_ft, sl_now(), NULL);
	/* removed cgroups' slots */
	mutex_lock(&sl_lock);
	for (i = 0; i < sl_nr_pipelines; i++)
		sl_cgdim_sweep(sl_pipelines[i]);
	mutex_unlock(&sl_lock);
	schedule_delayed_work(&sl_sweep_work, sl_sweep_period);
}

void sl_sweep_start(u64 stale_ns)
{
	/* four sweeps per stale period, at most one a second */
	sl_sweep_period = max_t(unsigned long, HZ,
				nsecs_to_jiffies(stale_ns / 4));
	schedule_delayed_work(&sl_sweep_work, sl_sweep_period);
}

void sl_sweep_stop(void)
{
	cancel_delayed_work_sync(&sl_sweep_work);
}

int sl_pipeline_keyed_pexit(struct sl_ev *ev)
{
	struct sl_keyed *t = sl_pipeline_keyed(ev->p);
	struct sl_keyed_buf *b;

	if (!t || !sl_ev_arg(ev, 1) || !sl_task_ok(ev->p))
		return 0;
	b = sl_keyed_begin(t);
	if (b) {
		sl_keyed_retire(b, (u32)current->tgid);
		sl_keyed_end(b);
	}
	return 0;
}

bool sl_keyed_tgid_alive(u32 tgid)
{
	bool alive;

	rcu_read_lock();
	alive = pid_task(find_pid_ns((int)tgid, &init_pid_ns),
			 PIDTYPE_TGID) != NULL;
	rcu_read_unlock();
	return alive;
}
