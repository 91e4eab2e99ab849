// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe backend: function entries as kprobes (where the ftrace
 * backend cannot take them), returns as kretprobes (where the fprobe
 * cannot), their handlers, and unregistration in batches.
 */
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/kprobes.h>

#include "hook_backend.h"
#include "dispatch.h"
#include "fmt.h"

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
		 "kretprobe instances per hook, 0..1024 (default 0: max(16, 6 x online CPUs))");

/*
 * The calls a kretprobe follows at once are the tasks inside its function:
 * they scale with the CPUs that run them, not with the possible ones (a
 * machine with 1024 possible CPUs and 2 online took 6,144 instances a
 * hook, some 36 MB for storage's return points).  More at once, after CPUs
 * are added, are counted nmissed: maxactive= raises it.
 */
int sl_maxactive(void)
{
	if (maxactive)
		return maxactive;
	return max_t(int, 16, 6 * num_online_cpus());
}

/* The handler of every kprobe: the dispatcher, inline. */
static int sl_kp_dispatch(struct kprobe *kp, struct pt_regs *regs)
{
	sl_regs_dispatch(sl_hook_of_kp(kp), regs);
	return 0;
}

/*
 * Every kretprobe runs the dispatcher through these two trampolines, which
 * find the hook (sl_krp_hook(), sl_krp_gone()) and hand it over as an
 * argument; a pipeline may have its own (struct sl_pipeline's @krp).  The
 * kprobes core calls kprobe and kretprobe handlers with preemption off
 * (from the breakpoint, or from ftrace under its recursion lock; the
 * return from the trampoline), as the engine requires (dispatch.h).
 */
static int sl_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_krp_hook(ri);

	if (sl_krp_gone(hk))
		return 1;	/* being unregistered: no return handler */
	return sl_ret_entry_dispatch(hk, ri->data, regs, hk->pre);
}

static int sl_krp_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_krp_hook(ri);

	if (!sl_krp_gone(hk))
		sl_ret_exit_dispatch(hk, ri->data, regs_return_value(regs),
				     hk->post);
	return 0;
}

/* The same for a SPAN row: the return point's fast path. */
static int sl_krp_span_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct sl_hook *hk = sl_krp_hook(ri);

	if (sl_krp_gone(hk))
		return 1;
	return sl_span_entry(hk, ri->data);
}

static int sl_krp_span_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_krp_hook(ri);

	if (!sl_krp_gone(hk))
		sl_span_exit(hk, ri->data);
	return 0;
}

/*
 * Registering by name costs the kprobes core a kallsyms_lookup_name() per
 * kprobe and three per kretprobe (kprobe_on_func_entry, the blacklist,
 * register_kprobe), and before 6.2 that is a scan of every symbol: 30-50
 * ms each in an emulated 5.10 guest, nine tenths of the time of a load
 * and of an enable there (perf).  So the address the first registration
 * of a candidate resolved to is kept, and the later ones (every enable)
 * go by address - once a lookup of its name (%ps: address to name, a
 * binary search) says it is still that function: a module unloaded since
 * can have left something else there.
 */
static void *sl_kp_cached(struct sl_hook *hk, const struct sl_cand *c)
{
	size_t n = strlen(c->target);
	char buf[128];

	if (!hk->priv.kp_addr || hk->priv.kp_cand != c - hk->cands ||
	    n >= sizeof(buf) - 1)
		return NULL;
	snprintf(buf, sizeof(buf), "%ps", (void *)hk->priv.kp_addr);
	/* "name", or "name [module]" */
	if (strncmp(buf, c->target, n) || (buf[n] && buf[n] != ' ')) {
		hk->priv.kp_addr = 0;
		return NULL;
	}
	return (void *)hk->priv.kp_addr;
}

/* after a successful registration of candidate @c at @addr */
static void sl_kp_remember(struct sl_hook *hk, const struct sl_cand *c,
			   void *addr)
{
	hk->priv.kp_addr = (unsigned long)addr;
	hk->priv.kp_cand = c - hk->cands;
}

/*
 * Candidate @c of @hk as a kprobe.  The kernel writes into struct kprobe,
 * so it is cleared before every registration.
 */
int sl_kp_register(struct sl_hook *hk, const struct sl_cand *c,
			  bool trial)
{
	void *addr = sl_kp_cached(hk, c);
	int ret;

	memset(&hk->priv.kp, 0, sizeof(hk->priv.kp));
	if (addr)
		hk->priv.kp.addr = addr;
	else
		hk->priv.kp.symbol_name = c->target;
	hk->priv.kp.pre_handler = sl_kp_dispatch;
	if (trial)
		hk->priv.kp.flags = KPROBE_FLAG_DISABLED;
	ret = register_kprobe(&hk->priv.kp);
	if (!ret)
		sl_kp_remember(hk, c, hk->priv.kp.addr);
	return ret;
}

void sl_kp_unregister(struct sl_hook *hk)
{
	unregister_kprobe(&hk->priv.kp);
	hk->priv.nmissed_acc += hk->priv.kp.nmissed;
}

/*
 * A kretprobe's first trial by name would look the name up three times:
 * where a lookup scans every symbol (SL_KALLSYMS_SCAN, compat.h: 5.10), a
 * disabled kprobe (hk->priv.kp, unused by a kretprobe candidate) looks
 * it up once, and the kretprobe goes by the address it found.  The helper
 * is unregistered with the trial (sl_krp_unregister, the batch).
 */
static void *sl_krp_lookup(struct sl_hook *hk, const struct sl_cand *c)
{
	memset(&hk->priv.kp, 0, sizeof(hk->priv.kp));
	hk->priv.kp.symbol_name = c->target;
	hk->priv.kp.flags = KPROBE_FLAG_DISABLED;
	if (register_kprobe(&hk->priv.kp))
		return NULL;	/* the kretprobe by name says why */
	hk->priv.kp_helper = true;
	return hk->priv.kp.addr;
}

/* the helper's address: not the entry of a point (sl_ev_func()) */
static void sl_krp_helper_gone(struct sl_hook *hk)
{
	hk->priv.kp_helper = false;
	hk->priv.kp.addr = NULL;
}

static void sl_krp_lookup_done(struct sl_hook *hk)
{
	if (hk->priv.kp_helper) {
		unregister_kprobe(&hk->priv.kp);
		sl_krp_helper_gone(hk);
	}
}

/* Candidate @c of @hk as a kretprobe, with the handlers its row needs. */
int sl_krp_register(struct sl_hook *hk, const struct sl_cand *c,
			   bool trial)
{
	void *addr = sl_kp_cached(hk, c);
	int ret;

	if (!addr && trial && SL_KALLSYMS_SCAN)
		addr = sl_krp_lookup(hk, c);

	memset(&hk->priv.krp, 0, sizeof(hk->priv.krp));
	if (addr)
		hk->priv.krp.kp.addr = addr;
	else
		hk->priv.krp.kp.symbol_name = c->target;
	if (hk->act == SL_ACT_SPAN) {
		hk->priv.krp.entry_handler = sl_krp_span_entry;
		hk->priv.krp.handler = sl_krp_span_ret;
	} else if (hk->pipe->krp && hk->pipe->krp->pre == hk->pre &&
		   hk->pipe->krp->post == hk->post) {
		hk->priv.krp.entry_handler = hk->pipe->krp->entry;
		hk->priv.krp.handler = hk->pipe->krp->ret;
	} else {
		hk->priv.krp.entry_handler = sl_krp_entry;
		hk->priv.krp.handler = sl_krp_ret;
	}
	hk->priv.krp.data_size = sl_krp_data_size(hk);
	hk->priv.krp.maxactive = sl_maxactive();
	if (trial)
		hk->priv.krp.kp.flags = KPROBE_FLAG_DISABLED;
	ret = register_kretprobe(&hk->priv.krp);
	if (!ret)
		sl_kp_remember(hk, c, hk->priv.krp.kp.addr);
	else
		sl_krp_lookup_done(hk);
	return ret;
}

void sl_krp_unregister(struct sl_hook *hk)
{
	unregister_kretprobe(&hk->priv.krp);
	hk->priv.nmissed_acc += hk->priv.krp.nmissed + hk->priv.krp.kp.nmissed;
	sl_krp_lookup_done(hk);
}

/* unregistering in a batch (struct sl_batch: hook_backend.h) */
bool sl_batch_init(struct sl_batch *b, unsigned int n)
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

void sl_batch_add(struct sl_batch *b, struct sl_hook *hk)
{
	if (hk->cands[hk->priv.cand].kind == STACKLAT_HOOK_KIND_KPROBE) {
		b->kps[b->nk++] = &hk->priv.kp;
	} else {
		b->krps[b->nr++] = &hk->priv.krp;
		/* a hook's kp is its kprobe or its kretprobe's helper */
		if (hk->priv.kp_helper)
			b->kps[b->nk++] = &hk->priv.kp;
	}
}

/* unregister the batch; returns the nmissed counts to their hooks */
void sl_batch_run(struct sl_batch *b, bool count)
{
	unsigned int i;

	if (b->nk)
		unregister_kprobes(b->kps, b->nk);
	if (b->nr)
		unregister_kretprobes(b->krps, b->nr);
	for (i = 0; i < b->nk; i++)
		if (sl_hook_of_kp(b->kps[i])->priv.kp_helper)
			sl_krp_helper_gone(sl_hook_of_kp(b->kps[i]));
	for (i = 0; count && i < b->nk; i++)
		sl_hook_of_kp(b->kps[i])->priv.nmissed_acc +=
			b->kps[i]->nmissed;
	for (i = 0; count && i < b->nr; i++)
		container_of(b->krps[i], struct sl_hook,
			     priv.krp)->priv.nmissed_acc +=
			b->krps[i]->nmissed + b->krps[i]->kp.nmissed;
	kfree(b->kps);
	kfree(b->krps);
}
