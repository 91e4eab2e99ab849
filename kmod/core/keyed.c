// SPDX-License-Identifier: GPL-2.0
/*
 * Keyed aggregation (see keyed.h for the design and the contract).
 *
 * A CPU buffer is one allocation: the header, then keys[slots] (u64, 0
 * free), rowof[slots] (u32: the row of a slot's key), slotof[rows]
 * (u32: the slot of a row, for clearing) and vals[rows][nvals]; its shape
 * is in its header (it grows: sl_kf_grow()).  Rows are dense, in claim
 * order: a fold reads and clears only those in use.
 * Within a fold period nothing is removed from a buffer, so a lookup may
 * stop at the first free slot.
 *
 * A side's spill buffer has the same layout, at index ncpus of buf[side]:
 * the drain, the growth and the early-fold hint treat it as one more CPU;
 * only its writers differ (any CPU, under the side's spill lock).
 *
 * The folded table has the same layout (keys, rowof by slot; meta and
 * vals by dense row) and only process context touches it, under the
 * mutex.  A removal there is a backward-shift deletion of the slot (no
 * tombstones: lookups still stop at the first free slot) and the last row
 * moved into the hole; the table holds at most 3/4 of its slots, so a
 * free slot always exists.
 */
#ifndef SL_USERSPACE
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/seq_file.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <net/netlink.h>
#endif

#include "keyed.h"
#ifndef SL_USERSPACE
#include "fmt.h"
#endif

static __always_inline u64 *sl_kb_keys(struct sl_keyed_buf *b)
{
	return (u64 *)(b + 1);
}

static __always_inline u32 *sl_kb_rowof(struct sl_keyed_buf *b)
{
	return (u32 *)((char *)b + b->off_rowof);
}

static __always_inline u32 *sl_kb_slotof(struct sl_keyed_buf *b)
{
	return (u32 *)((char *)b + b->off_slotof);
}

static __always_inline u64 *sl_kb_vals(const struct sl_keyed *t,
				       struct sl_keyed_buf *b, unsigned int row)
{
	return (u64 *)((char *)b + b->off_vals) + (size_t)row * t->nvals;
}

/* A CPU buffer's shape for @rows: keys, rowof by slot, slotof, vals. */
static size_t sl_kb_shape(const struct sl_keyed *t, unsigned int rows,
			  struct sl_keyed_buf *b)
{
	/* at most 3/4 of the slots in use */
	unsigned int slots = roundup_pow_of_two(rows + rows / 3 + 1);
	size_t off_rowof, off_slotof, off_vals;

	off_rowof = sizeof(*b) + (size_t)slots * sizeof(u64);
	off_slotof = off_rowof + (size_t)slots * sizeof(u32);
	off_vals = ALIGN(off_slotof + (size_t)rows * sizeof(u32), sizeof(u64));
	if (b) {
		b->rows = rows;
		b->slots = slots;
		b->bits = ilog2(slots);
		b->off_rowof = off_rowof;
		b->off_slotof = off_slotof;
		b->off_vals = off_vals;
	}
	return off_vals + (size_t)rows * t->nvals * sizeof(u64);
}

static size_t sl_kb_bytes(const struct sl_keyed *t, unsigned int rows)
{
	return sl_kb_shape(t, rows, NULL);
}

/*
 * Process context: a cleared buffer of @rows rows for @cpu (ncpus: the
 * spill buffer) on @side, counted.
 */
static struct sl_keyed_buf *sl_kb_alloc(struct sl_keyed *t, unsigned int rows,
					 unsigned int cpu, unsigned int side)
{
	size_t n = sl_kb_bytes(t, rows);
	struct sl_keyed_buf *b;

	b = kvzalloc_node(n, SL_GFP_BIG,
			  cpu < t->ncpus ? cpu_to_node(cpu) : NUMA_NO_NODE);
	if (!b)
		return NULL;
	sl_kb_shape(t, rows, b);
	b->cpu = cpu;
	b->side = side;
	b->owner = t;
	b->bytes = n;
	if (cpu < t->ncpus)
		atomic64_add(n, &t->buf_bytes);
	return b;
}

/* The most rows buffer @cpu (ncpus: the spill buffer) grows to. */
static unsigned int sl_kb_bound(const struct sl_keyed *t, unsigned int cpu)
{
	return cpu < t->ncpus ? t->cpu_rows :
	       max_t(unsigned int, t->cpu_rows, t->spill_rows);
}

/* ---- probe context ---------------------------------------------------- */

/* The row of @key in @b, claimed if new; NULL: no room. */
static __always_inline u64 *sl_kb_row(struct sl_keyed *t,
				      struct sl_keyed_buf *b, u64 key,
				      bool *fresh)
{
	u64 *keys = sl_kb_keys(b);
	unsigned int mask = b->slots - 1;
	unsigned int i = hash_64(key, b->bits), n, row;
	u64 k;

	for (n = 0; n < SL_KEYED_PROBES; n++, i = (i + 1) & mask) {
		k = keys[i];
		if (k == key) {
			*fresh = false;
			return sl_kb_vals(t, b, sl_kb_rowof(b)[i]);
		}
		if (k)
			continue;
		row = b->used;
		if (unlikely(row >= b->rows))
			break;
		keys[i] = key;
		sl_kb_rowof(b)[i] = row;
		sl_kb_slotof(b)[row] = i;
		b->used = row + 1;
		*fresh = true;
		return sl_kb_vals(t, b, row);
	}
	return NULL;
}

/*
 * @b (this CPU's, between sl_keyed_begin() and sl_keyed_end()) has no room
 * for @key: the row in its side's spill buffer, the side's spill lock
 * taken (held until sl_keyed_end(): the caller adds to the row under it).
 * This CPU cannot hold the lock already in a nested update (@b is busy),
 * and an update nested after a flip takes the other side's lock, so the
 * lock is only ever waited for on another CPU's behalf.
 */
static noinline notrace u64 *sl_keyed_spill(struct sl_keyed *t,
					    struct sl_keyed_buf *b,
					    u64 key, bool *fresh)
{
	struct sl_keyed_buf *sb;
	u64 *v;

	/* the spill buffer's clearing (and growth) before it went live */
	sb = smp_load_acquire(&t->buf[b->side][t->ncpus]);
	if (!sb) {
		b->full++;
		return NULL;
	}
	if (!b->spill_held) {
		arch_spin_lock(&t->spill_lock[b->side]);
		b->spill_held = 1;
	}
	v = sl_kb_row(t, sb, key, fresh);
	if (v) {
		sb->spilled++;
		b->nspill++;	/* this CPU's: it grows at the fold */
	} else {
		sb->full++;
	}
	return v;
}
NOKPROBE_SYMBOL(sl_keyed_spill);

notrace u64 *sl_keyed_row(struct sl_keyed *t, struct sl_keyed_buf *b, u64 key,
			  bool *fresh)
{
	u64 *v = sl_kb_row(t, b, key, fresh);

	if (likely(v))
		return v;
	return sl_keyed_spill(t, b, key, fresh);
}
NOKPROBE_SYMBOL(sl_keyed_row);

notrace void sl_keyed_spill_unlock(struct sl_keyed_buf *b)
{
	b->spill_held = 0;
	arch_spin_unlock(&b->owner->spill_lock[b->side]);
}
NOKPROBE_SYMBOL(sl_keyed_spill_unlock);

notrace void sl_keyed_retire(struct sl_keyed_buf *b, u32 grp)
{
	if (likely(b->nretired < SL_KEYED_RETIRE))
		b->retired[b->nretired++] = grp;
	else
		b->retire_lost++;
}
NOKPROBE_SYMBOL(sl_keyed_retire);

/* ---- the folded table -------------------------------------------------- */

static unsigned int sl_kf_home(const struct sl_keyed *t, u64 key)
{
	return hash_64(key, t->bits);
}

static u64 *sl_kf_vals(const struct sl_keyed *t, unsigned int row)
{
	return t->vals + (size_t)row * t->nvals;
}

/* The slot of @key, or of the free slot where it would go. */
static unsigned int sl_kf_find(const struct sl_keyed *t, u64 key)
{
	unsigned int i = sl_kf_home(t, key), mask = t->slots - 1;

	while (t->keys[i] && t->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

static void sl_kf_merge(const struct sl_keyed *t, u64 *dst, const u64 *src,
			bool fresh)
{
	unsigned int i;

	if (t->ops && t->ops->merge) {
		t->ops->merge(dst, src, t->nvals, fresh);
		return;
	}
	for (i = 0; i < t->nvals; i++)
		dst[i] += src[i];
}

/* Fold one CPU row into the folded table. */
static void sl_kf_add(struct sl_keyed *t, u64 key, const u64 *src)
{
	unsigned int i = sl_kf_find(t, key), row;
	struct sl_keyed_meta *m;
	u64 *dst;

	if (t->keys[i]) {
		row = t->rowof[i];
		m = &t->meta[row];
		sl_kf_merge(t, sl_kf_vals(t, row), src, false);
		m->seen = t->fold_gen;
		m->dead_ns = 0;		/* updated: alive (again) */
		return;
	}
	if (t->used >= t->max_rows) {
		t->dropped += src[0];
		t->dropped_rows++;
		return;
	}
	row = t->used++;
	dst = sl_kf_vals(t, row);
	memset(dst, 0, t->nvals * sizeof(u64));
	sl_kf_merge(t, dst, src, true);
	t->keys[i] = key;
	t->rowof[i] = row;
	t->meta[row] = (struct sl_keyed_meta){ .slot = i, .seen = t->fold_gen };
}

/*
 * Remove the row of slot @i: a backward-shift deletion of the slot, then
 * the last row moved into the row's place.
 */
static void sl_kf_remove(struct sl_keyed *t, unsigned int i)
{
	unsigned int mask = t->slots - 1, j = i, h, row = t->rowof[i], last;

	for (;;) {
		j = (j + 1) & mask;
		if (!t->keys[j])
			break;
		h = sl_kf_home(t, t->keys[j]);
		/* stays if its home lies cyclically in (i, j] */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		t->keys[i] = t->keys[j];
		t->rowof[i] = t->rowof[j];
		t->meta[t->rowof[i]].slot = i;
		i = j;
	}
	t->keys[i] = 0;
	last = --t->used;
	if (row != last) {
		memcpy(sl_kf_vals(t, row), sl_kf_vals(t, last),
		       t->nvals * sizeof(u64));
		t->meta[row] = t->meta[last];
		t->rowof[t->meta[row].slot] = row;
	}
}

static int sl_kf_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static bool sl_kf_is_dead(const u32 *dead, unsigned int n, u32 grp)
{
	unsigned int lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (dead[mid] == grp)
			return true;
		if (dead[mid] < grp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * After the rows were folded: mark dead the rows of groups that ended
 * (@dead, sorted) or that no longer exist, and remove those dead longer
 * than the linger time.  The scan starts after a free slot and goes once
 * round: a backward shift only moves keys of the cluster ahead into the
 * hole, so every key is looked at once (the slot of a removal again).
 */
static void sl_kf_age(struct sl_keyed *t, const u32 *dead, unsigned int ndead,
		      u64 now)
{
	unsigned int mask = t->slots - 1, start = 0, n, i;
	struct sl_keyed_meta *m;
	u32 grp;

	while (t->keys[start])
		start = (start + 1) & mask;
	for (n = 0; n < t->slots; n++) {
		i = (start + 1 + n) & mask;
		while (t->keys[i]) {
			m = &t->meta[t->rowof[i]];
			grp = sl_keyed_group(t->keys[i]);
			if (!m->dead_ns &&
			    (sl_kf_is_dead(dead, ndead, grp) ||
			     (m->seen != t->fold_gen && t->ops &&
			      t->ops->alive && !t->ops->alive(grp))))
				m->dead_ns = now ? now : 1;
			if (!m->dead_ns || now - m->dead_ns < t->linger_ns)
				break;
			t->aged += sl_kf_vals(t, t->rowof[i])[0];
			t->aged_rows++;
			sl_kf_remove(t, i);
		}
	}
}

/*
 * After @b (@cpu's buffer of @side, drained) was full or more than half
 * used: @cpu's buffers grow, this one now (no writer uses it), the other
 * when it is drained.  If the allocation fails, the buffer stays as it was.
 */
static void sl_kf_grow(struct sl_keyed *t, unsigned int side,
		       unsigned int cpu, struct sl_keyed_buf *b, bool busy)
{
	unsigned int bound = sl_kb_bound(t, cpu);
	struct sl_keyed_buf *nb;

	if (busy && t->want[cpu] <= b->rows && b->rows < bound)
		t->want[cpu] = min_t(u32, b->rows * SL_KEYED_CPU_GROW, bound);
	if (t->want[cpu] <= b->rows)
		return;
	nb = sl_kb_alloc(t, t->want[cpu], cpu, side);
	if (!nb)
		return;
	/* release: the new buffer's zeroes before it goes live */
	smp_store_release(&t->buf[side][cpu], nb);
	if (cpu < t->ncpus)
		atomic64_sub(b->bytes, &t->buf_bytes);
	kvfree(b);
	t->grows++;
}

/*
 * Fold the buffers of side @side (no writer uses them any more), their
 * ended groups noted in t->dead after the @ndead there; the count now.
 */
static unsigned int sl_kf_drain(struct sl_keyed *t, unsigned int side,
				unsigned int ndead)
{
	unsigned int cpu, r;
	struct sl_keyed_buf *b;
	u64 *keys, *v;
	bool busy;
	u32 slot;

	/* the CPUs' buffers, then the spill buffer (cpu == ncpus) */
	for (cpu = 0; cpu <= t->ncpus; cpu++) {
		b = READ_ONCE(t->buf[side][cpu]);
		if (!b)
			continue;
		/*
		 * A CPU buffer grows when it had to spill (the early folds
		 * below drain it before that, unless keys come faster); the
		 * spill buffer when it is more than half used.
		 */
		busy = b->full || b->nspill ||
		       (cpu == t->ncpus && b->used > b->rows / 2);
		keys = sl_kb_keys(b);
		for (r = 0; r < b->used; r++) {
			slot = sl_kb_slotof(b)[r];
			v = sl_kb_vals(t, b, r);
			sl_kf_add(t, keys[slot], v);
			keys[slot] = 0;
			memset(v, 0, t->nvals * sizeof(u64));
		}
		/*
		 * room for one side's notes; a fold that drains both (buffers
		 * grew) counts the rare excess lost
		 */
		for (r = 0; r < b->nretired; r++) {
			if (ndead < t->ncpus * SL_KEYED_RETIRE)
				t->dead[ndead++] = b->retired[r];
			else
				t->retire_lost++;
		}
		t->full += b->full;
		t->busy += b->nbusy;
		t->retire_lost += b->retire_lost;
		t->spilled += b->spilled;
		b->spilled = 0;
		b->nspill = 0;
		b->used = 0;
		b->nretired = 0;
		b->full = 0;
		b->nbusy = 0;
		b->retire_lost = 0;
		sl_kf_grow(t, side, cpu, b, busy);
	}
	return ndead;
}

/* Caller holds the lock. */
static void sl_kf_fold(struct sl_keyed *t, u64 now)
{
	unsigned int old = t->live, ndead;
	u64 grows = t->grows;

	/* the cleared buffers go live; then no update uses the old ones */
	smp_store_release(&t->live, old ^ 1);
	synchronize_rcu();
	t->fold_gen++;
	t->folds++;
	ndead = sl_kf_drain(t, old, 0);
	if (t->grows != grows) {
		/*
		 * Buffers grew: they go live now, and the other side (what
		 * was counted in the grace period) is drained and grows too.
		 */
		smp_store_release(&t->live, old);
		synchronize_rcu();
		ndead = sl_kf_drain(t, old ^ 1, ndead);
	}
	if (ndead)
		sort(t->dead, ndead, sizeof(*t->dead), sl_kf_cmp_u32, NULL);
	sl_kf_age(t, t->dead, ndead, now);
	t->gen++;
}

void sl_keyed_fold(struct sl_keyed *t, u64 now)
{
	mutex_lock(&t->lock);
	sl_kf_fold(t, now);
	mutex_unlock(&t->lock);
}

void sl_keyed_reset(struct sl_keyed *t)
{
	mutex_lock(&t->lock);
	/* both sides drained (their rows discarded below) */
	sl_kf_fold(t, 0);
	sl_kf_fold(t, 0);
	memset(t->keys, 0, t->slots * sizeof(*t->keys));
	t->used = 0;
	t->folds = 0;
	t->full = 0;
	t->busy = 0;
	t->dropped = 0;
	t->dropped_rows = 0;
	t->aged = 0;
	t->aged_rows = 0;
	t->retire_lost = 0;
	t->spilled = 0;
	t->gen++;
	mutex_unlock(&t->lock);
}

void sl_keyed_lock(struct sl_keyed *t)
{
	mutex_lock(&t->lock);
}

void sl_keyed_unlock(struct sl_keyed *t)
{
	mutex_unlock(&t->lock);
}

bool sl_keyed_next(struct sl_keyed *t, unsigned int *pos, u64 *key, u64 *vals)
{
	unsigned int row = *pos;

	if (row >= t->used)
		return false;
	*key = t->keys[t->meta[row].slot];
	memcpy(vals, sl_kf_vals(t, row), t->nvals * sizeof(u64));
	*pos = row + 1;
	return true;
}

u64 sl_keyed_gen(struct sl_keyed *t)
{
	return t->gen;
}

u64 sl_keyed_cpu_bytes(struct sl_keyed *t)
{
	s64 n = atomic64_read(&t->buf_cpus);

	return n > 0 ? (u64)atomic64_read(&t->buf_bytes) / (u64)n : 0;
}

/* Bytes of the folded table: slots (key, row) and rows (values, meta). */
static u64 sl_kf_bytes(const struct sl_keyed *t)
{
	return (u64)t->slots * (sizeof(u64) + sizeof(u32)) +
	       (u64)t->max_rows * (t->nvals * sizeof(u64) +
				   sizeof(struct sl_keyed_meta));
}

void sl_keyed_stats(struct sl_keyed *t, struct sl_keyed_stats *st)
{
	unsigned int side, cpu;
	struct sl_keyed_buf *b;

	mutex_lock(&t->lock);
	*st = (struct sl_keyed_stats){
		.rows = t->used,
		.max_rows = t->max_rows,
		.cpu_rows = t->cpu_rows,
		.row_bytes = (u32)(sl_kf_bytes(t) / t->max_rows),
		.row_bytes_cpu = (u32)(sl_kb_bytes(t, t->cpu_rows) /
				       t->cpu_rows),
		.linger_ns = t->linger_ns,
		.folds = t->folds,
		.full = t->full,
		/* busy: nested updates, and updates on a CPU without buffers */
		.busy = t->busy + atomic64_read(&t->nobuf),
		.dropped = t->dropped,
		.dropped_rows = t->dropped_rows,
		.aged = t->aged,
		.aged_rows = t->aged_rows,
		.retire_lost = t->retire_lost,
		.spilled = t->spilled,
	};
	st->grows = t->grows;
	st->bytes = sizeof(*t) + sl_kf_bytes(t) +
		    (u64)t->ncpus * (SL_KEYED_RETIRE * sizeof(u32) +
				     2 * sizeof(void *) + sizeof(u32));
	/* what the live buffers lost since the last fold, too */
	for (side = 0; side < 2; side++)
		for (cpu = 0; cpu <= t->ncpus; cpu++) {
			b = READ_ONCE(t->buf[side][cpu]);
			if (!b)
				continue;
			st->bytes += b->bytes;
			if (cpu == t->ncpus) {
				st->spill_rows_now = max_t(u32,
							   st->spill_rows_now,
							   b->rows);
			} else {
				st->cpus += side == 0;
				st->cpu_rows_now = max_t(u32,
							 st->cpu_rows_now,
							 b->rows);
			}
			st->spilled += READ_ONCE(b->spilled);
			st->full += READ_ONCE(b->full);
			st->busy += READ_ONCE(b->nbusy);
			st->retire_lost += READ_ONCE(b->retire_lost);
		}
	mutex_unlock(&t->lock);
}

/* ---- life ------------------------------------------------------------- */

void sl_keyed_destroy(struct sl_keyed *t)
{
	unsigned int side, cpu;

	if (!t)
		return;
	sl_cpus_del(&t->cpus);
	for (side = 0; side < 2; side++) {
		if (!t->buf[side])
			continue;
		for (cpu = 0; cpu <= t->ncpus; cpu++)
			kvfree(t->buf[side][cpu]);
		kfree(t->buf[side]);
	}
	kvfree(t->keys);
	kvfree(t->rowof);
	kvfree(t->meta);
	kvfree(t->vals);
	kvfree(t->dead);
	kfree(t->want);
	kfree(t);
}

/* Process context (cpus.h): @cpu's two buffers, if it has none. */
static int sl_keyed_cpu_alloc(struct sl_cpus_user *u, unsigned int cpu)
{
	struct sl_keyed *t = container_of(u, struct sl_keyed, cpus);
	struct sl_keyed_buf *b;
	unsigned int side;

	for (side = 0; side < 2; side++) {
		if (t->buf[side][cpu])
			continue;
		b = sl_kb_alloc(t, t->cpu_start, cpu, side);
		if (!b)
			return -ENOMEM;
		/* release: zeroed before a writer or the folder sees it */
		smp_store_release(&t->buf[side][cpu], b);
		if (side == 0)
			atomic64_inc(&t->buf_cpus);
	}
	return 0;
}

/*
 * @spill_rows: the rows each side's spill buffer starts with (0: none,
 * an update that finds its CPU buffer full is lost).
 */
struct sl_keyed *sl_keyed_create(unsigned int nvals, unsigned int rows,
				 unsigned int cpu_start, unsigned int cpu_rows,
				 unsigned int spill_rows, u64 linger_ns,
				 const struct sl_keyed_ops *ops)
{
	struct sl_keyed_buf *b;
	unsigned int side;
	struct sl_keyed *t;

	if (!nvals || nvals > SL_KEYED_MAX_VALS ||
	    rows < SL_KEYED_MIN_ROWS || rows > SL_KEYED_MAX_ROWS ||
	    cpu_rows < SL_KEYED_MIN_ROWS || cpu_rows > SL_KEYED_MAX_ROWS ||
	    cpu_start < SL_KEYED_MIN_ROWS || cpu_start > cpu_rows ||
	    (spill_rows && (spill_rows < SL_KEYED_MIN_ROWS ||
			    spill_rows > SL_KEYED_MAX_ROWS)))
		return NULL;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	mutex_init(&t->lock);
	t->nvals = nvals;
	t->ops = ops;
	t->linger_ns = linger_ns;
	t->cpu_start = cpu_start;
	t->cpu_rows = cpu_rows;
	t->spill_rows = spill_rows;
	/* at most 3/4 of the slots in use */
	t->max_rows = rows;
	t->slots = roundup_pow_of_two(rows + rows / 3 + 1);
	t->bits = ilog2(t->slots);
	t->ncpus = nr_cpu_ids;
	/* [ncpus]: the spill buffer's */
	t->want = kcalloc(t->ncpus + 1, sizeof(*t->want), GFP_KERNEL);
	if (!t->want)
		goto nomem;
	for (side = 0; side < 2; side++) {
		t->buf[side] = kcalloc(t->ncpus + 1, sizeof(*t->buf[side]),
				       GFP_KERNEL);
		if (!t->buf[side])
			goto nomem;
		t->spill_lock[side] =
			(arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
		if (!spill_rows)
			continue;
		b = sl_kb_alloc(t, spill_rows, t->ncpus, side);
		if (!b)
			goto nomem;
		t->buf[side][t->ncpus] = b;
	}
	/* the buffers of the online CPUs, and of each that comes (cpus.h) */
	t->cpus.online = sl_keyed_cpu_alloc;
	if (sl_cpus_add(&t->cpus))
		goto nomem;
	t->keys = kvcalloc(t->slots, sizeof(*t->keys), GFP_KERNEL);
	t->rowof = kvcalloc(t->slots, sizeof(*t->rowof), GFP_KERNEL);
	t->meta = kvcalloc(rows, sizeof(*t->meta), GFP_KERNEL);
	t->vals = kvcalloc((size_t)rows * nvals, sizeof(u64), GFP_KERNEL);
	t->dead = kvcalloc((size_t)t->ncpus * SL_KEYED_RETIRE,
			   sizeof(*t->dead), GFP_KERNEL);
	if (!t->keys || !t->rowof || !t->meta || !t->vals || !t->dead)
		goto nomem;
	return t;
nomem:
	sl_keyed_destroy(t);
	return NULL;
}

/*
 * Does a live buffer want an early fold: more than half used, or full
 * (whether it can grow or not: the fold drains it, and grows it if it had
 * to spill)?  Its used and full are read racily: a hint.
 */
bool sl_keyed_crowded(struct sl_keyed *t)
{
	struct sl_keyed_buf *b;
	unsigned int cpu, live;

	mutex_lock(&t->lock);
	live = READ_ONCE(t->live);
	/* the spill buffer (cpu == ncpus) too */
	for (cpu = 0; cpu <= t->ncpus; cpu++) {
		b = READ_ONCE(t->buf[live][cpu]);
		if (b && (READ_ONCE(b->used) > b->rows / 2 ||
			  READ_ONCE(b->full)))
			break;
	}
	mutex_unlock(&t->lock);
	return cpu <= t->ncpus;
}

#ifndef SL_USERSPACE
/*
 * A fold each period, or early when a buffer is crowded (it is drained
 * before it fills, and grows if it filled).
 */
static void sl_keyed_work(struct work_struct *w)
{
	struct sl_keyed *t = container_of(to_delayed_work(w), struct sl_keyed,
					  work);

	if (time_after_eq(jiffies, t->next) || sl_keyed_crowded(t)) {
		sl_keyed_fold(t, ktime_get_mono_fast_ns());
		t->next = jiffies + t->period;
	}
	queue_delayed_work(sl_compat_unbound_wq, &t->work, t->tick);
}

void sl_keyed_start(struct sl_keyed *t, unsigned int period_ms)
{
	if (t->running)
		return;
	INIT_DELAYED_WORK(&t->work, sl_keyed_work);
	t->period = max(1UL, msecs_to_jiffies(period_ms));
	t->tick = max(1UL, t->period / 8);
	t->next = jiffies + t->period;
	t->running = true;
	queue_delayed_work(sl_compat_unbound_wq, &t->work, t->tick);
}

void sl_keyed_stop(struct sl_keyed *t)
{
	if (!t->running)
		return;
	cancel_delayed_work_sync(&t->work);
	t->running = false;
}

void sl_keyed_show_comm(char *comm, const u64 *from)
{
	unsigned int i;

	memcpy(comm, from, 16);
	comm[15] = '\0';
	for (i = 0; comm[i]; i++)
		if (!isgraph(comm[i]))
			comm[i] = '?';
	if (!comm[0])
		strscpy(comm, "-", 16);
}

void sl_keyed_show_hist(struct seq_file *m, const u64 *hist)
{
	unsigned int i;
	char lo[16];

	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++) {
		if (!hist[i])
			continue;
		sl_fmt_ns(lo, sizeof(lo), stacklat_sc_lower(i));
		seq_printf(m, " %s:%llu", lo, hist[i]);
	}
	seq_puts(m, "\n");
}

int sl_keyed_put_hist(struct sk_buff *skb, int first_attr, int hist_attr,
		      const u64 *hist, unsigned int n)
{
	unsigned int i, first = n, last = 0;

	for (i = 0; i < n; i++) {
		if (!hist[i])
			continue;
		first = min(first, i);
		last = i + 1;
	}
	if (last > first &&
	    (nla_put_u32(skb, first_attr, first) ||
	     nla_put(skb, hist_attr, (last - first) * sizeof(u64),
		     &hist[first])))
		return -EMSGSIZE;
	return 0;
}
#endif
