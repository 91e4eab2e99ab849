// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU log-linear latency histograms.
 *
 * Writers (probe handlers) only touch their own CPU's copy, with local64
 * operations (hist.h).  A copy exists for each CPU online since the
 * histogram was made (cpus.h); readers sum the copies there are.  A reset
 * zeroes the copies from process context while writers may run: a sample
 * landing during the reset may be kept or lost, which is why resets also
 * bump the pipeline's generation so readers never mistake a reset for
 * negative progress.
 *
 * Also compiled in userspace (-DSL_USERSPACE, tests/unit).
 */
#ifndef SL_USERSPACE
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/string.h>
#endif

#include "cpus.h"
#include "hist.h"

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

/* Process context (cpus.h): @cpu's copy, if it has none. */
static int sl_hist_cpu_alloc(struct sl_cpus_user *u, unsigned int cpu)
{
	struct sl_hist *h = container_of(u, struct sl_hist, cpus);
	struct sl_hist_cpu *c;

	if (h->cpu[cpu])
		return 0;
	c = kzalloc_node(sizeof(*c), SL_GFP_BIG, cpu_to_node(cpu));
	if (!c)
		return -ENOMEM;
	sl_hist_cpu_clear(c);
	/* release: the cleared copy before this CPU's writers see it */
	smp_store_release(&h->cpu[cpu], c);
	h->ncpus++;
	return 0;
}

int sl_hist_init(struct sl_hist *h)
{
	h->ncpus = 0;
	h->cpu = kcalloc(nr_cpu_ids, sizeof(*h->cpu), SL_GFP_BIG);
	if (!h->cpu)
		return -ENOMEM;
	h->cpus.online = sl_hist_cpu_alloc;
	if (sl_cpus_add(&h->cpus)) {
		sl_hist_free(h);
		return -ENOMEM;
	}
	return 0;
}

void sl_hist_free(struct sl_hist *h)
{
	unsigned int cpu;

	if (!h->cpu)
		return;
	sl_cpus_del(&h->cpus);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		kfree(h->cpu[cpu]);
	kfree(h->cpu);
	h->cpu = NULL;
	h->ncpus = 0;
}

/* What @h takes: its copies and its pointer to each. */
u64 sl_hist_bytes(const struct sl_hist *h)
{
	if (!h->cpu)
		return 0;
	return (u64)READ_ONCE(h->ncpus) * sizeof(struct sl_hist_cpu) +
	       (u64)nr_cpu_ids * sizeof(*h->cpu);
}

/* A histogram not allocated yet (its pipeline never enabled) is empty. */
void sl_hist_reset(struct sl_hist *h)
{
	struct sl_hist_cpu *c;
	unsigned int cpu;

	if (!h->cpu)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		c = READ_ONCE(h->cpu[cpu]);
		if (c)
			sl_hist_cpu_clear(c);
	}
}

void sl_hist_read(const struct sl_hist *h, struct sl_hist_sum *out)
{
	const struct sl_hist_cpu *c;
	unsigned int cpu;
	u32 i;

	memset(out, 0, sizeof(*out));
	if (!h->cpu)
		return;
	out->min = U64_MAX;
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
