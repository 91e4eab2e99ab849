// SPDX-License-Identifier: GPL-2.0
/*
 * What the network pipelines share: the candidates of the points they
 * have in common (the frees of an skb - kfree_skb counts a drop,
 * consume_skb does not -, the driver's and IP's receive, TCP's receive
 * queue, the driver's transmit), one tracepoint probe each, and the
 * notifier that frees an interface's breakdown slots when it is
 * unregistered.  See net.h.
 */
#include "net.h"

const char * const sl_net_if_suffix[1] = { ".total" };

/* Shared by both pipelines' frees: a tracepoint each, kprobes behind. */
SL_TP_DEFINE(kfree_skb, (SL_COMPAT_KFREE_SKB_ARGS), (unsigned long)skb)
SL_TP_DEFINE(consume_skb, (SL_COMPAT_CONSUME_SKB_ARGS), (unsigned long)skb)

const struct sl_cand sl_net_c_kfree[4] = {
	SL_TPD(kfree_skb),
	/* sk_skb_reason_drop(sk, skb, reason): kfree_skb_reason's name since 6.11 */
	SL_KPD("sk_skb_reason_drop", 1),
	SL_KPD("kfree_skb_reason", 0),
	SL_KPD("kfree_skb", 0),
};

const struct sl_cand sl_net_c_consume[2] = {
	SL_TPD(consume_skb),
	SL_KPD("consume_skb", 0),
};

/*
 * A merge: skb_try_coalesce(to, from, ...) puts @from's data into @to, the
 * skb queued before it (on the socket's receive queue, its out-of-order
 * queue or its backlog: tcp_add_backlog() merges into the backlog's tail
 * while the owner runs), and when it did, its caller frees @from with
 * kfree_skb_partial(), without a tracepoint.  If @to is followed, its
 * chain stands for both and @from's ends there, counted in the
 * "coalesce" point's hits.  If it is not (a pure ACK: chains start only
 * for segments with payload; an skb whose chain ended at its first,
 * partial read; one queued before the pipeline was enabled), @from's
 * chain moves to @to, so that what ends @to (its queueing, its read)
 * ends it.
 *
 * Both are function entries (ftrace where the kernel allows it), not a
 * return point: a kretprobe's entry is a kprobe, which the kernel skips
 * when it fires inside another kprobe's handler on its CPU (a softirq
 * merging into a socket's backlog while a task's handler runs), and a
 * merge it skips would leave @from's chain to the age sweep.  The entry
 * of skb_try_coalesce() notes @to and @from for the current CPU and
 * context (task, softirq, hardirq, NMI: what one context does there is
 * sequential); the free that follows a merge in the same function finds
 * them there.  A note that is not this call's - its task was preempted
 * and moved to another CPU, or the entry was not seen - leaves @to
 * unknown: @from's chain ends, counted as merged.
 */
struct sl_net_coal {
	unsigned long ctx;		/* sl_net_ctx_ident() of the call */
	unsigned long to;
	unsigned long from;
};

/* written by either pipeline's entry row: both write the same call's */
static DEFINE_PER_CPU(struct sl_net_coal, sl_net_coal_note[4]);

/* skb_try_coalesce(to, from, ...) */
const struct sl_cand sl_net_c_coalesce_try[1] = {
	SL_KPD("skb_try_coalesce", 0),
};

/* kfree_skb_partial(skb, head_stolen) */
const struct sl_cand sl_net_c_coalesce[1] = {
	SL_KPD("kfree_skb_partial", 0),
};

/* Probe context (a function entry: preemption off): the call's note. */
int sl_net_coalesce_try(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	unsigned long ctx = sl_net_ctx_ident();
	struct sl_net_coal *c = this_cpu_ptr(&sl_net_coal_note[ctx & 3]);

	c->ctx = ctx;
	c->to = sl_ev_arg(ev, 0);
	c->from = sl_ev_arg(ev, 1);
	return SL_DONE;
}

/* Probe context (a function entry: preemption off): @from was merged. */
int sl_net_coalesce(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	unsigned long ctx = sl_net_ctx_ident();
	const struct sl_net_coal *c = this_cpu_ptr(&sl_net_coal_note[ctx & 3]);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e, *n;

	e = sl_chain_get(p, ev->ident);
	if (!e)
		return SL_DONE;
	if (c->ctx != ctx || c->from != ev->ident || !c->to ||
	    sl_chain_followed(p, c->to)) {
		sl_hook_hit(ev->hk);
		sl_chain_remove(p, e, SL_NO_LOSS);
		return SL_DONE;
	}
	n = sl_chain_move(p, e, c->to);
	if (n)
		sl_chain_put(n);
	return SL_DONE;
}

/* net_rx's and reqresp's receive points */
SL_TP_DEFINE(netif_receive_skb, (struct sk_buff *skb), (unsigned long)skb)

const struct sl_cand sl_net_c_rx_drv[2] = {
	SL_TPD(netif_receive_skb),
	SL_KPD("__netif_receive_skb", 0),
};

const struct sl_cand sl_net_c_ip_rcv[2] = {
	SL_KPD("ip_rcv_core", 0),
	SL_KPD("ip_rcv", 0),
};

const struct sl_cand sl_net_c_ip6_rcv[2] = {
	SL_KPD("ip6_rcv_core", 0),
	SL_KPD("ipv6_rcv", 0),
};

/* tcp_queue_rcv(sk, skb, ...); tcp_rcv_established(sk, skb) where inlined */
const struct sl_cand sl_net_c_tcp_queue[2] = {
	SL_KPD("tcp_queue_rcv", 0),
	SL_KPD("tcp_rcv_established", 0),
};

/* net_tx's and reqresp's driver transmit points */
SL_TP_DEFINE(net_dev_start_xmit,
	     (const struct sk_buff *skb, const struct net_device *dev),
	     (unsigned long)skb)
SL_TP_DEFINE(net_dev_xmit,
	     (struct sk_buff *skb, int rc, struct net_device *dev,
	      unsigned int skb_len),
	     (unsigned long)skb, (unsigned long)rc)

/* net_dev_start_xmit(skb, dev), dev_hard_start_xmit(first, dev, txq, ret) */
const struct sl_cand sl_net_c_tx_drv[2] = {
	SL_TPD(net_dev_start_xmit),
	SL_KPD("dev_hard_start_xmit", 0),
};

/* the tracepoint alone */
const struct sl_cand sl_net_c_tx_start[1] = { SL_TPD(net_dev_start_xmit) };
const struct sl_cand sl_net_c_tx_done[1] = { SL_TPD(net_dev_xmit) };

/*
 * An interface that goes away frees its per-interface slots, so that the
 * interfaces of containers that come and go each get theirs: the
 * dimensions the pipelines gave sl_net_notifier_get(), in that order.
 */
#define SL_NET_DIMS	8

static struct sl_net_dim {
	struct sl_pipeline *p;
	struct sl_dim *d;
} sl_net_dims[SL_NET_DIMS];
static unsigned int sl_net_ndims;		/* under sl_lock */
static unsigned int sl_net_notifier_users;

static int sl_net_netdev_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	unsigned int i;
	u64 key;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	key = sl_net_dev_key(dev);
	mutex_lock(&sl_lock);
	for (i = 0; i < sl_net_ndims; i++)
		sl_dim_release(sl_net_dims[i].p, sl_net_dims[i].d, key);
	mutex_unlock(&sl_lock);
	return NOTIFY_DONE;
}

static struct notifier_block sl_net_nb = {
	.notifier_call = sl_net_netdev_event,
};

/* @p's dimensions leave the list. */
static void sl_net_dims_del(struct sl_pipeline *p)
{
	unsigned int i, n = 0;

	for (i = 0; i < sl_net_ndims; i++)
		if (sl_net_dims[i].p != p)
			sl_net_dims[n++] = sl_net_dims[i];
	sl_net_ndims = n;
}

/*
 * Under sl_lock, from the pipelines' setup and teardown, which drop it
 * around (un)registering the notifier and take it again.  They must: the
 * notifier chain runs its callbacks under rtnl_lock, and our callback
 * takes sl_lock (rtnl, then sl_lock), while registering takes rtnl_lock
 * and unregistering replays NETDEV_UNREGISTER for every device into our
 * callback - with sl_lock held, an ABBA deadlock against any device going
 * away, and a self-deadlock at unload.
 *
 * Why the callers' state is still valid when they have it again: setup
 * and teardown run only from sl_pipelines_init() (module load, and its
 * error path) and sl_pipelines_exit() (unload, and the load's error
 * path).  At load the front ends (debugfs, netlink), the module notifier
 * and the sweep do not exist yet; at unload they are gone before
 * sl_pipelines_exit(), which disabled every pipeline first.  So the only
 * other holder of sl_lock in the window is this notifier's callback, and
 * all it does is sl_dim_release() on the network pipelines' interface
 * slots: at load no slot is taken yet (a key is never 0), at unload it
 * resets the histograms of pipelines not freed yet and skips the freed
 * ones (sl_dim_release() checks p->hists).  It touches nothing the
 * callers hold across the call: the pipeline list, the loop's index and
 * the pipeline being set up or torn down are theirs alone, and the user
 * count and the list of dimensions below (changed before the lock is
 * dropped, or after it is taken again) only by setup and teardown, which
 * the loader and the unloader run one at a time.  Anything that calls
 * setup or teardown at another time (a pipeline added while the module
 * runs) must register the notifier another way.
 */
int sl_net_notifier_get(struct sl_pipeline *p, struct sl_dim *const *dims,
			unsigned int n)
{
	unsigned int i;
	int ret;

	lockdep_assert_held(&sl_lock);
	if (sl_net_ndims + n > SL_NET_DIMS) {
		sl_err("%s: more than %u interface dimensions\n", p->name,
		       SL_NET_DIMS);
		return -ENOSPC;
	}
	for (i = 0; i < n; i++)
		sl_net_dims[sl_net_ndims++] = (struct sl_net_dim){ p, dims[i] };
	if (sl_net_notifier_users++)
		return 0;
	/* the notifier takes sl_lock: register without it (see above) */
	mutex_unlock(&sl_lock);
	ret = register_netdevice_notifier(&sl_net_nb);
	mutex_lock(&sl_lock);
	if (ret) {
		sl_net_notifier_users--;
		sl_net_dims_del(p);
	}
	return ret;
}

void sl_net_notifier_put(struct sl_pipeline *p)
{
	lockdep_assert_held(&sl_lock);
	sl_net_dims_del(p);
	if (--sl_net_notifier_users)
		return;
	mutex_unlock(&sl_lock);
	unregister_netdevice_notifier(&sl_net_nb);
	mutex_lock(&sl_lock);
}

