/* SPDX-License-Identifier: GPL-2.0 */
/* GET_STACKS of the netlink family (netlink_stacks.c). */
#ifndef _STACKLAT_NETLINK_STACKS_H
#define _STACKLAT_NETLINK_STACKS_H

struct sk_buff;
struct netlink_callback;

int sl_nl_stacks_start(struct netlink_callback *cb);
int sl_nl_dump_stacks(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _STACKLAT_NETLINK_STACKS_H */
