// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling (sample.h): the rate a pipeline follows its objects at, fixed
 * ("sample PIPELINE N") or chosen each second from a budget of objects a
 * second a CPU ("sample PIPELINE auto OBJECTS"), and the exact counts of
 * what it saw.
 *
 * The automatic rate: once a second a work item (process context, no
 * lock: it reads per-CPU counters and writes the rate with WRITE_ONCE)
 * takes each online CPU's objects seen at the pipeline's first point
 * since its last look, per second, and sets N to the power of two at or
 * above the busiest CPU's rate over the budget (1 at or under it, 65536
 * at most).  Every object is seen whatever N is, so the rate measures the
 * offered load: no feedback loop.  (Hook hits would not: an object not
 * followed skips the points after the first that only act on a followed
 * one - a func call's return - so they fall as N rises, and a budget of
 * hits made N swing between 1 and 32 under a steady load.)  The counts
 * go on across changes of N: SEEN stays every object, FOLLOWED those
 * followed at whichever rate.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/log2.h>
#include <linux/jiffies.h>
#include <linux/workqueue.h>
#include <linux/seq_file.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>

#include "sample.h"
#include "fmt.h"

struct sl_sample_auto {
	struct delayed_work dw;
	struct sl_pipeline *p;
	unsigned long last;	/* jiffies of the last look */
	u32 budget;
	u64 peak;		/* READ_ONCE: status */
};

int sl_sample_init(struct sl_pipeline *p)
{
	if (!p->sampling)
		return 0;
	p->priv.smp = alloc_percpu(struct sl_sampling);
	return p->priv.smp ? 0 : -ENOMEM;
}

/* The automatic rate stops: no look runs after this.  Under sl_lock. */
static void sl_sample_auto_stop(struct sl_pipeline *p)
{
	struct sl_sample_auto *a = p->priv.sample_auto;

	if (!a)
		return;
	cancel_delayed_work_sync(&a->dw);
	p->priv.sample_auto = NULL;
	kfree(a);
}

void sl_sample_free(struct sl_pipeline *p)
{
	sl_sample_auto_stop(p);
	free_percpu(p->priv.smp);
	p->priv.smp = NULL;
}

/*
 * The counts from zero, and each CPU's next object followed (a probe
 * updating them meanwhile may leave one count behind: they are exact
 * from the first object after).
 */
void sl_sample_reset(struct sl_pipeline *p)
{
	int cpu;

	if (!p->priv.smp)
		return;
	for_each_possible_cpu(cpu) {
		struct sl_sampling *s = per_cpu_ptr(p->priv.smp, cpu);

		WRITE_ONCE(s->seen, 0);
		WRITE_ONCE(s->skipped, 0);
		WRITE_ONCE(s->left, 0);
	}
}

/* Process context (the system's unbound workqueue): one look (above). */
static void sl_sample_auto_work(struct work_struct *w)
{
	struct sl_sample_auto *a = container_of(to_delayed_work(w),
						struct sl_sample_auto, dw);
	struct sl_pipeline *p = a->p;
	unsigned long now = jiffies;
	unsigned int ms = jiffies_to_msecs(now - a->last);
	u64 peak = 0, n = 1;
	int cpu;

	if (ms) {
		for_each_online_cpu(cpu) {
			struct sl_sampling *s = per_cpu_ptr(p->priv.smp, cpu);
			u64 h = READ_ONCE(s->seen);
			/* fewer: the counts started over (reset) */
			u64 d = h >= s->seen_prev ? h - s->seen_prev : 0;

			s->seen_prev = h;
			peak = max(peak, div_u64(d * MSEC_PER_SEC, ms));
		}
		if (peak > a->budget)
			n = min_t(u64, roundup_pow_of_two(DIV_ROUND_UP_ULL(peak, a->budget)),
				  STACKLAT_SAMPLE_MAX);
		WRITE_ONCE(a->peak, peak);
		WRITE_ONCE(p->priv.sample, (u32)n);
		a->last = now;
	}
	queue_delayed_work(system_unbound_wq, &a->dw, HZ);
}

int sl_sample_check(const struct sl_pipeline *p, u32 n, u32 budget,
		    struct netlink_ext_ack *extack)
{
	if (!p->sampling) {
		NL_SET_ERR_MSG(extack, "this pipeline does not sample");
		sl_err("sample %s: this pipeline does not sample (its chains do not all start at the engine's first point)\n",
		       p->name);
		return -EOPNOTSUPP;
	}
	if (budget > STACKLAT_SAMPLE_AUTO_MAX) {
		NL_SET_ERR_MSG(extack, "sample auto: OBJECTS is 1..100000000");
		sl_err("sample %s: auto %u is not 1..%u (objects a second a CPU)\n",
		       p->name, budget, STACKLAT_SAMPLE_AUTO_MAX);
		return -ERANGE;
	}
	if (!budget && (n < 1 || n > STACKLAT_SAMPLE_MAX)) {
		NL_SET_ERR_MSG(extack, "sample: N is 1..65536");
		sl_err("sample %s: %u is not 1..%u\n", p->name, n,
		       STACKLAT_SAMPLE_MAX);
		return -ERANGE;
	}
	return 0;
}

/*
 * A fixed rate @n (1: every object, nothing counted), or with @budget the
 * automatic one, starting at every object.  Under sl_lock (the caller's:
 * sl_pipeline_set_sample()).
 */
int sl_sample_set(struct sl_pipeline *p, u32 n, u32 budget,
		  struct netlink_ext_ack *extack)
{
	struct sl_sample_auto *a = NULL;
	int ret, cpu;

	ret = sl_sample_check(p, n, budget, extack);
	if (ret)
		return ret;
	if (budget) {
		a = kzalloc(sizeof(*a), GFP_KERNEL);
		if (!a)
			return -ENOMEM;
	}
	sl_sample_auto_stop(p);
	/* the old rate stops before the counts start over */
	WRITE_ONCE(p->priv.sample, 0);
	synchronize_rcu();	/* probes run with preemption off */
	sl_sample_reset(p);
	if (!a) {
		WRITE_ONCE(p->priv.sample, n > 1 ? n : 0);
		return 0;
	}
	a->p = p;
	a->budget = budget;
	a->last = jiffies;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(p->priv.smp, cpu)->seen_prev = 0;	/* reset above */
	INIT_DELAYED_WORK(&a->dw, sl_sample_auto_work);
	p->priv.sample_auto = a;
	WRITE_ONCE(p->priv.sample, 1);	/* every object, counted */
	queue_delayed_work(system_unbound_wq, &a->dw, HZ);
	return 0;
}

void sl_sample_get(const struct sl_pipeline *p, struct sl_sample_info *si)
{
	const struct sl_sample_auto *a = p->priv.sample_auto;
	u64 sk = 0;
	int cpu;

	memset(si, 0, sizeof(*si));
	si->n = max(READ_ONCE(p->priv.sample), 1U);
	if (a) {
		si->budget = a->budget;
		si->peak = READ_ONCE(a->peak);
	}
	if (!p->priv.smp)
		return;
	for_each_possible_cpu(cpu) {
		const struct sl_sampling *s = per_cpu_ptr(p->priv.smp, cpu);

		si->seen += READ_ONCE(s->seen);
		sk += READ_ONCE(s->skipped);
	}
	si->followed = si->seen - min(sk, si->seen);
}

/* debugfs status: the rate, and what sampling saw and took. */
void sl_sample_status(struct seq_file *m, const struct sl_pipeline *p)
{
	struct sl_sample_info si;

	sl_sample_get(p, &si);
	if (si.budget)
		seq_printf(m, "  sample: auto, budget %u objects/s a CPU (the busiest: %llu/s): 1 in %u now, %llu objects at the first point, %llu followed\n",
			   si.budget, si.peak, si.n, si.seen, si.followed);
	else if (si.n > 1)
		seq_printf(m, "  sample: 1 in %u, %llu objects at the first point, %llu followed\n",
			   si.n, si.seen, si.followed);
	else
		seq_puts(m, "  sample: every object\n");
}
