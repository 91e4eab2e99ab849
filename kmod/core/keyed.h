/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keyed aggregation: a row of u64 values per key (a process and a syscall,
 * say), updated from probe context, summed for readers in process context.
 *
 * Writers.  Every CPU has two buffers of its own, each a bounded open
 * addressing table of keys (linear probing, at most SL_KEYED_PROBES slots
 * looked at) and a dense array of rows.  An update runs between
 * sl_keyed_begin() and sl_keyed_end() with preemption off, on this CPU's
 * live buffer only: it finds or claims the key's row and adds to it with
 * plain stores - no atomic, no lock, no allocation, nothing that sleeps.
 * An update that finds no row in its CPU buffer (the buffer holds its
 * rows' keys already, or its probe window is full) goes to the table's
 * spill buffer of the same side, shared by the CPUs under a spinlock
 * (counted "spilled"); one that finds no row there either is lost and
 * counted ("full").  One nested in another on the same CPU (a probe in an
 * interrupt) is lost and counted ("busy"): so an update never waits for a
 * spill lock its own CPU holds.  The lock is per side: an update nested
 * after a flip uses the other side's.
 *
 * Memory follows use: the folding work looks at the live buffers eight
 * times a period and folds early when one is more than half used, so a
 * buffer fills only when more new keys than it has rows come within an
 * eighth of a period; those spill into the shared buffers, and at the
 * fold the CPU's buffers grow (by SL_KEYED_CPU_GROW, from cpu_start up
 * to cpu_rows).  The spill buffers start at spill_rows and grow the same
 * way, when more than half used, up to the larger of spill_rows and
 * cpu_rows.  So the CPU buffers can start small and stay small where keys
 * come slowly.
 *
 * Readers.  sl_keyed_fold(), process context: flip which buffer is live,
 * synchronize_rcu() - every update that could still be writing to the old
 * buffers has then ended, since updates run with preemption off - and
 * move the old buffers' rows into the folded table, which only process
 * context touches (under the table's mutex), clearing them for their next
 * turn.  Why this and not per-CPU seqcounts: the probe path is then plain
 * stores to memory no other CPU touches (no counter to bump twice, no
 * retry); the folder owns the old buffers outright, so it can clear and
 * reuse them - aging needs that, a seqcount reader could only read; and a
 * fold costs one grace period (milliseconds, sleeping, no CPU) per second
 * and per read, which readers of a table like this can afford.  A work
 * item folds once a period (sl_keyed_start) and every reader folds first,
 * so what it reads is complete up to its read.
 *
 * Weight.  Value 0 of a row is its weight (a count of updates): what is
 * dropped (no room in the folded table) and what is aged out is accounted
 * in it, so that every update is either in a row or in a counter.
 *
 * Aging.  A key's group is its top 32 bits (a process's tgid).  A group
 * that ended is noted with sl_keyed_retire() in probe context (bounded per
 * buffer; a note that finds no room is counted "retire_lost"); at the next
 * fold its rows are marked dead, and a dead row is removed (its weight
 * counted "aged") once it has been dead longer than the linger time, so
 * that readers sampling at intervals still see a group's last counts.  A
 * row updated again is alive again (a reused id).  As a backstop for lost
 * notes, the optional ops->alive(group) is asked about rows that were not
 * updated during the last fold period.
 *
 * The same source compiles in userspace (-DSL_USERSPACE, tests/unit/kshim.h:
 * synchronize_rcu() there is a membarrier-based grace period).
 */
#ifndef _STACKLAT_KEYED_H
#define _STACKLAT_KEYED_H

#ifdef SL_USERSPACE
#include "kshim.h"
#else
#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/smp.h>
#include <linux/workqueue.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/atomic.h>
#include "stacklat.h"
#endif
#include "cpus.h"

#define SL_KEYED_MAX_VALS	64	/* values a row */
#define SL_KEYED_RETIRE		128	/* ended groups a buffer notes a fold */
#define SL_KEYED_PROBES		32	/* slots an update looks at */
#define SL_KEYED_MIN_ROWS	16
#define SL_KEYED_MAX_ROWS	(1U << 22)
#define SL_KEYED_CPU_START	16	/* rows a CPU buffer starts with (module) */
#define SL_KEYED_SPILL_ROWS	128	/* rows the spill buffers start with (module) */
#define SL_KEYED_CPU_GROW	4	/* and grows by, at a fold */

/* The group of a key: its top 32 bits. */
static __always_inline u32 sl_keyed_group(u64 key)
{
	return (u32)(key >> 32);
}

struct sl_keyed_ops {
	/*
	 * Fold a CPU's row @src into the folded row @dst (all zero when
	 * @fresh).  NULL: every value is summed.
	 */
	void (*merge)(u64 *dst, const u64 *src, unsigned int nvals, bool fresh);
	/* Does group @grp still exist?  Optional (see aging above). */
	bool (*alive)(u32 grp);
};

/* One CPU's buffer (its header; slots and rows follow it, its own shape). */
struct sl_keyed_buf {
	u32 busy;			/* an update is under way */
	u32 used;			/* rows claimed since the last fold */
	u32 nretired;
	u32 rows;			/* its shape: rows, slots (2^bits) */
	u32 slots, bits;
	u32 off_rowof, off_slotof, off_vals;
	u32 cpu;			/* whose (ncpus: the spill buffer) */
	u32 side;			/* which side it is on */
	u32 spill_held;			/* this CPU holds the side's spill lock */
	struct sl_keyed *owner;
	u64 bytes;			/* the whole buffer */
	u64 spilled;			/* spill buffer: updates it took */
	u64 nspill;			/* CPU buffer: updates it spilled */
	u64 full;			/* updates lost: no row */
	u64 nbusy;			/* updates lost: nested */
	u64 retire_lost;		/* retire notes lost: no room */
	u32 retired[SL_KEYED_RETIRE];
};

/* A folded row's bookkeeping. */
struct sl_keyed_meta {
	u64 dead_ns;			/* when its group was seen to end; 0 alive */
	u32 slot;			/* its key's slot */
	u32 seen;			/* the last fold that updated it */
};

struct sl_keyed {
	/* the shape, fixed at create */
	unsigned int nvals;
	unsigned int cpu_start;		/* rows a CPU buffer starts with */
	unsigned int cpu_rows;		/* the most rows a CPU buffer grows to */
	unsigned int spill_rows;	/* rows the spill buffers start with */
	unsigned int bits, slots, max_rows;
	unsigned int ncpus;		/* buffers per side (nr_cpu_ids) */
	u64 linger_ns;
	const struct sl_keyed_ops *ops;

	/* which side the writers use: 0 or 1, flipped by the folder */
	unsigned int live;
	/*
	 * [side][cpu]: for the CPUs online since create (cpus.h), else NULL;
	 * [side][ncpus]: the side's spill buffer (NULL: none), under
	 * spill_lock[side]
	 */
	struct sl_keyed_buf **buf[2];
	arch_spinlock_t spill_lock[2];
	struct sl_cpus_user cpus;
	atomic64_t nobuf;		/* updates on a CPU without buffers */
	atomic64_t buf_bytes;		/* of all CPU buffers */
	atomic64_t buf_cpus;		/* CPUs with buffers */
	u32 *want;			/* [cpu]: rows its buffers grow to */
	u64 grows;			/* buffers grown */

	/* the folded table, process context under @lock */
	struct mutex lock;
	u64 *keys;			/* [slots], 0: free */
	u32 *rowof;			/* [slots]: the row of a slot's key */
	struct sl_keyed_meta *meta;	/* [max_rows] */
	u64 *vals;			/* [max_rows][nvals] */
	unsigned int used;
	u32 *dead;			/* scratch: the groups ended in a fold */
	u32 fold_gen;
	u64 gen;			/* bumped when rows move, go or reset */
	u64 folds, full, busy, dropped, dropped_rows, aged, aged_rows, spilled;
	u64 retire_lost;
#ifndef SL_USERSPACE
	struct delayed_work work;
	unsigned long period, tick, next;
	bool running;
#endif
};

struct sl_keyed_stats {
	u32 rows;			/* folded rows in use */
	u32 max_rows;			/* their bound */
	u32 cpu_rows;			/* keys a CPU buffer takes per fold, at most */
	u32 cpus;			/* CPUs with buffers (two each) */
	u32 row_bytes;			/* bytes a folded row takes */
	u32 row_bytes_cpu;		/* bytes a row takes in one CPU buffer */
	u32 cpu_rows_now;		/* the largest CPU buffer's rows now */
	u32 spill_rows_now;		/* the spill buffers' rows now */
	u64 grows;			/* CPU buffers grown */
	u64 bytes;			/* the whole table */
	u64 linger_ns;
	u64 folds;
	u64 full;			/* updates lost: CPU and spill buffer full */
	u64 spilled;			/* updates that went to the spill buffer */
	u64 busy;			/* updates lost: nested */
	u64 dropped;			/* weight lost: folded table full */
	u64 dropped_rows;
	u64 aged;			/* weight of rows aged out */
	u64 aged_rows;
	u64 retire_lost;
};

struct sl_keyed *sl_keyed_create(unsigned int nvals, unsigned int rows,
				 unsigned int cpu_start, unsigned int cpu_rows,
				 unsigned int spill_rows, u64 linger_ns,
				 const struct sl_keyed_ops *ops);
void sl_keyed_destroy(struct sl_keyed *t);
/* Process context: does a live CPU buffer want to grow (an early fold)? */
bool sl_keyed_crowded(struct sl_keyed *t);
/* Bytes of the CPU buffers of each CPU that has them, on average. */
u64 sl_keyed_cpu_bytes(struct sl_keyed *t);

/* ---- probe context ---------------------------------------------------- */

/*
 * Start an update: preemption off, this CPU's live buffer marked busy.
 * NULL (counted busy) when an update is already under way on this CPU,
 * or when this CPU has no buffers yet (it just came online: cpus.h).
 */
static __always_inline struct sl_keyed_buf *sl_keyed_begin(struct sl_keyed *t)
{
	struct sl_keyed_buf *b;

	preempt_disable_notrace();
	/* the folder's clearing of this buffer before it went live again */
	b = READ_ONCE(t->buf[smp_load_acquire(&t->live)][raw_smp_processor_id()]);
	if (unlikely(!b)) {
		/* a CPU just online, before its callback (rare: shared) */
		atomic64_inc(&t->nobuf);
		preempt_enable_notrace();
		return NULL;
	}
	if (unlikely(READ_ONCE(b->busy))) {
		b->nbusy++;
		preempt_enable_notrace();
		return NULL;
	}
	WRITE_ONCE(b->busy, 1);
	barrier();
	return b;
}

void sl_keyed_spill_unlock(struct sl_keyed_buf *b);

static __always_inline void sl_keyed_end(struct sl_keyed_buf *b)
{
	if (unlikely(b->spill_held))
		sl_keyed_spill_unlock(b);
	barrier();
	WRITE_ONCE(b->busy, 0);
	preempt_enable_notrace();
}

/*
 * The row of @key (never 0) in @b, or in the spill buffer when @b has no
 * room for it (the spill lock is then held until sl_keyed_end()): its
 * nvals values, to add to with plain stores until sl_keyed_end(); *@fresh
 * when it was just claimed (all zero).  NULL when there is no room in
 * either (counted full).
 */
u64 *sl_keyed_row(struct sl_keyed *t, struct sl_keyed_buf *b, u64 key,
		  bool *fresh);

/* Group @grp ended: its rows age out after the next fold. */
void sl_keyed_retire(struct sl_keyed_buf *b, u32 grp);

#ifndef SL_USERSPACE
/*
 * The log2 bucket of @ns in a row's histogram of STACKLAT_SC_NBUCKETS
 * (uapi's stacklat_sc_bucket(), without its loop).
 */
static __always_inline unsigned int sl_keyed_bucket(u64 ns)
{
	unsigned int b;

	if (ns < 256)
		return 0;
	b = fls64(ns) - 8;
	return min_t(unsigned int, b, STACKLAT_SC_NBUCKETS - 1);
}

/*
 * A row's errno counts: STACKLAT_SC_ERRNOS slots of errno << 48 | count,
 * the first free one taken by a new errno, the rest counted in *@other.
 * Add @n calls that failed with @err (probe context: 1; a fold: a CPU
 * buffer's count).
 */
#define SL_KEYED_ERRNO_SHIFT	48
#define SL_KEYED_ERRNO_COUNT	(BIT_ULL(SL_KEYED_ERRNO_SHIFT) - 1)

static __always_inline void sl_keyed_errno_add(u64 *slots, u64 *other,
					       u64 err, u64 n)
{
	unsigned int i;

	for (i = 0; i < STACKLAT_SC_ERRNOS; i++) {
		if (!slots[i])
			slots[i] = err << SL_KEYED_ERRNO_SHIFT;
		if (slots[i] >> SL_KEYED_ERRNO_SHIFT == err) {
			slots[i] += n;
			return;
		}
	}
	*other += n;
}

/* Fold @src's errno slots into @dst's (sl_keyed_errno_add()). */
static inline void sl_keyed_errno_merge(u64 *dst, u64 *other, const u64 *src)
{
	unsigned int i;

	for (i = 0; i < STACKLAT_SC_ERRNOS && src[i]; i++)
		sl_keyed_errno_add(dst, other, src[i] >> SL_KEYED_ERRNO_SHIFT,
				   src[i] & SL_KEYED_ERRNO_COUNT);
}

/* A task's name @from (16 bytes, may change under us) into a row's @c. */
static __always_inline void sl_keyed_name(char *c, const char *from)
{
	unsigned int i;

	for (i = 0; i < 15; i++)
		c[i] = READ_ONCE(from[i]);
	c[15] = '\0';
}
#endif

/* ---- process context -------------------------------------------------- */

/* Fold the CPU buffers into the folded table and age it, at time @now. */
void sl_keyed_fold(struct sl_keyed *t, u64 now);
/* Forget every row and zero the counters. */
void sl_keyed_reset(struct sl_keyed *t);

/*
 * Reading: between sl_keyed_lock() and sl_keyed_unlock(), rows in order:
 * sl_keyed_next() copies the row at *@pos (its key and nvals values) and
 * advances; false past the end.  sl_keyed_gen() changes whenever rows
 * moved or went (a fold, a reset): a reader that let go of the lock in
 * between compares it.
 */
void sl_keyed_lock(struct sl_keyed *t);
void sl_keyed_unlock(struct sl_keyed *t);
bool sl_keyed_next(struct sl_keyed *t, unsigned int *pos, u64 *key, u64 *vals);
u64 sl_keyed_gen(struct sl_keyed *t);
void sl_keyed_stats(struct sl_keyed *t, struct sl_keyed_stats *st);

#ifndef SL_USERSPACE
/* A fold every @period_ms from a work item, until sl_keyed_stop(). */
void sl_keyed_start(struct sl_keyed *t, unsigned int period_ms);
void sl_keyed_stop(struct sl_keyed *t);

/*
 * For the pipelines' readers (process context).  A name a row keeps in
 * 16 bytes at @from, for a table: NUL-ended, blanks and unprintable bytes
 * as '?' (the columns stay), "-" when empty.
 */
void sl_keyed_show_comm(char *comm, const u64 *from);
struct seq_file;
/*
 * A row's log2 histogram (STACKLAT_SC_NBUCKETS) for a table: " lo:count"
 * for each non-zero bucket, then the end of the line.
 */
void sl_keyed_show_hist(struct seq_file *m, const u64 *hist);
/*
 * For the pipelines' merge callbacks (process context, under the fold): a
 * row's log2 histogram (STACKLAT_SC_NBUCKETS) at @src added to @dst's.
 */
static inline void sl_keyed_merge_hist(u64 *dst, const u64 *src)
{
	unsigned int i;

	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++)
		dst[i] += src[i];
}
struct sk_buff;
/*
 * A row's log2 histogram of @n buckets for GET_KEYED: its non-zero range
 * only, the first bucket's index in @first_attr and the buckets as u64 in
 * @hist_attr; nothing when all are zero.  0 or -EMSGSIZE.
 */
int sl_keyed_put_hist(struct sk_buff *skb, int first_attr, int hist_attr,
		      const u64 *hist, unsigned int n);
#endif

#endif /* _STACKLAT_KEYED_H */
