/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The keyed pipelines' ABI (uapi/stacklat.h includes it): the statistics
 * of a pipeline's keyed aggregation (STACKLAT_PIPE_A_KEYED) and the row
 * attributes GET_KEYED sends in STACKLAT_A_KEYED, one enum per pipeline
 * (syscalls, disktop, sched and cpu, offcpu, futex, lock), with the
 * syscalls' log2 latency buckets the others' histograms share.
 */
#ifndef _UAPI_STACKLAT_KEYED_H
#define _UAPI_STACKLAT_KEYED_H

#include <linux/types.h>

/*
 * A pipeline's keyed aggregation (STACKLAT_PIPE_A_KEYED): each CPU counts
 * in rows of its own (two buffers of cpu_rows rows, swapped by each fold),
 * folded once a second into one table of max_rows rows.  An update that
 * finds no row in its CPU's buffer goes to a spill buffer shared by the
 * CPUs (SPILLED).  Lost, counted: updates that found no row in their
 * CPU's buffer nor in the spill buffer (FULL) or ran nested in
 * another on the same CPU (BUSY); rows, and their calls, the folded table
 * had no room for (DROPPED_ROWS, DROPPED); notes of an ended process a
 * buffer had no room for (RETIRE_LOST: its rows then age out once the
 * process is found gone).  Rows of ended processes leave the table
 * LINGER_NS after the end, counted (AGED_ROWS, and their calls AGED):
 * the calls seen are exactly those in rows + AGED + DROPPED + FULL + BUSY.
 */
enum stacklat_keyed_stats_attr {
	STACKLAT_KEYED_A_UNSPEC,
	STACKLAT_KEYED_A_ROWS,		/* u32, rows in use */
	STACKLAT_KEYED_A_MAX_ROWS,	/* u32 */
	STACKLAT_KEYED_A_CPU_ROWS,	/* u32, rows a CPU buffer grows to */
	STACKLAT_KEYED_A_CPUS,		/* u32 */
	STACKLAT_KEYED_A_ROW_BYTES,	/* u32, bytes a folded row takes */
	STACKLAT_KEYED_A_ROW_BYTES_CPU,	/* u32, bytes a row takes in a CPU
					 * buffer (each CPU has two)
					 */
	STACKLAT_KEYED_A_BYTES,		/* u64, the whole table */
	STACKLAT_KEYED_A_LINGER_NS,	/* u64 */
	STACKLAT_KEYED_A_FOLDS,		/* u64 */
	STACKLAT_KEYED_A_FULL,		/* u64 */
	STACKLAT_KEYED_A_BUSY,		/* u64 */
	STACKLAT_KEYED_A_DROPPED,	/* u64 */
	STACKLAT_KEYED_A_DROPPED_ROWS,	/* u64 */
	STACKLAT_KEYED_A_AGED,		/* u64 */
	STACKLAT_KEYED_A_AGED_ROWS,	/* u64 */
	STACKLAT_KEYED_A_RETIRE_LOST,	/* u64 */
	STACKLAT_KEYED_A_PAD,
	STACKLAT_KEYED_A_CPU_ROWS_NOW,	/* u32, rows of the largest CPU
					 * buffer now (they start small and
					 * grow when a fold finds one more
					 * than half used)
					 */
	STACKLAT_KEYED_A_GROWS,		/* u64, CPU buffers grown */
	STACKLAT_KEYED_A_SPILLED,	/* u64, updates that found their CPU
					 * buffer full and went to the shared
					 * spill buffer (0.8)
					 */
	STACKLAT_KEYED_A_SPILL_ROWS,	/* u32, rows of a spill buffer now
					 * (two, shared by the CPUs; grown
					 * like the CPU buffers) (0.8)
					 */
	__STACKLAT_KEYED_A_LAST
};
#define STACKLAT_KEYED_A_MAX (__STACKLAT_KEYED_A_LAST - 1)

/* A row of the syscalls pipeline (GET_KEYED's STACKLAT_A_KEYED). */
enum stacklat_sc_attr {
	STACKLAT_SC_A_UNSPEC,
	STACKLAT_SC_A_TGID,
	STACKLAT_SC_A_COMM,
	STACKLAT_SC_A_ABI,
	STACKLAT_SC_A_NR,
	STACKLAT_SC_A_COUNT,
	STACKLAT_SC_A_ERRORS,
	STACKLAT_SC_A_TIME_NS,
	STACKLAT_SC_A_UNTIMED,
	STACKLAT_SC_A_MAX_NS,
	STACKLAT_SC_A_ERRNO,
	STACKLAT_SC_A_ERRNO_OTHER,
	STACKLAT_SC_A_HIST_FIRST,
	STACKLAT_SC_A_HIST,
	STACKLAT_SC_A_PAD,
	/* u64, the cgroup v2 id of the process's last call counted */
	STACKLAT_SC_A_CGROUP_ID,
	__STACKLAT_SC_A_LAST
};
#define STACKLAT_SC_A_MAX (__STACKLAT_SC_A_LAST - 1)

enum stacklat_sc_errno_attr {
	STACKLAT_SC_ERRNO_A_UNSPEC,
	STACKLAT_SC_ERRNO_A_ERRNO,	/* u32, positive */
	STACKLAT_SC_ERRNO_A_COUNT,	/* u64 */
	STACKLAT_SC_ERRNO_A_PAD,
	__STACKLAT_SC_ERRNO_A_LAST
};
#define STACKLAT_SC_ERRNO_A_MAX (__STACKLAT_SC_ERRNO_A_LAST - 1)

/*
 * The syscall conventions a row's number belongs to.  On x86-64: NATIVE
 * the 64-bit table, COMPAT the i386 one (32-bit processes, and int 0x80
 * from 64-bit ones), X32 the x32 numbers (the 64-bit table's, bit 30
 * cleared).  Each is counted apart: the same number names different calls.
 */
enum stacklat_sc_abi {
	STACKLAT_SC_ABI_NATIVE,
	STACKLAT_SC_ABI_COMPAT,
	STACKLAT_SC_ABI_X32,
	__STACKLAT_SC_ABI_MAX
};

#define STACKLAT_SC_NR_INVALID	0x0fffffffU	/* a number out of range */
#define STACKLAT_SC_ERRNOS	4	/* errnos a row keeps apart */
#define STACKLAT_SC_NBUCKETS	24	/* log2 latency buckets */

/*
 * The lower bound, in ns, of log2 latency bucket @i: 0 for bucket 0 (times
 * below 256 ns), 2^(i + 7) after; the last bucket has no upper bound.
 */
static inline __u64 stacklat_sc_lower(unsigned int i)
{
	return i ? 1ULL << (i + 7) : 0;
}

/* The log2 latency bucket of @ns. */
static inline unsigned int stacklat_sc_bucket(__u64 ns)
{
	unsigned int b = 0;

	if (ns < 256)
		return 0;
	while (b < STACKLAT_SC_NBUCKETS - 1 && ns >= (2ULL << (b + 7)))
		b++;
	return b;
}

/*
 * A row of the disktop pipeline (GET_KEYED's STACKLAT_A_KEYED): one
 * process's bios to one disk, counted at their submission (block_bio_queue)
 * for the task submitting them (docs/pipelines/disktop.md).
 */
enum stacklat_dk_attr {
	STACKLAT_DK_A_UNSPEC,
	STACKLAT_DK_A_TGID,
	STACKLAT_DK_A_COMM,
	STACKLAT_DK_A_DEV,
	STACKLAT_DK_A_OPS,
	STACKLAT_DK_A_READ_BYTES,
	STACKLAT_DK_A_READ_OPS,
	STACKLAT_DK_A_WRITE_BYTES,
	STACKLAT_DK_A_WRITE_OPS,
	STACKLAT_DK_A_DISCARD_BYTES,
	STACKLAT_DK_A_DISCARD_OPS,
	STACKLAT_DK_A_FLUSH_OPS,
	STACKLAT_DK_A_OTHER_OPS,
	STACKLAT_DK_A_PAD,
	/* u64, the cgroup v2 id of the last bio's submitter (0: [irq]) */
	STACKLAT_DK_A_CGROUP_ID,
	__STACKLAT_DK_A_LAST
};
#define STACKLAT_DK_A_MAX (__STACKLAT_DK_A_LAST - 1)

/*
 * A row of the sched pipeline (GET_KEYED's STACKLAT_A_KEYED): one thread's
 * run-queue latency, runnable (woken, or switched out still runnable) to
 * on a CPU; the histogram's buckets are syscalls' (stacklat_sc_lower()).
 * A row of the cpu pipeline has the same attributes: one thread's on-CPU
 * slices, and the two appended ones, the user and system time the
 * kernel's accounting gave the thread during them.
 */
enum stacklat_sd_attr {
	STACKLAT_SD_A_UNSPEC,
	STACKLAT_SD_A_TGID,
	STACKLAT_SD_A_TID,
	STACKLAT_SD_A_COMM,
	STACKLAT_SD_A_THREAD_COMM,
	STACKLAT_SD_A_COUNT,
	STACKLAT_SD_A_TIME_NS,
	STACKLAT_SD_A_MAX_NS,
	STACKLAT_SD_A_PREEMPTED,
	STACKLAT_SD_A_HIST_FIRST,
	STACKLAT_SD_A_HIST,
	STACKLAT_SD_A_PAD,
	STACKLAT_SD_A_USER_TICK_NS,
	STACKLAT_SD_A_SYS_TICK_NS,
	__STACKLAT_SD_A_LAST
};
#define STACKLAT_SD_A_MAX (__STACKLAT_SD_A_LAST - 1)

/*
 * A row of the offcpu pipeline (GET_KEYED's STACKLAT_A_KEYED): one
 * process's blocks (switched out not runnable, to the next wakeup) under
 * one kernel stack; the histogram's buckets are syscalls'.
 */
enum stacklat_oc_attr {
	STACKLAT_OC_A_UNSPEC,
	STACKLAT_OC_A_TGID,		/* u32, the process */
	/* u32, its stack in GET_STACKS of "offcpu" (0: not kept, full) */
	STACKLAT_OC_A_STACK_ID,
	STACKLAT_OC_A_COMM,		/* NUL string, the process's name */
	/*
	 * NUL string, the innermost function of the stack that is not
	 * scheduler machinery (.sched.text); "-" with no stack, "?" if none
	 */
	STACKLAT_OC_A_REASON,
	STACKLAT_OC_A_COUNT,		/* u64, blocks that ended (woken) */
	STACKLAT_OC_A_TIME_NS,		/* u64, their total time */
	STACKLAT_OC_A_MAX_NS,		/* u64, the longest */
	STACKLAT_OC_A_HIST_FIRST,	/* u32, and _HIST: as syscalls' */
	STACKLAT_OC_A_HIST,
	STACKLAT_OC_A_PAD,
	__STACKLAT_OC_A_LAST
};
#define STACKLAT_OC_A_MAX (__STACKLAT_OC_A_LAST - 1)

/*
 * A row of the futex pipeline (GET_KEYED's STACKLAT_A_KEYED): one
 * process's waits on one futex, named by its user address in that
 * process; the histogram's buckets are syscalls'.
 */
enum stacklat_fx_attr {
	STACKLAT_FX_A_UNSPEC,
	STACKLAT_FX_A_TGID,		/* u32, the process */
	STACKLAT_FX_A_COMM,		/* NUL string, the process's name */
	STACKLAT_FX_A_UADDR,		/* u64, the futex's user address */
	STACKLAT_FX_A_WAITS,		/* u64, waits that blocked and returned */
	STACKLAT_FX_A_EAGAIN,		/* u64, waits that returned -EAGAIN at once */
	STACKLAT_FX_A_TIME_NS,		/* u64, the waits' total time */
	STACKLAT_FX_A_MAX_NS,		/* u64, the longest */
	/* u32, the thread that woke the last wait (0: from an interrupt) */
	STACKLAT_FX_A_WAKER,
	/* u64, calls on another address of the process that share the row */
	STACKLAT_FX_A_ALIAS,
	STACKLAT_FX_A_HIST_FIRST,	/* u32, and _HIST: as syscalls' */
	STACKLAT_FX_A_HIST,
	STACKLAT_FX_A_PAD,
	__STACKLAT_FX_A_LAST
};
#define STACKLAT_FX_A_MAX (__STACKLAT_FX_A_LAST - 1)

/*
 * A row of the lock pipeline (GET_KEYED's STACKLAT_A_KEYED): the
 * contended waits of one lock type at one caller (kernel-wide, not per
 * process); the histogram's buckets are syscalls'.  The caller is named,
 * never sent as an address.
 */
enum stacklat_lk_attr {
	STACKLAT_LK_A_UNSPEC,
	/* u32, the type's flags (lock:contention_begin's, LCB_F_*) */
	STACKLAT_LK_A_FLAGS,
	/* NUL string, perf lock's name of the type ("rwsem:W", "spinlock") */
	STACKLAT_LK_A_TYPE,
	/*
	 * NUL string, the first function outside the locking code that
	 * waited, "function+0xoff" (and " [module]"); "?" when not found
	 */
	STACKLAT_LK_A_CALLER,
	STACKLAT_LK_A_WAITS,		/* u64, contended waits that ended */
	STACKLAT_LK_A_FAILED,		/* u64, of which ended in an error */
	STACKLAT_LK_A_TIME_NS,		/* u64, the waits' total time */
	STACKLAT_LK_A_MAX_NS,		/* u64, the longest */
	/* u64, contention begins (of other locks) inside the row's waits */
	STACKLAT_LK_A_NESTED,
	/* u32, the last wait's stack in GET_STACKS of "lock" (0: not kept) */
	STACKLAT_LK_A_STACK_ID,
	/* u64, waits of another caller that share the row */
	STACKLAT_LK_A_ALIAS,
	STACKLAT_LK_A_HIST_FIRST,	/* u32, and _HIST: as syscalls' */
	STACKLAT_LK_A_HIST,
	STACKLAT_LK_A_PAD,
	__STACKLAT_LK_A_LAST
};
#define STACKLAT_LK_A_MAX (__STACKLAT_LK_A_LAST - 1)

#endif /* _UAPI_STACKLAT_KEYED_H */
