/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel primitives kmod/core/flight.c and keyed.c use, for
 * userspace (-DSL_USERSPACE): types, READ_ONCE/WRITE_ONCE, cmpxchg and
 * atomic_t on the __atomic builtins, the smp_* barriers, cpu_relax, hash_64
 * (the kernel's golden-ratio multiply, bit for bit), per-CPU data as one
 * copy a thread, allocation, a mutex, sort(), and RCU: a read-side section
 * (preempt_disable_notrace .. preempt_enable_notrace, what keyed.c's
 * updates run in) and synchronize_rcu() waiting for every section under
 * way, made cheap for readers with membarrier(2) (see kshim.c).
 *
 * Two instrumentation hooks, for the unit tests only (no-ops in the
 * kernel and when a test leaves them NULL):
 *  - sl_shim_touch(p): the table read memory at @p on a lookup path; the
 *    tests count the distinct cache lines touched per lookup;
 *  - sl_shim_point(name, arg): the table reached a named point (e.g. an
 *    entry claimed but not yet published), so a test can run a "concurrent"
 *    reader exactly there.
 */
#ifndef _STACKLAT_KSHIM_H
#define _STACKLAT_KSHIM_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#ifndef noinline
#define noinline		__attribute__((__noinline__))
#define notrace
#define NOKPROBE_SYMBOL(f)
#endif
#define __aligned(x)		__attribute__((aligned(x)))
#define __percpu
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define BIT_ULL(n)		(1ULL << (n))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define SMP_CACHE_BYTES		64
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define data_race(x)		(x)
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

#define barrier()		__asm__ __volatile__("" ::: "memory")
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)

/* the kernel's cmpxchg: full barrier, returns the old value */
#define cmpxchg(p, o, n) ({						\
	__typeof__(*(p)) __o = (o);					\
	__atomic_compare_exchange_n((p), &__o, (n), false,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);	\
	__o;								\
})

typedef struct {
	int counter;
} atomic_t;

#define atomic_read(v)		__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_add(i, v)	((void)__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELAXED))
#define atomic_sub(i, v)	((void)__atomic_fetch_sub(&(v)->counter, (i), __ATOMIC_RELAXED))
#define atomic_set_release(v, i) \
	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELEASE)
/* 64-bit counters (core/stack.c's count and sum a stack) */
typedef struct {
	s64 counter;
} atomic64_t;
#define atomic64_read(v)	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic64_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic64_add(i, v)	((void)__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELAXED))
#define atomic64_inc(v)		atomic64_add(1, (v))
#define atomic64_sub(i, v)	((void)__atomic_fetch_sub(&(v)->counter, (i), __ATOMIC_RELAXED))
/* the kernel's: full barrier, returns the old value */
static inline s64 atomic64_cmpxchg(atomic64_t *v, s64 old, s64 new)
{
	__atomic_compare_exchange_n(&v->counter, &old, new, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

static inline bool atomic_try_cmpxchg_acquire(atomic_t *v, int *old, int new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()		__builtin_ia32_pause()
#elif defined(__aarch64__)
#define cpu_relax()		__asm__ __volatile__("yield" ::: "memory")
#else
#define cpu_relax()		barrier()
#endif

#define preempt_disable()	barrier()
#define preempt_enable()	barrier()

/* include/linux/hash.h, 64-bit: the same multiply and shift */
#define GOLDEN_RATIO_64		0x61C8864680B583EBull
static inline u32 hash_64(u64 val, unsigned int bits)
{
	return (u32)((val * GOLDEN_RATIO_64) >> (64 - bits));
}

static inline unsigned int ilog2(unsigned long n)
{
	return 63 - __builtin_clzl(n);
}

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}

/*
 * Per-CPU data: SL_SHIM_NCPU copies SL_SHIM_PCPU_STRIDE bytes apart; a
 * thread takes the next free index the first time it counts, so "this
 * CPU" is "this thread" and increments need no atomics.
 */
#define SL_SHIM_NCPU		64
#define SL_SHIM_PCPU_STRIDE	8192	/* a histogram's 4.2 KiB fits */
extern __thread int sl_shim_cpu_id;
int sl_shim_cpu_slow(void);
static inline int sl_shim_cpu(void)
{
	return likely(sl_shim_cpu_id) ? sl_shim_cpu_id - 1 : sl_shim_cpu_slow();
}

#define alloc_percpu(type) ({						\
	_Static_assert(sizeof(type) <= SL_SHIM_PCPU_STRIDE, "stride");	\
	(type *)calloc(SL_SHIM_NCPU, SL_SHIM_PCPU_STRIDE);		\
})
#define free_percpu(p)		free(p)
#define per_cpu_ptr(p, cpu)	\
	((__typeof__(p))((char *)(p) + (size_t)(cpu) * SL_SHIM_PCPU_STRIDE))
#define sl_shim_this(lv)	\
	(*(__typeof__(&(lv)))((char *)&(lv) +				\
		(size_t)sl_shim_cpu() * SL_SHIM_PCPU_STRIDE))
#define this_cpu_inc(lv)	(sl_shim_this(lv)++)
#define this_cpu_add(lv, v)	(sl_shim_this(lv) += (v))
#define this_cpu_read(lv)	(sl_shim_this(lv))
#define this_cpu_write(lv, v)	(sl_shim_this(lv) = (v))
/*
 * local64_t: one "CPU" (thread) only, as in the kernel; a nested update
 * is simulated at the instrumentation points (sl_shim_point), not by
 * another thread, so plain operations are exact here.
 */
typedef struct {
	uint64_t v;
} local64_t;
#define local64_read(l)		((l)->v)
#define local64_set(l, i)	((l)->v = (i))
#define local64_inc(l)		((l)->v++)
#define local64_add(i, l)	((l)->v += (i))
#define local64_cmpxchg(l, o, n) ({					\
	uint64_t __was = (l)->v;					\
									\
	if (__was == (uint64_t)(o))					\
		(l)->v = (n);						\
	__was;								\
})

/* one thread a "CPU": a compare and a store, like x86's cmpxchg on %gs */
#define this_cpu_cmpxchg(lv, o, n) ({					\
	__typeof__(&(lv)) __p = &sl_shim_this(lv);			\
	__typeof__(lv) __was = *__p;					\
									\
	if (__was == (o))						\
		*__p = (n);						\
	__was;								\
})
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < SL_SHIM_NCPU; (cpu)++)
#define nr_cpu_ids		SL_SHIM_NCPU
#define num_possible_cpus()	SL_SHIM_NCPU
#define raw_smp_processor_id()	sl_shim_cpu()
#define cpu_to_node(cpu)	0

/* allocation: zeroed, cache-line aligned (vzalloc is page aligned) */
static inline void *sl_shim_zalloc(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, n ? n : 1))
		return NULL;
	memset(p, 0, n);
	return p;
}
#define GFP_KERNEL		0
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define kzalloc(n, gfp)		calloc(1, (n))
#define kfree(p)		free(p)
#define kzalloc_node(n, gfp, node) sl_shim_zalloc(n)
#ifndef U64_MAX
#define U64_MAX			UINT64_MAX
#endif
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define vzalloc(n)		sl_shim_zalloc(n)
#define kvzalloc(n, gfp)	sl_shim_zalloc(n)
#define vfree(p)		free(p)
#define kvfree(p)		free(p)
#define kcalloc(n, size, gfp)	calloc((n), (size))
#define kvcalloc(n, size, gfp)	sl_shim_zalloc((size_t)(n) * (size))
#define kvzalloc_node(n, gfp, node) sl_shim_zalloc(n)
#define NUMA_NO_NODE		(-1)

/* arch_spinlock_t: a test-and-set lock (a "CPU" never nests in itself) */
typedef struct {
	int v;
} arch_spinlock_t;
#define __ARCH_SPIN_LOCK_UNLOCKED	{ 0 }
static inline void arch_spin_lock(arch_spinlock_t *l)
{
	while (__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->v, __ATOMIC_RELAXED))
			;
}

static inline void arch_spin_unlock(arch_spinlock_t *l)
{
	__atomic_store_n(&l->v, 0, __ATOMIC_RELEASE);
}

struct mutex {
	pthread_mutex_t m;
};
#define mutex_init(l)		pthread_mutex_init(&(l)->m, NULL)
#define mutex_lock(l)		pthread_mutex_lock(&(l)->m)
#define mutex_unlock(l)		pthread_mutex_unlock(&(l)->m)
#define DEFINE_MUTEX(l)		struct mutex l = { PTHREAD_MUTEX_INITIALIZER }

/* the kernel's doubly linked list, what hist.c uses of it */
struct list_head {
	struct list_head *next, *prev;
};
#define LIST_HEAD(n)		struct list_head n = { &(n), &(n) }
static inline void list_add(struct list_head *e, struct list_head *h)
{
	e->next = h->next;
	e->prev = h;
	h->next->prev = e;
	h->next = e;
}
static inline void list_del(struct list_head *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
}
#define list_for_each_entry(pos, head, member)				\
	for ((pos) = container_of((head)->next, __typeof__(*(pos)), member); \
	     &(pos)->member != (head);					\
	     (pos) = container_of((pos)->member.next, __typeof__(*(pos)), member))

static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *), void *swap)
{
	(void)swap;
	qsort(base, num, size, cmp);
}

/*
 * RCU: a thread's read-side section makes its counter odd (nesting
 * counted apart); synchronize_rcu() waits until every counter odd when it
 * looked has moved on.  Readers store with no fence: the updater runs
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), a full barrier on every
 * running thread of the process, before it looks (liburcu's "memb"
 * flavour).  Where membarrier is missing, readers fence (slower).
 */
struct sl_shim_rcu {
	unsigned long ctr;
	unsigned long depth;
} __aligned(64);
extern struct sl_shim_rcu sl_shim_rcu[SL_SHIM_NCPU];
extern int sl_shim_rcu_fence;
void synchronize_rcu(void);

static inline void sl_shim_rcu_lock(void)
{
	struct sl_shim_rcu *r = &sl_shim_rcu[sl_shim_cpu()];

	if (r->depth++)
		return;
	__atomic_store_n(&r->ctr, r->ctr + 1, __ATOMIC_RELAXED);
	if (sl_shim_rcu_fence)
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	else
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline void sl_shim_rcu_unlock(void)
{
	struct sl_shim_rcu *r = &sl_shim_rcu[sl_shim_cpu()];

	if (--r->depth)
		return;
	__atomic_store_n(&r->ctr, r->ctr + 1, __ATOMIC_RELEASE);
}
#define preempt_disable_notrace()	sl_shim_rcu_lock()
#define preempt_enable_notrace()	sl_shim_rcu_unlock()

/* instrumentation (see the top of this file) */
extern void (*sl_shim_touch_hook)(const void *p);
extern void (*sl_shim_point_hook)(const char *name, const void *arg);
#ifdef SL_SHIM_TRACE
#define sl_shim_touch(p) \
	do { if (sl_shim_touch_hook) sl_shim_touch_hook(p); } while (0)
#define sl_shim_point(name, arg) \
	do { if (sl_shim_point_hook) sl_shim_point_hook(name, arg); } while (0)
#endif

#endif /* _STACKLAT_KSHIM_H */
