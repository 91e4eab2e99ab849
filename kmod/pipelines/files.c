// SPDX-License-Identifier: GPL-2.0
/*
 * files: opens, reads and writes per process and per file - bcc's filetop,
 * SystemTap's iostats.stp, sysdig's topfiles_bytes (issue 29, "top
 * files") - in the engine's keyed aggregation (core/keyed.c), and the
 * sizes read and written per call as two value stages ("read", "write":
 * log2 histograms of bytes).
 *
 * Points, and why these:
 *   read     vfs_read() followed to its return (fprobe or kretprobe): the
 *            file is its first argument (saved at entry, the engine's
 *            return points keep the arguments), the bytes its return
 *            value.  vfs_read() is where read(2) and pread64(2) go, on
 *            every kernel of the matrix (5.10 .. 7.x), with the same
 *            prototype, and it is where the kernel's own per-task I/O
 *            accounting counts (inc_syscr(), add_rchar(): /proc/PID/io's
 *            syscr and rchar), so its counts can be checked against the
 *            kernel's.  The syscall tracepoints would need the fd turned
 *            into a file in probe context (the fd table, no stable API);
 *            rw_verify_area() and the fsnotify hooks see the request, not
 *            what was read, and are inline in places.
 *   write    vfs_write() likewise (write(2), pwrite64(2); syscw, wchar).
 *   kernel_read, kernel_write   __kernel_read() and __kernel_write(),
 *            likewise: what the kernel reads and writes for the process
 *            with a kernel buffer (execve() reading the program's and
 *            the interpreter's headers, a core dump, splice to a file),
 *            which the kernel's accounting charges to the process too
 *            (inc_syscr() and add_rchar() in __kernel_read()): with them
 *            a process's rows add up to its syscr, syscw, rchar and wchar
 *            where it reads and writes with read(2), pread64(2), write(2)
 *            and pwrite64(2) only.  Optional.
 *   open     do_filp_open() (do_file_open() from 7.0, the same
 *            arguments) followed to its return: the struct file it
 *            returns, or an error; its second argument is the kernel's
 *            copy of the path (struct filename: kernel memory, read
 *            without faulting), which names what a failed open tried.
 *            Every open(2), openat(2), openat2(2) and creat(2) passes
 *            here (do_sys_openat2()), and so does execve()'s open of the
 *            program; do_sys_openat2() itself sees only the user's string.
 *            Optional: a kernel without it still counts reads and writes.
 *   process_exit   sched_process_exit: a process's rows age out
 *            keyed_linger_ms after its end, as syscalls' do.
 * Not seen: readv/writev and preadv/pwritev (vfs_readv/vfs_writev, static
 * on some kernels), sendfile and splice from a file, copy_file_range,
 * io_uring, mmap (page faults); their calls are in /proc/PID/io but not
 * here.  A call refused before the kernel counts it (a file not open for
 * reading: -EBADF) is here, as a read with an error, and not in syscr.
 *
 * A row is (tgid, file): the file its device and inode (the superblock's
 * s_dev, the inode's i_ino), folded to 31 bits; the row keeps both whole
 * and counts "alias" the updates of another file of the process that
 * folded to the same key (they are in its counts; none is expected).  A
 * failed open has no file: its row is (tgid, the failed path's last
 * component, hashed), a "name row" (bit 31 set in the key; device and
 * inode 0), with the failures by errno (STACKLAT_SC_ERRNOS kept apart,
 * the others in "other").  The name is read from the dentry
 * (file->f_path.dentry->d_name) when a row is first used in a CPU's
 * buffer: a bounded copy, byte by byte, no lock - a rename at that moment
 * can give a mix of the two names, never a fault (the old name's memory
 * is freed after an RCU grace period, and the copy runs with preemption
 * off); no d_path(), nothing that sleeps.  The filesystem type is the
 * superblock's (s_type->name, a string of the filesystem's module).  The
 * cgroup (v2 id) is the process's at the row's last update: a process
 * moved to another cgroup keeps its rows (the key has no room for a
 * 64-bit id); the tool's --by cgroup folds rows by it.
 *
 * Context: the read, write and open returns run in the calling thread,
 * with preemption off (kretprobe, or fprobe under ftrace's recursion
 * lock), any process context; sched_process_exit in the exiting thread.
 * Nothing here sleeps, allocates or takes a lock; an update the table has
 * no room for is counted by the keyed engine (full, busy, dropped).
 */
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/jhash.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <net/netlink.h>
#include <trace/events/sched.h>

#include "sl.h"

/* A row's values (keyed.h: value 0 is its weight, every update). */
enum {
	LV_CALLS,
	LV_OPENS,
	LV_OFAILS,
	LV_ERRNO,				/* errno << 48 | count */
	LV_ERRNO_OTHER = LV_ERRNO + STACKLAT_SC_ERRNOS,
	LV_READS,
	LV_RERRS,
	LV_RBYTES,
	LV_WRITES,
	LV_WERRS,
	LV_WBYTES,
	LV_DEV,
	LV_INO,					/* a name row: its name's hash */
	LV_ALIAS,
	LV_PCOMM,				/* 16 bytes */
	LV_NAME = LV_PCOMM + 2,			/* STACKLAT_FL_NAME_MAX bytes */
	LV_FSTYPE = LV_NAME + STACKLAT_FL_NAME_MAX / 8,
	LV_CGROUP = LV_FSTYPE + STACKLAT_FL_FSTYPE_MAX / 8,	/* last update's */
	LV_NVALS
};

#define FL_ERRNO_SHIFT	SL_KEYED_ERRNO_SHIFT
#define FL_COUNT_MASK	SL_KEYED_ERRNO_COUNT
#define FL_KEY_NAME	BIT(31)		/* a name row */

/* Value stages: the bytes each read and write returned. */
enum { FS_READ, FS_WRITE };

static struct sl_stage sl_fl_stages[] = {
	[FS_READ] = SL_VALUE_STAGE("read", "read", "read", STACKLAT_UNIT_BYTES),
	[FS_WRITE] = SL_VALUE_STAGE("write", "write", "write",
				    STACKLAT_UNIT_BYTES),
};

/* What an update counts. */
enum { FL_OPEN, FL_OPEN_FAIL, FL_READ, FL_WRITE };

/* (tgid, fold) as a key, never 0; the tgid is its group */
static __always_inline u64 sl_fl_key(u32 tgid, u32 fold)
{
	u64 key = (u64)tgid << 32 | fold;

	return key ? key : 1;
}

/* A file's (device, inode) folded to 31 bits. */
static __always_inline u32 sl_fl_fold(u32 dev, u64 ino)
{
	return jhash_2words((u32)ino ^ (u32)(ino >> 32), dev, 0) &
	       ~FL_KEY_NAME;
}

/* At most @n - 1 bytes of the string @from into @to, NUL-ended; its length. */
static __always_inline unsigned int sl_fl_copy(char *to, const char *from,
					       unsigned int n)
{
	unsigned int i;
	char c;

	for (i = 0; i < n - 1; i++) {
		c = READ_ONCE(from[i]);
		if (!c)
			break;
		to[i] = c;
	}
	to[i] = '\0';
	return i;
}

/*
 * One update of the current process's row for @file (or, @file NULL, for
 * the failed open's @name with hash @hash): @what, @ret the call's return.
 */
static __always_inline void sl_fl_count(struct sl_pipeline *p,
					const struct file *file,
					const char *name, u32 hash,
					unsigned int what, long ret)
{
	struct sl_keyed *t = sl_pipeline_keyed(p);
	const struct inode *inode = NULL;
	const struct super_block *sb;
	struct sl_keyed_buf *b;
	u32 dev = 0, fold;
	u64 ino = hash;
	bool fresh;
	u64 *v;

	if (!t || (!file && !name))
		return;
	if (file) {
		inode = READ_ONCE(file->f_inode);
		if (!inode)
			return;
		sb = inode->i_sb;
		dev = (u32)sb->s_dev;
		ino = inode->i_ino;
		fold = sl_fl_fold(dev, ino);
	} else {
		fold = hash | FL_KEY_NAME;
	}
	b = sl_keyed_begin(t);
	if (!b)
		return;
	v = sl_keyed_row(t, b, sl_fl_key((u32)current->tgid, fold), &fresh);
	if (v) {
		if (fresh) {
			sl_keyed_name((char *)&v[LV_PCOMM],
				      READ_ONCE(current->group_leader)->comm);
			v[LV_DEV] = dev;
			v[LV_INO] = ino;
			if (file) {
				sl_fl_copy((char *)&v[LV_NAME],
					   (const char *)READ_ONCE(file->f_path.dentry->d_name.name),
					   STACKLAT_FL_NAME_MAX);
				sl_fl_copy((char *)&v[LV_FSTYPE],
					   inode->i_sb->s_type->name,
					   STACKLAT_FL_FSTYPE_MAX);
			} else {
				memcpy(&v[LV_NAME], name, STACKLAT_FL_NAME_MAX);
			}
		} else if (v[LV_DEV] != dev || v[LV_INO] != ino) {
			v[LV_ALIAS]++;
		}
		v[LV_CGROUP] = sl_task_cgroup_id(current);
		v[LV_CALLS]++;
		switch (what) {
		case FL_OPEN:
			v[LV_OPENS]++;
			break;
		case FL_OPEN_FAIL:
			v[LV_OFAILS]++;
			sl_keyed_errno_add(&v[LV_ERRNO], &v[LV_ERRNO_OTHER],
					   (u64)-ret, 1);
			break;
		case FL_READ:
			v[LV_READS]++;
			if (ret < 0)
				v[LV_RERRS]++;
			else
				v[LV_RBYTES] += ret;
			break;
		case FL_WRITE:
			v[LV_WRITES]++;
			if (ret < 0)
				v[LV_WERRS]++;
			else
				v[LV_WBYTES] += ret;
			break;
		}
	}
	sl_keyed_end(b);
}

/* vfs_read/vfs_write/do_filp_open entry: the task filter */
static int sl_fl_entry(struct sl_ev *ev)
{
	if (sl_task_ok(ev->p))
		return 0;
	sl_loss(ev->p, SL_LOSS_FILTERED);
	return -1;
}

/* vfs_read(file, buf, count, pos) returned */
static int sl_fl_read(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	long ret = (long)ev->ret;

	sl_fl_count(ev->p, sl_ev_ptr(ev, 0), NULL, 0, FL_READ, ret);
	if (ret > 0)
		sl_record_value(ev->p, FS_READ, (u64)ret);
	return SL_KEEP;
}

/* vfs_write(file, buf, count, pos) returned */
static int sl_fl_write(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	long ret = (long)ev->ret;

	sl_fl_count(ev->p, sl_ev_ptr(ev, 0), NULL, 0, FL_WRITE, ret);
	if (ret > 0)
		sl_record_value(ev->p, FS_WRITE, (u64)ret);
	return SL_KEEP;
}

/*
 * do_filp_open(dfd, pathname, op) returned a file or an error.  A failure
 * is counted under the last component of the path the caller gave
 * (pathname->name, the kernel's copy, alive until the caller's putname()),
 * or the whole path when it ends in '/'; "?" when there is no name (7.x
 * calls it with getname()'s error, a bad user pointer or a path too long).
 */
static int sl_fl_open(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct filename *fn = sl_ev_ptr(ev, 1);
	const struct file *f = (const struct file *)ev->ret;
	char name[STACKLAT_FL_NAME_MAX];
	const char *s, *last;
	unsigned int n;
	char c;

	if (!IS_ERR_OR_NULL(f)) {
		sl_fl_count(ev->p, f, NULL, 0, FL_OPEN, 0);
		return SL_KEEP;
	}
	if (!f)
		return SL_KEEP;
	/* 7.x hands on getname()'s error as the name: no name to count under */
	s = IS_ERR_OR_NULL(fn) ? NULL : READ_ONCE(fn->name);
	if (!s)
		s = "?";
	/* the last component: bounded, as a path is at most PATH_MAX */
	last = s;
	for (n = 0; n < PATH_MAX; n++) {
		c = READ_ONCE(s[n]);
		if (!c)
			break;
		if (c == '/' && READ_ONCE(s[n + 1]))
			last = s + n + 1;
	}
	memset(name, 0, sizeof(name));
	n = sl_fl_copy(name, last, sizeof(name));
	sl_fl_count(ev->p, NULL, name, jhash(name, n, 0), FL_OPEN_FAIL,
		    PTR_ERR(f));
	return SL_KEEP;
}

/* sched_process_exit(p[, group_dead]): the last thread notes its end */
static int sl_fl_pexit(struct sl_ev *ev)
{
	sl_pipeline_keyed_pexit(ev);
	return -1;
}

SL_TP_DEFINE(sched_process_exit, (SL_COMPAT_PROCESS_EXIT_ARGS),
	     (unsigned long)p, (unsigned long)sl_compat_group_dead(p))

static const struct sl_cand sl_c_fl_read[] = { SL_KRPD("vfs_read", 0) };
static const struct sl_cand sl_c_fl_write[] = { SL_KRPD("vfs_write", 0) };
static const struct sl_cand sl_c_fl_kread[] = { SL_KRPD("__kernel_read", 0) };
static const struct sl_cand sl_c_fl_kwrite[] = {
	SL_KRPD("__kernel_write", 0) };
static const struct sl_cand sl_c_fl_open[] = {
	SL_KRPD("do_filp_open", 0),
	SL_KRPD("do_file_open", 0),		/* its name from 7.0 */
};
static const struct sl_cand sl_c_fl_pexit[] = { SL_TPD(sched_process_exit) };

/* Everything happens in the callbacks: no chain is ever followed. */
static struct sl_hook sl_fl_hooks[] = {
	SL_POINT("read", sl_c_fl_read, SL_ACT_NONE, 0, 0,
		 .pre = sl_fl_entry, .post = sl_fl_read),
	SL_POINT("write", sl_c_fl_write, SL_ACT_NONE, 0, 0,
		 .pre = sl_fl_entry, .post = sl_fl_write),
	SL_POINT("kernel_read", sl_c_fl_kread, SL_ACT_NONE, 0, 0,
		 .optional = true, .pre = sl_fl_entry, .post = sl_fl_read),
	SL_POINT("kernel_write", sl_c_fl_kwrite, SL_ACT_NONE, 0, 0,
		 .optional = true, .pre = sl_fl_entry, .post = sl_fl_write),
	SL_POINT("open", sl_c_fl_open, SL_ACT_NONE, 0, 0, .optional = true,
		 .pre = sl_fl_entry, .post = sl_fl_open),
	SL_POINT("process_exit", sl_c_fl_pexit, SL_ACT_NONE, 0, SL_OBJ_TASK,
		 .pre = sl_fl_pexit),
};

/* ---- folding and reading (process context) ---------------------------- */

static void sl_fl_merge(u64 *dst, const u64 *src, unsigned int nvals,
			bool fresh)
{
	unsigned int i;

	if (fresh) {
		dst[LV_DEV] = src[LV_DEV];
		dst[LV_INO] = src[LV_INO];
		memcpy(&dst[LV_NAME], &src[LV_NAME], STACKLAT_FL_NAME_MAX);
		memcpy(&dst[LV_FSTYPE], &src[LV_FSTYPE],
		       STACKLAT_FL_FSTYPE_MAX);
	} else if (dst[LV_DEV] != src[LV_DEV] || dst[LV_INO] != src[LV_INO]) {
		dst[LV_ALIAS] += src[LV_CALLS];
	}
	for (i = LV_CALLS; i <= LV_OFAILS; i++)
		dst[i] += src[i];
	for (i = LV_ERRNO_OTHER; i <= LV_WBYTES; i++)
		dst[i] += src[i];
	dst[LV_ALIAS] += src[LV_ALIAS];
	sl_keyed_errno_merge(&dst[LV_ERRNO], &dst[LV_ERRNO_OTHER],
			     &src[LV_ERRNO]);
	/* the newest name (a process that ran exec is named anew) */
	if (src[LV_PCOMM])
		memcpy(&dst[LV_PCOMM], &src[LV_PCOMM], 16);
	/* the newest cgroup: a CPU's buffer that counted an update has one */
	if (src[LV_CALLS])
		dst[LV_CGROUP] = src[LV_CGROUP];
}

static const struct sl_keyed_ops sl_fl_keyed_ops = {
	.merge = sl_fl_merge,
	.alive = sl_keyed_tgid_alive,
};

/* A row's name (or type) for a reader: NUL-ended, "-" when empty. */
static void sl_fl_str(char *to, const u64 *from, unsigned int n)
{
	memcpy(to, from, n);
	to[n - 1] = '\0';
	if (!to[0])
		strscpy(to, "-", n);
}

/*
 * The debugfs table's rows: the device as major:minor; the name last, as
 * the kernel has it (a name may hold blanks: it ends the line).
 */
static void sl_fl_show(struct seq_file *m, u64 key, const u64 *v)
{
	char comm[16], dev[24], fs[STACKLAT_FL_FSTYPE_MAX];
	char name[STACKLAT_FL_NAME_MAX];
	unsigned int i;

	if (!v) {
		seq_printf(m, "%8s %-15s %9s %10s %-8s %6s %6s %8s %12s %8s %12s %5s %5s %5s %10s  %s\n",
			   "tgid", "comm", "dev", "ino", "fstype", "opens",
			   "ofail", "reads", "read_bytes", "writes",
			   "write_bytes", "rerr", "werr", "alias", "cgroup",
			   "errno:count... | name");
		return;
	}
	sl_keyed_show_comm(comm, &v[LV_PCOMM]);
	snprintf(dev, sizeof(dev), "%u:%u", MAJOR((u32)v[LV_DEV]),
		 MINOR((u32)v[LV_DEV]));
	sl_fl_str(fs, &v[LV_FSTYPE], sizeof(fs));
	sl_fl_str(name, &v[LV_NAME], sizeof(name));
	seq_printf(m, "%8u %-15s %9s %10llu %-8s %6llu %6llu %8llu %12llu %8llu %12llu %5llu %5llu %5llu %10llu ",
		   sl_keyed_group(key), comm, dev,
		   (key & FL_KEY_NAME) ? 0 : v[LV_INO], fs, v[LV_OPENS],
		   v[LV_OFAILS], v[LV_READS], v[LV_RBYTES], v[LV_WRITES],
		   v[LV_WBYTES], v[LV_RERRS], v[LV_WERRS], v[LV_ALIAS],
		   v[LV_CGROUP]);
	for (i = 0; i < STACKLAT_SC_ERRNOS && v[LV_ERRNO + i]; i++)
		seq_printf(m, " %llu:%llu", v[LV_ERRNO + i] >> FL_ERRNO_SHIFT,
			   v[LV_ERRNO + i] & FL_COUNT_MASK);
	if (v[LV_ERRNO_OTHER])
		seq_printf(m, " other:%llu", v[LV_ERRNO_OTHER]);
	seq_printf(m, " | %s\n", name);
}

static int sl_fl_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, STACKLAT_FL_A_PAD);
}

/* One row for GET_KEYED (inside its STACKLAT_A_KEYED nest). */
static int sl_fl_put(struct sk_buff *skb, u64 key, const u64 *v)
{
	char comm[16], fs[STACKLAT_FL_FSTYPE_MAX];
	char name[STACKLAT_FL_NAME_MAX];
	struct nlattr *nest;
	unsigned int i;

	memcpy(comm, &v[LV_PCOMM], sizeof(comm));
	comm[15] = '\0';
	memcpy(name, &v[LV_NAME], sizeof(name));
	name[sizeof(name) - 1] = '\0';
	memcpy(fs, &v[LV_FSTYPE], sizeof(fs));
	fs[sizeof(fs) - 1] = '\0';
	if (nla_put_u32(skb, STACKLAT_FL_A_TGID, sl_keyed_group(key)) ||
	    nla_put_string(skb, STACKLAT_FL_A_COMM, comm) ||
	    nla_put_u32(skb, STACKLAT_FL_A_DEV, (u32)v[LV_DEV]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_INO,
			  (key & FL_KEY_NAME) ? 0 : v[LV_INO]) ||
	    nla_put_string(skb, STACKLAT_FL_A_NAME, name) ||
	    nla_put_string(skb, STACKLAT_FL_A_FSTYPE, fs) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_OPENS, v[LV_OPENS]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_OPEN_FAILS, v[LV_OFAILS]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_ERRNO_OTHER, v[LV_ERRNO_OTHER]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_READS, v[LV_READS]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_READ_ERRORS, v[LV_RERRS]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_READ_BYTES, v[LV_RBYTES]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_WRITES, v[LV_WRITES]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_WRITE_ERRORS, v[LV_WERRS]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_WRITE_BYTES, v[LV_WBYTES]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_ALIAS, v[LV_ALIAS]) ||
	    sl_fl_put_u64(skb, STACKLAT_FL_A_CGROUP_ID, v[LV_CGROUP]))
		return -EMSGSIZE;
	for (i = 0; i < STACKLAT_SC_ERRNOS && v[LV_ERRNO + i]; i++) {
		nest = nla_nest_start(skb, STACKLAT_FL_A_ERRNO);
		if (!nest ||
		    nla_put_u32(skb, STACKLAT_SC_ERRNO_A_ERRNO,
				(u32)(v[LV_ERRNO + i] >> FL_ERRNO_SHIFT)) ||
		    nla_put_u64_64bit(skb, STACKLAT_SC_ERRNO_A_COUNT,
				      v[LV_ERRNO + i] & FL_COUNT_MASK,
				      STACKLAT_SC_ERRNO_A_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* ---- life ---------------------------------------------------------------- */

#define SL_FL_FOLD_MS	1000

/* The rows come with the first enable; disabling folds the last. */
static int sl_fl_on_enable(struct sl_pipeline *p)
{
	return sl_pipeline_keyed_enable(p, LV_NVALS, &sl_fl_keyed_ops,
					SL_FL_FOLD_MS);
}

SL_PIPELINE(files) = {
	.name = "files",
	.desc = "opens (failed ones by errno), reads and writes (calls, bytes) per process and file: the dentry's name, device, inode, filesystem type",
	.key = STACKLAT_KEY_NONE,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.hooks = sl_fl_hooks,
	.nhooks = ARRAY_SIZE(sl_fl_hooks),
	.stages = sl_fl_stages,
	.nstages = ARRAY_SIZE(sl_fl_stages),
	.on_enable = sl_fl_on_enable,
	.on_disable = sl_pipeline_keyed_disable,
	.teardown = sl_pipeline_keyed_teardown,
	.keyed_show = sl_fl_show,
	.keyed_put = sl_fl_put,
};
