/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel stacks (stack.c): a pipeline captures the current kernel stack in
 * probe context and counts it in a bounded table of stack ids, with a
 * count and a sum of a value (a time, say) per stack; readers get the
 * stacks symbolised (function+offset), in process context, never as
 * addresses.
 *
 * The table.  One table a pipeline, made when it is first enabled
 * (sl_pipeline_stacks_enable(), stack_slots= slots of stack_depth= frames,
 * module parameters with ranges), shared by every CPU: an open-addressing
 * table whose slot is claimed by a cmpxchg on its key word (the stack's
 * hash and a state: free, being written, ready), linear probing over at
 * most SL_STACK_PROBES slots.  Why shared and not per CPU: a stack's id
 * must be the same on every CPU (an off-CPU view adds time to the stack a
 * thread blocked in, wherever it wakes), per-CPU tables would multiply the
 * memory (a slot is some 300 bytes) by the possible CPUs, and the cost it
 * adds (one cmpxchg the first time a stack is seen, then atomic adds on
 * its count and sum) is small beside the unwinding that precedes it.
 * Nothing is ever removed from a slot but by a reset, so a lookup that
 * finds the hash with the frames equal has its stack; equal hashes with
 * other frames (a collision) go on probing.
 *
 * What is lost is counted in the pipeline's losses, by name:
 *   stack_full       no slot for a new stack within the probe window
 *   stack_truncated  deeper than stack_depth: counted, and kept cut
 *   stack_busy       the CPU's scratch buffer in use (a capture nested in
 *                    one on the same CPU, from an interrupt), or the stack
 *                    being written by another CPU at that moment (its
 *                    slot claimed, not yet ready)
 *
 * The same source compiles in userspace (-DSL_USERSPACE, tests/unit/
 * kshim.h): the table, the insert and the trimming; not the capture.
 */
#ifndef _STACKLAT_STACK_H
#define _STACKLAT_STACK_H

#ifdef SL_USERSPACE
#include "kshim.h"
#else
#include <linux/types.h>
#include <linux/atomic.h>
#endif

#define SL_STACK_PROBES		16	/* slots an insert looks at */
#define SL_STACK_SKIP_MAX	24	/* frames of the probe machinery, at most */
#define SL_STACK_MIN_DEPTH	4
#define SL_STACK_MAX_DEPTH	64
#define SL_STACK_MIN_SLOTS	16
#define SL_STACK_MAX_SLOTS	(1U << 16)
/*
 * An anchor is the hooked function's address; its first frame is the
 * function's own entry as the probe saw it (the int3, or the return from
 * the ftrace call after an endbr): within this many bytes of the address.
 */
#define SL_STACK_ANCHOR_WIN	32

/* An insert's result when it found no id (< 0). */
enum {
	SL_STACK_E_FULL = -1,
	SL_STACK_E_BUSY = -2,
};

/* a slot's key word: the hash in the top 32 bits, the state in the low */
#define SL_STACK_FILLING	1ULL
#define SL_STACK_READY		2ULL

struct sl_stack_slot {
	u64 key;			/* 0 free; hash << 32 | state */
	atomic64_t count;
	atomic64_t sum;
	u32 nr;				/* frames */
	u32 truncated;			/* deeper than the table's depth */
	unsigned long ip[];		/* [depth] */
};

struct sl_stacks {
	unsigned int slots;		/* a power of two */
	unsigned int depth;
	size_t stride;			/* bytes a slot */
	bool open;			/* captures go in: READ_ONCE */
	atomic_t used;			/* slots claimed */
	void *mem;			/* slots * stride */
#ifndef SL_USERSPACE
	/* per CPU: the scratch buffer a capture unwinds into, and its flag */
	unsigned long __percpu *scratch;	/* [SL_STACK_SKIP_MAX + depth + 1] */
	int __percpu *busy;
#endif
};

static inline struct sl_stack_slot *sl_stack_slot(struct sl_stacks *t,
						  unsigned int i)
{
	return (struct sl_stack_slot *)((char *)t->mem + (size_t)i * t->stride);
}

/* Tunables (main.c's parameters stack_slots, stack_depth). */
extern unsigned int sl_stack_slots;
extern unsigned int sl_stack_depth;

/* ---- any context: the table itself ------------------------------------- */

struct sl_stacks *sl_stacks_create(unsigned int slots, unsigned int depth);
void sl_stacks_destroy(struct sl_stacks *t);
u64 sl_stacks_bytes(const struct sl_stacks *t);

/*
 * Count @nr frames @ip (hash @hash) once, adding @value to their sum;
 * @truncated: the stack was cut to them.  Returns the stack's id (slot +
 * 1, > 0) or SL_STACK_E_FULL / SL_STACK_E_BUSY.  Lockless; never sleeps.
 */
int sl_stacks_insert(struct sl_stacks *t, const unsigned long *ip,
		     unsigned int nr, u32 hash, u64 value, bool truncated);

/*
 * Where a stack of @n frames @buf starts: at the first frame within
 * SL_STACK_ANCHOR_WIN bytes after @anchor when @anchor is given and
 * found, else after @skip frames.  *@nr: frames kept (at most @depth).
 */
unsigned int sl_stack_trim(const unsigned long *buf, unsigned int n,
			   unsigned long anchor, unsigned int skip,
			   unsigned int depth, unsigned int *nr);

/*
 * A range of kernel text [lo, hi): code a caller search steps over (the
 * locking functions, say).
 */
struct sl_text_range {
	unsigned long lo, hi;
};

static inline bool sl_text_in(unsigned long ip, const struct sl_text_range *r,
			      unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (ip >= r[i].lo && ip < r[i].hi)
			return true;
	return false;
}

/*
 * Any context: the caller of the code in @r (@nr ranges) in @n frames
 * @ip, innermost first: the first frame that is not in @r after one that
 * is (the frames before the first are the probe's own); 0 when the stack
 * never enters @r or never leaves it.
 */
static inline unsigned long sl_stack_caller(const unsigned long *ip,
					    unsigned int n,
					    const struct sl_text_range *r,
					    unsigned int nr)
{
	bool in = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (sl_text_in(ip[i], r, nr))
			in = true;
		else if (in)
			return ip[i];
	}
	return 0;
}

/* ---- process context: readers and reset --------------------------------- */

struct sl_stack_info {
	u64 count;
	u64 sum;
	unsigned int nr;
	bool truncated;
	const unsigned long *ip;	/* the table's: valid until a reset */
};

/*
 * The ids of the stacks in the table, at most @max into @ids, the most
 * counted first; returns how many.
 */
unsigned int sl_stacks_ids(struct sl_stacks *t, u32 *ids, unsigned int max);
/* Stack @id (> 0); false if there is none. */
bool sl_stacks_get(struct sl_stacks *t, u32 id, struct sl_stack_info *si);
/* Forget every stack: captures are shut out while it clears (sleeps). */
void sl_stacks_reset(struct sl_stacks *t);

#ifndef SL_USERSPACE
struct sl_pipeline;

/*
 * Probe context, any (preemption is disabled here around the per-CPU
 * scratch buffer; a 7.x tracepoint probe or a PREEMPT_RT kprobe may be
 * preemptible): capture the current kernel stack into @p's table (made by
 * sl_pipeline_stacks_enable()), from the hooked function @anchor (its
 * address, sl_ev_func()) or, with @anchor 0, after @skip frames of the
 * caller's own; count it and add @value to its sum.  Returns its id (> 0)
 * or 0, the loss counted in @p's losses (stack_full, stack_busy).
 */
u32 sl_stack_capture(struct sl_pipeline *p, unsigned long anchor,
		     unsigned int skip, u64 value);

/*
 * As sl_stack_capture(@p, 0, 0, @value), and *@caller the caller of the
 * code in @r (sl_stack_caller(), over the whole unwound stack, before it
 * is cut to stack_depth), or 0 when there is none or nothing was unwound
 * (the loss counted as there).
 */
u32 sl_stack_capture_caller(struct sl_pipeline *p, u64 value,
			    const struct sl_text_range *r, unsigned int nr,
			    unsigned long *caller);

/*
 * Process context: frame @ip as "function+0xoff/0xsize [module]" into
 * @buf, or "?" when it has no symbol: never the address.
 */
void sl_stack_frame(char *buf, size_t len, unsigned long ip);
#endif

#endif /* _STACKLAT_STACK_H */
