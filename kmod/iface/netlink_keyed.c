// SPDX-License-Identifier: GPL-2.0
/*
 * GET_KEYED of the "stacklat" generic netlink family: the rows of the
 * pipelines that keep a keyed aggregation (keyed.h), one message a row.
 */
#include <linux/slab.h>
#include <net/genetlink.h>

#include "pipeline.h"
#include "keyed.h"
#include "clock.h"
#include "netlink_common.h"
#include "netlink_keyed.h"

static bool sl_nl_keyed_wanted(struct netlink_callback *cb, unsigned int i)
{
	const struct sl_pipeline *p = sl_pipelines[i];

	return (!cb->args[2] || cb->args[2] == i + 1) && p->priv.keyed &&
	       p->keyed_put;
}

/*
 * The request (a pipeline, or all that keep keyed rows), then a fold of
 * each table wanted: the dump is complete up to its start.
 */
int sl_nl_keyed_start(struct netlink_callback *cb)
{
	struct sl_pipeline *p;
	unsigned int i;
	int ret;

	ret = sl_nl_dump_start(cb);
	if (ret)
		return ret;
	if (cb->args[2] && !sl_pipelines[cb->args[2] - 1]->keyed_put) {
		NL_SET_ERR_MSG(cb->extack, "this pipeline keeps no keyed rows");
		return -EOPNOTSUPP;
	}
	mutex_lock(&sl_lock);
	for (i = 0; i < sl_nr_pipelines; i++) {
		p = sl_pipelines[i];
		if (sl_nl_keyed_wanted(cb, i))
			sl_keyed_fold(p->priv.keyed, sl_now());
	}
	mutex_unlock(&sl_lock);
	return 0;
}

/* What the rows read depend on: changes whenever a row moves or goes. */
static u32 sl_nl_keyed_seq(void)
{
	u32 seq = sl_dump_seq;
	unsigned int i;

	for (i = 0; i < sl_nr_pipelines; i++) {
		struct sl_keyed *t = sl_pipelines[i]->priv.keyed;

		if (!t)
			continue;
		sl_keyed_lock(t);
		seq += (u32)sl_keyed_gen(t);
		sl_keyed_unlock(t);
	}
	return seq;
}

static int sl_nl_put_keyed_row(struct sk_buff *skb, struct sl_pipeline *p,
			       u64 key, const u64 *v)
{
	struct nlattr *nest;

	if (nla_put_string(skb, STACKLAT_A_PIPELINE_NAME, p->name) ||
	    sl_nl_put_u64(skb, STACKLAT_A_GENERATION, p->priv.generation,
			  STACKLAT_A_PAD))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, STACKLAT_A_KEYED);
	if (!nest || p->keyed_put(skb, key, v))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* One message per row; the cursor is (pipeline, row) in args[0..1]. */
int sl_nl_dump_keyed(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int i = cb->args[0], pos = cb->args[1], prev;
	struct sl_pipeline *p;
	bool full = false;
	u64 key, *v;
	void *hdr;

	v = kmalloc_array(SL_KEYED_MAX_VALS, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	mutex_lock(&sl_lock);
	cb->seq = sl_nl_keyed_seq();
	for (; i < sl_nr_pipelines; i++, pos = 0) {
		if (!sl_nl_keyed_wanted(cb, i))
			continue;
		p = sl_pipelines[i];
		sl_keyed_lock(p->priv.keyed);
		for (prev = pos; sl_keyed_next(p->priv.keyed, &pos, &key, v);
		     prev = pos) {
			hdr = sl_nl_dump_hdr(skb, cb, STACKLAT_CMD_GET_KEYED);
			if (!hdr) {
				full = true;
				break;
			}
			if (sl_nl_put_keyed_row(skb, p, key, v)) {
				genlmsg_cancel(skb, hdr);
				full = true;
				break;
			}
			genlmsg_end(skb, hdr);
		}
		sl_keyed_unlock(p->priv.keyed);
		if (full) {
			pos = prev;	/* the row that did not fit: again */
			break;
		}
	}
	mutex_unlock(&sl_lock);
	kfree(v);
	cb->args[0] = i;
	cb->args[1] = pos;
	return full ? sl_nl_dump_full(skb, cb) : skb->len;
}
