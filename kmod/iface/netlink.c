// SPDX-License-Identifier: GPL-2.0
/*
 * The "stacklat" generic netlink family.  Who may do what
 * (docs/privileges.md), all in the initial user namespace and checked on
 * both the socket's opener and the sender (netlink_capable()):
 *
 *   - anything that changes state or places a probe (set, reset, func
 *     add/del): CAP_SYS_ADMIN or CAP_PERFMON, as perf asks for probes;
 *   - reads (status, pipelines, histograms): CAP_NET_ADMIN or CAP_PERFMON,
 *     or anyone when the module parameter open_reads=1.
 *
 * The family exists only in the initial network namespace (netnsok is
 * false): what it shows is host-wide (every namespace's packets, interface
 * names), so a process in another network namespace does not see it.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <net/genetlink.h>

#include "pipeline.h"
#include "sample.h"
#include "hook.h"
#include "chain.h"
#include "events.h"
#include "cgdim.h"
#include "filter.h"
#include "keyed.h"
#include "clock.h"
#include "fmt.h"
#include "stacklat_event.h"
#include "iface.h"
#include "netlink_common.h"
#include "netlink_keyed.h"
#include "netlink_stacks.h"

static struct genl_family sl_genl_family;

/*
 * GET_STATUS carries every CPU's overruns in one attribute only up to this
 * many CPUs (2 KiB).  At 8 bytes a CPU they outgrow its one message (6.1:
 * some 950 CPUs in its 8 KiB reply, EMSGSIZE with 1024) and, from 8192, an
 * attribute; GET_CPU_STATUS gives them in parts, for any number.
 */
#define SL_NL_STATUS_CPUS	256
/* CPUs in one message of GET_CPU_STATUS */
#define SL_NL_CPUS_PER_MSG	256

/* Overruns of CPUs @first .. @first + @n - 1, a u64 each (0: not possible). */
static int sl_nl_put_overruns(struct sk_buff *msg, unsigned int first,
			      unsigned int n)
{
	struct nlattr *a = nla_reserve(msg, STACKLAT_EVENTS_A_OVERRUNS,
				       sizeof(u64) * n);
	unsigned int i;
	u64 *v;

	if (!a)
		return -EMSGSIZE;
	v = nla_data(a);
	for (i = 0; i < n; i++)
		v[i] = cpu_possible(first + i) ? sl_events_overruns(first + i) : 0;
	return 0;
}

/* The event rings: size, written, read, and the CPUs' overruns if few. */
static int sl_nl_put_events_stats(struct sk_buff *msg)
{
	struct sl_events_stats st;
	struct nlattr *nest;

	sl_events_stats(&st);
	nest = nla_nest_start(msg, STACKLAT_A_EVENTS);
	if (!nest ||
	    nla_put_u32(msg, STACKLAT_EVENTS_A_RING, st.ring) ||
	    nla_put_u64_64bit(msg, STACKLAT_EVENTS_A_WRITTEN, st.written,
			      STACKLAT_EVENTS_A_PAD) ||
	    nla_put_u64_64bit(msg, STACKLAT_EVENTS_A_READ, st.read,
			      STACKLAT_EVENTS_A_PAD) ||
	    nla_put_u32(msg, STACKLAT_EVENTS_A_CPUS, nr_cpu_ids) ||
	    nla_put_u32(msg, STACKLAT_EVENTS_A_RINGS, st.rings) ||
	    nla_put_u64_64bit(msg, STACKLAT_EVENTS_A_BYTES, st.bytes,
			      STACKLAT_EVENTS_A_PAD) ||
	    nla_put_u32(msg, STACKLAT_EVENTS_A_RING_START, st.ring_start) ||
	    nla_put_u32(msg, STACKLAT_EVENTS_A_RING_NOW, st.ring_now))
		return -EMSGSIZE;
	if (nr_cpu_ids <= SL_NL_STATUS_CPUS &&
	    sl_nl_put_overruns(msg, 0, nr_cpu_ids))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int sl_nl_get_status(struct sk_buff *skb, struct genl_info *info)
{
	struct sl_flight_stats fs;
	struct sk_buff *msg;
	struct nlattr *nest;
	void *hdr;

	if (!sl_nl_may_read(skb, info->extack))
		return -EPERM;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &sl_genl_family, 0,
				STACKLAT_CMD_GET_STATUS);
	if (!hdr)
		goto nospace;
	sl_flight_stats(sl_ft, &fs);
	if (nla_put_string(msg, STACKLAT_A_MODULE_VERSION, SL_VERSION) ||
	    nla_put_string(msg, STACKLAT_A_KERNEL_RELEASE,
			   init_utsname()->release) ||
	    nla_put_string(msg, STACKLAT_A_CLOCK, SL_CLOCK_NAME) ||
	    nla_put_u32(msg, STACKLAT_A_NR_PIPELINES, sl_nr_pipelines))
		goto nospace;
	nest = nla_nest_start(msg, STACKLAT_A_FLIGHT);
	if (!nest ||
	    nla_put_u32(msg, STACKLAT_FLIGHT_A_SIZE, fs.size) ||
	    nla_put_u32(msg, STACKLAT_FLIGHT_A_USED, fs.used) ||
	    nla_put_u64_64bit(msg, STACKLAT_FLIGHT_A_MAX_AGE_NS, fs.max_age_ns,
			      STACKLAT_FLIGHT_A_PAD) ||
	    nla_put_u64_64bit(msg, STACKLAT_FLIGHT_A_INSERTS, fs.inserts,
			      STACKLAT_FLIGHT_A_PAD) ||
	    nla_put_u64_64bit(msg, STACKLAT_FLIGHT_A_FULL, fs.full,
			      STACKLAT_FLIGHT_A_PAD) ||
	    nla_put_u64_64bit(msg, STACKLAT_FLIGHT_A_STALE, fs.stale,
			      STACKLAT_FLIGHT_A_PAD))
		goto nospace;
	nla_nest_end(msg, nest);
	if (sl_nl_put_events_stats(msg))
		goto nospace;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int sl_nl_put_hook(struct sk_buff *skb, struct sl_hook *hk)
{
	struct nlattr *nest = nla_nest_start(skb, STACKLAT_PIPE_A_HOOK);

	if (!nest ||
	    nla_put_string(skb, STACKLAT_HOOK_A_NAME, hk->name) ||
	    nla_put_u32(skb, STACKLAT_HOOK_A_STATE, hk->priv.state) ||
	    nla_put_u32(skb, STACKLAT_HOOK_A_KIND, sl_hook_kind(hk)) ||
	    nla_put_string(skb, STACKLAT_HOOK_A_TARGET, sl_hook_target(hk)) ||
	    nla_put_u32(skb, STACKLAT_HOOK_A_ERROR, hk->priv.err) ||
	    sl_nl_put_u64(skb, STACKLAT_HOOK_A_HITS, sl_hook_hits(hk),
			  STACKLAT_HOOK_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_HOOK_A_NMISSED, sl_hook_nmissed(hk),
			  STACKLAT_HOOK_A_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int sl_nl_put_filter(struct sk_buff *skb, const struct sl_filter *f)
{
	struct nlattr *nest = nla_nest_start(skb, STACKLAT_PIPE_A_FILTER);

	if (!nest ||
	    (f->tgid && nla_put_u32(skb, STACKLAT_FILTER_A_TGID, f->tgid)) ||
	    (f->tid && nla_put_u32(skb, STACKLAT_FILTER_A_TID, f->tid)) ||
	    (f->lport && nla_put_u16(skb, STACKLAT_FILTER_A_LPORT, f->lport)) ||
	    (f->rport && nla_put_u16(skb, STACKLAT_FILTER_A_RPORT, f->rport)) ||
	    (f->proto && nla_put_u8(skb, STACKLAT_FILTER_A_PROTO, f->proto)) ||
	    (f->ifindex &&
	     nla_put_u32(skb, STACKLAT_FILTER_A_IFINDEX, f->ifindex)) ||
	    (f->dev && nla_put_u32(skb, STACKLAT_FILTER_A_DEV, f->dev)) ||
	    (f->op && nla_put_u32(skb, STACKLAT_FILTER_A_OP, f->op)) ||
	    (f->fs && nla_put_u32(skb, STACKLAT_FILTER_A_FS, f->fs)) ||
	    (f->cgroup && nla_put_u64_64bit(skb, STACKLAT_FILTER_A_CGROUP,
					    f->cgroup, STACKLAT_PIPE_A_PAD)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static const int sl_loss_attr[SL_LOSS_NR] = {
	[SL_LOSS_TABLE_FULL] = STACKLAT_LOSS_A_TABLE_FULL,
	[SL_LOSS_STALE] = STACKLAT_LOSS_A_STALE,
	[SL_LOSS_BAD_DELTA] = STACKLAT_LOSS_A_BAD_DELTA,
	[SL_LOSS_UNMATCHED] = STACKLAT_LOSS_A_UNMATCHED,
	[SL_LOSS_FILTERED] = STACKLAT_LOSS_A_FILTERED,
	[SL_LOSS_DROPPED] = STACKLAT_LOSS_A_DROPPED,
	[SL_LOSS_BUSY] = STACKLAT_LOSS_A_BUSY,
	[SL_LOSS_ORPHANED] = STACKLAT_LOSS_A_ORPHANED,
	[SL_LOSS_STACK_FULL] = STACKLAT_LOSS_A_STACK_FULL,
	[SL_LOSS_STACK_TRUNC] = STACKLAT_LOSS_A_STACK_TRUNC,
	[SL_LOSS_STACK_BUSY] = STACKLAT_LOSS_A_STACK_BUSY,
	[SL_LOSS_SUPPRESSED] = STACKLAT_LOSS_A_SUPPRESSED,
	[SL_LOSS_NOBUF] = STACKLAT_LOSS_A_NOBUF,
};

/* A keyed table's own counters (STACKLAT_PIPE_A_KEYED). */
static int sl_nl_put_keyed_stats(struct sk_buff *skb, struct sl_keyed *t)
{
	struct sl_keyed_stats st;
	struct nlattr *nest;

	sl_keyed_stats(t, &st);
	nest = nla_nest_start(skb, STACKLAT_PIPE_A_KEYED);
	if (!nest ||
	    nla_put_u32(skb, STACKLAT_KEYED_A_ROWS, st.rows) ||
	    nla_put_u32(skb, STACKLAT_KEYED_A_MAX_ROWS, st.max_rows) ||
	    nla_put_u32(skb, STACKLAT_KEYED_A_CPU_ROWS, st.cpu_rows) ||
	    nla_put_u32(skb, STACKLAT_KEYED_A_CPU_ROWS_NOW, st.cpu_rows_now) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_GROWS, st.grows,
			  STACKLAT_KEYED_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_SPILLED, st.spilled,
			  STACKLAT_KEYED_A_PAD) ||
	    nla_put_u32(skb, STACKLAT_KEYED_A_SPILL_ROWS,
			st.spill_rows_now) ||
	    nla_put_u32(skb, STACKLAT_KEYED_A_CPUS, st.cpus) ||
	    nla_put_u32(skb, STACKLAT_KEYED_A_ROW_BYTES, st.row_bytes) ||
	    nla_put_u32(skb, STACKLAT_KEYED_A_ROW_BYTES_CPU, st.row_bytes_cpu) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_BYTES, st.bytes,
			  STACKLAT_KEYED_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_LINGER_NS, st.linger_ns,
			  STACKLAT_KEYED_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_FOLDS, st.folds,
			  STACKLAT_KEYED_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_FULL, st.full,
			  STACKLAT_KEYED_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_BUSY, st.busy,
			  STACKLAT_KEYED_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_DROPPED, st.dropped,
			  STACKLAT_KEYED_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_DROPPED_ROWS, st.dropped_rows,
			  STACKLAT_KEYED_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_AGED, st.aged,
			  STACKLAT_KEYED_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_AGED_ROWS, st.aged_rows,
			  STACKLAT_KEYED_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_KEYED_A_RETIRE_LOST, st.retire_lost,
			  STACKLAT_KEYED_A_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* A pipeline that can sample: its rate, the objects seen and followed. */
static int sl_nl_put_sample(struct sk_buff *skb, const struct sl_pipeline *p)
{
	struct sl_sample_info si;

	sl_sample_get(p, &si);
	return nla_put_u32(skb, STACKLAT_PIPE_A_SAMPLE, si.n) ||
	       sl_nl_put_u64(skb, STACKLAT_PIPE_A_SAMPLE_SEEN, si.seen,
			     STACKLAT_PIPE_A_PAD) ||
	       sl_nl_put_u64(skb, STACKLAT_PIPE_A_SAMPLE_FOLLOWED, si.followed,
			     STACKLAT_PIPE_A_PAD) ||
	       nla_put_u32(skb, STACKLAT_PIPE_A_SAMPLE_AUTO, si.budget) ||
	       sl_nl_put_u64(skb, STACKLAT_PIPE_A_SAMPLE_PEAK, si.peak,
			     STACKLAT_PIPE_A_PAD);
}

static int sl_nl_put_pipe(struct sk_buff *skb, struct sl_pipeline *p)
{
	struct nlattr *pipe, *list, *nest;
	struct sl_losses loss;
	u64 nmissed = 0, fpm;
	unsigned int i, nfp;

	if (p->refresh)
		p->refresh(p);
	pipe = nla_nest_start(skb, STACKLAT_A_PIPELINE);
	if (!pipe ||
	    nla_put_string(skb, STACKLAT_PIPE_A_NAME, p->name) ||
	    nla_put_string(skb, STACKLAT_PIPE_A_DESC, p->desc) ||
	    nla_put_u32(skb, STACKLAT_PIPE_A_KEY, p->key) ||
	    nla_put_u8(skb, STACKLAT_PIPE_A_ENABLED, p->priv.enabled) ||
	    sl_nl_put_u64(skb, STACKLAT_PIPE_A_GENERATION, p->priv.generation,
			  STACKLAT_PIPE_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_PIPE_A_THRESHOLD_NS,
			  READ_ONCE(p->priv.ev_thresh), STACKLAT_PIPE_A_PAD) ||
	    nla_put_u8(skb, STACKLAT_PIPE_A_EVENTS, sl_events_possible(p)) ||
	    sl_nl_put_u64(skb, STACKLAT_PIPE_A_MEM, sl_pipeline_mem_all(p),
			  STACKLAT_PIPE_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_PIPE_A_MEM_CPU, sl_pipeline_mem_cpu(p),
			  STACKLAT_PIPE_A_PAD))
		return -EMSGSIZE;
	if (sl_fprobe_stats(p, &nfp, &fpm) &&
	    sl_nl_put_u64(skb, STACKLAT_PIPE_A_FPROBE_NMISSED, fpm,
			  STACKLAT_PIPE_A_PAD))
		return -EMSGSIZE;
	if (p->sampling && sl_nl_put_sample(skb, p))
		return -EMSGSIZE;
	if (p->priv.cg &&
	    nla_put_u8(skb, STACKLAT_PIPE_A_CGTOTALS, !!READ_ONCE(p->priv.cg_live)))
		return -EMSGSIZE;
	list = nla_nest_start(skb, STACKLAT_PIPE_A_STAGES);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i < sl_stage_end(p); i++) {
		const struct sl_stage *s = sl_stage_at(p, i);

		if (!s || !s->name[0])
			continue;
		nest = nla_nest_start(skb, STACKLAT_PIPE_A_STAGE);
		if (!nest ||
		    nla_put_u32(skb, STACKLAT_STAGE_A_INDEX, i) ||
		    nla_put_string(skb, STACKLAT_STAGE_A_NAME, s->name) ||
		    nla_put_string(skb, STACKLAT_STAGE_A_FROM, s->from) ||
		    nla_put_string(skb, STACKLAT_STAGE_A_TO, s->to) ||
		    nla_put_u32(skb, STACKLAT_STAGE_A_UNIT, s->unit))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	nla_nest_end(skb, list);
	list = nla_nest_start(skb, STACKLAT_PIPE_A_HOOKS);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i < p->nhooks; i++) {
		if (!p->hooks[i].ncands)
			continue;
		if (sl_nl_put_hook(skb, &p->hooks[i]))
			return -EMSGSIZE;
		nmissed += sl_hook_nmissed(&p->hooks[i]);
	}
	nla_nest_end(skb, list);
	sl_pipeline_losses(p, &loss);
	nest = nla_nest_start(skb, STACKLAT_PIPE_A_LOSS);
	if (!nest || sl_nl_put_u64(skb, STACKLAT_LOSS_A_NMISSED, nmissed,
				   STACKLAT_LOSS_A_PAD))
		return -EMSGSIZE;
	for (i = 0; i < SL_LOSS_NR; i++)
		if (sl_nl_put_u64(skb, sl_loss_attr[i], loss.v[i],
				  STACKLAT_LOSS_A_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	if (sl_nl_put_filter(skb, &p->priv.filter))
		return -EMSGSIZE;
	if (p->priv.keyed && sl_nl_put_keyed_stats(skb, p->priv.keyed))
		return -EMSGSIZE;
	nla_nest_end(skb, pipe);
	return 0;
}

static int sl_nl_dump_pipelines(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int i = cb->args[0];
	void *hdr;

	mutex_lock(&sl_lock);
	cb->seq = sl_dump_seq;
	for (; i < sl_nr_pipelines; i++) {
		if (cb->args[2] && cb->args[2] != i + 1)
			continue;
		hdr = sl_nl_dump_hdr(skb, cb, STACKLAT_CMD_GET_PIPELINES);
		if (!hdr)
			break;
		if (sl_nl_put_pipe(skb, sl_pipelines[i])) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&sl_lock);
	cb->args[0] = i;
	return i < sl_nr_pipelines ? sl_nl_dump_full(skb, cb) : skb->len;
}

static int sl_nl_put_hist(struct sk_buff *skb, const struct sl_hist_sum *s)
{
	struct nlattr *nest = nla_nest_start(skb, STACKLAT_A_HIST);
	u32 first = 0, last = 0, i;

	for (i = 0; i < STACKLAT_HIST_NBUCKETS; i++) {
		if (!s->buckets[i])
			continue;
		if (!last && !s->buckets[first])
			first = i;
		last = i + 1;
	}
	if (!nest ||
	    sl_nl_put_u64(skb, STACKLAT_HIST_A_COUNT, s->count,
			  STACKLAT_HIST_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_HIST_A_SUM, s->sum,
			  STACKLAT_HIST_A_PAD) ||
	    sl_nl_put_u64(skb, STACKLAT_HIST_A_OVERFLOW, s->overflow,
			  STACKLAT_HIST_A_PAD) ||
	    nla_put_u32(skb, STACKLAT_HIST_A_NBUCKETS, STACKLAT_HIST_NBUCKETS) ||
	    nla_put_u32(skb, STACKLAT_HIST_A_FIRST, first))
		return -EMSGSIZE;
	if (s->count &&
	    (sl_nl_put_u64(skb, STACKLAT_HIST_A_MIN, s->min,
			   STACKLAT_HIST_A_PAD) ||
	     sl_nl_put_u64(skb, STACKLAT_HIST_A_MAX_VALUE, s->max,
			   STACKLAT_HIST_A_PAD)))
		return -EMSGSIZE;
	if (last > first &&
	    nla_put(skb, STACKLAT_HIST_A_BUCKETS, (last - first) * sizeof(u64),
		    &s->buckets[first]))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* One message per stage; the cursor is (pipeline, stage) in args[0..1]. */
static int sl_nl_dump_hist(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int i = cb->args[0], j = cb->args[1], k;
	struct sl_hist_sum *s;
	bool full = false;
	void *hdr;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	mutex_lock(&sl_lock);
	/* removed cgroups' slots go first: a release moves sl_dump_seq on */
	for (k = 0; k < sl_nr_pipelines; k++)
		sl_cgdim_sweep(sl_pipelines[k]);
	cb->seq = sl_dump_seq;
	for (; i < sl_nr_pipelines && !full; i++, j = 0) {
		struct sl_pipeline *p = sl_pipelines[i];

		if (cb->args[2] && cb->args[2] != i + 1)
			continue;
		if (p->refresh)
			p->refresh(p);
		for (; j < sl_stage_end(p); j++) {
			const struct sl_stage *st = sl_stage_at(p, j);

			if (!st || !st->name[0])
				continue;
			sl_hist_read(&p->priv.hists[j], s);
			hdr = sl_nl_dump_hdr(skb, cb, STACKLAT_CMD_GET_HIST);
			if (!hdr) {
				full = true;
				break;
			}
			if (nla_put_string(skb, STACKLAT_A_PIPELINE_NAME,
					   p->name) ||
			    sl_nl_put_u64(skb, STACKLAT_A_GENERATION,
					  p->priv.generation, STACKLAT_A_PAD) ||
			    nla_put_u32(skb, STACKLAT_A_STAGE_INDEX, j) ||
			    nla_put_string(skb, STACKLAT_A_STAGE_NAME,
					   st->name) ||
			    nla_put_u32(skb, STACKLAT_A_STAGE_UNIT, st->unit) ||
			    sl_nl_put_hist(skb, s)) {
				genlmsg_cancel(skb, hdr);
				full = true;
				break;
			}
			genlmsg_end(skb, hdr);
		}
		if (full)
			break;
	}
	mutex_unlock(&sl_lock);
	kfree(s);
	cb->args[0] = i;
	cb->args[1] = j;
	return full ? sl_nl_dump_full(skb, cb) : skb->len;
}

/*
 * Everything is checked before anything is applied: a bad filter or
 * threshold changes nothing.  Then the threshold (checked, then its rings
 * allocated, which may fail: nothing is applied yet), the filter, the
 * stacks (their table made, which may fail with those applied) and the
 * enable, which may fail with the others applied (no hook point armed).
 */
static int sl_nl_set_pipeline(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *thresh = info->attrs[STACKLAT_A_THRESHOLD_NS];
	struct nlattr *filter = info->attrs[STACKLAT_A_FILTER];
	struct nlattr *enable = info->attrs[STACKLAT_A_ENABLE];
	struct nlattr *stacks = info->attrs[STACKLAT_A_STACKS];
	struct nlattr *sample = info->attrs[STACKLAT_A_SAMPLE];
	struct nlattr *sauto = info->attrs[STACKLAT_A_SAMPLE_AUTO];
	struct nlattr *cgt = info->attrs[STACKLAT_A_CGTOTALS];
	u32 sn = sample ? nla_get_u32(sample) : 0;
	u32 sbudget = sauto ? nla_get_u32(sauto) : 0;
	struct sl_pipeline *p;
	struct sl_filter f;
	int ret = 0;

	if (!sl_nl_may_write(skb, info->extack))
		return -EPERM;
	mutex_lock(&sl_lock);
	p = sl_nl_pipe(info->attrs, info->extack, true);
	if (!p) {
		ret = -ENOENT;
		goto out;
	}
	if (!enable && !filter && !thresh && !stacks && !sample && !sauto &&
	    !cgt) {
		NL_SET_ERR_MSG(info->extack, "nothing to set");
		ret = -EINVAL;
		goto out;
	}
	if (filter) {
		ret = sl_filter_from_nla(p, filter, &f, info->extack);
		if (ret)
			goto out;
	}
	if (stacks) {
		ret = sl_pipeline_stacks_check(p, info->extack);
		if (ret)
			goto out;
	}
	if (sample && sauto) {
		NL_SET_ERR_MSG(info->extack, "a fixed sample rate or auto, not both");
		ret = -EINVAL;
		goto out;
	}
	if (sauto && !sbudget) {
		NL_SET_ERR_MSG(info->extack, "sample auto: OBJECTS is 1..100000000");
		ret = -ERANGE;
		goto out;
	}
	if (sample || sauto) {
		ret = sl_sample_check(p, sn, sbudget, info->extack);
		if (ret)
			goto out;
	}
	if (cgt) {
		ret = sl_cgdim_check(p, info->extack);
		if (ret)
			goto out;
	}
	/* checked before it is set, and the first change */
	if (thresh) {
		ret = sl_pipeline_set_threshold(p, nla_get_u64(thresh),
						info->extack);
		if (ret)
			goto out;
	}
	if (filter)
		sl_pipeline_set_filter(p, &f);
	/* checked above: may fail only to allocate auto's state (ENOMEM) */
	if (sample || sauto) {
		ret = sl_pipeline_set_sample(p, sn, sbudget, info->extack);
		if (ret)
			goto out;
	}
	/* checked above: may fail only to make the table (ENOMEM) */
	if (stacks) {
		ret = sl_pipeline_stacks_set(p, nla_get_u8(stacks), info->extack);
		if (ret)
			goto out;
	}
	/* checked above: cannot fail */
	if (cgt)
		sl_cgdim_set(p, nla_get_u8(cgt), info->extack);
	if (enable) {
		ret = sl_pipeline_enable(p, nla_get_u8(enable));
		if (ret)
			NL_SET_ERR_MSG(info->extack,
				       "no hook point of this pipeline could be armed");
	}
out:
	mutex_unlock(&sl_lock);
	return ret;
}

static int sl_nl_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct sl_pipeline *p;
	unsigned int i;
	int ret = 0;

	if (!sl_nl_may_write(skb, info->extack))
		return -EPERM;
	mutex_lock(&sl_lock);
	if (info->attrs[STACKLAT_A_PIPELINE_NAME]) {
		p = sl_nl_pipe(info->attrs, info->extack, true);
		if (p)
			sl_pipeline_reset(p);
		else
			ret = -ENOENT;
	} else {
		for (i = 0; i < sl_nr_pipelines; i++)
			sl_pipeline_reset(sl_pipelines[i]);
	}
	mutex_unlock(&sl_lock);
	return ret;
}

static int sl_nl_func(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *a = info->attrs[STACKLAT_A_FUNC_SYMBOL];
	int ret;

	if (!sl_nl_may_write(skb, info->extack))
		return -EPERM;
	if (!a) {
		NL_SET_ERR_MSG(info->extack, "function symbol missing");
		return -EINVAL;
	}
	mutex_lock(&sl_lock);
	/* another pipeline's points: "stacks" (issue 28) */
	if (info->attrs[STACKLAT_A_PIPELINE_NAME])
		ret = sl_pipeline_point(sl_nl_pipe(info->attrs, info->extack,
						   true),
					info->genlhdr->cmd ==
					STACKLAT_CMD_FUNC_ADD,
					nla_data(a), info->extack);
	else
		ret = sl_pipeline_point(sl_pipeline_find("func"),
				info->genlhdr->cmd == STACKLAT_CMD_FUNC_ADD,
				nla_data(a), info->extack);
	mutex_unlock(&sl_lock);
	return ret;
}

/* ---- GET_INFLIGHT ------------------------------------------------------ */

static int sl_nl_put_inflight(struct sk_buff *skb, struct sl_pipeline *p,
			      const struct sl_flight_ent *e, u64 ident, u64 now,
			      char *desc)
{
	struct nlattr *nest, *pn;
	char name[16];
	unsigned int pt;

	if (nla_put_string(skb, STACKLAT_A_PIPELINE_NAME, p->name))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, STACKLAT_A_INFLIGHT);
	if (!nest)
		return -EMSGSIZE;
	if (sl_nl_put_u64(skb, STACKLAT_INFLIGHT_A_AGE_NS,
			  (s64)(now - e->born) > 0 ? now - e->born : 0,
			  STACKLAT_INFLIGHT_A_PAD))
		return -EMSGSIZE;
	/* a small ident is a thread id; a pointer is never sent */
	if (!(ident >> 56) &&
	    nla_put_u32(skb, STACKLAT_INFLIGHT_A_TID, (u32)ident))
		return -EMSGSIZE;
	if (p->flight_fmt) {
		p->flight_fmt(p, e, now, desc, 512);
		if (nla_put_string(skb, STACKLAT_INFLIGHT_A_DESC, strim(desc)))
			return -EMSGSIZE;
	}
	for (pt = 0; pt < SL_FLIGHT_NTS; pt++) {
		const char *n = sl_pt_name(p, pt);

		if (!e->ts[pt])
			continue;
		if (!n) {
			snprintf(name, sizeof(name), "point%u", pt);
			n = name;
		}
		pn = nla_nest_start(skb, STACKLAT_INFLIGHT_A_POINT);
		if (!pn || nla_put_string(skb, STACKLAT_INFLIGHT_POINT_A_NAME, n) ||
		    sl_nl_put_u64(skb, STACKLAT_INFLIGHT_POINT_A_OFFSET_NS,
				  (s64)(e->ts[pt] - e->born) > 0 ?
				  e->ts[pt] - e->born : 0,
				  STACKLAT_INFLIGHT_POINT_A_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, pn);
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* One message per live entry; the cursor is the table slot (args[0]). */
static int sl_nl_dump_inflight(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int pos = cb->args[0], prev, id;
	struct sl_flight_ent e;
	bool full = false;
	u64 key, now;
	char *desc;
	void *hdr;

	desc = kmalloc(512, GFP_KERNEL);
	if (!desc)
		return -ENOMEM;
	mutex_lock(&sl_lock);
	now = sl_now();
	for (prev = pos; sl_flight_next(sl_ft, &pos, &e, &key); prev = pos) {
		id = sl_flight_key_owner(key);
		if (id >= sl_nr_pipelines ||
		    (cb->args[2] && cb->args[2] != id + 1))
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &sl_genl_family,
				  NLM_F_MULTI, STACKLAT_CMD_GET_INFLIGHT);
		if (!hdr) {
			full = true;
			break;
		}
		if (sl_nl_put_inflight(skb, sl_pipelines[id], &e,
				       key ^ sl_flight_key(id, 0), now, desc)) {
			genlmsg_cancel(skb, hdr);
			full = true;
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&sl_lock);
	kfree(desc);
	cb->args[0] = full ? prev : pos;	/* the entry that did not fit: again */
	return full ? sl_nl_dump_full(skb, cb) : skb->len;
}

/* ---- GET_EVENTS -------------------------------------------------------- */

/* Reading consumes the rings: the privilege of a change. */
static int sl_nl_events_start(struct netlink_callback *cb)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1];
	int ret;

	ret = sl_nl_dump_parse(cb, tb, true);
	if (ret)
		return ret;
	cb->args[0] = 0;
	cb->args[1] = !!tb[STACKLAT_A_EVENT_COMPACT];
	cb->min_dump_alloc = 32768;
	return 0;
}

#define SL_NL_EVENTS_PER_DUMP	(1U << 20)	/* then the dump ends */
#define SL_NL_EVENTS_BATCH	64

/*
 * As many events as the message has room for, taken in batches that fit
 * (an event is taken only when there is room for it at full size: none is
 * lost; compact records leave room, and the next batch takes it).
 */
static int sl_nl_dump_events(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct stacklat_event *ev;
	unsigned int n = 0, room, got, i;
	void *hdr;
	int ret;

	if (cb->args[0] >= SL_NL_EVENTS_PER_DUMP)
		return 0;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &sl_genl_family, NLM_F_MULTI, STACKLAT_CMD_GET_EVENTS);
	if (!hdr)
		return -EMSGSIZE;
	ev = kmalloc_array(SL_NL_EVENTS_BATCH, sizeof(*ev), GFP_KERNEL);
	if (!ev) {
		genlmsg_cancel(skb, hdr);
		return -ENOMEM;
	}
	ret = sl_events_lock_interruptible();
	if (ret) {
		genlmsg_cancel(skb, hdr);
		kfree(ev);
		return ret;
	}
	for (;;) {
		room = skb_tailroom(skb) / nla_total_size(sizeof(*ev));
		room = min3(room, SL_NL_EVENTS_BATCH,
			    (unsigned int)(SL_NL_EVENTS_PER_DUMP - cb->args[0]));
		got = room ? sl_events_take(ev, room) : 0;
		for (i = 0; i < got; i++) {
			sl_pipeline_ev_name(&ev[i]);
			if (cb->args[1])
				stacklat_event_pack(nla_data(nla_reserve(skb,
						STACKLAT_A_EVENT_COMPACT,
						stacklat_event_compact_len(&ev[i]))),
						&ev[i]);
			else
				memcpy(nla_data(nla_reserve(skb, STACKLAT_A_EVENT,
							    sizeof(*ev))),
				       &ev[i], sizeof(*ev));
		}
		cb->args[0] += got;
		n += got;
		if (got < room || !got)
			break;
	}
	sl_events_unlock();
	kfree(ev);
	if (!n) {
		genlmsg_cancel(skb, hdr);
		return 0;
	}
	genlmsg_end(skb, hdr);
	return skb->len;
}

/* ---- GET_CPU_STATUS ------------------------------------------------------ */

static int sl_nl_cpus_start(struct netlink_callback *cb)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1];

	cb->args[0] = 0;
	return sl_nl_dump_parse(cb, tb, false);
}

/*
 * Every CPU's event overruns, SL_NL_CPUS_PER_MSG CPUs a message, up to
 * nr_cpu_ids; the cursor is the next CPU (args[0]).
 */
static int sl_nl_dump_cpus(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int first = cb->args[0], n;
	struct nlattr *nest;
	void *hdr;

	for (; first < nr_cpu_ids; first += n) {
		n = min_t(unsigned int, nr_cpu_ids - first, SL_NL_CPUS_PER_MSG);
		hdr = sl_nl_dump_hdr(skb, cb, STACKLAT_CMD_GET_CPU_STATUS);
		if (!hdr)
			break;
		nest = nla_nest_start(skb, STACKLAT_A_EVENTS);
		if (!nest ||
		    nla_put_u32(skb, STACKLAT_EVENTS_A_CPU_FIRST, first) ||
		    sl_nl_put_overruns(skb, first, n)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		nla_nest_end(skb, nest);
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = first;
	return first < nr_cpu_ids ? sl_nl_dump_full(skb, cb) : skb->len;
}

static const struct genl_ops sl_genl_ops[] = {
	{
		.cmd = STACKLAT_CMD_GET_STATUS,
		.doit = sl_nl_get_status,
	}, {
		.cmd = STACKLAT_CMD_GET_PIPELINES,
		.start = sl_nl_dump_start,
		.dumpit = sl_nl_dump_pipelines,
	}, {
		.cmd = STACKLAT_CMD_GET_HIST,
		.start = sl_nl_dump_start,
		.dumpit = sl_nl_dump_hist,
	}, {
		.cmd = STACKLAT_CMD_SET_PIPELINE,
		.doit = sl_nl_set_pipeline,
	}, {
		.cmd = STACKLAT_CMD_RESET,
		.doit = sl_nl_reset,
	}, {
		.cmd = STACKLAT_CMD_FUNC_ADD,
		.doit = sl_nl_func,
	}, {
		.cmd = STACKLAT_CMD_FUNC_DEL,
		.doit = sl_nl_func,
	}, {
		.cmd = STACKLAT_CMD_GET_INFLIGHT,
		.start = sl_nl_dump_start,
		.dumpit = sl_nl_dump_inflight,
	}, {
		.cmd = STACKLAT_CMD_GET_EVENTS,
		.start = sl_nl_events_start,
		.dumpit = sl_nl_dump_events,
	}, {
		.cmd = STACKLAT_CMD_GET_KEYED,
		.start = sl_nl_keyed_start,
		.dumpit = sl_nl_dump_keyed,
	}, {
		.cmd = STACKLAT_CMD_GET_CPU_STATUS,
		.start = sl_nl_cpus_start,
		.dumpit = sl_nl_dump_cpus,
	}, {
		/* kernel stacks (issue 28) */
		.cmd = STACKLAT_CMD_GET_STACKS,
		.start = sl_nl_stacks_start,
		.dumpit = sl_nl_dump_stacks,
	},
};

static struct genl_family sl_genl_family __ro_after_init = {
	.name = STACKLAT_GENL_NAME,
	.version = STACKLAT_GENL_VERSION,
	.maxattr = STACKLAT_A_MAX,
	.policy = sl_nl_policy,
	.module = THIS_MODULE,
	.netnsok = false,	/* the initial network namespace only */
	.ops = sl_genl_ops,
	.n_ops = ARRAY_SIZE(sl_genl_ops),
};

int sl_netlink_init(void)
{
	sl_nl_family = &sl_genl_family;
	return genl_register_family(&sl_genl_family);
}

void sl_netlink_exit(void)
{
	genl_unregister_family(&sl_genl_family);
}

MODULE_ALIAS_GENL_FAMILY(STACKLAT_GENL_NAME);
