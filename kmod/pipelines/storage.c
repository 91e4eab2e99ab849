// SPDX-License-Identifier: GPL-2.0
/*
 * Storage pipelines.
 *
 * "storage" follows a task through the layers of one operation (read,
 * write, open, fsync): the system call, the VFS, the filesystem, and the
 * I/O waits below them.  Every layer is a kretprobe; the frames of the
 * calls a task has open live in its in-flight entry (keyed by tid) as a
 * small stack, so nested calls pair up and each layer gets both its
 * inclusive time and its self time: the inclusive time minus the inclusive
 * time of the measured calls directly inside it.
 *
 *   syscall  __x64_sys_read ...          read.syscall   read.syscall.self
 *   vfs      vfs_read, do_filp_open ...  read.vfs       read.vfs.self
 *   fs       ext4/xfs/btrfs/bdev ops     read.fs        read.fs.self
 *   wait     io_schedule ...             read.wait
 *
 * "wait" is the time the task sleeps for I/O (io_schedule,
 * io_schedule_timeout, waiting for a jbd2 commit) inside a measured call;
 * it is what fs.self excludes, so "the filesystem's own work" and "waiting
 * for the disk" are told apart.  Other sleeps (locks, a journal handle)
 * stay in the self time of the layer that took them.
 *
 * A call is recorded only if it reached a filesystem layer (or is one):
 * reads of procfs, sysfs, pipes or tmpfs are not storage.  The syscall and
 * VFS layers follow only regular files and block devices (fsync: any
 * file), checked at entry, so a read() blocked for hours on a pipe or a
 * tty never holds a kretprobe instance.  A layer a kernel inlined into the
 * one above (fdatasync's vfs_fsync_range() on some builds) has no call to
 * see: its time is in the self time above it.
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
 * disk, in a fixed number of slots assigned on first sight; disks beyond
 * them share the slot "other".  Nothing here depends on the block
 * accounting functions renamed and removed between 5.16 and 6.4.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/fdtable.h>
#include <linux/nospec.h>
#include <linux/magic.h>
#include <linux/preempt.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <trace/events/block.h>

#include "sl.h"

/* ==== storage ========================================================== */

enum sl_st_layer {
	SL_L_SYSCALL,
	SL_L_VFS,
	SL_L_FS,
	SL_L_WAIT,
	SL_L_NR
};

/* Stages of one operation, in this order, for each of the four ops. */
enum {
	SL_S_SYSCALL,
	SL_S_SYSCALL_SELF,
	SL_S_VFS,
	SL_S_VFS_SELF,
	SL_S_FS,
	SL_S_FS_SELF,
	SL_S_WAIT,
	SL_S_PER_OP
};

#define SL_ST_NOPS	(__STACKLAT_OP_MAX - 1)
#define SL_ST_NSTAGES	(SL_ST_NOPS * SL_S_PER_OP)

/* Open frames per task: syscall, vfs, fs, vfs(fsync), fs(fsync), wait. */
#define SL_ST_DEPTH	6

static const char * const sl_st_op_names[SL_ST_NOPS] = {
	"read", "write", "open", "fsync",
};

static const struct {
	const char *suffix;
	const char *from;
	const char *to;
} sl_st_stage_defs[SL_S_PER_OP] = {
	[SL_S_SYSCALL] = { "syscall", "syscall entry", "syscall return" },
	[SL_S_SYSCALL_SELF] = { "syscall.self", "syscall", "minus vfs" },
	[SL_S_VFS] = { "vfs", "vfs entry", "vfs return" },
	[SL_S_VFS_SELF] = { "vfs.self", "vfs", "minus fs" },
	[SL_S_FS] = { "fs", "fs entry", "fs return" },
	[SL_S_FS_SELF] = { "fs.self", "fs", "minus io wait" },
	[SL_S_WAIT] = { "wait", "io wait", "wakeup" },
};

/* The inclusive and self stage of each layer (-1: none). */
static const s8 sl_st_incl[SL_L_NR] = {
	SL_S_SYSCALL, SL_S_VFS, SL_S_FS, SL_S_WAIT,
};

static const s8 sl_st_self[SL_L_NR] = {
	SL_S_SYSCALL_SELF, SL_S_VFS_SELF, SL_S_FS_SELF, -1,
};

/* Per-kretprobe-instance data: which frame of the task's stack it is. */
struct sl_st_ri {
	u64 start;
	u8 depth;
	u8 op;
	u8 layer;
};

/*
 * The task's in-flight entry: frame d's start in ts[2d], the inclusive time
 * of its measured children in ts[2d + 1]; aux[0] is the depth, aux[1] one
 * byte of flags per frame.
 */
#define SL_FR_OP_MASK	0x07
#define SL_FR_LAYER_SH	3
#define SL_FR_LAYER_MASK 0x18
#define SL_FR_REACHED	0x20	/* reached a filesystem (and passed the fs filter) */

static __always_inline u8 sl_fr_get(const struct sl_flight_ent *e, u32 d)
{
	return (u8)(e->aux[1] >> (8 * d));
}

static __always_inline void sl_fr_set(struct sl_flight_ent *e, u32 d, u8 v)
{
	e->aux[1] = (e->aux[1] & ~(0xffULL << (8 * d))) | ((u64)v << (8 * d));
}

/* What each hook is: the operation and layer it measures. */
struct sl_st_info {
	u8 op;			/* enum stacklat_op, 0 for wait (inherited) */
	u8 layer;
	bool any_file;		/* fsync: follow any file type */
	u32 fs_magic;		/* fs layer: the filesystem it belongs to */
};

enum {
	SL_H_SYS_READ,
	SL_H_SYS_PREAD64,
	SL_H_SYS_READV,
	SL_H_SYS_PREADV,
	SL_H_SYS_PREADV2,
	SL_H_SYS_WRITE,
	SL_H_SYS_PWRITE64,
	SL_H_SYS_WRITEV,
	SL_H_SYS_PWRITEV,
	SL_H_SYS_PWRITEV2,
	SL_H_SYS_OPEN,
	SL_H_SYS_OPENAT,
	SL_H_SYS_OPENAT2,
	SL_H_SYS_CREAT,
	SL_H_SYS_FSYNC,
	SL_H_SYS_FDATASYNC,
	SL_H_VFS_READ,
	SL_H_VFS_READV,
	SL_H_VFS_WRITE,
	SL_H_VFS_WRITEV,
	SL_H_VFS_OPEN,
	SL_H_VFS_FSYNC,
	SL_H_EXT4_READ,
	SL_H_EXT4_WRITE,
	SL_H_EXT4_OPEN,
	SL_H_EXT4_FSYNC,
	SL_H_XFS_READ,
	SL_H_XFS_WRITE,
	SL_H_XFS_OPEN,
	SL_H_XFS_FSYNC,
	SL_H_BTRFS_READ,
	SL_H_BTRFS_WRITE,
	SL_H_BTRFS_OPEN,
	SL_H_BTRFS_FSYNC,
	SL_H_BDEV_READ,
	SL_H_BDEV_WRITE,
	SL_H_BDEV_OPEN,
	SL_H_BDEV_FSYNC,
	SL_H_IO_SCHEDULE,
	SL_H_IO_SCHEDULE_TIMEOUT,
	SL_H_JBD2_WAIT,
	SL_H_NR
};

#define SL_I(o, l)	{ .op = STACKLAT_OP_##o, .layer = SL_L_##l }
#define SL_IFS(o, m)	{ .op = STACKLAT_OP_##o, .layer = SL_L_FS, .fs_magic = m }

static const struct sl_st_info sl_st_info[SL_H_NR] = {
	[SL_H_SYS_READ] = SL_I(READ, SYSCALL),
	[SL_H_SYS_PREAD64] = SL_I(READ, SYSCALL),
	[SL_H_SYS_READV] = SL_I(READ, SYSCALL),
	[SL_H_SYS_PREADV] = SL_I(READ, SYSCALL),
	[SL_H_SYS_PREADV2] = SL_I(READ, SYSCALL),
	[SL_H_SYS_WRITE] = SL_I(WRITE, SYSCALL),
	[SL_H_SYS_PWRITE64] = SL_I(WRITE, SYSCALL),
	[SL_H_SYS_WRITEV] = SL_I(WRITE, SYSCALL),
	[SL_H_SYS_PWRITEV] = SL_I(WRITE, SYSCALL),
	[SL_H_SYS_PWRITEV2] = SL_I(WRITE, SYSCALL),
	[SL_H_SYS_OPEN] = SL_I(OPEN, SYSCALL),
	[SL_H_SYS_OPENAT] = SL_I(OPEN, SYSCALL),
	[SL_H_SYS_OPENAT2] = SL_I(OPEN, SYSCALL),
	[SL_H_SYS_CREAT] = SL_I(OPEN, SYSCALL),
	[SL_H_SYS_FSYNC] = { STACKLAT_OP_FSYNC, SL_L_SYSCALL, true, 0 },
	[SL_H_SYS_FDATASYNC] = { STACKLAT_OP_FSYNC, SL_L_SYSCALL, true, 0 },
	[SL_H_VFS_READ] = SL_I(READ, VFS),
	[SL_H_VFS_READV] = SL_I(READ, VFS),
	[SL_H_VFS_WRITE] = SL_I(WRITE, VFS),
	[SL_H_VFS_WRITEV] = SL_I(WRITE, VFS),
	[SL_H_VFS_OPEN] = SL_I(OPEN, VFS),
	[SL_H_VFS_FSYNC] = { STACKLAT_OP_FSYNC, SL_L_VFS, true, 0 },
	[SL_H_EXT4_READ] = SL_IFS(READ, EXT4_SUPER_MAGIC),
	[SL_H_EXT4_WRITE] = SL_IFS(WRITE, EXT4_SUPER_MAGIC),
	[SL_H_EXT4_OPEN] = SL_IFS(OPEN, EXT4_SUPER_MAGIC),
	[SL_H_EXT4_FSYNC] = SL_IFS(FSYNC, EXT4_SUPER_MAGIC),
	[SL_H_XFS_READ] = SL_IFS(READ, XFS_SUPER_MAGIC),
	[SL_H_XFS_WRITE] = SL_IFS(WRITE, XFS_SUPER_MAGIC),
	[SL_H_XFS_OPEN] = SL_IFS(OPEN, XFS_SUPER_MAGIC),
	[SL_H_XFS_FSYNC] = SL_IFS(FSYNC, XFS_SUPER_MAGIC),
	[SL_H_BTRFS_READ] = SL_IFS(READ, BTRFS_SUPER_MAGIC),
	[SL_H_BTRFS_WRITE] = SL_IFS(WRITE, BTRFS_SUPER_MAGIC),
	[SL_H_BTRFS_OPEN] = SL_IFS(OPEN, BTRFS_SUPER_MAGIC),
	[SL_H_BTRFS_FSYNC] = SL_IFS(FSYNC, BTRFS_SUPER_MAGIC),
	[SL_H_BDEV_READ] = SL_IFS(READ, BDEVFS_MAGIC),
	[SL_H_BDEV_WRITE] = SL_IFS(WRITE, BDEVFS_MAGIC),
	[SL_H_BDEV_OPEN] = SL_IFS(OPEN, BDEVFS_MAGIC),
	[SL_H_BDEV_FSYNC] = SL_IFS(FSYNC, BDEVFS_MAGIC),
	[SL_H_IO_SCHEDULE] = { 0, SL_L_WAIT, false, 0 },
	[SL_H_IO_SCHEDULE_TIMEOUT] = { 0, SL_L_WAIT, false, 0 },
	[SL_H_JBD2_WAIT] = { 0, SL_L_WAIT, false, 0 },
};

static struct sl_hook sl_st_hooks[SL_H_NR];
static struct sl_stage sl_st_stages[SL_ST_NSTAGES];

/*
 * The file behind descriptor @fd of the current task, without taking a
 * reference (and without calling anything): the handler runs with
 * preemption off, which holds off the RCU grace period that frees files
 * and file tables.  Only the file's type and filesystem are read.
 */
static __always_inline struct file *sl_st_fd_file(unsigned long fd)
{
	struct files_struct *files = current->files;
	struct fdtable *fdt;
	unsigned int max;

	if (!files)
		return NULL;
	fdt = rcu_dereference_raw(files->fdt);
	max = READ_ONCE(fdt->max_fds);
	if (fd >= max)
		return NULL;
	return rcu_dereference_raw(fdt->fd[array_index_nospec(fd, max)]);
}

static __always_inline struct inode *sl_st_inode(const struct file *f)
{
	return f ? READ_ONCE(f->f_inode) : NULL;
}

/* The filesystem @f is on, as the fs filter names it (0: unknown). */
static __always_inline u32 sl_st_file_fs(const struct file *f)
{
	struct inode *inode = sl_st_inode(f);

	if (!inode)
		return 0;
	/* a block device node lives on devtmpfs; its I/O is the bdev's */
	if (S_ISBLK(READ_ONCE(inode->i_mode)))
		return BDEVFS_MAGIC;
	return (u32)READ_ONCE(inode->i_sb->s_magic);
}

/*
 * Push a frame for the call that just entered.  @file is the file it works
 * on, when @known (open does not know it yet).  The syscall and VFS layers
 * follow regular files and block devices only (fsync: anything).  Returns
 * 0 to follow the call to its return, 1 not to: the kretprobe then holds
 * no instance.
 */
static __always_inline int sl_st_push(struct kretprobe_instance *ri,
				      struct file *file, bool known)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_pipeline *p = hk->pipe;
	const struct sl_st_info *in = &sl_st_info[hk - sl_st_hooks];
	struct sl_st_ri *r = (struct sl_st_ri *)ri->data;
	struct sl_flight_ent *e;
	u32 want, d;
	u8 op = in->op, fl, top;
	bool stale;
	u64 key, now;

	if (!sl_on(p) || !in_task())
		return 1;
	if (known && in->layer != SL_L_FS) {
		struct inode *inode = sl_st_inode(file);
		umode_t mode;

		if (!inode)
			return 1;
		mode = READ_ONCE(inode->i_mode);
		if (!in->any_file && !S_ISREG(mode) && !S_ISBLK(mode))
			return 1;
	}
	key = sl_flight_key(p->id, (unsigned long)current->pid);
	e = sl_flight_lookup(key);
	if (in->layer == SL_L_WAIT) {
		/* an I/O wait is followed only inside a followed call */
		if (!e)
			return 1;
		d = (u32)e->aux[0];
		if (!d || d > SL_ST_DEPTH)
			return 1;
		top = sl_fr_get(e, d - 1);
		if (((top & SL_FR_LAYER_MASK) >> SL_FR_LAYER_SH) == SL_L_WAIT)
			return 1;	/* a wait inside a wait is the same wait */
		op = top & SL_FR_OP_MASK;
		fl = top & SL_FR_REACHED;
	} else {
		if (!sl_task_ok(p)) {
			sl_loss(p, SL_LOSS_FILTERED);
			return 1;
		}
		want = READ_ONCE(p->filter.op);
		if (want && want != op) {
			sl_loss(p, SL_LOSS_FILTERED);
			return 1;
		}
		want = READ_ONCE(p->filter.fs);
		if (want && ((in->layer == SL_L_FS && in->fs_magic != want) ||
			     (in->layer != SL_L_FS && known &&
			      sl_st_file_fs(file) != want))) {
			sl_loss(p, SL_LOSS_FILTERED);
			return 1;
		}
		fl = in->layer == SL_L_FS ? SL_FR_REACHED : 0;
	}
	now = sl_now();
	if (!e) {
		e = sl_flight_insert(key, now, &stale);
		if (unlikely(!e)) {
			sl_loss(p, SL_LOSS_TABLE_FULL);
			return 1;
		}
		if (stale)
			sl_loss(p, SL_LOSS_STALE);
	}
	d = (u32)e->aux[0];
	if (unlikely(d >= SL_ST_DEPTH)) {
		/* nested deeper than the stack: counted; time stays in parent */
		sl_loss(p, SL_LOSS_TABLE_FULL);
		return 1;
	}
	e->ts[2 * d] = now;
	e->ts[2 * d + 1] = 0;
	sl_fr_set(e, d, fl | op | (in->layer << SL_FR_LAYER_SH));
	e->aux[0] = d + 1;
	r->start = now;
	r->depth = d;
	r->op = op;
	r->layer = in->layer;
	return 0;
}

/*
 * Pop the frame of the call returning now and charge its inclusive time to
 * its parent.  A call is recorded (inclusive and self time) only if it
 * reached a filesystem: reads of procfs, sysfs, pipes or tmpfs are not
 * storage, and are neither recorded nor counted as lost.
 */
static int sl_st_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sl_hook *hk = sl_hook_of_ri(ri);
	struct sl_pipeline *p = hk->pipe;
	const struct sl_st_ri *r = (const struct sl_st_ri *)ri->data;
	u64 now = sl_now(), key, incl, child;
	struct sl_flight_ent *e;
	unsigned int base;
	u32 d = r->depth, depth;
	u8 fl;

	if (!sl_on(p))
		return 0;
	key = sl_flight_key(p->id, (unsigned long)current->pid);
	e = sl_flight_lookup(key);
	if (unlikely(!e)) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return 0;
	}
	depth = (u32)e->aux[0];
	if (unlikely(depth <= d || depth > SL_ST_DEPTH ||
		     e->ts[2 * d] != r->start)) {
		/* our frame is gone: the entry was reclaimed or flushed */
		sl_loss(p, SL_LOSS_UNMATCHED);
		return 0;
	}
	if (unlikely(depth != d + 1))
		/* frames above ours never returned: forget them */
		sl_loss(p, SL_LOSS_UNMATCHED);
	fl = sl_fr_get(e, d);
	incl = now - r->start;
	child = e->ts[2 * d + 1];
	if (d) {
		e->ts[2 * (d - 1) + 1] += incl;
		if (fl & SL_FR_REACHED)
			sl_fr_set(e, d - 1, sl_fr_get(e, d - 1) | SL_FR_REACHED);
		e->aux[0] = d;
	} else {
		sl_flight_remove(e, key);
	}
	if (!(fl & SL_FR_REACHED))
		return 0;
	sl_hook_hit(hk);
	base = (r->op - 1) * SL_S_PER_OP;
	sl_record(p, base + sl_st_incl[r->layer], (s64)incl);
	if (sl_st_self[r->layer] >= 0)
		sl_record(p, base + sl_st_self[r->layer], (s64)(incl - child));
	return 0;
}

/* Syscall wrappers: the syscall's own registers are the first argument. */
static int sl_st_e_sys_fd(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct pt_regs *uregs = (struct pt_regs *)regs_get_kernel_argument(regs, 0);
	unsigned int fd = (unsigned int)regs_get_kernel_argument(uregs, 0);

	return sl_st_push(ri, sl_st_fd_file(fd), true);
}

/* ksys_read() and friends: the descriptor is the first argument. */
static int sl_st_e_fd(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned int fd = (unsigned int)regs_get_kernel_argument(regs, 0);

	return sl_st_push(ri, sl_st_fd_file(fd), true);
}

/* vfs_read(file, ...), ext4_sync_file(file, ...) */
static int sl_st_e_file0(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return sl_st_push(ri, (struct file *)regs_get_kernel_argument(regs, 0),
			  true);
}

/* ext4_file_open(inode, file) */
static int sl_st_e_file1(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return sl_st_push(ri, (struct file *)regs_get_kernel_argument(regs, 1),
			  true);
}

/* ext4_file_read_iter(iocb, iter) */
static int sl_st_e_kiocb(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kiocb *iocb = (struct kiocb *)regs_get_kernel_argument(regs, 0);

	return sl_st_push(ri, READ_ONCE(iocb->ki_filp), true);
}

/* open syscalls, do_filp_open, I/O waits: no file known at entry */
static int sl_st_e_none(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return sl_st_push(ri, NULL, false);
}

#define SL_RI	sizeof(struct sl_st_ri)
#define SL_SYS(sym)	SL_KRP(sym, sl_st_e_sys_fd, sl_st_ret, SL_RI)
#define SL_NONE(sym)	SL_KRP(sym, sl_st_e_none, sl_st_ret, SL_RI)
#define SL_FD(sym)	SL_KRP(sym, sl_st_e_fd, sl_st_ret, SL_RI)
#define SL_F0(sym)	SL_KRP(sym, sl_st_e_file0, sl_st_ret, SL_RI)
#define SL_F1(sym)	SL_KRP(sym, sl_st_e_file1, sl_st_ret, SL_RI)
#define SL_IO(sym)	SL_KRP(sym, sl_st_e_kiocb, sl_st_ret, SL_RI)
#define SL_W(sym)	SL_KRP(sym, sl_st_e_none, sl_st_ret, SL_RI)

#define SL_CANDS(var, ...) \
	static const struct sl_cand var[] = { __VA_ARGS__ }

SL_CANDS(sl_c_sys_read, SL_SYS("__x64_sys_read"), SL_FD("ksys_read"));
SL_CANDS(sl_c_sys_pread64, SL_SYS("__x64_sys_pread64"), SL_FD("ksys_pread64"));
SL_CANDS(sl_c_sys_readv, SL_SYS("__x64_sys_readv"), SL_FD("do_readv"));
SL_CANDS(sl_c_sys_preadv, SL_SYS("__x64_sys_preadv"));
SL_CANDS(sl_c_sys_preadv2, SL_SYS("__x64_sys_preadv2"));
SL_CANDS(sl_c_sys_write, SL_SYS("__x64_sys_write"), SL_FD("ksys_write"));
SL_CANDS(sl_c_sys_pwrite64, SL_SYS("__x64_sys_pwrite64"),
	 SL_FD("ksys_pwrite64"));
SL_CANDS(sl_c_sys_writev, SL_SYS("__x64_sys_writev"), SL_FD("do_writev"));
SL_CANDS(sl_c_sys_pwritev, SL_SYS("__x64_sys_pwritev"));
SL_CANDS(sl_c_sys_pwritev2, SL_SYS("__x64_sys_pwritev2"));
SL_CANDS(sl_c_sys_open, SL_NONE("__x64_sys_open"));
SL_CANDS(sl_c_sys_openat, SL_NONE("__x64_sys_openat"));
SL_CANDS(sl_c_sys_openat2, SL_NONE("__x64_sys_openat2"));
SL_CANDS(sl_c_sys_creat, SL_NONE("__x64_sys_creat"));
SL_CANDS(sl_c_sys_fsync, SL_SYS("__x64_sys_fsync"));
SL_CANDS(sl_c_sys_fdatasync, SL_SYS("__x64_sys_fdatasync"));
SL_CANDS(sl_c_vfs_read, SL_F0("vfs_read"));
SL_CANDS(sl_c_vfs_readv, SL_F0("vfs_readv"));
SL_CANDS(sl_c_vfs_write, SL_F0("vfs_write"));
SL_CANDS(sl_c_vfs_writev, SL_F0("vfs_writev"));
/*
 * Open: do_filp_open() is the VFS part (path walk, permission, the open);
 * vfs_open() is only its last step, and its file has no inode at entry.
 */
SL_CANDS(sl_c_vfs_open, SL_NONE("do_filp_open"), SL_NONE("vfs_open"));
SL_CANDS(sl_c_vfs_fsync, SL_F0("vfs_fsync_range"));
SL_CANDS(sl_c_ext4_read, SL_IO("ext4_file_read_iter"));
SL_CANDS(sl_c_ext4_write, SL_IO("ext4_file_write_iter"));
SL_CANDS(sl_c_ext4_open, SL_F1("ext4_file_open"));
SL_CANDS(sl_c_ext4_fsync, SL_F0("ext4_sync_file"));
SL_CANDS(sl_c_xfs_read, SL_IO("xfs_file_read_iter"));
SL_CANDS(sl_c_xfs_write, SL_IO("xfs_file_write_iter"));
SL_CANDS(sl_c_xfs_open, SL_F1("xfs_file_open"));
SL_CANDS(sl_c_xfs_fsync, SL_F0("xfs_file_fsync"));
SL_CANDS(sl_c_btrfs_read, SL_IO("btrfs_file_read_iter"));
SL_CANDS(sl_c_btrfs_write, SL_IO("btrfs_file_write_iter"));
SL_CANDS(sl_c_btrfs_open, SL_F1("btrfs_file_open"));
SL_CANDS(sl_c_btrfs_fsync, SL_F0("btrfs_sync_file"));
/* a block device node read or written directly: the bdev is its "fs" */
SL_CANDS(sl_c_bdev_read, SL_IO("blkdev_read_iter"));
SL_CANDS(sl_c_bdev_write, SL_IO("blkdev_write_iter"));
SL_CANDS(sl_c_bdev_open, SL_F1("blkdev_open"));
SL_CANDS(sl_c_bdev_fsync, SL_F0("blkdev_fsync"));
SL_CANDS(sl_c_io_schedule, SL_W("io_schedule"));
SL_CANDS(sl_c_io_schedule_timeout, SL_W("io_schedule_timeout"));
SL_CANDS(sl_c_jbd2_wait, SL_W("jbd2_log_wait_commit"));

#define SL_H(idx, n, c, opt) \
	[idx] = { .name = n, .cands = c, .ncands = ARRAY_SIZE(c), \
		  .optional = opt }

static struct sl_hook sl_st_hooks[SL_H_NR] = {
	SL_H(SL_H_SYS_READ, "sys_read", sl_c_sys_read, false),
	SL_H(SL_H_SYS_PREAD64, "sys_pread64", sl_c_sys_pread64, false),
	SL_H(SL_H_SYS_READV, "sys_readv", sl_c_sys_readv, false),
	SL_H(SL_H_SYS_PREADV, "sys_preadv", sl_c_sys_preadv, false),
	SL_H(SL_H_SYS_PREADV2, "sys_preadv2", sl_c_sys_preadv2, false),
	SL_H(SL_H_SYS_WRITE, "sys_write", sl_c_sys_write, false),
	SL_H(SL_H_SYS_PWRITE64, "sys_pwrite64", sl_c_sys_pwrite64, false),
	SL_H(SL_H_SYS_WRITEV, "sys_writev", sl_c_sys_writev, false),
	SL_H(SL_H_SYS_PWRITEV, "sys_pwritev", sl_c_sys_pwritev, false),
	SL_H(SL_H_SYS_PWRITEV2, "sys_pwritev2", sl_c_sys_pwritev2, false),
	SL_H(SL_H_SYS_OPEN, "sys_open", sl_c_sys_open, false),
	SL_H(SL_H_SYS_OPENAT, "sys_openat", sl_c_sys_openat, false),
	SL_H(SL_H_SYS_OPENAT2, "sys_openat2", sl_c_sys_openat2, true),
	SL_H(SL_H_SYS_CREAT, "sys_creat", sl_c_sys_creat, false),
	SL_H(SL_H_SYS_FSYNC, "sys_fsync", sl_c_sys_fsync, false),
	SL_H(SL_H_SYS_FDATASYNC, "sys_fdatasync", sl_c_sys_fdatasync, false),
	SL_H(SL_H_VFS_READ, "vfs_read", sl_c_vfs_read, false),
	SL_H(SL_H_VFS_READV, "vfs_readv", sl_c_vfs_readv, true),
	SL_H(SL_H_VFS_WRITE, "vfs_write", sl_c_vfs_write, false),
	SL_H(SL_H_VFS_WRITEV, "vfs_writev", sl_c_vfs_writev, true),
	SL_H(SL_H_VFS_OPEN, "vfs_open", sl_c_vfs_open, false),
	SL_H(SL_H_VFS_FSYNC, "vfs_fsync_range", sl_c_vfs_fsync, false),
	SL_H(SL_H_EXT4_READ, "ext4_read", sl_c_ext4_read, true),
	SL_H(SL_H_EXT4_WRITE, "ext4_write", sl_c_ext4_write, true),
	SL_H(SL_H_EXT4_OPEN, "ext4_open", sl_c_ext4_open, true),
	SL_H(SL_H_EXT4_FSYNC, "ext4_fsync", sl_c_ext4_fsync, true),
	SL_H(SL_H_XFS_READ, "xfs_read", sl_c_xfs_read, true),
	SL_H(SL_H_XFS_WRITE, "xfs_write", sl_c_xfs_write, true),
	SL_H(SL_H_XFS_OPEN, "xfs_open", sl_c_xfs_open, true),
	SL_H(SL_H_XFS_FSYNC, "xfs_fsync", sl_c_xfs_fsync, true),
	SL_H(SL_H_BTRFS_READ, "btrfs_read", sl_c_btrfs_read, true),
	SL_H(SL_H_BTRFS_WRITE, "btrfs_write", sl_c_btrfs_write, true),
	SL_H(SL_H_BTRFS_OPEN, "btrfs_open", sl_c_btrfs_open, true),
	SL_H(SL_H_BTRFS_FSYNC, "btrfs_fsync", sl_c_btrfs_fsync, true),
	SL_H(SL_H_BDEV_READ, "bdev_read", sl_c_bdev_read, true),
	SL_H(SL_H_BDEV_WRITE, "bdev_write", sl_c_bdev_write, true),
	SL_H(SL_H_BDEV_OPEN, "bdev_open", sl_c_bdev_open, true),
	SL_H(SL_H_BDEV_FSYNC, "bdev_fsync", sl_c_bdev_fsync, true),
	SL_H(SL_H_IO_SCHEDULE, "io_schedule", sl_c_io_schedule, false),
	SL_H(SL_H_IO_SCHEDULE_TIMEOUT, "io_schedule_timeout",
	     sl_c_io_schedule_timeout, false),
	SL_H(SL_H_JBD2_WAIT, "jbd2_wait_commit", sl_c_jbd2_wait, true),
};

static int sl_st_setup(struct sl_pipeline *p)
{
	unsigned int o, s;

	for (o = 0; o < SL_ST_NOPS; o++) {
		for (s = 0; s < SL_S_PER_OP; s++) {
			struct sl_stage *st = &sl_st_stages[o * SL_S_PER_OP + s];

			snprintf(st->name, sizeof(st->name), "%s.%s",
				 sl_st_op_names[o], sl_st_stage_defs[s].suffix);
			st->from = sl_st_stage_defs[s].from;
			st->to = sl_st_stage_defs[s].to;
		}
	}
	return 0;
}

/* debugfs "inflight": the task's open frames, outermost first. */
static void sl_st_flight_fmt(const struct sl_pipeline *p,
			     const struct sl_flight_ent *e, u64 now, char *buf,
			     size_t len)
{
	static const char * const layer[SL_L_NR] = {
		"syscall", "vfs", "fs", "wait",
	};
	u32 d, depth = min_t(u64, e->aux[0], SL_ST_DEPTH);
	size_t n = 0;
	char age[16];
	u8 fl, op, l;

	buf[0] = '\0';
	for (d = 0; d < depth && n < len; d++) {
		fl = sl_fr_get(e, d);
		op = fl & SL_FR_OP_MASK;
		l = (fl & SL_FR_LAYER_MASK) >> SL_FR_LAYER_SH;
		if ((s64)(now - e->ts[2 * d]) >= 0)
			sl_fmt_ns(age, sizeof(age), now - e->ts[2 * d]);
		else
			strscpy(age, "?", sizeof(age));
		n += scnprintf(buf + n, len - n, " %s%s%s(open %s)",
			       op && op <= SL_ST_NOPS ? sl_st_op_names[op - 1] : "",
			       op && op <= SL_ST_NOPS ? "." : "",
			       l < SL_L_NR ? layer[l] : "?", age);
	}
}

struct sl_pipeline sl_pipe_storage = {
	.name = "storage",
	.desc = "read/write/open/fsync per layer: syscall, VFS, filesystem, I/O wait (inclusive and self)",
	.key = STACKLAT_KEY_TASK,
	.filter_caps = SL_F_TGID | SL_F_TID | SL_F_OP | SL_F_FS,
	.hooks = sl_st_hooks,
	.nhooks = SL_H_NR,
	.stages = sl_st_stages,
	.nstages = SL_ST_NSTAGES,
	.setup = sl_st_setup,
	.flight_fmt = sl_st_flight_fmt,
};

/* ==== block ============================================================ */

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

/* Per-disk stage sets; the last one, "other", takes every further disk. */
#define SL_BLK_SLOTS	8
#define SL_BLK_NAMED	(SL_BLK_SLOTS - 1)
#define SL_BLK_NSTAGES	(SL_BS_NR * (1 + SL_BLK_SLOTS))

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
static u32 sl_blk_slot_dev[SL_BLK_NAMED];	/* 0: free */

/*
 * Name slot @slot's stages "<disk>.<stage>".  Runs in a handler, once per
 * disk: byte stores only (no string functions), the first byte last, so a
 * reader that sees a name sees all of it.
 */
static void sl_blk_name_slot(unsigned int slot, const char *disk)
{
	unsigned int s, i, n, k;

	if (!READ_ONCE(disk[0]))
		disk = "?";
	/* leave room for the dot, the 3-character stage and the NUL */
	n = 0;
	while (n < STACKLAT_NAME_MAX - 5 && READ_ONCE(disk[n]))
		n++;
	for (s = 0; s < SL_BS_NR; s++) {
		struct sl_stage *st = &sl_blk_stages[SL_BS_NR * (1 + slot) + s];
		const char *suf = sl_blk_stage_defs[s].name;
		char c;

		for (i = 1; i < n; i++)
			WRITE_ONCE(st->name[i], READ_ONCE(disk[i]));
		WRITE_ONCE(st->name[n], '.');
		for (k = 0; (c = suf[k]) != '\0'; k++)
			WRITE_ONCE(st->name[n + 1 + k], c);
		WRITE_ONCE(st->name[n + 1 + k], '\0');
		/* the rest of the name before its first byte: readers skip a
		 * stage whose name is empty
		 */
		smp_wmb();
		WRITE_ONCE(st->name[0], READ_ONCE(disk[0]));
	}
}

/* The stage-set slot of disk @dev, claimed on first sight. */
static unsigned int sl_blk_slot(u32 dev, struct gendisk *disk)
{
	unsigned int i;
	u32 d;

	if (!dev || !disk)
		return SL_BLK_NAMED;
	for (i = 0; i < SL_BLK_NAMED; i++) {
		d = READ_ONCE(sl_blk_slot_dev[i]);
		if (d == dev)
			return i;
		if (d)
			continue;
		d = cmpxchg(&sl_blk_slot_dev[i], 0, dev);
		if (!d) {
			sl_blk_name_slot(i, disk->disk_name);
			return i;
		}
		if (d == dev)
			return i;
	}
	return SL_BLK_NAMED;
}

static __always_inline bool sl_blk_dev_ok(const struct sl_pipeline *p, u32 dev)
{
	u32 want = READ_ONCE(p->filter.dev);

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
	unsigned int s, slot = sl_blk_slot(dev, disk);

	for (s = 0; s < SL_BS_NR; s++) {
		u64 a = ts[sl_blk_stage_defs[s].from_pt];
		u64 b = ts[sl_blk_stage_defs[s].to_pt];

		if (!a || !b)
			continue;
		sl_record(p, s, (s64)(b - a));
		sl_record(p, SL_BS_NR * (1 + slot) + s, (s64)(b - a));
	}
}

static void sl_blk_bio_queue(void *data, SL_COMPAT_BIO_TP_ARGS(bio))
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;
	u32 dev;

	if (!sl_on(p))
		return;
	dev = (u32)bio_dev(bio);
	if (!sl_blk_dev_ok(p, dev)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return;
	}
	sl_hook_hit(hk);
	e = sl_chain_start(p, (unsigned long)bio, SL_BP_Q, sl_now());
	if (e)
		e->aux[0] = dev;
}

/*
 * A split: the new bio (queued by nobody) carries the front of its parent,
 * to which bio_chain() has pointed its bi_private.  It inherits the
 * parent's queue time; the parent goes on as the remainder.
 */
static void sl_blk_split(void *data, SL_COMPAT_SPLIT_TP_ARGS(bio))
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	unsigned long parent = (unsigned long)READ_ONCE(bio->bi_private);
	struct sl_flight_ent *pe, *e;
	u64 qts, dev;

	if (!sl_on(p))
		return;
	pe = sl_flight_lookup(sl_flight_key(p->id, parent));
	if (!pe)
		return;
	qts = READ_ONCE(pe->ts[SL_BP_Q]);
	dev = READ_ONCE(pe->aux[0]);
	sl_hook_hit(hk);
	e = sl_chain_start(p, (unsigned long)bio, SL_BP_Q, sl_now());
	if (e) {
		e->ts[SL_BP_Q] = qts;
		e->aux[0] = dev;
	}
}

/* A bio merged into a request already followed: forget it. */
static void sl_blk_bio_merge(void *data, SL_COMPAT_MERGE_TP_ARGS(bio))
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	u64 key;
	struct sl_flight_ent *e;

	if (!sl_on(p))
		return;
	key = sl_flight_key(p->id, (unsigned long)bio);
	e = sl_flight_lookup(key);
	if (e && sl_flight_remove(e, key))
		sl_hook_hit(hk);
}

/* A bio-based device (dm, md) completed a bio: its Q2C. */
static void sl_blk_bio_complete(void *data, struct request_queue *q,
				struct bio *bio)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;
	struct gendisk *disk;
	u64 key;

	if (!sl_on(p))
		return;
	key = sl_flight_key(p->id, (unsigned long)bio);
	e = sl_flight_lookup(key);
	if (!e)
		return;
	disk = sl_compat_bio_disk(bio);
	if (disk && disk->fops->submit_bio) {
		sl_hook_hit(hk);
		e->ts[SL_BP_C] = sl_now();
		sl_blk_record(p, e->ts, (u32)e->aux[0], disk);
	}
	sl_flight_remove(e, key);
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
	u64 q = 0, bq, bkey;

	for (n = 0; bio && n < SL_BLK_WALK; n++, bio = READ_ONCE(bio->bi_next)) {
		bkey = sl_flight_key(p->id, (unsigned long)bio);
		be = sl_flight_lookup(bkey);
		if (!be)
			continue;
		bq = READ_ONCE(be->ts[SL_BP_Q]);
		if (bq && (!q || (s64)(bq - q) < 0))
			q = bq;
		sl_flight_remove(be, bkey);
	}
	return q;
}

/*
 * The request's entry, made at its first insert or issue from the entries
 * of its first bios (the earliest queue time wins; the bio entries go).
 * A request without a followed bio (a flush, or queued before the
 * pipeline was enabled) gets an entry without Q.  NULL if filtered out or
 * the table is full.
 */
static struct sl_flight_ent *sl_blk_rq_ent(struct sl_pipeline *p,
					   struct request *rq, u64 now)
{
	u64 key = sl_flight_key(p->id, (unsigned long)rq);
	struct sl_flight_ent *e = sl_flight_lookup(key);
	u64 q = sl_blk_take_bios(p, rq);
	u32 dev;

	if (e && !q)
		return e;
	/* a new request, or one whose old entry a reused pointer left */
	dev = sl_blk_rq_dev(rq);
	if (!q && !sl_blk_dev_ok(p, dev)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return NULL;
	}
	if (e)
		sl_flight_remove(e, key);
	e = sl_chain_start(p, (unsigned long)rq, SL_BP_Q, now);
	if (!e)
		return NULL;
	e->ts[SL_BP_Q] = q;
	e->aux[0] = dev;
	return e;
}

static void sl_blk_rq_insert(void *data, struct request *rq)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;
	u64 now;

	if (!sl_on(p))
		return;
	now = sl_now();
	e = sl_blk_rq_ent(p, rq, now);
	if (!e)
		return;
	sl_hook_hit(hk);
	e->ts[SL_BP_I] = now;
}

static void sl_blk_rq_issue(void *data, struct request *rq)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;
	u64 now;

	if (!sl_on(p))
		return;
	now = sl_now();
	e = sl_blk_rq_ent(p, rq, now);
	if (!e)
		return;
	sl_hook_hit(hk);
	e->ts[SL_BP_D] = now;
}

/* Requeued: it will be inserted and issued again; the last issue counts. */
static void sl_blk_rq_requeue(void *data, struct request *rq)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	struct sl_flight_ent *e;

	if (!sl_on(p))
		return;
	e = sl_flight_lookup(sl_flight_key(p->id, (unsigned long)rq));
	if (!e)
		return;
	sl_hook_hit(hk);
	e->ts[SL_BP_I] = 0;
	e->ts[SL_BP_D] = 0;
}

/* Request @rq was merged into another and freed: keep the earlier Q. */
static void sl_blk_rq_merge(void *data, struct request *rq)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	u64 key;
	struct sl_flight_ent *e;

	if (!sl_on(p))
		return;
	key = sl_flight_key(p->id, (unsigned long)rq);
	e = sl_flight_lookup(key);
	if (e && sl_flight_remove(e, key))
		sl_hook_hit(hk);
}

static void sl_blk_rq_complete(void *data, struct request *rq,
			       SL_COMPAT_RQ_COMPLETE_ERR error,
			       unsigned int nr_bytes)
{
	struct sl_hook *hk = data;
	struct sl_pipeline *p = hk->pipe;
	u64 ts[SL_BP_C + 1] = { 0 };
	struct sl_flight_ent *e;
	u64 key, now;

	if (!sl_on(p))
		return;
	/* a partial completion: the request goes on */
	if (nr_bytes < blk_rq_bytes(rq))
		return;
	now = sl_now();
	key = sl_flight_key(p->id, (unsigned long)rq);
	e = sl_flight_lookup(key);
	if (e) {
		sl_hook_hit(hk);
		e->ts[SL_BP_C] = now;
		sl_blk_record(p, e->ts, (u32)e->aux[0], sl_compat_rq_disk(rq));
		sl_flight_remove(e, key);
		return;
	}
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
		return;
	}
	/*
	 * A request of a flush sequence is ended twice: at its data's
	 * completion and, with nothing left (0 bytes), at the sequence's end.
	 * Anything else was issued before the pipeline was enabled.
	 */
	if (!(nr_bytes == 0 && READ_ONCE(rq->bio)) &&
	    sl_blk_dev_ok(p, sl_blk_rq_dev(rq)))
		sl_loss(p, SL_LOSS_UNMATCHED);
}

/*
 * A tracepoint probe with the wrong prototype is a crash.  Each probe is
 * type-checked here against the running kernel's own declaration: a
 * mismatch is a build error (incompatible pointer type), not an oops.
 */
static inline void __maybe_unused sl_blk_proto_check(void)
{
	BUILD_BUG_ON(sizeof(register_trace_block_bio_queue(sl_blk_bio_queue, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_block_split(sl_blk_split, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_block_bio_backmerge(sl_blk_bio_merge, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_block_bio_frontmerge(sl_blk_bio_merge, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_block_bio_complete(sl_blk_bio_complete, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_block_rq_insert(sl_blk_rq_insert, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_block_rq_issue(sl_blk_rq_issue, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_block_rq_requeue(sl_blk_rq_requeue, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_block_rq_merge(sl_blk_rq_merge, NULL)) != sizeof(int));
	BUILD_BUG_ON(sizeof(register_trace_block_rq_complete(sl_blk_rq_complete, NULL)) != sizeof(int));
}

SL_CANDS(sl_c_bio_queue, SL_TP("block_bio_queue", sl_blk_bio_queue));
SL_CANDS(sl_c_bio_split, SL_TP("block_split", sl_blk_split));
SL_CANDS(sl_c_bio_backmerge, SL_TP("block_bio_backmerge", sl_blk_bio_merge));
SL_CANDS(sl_c_bio_frontmerge, SL_TP("block_bio_frontmerge", sl_blk_bio_merge));
SL_CANDS(sl_c_bio_complete, SL_TP("block_bio_complete", sl_blk_bio_complete));
SL_CANDS(sl_c_rq_insert, SL_TP("block_rq_insert", sl_blk_rq_insert));
SL_CANDS(sl_c_rq_issue, SL_TP("block_rq_issue", sl_blk_rq_issue));
SL_CANDS(sl_c_rq_requeue, SL_TP("block_rq_requeue", sl_blk_rq_requeue));
SL_CANDS(sl_c_rq_merge, SL_TP("block_rq_merge", sl_blk_rq_merge));
SL_CANDS(sl_c_rq_complete, SL_TP("block_rq_complete", sl_blk_rq_complete));

static struct sl_hook sl_blk_hooks[] = {
	{ .name = "bio_queue", .cands = sl_c_bio_queue, .ncands = 1 },
	{ .name = "bio_split", .cands = sl_c_bio_split, .ncands = 1,
	  .optional = true },
	{ .name = "bio_backmerge", .cands = sl_c_bio_backmerge, .ncands = 1,
	  .optional = true },
	{ .name = "bio_frontmerge", .cands = sl_c_bio_frontmerge, .ncands = 1,
	  .optional = true },
	{ .name = "bio_complete", .cands = sl_c_bio_complete, .ncands = 1,
	  .optional = true },
	{ .name = "rq_insert", .cands = sl_c_rq_insert, .ncands = 1 },
	{ .name = "rq_issue", .cands = sl_c_rq_issue, .ncands = 1 },
	{ .name = "rq_requeue", .cands = sl_c_rq_requeue, .ncands = 1,
	  .optional = true },
	{ .name = "rq_merge", .cands = sl_c_rq_merge, .ncands = 1,
	  .optional = true },
	{ .name = "rq_complete", .cands = sl_c_rq_complete, .ncands = 1 },
};

static int sl_blk_setup(struct sl_pipeline *p)
{
	unsigned int i, s;

	for (i = 0; i < SL_BLK_SLOTS + 1; i++) {
		for (s = 0; s < SL_BS_NR; s++) {
			struct sl_stage *st = &sl_blk_stages[SL_BS_NR * i + s];

			st->from = sl_blk_stage_defs[s].from;
			st->to = sl_blk_stage_defs[s].to;
			st->from_pt = sl_blk_stage_defs[s].from_pt;
			st->to_pt = sl_blk_stage_defs[s].to_pt;
			/* per-disk slots are named when their disk shows up */
			if (!i)
				strscpy(st->name, sl_blk_stage_defs[s].name,
					sizeof(st->name));
			else if (i == SL_BLK_SLOTS)
				snprintf(st->name, sizeof(st->name), "other.%s",
					 sl_blk_stage_defs[s].name);
			else
				st->name[0] = '\0';
		}
	}
	for (i = 0; i < SL_BLK_NAMED; i++)
		sl_blk_slot_dev[i] = 0;
	return 0;
}

struct sl_pipeline sl_pipe_block = {
	.name = "block",
	.desc = "block requests: Q2I, I2D, Q2D, D2C, Q2C, overall and per disk",
	.key = STACKLAT_KEY_REQUEST,
	.filter_caps = SL_F_DEV,
	.hooks = sl_blk_hooks,
	.nhooks = ARRAY_SIZE(sl_blk_hooks),
	.stages = sl_blk_stages,
	.nstages = SL_BLK_NSTAGES,
	.setup = sl_blk_setup,
};
