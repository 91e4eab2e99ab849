// SPDX-License-Identifier: GPL-2.0
/* The userspace stand-ins of kshim.h that need storage. */
#include <stdio.h>

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
