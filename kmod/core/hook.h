/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hook points (hook.c and its backends, hook_backend.h): resolving a
 * row's candidates, arming and disarming, what status shows of them.
 * Process context, under sl_lock.
 */
#ifndef _STACKLAT_HOOK_H
#define _STACKLAT_HOOK_H

#include "types.h"

int sl_hook_init(struct sl_hook *hk, struct sl_pipeline *p);
void sl_hook_free(struct sl_hook *hk);
int sl_hook_resolve(struct sl_hook *hk);
int sl_hook_arm(struct sl_hook *hk);
void sl_hook_disarm(struct sl_hook *hk);
void sl_hooks_resolve(struct sl_hook *hooks, unsigned int n);
void sl_hooks_disarm(struct sl_hook *hooks, unsigned int n);
int sl_hooks_commit(struct sl_pipeline *p);
void sl_hooks_release(struct sl_pipeline *p);
int sl_hook_set_cands(struct sl_hook *hk, const struct sl_cand *cands,
		      unsigned int n, bool arm);
void sl_hook_clear_cands(struct sl_hook *hk);
u64 sl_hook_hits(const struct sl_hook *hk);
u64 sl_hook_nmissed(const struct sl_hook *hk);
const char *sl_hook_target(const struct sl_hook *hk);
u32 sl_hook_kind(const struct sl_hook *hk);
unsigned long sl_hook_addr(const struct sl_hook *hk);
const char *sl_entry_backend(void);
const char *sl_return_backend(void);
bool sl_fprobe_stats(const struct sl_pipeline *p, unsigned int *n, u64 *nmissed);
int sl_skip_validate(struct sl_pipeline *const *list, unsigned int n);

#endif /* _STACKLAT_HOOK_H */
