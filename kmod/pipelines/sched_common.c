// SPDX-License-Identifier: GPL-2.0
/*
 * What the scheduler pipelines (sched.c, cpu.c) share: their rows'
 * folding, reading and aging.  See sched.h.
 */
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <net/netlink.h>

#include "sched.h"

/* ---- folding and reading (process context) ---------------------------- */

static void sl_tr_merge(u64 *dst, const u64 *src, unsigned int nvals,
			bool fresh)
{
	unsigned int i;

	for (i = 0; i < SL_TR_COMM; i++)
		if (i != SL_TR_MAX)
			dst[i] += src[i];
	dst[SL_TR_MAX] = max(dst[SL_TR_MAX], src[SL_TR_MAX]);
	/* the newest names (a thread renamed, a process that ran exec) */
	if (src[SL_TR_COMM])
		memcpy(&dst[SL_TR_COMM], &src[SL_TR_COMM], 32);
	sl_keyed_merge_hist(&dst[SL_TR_HIST], &src[SL_TR_HIST]);
}

static const struct sl_keyed_ops sl_tr_keyed_ops = {
	.merge = sl_tr_merge,
	.alive = sl_keyed_tgid_alive,
};

#define SL_TR_FOLD_MS	1000

int sl_tr_on_enable(struct sl_pipeline *p)
{
	return sl_pipeline_keyed_enable(p, SL_TR_NVALS, &sl_tr_keyed_ops,
					SL_TR_FOLD_MS);
}

void sl_tr_show(struct seq_file *m, u64 key, const u64 *v,
		const struct sl_tr_view *view)
{
	char tot[16], avg[16], mx[16], us[16], sy[16], comm[16], pcomm[16];

	if (!v) {
		seq_printf(m, "%8s %8s %-15s %-15s %10s %10s %9s ",
			   "tgid", "tid", "process", "thread", view->count,
			   "preempted", view->total);
		if (view->times)
			seq_printf(m, "%9s %9s ", "user_tick", "sys_tick");
		seq_printf(m, "%9s %9s  | %s from:count...\n", "avg", "max",
			   view->hist);
		return;
	}
	sl_keyed_show_comm(comm, &v[SL_TR_COMM]);
	sl_keyed_show_comm(pcomm, &v[SL_TR_PCOMM]);
	sl_fmt_ns(tot, sizeof(tot), v[SL_TR_TIME]);
	sl_fmt_ns(avg, sizeof(avg),
		  v[SL_TR_COUNT] ? div64_u64(v[SL_TR_TIME], v[SL_TR_COUNT]) : 0);
	sl_fmt_ns(mx, sizeof(mx), v[SL_TR_MAX]);
	seq_printf(m, "%8u %8u %-15s %-15s %10llu %10llu %9s ",
		   sl_keyed_group(key), (u32)key, pcomm, comm, v[SL_TR_COUNT],
		   v[SL_TR_PREEMPTED], tot);
	if (view->times) {
		sl_fmt_ns(us, sizeof(us), v[SL_TR_USER]);
		sl_fmt_ns(sy, sizeof(sy), v[SL_TR_SYS]);
		seq_printf(m, "%9s %9s ", us, sy);
	}
	seq_printf(m, "%9s %9s  |", avg, mx);
	sl_keyed_show_hist(m, &v[SL_TR_HIST]);
}

static int sl_tr_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, STACKLAT_SD_A_PAD);
}

/* One row for GET_KEYED (inside its STACKLAT_A_KEYED nest). */
int sl_tr_put(struct sk_buff *skb, u64 key, const u64 *v, bool times)
{
	char comm[16], pcomm[16];

	memcpy(comm, &v[SL_TR_COMM], sizeof(comm));
	comm[15] = '\0';
	memcpy(pcomm, &v[SL_TR_PCOMM], sizeof(pcomm));
	pcomm[15] = '\0';
	if (nla_put_u32(skb, STACKLAT_SD_A_TGID, sl_keyed_group(key)) ||
	    nla_put_u32(skb, STACKLAT_SD_A_TID, (u32)key) ||
	    nla_put_string(skb, STACKLAT_SD_A_COMM, pcomm) ||
	    nla_put_string(skb, STACKLAT_SD_A_THREAD_COMM, comm) ||
	    sl_tr_put_u64(skb, STACKLAT_SD_A_COUNT, v[SL_TR_COUNT]) ||
	    sl_tr_put_u64(skb, STACKLAT_SD_A_TIME_NS, v[SL_TR_TIME]) ||
	    sl_tr_put_u64(skb, STACKLAT_SD_A_MAX_NS, v[SL_TR_MAX]) ||
	    sl_tr_put_u64(skb, STACKLAT_SD_A_PREEMPTED, v[SL_TR_PREEMPTED]))
		return -EMSGSIZE;
	if (times &&
	    (sl_tr_put_u64(skb, STACKLAT_SD_A_USER_TICK_NS, v[SL_TR_USER]) ||
	     sl_tr_put_u64(skb, STACKLAT_SD_A_SYS_TICK_NS, v[SL_TR_SYS])))
		return -EMSGSIZE;
	return sl_keyed_put_hist(skb, STACKLAT_SD_A_HIST_FIRST,
				 STACKLAT_SD_A_HIST, &v[SL_TR_HIST],
				 STACKLAT_SC_NBUCKETS);
}
