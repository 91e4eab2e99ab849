// SPDX-License-Identifier: GPL-2.0
/*
 * GET_STACKS of the "stacklat" generic netlink family: the stacks of the
 * pipelines that keep a stack table (core/stack.h), one message a stack,
 * its frames symbolised here, in process context: function+offset
 * strings, never addresses.  The frames say where kernel code lies, so
 * reading them needs what placing a probe needs (CAP_SYS_ADMIN or
 * CAP_PERFMON), not the readers' CAP_NET_ADMIN or open_reads=.
 */
#include <linux/capability.h>
#include <linux/kallsyms.h>
#include <net/genetlink.h>

#include "pipeline.h"
#include "stack.h"
#include "netlink_common.h"
#include "netlink_stacks.h"

static bool sl_nl_stacks_wanted(struct netlink_callback *cb, unsigned int i)
{
	return (!cb->args[2] || cb->args[2] == i + 1) &&
	       sl_pipelines[i]->priv.stacks;
}

int sl_nl_stacks_start(struct netlink_callback *cb)
{
	if (!netlink_capable(cb->skb, CAP_SYS_ADMIN) &&
	    !netlink_capable(cb->skb, CAP_PERFMON)) {
		NL_SET_ERR_MSG(cb->extack, "needs CAP_SYS_ADMIN or CAP_PERFMON");
		return -EPERM;
	}
	return sl_nl_dump_start(cb);
}

static int sl_nl_put_stack(struct sk_buff *skb, struct sl_pipeline *p,
			   u32 id, const struct sl_stack_info *si)
{
	char frame[KSYM_SYMBOL_LEN];
	struct nlattr *nest;
	unsigned int j;

	if (nla_put_string(skb, STACKLAT_A_PIPELINE_NAME, p->name) ||
	    sl_nl_put_u64(skb, STACKLAT_A_GENERATION, p->priv.generation,
			  STACKLAT_A_PAD))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, STACKLAT_A_STACK);
	if (!nest ||
	    nla_put_u32(skb, STACKLAT_STACK_A_ID, id) ||
	    sl_nl_put_u64(skb, STACKLAT_STACK_A_COUNT, si->count,
			  STACKLAT_STACK_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_STACK_A_SUM, si->sum,
			  STACKLAT_STACK_A_PAD) ||
	    nla_put_u8(skb, STACKLAT_STACK_A_TRUNCATED, si->truncated))
		return -EMSGSIZE;
	for (j = 0; j < si->nr; j++) {
		sl_stack_frame(frame, sizeof(frame), si->ip[j]);
		if (nla_put_string(skb, STACKLAT_STACK_A_FRAME, frame))
			return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * One message a stack; the cursor is (pipeline, id) in args[0..1], ids in
 * table order: a stack seen once keeps its id until a reset (which bumps
 * the sequence: NLM_F_DUMP_INTR).
 */
int sl_nl_dump_stacks(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int i = cb->args[0];
	u32 id = cb->args[1];
	struct sl_stack_info si;
	struct sl_pipeline *p;
	struct sl_stacks *t;
	bool full = false;
	void *hdr;

	mutex_lock(&sl_lock);
	cb->seq = sl_dump_seq;
	for (; i < sl_nr_pipelines; i++, id = 0) {
		if (!sl_nl_stacks_wanted(cb, i))
			continue;
		p = sl_pipelines[i];
		t = p->priv.stacks;
		for (id = id ? id : 1; id <= t->slots; id++) {
			if (!sl_stacks_get(t, id, &si))
				continue;
			hdr = sl_nl_dump_hdr(skb, cb, STACKLAT_CMD_GET_STACKS);
			if (!hdr) {
				full = true;
				break;
			}
			if (sl_nl_put_stack(skb, p, id, &si)) {
				genlmsg_cancel(skb, hdr);
				full = true;
				break;
			}
			genlmsg_end(skb, hdr);
		}
		if (full)
			break;	/* stack @id did not fit: again */
	}
	mutex_unlock(&sl_lock);
	cb->args[0] = i;
	cb->args[1] = id;
	return full ? sl_nl_dump_full(skb, cb) : skb->len;
}
