/* SPDX-License-Identifier: GPL-2.0 */
/* GET_KEYED of the netlink family (netlink_keyed.c). */
#ifndef _STACKLAT_NETLINK_KEYED_H
#define _STACKLAT_NETLINK_KEYED_H

struct sk_buff;
struct netlink_callback;

int sl_nl_keyed_start(struct netlink_callback *cb);
int sl_nl_dump_keyed(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _STACKLAT_NETLINK_KEYED_H */
