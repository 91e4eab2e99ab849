/* SPDX-License-Identifier: GPL-2.0 */
/* What the netlink family's files share (netlink_common.c). */
#ifndef _STACKLAT_NETLINK_COMMON_H
#define _STACKLAT_NETLINK_COMMON_H

#include <net/genetlink.h>

#include "types.h"

extern const struct nla_policy sl_nl_policy[STACKLAT_A_MAX + 1];
extern const struct genl_family *sl_nl_family;

bool sl_nl_may_read(const struct sk_buff *skb, struct netlink_ext_ack *extack);
bool sl_nl_may_write(const struct sk_buff *skb, struct netlink_ext_ack *extack);
int sl_nl_dump_parse(struct netlink_callback *cb, struct nlattr **tb,
		     bool change);
struct sl_pipeline *sl_nl_pipe(struct nlattr **attrs,
			       struct netlink_ext_ack *extack, bool required);
int sl_nl_dump_start(struct netlink_callback *cb);
int sl_nl_dump_full(struct sk_buff *skb, struct netlink_callback *cb);
void *sl_nl_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd);

static inline int sl_nl_put_u64(struct sk_buff *skb, int type, u64 v, int pad)
{
	return nla_put_u64_64bit(skb, type, v, pad);
}

#endif /* _STACKLAT_NETLINK_COMMON_H */
