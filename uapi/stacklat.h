/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * stacklat - per-layer kernel latency breakdown.
 *
 * The ABI between the stacklat kernel module and user space: the generic
 * netlink family, its commands and attributes, and the text command set of
 * /sys/kernel/debug/stacklat/control.
 *
 * This ABI only grows: commands and attributes are appended, never
 * renumbered or removed, and STACKLAT_GENL_VERSION stays 1.  "(0.N)"
 * beside an attribute or a field names the development milestone that
 * appended it, before the first release (VERSION 0.1.0 has them all):
 * a module or tool from before it neither sends nor reads it.
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
 *     STACKLAT_A_EVENTS            nest, enum stacklat_events_attr (below,
 *                                  "Slow events")
 *
 * STACKLAT_CMD_GET_CPU_STATUS (dump, CAP_NET_ADMIN or CAP_PERFMON)
 *   request:  (nothing)
 *   reply, one message per run of up to 256 CPUs, in CPU order, together
 *   covering CPUs 0 .. STACKLAT_EVENTS_A_CPUS - 1 of GET_STATUS:
 *     STACKLAT_A_EVENTS            nest, enum stacklat_events_attr
 *       STACKLAT_EVENTS_A_CPU_FIRST  u32, the first CPU of the message
 *       STACKLAT_EVENTS_A_OVERRUNS   binary, u64 per CPU from CPU_FIRST on
 *                                    (0 for a CPU that is not possible)
 *   Any number of CPUs: GET_STATUS's one message has room for the per-CPU
 *   values of a few hundred only.
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
 *           STACKLAT_STAGE_A_UNIT        u32, enum stacklat_unit (absent: ns)
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
 *       STACKLAT_PIPE_A_FPROBE_NMISSED  u64, calls the pipeline's fprobe
 *                                    (its return points where the kernel
 *                                    has fprobe) missed; only with one
 *       STACKLAT_PIPE_A_EVENTS       u8, 1 if the pipeline can have slow
 *                                    events (a threshold is refused where
 *                                    it is 0; absent: an older module)
 *
 * STACKLAT_CMD_GET_HIST (dump, CAP_NET_ADMIN or CAP_PERFMON)
 *   request:  STACKLAT_A_PIPELINE_NAME (optional: only that pipeline)
 *   reply, one message per stage of each pipeline:
 *     STACKLAT_A_PIPELINE_NAME     NUL string
 *     STACKLAT_A_GENERATION        u64, the pipeline's reset generation
 *     STACKLAT_A_STAGE_INDEX       u32
 *     STACKLAT_A_STAGE_NAME        NUL string
 *     STACKLAT_A_HIST              nest, enum stacklat_hist_attr
 *     STACKLAT_A_STAGE_UNIT        u32, enum stacklat_unit of the samples,
 *                                  SUM, MIN and MAX (absent: ns)
 *       STACKLAT_HIST_A_COUNT        u64, samples recorded, the overflow
 *                                    bucket included: COUNT = OVERFLOW +
 *                                    the sum of BUCKETS
 *       STACKLAT_HIST_A_SUM          u64, ns
 *       STACKLAT_HIST_A_MIN          u64, ns (absent when COUNT is 0)
 *       STACKLAT_HIST_A_MAX_VALUE    u64, ns (absent when COUNT is 0).  Modules
 *                                    of 0.1 sent it as type 9 (see the
 *                                    enum); the tool reads both
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
 * STACKLAT_CMD_GET_INFLIGHT (dump, CAP_NET_ADMIN or CAP_PERFMON)
 *   request:  STACKLAT_A_PIPELINE_NAME (optional: only that pipeline)
 *   reply, one message per live entry of the in-flight table:
 *     STACKLAT_A_PIPELINE_NAME     NUL string
 *     STACKLAT_A_INFLIGHT          nest, enum stacklat_inflight_attr
 *       STACKLAT_INFLIGHT_A_AGE_NS   u64, since the chain started
 *       STACKLAT_INFLIGHT_A_TID      u32, the thread followed (absent
 *                                    when the object is not a thread)
 *       STACKLAT_INFLIGHT_A_DESC     NUL string, as debugfs "inflight"
 *                                    prints it (the pipeline's own view)
 *       STACKLAT_INFLIGHT_A_POINT    nest, repeated, in slot order
 *         STACKLAT_INFLIGHT_POINT_A_NAME       NUL string, hook point
 *         STACKLAT_INFLIGHT_POINT_A_OFFSET_NS  u64, after the start
 *   The table changes while it is read: an entry may be missed or seen
 *   twice across messages, never torn (each is copied under its hold).
 *
 * Slow events.  A pipeline with a threshold (SET_PIPELINE's
 * STACKLAT_A_THRESHOLD_NS, u64, 0 = off, at most 3600 s; or the control
 * command "threshold PIPELINE NS") writes one struct stacklat_event for
 * every chain whose total (its last point minus its first) exceeds it,
 * from probe context into a per-CPU ring of STACKLAT_EVENTS_RING records;
 * a full ring drops the new event and counts it (overruns, per CPU).
 * A pipeline that ends no object it followed from a first point to a
 * last (GET_PIPELINES' STACKLAT_PIPE_A_EVENTS is 0: it counts values,
 * drops or retransmissions) has no slow events: a threshold other than 0
 * is refused there, EOPNOTSUPP.
 * GET_PIPELINES gives STACKLAT_PIPE_A_THRESHOLD_NS (u64), GET_STATUS
 *   STACKLAT_A_EVENTS            nest, enum stacklat_events_attr
 *     STACKLAT_EVENTS_A_RING       u32, records per CPU (event_records=):
 *                                  what a ring grows to
 *     STACKLAT_EVENTS_A_RING_START u32, what it starts with (0.8)
 *     STACKLAT_EVENTS_A_RING_NOW   u32, the largest ring now (0.8)
 *     STACKLAT_EVENTS_A_RINGS      u32, CPUs with a ring: the online ones
 *     STACKLAT_EVENTS_A_BYTES      u64, bytes of the rings
 *     STACKLAT_EVENTS_A_WRITTEN    u64, events written, all CPUs
 *     STACKLAT_EVENTS_A_READ       u64, events read, all CPUs
 *     STACKLAT_EVENTS_A_CPUS       u32, nr_cpu_ids: CPUs 0 .. CPUS - 1 have
 *                                  an overrun count (absent: an older module)
 *     STACKLAT_EVENTS_A_OVERRUNS   binary, u64 per CPU from CPU 0 (0 for a
 *                                  CPU that is not possible); only when
 *                                  CPUS is at most 256 (an older module:
 *                                  always); GET_CPU_STATUS has them for
 *                                  any number
 *
 * STACKLAT_CMD_GET_EVENTS (dump, CAP_SYS_ADMIN or CAP_PERFMON: it consumes)
 *   request:  STACKLAT_A_EVENT_COMPACT flag (optional, 0.3): compact records
 *   reply: the events waiting in the rings, oldest first per CPU, each
 *     STACKLAT_A_EVENT             binary, struct stacklat_event
 *   or, when the request asked for it,
 *     STACKLAT_A_EVENT_COMPACT     binary, the same event without the
 *                                  unused stages: the struct up to stages[],
 *                                  then from flags to its end, then its
 *                                  nstages stages (stacklat_event.h packs
 *                                  and unpacks it; a third of the bytes
 *                                  for an event of two stages)
 *   Reading consumes: the rings have one reader position (debugfs
 *   "events" reads the same rings).  An empty dump means nothing waits.
 *
 * STACKLAT_CMD_GET_KEYED (dump, CAP_NET_ADMIN or CAP_PERFMON)
 *   request:  STACKLAT_A_PIPELINE_NAME (optional: every pipeline that keeps
 *             keyed rows; a pipeline that keeps none is refused, EOPNOTSUPP)
 *   The rows of a pipeline's keyed aggregation (counters per key, summed
 *   over the CPUs; the syscalls pipeline: one row per process and
 *   syscall; disktop: one row per process and disk), folded at the start
 *   of the dump; reply, one message per row:
 *     STACKLAT_A_PIPELINE_NAME     NUL string
 *     STACKLAT_A_GENERATION        u64, the pipeline's reset generation
 *     STACKLAT_A_KEYED             nest, the pipeline's row: for syscalls
 *                                  enum stacklat_sc_attr
 *       STACKLAT_SC_A_TGID           u32, the process
 *       STACKLAT_SC_A_COMM           NUL string, its name (group leader's)
 *       STACKLAT_SC_A_ABI            u32, enum stacklat_sc_abi
 *       STACKLAT_SC_A_NR             u32, the syscall's number in that ABI
 *                                    (STACKLAT_SC_NR_INVALID: out of range)
 *       STACKLAT_SC_A_COUNT          u64, calls that returned
 *       STACKLAT_SC_A_ERRORS         u64, of them returning -4095..-1
 *       STACKLAT_SC_A_TIME_NS        u64, the timed calls' total time
 *       STACKLAT_SC_A_UNTIMED        u64, calls counted without a time
 *       STACKLAT_SC_A_MAX_NS         u64, the longest timed call
 *       STACKLAT_SC_A_ERRNO          nest, repeated (at most
 *                                    STACKLAT_SC_ERRNOS): errno, count
 *       STACKLAT_SC_A_ERRNO_OTHER    u64, failures with other errnos
 *       STACKLAT_SC_A_HIST_FIRST     u32, index of HIST[0]
 *       STACKLAT_SC_A_HIST           binary, u64 per log2 bucket (host
 *                                    order), FIRST .. last non-zero; bucket
 *                                    i counts times in [lower(i),
 *                                    lower(i + 1)), stacklat_sc_lower()
 *       STACKLAT_SC_A_CGROUP_ID      u64, the cgroup v2 id of the process
 *                                    at its last call counted (0: none)
 *                                  for disktop enum stacklat_dk_attr
 *       STACKLAT_DK_A_TGID           u32, the process that submitted the
 *                                    bios (0: interrupt context, "[irq]")
 *       STACKLAT_DK_A_COMM           NUL string, its name (group leader's)
 *       STACKLAT_DK_A_DEV            u32, the whole disk, the kernel's
 *                                    dev_t: major << 20 | minor
 *       STACKLAT_DK_A_OPS            u64, bios of every kind
 *       STACKLAT_DK_A_READ_BYTES     u64, and _READ_OPS u64: reads
 *       STACKLAT_DK_A_WRITE_BYTES    u64, and _WRITE_OPS u64: writes
 *       STACKLAT_DK_A_DISCARD_BYTES  u64, and _DISCARD_OPS u64: discards
 *                                    (and secure erases)
 *       STACKLAT_DK_A_FLUSH_OPS      u64, cache flushes (a flush, or a
 *                                    write with no data asking for one)
 *       STACKLAT_DK_A_OTHER_OPS      u64, any other (write zeroes, zones)
 *       STACKLAT_DK_A_CGROUP_ID      u64, the cgroup v2 id of the last
 *                                    bio's submitter (0: interrupt context)
 *                                  for sched enum stacklat_sd_attr: one
 *                                  thread's run-queue waits
 *       STACKLAT_SD_A_TGID           u32, its process
 *       STACKLAT_SD_A_TID            u32, the thread
 *       STACKLAT_SD_A_COMM           NUL string, the process's name
 *       STACKLAT_SD_A_THREAD_COMM    NUL string, the thread's name
 *       STACKLAT_SD_A_COUNT          u64, waits that ended on a CPU
 *       STACKLAT_SD_A_TIME_NS        u64, their total time
 *       STACKLAT_SD_A_MAX_NS         u64, the longest
 *       STACKLAT_SD_A_PREEMPTED      u64, of the waits, those that began
 *                                    with a switch-out while runnable
 *                                    (the others with a wakeup)
 *       STACKLAT_SD_A_HIST_FIRST     u32, and STACKLAT_SD_A_HIST: as
 *       STACKLAT_SD_A_HIST           syscalls' (stacklat_sc_lower())
 *                                  for cpu the same attributes: one
 *                                  thread's on-CPU slices (switch-in to
 *                                  switch-out)
 *       STACKLAT_SD_A_COUNT          u64, slices that ended
 *       STACKLAT_SD_A_TIME_NS        u64, their total time on a CPU
 *       STACKLAT_SD_A_MAX_NS         u64, the longest
 *       STACKLAT_SD_A_PREEMPTED      u64, slices that ended with the
 *                                    thread still runnable (involuntary)
 *       STACKLAT_SD_A_USER_TICK_NS   u64, task->utime the kernel
 *                                    accounted during them (tick samples
 *                                    on a tick-accounted kernel)
 *       STACKLAT_SD_A_SYS_TICK_NS    u64, task->stime, likewise
 *   The dump is stamped with a sequence that changes whenever rows move or
 *   go (each fold, once a second, and each reset): a reply with
 *   NLM_F_DUMP_INTR set should be retried.  GET_PIPELINES gives the
 *   table's own counters (STACKLAT_PIPE_A_KEYED, enum
 *   stacklat_keyed_stats_attr): rows and bounds, bytes per row, losses.
 *
 * Kernel stacks (issue 28): STACKLAT_CMD_FUNC_ADD and _DEL with
 * STACKLAT_A_PIPELINE_NAME "stacks" add or remove a function whose
 * callers' kernel stacks are counted (without the name: the "func"
 * pipeline, as before).
 *
 * STACKLAT_CMD_GET_STACKS (dump, CAP_SYS_ADMIN or CAP_PERFMON: the frames
 * say where kernel code is)
 *   request:  STACKLAT_A_PIPELINE_NAME (optional: every pipeline with a
 *             stack table)
 *   reply, one message per distinct stack, in table order (sort by count
 *   yourself):
 *     STACKLAT_A_PIPELINE_NAME     NUL string
 *     STACKLAT_A_GENERATION        u64, the pipeline's reset generation
 *     STACKLAT_A_STACK             nest, enum stacklat_stack_attr
 *       STACKLAT_STACK_A_ID          u32, the stack's id (> 0)
 *       STACKLAT_STACK_A_COUNT       u64, times it was captured
 *       STACKLAT_STACK_A_SUM         u64, the sum of the values captured
 *                                    with it (a time in ns, or 0)
 *       STACKLAT_STACK_A_TRUNCATED   u8, 1: deeper than stack_depth=, cut
 *       STACKLAT_STACK_A_FRAME       NUL string, repeated, innermost
 *                                    first: "function+0xoff/0xsize
 *                                    [module]", "?" if it has no symbol;
 *                                    never an address
 *
 * Control file (/sys/kernel/debug/stacklat/control), one command a line:
 *   enable PIPELINE | disable PIPELINE | reset [PIPELINE]
 *   filter PIPELINE clear | filter PIPELINE KEY=VALUE...  (added to the
 *                   current filter; the grammar is stacklat_filter.h)
 *   func add SYMBOL | func del SYMBOL  (symbol syntax: stacklat_filter.h)
 *   stacks add SYMBOL | stacks del SYMBOL  (kernel stacks reaching SYMBOL)
 *   threshold PIPELINE NS  (slow events above NS nanoseconds; 0: off)
 *   # a comment: a line whose first non-blank character is '#'
 * A write holding a NUL byte is refused; so is a whole write if any of its
 * lines does not parse, and then none is applied.  Writes need
 * CAP_SYS_ADMIN or CAP_PERFMON (checked on the file's opener).
 */
#ifndef _UAPI_STACKLAT_H
#define _UAPI_STACKLAT_H

#include <linux/types.h>

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
	STACKLAT_CMD_GET_INFLIGHT,
	STACKLAT_CMD_GET_EVENTS,
	STACKLAT_CMD_GET_KEYED,
	STACKLAT_CMD_GET_CPU_STATUS,
	/* kernel stacks (issue 28) */
	STACKLAT_CMD_GET_STACKS,
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
	STACKLAT_A_INFLIGHT,
	STACKLAT_A_THRESHOLD_NS,
	STACKLAT_A_EVENT,
	STACKLAT_A_EVENTS,
	STACKLAT_A_STAGE_UNIT,
	STACKLAT_A_KEYED,
	STACKLAT_A_EVENT_COMPACT,
	/* kernel stacks (issue 28) */
	STACKLAT_A_STACK,
	/*
	 * u8, SET_PIPELINE (0.7): 1 takes the kernel stack of every object at
	 * the pipeline's points (netdrop, tcpretrans: counted per stack in
	 * GET_STACKS, and in their lines as _F_STACK), 0 stops; another
	 * pipeline: EOPNOTSUPP.  debugfs status says which it is.
	 */
	STACKLAT_A_STACKS,
	/*
	 * u32, SET_PIPELINE (0.8): follow one object in N, 1..
	 * STACKLAT_SAMPLE_MAX (1: every one), chosen at the pipeline's first
	 * point (each CPU follows one of every N objects it starts there),
	 * every object counted; the counts start over.  A pipeline whose
	 * chains do not all start at the engine's first point: EOPNOTSUPP
	 * (GET_PIPELINES has no STACKLAT_PIPE_A_SAMPLE for it).
	 */
	STACKLAT_A_SAMPLE,
	/*
	 * u32, SET_PIPELINE (0.8): the automatic rate, a budget of objects a
	 * second (seen at the pipeline's first point) on the busiest CPU,
	 * 1..STACKLAT_SAMPLE_AUTO_MAX: each second N is the power of two at
	 * or above that CPU's rate over it (1 under it); every object
	 * counted.  Not with STACKLAT_A_SAMPLE (EINVAL), which sets a fixed
	 * rate and ends the automatic one.
	 */
	STACKLAT_A_SAMPLE_AUTO,
	/*
	 * u8, SET_PIPELINE (0.8): 1 keeps the total of every object also per
	 * cgroup v2 of the task it ends in (stages "cg<ID>.total"), 0 stops
	 * (the default: it costs a cgroup lookup and a second histogram an
	 * object).  A pipeline without them (all but func and storage, or
	 * any when loaded with cgroup_slots=0): EOPNOTSUPP.
	 * GET_PIPELINES' STACKLAT_PIPE_A_CGTOTALS says which it is.
	 */
	STACKLAT_A_CGTOTALS,
	__STACKLAT_A_LAST
};
#define STACKLAT_A_MAX (__STACKLAT_A_LAST - 1)

#define STACKLAT_SAMPLE_MAX	65536	/* STACKLAT_A_SAMPLE, "sample P N" */
#define STACKLAT_SAMPLE_AUTO_MAX 100000000 /* STACKLAT_A_SAMPLE_AUTO, objects/s */

/* a stack of GET_STACKS (STACKLAT_A_STACK) */
enum stacklat_stack_attr {
	STACKLAT_STACK_A_UNSPEC,
	STACKLAT_STACK_A_ID,		/* u32 */
	STACKLAT_STACK_A_COUNT,		/* u64 */
	STACKLAT_STACK_A_SUM,		/* u64 */
	STACKLAT_STACK_A_PAD,
	STACKLAT_STACK_A_TRUNCATED,	/* u8 */
	STACKLAT_STACK_A_FRAME,		/* NUL string, repeated */
	__STACKLAT_STACK_A_LAST
};
#define STACKLAT_STACK_A_MAX (__STACKLAT_STACK_A_LAST - 1)

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

/*
 * The names of the enums' values, as the module's debugfs files and the
 * tool print them; "?" for a value the enum does not have.
 */
static inline const char *stacklat_key_name(__u32 key)
{
	switch (key) {
	case STACKLAT_KEY_NONE: return "call";
	case STACKLAT_KEY_SKB: return "skb";
	case STACKLAT_KEY_SOCK: return "socket";
	case STACKLAT_KEY_REQUEST: return "request";
	case STACKLAT_KEY_TASK: return "task";
	}
	return "?";
}

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
	STACKLAT_PIPE_A_THRESHOLD_NS,
	STACKLAT_PIPE_A_KEYED,		/* nest, enum stacklat_keyed_stats_attr */
	STACKLAT_PIPE_A_FPROBE_NMISSED,	/* u64, calls its fprobe missed */
	STACKLAT_PIPE_A_EVENTS,		/* u8, 1: it can have slow events */
	STACKLAT_PIPE_A_MEM,		/* u64, bytes of its histograms, keyed and stack tables */
	STACKLAT_PIPE_A_MEM_CPU,	/* u64, of which each online CPU's share */
	STACKLAT_PIPE_A_SAMPLE,		/* u32, 1 in N followed; only if it can sample */
	STACKLAT_PIPE_A_SAMPLE_SEEN,	/* u64, objects at its first point, sampling */
	STACKLAT_PIPE_A_SAMPLE_FOLLOWED, /* u64, of which followed */
	STACKLAT_PIPE_A_SAMPLE_AUTO,	/* u32, auto's budget (objects/s a CPU); 0: fixed */
	STACKLAT_PIPE_A_SAMPLE_PEAK,	/* u64, auto: the busiest CPU's objects/s, last look */
	STACKLAT_PIPE_A_CGTOTALS,	/* u8, per-cgroup totals kept; only if it can */
	__STACKLAT_PIPE_A_LAST
};
#define STACKLAT_PIPE_A_MAX (__STACKLAT_PIPE_A_LAST - 1)

enum stacklat_stage_attr {
	STACKLAT_STAGE_A_UNSPEC,
	STACKLAT_STAGE_A_INDEX,
	STACKLAT_STAGE_A_NAME,
	STACKLAT_STAGE_A_FROM,
	STACKLAT_STAGE_A_TO,
	STACKLAT_STAGE_A_UNIT,		/* u32, enum stacklat_unit */
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

static inline const char *stacklat_hook_state_name(__u32 state)
{
	switch (state) {
	case STACKLAT_HOOK_DISARMED: return "disarmed";
	case STACKLAT_HOOK_ARMED: return "armed";
	case STACKLAT_HOOK_UNAVAILABLE: return "not available";
	case STACKLAT_HOOK_FAILED: return "failed";
	case STACKLAT_HOOK_SKIPPED: return "skipped";
	}
	return "?";
}

enum stacklat_hook_kind {
	STACKLAT_HOOK_KIND_NONE,
	STACKLAT_HOOK_KIND_TRACEPOINT,
	STACKLAT_HOOK_KIND_KPROBE,
	STACKLAT_HOOK_KIND_KRETPROBE,
	STACKLAT_HOOK_KIND_FTRACE,	/* function entry on an ftrace_ops */
	STACKLAT_HOOK_KIND_FPROBE,	/* entry and return on an fprobe */
	STACKLAT_HOOK_KIND_UPROBE,	/* user function: uprobe + uretprobe */
	STACKLAT_HOOK_KIND_URETPROBE,	/* user function's return only (a span) */
	__STACKLAT_HOOK_KIND_MAX
};

static inline const char *stacklat_hook_kind_name(__u32 kind)
{
	switch (kind) {
	case STACKLAT_HOOK_KIND_NONE: return "-";
	case STACKLAT_HOOK_KIND_TRACEPOINT: return "tracepoint";
	case STACKLAT_HOOK_KIND_KPROBE: return "kprobe";
	case STACKLAT_HOOK_KIND_KRETPROBE: return "kretprobe";
	case STACKLAT_HOOK_KIND_FTRACE: return "ftrace";
	case STACKLAT_HOOK_KIND_FPROBE: return "fprobe";
	case STACKLAT_HOOK_KIND_UPROBE: return "uprobe";
	case STACKLAT_HOOK_KIND_URETPROBE: return "uretprobe";
	}
	return "?";
}

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
	STACKLAT_LOSS_A_BUSY,		/* u64, an in-flight entry or bucket held by another */
	STACKLAT_LOSS_A_ORPHANED,	/* u64, returns of calls whose point was removed */
	/* kernel stacks */
	STACKLAT_LOSS_A_STACK_FULL,	/* u64, a new stack found no slot (stack_slots=) */
	STACKLAT_LOSS_A_STACK_TRUNC,	/* u64, stacks deeper than stack_depth=, kept cut */
	STACKLAT_LOSS_A_STACK_BUSY,	/* u64, a capture nested on its CPU, or its stack being written */
	STACKLAT_LOSS_A_SUPPRESSED,	/* u64, events over the rate limit (event_rate=), not written */
	STACKLAT_LOSS_A_NOBUF,		/* u64, samples on a CPU just online, before its histograms */
	__STACKLAT_LOSS_A_LAST
};
#define STACKLAT_LOSS_A_MAX (__STACKLAT_LOSS_A_LAST - 1)

/* "?" also for UNSPEC and PAD, which count nothing */
static inline const char *stacklat_loss_name(__u32 attr)
{
	switch (attr) {
	case STACKLAT_LOSS_A_NMISSED: return "nmissed";
	case STACKLAT_LOSS_A_TABLE_FULL: return "table_full";
	case STACKLAT_LOSS_A_STALE: return "stale";
	case STACKLAT_LOSS_A_BAD_DELTA: return "bad_delta";
	case STACKLAT_LOSS_A_UNMATCHED: return "unmatched";
	case STACKLAT_LOSS_A_FILTERED: return "filtered";
	case STACKLAT_LOSS_A_DROPPED: return "dropped";
	case STACKLAT_LOSS_A_BUSY: return "busy";
	case STACKLAT_LOSS_A_ORPHANED: return "orphaned";
	case STACKLAT_LOSS_A_STACK_FULL: return "stack_full";
	case STACKLAT_LOSS_A_STACK_TRUNC: return "stack_truncated";
	case STACKLAT_LOSS_A_STACK_BUSY: return "stack_busy";
	case STACKLAT_LOSS_A_SUPPRESSED: return "suppressed";
	case STACKLAT_LOSS_A_NOBUF: return "nobuf";
	}
	return "?";
}

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
	STACKLAT_FILTER_A_CGROUP,	/* u64, a cgroup v2 id (its directory's
					 * inode number): tasks in it
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

/*
 * What a stage's histogram counts (STACKLAT_STAGE_A_UNIT,
 * STACKLAT_A_STAGE_UNIT; absent means ns).  A value histogram (bytes, a
 * number of things) has the same buckets, sums and percentiles as a time;
 * only the unit it is printed in differs, and the _NS names of the hist
 * attributes then hold that unit.
 */
enum stacklat_unit {
	STACKLAT_UNIT_NS,		/* a latency, ns */
	STACKLAT_UNIT_BYTES,		/* a size, bytes */
	STACKLAT_UNIT_COUNT,		/* a number of things (queue depth) */
	__STACKLAT_UNIT_MAX
};

enum stacklat_hist_attr {
	STACKLAT_HIST_A_UNSPEC,
	STACKLAT_HIST_A_COUNT,
	STACKLAT_HIST_A_SUM,
	STACKLAT_HIST_A_MIN,
	/*
	 * The largest sample.  Named STACKLAT_HIST_A_MAX in 0.1, where the
	 * bound macro below hid it and the module sent the maximum as type 9
	 * (STACKLAT_HIST_A_PAD, which nla_put_64bit never emits on x86-64):
	 * a reader may take a u64 of type 9 as the maximum when this is absent.
	 */
	STACKLAT_HIST_A_MAX_VALUE,
	STACKLAT_HIST_A_OVERFLOW,
	STACKLAT_HIST_A_NBUCKETS,
	STACKLAT_HIST_A_FIRST,
	STACKLAT_HIST_A_BUCKETS,
	STACKLAT_HIST_A_PAD,
	__STACKLAT_HIST_A_LAST
};
#define STACKLAT_HIST_A_MAX (__STACKLAT_HIST_A_LAST - 1)

enum stacklat_inflight_attr {
	STACKLAT_INFLIGHT_A_UNSPEC,
	STACKLAT_INFLIGHT_A_AGE_NS,
	STACKLAT_INFLIGHT_A_TID,
	STACKLAT_INFLIGHT_A_DESC,
	STACKLAT_INFLIGHT_A_POINT,
	STACKLAT_INFLIGHT_A_PAD,
	__STACKLAT_INFLIGHT_A_LAST
};
#define STACKLAT_INFLIGHT_A_MAX (__STACKLAT_INFLIGHT_A_LAST - 1)

enum stacklat_inflight_point_attr {
	STACKLAT_INFLIGHT_POINT_A_UNSPEC,
	STACKLAT_INFLIGHT_POINT_A_NAME,
	STACKLAT_INFLIGHT_POINT_A_OFFSET_NS,
	STACKLAT_INFLIGHT_POINT_A_PAD,
	__STACKLAT_INFLIGHT_POINT_A_LAST
};
#define STACKLAT_INFLIGHT_POINT_A_MAX (__STACKLAT_INFLIGHT_POINT_A_LAST - 1)

enum stacklat_events_attr {
	STACKLAT_EVENTS_A_UNSPEC,
	STACKLAT_EVENTS_A_RING,		/* u32, records per CPU */
	STACKLAT_EVENTS_A_WRITTEN,	/* u64, events written, all CPUs */
	STACKLAT_EVENTS_A_READ,		/* u64, events read, all CPUs */
	STACKLAT_EVENTS_A_OVERRUNS,	/* binary, u64 per CPU (see GET_STATUS) */
	STACKLAT_EVENTS_A_PAD,
	STACKLAT_EVENTS_A_CPUS,		/* u32, CPUs with an overrun count */
	STACKLAT_EVENTS_A_CPU_FIRST,	/* u32, the CPU of OVERRUNS[0] */
	STACKLAT_EVENTS_A_RINGS,	/* u32, CPUs with a ring (online since) */
	STACKLAT_EVENTS_A_BYTES,	/* u64, bytes of the rings */
	STACKLAT_EVENTS_A_RING_START,	/* u32, records a ring starts with
					 * (0.8; RING: it grows to)
					 */
	STACKLAT_EVENTS_A_RING_NOW,	/* u32, records of the largest ring
					 * now (0.8)
					 */
	__STACKLAT_EVENTS_A_LAST
};
#define STACKLAT_EVENTS_A_MAX (__STACKLAT_EVENTS_A_LAST - 1)

/* the keyed pipelines' statistics and rows (GET_KEYED) */
#include "stacklat_keyed.h"
/* a slow event's record (GET_EVENTS) */
#include "stacklat_record.h"

#include "stacklat_files.h"
#include "stacklat_nettop.h"

#endif /* _UAPI_STACKLAT_H */
