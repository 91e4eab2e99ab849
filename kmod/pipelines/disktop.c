// SPDX-License-Identifier: GPL-2.0
/*
 * disktop: disk bytes and operations per process and per disk - bcc's
 * biotop, stap's disktop - in the engine's keyed aggregation
 * (core/keyed.c), and the sizes of the bios read and written as two value
 * stages ("read", "write": log2 histograms of bytes).
 *
 * Points (the block layer's bio submission, and the scheduler's exit):
 *   bio_queue      block_bio_queue: a bio entering the block layer
 *                  (submit_bio_noacct, once per bio: a split's remainder
 *                  is not traced again, the front split off it is never
 *                  traced), counted in the row of (tgid, disk) with its
 *                  whole size, bio->bi_iter.bi_size, before any split.
 *   process_exit   sched_process_exit: when the last thread of a process
 *                  ended, its rows are noted to age out (keyed_linger_ms
 *                  after the next fold).
 *
 * Who a bio is counted for.  block_bio_queue runs in the context that
 * submits the bio, and the row is that task's process (current->tgid), as
 * the kernel attributes the I/O (the same task biotop sees creating the
 * request, and the one the kernel's own task I/O accounting charges):
 *   - direct I/O and reads that miss the page cache: the process;
 *   - readahead, synchronous and asynchronous: the process reading (the
 *     readahead is started from its read or page fault);
 *   - fsync, fdatasync, sync_file_range, O_SYNC and the last close of a
 *     block device: the process calling it writes its own dirty pages;
 *   - writeback of dirty pages by age or by the dirty thresholds, and most
 *     of sync(2): the flusher's kernel worker ("kworker/u4:1", its
 *     writeback work): the process that dirtied the pages is not known
 *     here (balance_dirty_pages() throttles it, it does not write);
 *   - a filesystem's journal: its thread (jbd2/DEV for ext4); swap and
 *     reclaim: kswapd, or the process in direct reclaim;
 *   - a stacked device (device mapper, md): the bio to the upper device
 *     is the submitter's, the bios the driver sends down are counted
 *     again on the lower disks, for whichever task submits them (the
 *     submitter again, or the driver's worker);
 *   - a bio submitted from interrupt context (a driver resubmitting from
 *     a completion) belongs to no process: tgid 0, named "[irq]".
 * The disk is the whole disk (its dev_t, major:minor, of the gendisk):
 * I/O to a partition counts on its disk, as in biotop; on 5.10 the bio no
 * longer names its partition at this tracepoint anyway.
 *
 * A row's values are plain per-CPU sums (keyed.h): operations (every bio,
 * the weight), bytes and operations read, written and discarded, flushes
 * (REQ_OP_FLUSH, and a write with no data asking for a cache flush), and
 * other operations (write-zeroes, zone commands: counted, no bytes).  The
 * comm is the process's (its group leader's), taken when a row is first
 * used in a CPU's buffer; the cgroup (v2 id) the submitter's at the row's
 * last bio (a process moved to another cgroup keeps its rows; 0 for
 * "[irq]"): the tool's --by cgroup folds rows by it.
 *
 * Filters: tgid, tid (the submitting task) and dev (a whole disk).  The
 * probe takes no lock, allocates nothing and sleeps nowhere; a bio the
 * table has no room for is counted by the keyed engine (full, busy).
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <net/netlink.h>
#include <trace/events/block.h>
#include <trace/events/sched.h>

#include "sl.h"

/* A row's values (keyed.h: value 0 is its weight, the operations). */
enum {
	DV_OPS,
	DV_RBYTES,
	DV_ROPS,
	DV_WBYTES,
	DV_WOPS,
	DV_DBYTES,
	DV_DOPS,
	DV_FOPS,
	DV_OOPS,
	DV_COMM,				/* 16 bytes */
	DV_CGROUP = DV_COMM + 2,		/* of the last bio's submitter */
	DV_NVALS
};

/* Value stages: the sizes of the bios read and written. */
enum { DS_READ, DS_WRITE };

static struct sl_stage sl_dk_stages[] = {
	[DS_READ] = SL_VALUE_STAGE("read", "bio_queue", "bio_queue",
				   STACKLAT_UNIT_BYTES),
	[DS_WRITE] = SL_VALUE_STAGE("write", "bio_queue", "bio_queue",
				    STACKLAT_UNIT_BYTES),
};

/* (tgid, disk) as a key, never 0 (a disk's dev_t is not); tgid its group */
static __always_inline u64 sl_dk_key(u32 tgid, u32 dev)
{
	return (u64)tgid << 32 | dev;
}

/* The process's name into a fresh row (no lock, no call: a probe). */
static __always_inline void sl_dk_comm(u64 *v, bool task)
{
	const struct task_struct *g;
	char *c = (char *)&v[DV_COMM];
	unsigned int i;

	if (!task) {
		memcpy(c, "[irq]", sizeof("[irq]"));
		return;
	}
	g = READ_ONCE(current->group_leader);
	for (i = 0; i < 15; i++)
		c[i] = READ_ONCE(g->comm[i]);
	c[15] = '\0';
}

/* block_bio_queue([q,] bio), before the table: nothing to follow */
static int sl_dk_bio(struct sl_ev *ev)
{
	struct sl_pipeline *p = ev->p;
	struct sl_keyed *t = sl_pipeline_keyed(p);
	struct bio *bio = sl_ev_ptr(ev, 0);
	struct gendisk *disk = sl_compat_bio_disk(bio);
	u32 want = READ_ONCE(sl_filter_of(p)->dev);
	bool task = in_task();
	u32 bytes = bio->bi_iter.bi_size;
	struct sl_keyed_buf *b;
	u32 dev, tgid;
	bool fresh;
	u64 *v;

	dev = disk ? (u32)disk_devt(disk) : 0;
	if (!sl_task_ok(p) || (want && want != dev)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return -1;
	}
	sl_hook_hit(ev->hk);
	if (!t || !dev)
		return -1;
	tgid = task ? (u32)current->tgid : 0;
	b = sl_keyed_begin(t);
	if (!b)
		return -1;
	v = sl_keyed_row(t, b, sl_dk_key(tgid, dev), &fresh);
	if (v) {
		if (fresh)
			sl_dk_comm(v, task);
		/* an interrupt's bio: not the cgroup of the task it broke into */
		v[DV_CGROUP] = task ? sl_task_cgroup_id(current) : 0;
		v[DV_OPS]++;
		switch (bio_op(bio)) {
		case REQ_OP_READ:
			v[DV_RBYTES] += bytes;
			v[DV_ROPS]++;
			break;
		case REQ_OP_WRITE:
			if (!bytes && (bio->bi_opf & REQ_PREFLUSH)) {
				v[DV_FOPS]++;
				break;
			}
			v[DV_WBYTES] += bytes;
			v[DV_WOPS]++;
			break;
		case REQ_OP_FLUSH:
			v[DV_FOPS]++;
			break;
		case REQ_OP_DISCARD:
		case REQ_OP_SECURE_ERASE:
			v[DV_DBYTES] += bytes;
			v[DV_DOPS]++;
			break;
		default:
			v[DV_OOPS]++;
			break;
		}
	}
	sl_keyed_end(b);
	if (bytes && bio_op(bio) == REQ_OP_READ)
		sl_record_value(p, DS_READ, bytes);
	else if (bytes && bio_op(bio) == REQ_OP_WRITE)
		sl_record_value(p, DS_WRITE, bytes);
	return -1;
}

/* sched_process_exit(p[, group_dead]): the last thread notes its end */
static int sl_dk_pexit(struct sl_ev *ev)
{
	struct sl_keyed *t = sl_pipeline_keyed(ev->p);
	struct sl_keyed_buf *b;

	if (!t || !sl_ev_arg(ev, 1))
		return -1;
	b = sl_keyed_begin(t);
	if (b) {
		sl_keyed_retire(b, (u32)current->tgid);
		sl_keyed_end(b);
	}
	return -1;
}

SL_TP_DEFINE(block_bio_queue, (SL_COMPAT_BIO_TP_ARGS(bio)), (unsigned long)bio)
SL_TP_DEFINE(sched_process_exit, (SL_COMPAT_PROCESS_EXIT_ARGS),
	     (unsigned long)p, (unsigned long)sl_compat_group_dead(p))

static const struct sl_cand sl_c_dk_bio[] = { SL_TPD(block_bio_queue) };
static const struct sl_cand sl_c_dk_pexit[] = { SL_TPD(sched_process_exit) };

/* Everything happens in the pre callbacks: no chain is ever followed. */
static struct sl_hook sl_dk_hooks[] = {
	SL_POINT("bio_queue", sl_c_dk_bio, SL_ACT_NONE, 0, 0,
		 .flags = SL_PF_NOHIT, .pre = sl_dk_bio),
	SL_POINT("process_exit", sl_c_dk_pexit, SL_ACT_NONE, 0, SL_OBJ_TASK,
		 .pre = sl_dk_pexit),
};

/* ---- folding and reading (process context) ---------------------------- */

static void sl_dk_merge(u64 *dst, const u64 *src, unsigned int nvals,
			bool fresh)
{
	unsigned int i;

	for (i = 0; i < DV_COMM; i++)
		dst[i] += src[i];
	/* the newest name (a process that ran exec is named anew) */
	if (src[DV_COMM])
		memcpy(&dst[DV_COMM], &src[DV_COMM], 16);
	/* the newest cgroup: a CPU's buffer that counted a bio has one */
	if (src[DV_OPS])
		dst[DV_CGROUP] = src[DV_CGROUP];
}

static const struct sl_keyed_ops sl_dk_keyed_ops = {
	.merge = sl_dk_merge,
	.alive = sl_keyed_tgid_alive,
};

static void sl_dk_comm_of(char *comm, const u64 *v)
{
	memcpy(comm, &v[DV_COMM], 16);
	comm[15] = '\0';
}

/*
 * The debugfs table's rows: the disk as major:minor (the tool names it);
 * a name's blanks and unprintable bytes as '?', so that columns stay
 * columns.
 */
static void sl_dk_show(struct seq_file *m, u64 key, const u64 *v)
{
	char comm[16], dev[24];

	if (!v) {
		seq_printf(m, "%8s %-15s %9s %12s %8s %12s %8s %10s %6s %6s %6s %10s\n",
			   "tgid", "comm", "dev", "read_bytes", "reads",
			   "write_bytes", "writes", "disc_bytes", "discs",
			   "flush", "other", "cgroup");
		return;
	}
	sl_keyed_show_comm(comm, &v[DV_COMM]);
	snprintf(dev, sizeof(dev), "%u:%u", MAJOR((u32)key), MINOR((u32)key));
	seq_printf(m, "%8u %-15s %9s %12llu %8llu %12llu %8llu %10llu %6llu %6llu %6llu %10llu\n",
		   sl_keyed_group(key), comm, dev, v[DV_RBYTES], v[DV_ROPS],
		   v[DV_WBYTES], v[DV_WOPS], v[DV_DBYTES], v[DV_DOPS],
		   v[DV_FOPS], v[DV_OOPS], v[DV_CGROUP]);
}

static int sl_dk_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, STACKLAT_DK_A_PAD);
}

/* One row for GET_KEYED (inside its STACKLAT_A_KEYED nest). */
static int sl_dk_put(struct sk_buff *skb, u64 key, const u64 *v)
{
	char comm[16];

	sl_dk_comm_of(comm, v);
	if (nla_put_u32(skb, STACKLAT_DK_A_TGID, sl_keyed_group(key)) ||
	    nla_put_string(skb, STACKLAT_DK_A_COMM, comm) ||
	    nla_put_u32(skb, STACKLAT_DK_A_DEV, (u32)key) ||
	    sl_dk_put_u64(skb, STACKLAT_DK_A_OPS, v[DV_OPS]) ||
	    sl_dk_put_u64(skb, STACKLAT_DK_A_READ_BYTES, v[DV_RBYTES]) ||
	    sl_dk_put_u64(skb, STACKLAT_DK_A_READ_OPS, v[DV_ROPS]) ||
	    sl_dk_put_u64(skb, STACKLAT_DK_A_WRITE_BYTES, v[DV_WBYTES]) ||
	    sl_dk_put_u64(skb, STACKLAT_DK_A_WRITE_OPS, v[DV_WOPS]) ||
	    sl_dk_put_u64(skb, STACKLAT_DK_A_DISCARD_BYTES, v[DV_DBYTES]) ||
	    sl_dk_put_u64(skb, STACKLAT_DK_A_DISCARD_OPS, v[DV_DOPS]) ||
	    sl_dk_put_u64(skb, STACKLAT_DK_A_FLUSH_OPS, v[DV_FOPS]) ||
	    sl_dk_put_u64(skb, STACKLAT_DK_A_OTHER_OPS, v[DV_OOPS]) ||
	    sl_dk_put_u64(skb, STACKLAT_DK_A_CGROUP_ID, v[DV_CGROUP]))
		return -EMSGSIZE;
	return 0;
}

/* ---- life ---------------------------------------------------------------- */

#define SL_DK_FOLD_MS	1000

/* The rows come with the first enable; disabling folds the last. */
static int sl_dk_on_enable(struct sl_pipeline *p)
{
	return sl_pipeline_keyed_enable(p, DV_NVALS, &sl_dk_keyed_ops,
					SL_DK_FOLD_MS);
}

SL_PIPELINE(disktop) = {
	.name = "disktop",
	.desc = "disk bytes and operations read and written per process and disk, bio sizes",
	.key = STACKLAT_KEY_NONE,
	.filter_caps = SL_F_TGID | SL_F_TID | SL_F_DEV,
	.hooks = sl_dk_hooks,
	.nhooks = ARRAY_SIZE(sl_dk_hooks),
	.stages = sl_dk_stages,
	.nstages = ARRAY_SIZE(sl_dk_stages),
	.on_enable = sl_dk_on_enable,
	.on_disable = sl_pipeline_keyed_disable,
	.teardown = sl_pipeline_keyed_teardown,
	.keyed_show = sl_dk_show,
	.keyed_put = sl_dk_put,
};
