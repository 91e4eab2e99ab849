// SPDX-License-Identifier: GPL-2.0
/*
 * The ftrace backend of function-entry points, where the kernel allows it
 * (SL_HAVE_FTRACE, compat.h) and ftrace=1: see hook.c.
 */
#include <linux/kprobes.h>

#include "hook_backend.h"
#include "dispatch.h"
#include "fmt.h"

#ifdef SL_HAVE_FTRACE

/*
 * The pipeline's ftrace_ops callback: the armed entry point of the
 * pipeline at @ip (every one, if two share it), found in its address map
 * through its cache (sl_fip_next).  A hit
 * that ftrace's recursion lock refuses (the handler re-entered in the same
 * context) is counted missed.  The lock disables preemption while held
 * (trace_test_and_set_recursion() on every kernel with this backend), so
 * the dispatcher runs with preemption off, as it requires (dispatch.h); a hit
 * the lock refuses runs nothing.
 */
static void notrace sl_ft_func(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op,
			       struct ftrace_regs *fregs)
{
	struct sl_pipeline *p = container_of(op, struct sl_pipeline,
					     priv.ft_ops);
	struct pt_regs *regs = sl_compat_ftrace_pt_regs(fregs);
	int bit, i;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	for (i = sl_fip_next(p, ip, 0); i >= 0;
	     i = READ_ONCE(p->priv.fip_dup) ? sl_fip_next(p, ip, i + 1) : -1) {
		struct sl_hook *hk = &p->hooks[i];

		if (!READ_ONCE(hk->priv.ftrace) || !sl_hook_armed(hk))
			continue;
		if (unlikely(bit < 0 || !regs)) {
			this_cpu_inc(hk->priv.pc->missed);
			continue;
		}
		sl_regs_dispatch(hk, regs);
	}
	if (bit >= 0)
		ftrace_test_recursion_unlock(bit);
}

/*
 * After a successful trial registration of kprobe candidate @hk->priv.cand:
 * the kprobes core flags a probe placed on an ftrace site, and its address
 * is then the very site ftrace calls back with.
 */
void sl_ft_pick(struct sl_hook *hk)
{
	hk->priv.ftrace = sl_use_ftrace &&
		hk->cands[hk->priv.cand].kind == STACKLAT_HOOK_KIND_KPROBE &&
		(hk->priv.kp.flags & KPROBE_FLAG_FTRACE);
	hk->priv.fip = hk->priv.ftrace ? (unsigned long)hk->priv.kp.addr : 0;
}

/*
 * Put @hk's function in its pipeline's ops (live: patched at once).  The
 * first function of an ops that is not registered replaces whatever its
 * filter held: addresses left there by an earlier disable.  (Filters are
 * freed only at unload: ftrace_free_filter() of some kernels leaves the
 * freed hashes in the ops.)
 */
int sl_ft_add(struct sl_hook *hk)
{
	struct sl_pipeline *p = hk->pipe;
	int ret;

	if (!p->priv.ft_ops.func) {
		p->priv.ft_ops.func = sl_ft_func;
		p->priv.ft_ops.flags = FTRACE_OPS_FL_SAVE_REGS;
	}
	ret = ftrace_set_filter_ip(&p->priv.ft_ops, hk->priv.fip, 0,
				   !p->priv.ft_n && !p->priv.ft_live);
	if (!ret) {
		p->priv.ft_n++;
		sl_fip_set(hk, true);
	}
	return ret;
}

/*
 * Take @hk's function out of the ops.  An ops whose filter is empty would
 * trace every function: the last one out unregisters it instead.
 */
void sl_ft_del(struct sl_hook *hk)
{
	struct sl_pipeline *p = hk->pipe;

	sl_fip_set(hk, false);
	if (p->priv.ft_live && p->priv.ft_n == 1) {
		unregister_ftrace_function(&p->priv.ft_ops);
		p->priv.ft_live = false;
	} else {
		ftrace_set_filter_ip(&p->priv.ft_ops, hk->priv.fip, 1, 0);
	}
	p->priv.ft_n--;
}

/*
 * Arm the pipeline's ftrace points: register its ops, with every function
 * already in the filter (one code update).  If ftrace refuses, each of
 * them is given back disarmed, no longer on ftrace: sl_hooks_commit()
 * arms it the next way (a kprobe).
 */
int sl_ft_commit(struct sl_pipeline *p)
{
	int ret;

	if (p->priv.ft_live || !p->priv.ft_n)
		return 0;
	ret = register_ftrace_function(&p->priv.ft_ops);
	if (!ret) {
		p->priv.ft_live = true;
		return 0;
	}
	sl_err("%s: ftrace_ops refused (%d): its entry points fall back to kprobes\n",
	       p->name, ret);
	p->priv.ft_n = 0;
	sl_fip_disarm_all(p, false, true);
	return ret;
}

/* Disarm every ftrace point of @p at once: one unregistration. */
void sl_ft_disarm_all(struct sl_pipeline *p)
{
	if (p->priv.ft_live)
		unregister_ftrace_function(&p->priv.ft_ops);
	p->priv.ft_live = false;
	p->priv.ft_n = 0;
	sl_fip_disarm_all(p, false, false);
}
/* Unload: the ops' filter (the ops is unregistered by now). */
void sl_ft_release(struct sl_pipeline *p)
{
	if (p->priv.ft_ops.func)
		ftrace_free_filter(&p->priv.ft_ops);
}
#else
void sl_ft_pick(struct sl_hook *hk)
{
	hk->priv.ftrace = false;
}

int sl_ft_add(struct sl_hook *hk)
{
	return -EOPNOTSUPP;
}

void sl_ft_del(struct sl_hook *hk)
{
}

int sl_ft_commit(struct sl_pipeline *p)
{
	return 0;
}

void sl_ft_disarm_all(struct sl_pipeline *p)
{
}

void sl_ft_release(struct sl_pipeline *p)
{
}
#endif
