// SPDX-License-Identifier: GPL-2.0
/*
 * The fprobe backend of return points, where the kernel has the fprobe
 * stacklat uses (SL_HAVE_FPROBE, compat.h) and ftrace=1.
 */
#include <linux/slab.h>
#include <linux/kprobes.h>

#include "hook_backend.h"
#include "dispatch.h"
#include "fmt.h"

#ifdef SL_HAVE_FPROBE
/*
 * The fprobe backend of return points: one fprobe per pipeline on all its
 * return points' functions, registered with all of them at once (one code
 * update).  Its entry handler runs under ftrace's per-context recursion
 * lock (a softirq arriving inside a task's handler is run, where a
 * kretprobe's kprobe would drop it as nested), which disables preemption;
 * the exit handler runs from rethook's trampoline handler, with
 * preemption off too (the engine requires it: dispatch.h).  It finds the
 * hook in the address map, like sl_ft_func(), and keeps it in front of
 * the call's bytes for the exit handler, which gets them as a
 * kretprobe's would.
 */
struct sl_fp_data {
	struct sl_hook *hk;
	u32 gen;			/* hk->priv.gen at entry */
	u64 raw[];
};

static int notrace sl_fp_entry(struct fprobe *fp, unsigned long entry_ip,
			       unsigned long ret_ip, struct pt_regs *regs,
			       void *data)
{
	struct sl_pipeline *p = container_of(fp, struct sl_pipeline, priv.fp);
	struct sl_fp_data *d = data;
	int i;

	for (i = sl_fip_next(p, entry_ip, 0); i >= 0;
	     i = sl_fip_next(p, entry_ip, i + 1)) {
		struct sl_hook *hk = &p->hooks[i];

		if (!READ_ONCE(hk->priv.fprobe) || !sl_hook_armed(hk))
			continue;
		d->hk = hk;
		d->gen = READ_ONCE(hk->priv.gen);
		if (hk->act == SL_ACT_SPAN)
			return sl_span_entry(hk, d->raw);
		return sl_ret_entry_dispatch(hk, d->raw, regs, hk->pre);
	}
	return 1;
}

/*
 * A call that entered before its point left the fprobe (a func del, after
 * which another function may take the hook's slot, and its histogram)
 * returns with an older generation: not recorded, counted orphaned.
 */
static void notrace sl_fp_exit(struct fprobe *fp, unsigned long entry_ip,
			       unsigned long ret_ip, struct pt_regs *regs,
			       void *data)
{
	struct sl_fp_data *d = data;

	if (unlikely(d->gen != READ_ONCE(d->hk->priv.gen))) {
		sl_loss(d->hk->pipe, SL_LOSS_ORPHANED);
		return;
	}
	if (d->hk->act == SL_ACT_SPAN)
		sl_span_exit(d->hk, d->raw);
	else
		sl_ret_exit_dispatch(d->hk, d->raw, regs_return_value(regs),
				     d->hk->post);
}

/*
 * After a successful trial registration of kretprobe candidate @hk->priv.cand:
 * a probe the kprobes core placed on an ftrace site can be on the fprobe.
 */
void sl_fp_pick(struct sl_hook *hk)
{
	hk->priv.fprobe =
		sl_use_ftrace &&
		hk->cands[hk->priv.cand].kind == STACKLAT_HOOK_KIND_KRETPROBE &&
		(hk->priv.krp.kp.flags & KPROBE_FLAG_FTRACE);
	if (hk->priv.fprobe)
		hk->priv.fip = (unsigned long)hk->priv.krp.kp.addr;
}

/*
 * Arming a point on the fprobe only counts it: the fprobe is registered
 * with every armed point by sl_hooks_commit().  An fprobe cannot take one
 * more function while registered (a func add on an enabled pipeline): that
 * point is a kretprobe then.
 */
int sl_fp_add(struct sl_hook *hk)
{
	struct sl_pipeline *p = hk->pipe;

	if (p->priv.fp_live)
		return -EBUSY;
	p->priv.fp_n++;
	return 0;
}

static bool sl_addr_in(const unsigned long *a, unsigned int n, unsigned long x)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (a[i] == x)
			return true;
	return false;
}

/*
 * Register the pipeline's fprobe on its armed points, at once.  A point
 * the fprobe cannot take (a second one on a function, or all of them if
 * the fprobe is refused) is given back disarmed, no longer on the fprobe:
 * sl_hooks_commit() arms it the next way (a kretprobe).
 */
int sl_fp_commit(struct sl_pipeline *p)
{
	size_t size = 0;
	unsigned long *addrs;
	unsigned int i, n = 0;
	int ret;

	if (p->priv.fp_live || !p->priv.fp_n)
		return 0;
	addrs = kmalloc_array(p->priv.fp_n, sizeof(*addrs), GFP_KERNEL);
	if (!addrs) {
		ret = -ENOMEM;
		goto fallback;
	}
	for (i = 0; i < p->nhooks; i++) {
		struct sl_hook *hk = &p->hooks[i];

		if (!hk->priv.fprobe || hk->priv.state != STACKLAT_HOOK_ARMED ||
		    n == p->priv.fp_n)
			continue;
		if (sl_addr_in(addrs, n, hk->priv.fip)) {
			/* a second point on the function: a kretprobe */
			WRITE_ONCE(hk->priv.fprobe, false);
			hk->priv.state = STACKLAT_HOOK_DISARMED;
			continue;
		}
		addrs[n++] = hk->priv.fip;
		sl_fip_set(hk, true);
		size = max(size, sl_krp_data_size(hk));
	}
	p->priv.fp_n = n;
	if (!n) {
		kfree(addrs);
		return 0;
	}
	memset(&p->priv.fp, 0, sizeof(p->priv.fp));
	p->priv.fp.entry_handler = sl_fp_entry;
	p->priv.fp.exit_handler = sl_fp_exit;
	p->priv.fp.entry_data_size = sizeof(struct sl_fp_data) + size;
	/* a rethook-based fprobe: maxactive calls in flight per point */
	sl_compat_fprobe_maxactive(&p->priv.fp, sl_maxactive() * (int)n);
	ret = register_fprobe_ips(&p->priv.fp, addrs, (int)n);
	kfree(addrs);
	if (!ret) {
		p->priv.fp_live = true;
		return 0;
	}
fallback:
	sl_err("%s: fprobe refused (%d): its return points fall back to kretprobes\n",
	       p->name, ret);
	p->priv.fp_n = 0;
	sl_fip_disarm_all(p, true, true);
	return ret;
}

/* Disarm every fprobe point of @p at once: one unregistration. */
void sl_fp_disarm_all(struct sl_pipeline *p)
{
	if (p->priv.fp_live) {
		unregister_fprobe(&p->priv.fp);
		p->priv.fp_nmissed_acc += p->priv.fp.nmissed;
	}
	p->priv.fp_live = false;
	p->priv.fp_n = 0;
	sl_fip_disarm_all(p, true, false);
}

/*
 * For status: the return points on @p's fprobe and the calls it missed
 * (recursion in one context, or on rethook kernels no free instance);
 * false when the pipeline has none.
 */
bool sl_fp_stats(const struct sl_pipeline *p, unsigned int *n, u64 *nmissed)
{
	*n = p->priv.fp_live ? p->priv.fp_n : 0;
	*nmissed = p->priv.fp_nmissed_acc +
		   (p->priv.fp_live ? READ_ONCE(p->priv.fp.nmissed) : 0);
	return *n || *nmissed;
}
#else
void sl_fp_pick(struct sl_hook *hk)
{
	hk->priv.fprobe = false;
}

int sl_fp_add(struct sl_hook *hk)
{
	return -EOPNOTSUPP;
}

int sl_fp_commit(struct sl_pipeline *p)
{
	return 0;
}

void sl_fp_disarm_all(struct sl_pipeline *p)
{
}

bool sl_fp_stats(const struct sl_pipeline *p, unsigned int *n, u64 *nmissed)
{
	*n = 0;
	*nmissed = 0;
	return false;
}
#endif
