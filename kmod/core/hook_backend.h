/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The backends hook.c attaches points with, a file each: hook_ftrace.c
 * (function entries on one ftrace_ops per pipeline), hook_fprobe.c
 * (returns on one fprobe per pipeline), hook_kprobe.c (kprobes and
 * kretprobes), hook_tp.c (tracepoints), hook_uprobe.c (user-space
 * functions: uprobes and uretprobes), and hook_fip.c, what the two
 * ftrace backends share.  hook.c calls them and none calls hook.c: a
 * backend that cannot take a point leaves it disarmed and off that
 * backend, and hook.c arms it the next way.
 */
#ifndef _STACKLAT_HOOK_BACKEND_H
#define _STACKLAT_HOOK_BACKEND_H

#include <linux/hash.h>

#include "types.h"

/* ---- hook_fip.c: the ftrace backends' parameter and address map ---- */

extern bool sl_use_ftrace;
void sl_fip_set(struct sl_hook *hk, bool on);
void sl_fip_disarm_all(struct sl_pipeline *p, bool fprobe, bool give_back);

/*
 * The index of the next point of @p at address @ip from index @from on, or
 * -1: the cache first, unless two points share an address.
 */
static __always_inline int sl_fip_next(struct sl_pipeline *p,
				       unsigned long ip, unsigned int from)
{
	unsigned int i;
	u8 c;

	if (!from && likely(!READ_ONCE(p->priv.fip_dup))) {
		c = READ_ONCE(p->priv.fip_cache[hash_long(ip,
							  SL_FIP_CACHE_BITS)]);
		if (likely(c && READ_ONCE(p->priv.fips[c - 1]) == ip))
			return c - 1;
	}
	for (i = from; i < p->nhooks; i++)
		if (READ_ONCE(p->priv.fips[i]) == ip)
			return i;
	return -1;
}

/* ---- hook_ftrace.c: entry points on an ftrace_ops per pipeline ---- */

void sl_ft_pick(struct sl_hook *hk);
int sl_ft_add(struct sl_hook *hk);
void sl_ft_del(struct sl_hook *hk);
int sl_ft_commit(struct sl_pipeline *p);
void sl_ft_disarm_all(struct sl_pipeline *p);
void sl_ft_release(struct sl_pipeline *p);

/* ---- hook_fprobe.c: return points on an fprobe per pipeline ---- */

void sl_fp_pick(struct sl_hook *hk);
int sl_fp_add(struct sl_hook *hk);
int sl_fp_commit(struct sl_pipeline *p);
void sl_fp_disarm_all(struct sl_pipeline *p);
bool sl_fp_stats(const struct sl_pipeline *p, unsigned int *n, u64 *nmissed);

/* ---- hook_kprobe.c: kprobes and kretprobes ---- */

int sl_maxactive(void);
int sl_kp_register(struct sl_hook *hk, const struct sl_cand *c,
		   bool trial);
void sl_kp_unregister(struct sl_hook *hk);
int sl_krp_register(struct sl_hook *hk, const struct sl_cand *c,
		    bool trial);
void sl_krp_unregister(struct sl_hook *hk);

/*
 * Unregister kprobes and kretprobes in one batch each: one RCU grace
 * period for the lot instead of one per probe (loading and disabling with
 * some sixty probes took seconds in an emulated guest).
 */
struct sl_batch {
	struct kprobe **kps;
	struct kretprobe **krps;
	unsigned int nk, nr;
};

bool sl_batch_init(struct sl_batch *b, unsigned int n);
void sl_batch_add(struct sl_batch *b, struct sl_hook *hk);
void sl_batch_run(struct sl_batch *b, bool count);

/* ---- hook_tp.c: tracepoints ---- */

struct tracepoint *sl_tp_lookup(const char *name);
int sl_tp_register(struct sl_hook *hk, const struct sl_cand *c);
void sl_tp_unregister(struct sl_hook *hk, const struct sl_cand *c);

/* ---- hook_uprobe.c: user-space functions, entry and return ---- */

int sl_up_register(struct sl_hook *hk, const struct sl_cand *c, bool trial);
void sl_up_unregister(struct sl_hook *hk);
void sl_up_release(struct sl_hook *hk);

#endif /* _STACKLAT_HOOK_BACKEND_H */
