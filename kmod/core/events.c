// SPDX-License-Identifier: GPL-2.0
/*
 * Slow events: a pipeline with a threshold writes one fixed-size record
 * (struct stacklat_event) for every chain whose total exceeds it, at the
 * moment the chain is recorded, into a ring of the CPU it ends on.
 *
 * Writer (probe context): no lock, no allocation, no call out.  Each
 * CPU's ring has one writer at a time (a writer interrupted on its CPU by
 * another end point does not nest: that event is dropped and counted) and
 * one reader (under sl_ev_mutex), so head and tail are a single-producer
 * single-consumer pair: the writer never overwrites what the reader has
 * not released (a full ring drops the new event and counts an overrun on
 * that CPU), the reader never waits for the writer.  An event's seq is its
 * CPU's count of attempts, so a gap in seq is exactly the overruns between.
 *
 * Rings can follow use: with event_records_start=, a CPU's ring starts at
 * sl_events_start records and grows x4, up to sl_events_records, when a
 * look (a work item, SL_EV_LOOK_MS apart while rings exist) finds it more
 * than half full or full since the last look.  The new ring is put in
 * place on the ring's CPU, in a function call interrupt, while no writer
 * is in there and no reader takes (sl_ev_mutex): unread records are
 * copied, nothing is lost by the growth itself.
 *
 * Readers: debugfs "events" (text lines, blocking read, poll) and the
 * netlink dump GET_EVENTS (records); reading consumes.  A reader takes
 * from the CPUs in turn, SL_EV_QUANTUM at most from one before the next,
 * each take going on where the previous one stopped: a reader slower than
 * the writers serves every CPU alike instead of draining CPU 0's ring
 * first.  Nothing in probe context wakes a reader: a work item looks every
 * SL_EV_POLL_MS while someone waits.
 */
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "cpus.h"
#include "events.h"
#include "filter.h"
#include "flight.h"
#include "fmt.h"

#define SL_EV_POLL_MS	5
#define SL_EV_QUANTUM	16	/* events a take takes from a CPU in a turn */
#define SL_EV_LOOK_MS	125	/* a look at the rings, to grow them */
#define SL_EV_GROW	4	/* a crowded ring's growth */

/*
 * The rate limit (event_rate=): at most sl_events_rate events a second of
 * each pipeline on each CPU, in windows of SL_EV_WINDOW_NS with a tenth of
 * that each; the rest are counted "suppressed" in their pipeline's losses.
 * Identity lines (a line for every retransmission, every drop) can come
 * in storms; so can slow events under a threshold too low.
 */
#define SL_EV_WINDOW_NS	(NSEC_PER_SEC / 10)
unsigned int sl_events_rate = 10000;
/* records a CPU's ring grows to (event_records=), fixed at load */
unsigned int sl_events_records = STACKLAT_EVENTS_RING_DEFAULT;
/* and starts with (event_records_start=; unset the same: no growth) */
unsigned int sl_events_start = STACKLAT_EVENTS_RING_DEFAULT;

struct sl_ev_rate {
	u64 window;			/* the window's number (now / SL_EV_WINDOW_NS) */
	u32 n;				/* events written in it */
};

struct sl_ev_ring {
	u64 head;			/* next record; the CPU's writer only */
	u64 tail;			/* next to read; the reader only */
	u64 overruns;			/* events dropped: ring full or nested */
	u32 busy;			/* a writer is in on this CPU */
	u32 crowded;			/* the writer found it full */
	/*
	 * @size records (sl_events_start.. sl_events_records); NULL until
	 * the CPU has been online.  Both change on this CPU only, with
	 * @busy held (sl_ev_swap()), under sl_ev_mutex.
	 */
	u32 size;
	struct stacklat_event *rec;
	struct sl_ev_rate rate[SL_MAX_PIPELINES];	/* the writer's */
};

static DEFINE_PER_CPU(struct sl_ev_ring, sl_ev_rings);
static DEFINE_MUTEX(sl_ev_mutex);	/* the reader */
static DECLARE_WAIT_QUEUE_HEAD(sl_ev_wq);
static bool sl_ev_ready;		/* rings allocated (under sl_lock) */
static struct sl_cpus_user sl_ev_cpus;	/* the rings' hot-plug instance */
static unsigned int sl_ev_nrings;	/* rings allocated (under sl_lock) */
static u64 sl_ev_read_total;		/* under sl_ev_mutex */
/* where the next take goes on, and what is left of that CPU's turn */
static unsigned int sl_ev_next_cpu;	/* under sl_ev_mutex */
static unsigned int sl_ev_turn_left;	/* under sl_ev_mutex; 0: a whole turn */
static atomic_t sl_ev_waiters = ATOMIC_INIT(0);
static atomic64_t sl_ev_bytes = ATOMIC64_INIT(0);	/* of the rings */
static void sl_ev_poll(struct work_struct *w);
static DECLARE_DELAYED_WORK(sl_ev_work, sl_ev_poll);
static void sl_ev_look(struct work_struct *w);
static DECLARE_DELAYED_WORK(sl_ev_look_work, sl_ev_look);

struct sl_ev_stage {
	u32 index;
	u64 ns;
};

/*
 * Is this event of the pipeline whose CPU state is @rt, at @now, over its
 * rate?  (Its CPU's writer, preemption off.)
 */
static bool sl_ev_over_rate(struct sl_ev_rate *rt, u64 now)
{
	u32 rate = READ_ONCE(sl_events_rate);
	u64 w = div_u64(now, SL_EV_WINDOW_NS);

	if (!rate)
		return false;
	if (rt->window != w) {
		rt->window = w;
		rt->n = 0;
	}
	return ++rt->n > max(rate / 10, 1U);
}

/* Probe context: write one event into this CPU's ring, or count it lost. */
static void sl_ev_put(struct sl_pipeline *p, u64 last, u64 total,
		      const struct sl_ev_stage *st, unsigned int n,
		      const struct sl_ev_obj *o)
{
	struct stacklat_event *ev, *rec;
	struct sl_ev_ring *r;
	unsigned int i;
	u64 head, tail;
	u32 size;

	preempt_disable_notrace();
	r = this_cpu_ptr(&sl_ev_rings);
	if (this_cpu_inc_return(sl_ev_rings.busy) != 1) {
		this_cpu_inc(sl_ev_rings.overruns);
		goto out;
	}
	if (sl_ev_over_rate(&r->rate[p->priv.id], last)) {
		/* sl_loss() (chain.h) is above this room: its one line */
		this_cpu_inc(p->priv.loss->v[SL_LOSS_SUPPRESSED]);
		goto out;
	}
	head = r->head;
	/* acquire: the reader is done with the slot before it is reused */
	tail = smp_load_acquire(&r->tail);
	/*
	 * acquire: its size, set before (sl_ev_ring_alloc()); none yet: a
	 * CPU just online, before its callback (cpus.h)
	 */
	rec = smp_load_acquire(&r->rec);
	if (unlikely(!rec)) {
		r->overruns++;
		goto out;
	}
	/* rec and size: only this CPU changes them, while busy is ours */
	size = READ_ONCE(r->size);
	if (head - tail >= size) {
		r->overruns++;
		WRITE_ONCE(r->crowded, 1);	/* the next look grows it */
		goto out;
	}
	ev = &rec[head % size];
	ev->time_ns = last;
	ev->total_ns = total;
	ev->seq = head + r->overruns;
	ev->cpu = smp_processor_id();
	ev->pipeline = p->priv.id;
	if (o && o->anon) {
		ev->tgid = 0;
		ev->tid = 0;
		memset(ev->comm, 0, sizeof(ev->comm));
		ev->comm[0] = '-';
		ev->cgroup = 0;
	} else if (o && o->task) {
		ev->tgid = o->tgid;
		ev->tid = o->tid;
		memset(ev->comm, 0, sizeof(ev->comm));
		if (o->comm)
			memcpy(ev->comm, o->comm, sizeof(ev->comm) - 1);
		else
			ev->comm[0] = '?';
		ev->cgroup = o->cgroup;
	} else {
		ev->tgid = current->tgid;
		ev->tid = current->pid;
		memcpy(ev->comm, current->comm, sizeof(ev->comm));
		ev->comm[sizeof(ev->comm) - 1] = '\0';
		/* the same task, the same moment */
		ev->cgroup = sl_task_cgroup_id(current);
	}
	for (i = 0; i < n; i++) {
		ev->stages[i].index = st[i].index;
		ev->stages[i].pad = 0;
		ev->stages[i].ns = st[i].ns;
	}
	ev->nstages = n;
	if (o) {
		ev->flags = o->flags;
		ev->dev = o->dev;
		ev->sport = o->sport;
		ev->dport = o->dport;
		ev->op = o->op;
		ev->sector = o->sector;
		ev->bytes = o->bytes;
		memcpy(ev->ifname, o->ifname, sizeof(ev->ifname));
		ev->ifname[sizeof(ev->ifname) - 1] = '\0';
		ev->family = o->family;
		ev->tcp_state = o->tcp_state;
		memcpy(ev->saddr, o->saddr, sizeof(ev->saddr));
		memcpy(ev->daddr, o->daddr, sizeof(ev->daddr));
		ev->rto_us = o->rto_us;
		ev->srtt_us = o->srtt_us;
		ev->cwnd = o->cwnd;
		ev->retrans = o->retrans;
		ev->result = o->result;
		ev->qlen = o->qlen;
		ev->qmax = o->qmax;
		ev->proto = o->proto;
		ev->stack_id = o->flags & STACKLAT_EVENT_F_STACK ? o->stack : 0;
		/* the address, named by sl_ev_name_where() when it is read */
		memset(ev->where, 0, sizeof(ev->where));
		if (o->flags & STACKLAT_EVENT_F_WHERE)
			memcpy(ev->where, &o->where, sizeof(o->where));
	} else {
		ev->flags = 0;
		ev->dev = 0;
		ev->sport = 0;
		ev->dport = 0;
		ev->op = 0;
		ev->sector = 0;
		ev->bytes = 0;
		ev->ifname[0] = '\0';
		ev->family = 0;
		ev->tcp_state = 0;
		memset(ev->saddr, 0, sizeof(ev->saddr));
		memset(ev->daddr, 0, sizeof(ev->daddr));
		ev->rto_us = 0;
		ev->srtt_us = 0;
		ev->cwnd = 0;
		ev->retrans = 0;
		ev->result = 0;
		ev->qlen = 0;
		ev->qmax = 0;
		ev->proto = 0;
		ev->stack_id = 0;
		memset(ev->where, 0, sizeof(ev->where));
	}
	ev->pad2 = 0;
	ev->pad3 = 0;
	/* release: the record is whole before the reader sees it */
	smp_store_release(&r->head, head + 1);
out:
	this_cpu_dec(sl_ev_rings.busy);
	preempt_enable_notrace();
}

/*
 * The total of points @ts[0..@nts) from @born (the last point passed minus
 * the first), when it is over @thresh; 0 when not.
 */
static u64 sl_ev_slow(const u64 *ts, unsigned int nts, u64 born, u64 thresh,
		      u64 *last)
{
	unsigned int i;
	u64 total;

	*last = 0;
	for (i = 0; i < nts; i++)
		if ((s64)(ts[i] - *last) > 0)
			*last = ts[i];
	total = *last - born;
	if ((s64)total <= 0 || total <= thresh)
		return 0;
	return total;
}

/*
 * Probe context: a chain with points @ts[0..@nts) that started at @born
 * was just recorded; @o says what it was (may be NULL).  An event when its
 * total is over the threshold, with every stage it passed.
 */
void sl_event_emit_ts(struct sl_pipeline *p, const u64 *ts, unsigned int nts,
		      u64 born, const struct sl_ev_obj *o)
{
	u64 thresh = READ_ONCE(p->priv.ev_thresh), last, total;
	struct sl_ev_stage st[STACKLAT_EVENT_STAGES];
	unsigned int i, n = 0;

	if (!thresh)
		return;
	total = sl_ev_slow(ts, nts, born, thresh, &last);
	if (!total)
		return;
	for (i = 0; i < p->nstages && n < STACKLAT_EVENT_STAGES; i++) {
		const struct sl_stage *s = &p->stages[i];
		u64 a, b;

		if (s->from_pt >= nts || s->to_pt >= nts)
			continue;
		a = ts[s->from_pt];
		b = ts[s->to_pt];
		if (!a || !b || (s64)(b - a) < 0)
			continue;
		st[n].index = i;
		st[n++].ns = b - a;
	}
	sl_ev_put(p, last, total, st, n, o);
}

/* Probe context: @e (held) was just recorded; its total may be slow. */
void sl_event_emit(struct sl_pipeline *p, const struct sl_flight_ent *e)
{
	struct sl_ev_obj o;
	u64 last;

	/* what the chain was is asked for a slow one only */
	if (p->ev_obj && sl_ev_slow(e->ts, SL_FLIGHT_NTS, e->born,
				    READ_ONCE(p->priv.ev_thresh), &last)) {
		memset(&o, 0, sizeof(o));
		p->ev_obj(p, e, &o);
		sl_event_emit_ts(p, e->ts, SL_FLIGHT_NTS, e->born, &o);
		return;
	}
	sl_event_emit_ts(p, e->ts, SL_FLIGHT_NTS, e->born, NULL);
}

/* Probe context: a one-stage object (a call) from @start to @end. */
void sl_event_emit_one(struct sl_pipeline *p, unsigned int stage, u64 start,
		       u64 end)
{
	sl_event_emit_obj(p, stage, start, end, NULL);
}

/*
 * The same with what the object was (@o, may be NULL).  With the threshold
 * STACKLAT_THRESHOLD_ALL, every one (identity lines), a time of 0 too.
 */
void sl_event_emit_obj(struct sl_pipeline *p, unsigned int stage, u64 start,
		       u64 end, const struct sl_ev_obj *o)
{
	u64 thresh = READ_ONCE(p->priv.ev_thresh);
	struct sl_ev_stage st = { .index = stage };

	if (!thresh)
		return;
	if ((s64)(end - start) > 0)
		st.ns = end - start;
	else if (thresh != STACKLAT_THRESHOLD_ALL)
		return;
	if (st.ns <= thresh && thresh != STACKLAT_THRESHOLD_ALL)
		return;
	sl_ev_put(p, end, st.ns, &st, 1, o);
}

/*
 * Probe context: the line of an object that has no time (a drop): written
 * whenever the pipeline has a threshold, whatever it is, with a total of
 * 0; @stage says what it was.  The rate limit bounds a storm of them.
 */
void sl_event_emit_line(struct sl_pipeline *p, unsigned int stage, u64 now,
			const struct sl_ev_obj *o)
{
	struct sl_ev_stage st = { .index = stage };

	if (!READ_ONCE(p->priv.ev_thresh))
		return;
	sl_ev_put(p, now, 0, &st, 1, o);
}

/*
 * The same for an object of @n (at most STACKLAT_EVENT_STAGES) stages,
 * @stage[i] of @ns[i], that ended at @end: its total is their sum.
 */
void sl_event_emit_stages(struct sl_pipeline *p, const unsigned int *stage,
			  const u64 *ns, unsigned int n, u64 end,
			  const struct sl_ev_obj *o)
{
	u64 thresh = READ_ONCE(p->priv.ev_thresh), total = 0;
	struct sl_ev_stage st[STACKLAT_EVENT_STAGES];
	unsigned int i;

	if (!thresh)
		return;
	n = min_t(unsigned int, n, STACKLAT_EVENT_STAGES);
	for (i = 0; i < n; i++) {
		st[i].index = stage[i];
		st[i].ns = ns[i];
		total += ns[i];
	}
	if (total <= thresh && thresh != STACKLAT_THRESHOLD_ALL)
		return;
	sl_ev_put(p, end, total, st, n, o);
}

/* Process context (cpus.h): @cpu's ring, if it has none. */
static int sl_ev_ring_alloc(struct sl_cpus_user *u, unsigned int cpu)
{
	struct sl_ev_ring *r = per_cpu_ptr(&sl_ev_rings, cpu);
	struct stacklat_event *rec;

	if (r->rec)
		return 0;
	rec = kvzalloc_node(array_size(sl_events_start, sizeof(*rec)),
			    SL_GFP_BIG, cpu_to_node(cpu));
	if (!rec)
		return -ENOMEM;
	r->size = sl_events_start;
	/* release: the zeroed ring (and its size) before anyone sees it */
	smp_store_release(&r->rec, rec);
	atomic64_add(array_size(sl_events_start, sizeof(*rec)), &sl_ev_bytes);
	WRITE_ONCE(sl_ev_nrings, sl_ev_nrings + 1);
	return 0;
}

/* A ring's growth: the new records, then the old to free; the result. */
struct sl_ev_swap {
	struct stacklat_event *rec;
	u32 size;
	int ret;
};

/*
 * Hard interrupt on the ring's CPU (smp_call_function_single()), the
 * reader excluded (sl_ev_mutex held by the caller): the unread records
 * into the larger ring, which takes the old one's place.  Not while a
 * writer is in on this CPU (it was interrupted): then -EBUSY, the next
 * look tries again.  An NMI writer meanwhile finds busy taken and counts
 * an overrun, as for any nested writer.
 */
static void sl_ev_swap(void *arg)
{
	struct sl_ev_ring *r = this_cpu_ptr(&sl_ev_rings);
	struct sl_ev_swap *s = arg;
	struct stacklat_event *old;
	u64 i;

	if (this_cpu_inc_return(sl_ev_rings.busy) != 1) {
		s->ret = -EBUSY;
		goto out;
	}
	old = r->rec;
	for (i = r->tail; i != r->head; i++)
		s->rec[i % s->size] = old[i % r->size];
	WRITE_ONCE(r->rec, s->rec);
	WRITE_ONCE(r->size, s->size);
	WRITE_ONCE(r->crowded, 0);
	s->rec = old;
	s->ret = 0;
out:
	this_cpu_dec(sl_ev_rings.busy);
}

/* Process context: grow @cpu's ring of @size records, if it still is. */
static void sl_ev_grow(unsigned int cpu, u32 size)
{
	struct sl_ev_ring *r = per_cpu_ptr(&sl_ev_rings, cpu);
	struct sl_ev_swap s = {
		.size = min_t(u32, size * SL_EV_GROW, sl_events_records),
	};

	s.rec = kvzalloc_node(array_size(s.size, sizeof(*s.rec)), SL_GFP_BIG,
			      cpu_to_node(cpu));
	if (!s.rec)
		return;		/* the next look tries again */
	mutex_lock(&sl_ev_mutex);
	s.ret = -EAGAIN;
	if (READ_ONCE(r->size) == size &&
	    smp_call_function_single(cpu, sl_ev_swap, &s, 1))
		s.ret = -ENXIO;	/* went offline: it keeps its ring */
	mutex_unlock(&sl_ev_mutex);
	if (!s.ret)
		atomic64_add(array_size(s.size - size, sizeof(*s.rec)),
			     &sl_ev_bytes);
	/* the old ring (grown) or the new one (not): no writer holds it */
	kvfree(s.rec);
}

/*
 * Every SL_EV_LOOK_MS while rings exist and one may grow: a ring that was
 * full since the last look, or is more than half full, grows.
 */
static void sl_ev_look(struct work_struct *w)
{
	bool more = false;
	unsigned int cpu;

	/* a CPU that goes offline meanwhile keeps its ring (-ENXIO) */
	for_each_online_cpu(cpu) {
		struct sl_ev_ring *r = per_cpu_ptr(&sl_ev_rings, cpu);
		u32 size = READ_ONCE(r->size);

		if (!READ_ONCE(r->rec) || size >= sl_events_records)
			continue;
		more = true;
		/* racy reads, a hint: the swap re-checks under the mutex */
		if (READ_ONCE(r->crowded) ||
		    READ_ONCE(r->head) - READ_ONCE(r->tail) > size / 2)
			sl_ev_grow(cpu, size);
	}
	/* a CPU that comes online later starts small: look on */
	if (more || num_online_cpus() < num_possible_cpus())
		schedule_delayed_work(&sl_ev_look_work,
				      msecs_to_jiffies(SL_EV_LOOK_MS));
}

/*
 * Allocate the rings (once, under sl_lock: its caller, setting a
 * threshold, holds it) before a threshold is set: one for each online
 * CPU, then one for each CPU that comes online (cpus.h).
 */
int sl_events_alloc(void)
{
	int ret;

	if (sl_ev_ready)
		return 0;
	sl_ev_cpus.online = sl_ev_ring_alloc;
	ret = sl_cpus_add(&sl_ev_cpus);
	if (ret) {
		sl_err("slow events: no memory for rings of %u records on %u CPUs\n",
		       sl_events_records, num_online_cpus());
		return ret;
	}
	/* release: the rings exist before anyone sees them ready */
	smp_store_release(&sl_ev_ready, true);
	if (sl_events_start < sl_events_records)
		schedule_delayed_work(&sl_ev_look_work,
				      msecs_to_jiffies(SL_EV_LOOK_MS));
	return 0;
}

/*
 * Whether @p can ever have a slow event: it ends objects (chains or calls)
 * whose first and last points it passed.  The engine ends them at an END
 * row (sl_chain_finish()) and a SPAN row (a call's entry to its return);
 * a pipeline whose callbacks end them (sl_chain_finish(),
 * sl_chain_record(), sl_event_emit_one/_ts()) says so with own_events.
 * Any other counts values or instants (sizes, drops, retransmissions) or
 * records its stages itself without an event: a threshold there would
 * allocate the rings for nothing, and a reader would wait forever.
 */
bool sl_events_possible(const struct sl_pipeline *p)
{
	unsigned int i;

	if (p->own_events)
		return true;
	for (i = 0; i < p->nhooks; i++)
		if (p->hooks[i].act == SL_ACT_END ||
		    p->hooks[i].act == SL_ACT_SPAN)
			return true;
	return false;
}

/*
 * Whether threshold @ns may be set on @p (0, off, always may): nothing
 * changes, so that a request or a control write is checked whole first.
 */
int sl_events_check_threshold(const struct sl_pipeline *p, u64 ns,
			      struct netlink_ext_ack *extack)
{
	if (ns > STACKLAT_THRESHOLD_MAX_NS) {
		NL_SET_ERR_MSG(extack, "threshold above 3600 s");
		sl_err("threshold %s: %llu ns is above 3600 s\n", p->name, ns);
		return -EINVAL;
	}
	if (ns && !sl_events_possible(p)) {
		sl_compat_err_msg_name(extack, NULL,
				       "no slow events in pipeline", p->name);
		sl_err("threshold %s: %s has no slow events (it ends no object it followed from a first point to a last)\n",
		       p->name, p->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Anything to read?  (Any context; a racy answer is re-checked.) */
bool sl_events_avail(void)
{
	unsigned int cpu;

	/* acquire: pairs with the release in sl_events_alloc() */
	if (!smp_load_acquire(&sl_ev_ready))
		return false;
	for_each_possible_cpu(cpu) {
		struct sl_ev_ring *r = per_cpu_ptr(&sl_ev_rings, cpu);

		/* acquire: pairs with the writer's release of head */
		if (smp_load_acquire(&r->head) != READ_ONCE(r->tail))
			return true;
	}
	return false;
}

/* The possible CPU after @cpu, the first after the last. */
static unsigned int sl_ev_cpu_after(unsigned int cpu)
{
	cpu = cpumask_next(cpu, cpu_possible_mask);
	return cpu < nr_cpu_ids ? cpu : cpumask_first(cpu_possible_mask);
}

/*
 * Process context, as a record is taken: the address its writer put in
 * where[] (_F_WHERE) becomes "function+0xOFF" (and "[module]"): %pS's
 * "function+0xOFF/0xLEN [module]" without the length and the space.  An
 * address no symbol names is "unknown": the address never leaves.
 */
static void sl_ev_name_where(struct stacklat_event *ev)
{
	char buf[KSYM_SYMBOL_LEN + 8];
	unsigned long addr;

	memcpy(&addr, ev->where, sizeof(addr));
	snprintf(buf, sizeof(buf), "%pS", (void *)addr);
	if (!addr || !strncmp(buf, "0x", 2) || !strchr(buf, '+')) {
		strscpy(ev->where, "unknown", sizeof(ev->where));
		return;
	}
	sl_fmt_sym_word(buf);
	strscpy(ev->where, buf, sizeof(ev->where));
}

/*
 * Take up to @max events into @out: the CPUs in turn, a turn being
 * SL_EV_QUANTUM events of a CPU (in its order) or all it has, going on
 * where the previous take stopped (the rest of a turn, or the next CPU),
 * until @max or a whole round of the CPUs finds nothing.  So takes of any
 * size share a reader's pace among the CPUs whose rings are not empty,
 * none ahead of another by more than a turn.  Caller holds sl_ev_mutex
 * (sl_events_lock()).
 */
unsigned int sl_events_take(struct stacklat_event *out, unsigned int max)
{
	unsigned int cpu, turn, idle = 0, n = 0, k, ncpus = num_possible_cpus();

	lockdep_assert_held(&sl_ev_mutex);
	/* acquire: pairs with the release in sl_events_alloc() */
	if (!smp_load_acquire(&sl_ev_ready))
		return 0;
	cpu = sl_ev_next_cpu;
	turn = sl_ev_turn_left ?: SL_EV_QUANTUM;
	while (n < max && idle < ncpus) {
		struct sl_ev_ring *r = per_cpu_ptr(&sl_ev_rings, cpu);
		/* acquire: the records up to head are whole (writer's release) */
		u64 head = smp_load_acquire(&r->head), tail = r->tail;

		for (k = 0; tail != head && n < max && k < turn; k++, tail++) {
			/* rec and size: they change under sl_ev_mutex only */
			out[n] = r->rec[tail % r->size];
			if (out[n].flags & STACKLAT_EVENT_F_WHERE)
				sl_ev_name_where(&out[n]);
			n++;
		}
		if (k) {
			/* release: the copies are done before the slots are reused */
			smp_store_release(&r->tail, tail);
			idle = 0;
		} else {
			idle++;
		}
		if (k == turn || tail == head) {
			cpu = sl_ev_cpu_after(cpu);
			turn = SL_EV_QUANTUM;
		} else {
			turn -= k;	/* @max reached: the next take goes on */
		}
	}
	sl_ev_next_cpu = cpu;
	sl_ev_turn_left = turn;
	sl_ev_read_total += n;
	return n;
}

void sl_events_lock(void)
{
	mutex_lock(&sl_ev_mutex);
}

int sl_events_lock_interruptible(void)
{
	return mutex_lock_interruptible(&sl_ev_mutex);
}

void sl_events_unlock(void)
{
	mutex_unlock(&sl_ev_mutex);
}

void sl_events_stats(struct sl_events_stats *st)
{
	unsigned int cpu;

	memset(st, 0, sizeof(*st));
	st->ring = sl_events_records;
	st->ring_start = sl_events_start;
	st->rings = READ_ONCE(sl_ev_nrings);
	st->bytes = atomic64_read(&sl_ev_bytes);
	for_each_possible_cpu(cpu) {
		struct sl_ev_ring *r = per_cpu_ptr(&sl_ev_rings, cpu);

		if (READ_ONCE(r->rec))
			st->ring_now = max(st->ring_now, READ_ONCE(r->size));
		/* acquire: pairs with the writer's release of head */
		st->written += smp_load_acquire(&r->head);
		st->overruns_total += READ_ONCE(r->overruns);
	}
	st->read = READ_ONCE(sl_ev_read_total);
}

u64 sl_events_overruns(unsigned int cpu)
{
	return READ_ONCE(per_cpu_ptr(&sl_ev_rings, cpu)->overruns);
}

/* ---- waking readers, from a work item, never from probe context ---- */

static void sl_ev_poll(struct work_struct *w)
{
	if (sl_events_avail())
		wake_up_interruptible(&sl_ev_wq);
	if (atomic_read(&sl_ev_waiters))
		schedule_delayed_work(&sl_ev_work, msecs_to_jiffies(SL_EV_POLL_MS));
}

void sl_events_reader_get(void)
{
	if (atomic_inc_return(&sl_ev_waiters) == 1)
		schedule_delayed_work(&sl_ev_work, msecs_to_jiffies(SL_EV_POLL_MS));
}

void sl_events_reader_put(void)
{
	atomic_dec(&sl_ev_waiters);
}

wait_queue_head_t *sl_events_wq(void)
{
	return &sl_ev_wq;
}

/* Module unload: nothing of ours runs any more (no probe, no reader). */
void sl_events_exit(void)
{
	unsigned int cpu;

	cancel_delayed_work_sync(&sl_ev_work);
	cancel_delayed_work_sync(&sl_ev_look_work);
	sl_cpus_del(&sl_ev_cpus);
	for_each_possible_cpu(cpu) {
		struct sl_ev_ring *r = per_cpu_ptr(&sl_ev_rings, cpu);

		kvfree(r->rec);
		r->rec = NULL;
		r->size = 0;
	}
	atomic64_set(&sl_ev_bytes, 0);
	sl_ev_nrings = 0;
	sl_ev_ready = false;
}
