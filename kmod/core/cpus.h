/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU buffers for the CPUs that are online, not for every possible
 * one: a machine (a cloud VM that reserves hot-plug slots, a guest booted
 * with possible_cpus=) may have 256 or 1024 possible CPUs and 2 online, and
 * a buffer a possible CPU multiplied the memory by that much.
 *
 * A user (the slow-event rings, a keyed table's buffers) says what to
 * allocate for one CPU; sl_cpus_add() calls it for each online CPU and,
 * from then on, for each CPU that comes online (a CPU hot-plug callback,
 * process context, on the CPU's hot-plug thread).  A buffer stays until
 * its user goes (sl_cpus_del()), through offline and online again.  A
 * probe on a CPU whose buffer is not there yet (the short time between the
 * CPU going online and its callback) counts a loss: every user checks for
 * NULL.  Without the hot-plug state (its setup failed) a user gets a
 * buffer for every possible CPU at once, as before.
 *
 * Also compiled in userspace (-DSL_USERSPACE, tests/unit): there every
 * CPU of the shim is online and nothing comes later.
 */
#ifndef _STACKLAT_CPUS_H
#define _STACKLAT_CPUS_H

#ifndef SL_USERSPACE
#include <linux/gfp.h>
#include <linux/list.h>

/*
 * Allocations whose size grows with the CPUs or a parameter fail with
 * -ENOMEM (and the caller says what it wanted) rather than wake the OOM
 * killer: a refused enable, not a killed process.  alloc_percpu honours
 * __GFP_NORETRY, kvmalloc __GFP_RETRY_MAYFAIL.
 */
#define SL_GFP_PCPU	(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN)
#define SL_GFP_BIG	(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)
#else
#include "kshim.h"
#define SL_GFP_PCPU	GFP_KERNEL
#define SL_GFP_BIG	GFP_KERNEL
#endif

struct sl_cpus_user {
	/* allocate this user's buffers of @cpu if it has none: 0 or -ENOMEM */
	int (*online)(struct sl_cpus_user *u, unsigned int cpu);
#ifndef SL_USERSPACE
	struct hlist_node node;
	bool added;
#endif
};

#ifndef SL_USERSPACE
int sl_cpus_init(void);
void sl_cpus_exit(void);
int sl_cpus_add(struct sl_cpus_user *u);
void sl_cpus_del(struct sl_cpus_user *u);
#else
static inline int sl_cpus_add(struct sl_cpus_user *u)
{
	unsigned int cpu;
	int ret;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		ret = u->online(u, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

static inline void sl_cpus_del(struct sl_cpus_user *u)
{
	(void)u;
}
#endif

#endif /* _STACKLAT_CPUS_H */
