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
#define SL_FR_SKIP	0x40	/* an operation sampling does not follow (frame 0) */

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
	SL_H_VFS_DO_FSYNC,
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
	[SL_H_VFS_DO_FSYNC] = { STACKLAT_OP_FSYNC, SL_L_VFS, true, 0 },
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
static __always_inline int sl_st_push(struct sl_ev *ev, struct file *file,
				      bool known)
{
	struct sl_hook *hk = ev->hk;
	struct sl_pipeline *p = ev->p;
	const struct sl_st_info *in = &sl_st_info[hk - sl_st_hooks];
	struct sl_st_ri *r = (struct sl_st_ri *)ev->data;
	struct sl_flight_ent *e;
	u32 want, d;
	u8 op = in->op, fl, top;
	u64 now;

	if (!in_task())
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
	/*
	 * A system call is the outermost layer: its task's entry (new, or
	 * one with frames whose returns were missed) comes from the put
	 * below, without a lookup first.
	 */
	e = in->layer == SL_L_SYSCALL ? NULL :
		sl_chain_get(p, (unsigned long)current->pid);
	/* inside an operation sampling skips: nothing under it is followed */
	if (e && e->aux[0] && (sl_fr_get(e, 0) & SL_FR_SKIP)) {
		sl_chain_put(e);
		return 1;
	}
	if (in->layer == SL_L_WAIT) {
		/* an I/O wait is followed only inside a followed call */
		if (!e)
			return 1;
		d = (u32)e->aux[0];
		if (!d || d > SL_ST_DEPTH) {
			sl_chain_put(e);
			return 1;
		}
		top = sl_fr_get(e, d - 1);
		if (((top & SL_FR_LAYER_MASK) >> SL_FR_LAYER_SH) == SL_L_WAIT) {
			sl_chain_put(e);
			return 1;	/* a wait inside a wait is the same wait */
		}
		op = top & SL_FR_OP_MASK;
		fl = top & SL_FR_REACHED;
	} else {
		/*
		 * A VFS call directly inside the same operation's VFS call
		 * (do_fsync -> vfs_fsync_range) is the same layer again: the
		 * outer frame measures it.
		 */
		d = e ? (u32)e->aux[0] : 0;
		if (d && d <= SL_ST_DEPTH && in->layer == SL_L_VFS) {
			top = sl_fr_get(e, d - 1);
			if (((top & SL_FR_LAYER_MASK) >> SL_FR_LAYER_SH) ==
			    SL_L_VFS && (top & SL_FR_OP_MASK) == op) {
				sl_chain_put(e);
				return 1;
			}
		}
		/*
		 * The filters run with the task's entry (if it has one)
		 * still held: a nested call pushes onto it without a second
		 * search of the table.
		 */
		if (!sl_task_ok(p))
			goto filtered;
		want = READ_ONCE(sl_filter_of(p)->op);
		if (want && want != op)
			goto filtered;
		want = READ_ONCE(sl_filter_of(p)->fs);
		if (want && ((in->layer == SL_L_FS && in->fs_magic != want) ||
			     (in->layer != SL_L_FS && known &&
			      sl_st_file_fs(file) != want)))
			goto filtered;
		fl = in->layer == SL_L_FS ? SL_FR_REACHED : 0;
	}
	now = sl_now();
	if (!e) {
		/* the task's entry, as it is if the task has one already */
		e = sl_chain_open(p, current->pid, now);
		if (unlikely(!e))
			return 1;	/* counted by the table: full, busy */
	}
	d = (u32)e->aux[0];
	if (unlikely(d >= SL_ST_DEPTH)) {
		/* nested deeper than the stack: counted; time stays in parent */
		sl_chain_put(e);
		sl_loss(p, SL_LOSS_TABLE_FULL);
		return 1;
	}
	/*
	 * A new operation: sampling's choice, after the filters.  One it
	 * skips keeps its outermost frame, so that the layers under it know
	 * (they push nothing: no return to take), and is popped unrecorded.
	 */
	if (!d && !sl_sample_take(p))
		fl |= SL_FR_SKIP;
	e->ts[2 * d] = now;
	e->ts[2 * d + 1] = 0;
	sl_fr_set(e, d, fl | op | (in->layer << SL_FR_LAYER_SH));
	e->aux[0] = d + 1;
	sl_chain_put(e);
	r->start = now;
	r->depth = d;
	r->op = op;
	r->layer = in->layer;
	return 0;

filtered:
	if (e)
		sl_chain_put(e);
	sl_loss(p, SL_LOSS_FILTERED);
	return 1;
}

/*
 * Pop the frame of the call returning now and charge its inclusive time to
 * its parent.  A call is recorded (inclusive and self time) only if it
 * reached a filesystem: reads of procfs, sysfs, pipes or tmpfs are not
 * storage, and are neither recorded nor counted as lost.
 */
static __always_inline int sl_st_ret(struct sl_ev *ev,
				     struct sl_flight_ent *unused)
{
	struct sl_hook *hk = ev->hk;
	struct sl_pipeline *p = ev->p;
	const struct sl_st_ri *r = (const struct sl_st_ri *)ev->data;
	u64 now = sl_ev_now(ev), incl, child;
	struct sl_flight_ent *e;
	unsigned int base;
	u32 d = r->depth, depth;
	u8 fl;

	e = sl_chain_get(p, (unsigned long)current->pid);
	if (unlikely(!e)) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return SL_DONE;
	}
	depth = (u32)e->aux[0];
	if (unlikely(depth <= d || depth > SL_ST_DEPTH ||
		     e->ts[2 * d] != r->start)) {
		/* our frame is gone: the entry was reclaimed or flushed */
		sl_chain_put(e);
		sl_loss(p, SL_LOSS_UNMATCHED);
		return SL_DONE;
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
		sl_chain_put(e);
	} else {
		sl_chain_remove(p, e, SL_NO_LOSS);
	}
	if (!(fl & SL_FR_REACHED))
		return SL_DONE;
	sl_hook_hit(hk);
	base = (r->op - 1) * SL_S_PER_OP;
	sl_record(p, base + sl_st_incl[r->layer], (s64)incl);
	if (sl_st_self[r->layer] >= 0)
		sl_record(p, base + sl_st_self[r->layer], (s64)(incl - child));
	/* the operation's outermost call: its total, in the caller's cgroup */
	if (!d)
		sl_cgroup_record(p, (s64)incl);
	return SL_DONE;
}

/* How a candidate's arguments say which file it works on. */
enum {
	SL_ST_SYS,	/* a syscall wrapper: the syscall's registers, fd first */
	SL_ST_FD,	/* ksys_read() and friends: the descriptor first */
	SL_ST_FILE,	/* vfs_read(file, ...), ext4_file_open(inode, file) */
	SL_ST_KIOCB,	/* ext4_file_read_iter(iocb, iter) */
	SL_ST_NONE,	/* open syscalls, do_filp_open, I/O waits: none yet */
};

/* Entry of a storage point: which file, then push a frame. */
static __always_inline int sl_st_entry(struct sl_ev *ev)
{
	struct pt_regs *uregs;
	struct kiocb *iocb;

	switch (sl_ev_flavor(ev)) {
	case SL_ST_SYS:
		uregs = sl_ev_ptr(ev, 0);
		return -sl_st_push(ev, sl_st_fd_file((unsigned int)
				   sl_regs_arg(uregs, 0)), true);
	case SL_ST_FD:
		return -sl_st_push(ev, sl_st_fd_file((unsigned int)
				   sl_ev_arg(ev, 0)), true);
	case SL_ST_FILE:
		return -sl_st_push(ev, sl_ev_ptr(ev, 0), true);
	case SL_ST_KIOCB:
		iocb = sl_ev_ptr(ev, 0);
		return -sl_st_push(ev, READ_ONCE(iocb->ki_filp), true);
	}
	return -sl_st_push(ev, NULL, false);
}

#define SL_SYS(sym)	SL_KRPDF(sym, 0, SL_ST_SYS)
#define SL_NONE(sym)	SL_KRPDF(sym, 0, SL_ST_NONE)
#define SL_FD(sym)	SL_KRPDF(sym, 0, SL_ST_FD)
#define SL_F0(sym)	SL_KRPDF(sym, 0, SL_ST_FILE)
#define SL_F1(sym)	SL_KRPDF(sym, 1, SL_ST_FILE)
#define SL_IO(sym)	SL_KRPDF(sym, 0, SL_ST_KIOCB)
#define SL_W(sym)	SL_KRPDF(sym, 0, SL_ST_NONE)

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
SL_CANDS(sl_c_vfs_open, SL_NONE("do_filp_open"), SL_NONE("do_file_open"),
	 SL_NONE("vfs_open"));
/*
 * fsync: vfs_fsync_range(), and around it do_fsync(fd, datasync) - 7.3
 * inlines vfs_fsync() and vfs_fsync_range() into do_fsync(), so fsync(2)
 * reaches neither.  Where both are called, the inner frame is the same
 * operation's VFS layer again and is folded into the outer one (see
 * sl_st_push()), so each fsync is one VFS sample on every kernel.
 */
SL_CANDS(sl_c_vfs_fsync, SL_F0("vfs_fsync_range"));
SL_CANDS(sl_c_vfs_do_fsync, SL_FD("do_fsync"));
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

/*
 * Every row: its calls followed to their return (a kretprobe), the object
 * the task; entry pushes a frame, return pops it and records the layer
 * (from the instance's bytes: no argument is read at return).  Hits count
 * only the calls recorded.
 */
#define SL_H(idx, n, c, opt) \
	[idx] = SL_POINT(n, c, SL_ACT_NONE, 0, SL_OBJ_TASK, \
			 .optional = opt, .flags = SL_PF_NOHIT | SL_PF_NOARGS, \
			 .pre = sl_st_entry, .post = sl_st_ret, \
			 .data_size = sizeof(struct sl_st_ri))

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
	SL_H(SL_H_VFS_DO_FSYNC, "do_fsync", sl_c_vfs_do_fsync, true),
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

/* every row's kretprobe: these two, inline in its own handlers */
SL_KRP_DEFINE(st, sl_st_entry, sl_st_ret);

SL_PIPELINE(storage) = {
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
	.krp = &sl_krp_st,
	.cgroup_totals = true,
	.sampling = true,		/* an operation, at its outermost call */
};
