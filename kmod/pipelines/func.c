// SPDX-License-Identifier: GPL-2.0
/*
 * The "func" pipeline: entry-to-return latency of kernel functions the
 * operator names at run time ("func add SYMBOL").  Each function is one
 * return point and one stage, a SPAN row: the entry timestamp lives in the
 * kretprobe (or fprobe) instance, so recursion and concurrent calls pair
 * up by themselves; calls that find no free instance are counted by the
 * kernel as nmissed.  The table is all there is: no callbacks.
 *
 * Slots are fixed (a registered struct kretprobe cannot move): an unused
 * slot has no candidate and an empty stage name, and readers skip it.  A
 * slot is reused by the next "func add": calls still inside the deleted
 * function (on the fprobe, which keeps it until the pipeline is disabled)
 * return with their hook's older generation and are counted orphaned,
 * never recorded into the new function's histogram (core/hook_fprobe.c).
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/kprobes.h>

#include "sl.h"
#include "stacklat_filter.h"

#define SL_FUNC_MAX	16

struct sl_func_slot {
	char sym[STACKLAT_SYM_MAX];
	struct sl_cand cand;
};

static struct sl_func_slot sl_func_slots[SL_FUNC_MAX];
static struct sl_hook sl_func_hooks[SL_FUNC_MAX];
static struct sl_stage sl_func_stages[SL_FUNC_MAX];

static int sl_func_find(const char *sym)
{
	int i;

	for (i = 0; i < SL_FUNC_MAX; i++)
		if (sl_func_hooks[i].ncands && !strcmp(sl_func_slots[i].sym, sym))
			return i;
	return -1;
}

/*
 * Why @sym cannot be probed (@err from the kretprobe): a disabled trial
 * kprobe (no code is patched) tells a missing symbol (ENOENT) from one
 * kprobes refuse (EINVAL: the kprobe blacklist, noinstr or entry code).
 */
static int sl_func_why(const char *sym, int err,
		       struct netlink_ext_ack *extack)
{
	static struct kprobe kp;	/* under sl_lock */
	int ret;

	memset(&kp, 0, sizeof(kp));
	kp.symbol_name = sym;
	kp.flags = KPROBE_FLAG_DISABLED;
	ret = register_kprobe(&kp);
	if (!ret)
		unregister_kprobe(&kp);
	if (ret == -ENOENT) {
		NL_SET_ERR_MSG(extack, "no such function");
		sl_err("func add: %s: no such function\n", sym);
		return -ENOENT;
	}
	if (ret == -EINVAL) {
		NL_SET_ERR_MSG(extack, "cannot probe that function: blacklisted");
		sl_err("func add: cannot probe %s: blacklisted (kprobes refuse it)\n",
		       sym);
		return -EINVAL;
	}
	NL_SET_ERR_MSG(extack, "cannot probe that function");
	sl_err("func add: cannot probe %s (%d)\n", sym, ret ? ret : err);
	return ret ? ret : err;
}

/* func add SYMBOL (struct sl_pipeline's point_add) */
static int sl_func_add(struct sl_pipeline *p, const char *sym,
		       struct netlink_ext_ack *extack)
{
	struct sl_func_slot *s;
	struct sl_hook *hk;
	int i, ret;

	lockdep_assert_held(&sl_lock);
	if (!stacklat_valid_symbol(sym)) {
		NL_SET_ERR_MSG(extack, "not a kernel symbol name");
		sl_err("func add: not a kernel symbol name\n");
		return -EINVAL;
	}
	if (sl_func_find(sym) >= 0) {
		NL_SET_ERR_MSG(extack, "function already traced");
		sl_err("func add: %s is already traced\n", sym);
		return -EEXIST;
	}
	for (i = 0; i < SL_FUNC_MAX; i++)
		if (!sl_func_hooks[i].ncands)
			break;
	if (i == SL_FUNC_MAX) {
		NL_SET_ERR_MSG(extack, "too many functions traced");
		sl_err("func add: all %d slots are in use\n", SL_FUNC_MAX);
		return -ENOSPC;
	}
	s = &sl_func_slots[i];
	hk = &sl_func_hooks[i];
	strscpy(s->sym, sym, sizeof(s->sym));
	s->cand = (struct sl_cand)SL_KRPD(s->sym, 0);
	hk->name = s->sym;
	/* slot i's row and stage i: the engine resolves, arms, empties it */
	ret = sl_point_add(p, hk, &s->cand, 1, i);
	if (ret)
		return sl_func_why(sym, ret, extack);
	strscpy(sl_func_stages[i].name, sym, sizeof(sl_func_stages[i].name));
	sl_func_stages[i].from = hk->name;
	sl_func_stages[i].to = hk->name;
	return 0;
}

/* func del SYMBOL (point_del) */
static int sl_func_del(struct sl_pipeline *p, const char *sym,
		       struct netlink_ext_ack *extack)
{
	int i;

	lockdep_assert_held(&sl_lock);
	if (!stacklat_valid_symbol(sym)) {
		NL_SET_ERR_MSG(extack, "not a kernel symbol name");
		sl_err("func del: not a kernel symbol name\n");
		return -EINVAL;
	}
	i = sl_func_find(sym);
	if (i < 0) {
		NL_SET_ERR_MSG(extack, "function is not traced");
		sl_err("func del: %s is not traced\n", sym);
		return -ENOENT;
	}
	sl_func_stages[i].name[0] = '\0';
	sl_point_del(p, &sl_func_hooks[i]);
	return 0;
}

static int sl_func_setup(struct sl_pipeline *p)
{
	int i;

	for (i = 0; i < SL_FUNC_MAX; i++) {
		struct sl_hook *hk = &sl_func_hooks[i];

		/* a row each: its stage is the call's entry to its return */
		hk->name = sl_func_slots[i].sym;
		hk->ncands = 0;
		hk->act = SL_ACT_SPAN;
		hk->pt = i;
	}
	return 0;
}

SL_PIPELINE(func) = {
	.name = "func",
	.desc = "entry-to-return latency of kernel functions named by 'func add'",
	.key = STACKLAT_KEY_NONE,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.hooks = sl_func_hooks,
	.nhooks = SL_FUNC_MAX,
	.stages = sl_func_stages,
	.nstages = SL_FUNC_MAX,
	.setup = sl_func_setup,
	.point_add = sl_func_add,
	.point_del = sl_func_del,
};
