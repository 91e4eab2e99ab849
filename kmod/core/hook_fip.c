// SPDX-License-Identifier: GPL-2.0
/*
 * What the two ftrace backends (hook_ftrace.c, hook_fprobe.c) share: the
 * ftrace module parameter and each pipeline's address map, which their
 * handlers read to find the point of an address.
 */
#include <linux/moduleparam.h>
#include <linux/hash.h>

#include "hook_backend.h"
#include "dispatch.h"
#include "fmt.h"

/* accepted everywhere, so one command line loads on every kernel */
bool sl_use_ftrace = true;
module_param_named(ftrace, sl_use_ftrace, bool, 0444);
MODULE_PARM_DESC(ftrace,
		 "run function-entry points on an ftrace_ops and return points on fprobes where the kernel allows it (default 1; 0: kprobes and kretprobes)");

/*
 * @hk's slot in its pipeline's address map (sl_pipeline.fips), and whether
 * two of the pipeline's points are now on one address (aliases of one
 * function): the ftrace handler then runs every match, not the first.
 */
void sl_fip_set(struct sl_hook *hk, bool on)
{
	struct sl_pipeline *p = hk->pipe;
	unsigned int i, j;
	bool dup = false;

	WRITE_ONCE(p->priv.fips[hk - p->hooks], on ? hk->priv.fip : 0);
	for (i = 0; i < p->nhooks && !dup; i++)
		for (j = i + 1; j < p->nhooks && p->priv.fips[i]; j++)
			if (p->priv.fips[j] == p->priv.fips[i]) {
				dup = true;
				break;
			}
	WRITE_ONCE(p->priv.fip_dup, dup);
	/* the cache, rebuilt: a handler reading it meanwhile scans instead */
	for (i = 0; i < SL_FIP_CACHE; i++)
		WRITE_ONCE(p->priv.fip_cache[i], 0);
	for (i = 0; i < p->nhooks && i < U8_MAX; i++) {
		u8 *c;

		if (!p->priv.fips[i])
			continue;
		c = &p->priv.fip_cache[hash_long(p->priv.fips[i],
						 SL_FIP_CACHE_BITS)];
		if (!*c)
			WRITE_ONCE(*c, i + 1);
	}
}

/*
 * Every armed point of @p on one of the two ftrace backends (the
 * ftrace_ops, or with @fprobe the fprobe) leaves the address map,
 * disarmed; with @give_back it also leaves that backend, for hook.c to
 * arm it the next way.
 */
void sl_fip_disarm_all(struct sl_pipeline *p, bool fprobe, bool give_back)
{
	unsigned int i;

	for (i = 0; i < p->nhooks; i++) {
		struct sl_hook *hk = &p->hooks[i];
		bool *on = fprobe ? &hk->priv.fprobe : &hk->priv.ftrace;

		if (!*on || hk->priv.state != STACKLAT_HOOK_ARMED)
			continue;
		sl_fip_set(hk, false);
		if (give_back)
			WRITE_ONCE(*on, false);
		hk->priv.state = STACKLAT_HOOK_DISARMED;
	}
}
