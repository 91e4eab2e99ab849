// SPDX-License-Identifier: GPL-2.0
/*
 * The "stacks" pipeline: how often each kernel stack reaches a function
 * the operator names at run time ("stacks add SYMBOL"), like bpftrace's
 * @[kstack] = count().  Each function is one entry point (a kprobe, or
 * the pipeline's ftrace_ops where the kernel allows it), a NONE row whose
 * post captures the stack into the pipeline's stack table (core/stack.h):
 * from the hooked function itself (its entry, "vfs_read+0x4") out to the
 * system call, counted per distinct stack, symbolised only when read.  No
 * stages, no chains: the table is all there is ("stacks show", debugfs
 * "stacks", GET_STACKS).
 *
 * Slots are fixed as func's are: an unused slot has no candidate.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/kprobes.h>

#include "sl.h"
#include "stacklat_filter.h"

#define SL_STACKS_MAX	16

struct sl_stacks_slot {
	char sym[STACKLAT_SYM_MAX];
	struct sl_cand cand;
};

static struct sl_stacks_slot sl_stacks_slots[SL_STACKS_MAX];
static struct sl_hook sl_stacks_hooks[SL_STACKS_MAX];

/*
 * Probe context: a kprobe pre-handler or the ftrace_ops handler, at the
 * function's entry; may be preemptible (PREEMPT_RT), which the capture
 * handles itself.
 */
static int sl_stacks_hit(struct sl_ev *ev, struct sl_flight_ent *e)
{
	/* another task than the filter's: counted, so that hits add up */
	if (!sl_task_ok(ev->p)) {
		sl_loss(ev->p, SL_LOSS_FILTERED);
		return SL_KEEP;
	}
	sl_stack_capture(ev->p, sl_ev_func(ev), 0, 0);
	return SL_KEEP;
}

static int sl_stacks_find(const char *sym)
{
	int i;

	for (i = 0; i < SL_STACKS_MAX; i++)
		if (sl_stacks_hooks[i].ncands &&
		    !strcmp(sl_stacks_slots[i].sym, sym))
			return i;
	return -1;
}

/* stacks add SYMBOL (point_add) */
static int sl_stacks_add(struct sl_pipeline *p, const char *sym,
			 struct netlink_ext_ack *extack)
{
	struct sl_stacks_slot *s;
	struct sl_hook *hk;
	int i, ret;

	lockdep_assert_held(&sl_lock);
	if (!stacklat_valid_symbol(sym)) {
		NL_SET_ERR_MSG(extack, "not a kernel symbol name");
		sl_err("stacks add: not a kernel symbol name\n");
		return -EINVAL;
	}
	if (sl_stacks_find(sym) >= 0) {
		NL_SET_ERR_MSG(extack, "function already has its stacks counted");
		sl_err("stacks add: %s is already there\n", sym);
		return -EEXIST;
	}
	for (i = 0; i < SL_STACKS_MAX; i++)
		if (!sl_stacks_hooks[i].ncands)
			break;
	if (i == SL_STACKS_MAX) {
		NL_SET_ERR_MSG(extack, "too many functions");
		sl_err("stacks add: all %d slots are in use\n", SL_STACKS_MAX);
		return -ENOSPC;
	}
	s = &sl_stacks_slots[i];
	hk = &sl_stacks_hooks[i];
	strscpy(s->sym, sym, sizeof(s->sym));
	s->cand = (struct sl_cand)SL_KPD(s->sym, 0);
	hk->name = s->sym;
	ret = sl_point_add(p, hk, &s->cand, 1, 0);
	if (ret) {
		if (ret == -ENOENT)
			NL_SET_ERR_MSG(extack, "no such function");
		else
			NL_SET_ERR_MSG(extack, "cannot probe that function");
		sl_err("stacks add: cannot probe %s (%d)\n", sym, ret);
		return ret;
	}
	return 0;
}

/* stacks del SYMBOL (point_del); the stacks counted stay until a reset */
static int sl_stacks_del(struct sl_pipeline *p, const char *sym,
			 struct netlink_ext_ack *extack)
{
	int i;

	lockdep_assert_held(&sl_lock);
	if (!stacklat_valid_symbol(sym)) {
		NL_SET_ERR_MSG(extack, "not a kernel symbol name");
		sl_err("stacks del: not a kernel symbol name\n");
		return -EINVAL;
	}
	i = sl_stacks_find(sym);
	if (i < 0) {
		NL_SET_ERR_MSG(extack, "function has no stacks counted");
		sl_err("stacks del: %s is not there\n", sym);
		return -ENOENT;
	}
	sl_point_del(p, &sl_stacks_hooks[i]);
	return 0;
}

static int sl_stacks_setup(struct sl_pipeline *p)
{
	int i;

	for (i = 0; i < SL_STACKS_MAX; i++) {
		struct sl_hook *hk = &sl_stacks_hooks[i];

		hk->name = sl_stacks_slots[i].sym;
		hk->ncands = 0;
		hk->act = SL_ACT_NONE;
		hk->obj = SL_OBJ_TASK;
		hk->post = sl_stacks_hit;
	}
	return 0;
}

static int sl_stacks_on_enable(struct sl_pipeline *p)
{
	return sl_pipeline_stacks_enable(p);
}

SL_PIPELINE(stacks) = {
	.name = "stacks",
	.desc = "kernel stacks reaching the functions named by 'stacks add', counted",
	.key = STACKLAT_KEY_NONE,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.hooks = sl_stacks_hooks,
	.nhooks = SL_STACKS_MAX,
	.setup = sl_stacks_setup,
	.on_enable = sl_stacks_on_enable,
	.point_add = sl_stacks_add,
	.point_del = sl_stacks_del,
};
