// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel stacks (see stack.h for the design and the contract).
 *
 * A slot's life: free (key 0) -> claimed by one cmpxchg to hash | FILLING,
 * its frames, count and sum written by the claimer alone -> published by
 * a store-release of hash | READY.  From then on only its count and sum
 * change (atomic adds) until a reset shuts captures out, waits for those
 * under way (synchronize_rcu(): captures run with preemption disabled)
 * and clears the table.  A reader acquires the key before it reads the
 * frames, so it sees them whole.
 */
#ifndef SL_USERSPACE
#include <linux/kernel.h>
#include <linux/jhash.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/kallsyms.h>

#include "types.h"
#include "chain.h"
#endif

#include "stack.h"

#ifdef SL_USERSPACE
#define notrace
#define NOKPROBE_SYMBOL(f)
#endif

unsigned int sl_stack_slots = 4096;
unsigned int sl_stack_depth = 32;

struct sl_stacks *sl_stacks_create(unsigned int slots, unsigned int depth)
{
	struct sl_stacks *t;

	if (slots < SL_STACK_MIN_SLOTS || slots > SL_STACK_MAX_SLOTS ||
	    depth < SL_STACK_MIN_DEPTH || depth > SL_STACK_MAX_DEPTH)
		return NULL;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	t->slots = roundup_pow_of_two(slots);
	t->depth = depth;
	t->stride = ALIGN(sizeof(struct sl_stack_slot) +
			  depth * sizeof(unsigned long), 64);
	t->mem = kvzalloc(t->slots * t->stride, GFP_KERNEL);
#ifndef SL_USERSPACE
	t->scratch = __alloc_percpu((SL_STACK_SKIP_MAX + depth + 1) *
				    sizeof(unsigned long),
				    sizeof(unsigned long));
	t->busy = alloc_percpu(int);
	if (!t->scratch || !t->busy)
		goto nomem;
#endif
	if (!t->mem)
		goto nomem;
	WRITE_ONCE(t->open, true);
	return t;
nomem:
	sl_stacks_destroy(t);
	return NULL;
}

/* What @t takes: its slots, and its scratch and flag on each possible CPU. */
u64 sl_stacks_bytes(const struct sl_stacks *t)
{
	return sizeof(*t) + (u64)t->slots * t->stride +
	       (u64)num_possible_cpus() *
	       ((SL_STACK_SKIP_MAX + t->depth + 1) * sizeof(unsigned long) +
		sizeof(int));
}

void sl_stacks_destroy(struct sl_stacks *t)
{
	if (!t)
		return;
#ifndef SL_USERSPACE
	free_percpu(t->scratch);
	free_percpu(t->busy);
#endif
	kvfree(t->mem);
	kfree(t);
}

/* probe context: no lock, no allocation, nothing that sleeps */
int notrace sl_stacks_insert(struct sl_stacks *t, const unsigned long *ip,
			     unsigned int nr, u32 hash, u64 value,
			     bool truncated)
{
	u64 want = (u64)hash << 32;
	unsigned int i, mask = t->slots - 1;

	for (i = 0; i < SL_STACK_PROBES && i < t->slots; i++) {
		unsigned int idx = (hash + i) & mask;
		struct sl_stack_slot *s = sl_stack_slot(t, idx);
		/* pairs with the release below: a ready key's frames */
		u64 k = smp_load_acquire(&s->key);

		if (!k) {
			k = cmpxchg(&s->key, 0ULL, want | SL_STACK_FILLING);
			if (!k) {
				/* ours alone until published */
				memcpy(s->ip, ip, nr * sizeof(*ip));
				s->nr = nr;
				s->truncated = truncated;
				atomic64_set(&s->count, 1);
				atomic64_set(&s->sum, value);
				atomic_add(1, &t->used);
				/* publish: the frames before the key */
				smp_store_release(&s->key, want | SL_STACK_READY);
				return idx + 1;
			}
			/* another CPU claimed it first: look at what it is */
		}
		if ((k & ~0xffffffffULL) != want)
			continue;
		if (!(k & SL_STACK_READY))
			return SL_STACK_E_BUSY;	/* the same hash, being written */
		if (s->nr != nr || memcmp(s->ip, ip, nr * sizeof(*ip)))
			continue;		/* a collision */
		atomic64_inc(&s->count);
		atomic64_add(value, &s->sum);
		return idx + 1;
	}
	return SL_STACK_E_FULL;
}
NOKPROBE_SYMBOL(sl_stacks_insert);

unsigned int notrace sl_stack_trim(const unsigned long *buf, unsigned int n,
				   unsigned long anchor, unsigned int skip,
				   unsigned int depth, unsigned int *nr)
{
	unsigned int i, first = min(skip, n);

	if (anchor) {
		for (i = 0; i < n; i++)
			if (buf[i] >= anchor &&
			    buf[i] - anchor < SL_STACK_ANCHOR_WIN) {
				first = i;
				break;
			}
	}
	*nr = min(n - first, depth);
	return first;
}
NOKPROBE_SYMBOL(sl_stack_trim);

/* ---- process context ------------------------------------------------------ */

static struct sl_stacks *sl_sort_t;	/* under the caller's lock (sl_lock) */

static int sl_stack_cmp(const void *a, const void *b)
{
	s64 ca = atomic64_read(&sl_stack_slot(sl_sort_t, *(const u32 *)a - 1)->count);
	s64 cb = atomic64_read(&sl_stack_slot(sl_sort_t, *(const u32 *)b - 1)->count);

	if (ca != cb)
		return ca < cb ? 1 : -1;
	return *(const u32 *)a < *(const u32 *)b ? -1 : 1;
}

unsigned int sl_stacks_ids(struct sl_stacks *t, u32 *ids, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < t->slots && n < max; i++)
		/* the insert's release: a ready slot is whole */
		if (smp_load_acquire(&sl_stack_slot(t, i)->key) & SL_STACK_READY)
			ids[n++] = i + 1;
	sl_sort_t = t;
	sort(ids, n, sizeof(*ids), sl_stack_cmp, NULL);
	return n;
}

bool sl_stacks_get(struct sl_stacks *t, u32 id, struct sl_stack_info *si)
{
	struct sl_stack_slot *s;

	if (!id || id > t->slots)
		return false;
	s = sl_stack_slot(t, id - 1);
	/* the insert's release: the frames after the key */
	if (!(smp_load_acquire(&s->key) & SL_STACK_READY))
		return false;
	si->count = atomic64_read(&s->count);
	si->sum = atomic64_read(&s->sum);
	si->nr = s->nr;
	si->truncated = s->truncated;
	si->ip = s->ip;
#ifndef SL_USERSPACE
	/*
	 * A capture without an anchor (a tracepoint's: offcpu, lock) begins
	 * in the probe itself (sl_stack_capture, the probe function): those
	 * frames are stacklat's, not the kernel's stack; readers never see
	 * them.  Which of them the compiler inlined differs by kernel, so
	 * they go by where they are, not by a count.
	 */
	while (si->nr > 1 && within_module(si->ip[0], THIS_MODULE)) {
		si->ip++;
		si->nr--;
	}
#endif
	return true;
}

void sl_stacks_reset(struct sl_stacks *t)
{
	WRITE_ONCE(t->open, false);
	/* every capture that saw the table open has ended */
	synchronize_rcu();
	memset(t->mem, 0, t->slots * t->stride);
	atomic_set(&t->used, 0);
	/* cleared before a capture can see the table open */
	smp_wmb();
	WRITE_ONCE(t->open, true);
}

#ifndef SL_USERSPACE
static __always_inline u32 sl_stack_capture_in(struct sl_pipeline *p,
					       unsigned long anchor,
					       unsigned int skip, u64 value,
					       const struct sl_text_range *r,
					       unsigned int nr_r,
					       unsigned long *caller)
{
	struct sl_stacks *t = READ_ONCE(p->priv.stacks);
	unsigned int n, cap, first, nr;
	unsigned long *buf;
	int *busy, ret = 0;
	bool trunc;

	if (unlikely(!t))
		return 0;
	/* the scratch buffer is this CPU's: no migration while it is used */
	preempt_disable_notrace();
	if (unlikely(!READ_ONCE(t->open)))
		goto out;
	busy = this_cpu_ptr(t->busy);
	if (unlikely(READ_ONCE(*busy))) {
		sl_loss(p, SL_LOSS_STACK_BUSY);
		goto out;
	}
	WRITE_ONCE(*busy, 1);
	barrier();
	buf = this_cpu_ptr(t->scratch);
	/* one more than kept: a full buffer says the stack went deeper */
	cap = SL_STACK_SKIP_MAX + t->depth + 1;
	n = stack_trace_save(buf, cap, 0);
	if (caller)
		*caller = sl_stack_caller(buf, n, r, nr_r);
	first = sl_stack_trim(buf, n, anchor, skip, t->depth, &nr);
	trunc = n - first > t->depth;
	if (trunc)
		sl_loss(p, SL_LOSS_STACK_TRUNC);
	ret = sl_stacks_insert(t, buf + first, nr,
			       jhash2((const u32 *)(buf + first),
				      nr * sizeof(*buf) / sizeof(u32), nr),
			       value, trunc);
	barrier();
	WRITE_ONCE(*busy, 0);
	if (ret == SL_STACK_E_FULL)
		sl_loss(p, SL_LOSS_STACK_FULL);
	else if (ret == SL_STACK_E_BUSY)
		sl_loss(p, SL_LOSS_STACK_BUSY);
out:
	preempt_enable_notrace();
	return ret > 0 ? ret : 0;
}

u32 notrace sl_stack_capture(struct sl_pipeline *p, unsigned long anchor,
			     unsigned int skip, u64 value)
{
	return sl_stack_capture_in(p, anchor, skip, value, NULL, 0, NULL);
}
NOKPROBE_SYMBOL(sl_stack_capture);

u32 notrace sl_stack_capture_caller(struct sl_pipeline *p, u64 value,
				    const struct sl_text_range *r,
				    unsigned int nr, unsigned long *caller)
{
	*caller = 0;
	return sl_stack_capture_in(p, 0, 0, value, r, nr, caller);
}
NOKPROBE_SYMBOL(sl_stack_capture_caller);

void sl_stack_frame(char *buf, size_t len, unsigned long ip)
{
	/*
	 * %pS is kallsyms' "function+0xoff/0xsize [module]"; for an address
	 * it cannot name it prints the address itself: not that.
	 */
	snprintf(buf, len, "%pS", (void *)ip);
	if (!strncmp(buf, "0x", 2) || !buf[0])
		strscpy(buf, "?", len);
}
#endif
