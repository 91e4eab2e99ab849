/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data the stacklat tool reads from the kernel, decoded from netlink
 * attributes into plain structs (nl*.c fill them, the pure code in
 * format.c, parse.c, histo.c and render.c works on them and is unit-tested
 * without libnl).
 */
#ifndef STACKLAT_TOOL_MODEL_H
#define STACKLAT_TOOL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "stacklat.h"
#include "stacklat_hist.h"

/* ---- histograms (GET_HIST) --------------------------------------------- */

/* What a struct hist holds. */
enum hist_kind {
	HIST_CUMULATIVE,	/* as read: everything since the last reset */
	HIST_DELTA,		/* the difference of two samples */
	HIST_BASELINE_RESET,	/* generation changed: counts since that reset */
	HIST_BASELINE_NEW,	/* stage absent from the previous sample */
};

/* One stage's histogram, buckets expanded to the full index range. */
struct hist {
	char pipeline[STACKLAT_NAME_MAX];
	char stage[STACKLAT_NAME_MAX];
	uint32_t index;
	uint64_t generation;
	uint64_t count, sum, min, max, overflow;
	/* min/max are the kernel's (exact) or derived from buckets */
	bool min_exact, max_exact;
	enum hist_kind kind;
	uint32_t unit;		/* enum stacklat_unit of the values */
	__u64 buckets[STACKLAT_HIST_NBUCKETS];
};

/* All histograms of one GET_HIST dump, in dump order. */
struct hist_set {
	struct hist *h;
	size_t n, cap;
};

/* ---- filters (SET_PIPELINE / GET_PIPELINES) ---------------------------- */

/* A filter: bit (1 << STACKLAT_FILTER_A_x) of @mask says the key is set. */
struct filter_spec {
	uint32_t mask;
	bool clear;
	uint32_t tgid, tid, ifindex, dev, op, fs;
	uint64_t cgroup;
	uint16_t lport, rport;
	uint8_t proto;
};

#define FILTER_BIT(a)	(1U << (a))

/* ---- pipelines (GET_PIPELINES) and status (GET_STATUS) ------------------ */

struct stage_info {
	uint32_t index;
	char name[STACKLAT_NAME_MAX];
	char from[STACKLAT_NAME_MAX];
	char to[STACKLAT_NAME_MAX];
	uint32_t unit;		/* enum stacklat_unit */
};

struct hook_info {
	char name[STACKLAT_NAME_MAX];
	char target[STACKLAT_SYM_MAX];
	uint32_t state, kind, error;
	uint64_t hits, nmissed;
};

/* A pipeline's keyed table (GET_PIPELINES' STACKLAT_PIPE_A_KEYED). */
struct keyed_info {
	uint32_t rows, max_rows, cpu_rows, cpus, row_bytes, row_bytes_cpu;
	uint32_t cpu_rows_now;
	uint64_t bytes, linger_ns, folds, full, busy, dropped, dropped_rows;
	uint64_t aged, aged_rows, retire_lost, grows, spilled;
	uint32_t spill_rows;
};

struct pipe_info {
	char name[STACKLAT_NAME_MAX];
	char desc[128];
	uint32_t key;
	bool enabled;
	uint64_t generation;
	struct stage_info *stages;
	size_t nstages;
	struct hook_info *hooks;
	size_t nhooks;
	/* loss counters, indexed by enum stacklat_loss_attr; bit set if sent */
	uint64_t loss[STACKLAT_LOSS_A_MAX + 1];
	uint32_t loss_mask;
	bool has_filter;
	struct filter_spec filter;
	uint64_t threshold_ns;		/* slow events above it; 0 off */
	bool has_keyed;
	struct keyed_info keyed;
	bool has_fprobe;		/* return points on an fprobe */
	uint64_t fprobe_nmissed;
	bool no_events;			/* the module says: no slow events */
	bool has_sample;		/* it can sample (sample PIPELINE N) */
	uint32_t sample;		/* 1 in @sample followed */
	uint64_t sample_seen;		/* objects at its first point, sampling */
	uint64_t sample_followed;	/* of which followed */
	uint32_t sample_auto;		/* auto's budget, hits/s a CPU; 0 fixed */
	uint64_t sample_peak;		/* auto: the busiest CPU's hits/s */
	bool has_cgtotals;		/* it can keep per-cgroup totals */
	bool cgtotals;			/* and keeps them now */
	bool has_mem;
	uint64_t mem_bytes;		/* its histograms, keyed and stack tables */
	uint64_t mem_cpu_bytes;		/* of which each online CPU's share */
};

struct pipe_list {
	struct pipe_info *p;
	size_t n;
};

struct status_info {
	char version[64];
	char release[128];
	char clock[64];
	uint32_t nr_pipelines;
	bool has_flight;
	uint32_t flight_size, flight_used;
	uint64_t flight_max_age_ns, flight_inserts, flight_full, flight_stale;
	/* the slow-event rings */
	bool has_events;
	uint32_t events_ring, events_rings, events_ring_start, events_ring_now;
	uint64_t events_bytes;
	uint64_t events_written, events_read;
	uint64_t *overruns;		/* per CPU (malloc'ed), ncpus of them */
	size_t ncpus;
	uint32_t cpus;			/* EVENTS_A_CPUS: GET_CPU_STATUS has them */
};

/* ---- the syscalls pipeline's rows (GET_KEYED) ------------------------- */

/* One row: a process's calls of one syscall (in one ABI). */
struct sc_row {
	uint32_t tgid;
	uint32_t abi;			/* enum stacklat_sc_abi */
	uint32_t nr;
	char comm[16];
	uint64_t count, errors, time_ns, untimed, max_ns, errno_other;
	uint32_t nerr;
	struct {
		uint32_t err;
		uint64_t count;
	} errs[STACKLAT_SC_ERRNOS];
	uint64_t hist[STACKLAT_SC_NBUCKETS];
	uint64_t cgroup_id;		/* the process's at the last call; 0 none */
};

/* ---- the disktop pipeline's rows (GET_KEYED) -------------------------- */

/* One row: a process's bios to one disk. */
struct dk_row {
	uint32_t tgid;			/* 0: interrupt context */
	uint32_t dev;			/* the kernel's dev_t: major << 20 | minor */
	char comm[16];
	uint64_t ops;			/* bios of every kind */
	uint64_t read_bytes, read_ops, write_bytes, write_ops;
	uint64_t discard_bytes, discard_ops, flush_ops, other_ops;
	uint64_t cgroup_id;		/* the last bio's submitter's; 0 [irq] */
};

/* ---- the sched pipeline's rows (GET_KEYED) ---------------------------- */

/*
 * One row: a thread's run-queue waits; of the cpu pipeline, its on-CPU
 * slices, with the user and system time the kernel sampled during them.
 */
struct sd_row {
	uint32_t tgid, tid;
	char comm[16];			/* the process's */
	char tcomm[16];			/* the thread's */
	uint64_t count, time_ns, max_ns, preempted;
	uint64_t user_tick_ns, sys_tick_ns;	/* cpu only */
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

/* ---- the offcpu pipeline's rows (GET_KEYED) --------------------------- */

/* One row: a process's blocks under one kernel stack. */
struct oc_row {
	uint32_t tgid, stack;		/* stack 0: not kept */
	char comm[16];
	char reason[STACKLAT_SYM_MAX];	/* the stack's innermost non-scheduler function */
	uint64_t count, time_ns, max_ns;
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

/* A futex row (GET_KEYED of "futex"): one process's waits on one futex. */
struct fx_row {
	uint32_t tgid, waker;		/* waker: the last wait's, 0: an interrupt */
	char comm[16];
	uint64_t uaddr;			/* the futex's user address */
	uint64_t count, eagain, time_ns, max_ns, alias;	/* count: the waits */
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

/*
 * A lock row (GET_KEYED of "lock"): the contended waits of one lock type
 * at one caller, kernel-wide.
 */
#define LK_CALLER_LEN	160
struct lk_row {
	uint32_t flags, stack_id;	/* flags: the type's (LCB_F_*) */
	char type[20];			/* "rwsem:W", "spinlock"... */
	char caller[LK_CALLER_LEN];	/* "function+0xoff", "?" */
	uint64_t count, failed, time_ns, max_ns, nested, alias;	/* count: the waits */
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

/*
 * A files row (GET_KEYED of "files"): one process's opens, reads and
 * writes of one file (dev, ino; name and fstype as the kernel had them),
 * or, dev and ino 0, its failed opens of one name.
 */
#define FL_ERRNOS	STACKLAT_SC_ERRNOS
struct fl_row {
	uint32_t tgid, dev, nerr;
	char comm[16];
	char name[STACKLAT_FL_NAME_MAX];
	char fstype[STACKLAT_FL_FSTYPE_MAX];
	uint64_t ino;
	uint64_t opens, open_fails, errno_other;
	struct {
		uint32_t err;
		uint64_t count;
	} errs[FL_ERRNOS];
	uint64_t reads, read_errors, read_bytes;
	uint64_t writes, write_errors, write_bytes, alias;
	uint64_t cgroup_id;		/* the process's at the last update */
};

/*
 * A nettop row (GET_KEYED of "nettop"): one process's calls of one
 * protocol (kind STACKLAT_NT_KIND_PROTO), or of one protocol, local port
 * and peer (STACKLAT_NT_KIND_PEER; raddr 16 bytes, IPv4 as ::ffff:a.b.c.d).
 */
struct nt_row {
	uint32_t tgid, kind, proto, lport, rport;
	char comm[16];
	uint8_t raddr[16];
	uint64_t sends, send_errors, send_bytes;
	uint64_t recvs, recv_errors, recv_bytes, alias;
	uint64_t cgroup_id;		/* the process's at the last call */
};

/* ---- a keyed pipeline's rows (GET_KEYED) ------------------------------- */

/*
 * Every row of one GET_KEYED dump, of the pipeline's row type: struct
 * sc_row for syscalls, struct dk_row for disktop, struct sd_row for sched.
 */
struct keyed_set {
	void *r;
	size_t n, cap;
	uint64_t generation;		/* the pipeline's, 0 if no row */
};

/* ---- the in-flight table (GET_INFLIGHT) -------------------------------- */

#define INFLIGHT_MAX_POINTS	16

struct inflight_point {
	char name[STACKLAT_NAME_MAX];
	uint64_t offset_ns;
};

struct inflight_ent {
	char pipeline[STACKLAT_NAME_MAX];
	uint64_t age_ns;
	bool has_tid;
	uint32_t tid;
	char desc[512];
	struct inflight_point pts[INFLIGHT_MAX_POINTS];
	size_t npts;
};

struct inflight_list {
	struct inflight_ent *e;
	size_t n, cap;
};

#endif
