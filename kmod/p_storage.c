// SPDX-License-Identifier: GPL-2.0
/*
 * Storage pipelines.
 *
 * "storage": for read, write, open and fsync, the time in each layer of a
 * call - the syscall, VFS and the filesystem - as inclusive time and, for
 * the syscall and VFS layers, self time (the layer minus the time its call
 * spent in the layer below).  Every layer is a kretprobe whose instance data
 * holds the entry time, so nested calls pair up by themselves; a per-task
 * record in the in-flight table accumulates, per layer, the inclusive time
 * of completed calls one layer down, which is what self time subtracts.
 * Only calls that reached a filesystem hook (ext4, xfs, btrfs) are recorded:
 * reads of sockets, pipes, ttys and procfs never show up as "storage".
 * The filesystem's inclusive time includes waiting for the block layer; the
 * "block" pipeline splits that part.
 *
 * "block": per request, the stages blktrace's btt made standard, on the
 * stable block tracepoints: queue (block_bio_queue, per bio) -> insert into
 * the I/O scheduler (block_rq_insert) -> issue to the driver
 * (block_rq_issue) -> complete (block_rq_complete).  Q2I, I2D, Q2D, D2C and
 * Q2C for all disks together and for each of the first SL_BLK_DISKS disks
 * seen.  A request issued directly, without passing a scheduler, has no
 * insert: its Q2I and I2D are not measured, its Q2D, D2C and Q2C are.
 * Bios merged into a request count from the earliest bio's queue time.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/bio.h>
#include <linux/kdev_t.h>

#include "sl.h"

/* ---- storage ----------------------------------------------------------- */

enum { SL_L_SYSCALL, SL_L_VFS, SL_L_FS, SL_L_NR };
#define SL_ST_PER_OP	5	/* syscall, syscall.self, vfs, vfs.self, fs */
#define SL_ST_NOPS	4	/* read, write, open, fsync */

/*
 * The per-task record: ts[1 + L] accumulates the inclusive time of finished
 * calls at layer L (ts[4] for the layer below the filesystem, unused).
 */
#define SL_REC_FS_SEEN	1

struct sl_st_data {
	u64 start;
	u64 saved;
	u32 own;
};

struct sl_st_hook_info {
	u8 layer;
	u8 op;
};

static int sl_st_entry(struct kretprobe_instance *ri, struct pt_regs *regs);
static int sl_st_ret(struct kretprobe_instance *ri, struct pt_regs *regs);

#define SL_ST_K(sym) SL_KRP(sym, sl_st_entry, sl_st_ret, sizeof(struct sl_st_data))
#define SL_ST_HOOK(n, ...) {						\
	.name = n,							\
	.cands = (const struct sl_cand[]){ __VA_ARGS__ },		\
	.ncands = sizeof((const struct sl_cand[]){ __VA_ARGS__ }) /	\
		  sizeof(struct sl_cand),				\
}

static struct sl_hook sl_st_hooks[] = {
	SL_ST_HOOK("sys_read", SL_ST_K("__x64_sys_read"), SL_ST_K("ksys_read")),
	SL_ST_HOOK("sys_pread64", SL_ST_K("__x64_sys_pread64"), SL_ST_K("ksys_pread64")),
	SL_ST_HOOK("sys_readv", SL_ST_K("__x64_sys_readv")),
	SL_ST_HOOK("sys_preadv", SL_ST_K("__x64_sys_preadv")),
	SL_ST_HOOK("sys_write", SL_ST_K("__x64_sys_write"), SL_ST_K("ksys_write")),
	SL_ST_HOOK("sys_pwrite64", SL_ST_K("__x64_sys_pwrite64"), SL_ST_K("ksys_pwrite64")),
	SL_ST_HOOK("sys_writev", SL_ST_K("__x64_sys_writev")),
	SL_ST_HOOK("sys_pwritev", SL_ST_K("__x64_sys_pwritev")),
	SL_ST_HOOK("sys_openat", SL_ST_K("__x64_sys_openat")),
	SL_ST_HOOK("sys_open", SL_ST_K("__x64_sys_open")),
	SL_ST_HOOK("sys_openat2", SL_ST_K("__x64_sys_openat2")),
	SL_ST_HOOK("sys_fsync", SL_ST_K("__x64_sys_fsync")),
	SL_ST_HOOK("sys_fdatasync", SL_ST_K("__x64_sys_fdatasync")),
	SL_ST_HOOK("vfs_read", SL_ST_K("vfs_read")),
	SL_ST_HOOK("vfs_readv", SL_ST_K("vfs_readv"), SL_ST_K("vfs_iter_read")),
	SL_ST_HOOK("vfs_write", SL_ST_K("vfs_write")),
	SL_ST_HOOK("vfs_writev", SL_ST_K("vfs_writev"), SL_ST_K("vfs_iter_write")),
	SL_ST_HOOK("vfs_open", SL_ST_K("vfs_open")),
	SL_ST_HOOK("vfs_fsync_range", SL_ST_K("vfs_fsync_range")),
	SL_ST_HOOK("ext4_read", SL_ST_K("ext4_file_read_iter")),
	SL_ST_HOOK("ext4_write", SL_ST_K("ext4_file_write_iter")),
	SL_ST_HOOK("ext4_open", SL_ST_K("ext4_file_open")),
	SL_ST_HOOK("ext4_fsync", SL_ST_K("ext4_sync_file")),
	SL_ST_HOOK("xfs_read", SL_ST_K("xfs_file_read_iter")),
	SL_ST_HOOK("xfs_write", SL_ST_K("xfs_file_write_iter")),
	SL_ST_HOOK("xfs_open", SL_ST_K("xfs_file_open")),
	SL_ST_HOOK("xfs_fsync", SL_ST_K("xfs_file_fsync")),
	SL_ST_HOOK("btrfs_read", SL_ST_K("btrfs_file_read_iter")),
	SL_ST_HOOK("btrfs_write", SL_ST_K("btrfs_file_write_iter")),
	SL_ST_HOOK("btrfs_open", SL_ST_K("btrfs_file_open")),
	SL_ST_HOOK("btrfs_fsync", SL_ST_K("btrfs_sync_file")),
};

#define R STACKLAT_OP_READ
#define W STACKLAT_OP_WRITE
#define O STACKLAT_OP_OPEN
#define F STACKLAT_OP_FSYNC
/* the layer and operation of each hook above, in the same order */
static const struct sl_st_hook_info sl_st_info[ARRAY_SIZE(sl_st_hooks)] = {
	{ SL_L_SYSCALL, R }, { SL_L_SYSCALL, R }, { SL_L_SYSCALL, R },
	{ SL_L_SYSCALL, R }, { SL_L_SYSCALL, W }, { SL_L_SYSCALL, W },
	{ SL_L_SYSCALL, W }, { SL_L_SYSCALL, W }, { SL_L_SYSCALL, O },
	{ SL_L_SYSCALL, O }, { SL_L_SYSCALL, O }, { SL_L_SYSCALL, F },
	{ SL_L_SYSCALL, F },
	{ SL_L_VFS, R }, { SL_L_VFS, R }, { SL_L_VFS, W }, { SL_L_VFS, W },
	{ SL_L_VFS, O }, { SL_L_VFS, F },
	{ SL_L_FS, R }, { SL_L_FS, W }, { SL_L_FS, O }, { SL_L_FS, F },
	{ SL_L_FS, R }, { SL_L_FS, W }, { SL_L_FS, O }, { SL_L_FS, F },
	{ SL_L_FS, R }, { SL_L_FS, W }, { SL_L_FS, O }, { SL_L_FS, F },
};
#undef R
#undef W
#undef O
#undef F

static struct sl_stage sl_st_stages[SL_ST_NOPS * SL_ST_PER_OP];

static unsigned int sl_st_stage(u8 op, unsigned int which)
{
	return (op - STACKLAT_OP_READ) * SL_ST_PER_OP + which;
}

static int sl_st_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_pipeline *p = hk->pipe;
	const struct sl_st_hook_info *in = &sl_st_info[hk - sl_st_hooks];
	struct sl_st_data *d = (struct sl_st_data *)ri->data;
	struct sl_flight_ent *e;
	u32 opf;
	u64 key, now;
	bool stale;

	if (!sl_on(p))
		return 1;
	opf = READ_ONCE(p->filter.op);
	if (!sl_task_ok(p) || (opf && opf != in->op)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return 1;
	}
	now = sl_now();
	key = sl_flight_key(p->id, current->pid);
	e = sl_flight_lookup(key);
	d->own = 0;
	if (!e || in->layer == SL_L_SYSCALL) {
		/* a syscall starts a record; so does VFS or fs work that
		 * came without one (kernel threads, io_uring, nfsd)
		 */
		if (!e) {
			e = sl_flight_insert(key, now, &stale);
			if (!e) {
				sl_loss(p, SL_LOSS_TABLE_FULL);
				return 1;
			}
			if (stale)
				sl_loss(p, SL_LOSS_STALE);
		} else {
			e->ts[1] = 0;
			e->ts[2] = 0;
			e->ts[3] = 0;
			e->ts[4] = 0;
			e->aux[0] = 0;
		}
		d->own = 1;
	}
	if (in->layer == SL_L_FS)
		e->aux[0] |= SL_REC_FS_SEEN;
	/* children of this call accumulate from zero; a sibling's total
	 * is restored at return
	 */
	d->start = now;
	d->saved = e->ts[2 + in->layer];
	e->ts[2 + in->layer] = 0;
	return 0;
}

static int sl_st_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_pipeline *p = hk->pipe;
	const struct sl_st_hook_info *in = &sl_st_info[hk - sl_st_hooks];
	struct sl_st_data *d = (struct sl_st_data *)ri->data;
	u64 key = sl_flight_key(p->id, current->pid);
	struct sl_flight_ent *e = sl_flight_lookup(key);
	u64 now = sl_now();
	s64 incl = (s64)(now - d->start);
	u64 child;

	sl_hook_hit(hk);
	if (!e) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return 0;
	}
	if (e->aux[0] & SL_REC_FS_SEEN) {
		switch (in->layer) {
		case SL_L_FS:
			sl_record(p, sl_st_stage(in->op, 4), incl);
			break;
		default:
			child = e->ts[2 + in->layer];
			sl_record(p, sl_st_stage(in->op, 2 * in->layer), incl);
			sl_record(p, sl_st_stage(in->op, 2 * in->layer + 1),
				  incl - (s64)child);
			break;
		}
	}
	e->ts[2 + in->layer] = d->saved;
	if (incl > 0)
		e->ts[1 + in->layer] += incl;
	if (d->own)
		sl_flight_remove(e, key);
	return 0;
}

static int sl_storage_setup(struct sl_pipeline *p)
{
	static const char * const ops[SL_ST_NOPS] = { "read", "write", "open", "fsync" };
	static const char * const what[SL_ST_PER_OP] = {
		"syscall", "syscall.self", "vfs", "vfs.self", "fs" };
	static const char * const from[SL_ST_PER_OP] = {
		"sys_*", "sys_*", "vfs_*", "vfs_*", "<fs>_*" };
	unsigned int o, w;

	for (o = 0; o < SL_ST_NOPS; o++)
		for (w = 0; w < SL_ST_PER_OP; w++) {
			struct sl_stage *s = &sl_st_stages[o * SL_ST_PER_OP + w];

			snprintf(s->name, sizeof(s->name), "%s.%s", ops[o], what[w]);
			s->from = from[w];
			s->to = from[w];
		}
	return 0;
}

struct sl_pipeline sl_pipe_storage = {
	.name = "storage",
	.desc = "read/write/open/fsync per layer: syscall, VFS, filesystem (inclusive and self)",
	.key = STACKLAT_KEY_TASK,
	.filter_caps = SL_F_TGID | SL_F_TID | SL_F_OP,
	.hooks = sl_st_hooks,
	.nhooks = ARRAY_SIZE(sl_st_hooks),
	.stages = sl_st_stages,
	.nstages = ARRAY_SIZE(sl_st_stages),
	.setup = sl_storage_setup,
};

/* ---- block ------------------------------------------------------------- */

enum { SL_B_Q, SL_B_I, SL_B_D, SL_B_C };
enum { SL_BS_Q2I, SL_BS_I2D, SL_BS_Q2D, SL_BS_D2C, SL_BS_Q2C, SL_BS_NR };
#define SL_BLK_DISKS	8
#define SL_BLK_BIOS	32	/* bios of one request looked at */

static const u8 sl_bs_pts[SL_BS_NR][2] = {
	[SL_BS_Q2I] = { SL_B_Q, SL_B_I },
	[SL_BS_I2D] = { SL_B_I, SL_B_D },
	[SL_BS_Q2D] = { SL_B_Q, SL_B_D },
	[SL_BS_D2C] = { SL_B_D, SL_B_C },
	[SL_BS_Q2C] = { SL_B_Q, SL_B_C },
};

static const char * const sl_bs_names[SL_BS_NR] = {
	"Q2I", "I2D", "Q2D", "D2C", "Q2C" };
static const char * const sl_bpt_names[] = {
	"block_bio_queue", "block_rq_insert", "block_rq_issue", "block_rq_complete" };

/* stage slot 0 is all disks together, slot 1 + i is disk i */
static struct sl_stage sl_blk_stages[(1 + SL_BLK_DISKS) * SL_BS_NR];
static u32 sl_blk_devs[SL_BLK_DISKS];

/* The disk slot of @disk (1-based), claiming one on first sight; 0 if full. */
static unsigned int sl_blk_slot(struct gendisk *disk)
{
	u32 dev = disk_devt(disk);
	unsigned int i, j, k;

	for (i = 0; i < SL_BLK_DISKS; i++) {
		u32 cur = READ_ONCE(sl_blk_devs[i]);

		if (cur == dev)
			return i + 1;
		if (!cur && cmpxchg(&sl_blk_devs[i], 0, dev) == 0) {
			/* name the stages; a byte loop: nothing probeable here */
			for (j = 0; j < SL_BS_NR; j++) {
				char *n = sl_blk_stages[(1 + i) * SL_BS_NR + j].name;
				const char *a = disk->disk_name, *b = sl_bs_names[j];

				for (k = 0; *a && k < STACKLAT_NAME_MAX - 6; k++)
					n[k] = *a++;
				n[k++] = '.';
				while (*b && k < STACKLAT_NAME_MAX - 1)
					n[k++] = *b++;
				n[k] = '\0';
			}
			return i + 1;
		}
	}
	return 0;
}

static bool sl_blk_dev_ok(struct sl_pipeline *p, struct gendisk *disk)
{
	u32 want = READ_ONCE(p->filter.dev);

	return !want || (disk && disk_devt(disk) == want);
}

static void sl_blk_bio_queue(void *data, SL_COMPAT_BIO_TP_ARGS(bio))
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	if (!sl_blk_dev_ok(p, sl_compat_bio_disk(bio))) {
		sl_loss(p, SL_LOSS_FILTERED);
		return;
	}
	sl_chain_start(p, (unsigned long)bio, SL_B_Q, sl_now());
}

/* Take the earliest queue time of @rq's bios into @e and forget the bios. */
static void sl_blk_pull_bios(struct sl_pipeline *p, struct request *rq,
			     struct sl_flight_ent *e)
{
	struct bio *bio = rq->bio;
	unsigned int n = 0;

	for (; bio && n < SL_BLK_BIOS; bio = bio->bi_next, n++) {
		u64 key = sl_flight_key(p->id, (unsigned long)bio);
		struct sl_flight_ent *b = sl_flight_lookup(key);
		u64 q;

		if (!b)
			continue;
		q = b->ts[SL_B_Q];
		if (q && (!e->ts[SL_B_Q] || q < e->ts[SL_B_Q]))
			e->ts[SL_B_Q] = q;
		sl_flight_remove(b, key);
	}
}

static struct sl_flight_ent *sl_blk_rq(struct sl_pipeline *p, struct request *rq,
				       unsigned int pt, u64 now)
{
	struct gendisk *disk = sl_compat_rq_disk(rq);
	struct sl_flight_ent *e;

	if (!disk || !sl_blk_dev_ok(p, disk)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return NULL;
	}
	e = sl_chain_mark(p, (unsigned long)rq, pt, now);
	if (!e) {
		e = sl_chain_start(p, (unsigned long)rq, pt, now);
		if (!e)
			return NULL;
		e->aux[0] = sl_blk_slot(disk);
	}
	if (!e->ts[SL_B_Q])
		sl_blk_pull_bios(p, rq, e);
	return e;
}

static void sl_blk_rq_insert(void *data, struct request *rq)
{
	struct sl_hook *hk = data;

	if (!sl_on(hk->pipe))
		return;
	sl_hook_hit(hk);
	sl_blk_rq(hk->pipe, rq, SL_B_I, sl_now());
}

static void sl_blk_rq_issue(void *data, struct request *rq)
{
	struct sl_hook *hk = data;

	if (!sl_on(hk->pipe))
		return;
	sl_hook_hit(hk);
	sl_blk_rq(hk->pipe, rq, SL_B_D, sl_now());
}

static void sl_blk_rq_complete(void *data, struct request *rq,
			       SL_COMPAT_RQ_COMPLETE_ERR error,
			       unsigned int nr_bytes)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	u64 key = sl_flight_key(p->id, (unsigned long)rq);
	struct sl_flight_ent *e;
	unsigned int i, slot;
	u64 a, b;

	if (!sl_on(p))
		return;
	sl_hook_hit(hk);
	e = sl_flight_lookup(key);
	if (!e) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return;
	}
	e->ts[SL_B_C] = sl_now();
	sl_blk_pull_bios(p, rq, e);
	slot = e->aux[0];
	for (i = 0; i < SL_BS_NR; i++) {
		a = e->ts[sl_bs_pts[i][0]];
		b = e->ts[sl_bs_pts[i][1]];
		if (!a || !b)
			continue;
		sl_record(p, i, (s64)(b - a));
		if (slot)
			sl_record(p, slot * SL_BS_NR + i, (s64)(b - a));
	}
	sl_flight_remove(e, key);
}

static struct sl_hook sl_blk_hooks[] = {
	{ .name = "queue", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("block_bio_queue", sl_blk_bio_queue) } },
	{ .name = "insert", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("block_rq_insert", sl_blk_rq_insert) } },
	{ .name = "issue", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("block_rq_issue", sl_blk_rq_issue) } },
	{ .name = "complete", .ncands = 1, .cands = (const struct sl_cand[]){
		SL_TP("block_rq_complete", sl_blk_rq_complete) } },
};

static int sl_block_setup(struct sl_pipeline *p)
{
	unsigned int i;

	for (i = 0; i < SL_BS_NR; i++) {
		struct sl_stage *s = &sl_blk_stages[i];

		strscpy(s->name, sl_bs_names[i], sizeof(s->name));
		s->from = sl_bpt_names[sl_bs_pts[i][0]];
		s->to = sl_bpt_names[sl_bs_pts[i][1]];
	}
	for (i = SL_BS_NR; i < ARRAY_SIZE(sl_blk_stages); i++) {
		sl_blk_stages[i].from = sl_bpt_names[sl_bs_pts[i % SL_BS_NR][0]];
		sl_blk_stages[i].to = sl_bpt_names[sl_bs_pts[i % SL_BS_NR][1]];
	}
	return 0;
}

struct sl_pipeline sl_pipe_block = {
	.name = "block",
	.desc = "block requests: Q2I, I2D, Q2D, D2C, Q2C, all disks and per disk",
	.key = STACKLAT_KEY_REQUEST,
	.filter_caps = SL_F_DEV,
	.hooks = sl_blk_hooks,
	.nhooks = ARRAY_SIZE(sl_blk_hooks),
	.stages = sl_blk_stages,
	.nstages = ARRAY_SIZE(sl_blk_stages),
	.setup = sl_block_setup,
};
