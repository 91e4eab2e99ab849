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
 *
 * A user-space function (issue 27) is a row the same way, on the uprobe
 * backend (core/hook_uprobe.c): "func add /PATH:0xOFFSET[:NAME]", which
 * the tool makes of PATH:SYMBOL or LIB:SYMBOL (the file offset of the
 * symbol's first instruction).  The row is named by "/PATH:0xOFFSET"
 * (status shows it), its stage by NAME (the symbol), else by the file's
 * base name and the offset.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "sl.h"
#include "stacklat_filter.h"
#include "points.h"

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

/* func add SYMBOL or /PATH:0xOFFSET[:NAME] (struct sl_pipeline's point_add) */
static int sl_func_add(struct sl_pipeline *p, const char *sym,
		       struct netlink_ext_ack *extack)
{
	char stage[STACKLAT_NAME_MAX], target[STACKLAT_SYM_MAX];
	bool user = sym[0] == '/';
	struct sl_func_slot *s;
	struct sl_hook *hk;
	int i, ret;

	lockdep_assert_held(&sl_lock);
	if (user) {
		if (!stacklat_valid_upoint(sym)) {
			NL_SET_ERR_MSG(extack, "not /PATH:0xOFFSET[:NAME]");
			sl_err("func add: a user function is /PATH:0xOFFSET[:NAME]\n");
			return -EINVAL;
		}
		sl_points_user_names(sym, target, stage);
		sym = target;
	} else if (!stacklat_valid_symbol(sym)) {
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
	if (user) {
		ret = sl_points_user_check("func add", sym, extack);
		if (ret)
			return ret;
	}
	s = &sl_func_slots[i];
	hk = &sl_func_hooks[i];
	strscpy(s->sym, sym, sizeof(s->sym));
	if (user)
		s->cand = (struct sl_cand){ .kind = STACKLAT_HOOK_KIND_UPROBE,
					    .target = s->sym };
	else
		s->cand = (struct sl_cand)SL_KRPD(s->sym, 0);
	hk->name = s->sym;
	/* slot i's row and stage i: the engine resolves, arms, empties it */
	ret = sl_point_add(p, hk, &s->cand, 1, i);
	if (ret && user) {
		NL_SET_ERR_MSG(extack, "the uprobe was refused");
		sl_err("func add: %s: the uprobe was refused (%d)\n", sym, ret);
		return ret;
	}
	if (ret)
		return sl_points_why("func add", sym, ret, extack);
	strscpy(sl_func_stages[i].name, user ? stage : sym,
		sizeof(sl_func_stages[i].name));
	sl_func_stages[i].from = hk->name;
	sl_func_stages[i].to = hk->name;
	return 0;
}

/* func del SYMBOL or /PATH:0xOFFSET[:NAME] (point_del) */
static int sl_func_del(struct sl_pipeline *p, const char *sym,
		       struct netlink_ext_ack *extack)
{
	char stage[STACKLAT_NAME_MAX], target[STACKLAT_SYM_MAX];
	int i;

	lockdep_assert_held(&sl_lock);
	if (sym[0] == '/') {
		if (!stacklat_valid_upoint(sym)) {
			NL_SET_ERR_MSG(extack, "not /PATH:0xOFFSET[:NAME]");
			sl_err("func del: a user function is /PATH:0xOFFSET[:NAME]\n");
			return -EINVAL;
		}
		sl_points_user_names(sym, target, stage);
		sym = target;
	} else if (!stacklat_valid_symbol(sym)) {
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
	.desc = "entry-to-return latency of kernel and user functions named by 'func add'",
	.key = STACKLAT_KEY_NONE,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.sampling = true,		/* a call, at its entry (SPAN rows) */
	.hooks = sl_func_hooks,
	.nhooks = SL_FUNC_MAX,
	.stages = sl_func_stages,
	.nstages = SL_FUNC_MAX,
	.cgroup_totals = true,
	.setup = sl_func_setup,
	.point_add = sl_func_add,
	.point_del = sl_func_del,
};
