// SPDX-License-Identifier: GPL-2.0
/* The userspace stand-ins of kshim.h that need storage. */
#include <stdio.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/membarrier.h>

#include "kshim.h"

__thread int sl_shim_cpu_id;
static int sl_shim_ncpu;

/* a thread's "CPU": the next free per-CPU copy, for good */
int sl_shim_cpu_slow(void)
{
	int id = __atomic_add_fetch(&sl_shim_ncpu, 1, __ATOMIC_RELAXED);

	if (id > SL_SHIM_NCPU) {
		fprintf(stderr, "kshim: more than %d threads\n", SL_SHIM_NCPU);
		abort();
	}
	sl_shim_cpu_id = id;
	return id - 1;
}

void (*sl_shim_touch_hook)(const void *p);
void (*sl_shim_point_hook)(const char *name, const void *arg);

struct sl_shim_rcu sl_shim_rcu[SL_SHIM_NCPU];
int sl_shim_rcu_fence;

static long sl_shim_membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

/* before any reader runs: can this process use membarrier? */
__attribute__((constructor)) static void sl_shim_rcu_init(void)
{
	sl_shim_rcu_fence =
		sl_shim_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0;
}

static void sl_shim_mb_all(void)
{
	if (sl_shim_rcu_fence ||
	    sl_shim_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void synchronize_rcu(void)
{
	unsigned long snap;
	int i;

	/* the caller's stores (a flipped pointer) before the counters */
	sl_shim_mb_all();
	for (i = 0; i < SL_SHIM_NCPU; i++) {
		snap = __atomic_load_n(&sl_shim_rcu[i].ctr, __ATOMIC_ACQUIRE);
		if (!(snap & 1))
			continue;
		while (__atomic_load_n(&sl_shim_rcu[i].ctr, __ATOMIC_ACQUIRE) == snap)
			sched_yield();
	}
	/* the sections' accesses before whatever the caller does next */
	sl_shim_mb_all();
}
