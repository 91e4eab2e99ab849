/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * stacklat - per-layer kernel latency breakdown.
 *
 * The ABI between the stacklat kernel module and user space: the generic
 * netlink family, its commands and attributes, and the text command set of
 * /sys/kernel/debug/stacklat/control.
 *
 * This ABI only grows: commands and attributes are appended, never
 * renumbered or removed, and STACKLAT_GENL_VERSION stays 1.
 *
 * Commands and the attribute tree of each
 * ---------------------------------------
 *
 * STACKLAT_CMD_GET_STATUS (doit, CAP_NET_ADMIN or CAP_PERFMON)
 *   request:  (nothing)
 *   reply:
 *     STACKLAT_A_MODULE_VERSION    NUL string
 *     STACKLAT_A_KERNEL_RELEASE    NUL string
 *     STACKLAT_A_CLOCK             NUL string, the timestamp source
 *     STACKLAT_A_NR_PIPELINES      u32
 *     STACKLAT_A_FLIGHT            nest, enum stacklat_flight_attr
 *       STACKLAT_FLIGHT_A_SIZE       u32, slots in the in-flight table
 *       STACKLAT_FLIGHT_A_USED       u32, slots in use now
 *       STACKLAT_FLIGHT_A_MAX_AGE_NS u64, age after which an entry is stale
 *       STACKLAT_FLIGHT_A_INSERTS    u64
 *       STACKLAT_FLIGHT_A_FULL       u64, inserts lost to a full table
 *       STACKLAT_FLIGHT_A_STALE      u64, entries expired unfinished
 *
 * STACKLAT_CMD_GET_PIPELINES (dump, CAP_NET_ADMIN or CAP_PERFMON)
 *   request:  STACKLAT_A_PIPELINE_NAME (optional: only that pipeline)
 *   reply, one message per pipeline:
 *     STACKLAT_A_PIPELINE          nest, enum stacklat_pipe_attr
 *       STACKLAT_PIPE_A_NAME         NUL string
 *       STACKLAT_PIPE_A_DESC         NUL string
 *       STACKLAT_PIPE_A_KEY          u32, enum stacklat_key
 *       STACKLAT_PIPE_A_ENABLED      u8
 *       STACKLAT_PIPE_A_GENERATION   u64, bumped by every reset
 *       STACKLAT_PIPE_A_STAGES       nest of STACKLAT_PIPE_A_STAGE
 *         STACKLAT_PIPE_A_STAGE        nest, enum stacklat_stage_attr
 *           STACKLAT_STAGE_A_INDEX       u32
 *           STACKLAT_STAGE_A_NAME        NUL string
 *           STACKLAT_STAGE_A_FROM        NUL string, hook point it starts at
 *           STACKLAT_STAGE_A_TO          NUL string, hook point it ends at
 *       STACKLAT_PIPE_A_HOOKS        nest of STACKLAT_PIPE_A_HOOK
 *         STACKLAT_PIPE_A_HOOK         nest, enum stacklat_hook_attr
 *           STACKLAT_HOOK_A_NAME         NUL string, the hook point
 *           STACKLAT_HOOK_A_STATE        u32, enum stacklat_hook_state
 *           STACKLAT_HOOK_A_KIND         u32, enum stacklat_hook_kind
 *           STACKLAT_HOOK_A_TARGET       NUL string, tracepoint or symbol
 *           STACKLAT_HOOK_A_ERROR        u32, errno of the failure (positive)
 *           STACKLAT_HOOK_A_HITS         u64
 *           STACKLAT_HOOK_A_NMISSED      u64, kprobe/kretprobe nmissed
 *       STACKLAT_PIPE_A_LOSS         nest, enum stacklat_loss_attr
 *       STACKLAT_PIPE_A_FILTER       nest, enum stacklat_filter_attr
 *
 * STACKLAT_CMD_GET_HIST (dump, CAP_NET_ADMIN or CAP_PERFMON)
 *   request:  STACKLAT_A_PIPELINE_NAME (optional: only that pipeline)
 *   reply, one message per stage of each pipeline:
 *     STACKLAT_A_PIPELINE_NAME     NUL string
 *     STACKLAT_A_GENERATION        u64, the pipeline's reset generation
 *     STACKLAT_A_STAGE_INDEX       u32
 *     STACKLAT_A_STAGE_NAME        NUL string
 *     STACKLAT_A_HIST              nest, enum stacklat_hist_attr
 *       STACKLAT_HIST_A_COUNT        u64, samples recorded, the overflow
 *                                    bucket included: COUNT = OVERFLOW +
 *                                    the sum of BUCKETS
 *       STACKLAT_HIST_A_SUM          u64, ns
 *       STACKLAT_HIST_A_MIN          u64, ns (absent when COUNT is 0)
 *       STACKLAT_HIST_A_MAX          u64, ns (absent when COUNT is 0)
 *       STACKLAT_HIST_A_OVERFLOW     u64, samples >= STACKLAT_HIST_MAX_NS
 *       STACKLAT_HIST_A_NBUCKETS     u32, STACKLAT_HIST_NBUCKETS of the module
 *       STACKLAT_HIST_A_FIRST        u32, index of BUCKETS[0]
 *       STACKLAT_HIST_A_BUCKETS      binary, array of u64 (host order),
 *                                    buckets FIRST .. last non-zero
 *   The dump is stamped with a sequence that changes on any reset, enable
 *   or disable: a reply with NLM_F_DUMP_INTR set should be retried.
 *
 * STACKLAT_CMD_SET_PIPELINE (doit, CAP_SYS_ADMIN or CAP_PERFMON)
 *   request:
 *     STACKLAT_A_PIPELINE_NAME     NUL string, required
 *     STACKLAT_A_ENABLE            u8 (optional): 1 enable, 0 disable
 *     STACKLAT_A_FILTER            nest, enum stacklat_filter_attr (optional)
 *                                  replaces the pipeline's filter; an empty
 *                                  nest clears it
 *
 * STACKLAT_CMD_RESET (doit, CAP_SYS_ADMIN or CAP_PERFMON)
 *   request:  STACKLAT_A_PIPELINE_NAME (optional: all pipelines if absent)
 *
 * STACKLAT_CMD_FUNC_ADD (doit, CAP_SYS_ADMIN or CAP_PERFMON)
 *   request:  STACKLAT_A_FUNC_SYMBOL   NUL string, a kernel function
 *   Adds the function to the "func" pipeline (entry to return latency).
 *
 * STACKLAT_CMD_FUNC_DEL (doit, CAP_SYS_ADMIN or CAP_PERFMON)
 *   request:  STACKLAT_A_FUNC_SYMBOL   NUL string
 *
 * Control file (/sys/kernel/debug/stacklat/control), one command a line:
 *   enable PIPELINE | disable PIPELINE | reset [PIPELINE]
 *   filter PIPELINE clear | filter PIPELINE KEY=VALUE...  (added to the
 *                   current filter; the grammar is stacklat_filter.h)
 *   func add SYMBOL | func del SYMBOL  (symbol syntax: stacklat_filter.h)
 *   # a comment: a line whose first non-blank character is '#'
 * A write holding a NUL byte is refused; so is a whole write if any of its
 * lines does not parse, and then none is applied.  Writes need
 * CAP_SYS_ADMIN or CAP_PERFMON (checked on the file's opener).
 */
#ifndef _UAPI_STACKLAT_H
#define _UAPI_STACKLAT_H

#define STACKLAT_GENL_NAME	"stacklat"
#define STACKLAT_GENL_VERSION	1

#define STACKLAT_NAME_MAX	32	/* pipeline, stage and hook names */
#define STACKLAT_SYM_MAX	128	/* kernel symbol names */

enum stacklat_cmd {
	STACKLAT_CMD_UNSPEC,
	STACKLAT_CMD_GET_STATUS,
	STACKLAT_CMD_GET_PIPELINES,
	STACKLAT_CMD_GET_HIST,
	STACKLAT_CMD_SET_PIPELINE,
	STACKLAT_CMD_RESET,
	STACKLAT_CMD_FUNC_ADD,
	STACKLAT_CMD_FUNC_DEL,
	__STACKLAT_CMD_MAX
};
#define STACKLAT_CMD_MAX (__STACKLAT_CMD_MAX - 1)

enum stacklat_attr {
	STACKLAT_A_UNSPEC,
	STACKLAT_A_MODULE_VERSION,
	STACKLAT_A_KERNEL_RELEASE,
	STACKLAT_A_CLOCK,
	STACKLAT_A_NR_PIPELINES,
	STACKLAT_A_FLIGHT,
	STACKLAT_A_PIPELINE,
	STACKLAT_A_PIPELINE_NAME,
	STACKLAT_A_GENERATION,
	STACKLAT_A_STAGE_INDEX,
	STACKLAT_A_STAGE_NAME,
	STACKLAT_A_HIST,
	STACKLAT_A_ENABLE,
	STACKLAT_A_FILTER,
	STACKLAT_A_FUNC_SYMBOL,
	STACKLAT_A_PAD,
	__STACKLAT_A_LAST
};
#define STACKLAT_A_MAX (__STACKLAT_A_LAST - 1)

enum stacklat_flight_attr {
	STACKLAT_FLIGHT_A_UNSPEC,
	STACKLAT_FLIGHT_A_SIZE,
	STACKLAT_FLIGHT_A_USED,
	STACKLAT_FLIGHT_A_MAX_AGE_NS,
	STACKLAT_FLIGHT_A_INSERTS,
	STACKLAT_FLIGHT_A_FULL,
	STACKLAT_FLIGHT_A_STALE,
	STACKLAT_FLIGHT_A_PAD,
	__STACKLAT_FLIGHT_A_LAST
};
#define STACKLAT_FLIGHT_A_MAX (__STACKLAT_FLIGHT_A_LAST - 1)

/* What a pipeline follows from one hook point to the next. */
enum stacklat_key {
	STACKLAT_KEY_NONE,	/* entry/return pairs of one call */
	STACKLAT_KEY_SKB,	/* a packet buffer */
	STACKLAT_KEY_SOCK,	/* a socket */
	STACKLAT_KEY_REQUEST,	/* a block request */
	STACKLAT_KEY_TASK,	/* a thread */
	__STACKLAT_KEY_MAX
};

enum stacklat_pipe_attr {
	STACKLAT_PIPE_A_UNSPEC,
	STACKLAT_PIPE_A_NAME,
	STACKLAT_PIPE_A_DESC,
	STACKLAT_PIPE_A_KEY,
	STACKLAT_PIPE_A_ENABLED,
	STACKLAT_PIPE_A_GENERATION,
	STACKLAT_PIPE_A_STAGES,
	STACKLAT_PIPE_A_STAGE,
	STACKLAT_PIPE_A_HOOKS,
	STACKLAT_PIPE_A_HOOK,
	STACKLAT_PIPE_A_LOSS,
	STACKLAT_PIPE_A_FILTER,
	STACKLAT_PIPE_A_PAD,
	__STACKLAT_PIPE_A_LAST
};
#define STACKLAT_PIPE_A_MAX (__STACKLAT_PIPE_A_LAST - 1)

enum stacklat_stage_attr {
	STACKLAT_STAGE_A_UNSPEC,
	STACKLAT_STAGE_A_INDEX,
	STACKLAT_STAGE_A_NAME,
	STACKLAT_STAGE_A_FROM,
	STACKLAT_STAGE_A_TO,
	__STACKLAT_STAGE_A_LAST
};
#define STACKLAT_STAGE_A_MAX (__STACKLAT_STAGE_A_LAST - 1)

enum stacklat_hook_state {
	STACKLAT_HOOK_DISARMED,		/* resolved, pipeline not enabled */
	STACKLAT_HOOK_ARMED,		/* registered and firing */
	STACKLAT_HOOK_UNAVAILABLE,	/* no candidate exists on this kernel */
	STACKLAT_HOOK_FAILED,		/* a candidate exists, registering failed */
	STACKLAT_HOOK_SKIPPED,		/* disabled by the skip_hooks parameter */
	__STACKLAT_HOOK_STATE_MAX
};

enum stacklat_hook_kind {
	STACKLAT_HOOK_KIND_NONE,
	STACKLAT_HOOK_KIND_TRACEPOINT,
	STACKLAT_HOOK_KIND_KPROBE,
	STACKLAT_HOOK_KIND_KRETPROBE,
	__STACKLAT_HOOK_KIND_MAX
};

enum stacklat_hook_attr {
	STACKLAT_HOOK_A_UNSPEC,
	STACKLAT_HOOK_A_NAME,
	STACKLAT_HOOK_A_STATE,
	STACKLAT_HOOK_A_KIND,
	STACKLAT_HOOK_A_TARGET,
	STACKLAT_HOOK_A_ERROR,
	STACKLAT_HOOK_A_HITS,
	STACKLAT_HOOK_A_NMISSED,
	STACKLAT_HOOK_A_PAD,
	__STACKLAT_HOOK_A_LAST
};
#define STACKLAT_HOOK_A_MAX (__STACKLAT_HOOK_A_LAST - 1)

/* Samples a pipeline could not record, and why. */
enum stacklat_loss_attr {
	STACKLAT_LOSS_A_UNSPEC,
	STACKLAT_LOSS_A_NMISSED,	/* u64, sum of its kretprobes' nmissed */
	STACKLAT_LOSS_A_TABLE_FULL,	/* u64, no free in-flight slot */
	STACKLAT_LOSS_A_STALE,		/* u64, entries expired unfinished */
	STACKLAT_LOSS_A_BAD_DELTA,	/* u64, negative or absurd deltas */
	STACKLAT_LOSS_A_UNMATCHED,	/* u64, an end without a start */
	STACKLAT_LOSS_A_FILTERED,	/* u64, events the filter dropped */
	STACKLAT_LOSS_A_DROPPED,	/* u64, followed objects freed early */
	STACKLAT_LOSS_A_PAD,
	__STACKLAT_LOSS_A_LAST
};
#define STACKLAT_LOSS_A_MAX (__STACKLAT_LOSS_A_LAST - 1)

enum stacklat_filter_attr {
	STACKLAT_FILTER_A_UNSPEC,
	STACKLAT_FILTER_A_TGID,		/* u32 */
	STACKLAT_FILTER_A_TID,		/* u32 */
	STACKLAT_FILTER_A_LPORT,	/* u16, host order */
	STACKLAT_FILTER_A_RPORT,	/* u16, host order */
	STACKLAT_FILTER_A_PROTO,	/* u8, IPPROTO_TCP or IPPROTO_UDP */
	STACKLAT_FILTER_A_IFINDEX,	/* u32 */
	STACKLAT_FILTER_A_DEV,		/* u32, block device as MKDEV(ma, mi)
					 * with the kernel's 20-bit minor
					 */
	STACKLAT_FILTER_A_OP,		/* u32, enum stacklat_op */
	STACKLAT_FILTER_A_FS,		/* u32, filesystem magic (statfs
					 * f_type); 0x62646576 for a block
					 * device read directly
					 */
	__STACKLAT_FILTER_A_LAST
};
#define STACKLAT_FILTER_A_MAX (__STACKLAT_FILTER_A_LAST - 1)

/* Operations the storage pipeline splits by (filter "op="). */
enum stacklat_op {
	STACKLAT_OP_ANY,
	STACKLAT_OP_READ,
	STACKLAT_OP_WRITE,
	STACKLAT_OP_OPEN,
	STACKLAT_OP_FSYNC,
	__STACKLAT_OP_MAX
};

enum stacklat_hist_attr {
	STACKLAT_HIST_A_UNSPEC,
	STACKLAT_HIST_A_COUNT,
	STACKLAT_HIST_A_SUM,
	STACKLAT_HIST_A_MIN,
	STACKLAT_HIST_A_MAX,
	STACKLAT_HIST_A_OVERFLOW,
	STACKLAT_HIST_A_NBUCKETS,
	STACKLAT_HIST_A_FIRST,
	STACKLAT_HIST_A_BUCKETS,
	STACKLAT_HIST_A_PAD,
	__STACKLAT_HIST_A_LAST
};
#define STACKLAT_HIST_A_MAX (__STACKLAT_HIST_A_LAST - 1)

#endif /* _UAPI_STACKLAT_H */
