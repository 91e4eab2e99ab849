// SPDX-License-Identifier: GPL-2.0
/*
 * The in-flight table: a fixed-size, lockless, open-addressed hash table
 * mapping a followed object (an skb, a request, a task) to the timestamps of
 * the hook points it has passed.
 *
 * A slot is free when its key is 0 and is claimed with cmpxchg, so inserts
 * never block.  An insert probes SL_FLIGHT_PROBES consecutive slots from the
 * key's hash; a slot whose entry is older than the stale bound is reclaimed
 * (counted stale), and when every probed slot is live the insert fails
 * (counted full).  Nothing is allocated after load and nothing can leak: the
 * table is one vmalloc'd array freed at unload.
 *
 * Racy by design in one corner: a handler that looked an entry up while
 * another CPU reclaims it as stale may write a timestamp into the new
 * owner's entry.  That needs an entry to go stale while its object is still
 * moving, and the resulting delta is range-checked before it is recorded.
 */
#include <linux/vmalloc.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/atomic.h>

#include "sl.h"

#define SL_FLIGHT_PROBES	8

static struct sl_flight_ent *sl_tab;
static unsigned int sl_tab_bits;
static u64 sl_max_age;

struct sl_flight_cpu {
	u64 inserts;
	u64 full;
	u64 stale;
};

static DEFINE_PER_CPU(struct sl_flight_cpu, sl_flight_cnt);

int sl_flight_init(unsigned int entries, u64 max_age_ns)
{
	sl_tab_bits = ilog2(roundup_pow_of_two(entries));
	sl_max_age = max_age_ns;
	sl_tab = vzalloc(array_size(sizeof(*sl_tab), 1UL << sl_tab_bits));
	return sl_tab ? 0 : -ENOMEM;
}

void sl_flight_exit(void)
{
	vfree(sl_tab);
	sl_tab = NULL;
}

/*
 * Keys carry the pipeline id in their top byte, so two pipelines can follow
 * the same object.  Kernel pointers all share their top byte (0xff) and
 * thread ids are small, so the idents never collide among themselves.
 */
u64 sl_flight_key(unsigned int pipe_id, unsigned long ident)
{
	return (u64)ident ^ ((u64)(pipe_id + 1) << 56);
}

static __always_inline struct sl_flight_ent *sl_slot(u64 key, unsigned int i)
{
	u32 h = hash_64(key, sl_tab_bits);

	return &sl_tab[(h + i) & ((1U << sl_tab_bits) - 1)];
}

struct sl_flight_ent *sl_flight_insert(u64 key, u64 now, bool *stale)
{
	struct sl_flight_ent *e;
	unsigned int i;
	u64 old;

	*stale = false;
	for (i = 0; i < SL_FLIGHT_PROBES; i++) {
		e = sl_slot(key, i);
		old = READ_ONCE(e->key);
		if (old == key) {
			/* the object came round again before finishing */
			*stale = true;
			goto claimed;
		}
		if (!old && cmpxchg(&e->key, 0, key) == 0)
			goto claimed;
	}
	/* no free slot: reclaim one that has gone stale */
	for (i = 0; i < SL_FLIGHT_PROBES; i++) {
		e = sl_slot(key, i);
		old = READ_ONCE(e->key);
		if (old && now - READ_ONCE(e->born) > sl_max_age &&
		    (s64)(now - READ_ONCE(e->born)) > 0 &&
		    cmpxchg(&e->key, old, key) == old) {
			*stale = true;
			goto claimed;
		}
	}
	this_cpu_inc(sl_flight_cnt.full);
	return NULL;

claimed:
	if (*stale)
		this_cpu_inc(sl_flight_cnt.stale);
	this_cpu_inc(sl_flight_cnt.inserts);
	WRITE_ONCE(e->born, now);
	/* a loop, not memset(): nothing probeable runs in a handler */
	for (i = 0; i < SL_FLIGHT_NTS; i++)
		e->ts[i] = 0;
	e->aux[0] = 0;
	e->aux[1] = 0;
	return e;
}

struct sl_flight_ent *sl_flight_lookup(u64 key)
{
	struct sl_flight_ent *e;
	unsigned int i;

	for (i = 0; i < SL_FLIGHT_PROBES; i++) {
		e = sl_slot(key, i);
		if (READ_ONCE(e->key) == key)
			return e;
	}
	return NULL;
}

bool sl_flight_remove(struct sl_flight_ent *e, u64 key)
{
	return cmpxchg(&e->key, key, 0) == key;
}

void sl_flight_stats(struct sl_flight_stats *st)
{
	unsigned int i, n = 1U << sl_tab_bits;
	int cpu;

	memset(st, 0, sizeof(*st));
	st->size = n;
	st->max_age_ns = sl_max_age;
	for (i = 0; i < n; i++)
		if (READ_ONCE(sl_tab[i].key))
			st->used++;
	for_each_possible_cpu(cpu) {
		const struct sl_flight_cpu *c = per_cpu_ptr(&sl_flight_cnt, cpu);

		st->inserts += READ_ONCE(c->inserts);
		st->full += READ_ONCE(c->full);
		st->stale += READ_ONCE(c->stale);
	}
}

/*
 * The pipeline a key belongs to (see sl_flight_key()); *@small is set to the
 * ident when it is a small id (a thread id), to 0 when it is a pointer.
 */
static int sl_flight_key_pipe(u64 key, unsigned long *small)
{
	u8 top = key >> 56;

	if (top & 0x80) {
		*small = 0;
		return (top ^ 0xff) - 1;
	}
	*small = (unsigned long)(key & (BIT_ULL(56) - 1));
	return top - 1;
}

/*
 * For readers: copy the first live entry at or after slot *@pos into @out,
 * move *@pos past it and return its pipeline id, or -1 past the end.  The
 * copy is a snapshot of an entry that may be moving; one that changed owner
 * while copied is skipped.  @out->key is the ident when it is a thread id
 * and 0 when it is a pointer, which is never shown.
 */
int sl_flight_next(unsigned int *pos, struct sl_flight_ent *out)
{
	unsigned int i, n = 1U << sl_tab_bits;
	unsigned long small;
	int pipe;
	u64 k;

	for (; *pos < n; (*pos)++) {
		const struct sl_flight_ent *e = &sl_tab[*pos];

		k = READ_ONCE(e->key);
		if (!k)
			continue;
		out->born = READ_ONCE(e->born);
		for (i = 0; i < SL_FLIGHT_NTS; i++)
			out->ts[i] = READ_ONCE(e->ts[i]);
		out->aux[0] = READ_ONCE(e->aux[0]);
		out->aux[1] = READ_ONCE(e->aux[1]);
		/* the copy is read before the key is checked again */
		smp_rmb();
		if (READ_ONCE(e->key) != k)
			continue;
		pipe = sl_flight_key_pipe(k, &small);
		out->key = small;
		(*pos)++;
		return pipe;
	}
	return -1;
}

/* Forget every entry of a pipeline (it was disabled or reset). */
void sl_flight_flush(unsigned int pipe_id)
{
	unsigned int i, n = 1U << sl_tab_bits;
	unsigned long small;
	u64 k;

	for (i = 0; i < n; i++) {
		k = READ_ONCE(sl_tab[i].key);
		if (k && sl_flight_key_pipe(k, &small) == (int)pipe_id)
			cmpxchg(&sl_tab[i].key, k, 0);
	}
}
