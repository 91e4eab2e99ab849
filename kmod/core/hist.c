// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU log-linear latency histograms.
 *
 * Writers (probe handlers) only touch their own CPU's copy with this_cpu
 * operations.  Readers sum every possible CPU.  A reset zeroes the copies
 * from process context while writers may run: a sample landing during the
 * reset may be kept or lost, which is why resets also bump the pipeline's
 * generation so readers never mistake a reset for negative progress.
 */
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/string.h>

#include "hist.h"

static void sl_hist_cpu_clear(struct sl_hist_cpu *c)
{
	memset(c, 0, sizeof(*c));
	c->min = U64_MAX;
}

int sl_hist_init(struct sl_hist *h)
{
	int cpu;

	h->pcpu = alloc_percpu(struct sl_hist_cpu);
	if (!h->pcpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		sl_hist_cpu_clear(per_cpu_ptr(h->pcpu, cpu));
	return 0;
}

void sl_hist_free(struct sl_hist *h)
{
	free_percpu(h->pcpu);
	h->pcpu = NULL;
}

/* A histogram not allocated yet (its pipeline never enabled) is empty. */
void sl_hist_reset(struct sl_hist *h)
{
	int cpu;

	if (!h->pcpu)
		return;
	for_each_possible_cpu(cpu)
		sl_hist_cpu_clear(per_cpu_ptr(h->pcpu, cpu));
}

void sl_hist_read(const struct sl_hist *h, struct sl_hist_sum *out)
{
	int cpu;
	u32 i;

	memset(out, 0, sizeof(*out));
	if (!h->pcpu)
		return;
	out->min = U64_MAX;
	for_each_possible_cpu(cpu) {
		const struct sl_hist_cpu *c = per_cpu_ptr(h->pcpu, cpu);

		out->sum += READ_ONCE(c->sum);
		out->overflow += READ_ONCE(c->overflow);
		out->min = min(out->min, READ_ONCE(c->min));
		out->max = max(out->max, READ_ONCE(c->max));
		for (i = 0; i < STACKLAT_HIST_NBUCKETS; i++)
			out->buckets[i] += READ_ONCE(c->buckets[i]);
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
	return stacklat_hist_percentile(s->buckets, 0, STACKLAT_HIST_NBUCKETS,
					s->count, s->overflow, s->min, s->max,
					pct);
}
