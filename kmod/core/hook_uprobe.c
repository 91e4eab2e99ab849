// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe backend: a user-space function's entry and return (a
 * STACKLAT_HOOK_KIND_UPROBE candidate, "/PATH:0xOFFSET", the file offset
 * of the function's first instruction), as one uprobe consumer with an
 * entry handler and a return handler (a uretprobe).  Resolving the point
 * (the trial registration) looks the path up and holds it (struct path:
 * the inode stays while the point is there, even if the file is replaced
 * or deleted); arming registers the consumer with the kernel's uprobes.
 *
 * The handlers run in process context, in the probed task, with
 * preemption ON (uprobes run from the breakpoint's notifier on the way
 * back to user space, under SRCU or the uprobe's rwsem): they disable
 * preemption around the in-flight table and the per-CPU histograms.
 *
 * A uprobe keeps no per-call bytes for its consumer on every kernel
 * (the session cookie of 6.13 is not on 5.10 to 6.12), so a call's entry
 * time goes into the in-flight table under the task and the point
 * (current + the point's index: task_structs are cache-line aligned),
 * with the task's nesting depth: recursive calls pair up last in, first
 * out, SL_FLIGHT_NTS deep (deeper calls are counted unmatched, not
 * timed).  An entry left by a call that never returns (the process
 * exited, longjmp) is removed by age and counted stale, or started over
 * by the next call of a thread at that task's address (aux[1] names the
 * thread).  A point's
 * generation (hk->priv.gen) moves on when it is unregistered: a call
 * still in flight then returns to an entry of the older generation,
 * counted orphaned, never recorded into the slot's next point.
 *
 * A row that is not a SPAN (a span's user-space point, span.c) is an
 * entry point only (STACKLAT_HOOK_KIND_UPROBE: no uretprobe) or a return
 * point only (STACKLAT_HOOK_KIND_URETPROBE: a consumer with a return
 * handler alone), and its hit goes through the dispatcher as a kprobe's
 * does.  At the entry the user registers are the arguments; at a return
 * they are not (the entry's are gone): such a point is keyed by the
 * thread (span.c refuses an argument key there).
 */
#include <linux/slab.h>
#include <linux/namei.h>
#include <linux/fs.h>
#include <linux/path.h>
#include <linux/sched.h>
#include <linux/preempt.h>

#include "pipeline.h"
#include "hook_backend.h"
#include "dispatch.h"
#include "chain.h"
#include "fmt.h"

struct sl_up {
	struct sl_compat_uprobe cu;	/* inode, offset (and the uprobe) */
	struct path path;		/* held while the point is there */
	struct uprobe_consumer uc;
	struct sl_hook *hk;
	bool registered;
};

static __always_inline u64 sl_up_key(struct sl_hook *hk)
{
	return sl_chain_key(hk->pipe, (unsigned long)current + hk->pt);
}

/*
 * aux[1] of a task's entry: the point's generation and the thread's id,
 * whose entry it is (a task_struct's address is reused once it exits)
 */
static __always_inline u64 sl_up_tag(u32 gen)
{
	return (u64)(u32)current->pid << 32 | gen;
}

/* Process context of the probed task, preemptible (above). */
static SL_UP_HANDLER(sl_up_entry, uc, regs)
{
	struct sl_hook *hk = container_of(uc, struct sl_up, uc)->hk;
	struct sl_flight_ent *e;
	u64 now, depth, tag;
	int how;

	preempt_disable();
	if (hk->act != SL_ACT_SPAN) {
		sl_regs_dispatch(hk, regs);	/* an entry point (above) */
		goto out;
	}
	/* the gate and the task filter, and the time: as a SPAN row's entry */
	if (sl_span_entry(hk, &now))
		goto out;
	e = sl_flight_put(sl_ft, sl_up_key(hk), now, SL_FL_KEEP, &how);
	if (unlikely(!e))
		goto out;	/* counted by the table: table_full, busy */
	tag = sl_up_tag(READ_ONCE(hk->priv.gen));
	if (how == SL_FL_NEW || e->aux[1] != tag) {
		/*
		 * New, or left by a call that never returned here: one of an
		 * older generation of the point, or of a task that had this
		 * task's address before it (killed inside a call, or inside
		 * a call when its point was deleted).  This call starts it
		 * over, born now, or the age sweep would take it for the old
		 * call's and reclaim it under this one.
		 */
		e->aux[0] = 0;
		e->aux[1] = tag;
		e->born = now;
	}
	depth = e->aux[0];
	if (depth < SL_FLIGHT_NTS)
		e->ts[depth] = now;
	else
		sl_loss(hk->pipe, SL_LOSS_UNMATCHED);	/* too deep: not timed */
	e->aux[0] = depth + 1;
	sl_flight_unlock(e);
out:
	preempt_enable();
	return 0;
}

/* Process context of the probed task, preemptible (above). */
static SL_UP_RET_HANDLER(sl_up_ret, uc, func, regs)
{
	struct sl_hook *hk = container_of(uc, struct sl_up, uc)->hk;
	struct sl_flight_ent *e;
	u64 start = 0, depth;

	preempt_disable();
	/* none: not followed at entry (gate, filter) or lost (counted) */
	e = sl_flight_get(sl_ft, sl_up_key(hk));
	if (!e)
		goto out;
	if (unlikely(e->aux[1] >> 32 != (u32)current->pid)) {
		/* an earlier thread's, left for the sweep: not followed */
		sl_flight_unlock(e);
		goto out;
	}
	if (unlikely((u32)e->aux[1] != READ_ONCE(hk->priv.gen) || !e->aux[0])) {
		sl_flight_unlock_remove(sl_ft, e);
		sl_loss(hk->pipe, SL_LOSS_ORPHANED);
		goto out;
	}
	depth = e->aux[0] - 1;
	if (depth < SL_FLIGHT_NTS)
		start = e->ts[depth];
	if (!depth) {
		sl_flight_unlock_remove(sl_ft, e);
	} else {
		e->aux[0] = depth;
		sl_flight_unlock(e);
	}
	if (start)
		sl_span_exit(hk, &start);
out:
	preempt_enable();
	return 0;
}

/*
 * A return point alone (a STACKLAT_HOOK_KIND_URETPROBE row): process
 * context of the probed task, preemptible (above), in the function's
 * return to its caller.
 */
static SL_UP_RET_HANDLER(sl_up_ret_point, uc, func, regs)
{
	preempt_disable();
	sl_regs_dispatch(container_of(uc, struct sl_up, uc)->hk, regs);
	preempt_enable();
	return 0;
}

/*
 * "/PATH:0xOFFSET" into @path (@len bytes) and *@off; false if it is not
 * that (func.c checks it before, stacklat_valid_upoint()).
 */
static bool sl_up_parse(const char *target, char *path, size_t len,
			loff_t *off)
{
	const char *colon = strrchr(target, ':');
	unsigned long long v;

	if (!colon || target[0] != '/' || (size_t)(colon - target) >= len ||
	    kstrtoull(colon + 1, 0, &v) || v > LLONG_MAX)
		return false;
	memcpy(path, target, colon - target);
	path[colon - target] = '\0';
	*off = v;
	return true;
}

/*
 * Look @target up and check it: 0, or -ENOENT (no such file), -EINVAL
 * (not "/PATH:0xOFFSET"), -ENOEXEC (not a regular file), -ERANGE (the
 * offset is not inside the file).  On success *@pathp holds the file.
 */
static int sl_up_lookup(const char *target, struct path *pathp, loff_t *off)
{
	char *path;
	int ret;

	path = kmalloc(STACKLAT_SYM_MAX, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	if (!sl_up_parse(target, path, STACKLAT_SYM_MAX, off)) {
		kfree(path);
		return -EINVAL;
	}
	ret = kern_path(path, LOOKUP_FOLLOW, pathp);
	kfree(path);
	if (ret)
		return ret;
	if (!d_is_reg(pathp->dentry))
		ret = -ENOEXEC;
	else if (*off >= i_size_read(d_inode(pathp->dentry)))
		ret = -ERANGE;
	if (ret)
		path_put(pathp);
	return ret;
}

/* For func add's message: can @target be probed?  (sl_up_lookup()) */
int sl_uprobe_check(const char *target)
{
	struct path path;
	loff_t off;
	int ret;

	ret = sl_up_lookup(target, &path, &off);
	if (!ret)
		path_put(&path);
	return ret;
}

/* What the point holds: the file and the consumer.  Not registered. */
void sl_up_release(struct sl_hook *hk)
{
	struct sl_up *u = hk->priv.up;

	if (!u)
		return;
	WARN_ON_ONCE(u->registered);
	path_put(&u->path);
	kfree(u);
	hk->priv.up = NULL;
}

/*
 * A trial registration looks the file up and holds it (a point resolved
 * again lets the older one go); a real one registers the consumer.
 */
int sl_up_register(struct sl_hook *hk, const struct sl_cand *c, bool trial)
{
	struct sl_up *u = hk->priv.up;
	int ret;

	if (trial) {
		if (u && u->registered)
			return -EBUSY;
		sl_up_release(hk);
		u = kzalloc(sizeof(*u), GFP_KERNEL);
		if (!u)
			return -ENOMEM;
		ret = sl_up_lookup(c->target, &u->path, &u->cu.offset);
		if (ret) {
			kfree(u);
			return ret;
		}
		u->cu.inode = d_inode(u->path.dentry);
		u->hk = hk;
		hk->priv.up = u;
		return 0;
	}
	if (!u)
		return -ENOENT;
	if (u->registered)
		return 0;
	memset(&u->uc, 0, sizeof(u->uc));
	if (c->kind == STACKLAT_HOOK_KIND_URETPROBE) {
		u->uc.ret_handler = sl_up_ret_point;
	} else {
		u->uc.handler = sl_up_entry;
		if (hk->act == SL_ACT_SPAN)
			u->uc.ret_handler = sl_up_ret;
	}
	ret = sl_compat_uprobe_register(&u->cu, &u->uc);
	if (!ret)
		u->registered = true;
	return ret;
}

/*
 * Unregister, and wait until no handler runs; the calls still in flight
 * return to an older generation (above).  Nothing if not registered (the
 * undoing of a trial: the file stays held).
 */
void sl_up_unregister(struct sl_hook *hk)
{
	struct sl_up *u = hk->priv.up;

	if (!u || !u->registered)
		return;
	sl_compat_uprobe_unregister(&u->cu, &u->uc);
	u->registered = false;
	WRITE_ONCE(hk->priv.gen, hk->priv.gen + 1);
}
