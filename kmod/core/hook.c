// SPDX-License-Identifier: GPL-2.0
/*
 * Hook points: each lists candidate attachments in order of preference
 * (usually a tracepoint first, then kprobes or kretprobes on the symbol
 * names the function has had).  At load every hook is resolved to the first
 * candidate present on the running kernel; kprobe candidates are validated
 * by a trial registration, since the symbol table is not ours to read.
 * Arming (registering) happens when the pipeline is enabled, so a disabled
 * pipeline costs nothing on its hooks.
 *
 * Backends.  A function-entry point (a kprobe candidate) whose address is
 * an ftrace site runs, where the kernel allows it (SL_HAVE_FTRACE, module
 * parameter ftrace=1), on one ftrace_ops per pipeline instead of a kprobe:
 * no kprobe lookup, no per-CPU "kprobe running" state, and ftrace's
 * recursion lock is per context, so a softirq that arrives while a handler
 * runs in task context is measured instead of dropped as a kprobe
 * reentrancy (nmissed).  The pipeline's functions go into the ops' filter
 * while it is unregistered and the ops is registered once, after the
 * others are armed: one code update for all of them.  Return points go
 * on one fprobe per pipeline the same way where the kernel has it, else
 * kretprobes; a kprobe is what remains when ftrace cannot take a point.
 *
 * The backends have a file each (hook_backend.h says which).  This file
 * calls them and they never call it: a backend that cannot take a point
 * gives it back, and it is armed here the next way.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>

#include "hook.h"
#include "hook_backend.h"
#include "dispatch.h"
#include "fmt.h"

static char *skip_hooks;
module_param(skip_hooks, charp, 0444);
MODULE_PARM_DESC(skip_hooks,
		 "comma-separated hook candidates to treat as missing: a symbol or tracepoint name, a hook point name, or pipeline:hook");

/*
 * The points of @p a backend gave back at commit (disarmed again, off
 * that backend): each armed the next way.  Only a backend can leave a
 * resolved point of a pipeline being enabled disarmed.
 */
static void sl_hooks_rearm(struct sl_pipeline *p)
{
	unsigned int i;

	for (i = 0; i < p->nhooks; i++) {
		struct sl_hook *hk = &p->hooks[i];

		if (hk->priv.cand >= 0 &&
		    hk->priv.state == STACKLAT_HOOK_DISARMED)
			sl_hook_arm(hk);
	}
}

/*
 * After arming a pipeline's hooks: its entry points on the ftrace_ops and
 * its return points on the fprobe, each in one code update; what either
 * refuses, as kprobes and kretprobes.
 */
int sl_hooks_commit(struct sl_pipeline *p)
{
	int ret, ret2;

	ret = sl_ft_commit(p);
	sl_hooks_rearm(p);
	ret2 = sl_fp_commit(p);
	sl_hooks_rearm(p);
	return ret ? ret : ret2;
}

/* Does the comma-separated @list contain @word? */
static bool sl_list_has(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *p) {
		const char *end = strchrnul(p, ',');

		if ((size_t)(end - p) == n && !strncmp(p, word, n))
			return true;
		p = *end ? end + 1 : NULL;
	}
	return false;
}

static bool sl_hook_skipped(const char *pipe, const char *hook,
			    const char *target)
{
	char both[2 * STACKLAT_NAME_MAX + 2];

	if (!skip_hooks || !*skip_hooks)
		return false;
	snprintf(both, sizeof(both), "%s:%s", pipe, hook);
	return sl_list_has(skip_hooks, target) ||
	       sl_list_has(skip_hooks, hook) || sl_list_has(skip_hooks, both);
}

/*
 * Every word of skip_hooks must name something among the @n pipelines of
 * @list, or the load fails.
 */
int sl_skip_validate(struct sl_pipeline *const *list, unsigned int n)
{
	char both[2 * STACKLAT_NAME_MAX + 2];
	char word[STACKLAT_SYM_MAX];
	const char *p = skip_hooks;
	unsigned int i, j, k;

	while (p && *p) {
		const char *end = strchrnul(p, ',');
		size_t len = end - p;
		bool found = false;

		if (!len || len >= sizeof(word)) {
			sl_err("skip_hooks: empty or over-long entry\n");
			return -EINVAL;
		}
		memcpy(word, p, len);
		word[len] = '\0';
		for (i = 0; i < n && !found; i++) {
			struct sl_pipeline *pl = list[i];

			for (j = 0; j < pl->nhooks && !found; j++) {
				struct sl_hook *hk = &pl->hooks[j];

				if (!hk->ncands || !hk->name)
					continue;
				snprintf(both, sizeof(both), "%s:%s", pl->name,
					 hk->name);
				found = !strcmp(word, hk->name) ||
					!strcmp(word, both);
				for (k = 0; k < hk->ncands && !found; k++)
					found = !strcmp(word, hk->cands[k].target);
			}
		}
		if (!found) {
			sl_err("skip_hooks: '%s' names no hook point or candidate\n",
			       word);
			return -EINVAL;
		}
		p = *end ? end + 1 : NULL;
	}
	return 0;
}

int sl_hook_init(struct sl_hook *hk, struct sl_pipeline *p)
{
	hk->pipe = p;
	hk->priv.cand = -1;
	hk->priv.state = STACKLAT_HOOK_UNAVAILABLE;
	hk->priv.err = 0;
	hk->priv.nmissed_acc = 0;
	hk->priv.ftrace = false;
	hk->priv.pc = alloc_percpu(struct sl_hook_pcpu);
	return hk->priv.pc ? 0 : -ENOMEM;
}

void sl_hook_free(struct sl_hook *hk)
{
	free_percpu(hk->priv.pc);
	hk->priv.pc = NULL;
}

/*
 * Register candidate @i of @hk, with the backend of its kind.  A @trial
 * registration (to see whether the symbol can be probed) is made
 * disabled: the kernel checks the address as for any registration but
 * patches no code, so loading the module never rewrites hot functions
 * under the feet of running tasks.
 */
static int sl_hook_register(struct sl_hook *hk, int i, bool trial)
{
	const struct sl_cand *c = &hk->cands[i];

	switch (c->kind) {
	case STACKLAT_HOOK_KIND_TRACEPOINT:
		return sl_tp_register(hk, c);
	case STACKLAT_HOOK_KIND_KPROBE:
		return sl_kp_register(hk, c, trial);
	case STACKLAT_HOOK_KIND_KRETPROBE:
		return sl_krp_register(hk, c, trial);
	case STACKLAT_HOOK_KIND_UPROBE:
	case STACKLAT_HOOK_KIND_URETPROBE:
		return sl_up_register(hk, c, trial);
	}
	return -EINVAL;
}

/* Unregister @hk's candidate as the probe it is registered as. */
static void sl_probe_unregister(struct sl_hook *hk)
{
	const struct sl_cand *c = &hk->cands[hk->priv.cand];

	switch (c->kind) {
	case STACKLAT_HOOK_KIND_TRACEPOINT:
		sl_tp_unregister(hk, c);
		break;
	case STACKLAT_HOOK_KIND_KPROBE:
		sl_kp_unregister(hk);
		break;
	case STACKLAT_HOOK_KIND_KRETPROBE:
		sl_krp_unregister(hk);
		break;
	case STACKLAT_HOOK_KIND_UPROBE:
	case STACKLAT_HOOK_KIND_URETPROBE:
		sl_up_unregister(hk);
		break;
	}
}

static void sl_hook_unregister(struct sl_hook *hk)
{
	/*
	 * A point on the fprobe that leaves alone (a func del, its module
	 * going away) is skipped by the handlers from now on; its function
	 * leaves the fprobe when the pipeline is disabled.  Calls that
	 * entered before are still to return, and the hook may be another
	 * point's by then (func reuses its slots): once every entry handler
	 * that could still see the point has ended (they run with
	 * preemption off), its generation moves on, and those returns are
	 * told apart (sl_fp_exit()).
	 */
	if (hk->priv.ftrace) {
		sl_ft_del(hk);
	} else if (hk->priv.fprobe) {
		sl_fip_set(hk, false);
		synchronize_rcu();
		WRITE_ONCE(hk->priv.gen, hk->priv.gen + 1);
	} else {
		sl_probe_unregister(hk);
	}
}

/* @hk resolved to candidate @i: what a hit reads of it, in the hook. */
static void sl_hook_set_cand(struct sl_hook *hk, int i)
{
	hk->priv.cand = i;
	hk->priv.argoff = hk->cands[i].argoff;
	hk->priv.flavor = hk->cands[i].flavor;
	hk->priv.path = sl_hook_path(hk);
}

/*
 * Find the first usable candidate.  ENOENT (no such symbol or tracepoint)
 * makes a hook "not available"; any other failure of a candidate that
 * exists is remembered and, if nothing else works, reported as "failed".
 * With @keep, a successful trial registration is left in place (disabled)
 * for the caller to unregister in a batch; returns 1 then.
 */
static int sl_hook_find(struct sl_hook *hk, bool keep)
{
	bool skipped = false, kept = false;
	int i, ret, err = 0;

	hk->priv.cand = -1;
	hk->priv.tp = NULL;
	WRITE_ONCE(hk->priv.ftrace, false);
	hk->priv.fprobe = false;
	for (i = 0; i < (int)hk->ncands; i++) {
		const struct sl_cand *c = &hk->cands[i];

		if (sl_hook_skipped(hk->pipe->name, hk->name, c->target)) {
			skipped = true;
			continue;
		}
		if (c->kind == STACKLAT_HOOK_KIND_TRACEPOINT) {
			hk->priv.tp = sl_tp_lookup(c->target);
			if (hk->priv.tp) {
				sl_hook_set_cand(hk, i);
				break;
			}
			continue;
		}
		ret = sl_hook_register(hk, i, true);
		if (!ret) {
			sl_hook_set_cand(hk, i);
			sl_ft_pick(hk);
			sl_fp_pick(hk);
			/* a uprobe's trial holds the file, unregisters nothing */
			if (keep && !sl_cand_user(c))
				kept = true;
			else
				sl_probe_unregister(hk);
			hk->priv.nmissed_acc = 0;
			break;
		}
		if (ret != -ENOENT && ret != -EINVAL)
			err = -ret;
	}
	hk->priv.err = err;
	if (hk->priv.cand >= 0)
		hk->priv.state = STACKLAT_HOOK_DISARMED;
	else if (err)
		hk->priv.state = STACKLAT_HOOK_FAILED;
	else if (skipped)
		hk->priv.state = STACKLAT_HOOK_SKIPPED;
	else
		hk->priv.state = STACKLAT_HOOK_UNAVAILABLE;
	if (hk->priv.cand < 0)
		return -ENOENT;
	return kept ? 1 : 0;
}

int sl_hook_resolve(struct sl_hook *hk)
{
	return sl_hook_find(hk, false);
}

static bool sl_hook_is_probe(const struct sl_hook *hk)
{
	return !hk->priv.ftrace && !hk->priv.fprobe &&
	       hk->cands[hk->priv.cand].kind != STACKLAT_HOOK_KIND_TRACEPOINT &&
	       !sl_cand_user(&hk->cands[hk->priv.cand]);
}

/* Resolve @n hooks; their trial registrations are undone in one batch. */
void sl_hooks_resolve(struct sl_hook *hooks, unsigned int n)
{
	struct sl_batch b;
	bool batch = sl_batch_init(&b, n);
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct sl_hook *hk = &hooks[i];

		if (!hk->ncands)
			continue;
		if (sl_hook_find(hk, batch) == 1)
			sl_batch_add(&b, hk);
	}
	if (batch)
		sl_batch_run(&b, false);
}

/*
 * Disarm a pipeline's @n hooks: ftrace points with one unregistration,
 * tracepoints one by one (the caller runs
 * tracepoint_synchronize_unregister() once), probes in a batch.
 */
void sl_hooks_disarm(struct sl_hook *hooks, unsigned int n)
{
	struct sl_batch b;
	bool batch = sl_batch_init(&b, n);
	unsigned int i;

	if (n) {
		sl_ft_disarm_all(hooks[0].pipe);
		sl_fp_disarm_all(hooks[0].pipe);
	}
	for (i = 0; i < n; i++) {
		struct sl_hook *hk = &hooks[i];

		if (hk->priv.state != STACKLAT_HOOK_ARMED)
			continue;
		if (batch && sl_hook_is_probe(hk)) {
			sl_batch_add(&b, hk);
			hk->priv.state = STACKLAT_HOOK_DISARMED;
		} else {
			sl_hook_disarm(hk);
		}
	}
	if (batch)
		sl_batch_run(&b, true);
}

int sl_hook_arm(struct sl_hook *hk)
{
	int ret;

	if (hk->priv.state != STACKLAT_HOOK_DISARMED)
		return hk->priv.state == STACKLAT_HOOK_ARMED ? 0 : -ENOENT;
	if (hk->priv.ftrace) {
		if (!sl_ft_add(hk)) {
			hk->priv.state = STACKLAT_HOOK_ARMED;
			return 0;
		}
		/* not an ftrace site after all */
		WRITE_ONCE(hk->priv.ftrace, false);
	}
	if (hk->priv.fprobe) {
		if (!sl_fp_add(hk)) {
			hk->priv.state = STACKLAT_HOOK_ARMED;
			return 0;
		}
		WRITE_ONCE(hk->priv.fprobe, false);	/* the fprobe is live */
	}
	ret = sl_hook_register(hk, hk->priv.cand, false);
	if (ret) {
		hk->priv.err = -ret;
		hk->priv.state = STACKLAT_HOOK_FAILED;
		return ret;
	}
	hk->priv.state = STACKLAT_HOOK_ARMED;
	return 0;
}

/*
 * Unregister.  kprobes synchronise inside unregister; for tracepoints the
 * caller runs tracepoint_synchronize_unregister() once after a batch.
 */
void sl_hook_disarm(struct sl_hook *hk)
{
	if (hk->priv.state != STACKLAT_HOOK_ARMED)
		return;
	sl_hook_unregister(hk);
	hk->priv.state = STACKLAT_HOOK_DISARMED;
}

/*
 * Give row @hk the @n candidates @cands while the module runs (a point
 * added at run time, sl_point_add()): its counts start over, and it is
 * resolved and, with @arm, armed.  On failure the row is left with no
 * candidate, not available, and the error returned is the failing
 * candidate's own where the resolution kept one.  Caller holds sl_lock.
 */
int sl_hook_set_cands(struct sl_hook *hk, const struct sl_cand *cands,
		      unsigned int n, bool arm)
{
	int cpu, ret;

	hk->cands = cands;
	hk->ncands = n;
	hk->priv.nmissed_acc = 0;
	/* the counts of the row's previous point */
	for_each_possible_cpu(cpu) {
		per_cpu_ptr(hk->priv.pc, cpu)->hits = 0;
		per_cpu_ptr(hk->priv.pc, cpu)->missed = 0;
	}
	ret = sl_hook_resolve(hk);
	if (!ret && arm)
		ret = sl_hook_arm(hk);
	if (ret) {
		ret = ret == -ENOENT && hk->priv.err ? -hk->priv.err : ret;
		sl_up_release(hk);
		hk->ncands = 0;
		hk->priv.state = STACKLAT_HOOK_UNAVAILABLE;
	}
	return ret;
}

/* Row @hk loses its candidates (a point removed at run time). */
void sl_hook_clear_cands(struct sl_hook *hk)
{
	sl_hook_disarm(hk);
	sl_up_release(hk);
	hk->ncands = 0;
	hk->priv.state = STACKLAT_HOOK_UNAVAILABLE;
}

u64 sl_hook_hits(const struct sl_hook *hk)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(hk->priv.pc, cpu)->hits);
	return sum;
}

u64 sl_hook_nmissed(const struct sl_hook *hk)
{
	u64 n = hk->priv.nmissed_acc;
	const struct sl_cand *c;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(per_cpu_ptr(hk->priv.pc, cpu)->missed);
	if (hk->priv.state != STACKLAT_HOOK_ARMED || hk->priv.ftrace ||
	    hk->priv.fprobe)
		return n;
	c = &hk->cands[hk->priv.cand];
	if (c->kind == STACKLAT_HOOK_KIND_KPROBE)
		n += READ_ONCE(hk->priv.kp.nmissed);
	else if (c->kind == STACKLAT_HOOK_KIND_KRETPROBE)
		n += READ_ONCE(hk->priv.krp.nmissed) +
		     READ_ONCE(hk->priv.krp.kp.nmissed);
	return n;
}

const char *sl_hook_target(const struct sl_hook *hk)
{
	return hk->priv.cand >= 0 ? hk->cands[hk->priv.cand].target : "";
}

/* Unload: what the backends keep until then. */
void sl_hooks_release(struct sl_pipeline *p)
{
	unsigned int i;

	sl_ft_release(p);
	for (i = 0; i < p->nhooks; i++)
		sl_up_release(&p->hooks[i]);
}

/*
 * For status: the return points on @p's fprobe and the calls it missed
 * (recursion in one context, or on rethook kernels no free instance);
 * false when the pipeline has none.
 */
bool sl_fprobe_stats(const struct sl_pipeline *p, unsigned int *n,
		     u64 *nmissed)
{
	return sl_fp_stats(p, n, nmissed);
}

/* How function-entry points are attached, for status. */
const char *sl_entry_backend(void)
{
#ifdef SL_HAVE_FTRACE
	return sl_use_ftrace ? "ftrace (kprobe where ftrace cannot)" :
			    "kprobe (module parameter ftrace=0)";
#else
	return sl_use_ftrace ? "kprobe (no ftrace backend on this kernel)" :
			    "kprobe (module parameter ftrace=0)";
#endif
}

/* How return points are attached, for status. */
const char *sl_return_backend(void)
{
#if defined(SL_HAVE_FPROBE)
	return sl_use_ftrace ? "fprobe (kretprobe where fprobe cannot)" :
			    "kretprobe (module parameter ftrace=0)";
#elif defined(CONFIG_FPROBE) && defined(COMPAT_FPROBE_FTRACE_REGS)
	return sl_use_ftrace ? "kretprobe (this kernel's fprobe runs on the function graph tracer: not used, see compat.h)" :
			    "kretprobe (module parameter ftrace=0)";
#else
	return sl_use_ftrace ? "kretprobe (no fprobe on this kernel)" :
			    "kretprobe (module parameter ftrace=0)";
#endif
}

/*
 * The address @hk (armed) is attached at, for a function (kprobe,
 * kretprobe, ftrace, fprobe); 0 for a tracepoint.
 */
unsigned long sl_hook_addr(const struct sl_hook *hk)
{
	switch (sl_hook_kind(hk)) {
	case STACKLAT_HOOK_KIND_KPROBE:
		return (unsigned long)hk->priv.kp.addr;
	case STACKLAT_HOOK_KIND_KRETPROBE:
		return (unsigned long)hk->priv.krp.kp.addr;
	case STACKLAT_HOOK_KIND_FTRACE:
	case STACKLAT_HOOK_KIND_FPROBE:
		return hk->priv.fip;
	}
	return 0;
}

u32 sl_hook_kind(const struct sl_hook *hk)
{
	if (hk->priv.cand < 0)
		return STACKLAT_HOOK_KIND_NONE;
	if (hk->priv.ftrace)
		return STACKLAT_HOOK_KIND_FTRACE;
	if (hk->priv.fprobe)
		return STACKLAT_HOOK_KIND_FPROBE;
	return hk->cands[hk->priv.cand].kind;
}
