// SPDX-License-Identifier: GPL-2.0
/*
 * What the files of the "stacklat" generic netlink family share (netlink.c
 * the family and its commands, netlink_keyed.c its GET_KEYED dump): who
 * may read, the attribute policy, the pipeline a request names, and the
 * start, header and end of a dump.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include "pipeline.h"
#include "netlink_common.h"

static bool open_reads;
module_param(open_reads, bool, 0444);
MODULE_PARM_DESC(open_reads,
		 "0 or 1: netlink reads open to any user of the initial network namespace (default 0: CAP_NET_ADMIN or CAP_PERFMON)");

bool sl_nl_may_read(const struct sk_buff *skb,
			   struct netlink_ext_ack *extack)
{
	if (open_reads || netlink_capable(skb, CAP_NET_ADMIN) ||
	    netlink_capable(skb, CAP_PERFMON))
		return true;
	NL_SET_ERR_MSG(extack, "reading needs CAP_NET_ADMIN or CAP_PERFMON");
	return false;
}

bool sl_nl_may_write(const struct sk_buff *skb, struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN) ||
	    netlink_capable(skb, CAP_PERFMON))
		return true;
	NL_SET_ERR_MSG(extack, "needs CAP_SYS_ADMIN or CAP_PERFMON");
	return false;
}

const struct nla_policy sl_nl_policy[STACKLAT_A_MAX + 1] = {
	[STACKLAT_A_PIPELINE_NAME] = { .type = NLA_NUL_STRING,
				       .len = STACKLAT_NAME_MAX - 1 },
	[STACKLAT_A_ENABLE] = NLA_POLICY_MAX(NLA_U8, 1),
	[STACKLAT_A_FILTER] = { .type = NLA_NESTED },
	[STACKLAT_A_FUNC_SYMBOL] = { .type = NLA_NUL_STRING,
				     .len = STACKLAT_SYM_MAX - 1 },
	[STACKLAT_A_THRESHOLD_NS] = { .type = NLA_U64 },
	[STACKLAT_A_STACKS] = NLA_POLICY_MAX(NLA_U8, 1),
	[STACKLAT_A_CGTOTALS] = NLA_POLICY_MAX(NLA_U8, 1),
	[STACKLAT_A_SAMPLE] = { .type = NLA_U32 },
	[STACKLAT_A_SAMPLE_AUTO] = { .type = NLA_U32 },
	[STACKLAT_A_EVENT_COMPACT] = { .type = NLA_FLAG },
};

/* The family (netlink.c), set before it is registered. */
const struct genl_family *sl_nl_family;

struct sl_pipeline *sl_nl_pipe(struct nlattr **attrs,
				      struct netlink_ext_ack *extack,
				      bool required)
{
	struct nlattr *a = attrs[STACKLAT_A_PIPELINE_NAME];
	struct sl_pipeline *p;

	if (!a) {
		if (required)
			NL_SET_ERR_MSG(extack, "pipeline name missing");
		return NULL;
	}
	p = sl_pipeline_find(nla_data(a));
	if (!p)
		sl_compat_err_msg_name(extack, a, "no such pipeline",
				       (const char *)nla_data(a));
	return p;
}

/*
 * The request of a dump, parsed into tb once its sender may read (change
 * false) or make a change (change true: a dump that consumes shared state).
 */
int sl_nl_dump_parse(struct netlink_callback *cb, struct nlattr **tb,
		     bool change)
{
	if (change ? !sl_nl_may_write(cb->skb, cb->extack) :
		     !sl_nl_may_read(cb->skb, cb->extack))
		return -EPERM;
	return nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, STACKLAT_A_MAX,
			   sl_nl_policy, cb->extack);
}

/*
 * Parse the request of a dump: which pipeline (args[2] = index + 1).  An
 * unknown one fails the dump here, before any message, with ENOENT.
 */
int sl_nl_dump_start(struct netlink_callback *cb)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1];
	struct sl_pipeline *p;
	int ret;

	ret = sl_nl_dump_parse(cb, tb, false);
	if (ret)
		return ret;
	cb->args[0] = 0;
	cb->args[1] = 0;
	cb->args[2] = 0;
	if (tb[STACKLAT_A_PIPELINE_NAME]) {
		p = sl_nl_pipe(tb, cb->extack, true);
		if (!p)
			return -ENOENT;
		cb->args[2] = p->priv.id + 1;
	}
	/* a full histogram does not fit in NLMSG_GOODSIZE */
	cb->min_dump_alloc = 16384;
	return 0;
}

/*
 * What a dump callback returns once the skb is full: its length, or, when
 * not even the first item fitted, an error - the item would never fit, and
 * an empty skb would end the dump as if it were complete.
 */
int sl_nl_dump_full(struct sk_buff *skb, struct netlink_callback *cb)
{
	if (skb->len)
		return skb->len;
	NL_SET_ERR_MSG(cb->extack, "item too large for a dump message");
	return -EMSGSIZE;
}

/* The header of one message of a dump, stamped for NLM_F_DUMP_INTR. */
void *sl_nl_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd)
{
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, sl_nl_family,
				NLM_F_MULTI, cmd);

	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}
