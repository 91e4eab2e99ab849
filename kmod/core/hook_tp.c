// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint backend: a point's candidate found among the kernel's
 * tracepoints by name, and its probe (SL_TP_DEFINE*) registered on it.
 */
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "hook_backend.h"
#include "dispatch.h"
#include "fmt.h"

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

struct tracepoint *sl_tp_lookup(const char *name)
{
	struct sl_tp_find f = { .name = name };

	for_each_kernel_tracepoint(sl_tp_match, &f);
	return f.tp;
}

/*
 * dispatch.h's probe for any tracepoint: called as the tracepoint calls
 * its probes, preemptible where any kind of tracepoint may be (7.x, and
 * syscall tracepoints since 6.13: compat.h), so it turns preemption off
 * around the dispatcher then.
 */
void sl_tp_any(void *data, unsigned long a0, unsigned long a1,
	       unsigned long a2, unsigned long a3)
{
	sl_tp_preempt_off(SL_TP_SYSCALL_PREEMPTIBLE);
	sl_tp_dispatch(data, a0, a1, a2, a3);
	sl_tp_preempt_on(SL_TP_SYSCALL_PREEMPTIBLE);
}

/* Candidate @c of @hk as a tracepoint probe (hk->priv.tp is its tracepoint). */
int sl_tp_register(struct sl_hook *hk, const struct sl_cand *c)
{
	/* a probe calling its post itself serves that NONE row only */
	if (c->tp_post && (c->tp_post != hk->post ||
			   sl_hook_path(hk) != SL_PATH_NONE)) {
		pr_err("%s: hook %s: its probe calls another post callback than the row's\n",
		       hk->pipe->name, hk->name);
		return -EINVAL;
	}
	return tracepoint_probe_register(hk->priv.tp, c->tp_probe, hk);
}

void sl_tp_unregister(struct sl_hook *hk, const struct sl_cand *c)
{
	tracepoint_probe_unregister(hk->priv.tp, c->tp_probe, hk);
}
