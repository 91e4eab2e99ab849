// SPDX-License-Identifier: GPL-2.0
/*
 * The block pipeline.
 *
 * "block" follows each request with the block tracepoints, the stages of
 * blktrace's btt: Q (block_bio_queue), I (block_rq_insert), D
 * (block_rq_issue) and C (block_rq_complete):
 *
 *   Q2I  queue -> insert      I2D  insert -> issue (scheduler, queueing)
 *   Q2D  queue -> issue       D2C  issue -> complete (the device)
 *   Q2C  queue -> complete
 *
 * A bio is followed from block_bio_queue; at the request's first insert or
 * issue its timestamps move to the request (rq->bio, and the bios merged
 * in front of it).  Split bios inherit their parent's queue time, merged
 * bios are forgotten.  A request issued directly, without passing an I/O
 * scheduler's insert, has no I: its Q2I and I2D are not measurable, Q2D,
 * D2C and Q2C are.  Requests with no bio (flushes) are followed from their
 * insert or issue.  Bio-based devices (device mapper, md) get Q2C from
 * block_bio_queue to block_bio_complete.  Every stage is also kept per
 * disk, a breakdown dimension of the engine: a fixed number of slots
 * assigned on first sight; disks beyond them share the slot "other".  Nothing here depends on the block
 * accounting functions renamed and removed between 5.16 and 6.4.
 */
#include <linux/kernel.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <trace/events/block.h>

#include "sl.h"

/* Points (timestamp slots) of a request. */
enum { SL_BP_Q, SL_BP_I, SL_BP_D, SL_BP_C };

enum {
	SL_BS_Q2I,
	SL_BS_I2D,
	SL_BS_Q2D,
	SL_BS_D2C,
	SL_BS_Q2C,
	SL_BS_NR
};

/*
 * The overall stages, then per disk a breakdown dimension of the engine:
 * SL_DIM_SLOTS named disks, then "other".
 */
#define SL_BLK_NSTAGES	(SL_BS_NR * (2 + SL_DIM_SLOTS))

/* How many bios of a request are searched for a queue time. */
#define SL_BLK_WALK	4

static const struct {
	const char *name;
	const char *from;
	const char *to;
	u8 from_pt;
	u8 to_pt;
} sl_blk_stage_defs[SL_BS_NR] = {
	[SL_BS_Q2I] = { "Q2I", "bio_queue", "rq_insert", SL_BP_Q, SL_BP_I },
	[SL_BS_I2D] = { "I2D", "rq_insert", "rq_issue", SL_BP_I, SL_BP_D },
	[SL_BS_Q2D] = { "Q2D", "bio_queue", "rq_issue", SL_BP_Q, SL_BP_D },
	[SL_BS_D2C] = { "D2C", "rq_issue", "rq_complete", SL_BP_D, SL_BP_C },
	[SL_BS_Q2C] = { "Q2C", "bio_queue", "rq_complete", SL_BP_Q, SL_BP_C },
};

static struct sl_stage sl_blk_stages[SL_BLK_NSTAGES];
static struct sl_dim sl_blk_disks;

static __always_inline bool sl_blk_dev_ok(const struct sl_pipeline *p, u32 dev)
{
	u32 want = READ_ONCE(sl_filter_of(p)->dev);

	return !want || want == dev;
}

static __always_inline u32 sl_blk_rq_dev(struct request *rq)
{
	struct gendisk *disk = sl_compat_rq_disk(rq);

	return disk ? (u32)disk_devt(disk) : 0;
}

/* Record every stage whose two points were passed, globally and per disk. */
static void sl_blk_record(struct sl_pipeline *p, const u64 *ts, u32 dev,
			  struct gendisk *disk)
{
	unsigned int s, slot;

	slot = sl_dim_stage(&sl_blk_disks,
			    disk ? sl_dim_tag(&sl_blk_disks, dev, disk->disk_name) :
				   SL_DIM_OTHER);
	for (s = 0; s < SL_BS_NR; s++) {
		u64 a = ts[sl_blk_stage_defs[s].from_pt];
		u64 b = ts[sl_blk_stage_defs[s].to_pt];

		if (!a || !b)
			continue;
		sl_record(p, s, (s64)(b - a));
		sl_record(p, slot + s, (s64)(b - a));
	}
}

static u32 sl_blk_op(sl_compat_req_op_t op)
{
	switch (op) {
	case REQ_OP_READ:
		return STACKLAT_BLK_OP_READ;
	case REQ_OP_WRITE:
		return STACKLAT_BLK_OP_WRITE;
	case REQ_OP_FLUSH:
		return STACKLAT_BLK_OP_FLUSH;
	case REQ_OP_DISCARD:
		return STACKLAT_BLK_OP_DISCARD;
	default:
		return STACKLAT_BLK_OP_OTHER;
	}
}

/*
 * A slow event for the request or bio whose points are @ts: its disk, and
 * the operation, first sector and size of a request (a bio-based device's
 * bio has been advanced to its end by then: its operation only).
 */
static void sl_blk_event(struct sl_pipeline *p, const u64 *ts, u32 dev,
			 struct request *rq, struct bio *bio)
{
	struct sl_ev_obj o = { .flags = STACKLAT_EVENT_F_DEV, .dev = dev };
	u64 born = 0;
	unsigned int i;

	for (i = SL_BP_Q; i <= SL_BP_C; i++)
		if (ts[i] && (!born || ts[i] < born))
			born = ts[i];
	if (rq) {
		o.flags |= STACKLAT_EVENT_F_OP | STACKLAT_EVENT_F_IO;
		o.op = sl_blk_op(req_op(rq));
		o.sector = blk_rq_pos(rq);
		o.bytes = blk_rq_bytes(rq);
	} else if (bio) {
		o.flags |= STACKLAT_EVENT_F_OP;
		o.op = sl_blk_op(bio_op(bio));
	}
	sl_event_emit_ts(p, ts, SL_BP_C + 1, born, &o);
}

/*
 * Each point below is a row of the table at the end; the tracepoints hand
 * their arguments to the dispatcher (SL_TP_DEFINE), which runs the row's
 * callback.  A point counts a hit only when it concerns a followed request
 * (or one the filter lets through), as the callbacks say.
 */
static __always_inline int sl_blk_bio_queue(struct sl_ev *ev,
					    struct sl_flight_ent *unused)
{
	struct bio *bio = sl_ev_ptr(ev, 0);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;
	u32 dev;

	dev = (u32)bio_dev(bio);
	if (!sl_blk_dev_ok(p, dev)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return SL_DONE;
	}
	sl_hook_hit(ev->hk);
	/* sampling's choice: the later points follow what was started */
	if (!sl_sample_take(p))
		return SL_DONE;
	e = sl_chain_start(p, (unsigned long)bio, SL_BP_Q, sl_ev_now(ev));
	if (e) {
		e->aux[0] = dev;
		sl_chain_put(e);
	}
	return SL_DONE;
}

/*
 * A split: the new bio (queued by nobody) carries the front of its parent,
 * to which bio_chain() has pointed its bi_private.  It inherits the
 * parent's queue time; the parent goes on as the remainder.
 */
static int sl_blk_split(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	struct bio *bio = sl_ev_ptr(ev, 0);
	unsigned long parent = (unsigned long)READ_ONCE(bio->bi_private);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *pe, *e;
	u64 qts, dev;

	pe = sl_chain_get(p, parent);
	if (!pe)
		return SL_DONE;
	qts = pe->ts[SL_BP_Q];
	dev = pe->aux[0];
	sl_chain_put(pe);
	sl_hook_hit(ev->hk);
	e = sl_chain_start(p, (unsigned long)bio, SL_BP_Q, sl_ev_now(ev));
	if (e) {
		e->ts[SL_BP_Q] = qts;
		e->aux[0] = dev;
		sl_chain_put(e);
	}
	return SL_DONE;
}

/* A bio or a request merged into another already followed: forget it. */
static int sl_blk_merged(struct sl_ev *ev, struct sl_flight_ent *e)
{
	sl_hook_hit(ev->hk);
	return SL_FORGET;
}

/* A bio-based device (dm, md) completed a bio: its Q2C. */
static int sl_blk_bio_complete(struct sl_ev *ev, struct sl_flight_ent *e)
{
	struct bio *bio = sl_ev_ptr(ev, 0);
	struct gendisk *disk = sl_compat_bio_disk(bio);

	if (disk && disk->fops->submit_bio) {
		sl_hook_hit(ev->hk);
		e->ts[SL_BP_C] = sl_ev_now(ev);
		sl_blk_record(ev->p, e->ts, (u32)e->aux[0], disk);
		if (unlikely(sl_events_thresh(ev->p)))
			sl_blk_event(ev->p, e->ts, (u32)e->aux[0], NULL, bio);
	}
	return SL_FORGET;
}

/*
 * The earliest queue time of the first bios of @rq (0: none followed); the
 * bios' entries go.  Bios merged in front of the first one are found too.
 */
static u64 sl_blk_take_bios(struct sl_pipeline *p, struct request *rq)
{
	struct bio *bio = READ_ONCE(rq->bio);
	struct sl_flight_ent *be;
	unsigned int n;
	u64 q = 0, bq;

	for (n = 0; bio && n < SL_BLK_WALK; n++, bio = READ_ONCE(bio->bi_next)) {
		be = sl_chain_get(p, (unsigned long)bio);
		if (!be)
			continue;
		bq = be->ts[SL_BP_Q];
		if (bq && (!q || (s64)(bq - q) < 0))
			q = bq;
		sl_chain_remove(p, be, SL_NO_LOSS);
	}
	return q;
}

/*
 * The request's entry (held), made at its first insert or issue from the
 * entries of its first bios (the earliest queue time wins; the bio entries
 * go).  A request without a followed bio (a flush, or queued before the
 * pipeline was enabled) gets an entry without Q.  NULL if filtered out or
 * the table is full.
 */
static struct sl_flight_ent *sl_blk_rq_ent(struct sl_pipeline *p,
					   struct request *rq, u64 now)
{
	u64 q = sl_blk_take_bios(p, rq);
	struct sl_flight_ent *e;
	u32 dev;

	if (!q) {
		/* no bio to take: the request's own entry, if it has one */
		e = sl_chain_get(p, (unsigned long)rq);
		if (e)
			return e;
		/*
		 * While sampling skips, a request whose bios are not followed
		 * is not either (a request without a bio, a flush, is)
		 */
		if (READ_ONCE(rq->bio) && sl_sample_skips(p))
			return NULL;
	}
	/*
	 * A new request, or one with bios that a reused pointer's old entry
	 * would shadow: the start below reinitialises that.
	 */
	dev = sl_blk_rq_dev(rq);
	if (!q && !sl_blk_dev_ok(p, dev)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return NULL;
	}
	/* (re)starts the chain: an old entry is reinitialised */
	e = sl_chain_start(p, (unsigned long)rq, SL_BP_Q, now);
	if (!e)
		return NULL;
	e->ts[SL_BP_Q] = q;
	e->aux[0] = dev;
	return e;
}

/* insert and issue: the row's point is I or D */
static __always_inline int sl_blk_rq_point(struct sl_ev *ev,
					   struct sl_flight_ent *unused)
{
	struct sl_flight_ent *e;

	e = sl_blk_rq_ent(ev->p, sl_ev_ptr(ev, 0), sl_ev_now(ev));
	if (!e)
		return SL_DONE;
	sl_hook_hit(ev->hk);
	e->ts[ev->hk->pt] = sl_ev_now(ev);
	sl_chain_put(e);
	return SL_DONE;
}

/* Requeued: it will be inserted and issued again; the last issue counts. */
static int sl_blk_rq_requeue(struct sl_ev *ev, struct sl_flight_ent *e)
{
	sl_hook_hit(ev->hk);
	e->ts[SL_BP_I] = 0;
	e->ts[SL_BP_D] = 0;
	return SL_KEEP;
}

/*
 * A complete of a request never inserted nor issued itself, or of one not
 * followed (out of line: rare).
 */
static noinline void sl_blk_rq_complete_other(struct sl_pipeline *p,
					      struct sl_hook *hk,
					      struct request *rq,
					      unsigned int nr_bytes, u64 now)
{
	u64 ts[SL_BP_C + 1] = { 0 };

	/*
	 * Never inserted nor issued itself: a request the flush machinery
	 * ended after running a flush for it (an empty PREFLUSH).  Its bio
	 * was queued: that is its Q2C.
	 */
	ts[SL_BP_Q] = sl_blk_take_bios(p, rq);
	if (ts[SL_BP_Q]) {
		sl_hook_hit(hk);
		ts[SL_BP_C] = now;
		sl_blk_record(p, ts, sl_blk_rq_dev(rq), sl_compat_rq_disk(rq));
		if (unlikely(sl_events_thresh(p)))
			sl_blk_event(p, ts, sl_blk_rq_dev(rq), rq, NULL);
		return;
	}
	/*
	 * A request of a flush sequence is ended twice: at its data's
	 * completion and, with nothing left (0 bytes), at the sequence's end.
	 * Anything else was issued before the pipeline was enabled, or not
	 * followed while sampling skips.
	 */
	if (!(nr_bytes == 0 && READ_ONCE(rq->bio)) && !sl_sample_skips(p) &&
	    sl_blk_dev_ok(p, sl_blk_rq_dev(rq)))
		sl_loss(p, SL_LOSS_UNMATCHED);
}

static __always_inline int sl_blk_rq_complete(struct sl_ev *ev,
					      struct sl_flight_ent *unused)
{
	struct request *rq = sl_ev_ptr(ev, 0);
	unsigned int nr_bytes = (unsigned int)sl_ev_arg(ev, 1);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;

	/* a partial completion: the request goes on */
	if (nr_bytes < blk_rq_bytes(rq))
		return SL_DONE;
	e = sl_chain_get(p, (unsigned long)rq);
	if (e) {
		sl_hook_hit(ev->hk);
		e->ts[SL_BP_C] = sl_ev_now(ev);
		sl_blk_record(p, e->ts, (u32)e->aux[0], sl_compat_rq_disk(rq));
		if (unlikely(sl_events_thresh(p)))
			sl_blk_event(p, e->ts, (u32)e->aux[0], rq, NULL);
		sl_chain_remove(p, e, SL_NO_LOSS);
		return SL_DONE;
	}
	sl_blk_rq_complete_other(p, ev->hk, rq, nr_bytes, sl_ev_now(ev));
	return SL_DONE;
}

/*
 * The rows with a post of their own on the fast path call it directly
 * (SL_TP_DEFINE_POST); the others go through the dispatcher.
 */
SL_TP_DEFINE_POST(block_bio_queue, sl_blk_bio_queue,
		  (SL_COMPAT_BIO_TP_ARGS(bio)), (unsigned long)bio)
SL_TP_DEFINE(block_split, (SL_COMPAT_SPLIT_TP_ARGS(bio)), (unsigned long)bio)
SL_TP_DEFINE(block_bio_backmerge, (SL_COMPAT_MERGE_TP_ARGS(bio)),
	     (unsigned long)bio)
SL_TP_DEFINE(block_bio_frontmerge, (SL_COMPAT_MERGE_TP_ARGS(bio)),
	     (unsigned long)bio)
SL_TP_DEFINE(block_bio_complete, (struct request_queue *q, struct bio *bio),
	     (unsigned long)bio)
SL_TP_DEFINE_POST(block_rq_insert, sl_blk_rq_point, (struct request *rq),
		  (unsigned long)rq)
SL_TP_DEFINE_POST(block_rq_issue, sl_blk_rq_point, (struct request *rq),
		  (unsigned long)rq)
SL_TP_DEFINE(block_rq_requeue, (struct request *rq), (unsigned long)rq)
SL_TP_DEFINE(block_rq_merge, (struct request *rq), (unsigned long)rq)
SL_TP_DEFINE_POST(block_rq_complete, sl_blk_rq_complete,
		  (struct request *rq, SL_COMPAT_RQ_COMPLETE_ERR error,
		   unsigned int nr_bytes),
		  (unsigned long)rq, (unsigned long)nr_bytes)

#define SL_BLK_CANDS(tp) \
	static const struct sl_cand sl_c_##tp[] = { SL_TPD(tp) }
#define SL_BLK_CANDS_POST(tp, post) \
	static const struct sl_cand sl_c_##tp[] = { SL_TPD_POST(tp, post) }

SL_BLK_CANDS_POST(block_bio_queue, sl_blk_bio_queue);
SL_BLK_CANDS(block_split);
SL_BLK_CANDS(block_bio_backmerge);
SL_BLK_CANDS(block_bio_frontmerge);
SL_BLK_CANDS(block_bio_complete);
SL_BLK_CANDS_POST(block_rq_insert, sl_blk_rq_point);
SL_BLK_CANDS_POST(block_rq_issue, sl_blk_rq_point);
SL_BLK_CANDS(block_rq_requeue);
SL_BLK_CANDS(block_rq_merge);
SL_BLK_CANDS_POST(block_rq_complete, sl_blk_rq_complete);

#define NOHIT	.flags = SL_PF_NOHIT
#define OPT	.optional = true

/*
 * The table.  Columns: point name, candidates, action, timestamp slot,
 * object argument; then callbacks.  FORGET rows with a post callback act
 * only on followed objects (the post runs with the chain held).
 */
static struct sl_hook sl_blk_hooks[] = {
	SL_POINT("bio_queue", sl_c_block_bio_queue, SL_ACT_NONE, SL_BP_Q, 0,
		 NOHIT, .post = sl_blk_bio_queue),
	SL_POINT("bio_split", sl_c_block_split, SL_ACT_NONE, SL_BP_Q, 0, NOHIT,
		 OPT, .post = sl_blk_split),
	SL_POINT("bio_backmerge", sl_c_block_bio_backmerge, SL_ACT_FORGET,
		 SL_BP_Q, 0, NOHIT, OPT, .post = sl_blk_merged),
	SL_POINT("bio_frontmerge", sl_c_block_bio_frontmerge, SL_ACT_FORGET,
		 SL_BP_Q, 0, NOHIT, OPT, .post = sl_blk_merged),
	SL_POINT("bio_complete", sl_c_block_bio_complete, SL_ACT_FORGET,
		 SL_BP_C, 0, NOHIT, OPT, .post = sl_blk_bio_complete),
	SL_POINT("rq_insert", sl_c_block_rq_insert, SL_ACT_NONE, SL_BP_I, 0,
		 NOHIT, .post = sl_blk_rq_point),
	SL_POINT("rq_issue", sl_c_block_rq_issue, SL_ACT_NONE, SL_BP_D, 0,
		 NOHIT, .post = sl_blk_rq_point),
	SL_POINT("rq_requeue", sl_c_block_rq_requeue, SL_ACT_HOLD, SL_BP_I, 0,
		 NOHIT, OPT, .post = sl_blk_rq_requeue),
	SL_POINT("rq_merge", sl_c_block_rq_merge, SL_ACT_FORGET, SL_BP_Q, 0,
		 NOHIT, OPT, .post = sl_blk_merged),
	SL_POINT("rq_complete", sl_c_block_rq_complete, SL_ACT_NONE, SL_BP_C,
		 0, NOHIT, .post = sl_blk_rq_complete),
};

#undef NOHIT
#undef OPT

static int sl_blk_setup(struct sl_pipeline *p)
{
	static const char *suffix[SL_BS_NR], *from[SL_BS_NR], *to[SL_BS_NR];
	static char names[SL_BS_NR][8];
	unsigned int s;

	for (s = 0; s < SL_BS_NR; s++) {
		struct sl_stage *st = &sl_blk_stages[s];

		st->from = sl_blk_stage_defs[s].from;
		st->to = sl_blk_stage_defs[s].to;
		st->from_pt = sl_blk_stage_defs[s].from_pt;
		st->to_pt = sl_blk_stage_defs[s].to_pt;
		strscpy(st->name, sl_blk_stage_defs[s].name, sizeof(st->name));
		snprintf(names[s], sizeof(names[s]), ".%s",
			 sl_blk_stage_defs[s].name);
		suffix[s] = names[s];
		from[s] = st->from;
		to[s] = st->to;
	}
	/* per-disk slots are named when their disk shows up */
	sl_dim_init(&sl_blk_disks, sl_blk_stages, SL_BS_NR, SL_BS_NR, suffix,
		    from, to);
	return 0;
}

SL_PIPELINE(block) = {
	.name = "block",
	.desc = "block requests: Q2I, I2D, Q2D, D2C, Q2C, overall and per disk",
	.key = STACKLAT_KEY_REQUEST,
	.filter_caps = SL_F_DEV,
	.hooks = sl_blk_hooks,
	.nhooks = ARRAY_SIZE(sl_blk_hooks),
	.stages = sl_blk_stages,
	.nstages = SL_BLK_NSTAGES,
	.setup = sl_blk_setup,
	.own_events = true,
	.sampling = true,		/* a bio, at block_bio_queue */
};
