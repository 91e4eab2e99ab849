// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU log-linear latency histograms.
 *
 * Writers (probe handlers) touch their own CPU's copy, with local64
 * operations (hist.h), or, on a CPU that has no copy yet, the histogram's
 * shared copy, with atomics.  The copies follow the samples: a CPU that
 * recorded into the shared copy asks for one, and the grow work below
 * allocates it in process context.  Readers sum the shared copy and the
 * CPUs' copies.  A reset zeroes them from process context while writers
 * may run: a sample landing during the reset may be kept or lost, which is
 * why resets also bump the pipeline's generation so readers never mistake
 * a reset for negative progress.
 *
 * Also compiled in userspace (-DSL_USERSPACE, tests/unit), without the
 * work: a test calls sl_hist_grow_now() where the work would run.
 */
#ifndef SL_USERSPACE
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/string.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#endif

#include "cpus.h"
#include "hist.h"

/* every histogram made, for the grow work; under sl_hists_lock */
static LIST_HEAD(sl_hists);
static DEFINE_MUTEX(sl_hists_lock);
/* some histogram has a CPU that asked for a copy (a hint for the work) */
static bool sl_hists_want;

static void sl_hist_cpu_clear(struct sl_hist_cpu *c)
{
	unsigned int i;

	local64_set(&c->sum, 0);
	local64_set(&c->overflow, 0);
	local64_set(&c->max, 0);
	for (i = 0; i < STACKLAT_HIST_NBUCKETS; i++)
		local64_set(&c->buckets[i], 0);
	local64_set(&c->min, U64_MAX);
}

static void sl_hist_shared_clear(struct sl_hist_shared *s)
{
	unsigned int i;

	atomic64_set(&s->sum, 0);
	atomic64_set(&s->overflow, 0);
	atomic64_set(&s->max, 0);
	for (i = 0; i < STACKLAT_HIST_NBUCKETS; i++)
		atomic64_set(&s->buckets[i], 0);
	atomic64_set(&s->min, (s64)U64_MAX);
}

/*
 * Probe context, preemption off: @v on CPU @cpu, which has no copy of its
 * own yet.  Every CPU may be here at once: atomics only.  The request for
 * a copy is a byte of this CPU's, then the hints; the full barrier orders
 * the byte before them against the work's clearing of the hints before
 * it reads the bytes (sl_hist_grow_now()), so a request is never missed.
 */
void sl_hist_add_shared(struct sl_hist *h, unsigned int cpu, u64 v)
{
	struct sl_hist_shared *s = h->shared;
	u32 b = stacklat_hist_bucket(v);
	s64 cur, was;

	if (likely(b < STACKLAT_HIST_NBUCKETS))
		atomic64_inc(&s->buckets[b]);
	else
		atomic64_inc(&s->overflow);
	atomic64_add(v, &s->sum);
	cur = atomic64_read(&s->min);
	while (v < (u64)cur) {
		was = atomic64_cmpxchg(&s->min, cur, v);
		if (was == cur)
			break;
		cur = was;
	}
	cur = atomic64_read(&s->max);
	while (v > (u64)cur) {
		was = atomic64_cmpxchg(&s->max, cur, v);
		if (was == cur)
			break;
		cur = was;
	}
	if (!READ_ONCE(h->want[cpu])) {
		WRITE_ONCE(h->want[cpu], 1);
		/* the request before the hints (pairs with the work's) */
		smp_mb();
		WRITE_ONCE(h->wanted, true);
		WRITE_ONCE(sl_hists_want, true);
	}
}

/* Process context, sl_hists_lock held: @cpu's copy, if it has none. */
static int sl_hist_cpu_alloc(struct sl_hist *h, unsigned int cpu)
{
	struct sl_hist_cpu *c;

	if (h->cpu[cpu])
		return 0;
	c = kzalloc_node(sizeof(*c), SL_GFP_BIG, cpu_to_node(cpu));
	if (!c)
		return -ENOMEM;
	sl_hist_cpu_clear(c);
	/* release: the cleared copy before this CPU's writers see it */
	smp_store_release(&h->cpu[cpu], c);
	WRITE_ONCE(h->ncpus, h->ncpus + 1);
	return 0;
}

/*
 * Process context: a copy for each CPU that asked for one.  A request
 * that comes while this runs sets the hints again, for the next time; an
 * allocation that fails is asked again then too (the CPU goes on
 * recording into the shared copy, nothing is lost).
 */
void sl_hist_grow_now(void)
{
	struct sl_hist *h;
	unsigned int cpu;

	if (!READ_ONCE(sl_hists_want))
		return;
	WRITE_ONCE(sl_hists_want, false);
	/* the hint cleared before the requests are read (pairs with add) */
	smp_mb();
	mutex_lock(&sl_hists_lock);
	list_for_each_entry(h, &sl_hists, node) {
		if (!READ_ONCE(h->wanted))
			continue;
		WRITE_ONCE(h->wanted, false);
		/* as above, for this histogram's hint */
		smp_mb();
		for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
			if (!READ_ONCE(h->want[cpu]))
				continue;
			if (sl_hist_cpu_alloc(h, cpu)) {
				WRITE_ONCE(h->wanted, true);
				WRITE_ONCE(sl_hists_want, true);
				continue;
			}
			WRITE_ONCE(h->want[cpu], 0);
		}
	}
	mutex_unlock(&sl_hists_lock);
}

#ifndef SL_USERSPACE
/* an eighth of a second while a pipeline is enabled */
#define SL_HIST_GROW_DELAY	(HZ / 8)

static unsigned int sl_hist_pollers;
static void sl_hist_grow(struct work_struct *w);
static DECLARE_DELAYED_WORK(sl_hist_grow_work, sl_hist_grow);

static void sl_hist_grow(struct work_struct *w)
{
	sl_hist_grow_now();
	schedule_delayed_work(&sl_hist_grow_work, SL_HIST_GROW_DELAY);
}

/*
 * Process context, under the pipelines' lock (sl_lock): a pipeline was
 * enabled (@on) or disabled.  The grow work runs while one is enabled.
 */
void sl_hist_poll(bool on)
{
	if (on) {
		if (!sl_hist_pollers++)
			schedule_delayed_work(&sl_hist_grow_work, 0);
		return;
	}
	if (!--sl_hist_pollers)
		cancel_delayed_work_sync(&sl_hist_grow_work);
}

/* Unload, every pipeline disabled: the work is not running (again). */
void sl_hist_exit(void)
{
	cancel_delayed_work_sync(&sl_hist_grow_work);
}
#else
void sl_hist_poll(bool on)
{
	(void)on;
}

void sl_hist_exit(void)
{
}
#endif

int sl_hist_init(struct sl_hist *h)
{
	h->ncpus = 0;
	h->wanted = false;
	h->cpu = kcalloc(nr_cpu_ids, sizeof(*h->cpu), SL_GFP_BIG);
	h->want = kcalloc(nr_cpu_ids, sizeof(*h->want), SL_GFP_BIG);
	h->shared = kzalloc(sizeof(*h->shared), SL_GFP_BIG);
	if (!h->cpu || !h->want || !h->shared) {
		kfree(h->cpu);
		kfree(h->want);
		kfree(h->shared);
		h->cpu = NULL;
		h->want = NULL;
		h->shared = NULL;
		return -ENOMEM;
	}
	sl_hist_shared_clear(h->shared);
	mutex_lock(&sl_hists_lock);
	list_add(&h->node, &sl_hists);
	mutex_unlock(&sl_hists_lock);
	return 0;
}

/* After every writer is gone (the pipeline's probes synchronised). */
void sl_hist_free(struct sl_hist *h)
{
	unsigned int cpu;

	if (!h->cpu)
		return;
	mutex_lock(&sl_hists_lock);
	list_del(&h->node);
	mutex_unlock(&sl_hists_lock);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		kfree(h->cpu[cpu]);
	kfree(h->cpu);
	kfree(h->want);
	kfree(h->shared);
	h->cpu = NULL;
	h->want = NULL;
	h->shared = NULL;
	h->ncpus = 0;
}

/* What @h takes: its copies, its shared copy, a pointer and a byte a CPU. */
u64 sl_hist_bytes(const struct sl_hist *h)
{
	if (!h->cpu)
		return 0;
	return (u64)READ_ONCE(h->ncpus) * sizeof(struct sl_hist_cpu) +
	       sizeof(struct sl_hist_shared) +
	       (u64)nr_cpu_ids * (sizeof(*h->cpu) + sizeof(*h->want));
}

/* What @h takes on CPU @cpu: its copy, if it has one. */
u64 sl_hist_cpu_bytes(const struct sl_hist *h, unsigned int cpu)
{
	if (!h->cpu || !READ_ONCE(h->cpu[cpu]))
		return 0;
	return sizeof(struct sl_hist_cpu);
}

/* A histogram not allocated yet (its pipeline never enabled) is empty. */
void sl_hist_reset(struct sl_hist *h)
{
	struct sl_hist_cpu *c;
	unsigned int cpu;

	if (!h->cpu)
		return;
	sl_hist_shared_clear(h->shared);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		c = READ_ONCE(h->cpu[cpu]);
		if (c)
			sl_hist_cpu_clear(c);
	}
}

void sl_hist_read(const struct sl_hist *h, struct sl_hist_sum *out)
{
	const struct sl_hist_shared *s;
	const struct sl_hist_cpu *c;
	unsigned int cpu;
	u32 i;

	memset(out, 0, sizeof(*out));
	if (!h->cpu)
		return;
	s = h->shared;
	out->sum = atomic64_read(&s->sum);
	out->overflow = atomic64_read(&s->overflow);
	out->min = (u64)atomic64_read(&s->min);
	out->max = (u64)atomic64_read(&s->max);
	for (i = 0; i < STACKLAT_HIST_NBUCKETS; i++)
		out->buckets[i] = atomic64_read(&s->buckets[i]);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		/* acquire: the copy was cleared before it was published */
		c = smp_load_acquire(&h->cpu[cpu]);
		if (!c)
			continue;
		out->sum += local64_read(&c->sum);
		out->overflow += local64_read(&c->overflow);
		out->min = min_t(u64, out->min, local64_read(&c->min));
		out->max = max_t(u64, out->max, local64_read(&c->max));
		for (i = 0; i < STACKLAT_HIST_NBUCKETS; i++)
			out->buckets[i] += local64_read(&c->buckets[i]);
	}
	/* derived, so it always equals what the buckets hold */
	out->count = out->overflow;
	for (i = 0; i < STACKLAT_HIST_NBUCKETS; i++)
		out->count += out->buckets[i];
	if (!out->count)
		out->min = 0;
}

u64 sl_hist_pct(const struct sl_hist_sum *s, u32 pct)
{
	/* (u64 and __u64 differ in type, not in size, in userspace) */
	return stacklat_hist_percentile((const __u64 *)s->buckets, 0,
					STACKLAT_HIST_NBUCKETS,
					s->count, s->overflow, s->min, s->max,
					pct);
}
