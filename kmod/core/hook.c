// SPDX-License-Identifier: GPL-2.0
/*
 * Hook points: each lists candidate attachments in order of preference
 * (usually a tracepoint first, then kprobes or kretprobes on the symbol
 * names the function has had).  At load every hook is resolved to the first
 * candidate present on the running kernel; kprobe candidates are validated
 * by a trial registration, since the symbol table is not ours to read.
 * Arming (registering) happens when the pipeline is enabled, so a disabled
 * pipeline costs nothing on its hooks.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/kprobes.h>

#include "sl.h"

static char *skip_hooks;
module_param(skip_hooks, charp, 0444);
MODULE_PARM_DESC(skip_hooks,
		 "comma-separated hook candidates to treat as missing: a symbol or tracepoint name, a hook point name, or pipeline:hook");

#define SL_MAXACTIVE_MAX	1024

/*
 * Checked when parsed, decimal only: an unchecked value made the load-time
 * trial registrations allocate millions of kretprobe instances per hook
 * (out of memory and a WARN), and 4294967295 silently became the default.
 */
static int sl_maxactive_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v > SL_MAXACTIVE_MAX) {
		sl_err("maxactive=%*pE is outside 0..%u (decimal)\n",
		       (int)min_t(size_t, strlen(val), 32), val,
		       SL_MAXACTIVE_MAX);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static const struct kernel_param_ops sl_maxactive_ops = {
	.set = sl_maxactive_set,
	.get = param_get_uint,
};

static unsigned int maxactive;
module_param_cb(maxactive, &sl_maxactive_ops, &maxactive, 0444);
MODULE_PARM_DESC(maxactive,
		 "kretprobe instances per hook, 0..1024 (default 0: max(16, 6 x possible CPUs))");

struct sl_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void sl_tp_match(struct tracepoint *tp, void *priv)
{
	struct sl_tp_find *f = priv;

	if (!f->tp && !strcmp(tp->name, f->name))
		f->tp = tp;
}

static struct tracepoint *sl_tp_lookup(const char *name)
{
	struct sl_tp_find f = { .name = name };

	for_each_kernel_tracepoint(sl_tp_match, &f);
	return f.tp;
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

bool sl_hook_skipped(const char *pipe, const char *hook, const char *target)
{
	char both[2 * STACKLAT_NAME_MAX + 2];

	if (!skip_hooks || !*skip_hooks)
		return false;
	snprintf(both, sizeof(both), "%s:%s", pipe, hook);
	return sl_list_has(skip_hooks, target) ||
	       sl_list_has(skip_hooks, hook) || sl_list_has(skip_hooks, both);
}

/* Every word of skip_hooks must name something, or the load fails. */
int sl_skip_validate(void)
{
	char both[2 * STACKLAT_NAME_MAX + 2];
	char word[STACKLAT_SYM_MAX];
	const char *p = skip_hooks;
	unsigned int i, j, k;

	while (p && *p) {
		const char *end = strchrnul(p, ',');
		size_t n = end - p;
		bool found = false;

		if (!n || n >= sizeof(word)) {
			sl_err("skip_hooks: empty or over-long entry\n");
			return -EINVAL;
		}
		memcpy(word, p, n);
		word[n] = '\0';
		for (i = 0; i < sl_nr_pipelines && !found; i++) {
			struct sl_pipeline *pl = sl_pipelines[i];

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
	hk->cand = -1;
	hk->state = STACKLAT_HOOK_UNAVAILABLE;
	hk->err = 0;
	hk->nmissed_acc = 0;
	hk->hits = alloc_percpu(u64);
	return hk->hits ? 0 : -ENOMEM;
}

void sl_hook_free(struct sl_hook *hk)
{
	free_percpu(hk->hits);
	hk->hits = NULL;
}

static int sl_maxactive(void)
{
	if (maxactive)
		return maxactive;
	return max_t(int, 16, 6 * num_possible_cpus());
}

/*
 * Every kretprobe runs its candidate's handlers through these two
 * trampolines, which find the hook once, with a NULL check, and pass it to
 * the handler in sl_ri_hook (sl_hook_of_ri()).
 *
 * On 5.11 to 5.18 get_kretprobe(ri) reads ri->rph->rp, which
 * unregister_kretprobe() sets to NULL before its grace period ends: an
 * entry handler that started just before, or a return handler the kernel
 * called after checking the pointer itself, can read NULL (the kernel's own
 * kretprobe_dispatcher checks for exactly this).  Disabling a pipeline
 * under load would then oops in container_of(NULL).  5.10 (ri->rp) and
 * 5.19 and later (rethook: rethook->data never changes) always give the
 * kretprobe; the check costs nothing there.
 *
 * Handlers run with preemption disabled and a kprobe hit inside a kprobe
 * handler is counted as missed, not run, so one slot per CPU is enough;
 * the previous value is still put back, should that ever change.
 */
DEFINE_PER_CPU(struct sl_hook *, sl_ri_hook);

static struct sl_hook *sl_krp_hook(struct kretprobe_instance *ri)
{
	struct kretprobe *rp = sl_compat_kretprobe(ri);

	return likely(rp) ? container_of(rp, struct sl_hook, krp) : NULL;
}

static int sl_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_krp_hook(ri), *prev;
	int ret;

	if (unlikely(!hk))
		return 1;	/* being unregistered: no return handler */
	prev = this_cpu_xchg(sl_ri_hook, hk);
	ret = hk->cands[hk->cand].entry(ri, regs);
	this_cpu_write(sl_ri_hook, prev);
	return ret;
}

static int sl_krp_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_krp_hook(ri), *prev;
	kretprobe_handler_t ret_fn;

	if (unlikely(!hk))
		return 0;
	ret_fn = hk->cands[hk->cand].ret;
	if (!ret_fn)
		return 0;
	prev = this_cpu_xchg(sl_ri_hook, hk);
	ret_fn(ri, regs);
	this_cpu_write(sl_ri_hook, prev);
	return 0;
}

/* Register candidate @i of @hk.  The kernel writes into struct kprobe, so
 * it is cleared before every registration.  A @trial registration (to see
 * whether the symbol can be probed) is made disabled: the kernel checks the
 * address as for any registration but patches no code, so loading the
 * module never rewrites hot functions under the feet of running tasks.
 */
static int sl_hook_register(struct sl_hook *hk, int i, bool trial)
{
	const struct sl_cand *c = &hk->cands[i];

	switch (c->kind) {
	case STACKLAT_HOOK_KIND_TRACEPOINT:
		return tracepoint_probe_register(hk->tp, c->tp_probe, hk);
	case STACKLAT_HOOK_KIND_KPROBE:
		memset(&hk->kp, 0, sizeof(hk->kp));
		hk->kp.symbol_name = c->target;
		hk->kp.pre_handler = c->pre;
		if (trial)
			hk->kp.flags = KPROBE_FLAG_DISABLED;
		return register_kprobe(&hk->kp);
	case STACKLAT_HOOK_KIND_KRETPROBE:
		memset(&hk->krp, 0, sizeof(hk->krp));
		hk->krp.kp.symbol_name = c->target;
		hk->krp.entry_handler = c->entry ? sl_krp_entry : NULL;
		hk->krp.handler = sl_krp_ret;
		hk->krp.data_size = c->entry == sl_krp_entry_dispatch ?
				    sl_krp_data_size(hk) : c->data_size;
		hk->krp.maxactive = sl_maxactive();
		if (trial)
			hk->krp.kp.flags = KPROBE_FLAG_DISABLED;
		return register_kretprobe(&hk->krp);
	}
	return -EINVAL;
}

static void sl_hook_unregister(struct sl_hook *hk)
{
	const struct sl_cand *c = &hk->cands[hk->cand];

	switch (c->kind) {
	case STACKLAT_HOOK_KIND_TRACEPOINT:
		tracepoint_probe_unregister(hk->tp, c->tp_probe, hk);
		break;
	case STACKLAT_HOOK_KIND_KPROBE:
		unregister_kprobe(&hk->kp);
		hk->nmissed_acc += hk->kp.nmissed;
		break;
	case STACKLAT_HOOK_KIND_KRETPROBE:
		unregister_kretprobe(&hk->krp);
		hk->nmissed_acc += hk->krp.nmissed + hk->krp.kp.nmissed;
		break;
	}
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

	hk->cand = -1;
	hk->tp = NULL;
	for (i = 0; i < (int)hk->ncands; i++) {
		const struct sl_cand *c = &hk->cands[i];

		if (sl_hook_skipped(hk->pipe->name, hk->name, c->target)) {
			skipped = true;
			continue;
		}
		if (c->kind == STACKLAT_HOOK_KIND_TRACEPOINT) {
			hk->tp = sl_tp_lookup(c->target);
			if (hk->tp) {
				hk->cand = i;
				break;
			}
			continue;
		}
		ret = sl_hook_register(hk, i, true);
		if (!ret) {
			hk->cand = i;
			if (keep)
				kept = true;
			else
				sl_hook_unregister(hk);
			hk->nmissed_acc = 0;
			break;
		}
		if (ret != -ENOENT && ret != -EINVAL)
			err = -ret;
	}
	hk->err = err;
	if (hk->cand >= 0)
		hk->state = STACKLAT_HOOK_DISARMED;
	else if (err)
		hk->state = STACKLAT_HOOK_FAILED;
	else if (skipped)
		hk->state = STACKLAT_HOOK_SKIPPED;
	else
		hk->state = STACKLAT_HOOK_UNAVAILABLE;
	if (hk->cand < 0)
		return -ENOENT;
	return kept ? 1 : 0;
}

int sl_hook_resolve(struct sl_hook *hk)
{
	return sl_hook_find(hk, false);
}

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

static bool sl_batch_init(struct sl_batch *b, unsigned int n)
{
	b->nk = 0;
	b->nr = 0;
	b->kps = kmalloc_array(n, sizeof(*b->kps), GFP_KERNEL);
	b->krps = kmalloc_array(n, sizeof(*b->krps), GFP_KERNEL);
	if (b->kps && b->krps)
		return true;
	kfree(b->kps);
	kfree(b->krps);
	return false;
}

static void sl_batch_add(struct sl_batch *b, struct sl_hook *hk)
{
	if (hk->cands[hk->cand].kind == STACKLAT_HOOK_KIND_KPROBE)
		b->kps[b->nk++] = &hk->kp;
	else
		b->krps[b->nr++] = &hk->krp;
}

/* unregister the batch; returns the nmissed counts to their hooks */
static void sl_batch_run(struct sl_batch *b, bool count)
{
	unsigned int i;

	if (b->nk)
		unregister_kprobes(b->kps, b->nk);
	if (b->nr)
		unregister_kretprobes(b->krps, b->nr);
	for (i = 0; count && i < b->nk; i++)
		sl_hook_of_kp(b->kps[i])->nmissed_acc += b->kps[i]->nmissed;
	for (i = 0; count && i < b->nr; i++)
		container_of(b->krps[i], struct sl_hook, krp)->nmissed_acc +=
			b->krps[i]->nmissed + b->krps[i]->kp.nmissed;
	kfree(b->kps);
	kfree(b->krps);
}

static bool sl_hook_is_probe(const struct sl_hook *hk)
{
	return hk->cands[hk->cand].kind != STACKLAT_HOOK_KIND_TRACEPOINT;
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
 * Disarm @n hooks: tracepoints one by one (the caller runs
 * tracepoint_synchronize_unregister() once), probes in a batch.
 */
void sl_hooks_disarm(struct sl_hook *hooks, unsigned int n)
{
	struct sl_batch b;
	bool batch = sl_batch_init(&b, n);
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct sl_hook *hk = &hooks[i];

		if (hk->state != STACKLAT_HOOK_ARMED)
			continue;
		if (batch && sl_hook_is_probe(hk)) {
			sl_batch_add(&b, hk);
			hk->state = STACKLAT_HOOK_DISARMED;
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

	if (hk->state != STACKLAT_HOOK_DISARMED)
		return hk->state == STACKLAT_HOOK_ARMED ? 0 : -ENOENT;
	ret = sl_hook_register(hk, hk->cand, false);
	if (ret) {
		hk->err = -ret;
		hk->state = STACKLAT_HOOK_FAILED;
		return ret;
	}
	hk->state = STACKLAT_HOOK_ARMED;
	return 0;
}

/*
 * Unregister.  kprobes synchronise inside unregister; for tracepoints the
 * caller runs tracepoint_synchronize_unregister() once after a batch.
 */
void sl_hook_disarm(struct sl_hook *hk)
{
	if (hk->state != STACKLAT_HOOK_ARMED)
		return;
	sl_hook_unregister(hk);
	hk->state = STACKLAT_HOOK_DISARMED;
}

u64 sl_hook_hits(const struct sl_hook *hk)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(hk->hits, cpu));
	return sum;
}

u64 sl_hook_nmissed(const struct sl_hook *hk)
{
	u64 n = hk->nmissed_acc;
	const struct sl_cand *c;

	if (hk->state != STACKLAT_HOOK_ARMED)
		return n;
	c = &hk->cands[hk->cand];
	if (c->kind == STACKLAT_HOOK_KIND_KPROBE)
		n += READ_ONCE(hk->kp.nmissed);
	else if (c->kind == STACKLAT_HOOK_KIND_KRETPROBE)
		n += READ_ONCE(hk->krp.nmissed) + READ_ONCE(hk->krp.kp.nmissed);
	return n;
}

const char *sl_hook_target(const struct sl_hook *hk)
{
	return hk->cand >= 0 ? hk->cands[hk->cand].target : "";
}

u32 sl_hook_kind(const struct sl_hook *hk)
{
	return hk->cand >= 0 ? hk->cands[hk->cand].kind :
			       STACKLAT_HOOK_KIND_NONE;
}
