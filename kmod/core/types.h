/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's shared types: a pipeline's rows (struct sl_hook, their
 * candidates), its stages, the pipeline itself, one hit as the callbacks
 * see it (struct sl_ev), filters and losses.  Types and flags only: no
 * calls.
 */
#ifndef _STACKLAT_TYPES_H
#define _STACKLAT_TYPES_H

#include <linux/types.h>
#include <linux/kprobes.h>

#include "stacklat.h"

/* ---- loss counters ---------------------------------------------------- */

/*
 * What a pipeline lost, by name.  ORPHANED: a return of a call that
 * entered its point before the point was removed (func del; the function
 * stays on the fprobe until the pipeline is disabled), dropped rather than
 * recorded into the slot's next point (hook_fprobe.c).  TABLE_FULL,
 * STALE and BUSY of its chains are counted by the in-flight table under
 * the pipeline (its owner id) and added when read (sl_pipeline_losses()): an insert that found no slot, an
 * entry removed by age (swept, or reclaimed by an insert that needed its
 * slot, whoever's insert it was), a get or put that gave up on a holder.
 */
enum sl_loss {
	SL_LOSS_TABLE_FULL,
	SL_LOSS_STALE,
	SL_LOSS_BAD_DELTA,
	SL_LOSS_UNMATCHED,
	SL_LOSS_FILTERED,
	SL_LOSS_DROPPED,
	SL_LOSS_BUSY,
	SL_LOSS_ORPHANED,
	/* kernel stacks (stack.h) */
	SL_LOSS_STACK_FULL,
	SL_LOSS_STACK_TRUNC,
	SL_LOSS_STACK_BUSY,
	/* events over their pipeline's rate (events.c) */
	SL_LOSS_SUPPRESSED,
	/*
	 * kept for the ABI: a CPU without a histogram copy records into the
	 * histogram's shared one (hist.c), so nothing counts it any more
	 */
	SL_LOSS_NOBUF,
	SL_LOSS_NR
};

struct sl_losses {
	u64 v[SL_LOSS_NR];
};

/*
 * A CPU's sampling state (sample.h, sl_sample_take()): the objects that
 * passed the first point while sampling, those left alone, the countdown
 * to the next one followed, and @seen at the automatic rate's last look
 * (its work's only).
 */
struct sl_sampling {
	u64 seen;
	u64 skipped;
	s32 left;
	u64 seen_prev;
};
struct sl_sample_auto;

/* ---- filters ---------------------------------------------------------- */

/* Which filter keys a pipeline honours. */
#define SL_F_TGID	BIT(0)
#define SL_F_TID	BIT(1)
#define SL_F_LPORT	BIT(2)
#define SL_F_RPORT	BIT(3)
#define SL_F_PROTO	BIT(4)
#define SL_F_IFINDEX	BIT(5)
#define SL_F_DEV	BIT(6)
#define SL_F_OP		BIT(7)
#define SL_F_FS		BIT(8)

/* A value of 0 matches anything. */
struct sl_filter {
	u32 tgid;
	u32 tid;
	u16 lport;
	u16 rport;
	u8 proto;
	u32 ifindex;
	u32 dev;
	u32 op;
	u32 fs;			/* filesystem magic (storage) */
	u64 cgroup;		/* cgroup v2 id (filter.h: the task test) */
};

/* ---- hook points ------------------------------------------------------ */

/*
 * One way of attaching a hook point; every one runs the dispatcher.  A
 * tracepoint candidate gives its probe function (prototype void fn(void
 * *data, TP_PROTO...), data is the struct sl_hook; SL_TP_DEFINE makes one
 * that hands the arguments to the dispatcher); kprobes and kretprobes call
 * it through hook.c.  @argoff: where the point's first argument is among
 * the function's (a candidate whose function takes one more argument in
 * front, as sk_skb_reason_drop does before kfree_skb_reason's).
 */
struct sl_ev;
struct sl_flight_ent;

struct sl_cand {
	u32 kind;			/* enum stacklat_hook_kind */
	const char *target;		/* tracepoint name or symbol */
	void *tp_probe;
	/* SL_TP_DEFINE_POST: the post callback the probe calls itself */
	int (*tp_post)(struct sl_ev *ev, struct sl_flight_ent *e);
	s8 argoff;
	u8 flavor;			/* the pipeline's: how to read the args */
};

/* A user-space point (a uprobe, or a uretprobe alone)? */
static inline bool sl_cand_user(const struct sl_cand *c)
{
	return c->kind == STACKLAT_HOOK_KIND_UPROBE ||
	       c->kind == STACKLAT_HOOK_KIND_URETPROBE;
}

/*
 * What a point does with the object it sees (struct sl_hook's @act); the
 * dispatcher does it, a pipeline only writes the row.
 *  START   start (or restart) the object's chain here
 *  MARK    stamp the chain if the object is followed; with SL_PF_FIRST,
 *          start it here when this is the first point armed
 *  END     stamp, record every stage passed, forget the chain
 *  FORGET  forget the chain, uncounted (freed normally, or out of scope)
 *  DROP    forget the chain, counted dropped (the pipeline's on_drop may
 *          say it does not count)
 *  HOLD    hand the chain, if followed, to the post callback as it is
 *  NONE    the callbacks do it all
 *  SPAN    a return point timed from its own entry: stage @pt is recorded
 *          at return from the entry's time kept in the instance, with the
 *          pipeline's task filter applied at entry.  No object, no table,
 *          no callbacks: the fast path of rows that need nothing more
 *          (func's functions)
 */
enum sl_act {
	SL_ACT_NONE,
	SL_ACT_START,
	SL_ACT_MARK,
	SL_ACT_END,
	SL_ACT_FORGET,
	SL_ACT_DROP,
	SL_ACT_HOLD,
	SL_ACT_SPAN,
};

/*
 * How a probe runs a row, fixed when its hook is resolved (sl_hook_path()):
 *  GENERIC  build the event and call sl_dispatch()
 *  NONE     a NONE row without pre: its post runs from the probe
 *  LOOKUP   a row that acts on a chain already followed (MARK, END,
 *           FORGET, DROP, HOLD) and has no pre: the probe looks the object
 *           up itself, and only a hit builds the event and goes on
 *           (sl_dispatch_held()) - a free of a packet nobody follows costs
 *           the lookup and no more.  A MARK that may start the chain
 *           (SL_PF_FIRST) and missed goes the generic way.  A row without
 *           a post callback needs no event even on a hit: the probe
 *           stamps and acts on the chain itself (sl_held_bare()).
 */
enum sl_path {
	SL_PATH_GENERIC,
	SL_PATH_NONE,
	SL_PATH_LOOKUP,
};

#define SL_OBJ_TASK	0xff	/* the object is the current thread */
#define SL_PF_FIRST	BIT(0)	/* MARK starts the chain if first armed */
#define SL_PF_NOHIT	BIT(1)	/* the callbacks count the point's hits */
#define SL_PF_NOARGS	BIT(2)	/* return point: no argument read at return */

#define SL_FIP_CACHE_BITS	6	/* sl_pipeline.fip_cache: 64 slots */
#define SL_FIP_CACHE		(1 << SL_FIP_CACHE_BITS)

/* What a post callback asks of the chain it holds. */
enum sl_post {
	SL_KEEP,			/* leave it held, released after */
	SL_FORGET,			/* forget it, uncounted */
	SL_FILTERED,			/* forget it, counted filtered */
	SL_DROPPED,			/* forget it, counted dropped */
	SL_DONE,			/* the callback released or moved it */
};

struct sl_hook;
struct sl_pipeline;
struct sl_up;
struct seq_file;
struct sk_buff;
struct netlink_ext_ack;

/*
 * One hit of a point, as the dispatcher hands it to a pipeline's
 * callbacks.  The arguments are read from the registers (kprobe), the
 * tracepoint's arguments or those a kretprobe saved at entry.
 */
struct sl_ev {
	struct sl_hook *hk;
	struct sl_pipeline *p;
	struct pt_regs *regs;
	const unsigned long *args;
	unsigned long ret;		/* return value, at a return point */
	void *data;			/* kretprobe: the pipeline's bytes */
	unsigned long ident;		/* the object; pre may change it */
	u64 now;			/* the clock, once read: sl_ev_now() */
	s8 argoff;
	u8 act;				/* the row's; pre may change it */
	bool nohit;			/* a point passed on another's behalf */
};


#define SL_EV_ARGS	4	/* arguments a kretprobe point saves at entry */

/* Per CPU, per hook: hits, and hits the ftrace backend could not run. */
struct sl_hook_pcpu {
	u64 hits;
	u64 missed;
};

/*
 * A row's run-time state (struct sl_hook's priv), under sl_lock: written
 * by the engine only; a pipeline reads what it needs through the
 * engine's accessors (sl_hook_armed(), sl_hook_cand(), sl_ev_cand()) and
 * never names it (tests/layers.py).
 */
struct sl_hook_priv {
	u32 state;			/* enum stacklat_hook_state */
	int err;			/* errno (positive) of the last failure */
	int cand;			/* index of the resolved candidate, or -1 */
	s8 argoff;			/* the resolved candidate's, for a hit */
	u8 flavor;
	u8 path;			/* enum sl_path: how a probe runs the row */
	struct tracepoint *tp;
	struct kprobe kp;
	struct kretprobe krp;
	struct sl_hook_pcpu __percpu *pc;
	u64 nmissed_acc;		/* nmissed of earlier registrations */
	unsigned long fip;		/* ftrace backends: the entry's address */
	/*
	 * kprobe backend: the address a registration by name resolved
	 * candidate kp_cand to (hook_kprobe.c: later ones go by address)
	 */
	unsigned long kp_addr;
	int kp_cand;
	bool kp_helper;			/* kp: a kretprobe trial's name lookup */
	bool ftrace;			/* a kprobe candidate run by ftrace */
	bool fprobe;			/* a kretprobe candidate run by fprobe */
	/*
	 * The fprobe backend: bumped when the point leaves the fprobe while
	 * its function stays there; a call entered before returns with the
	 * old one and is not recorded (hook.c, hook_fprobe.c).
	 */
	u32 gen;
	struct sl_up *up;		/* a user-space point (hook_uprobe.c) */
};

/*
 * A hook point: one row of a pipeline's table.  The first block is the
 * row; then its pipeline and the engine's run-time state.
 */
struct sl_hook {
	const char *name;		/* the hook point, e.g. "ip_rcv" */
	const struct sl_cand *cands;	/* in order of preference */
	unsigned int ncands;
	bool optional;			/* absence is expected on some kernels */
	u8 act;				/* enum sl_act */
	u8 pt;				/* its timestamp slot in the chain */
	u8 obj;				/* argument that is the object, or SL_OBJ_TASK */
	u8 flags;			/* SL_PF_* */
	/*
	 * pre: before the table, with ev->ident read; returns < 0 to skip
	 * the hit (counted by the callback if it is a loss).  At a
	 * kretprobe point it runs at entry, and skipping means the return
	 * is not followed.  post: with the chain held, after the action's
	 * stamp; returns enum sl_post.
	 */
	int (*pre)(struct sl_ev *ev);
	int (*post)(struct sl_ev *ev, struct sl_flight_ent *e);
	size_t data_size;		/* kretprobe: bytes for the pipeline */

	struct sl_pipeline *pipe;	/* its pipeline, set at load */
	/* the engine's own: tests/layers.py keeps pipelines out of it */
	struct sl_hook_priv priv;
};

/* ---- pipelines -------------------------------------------------------- */

struct sl_stage {
	char name[STACKLAT_NAME_MAX];
	const char *from;		/* hook point names, for the reader */
	const char *to;
	u8 from_pt;			/* point (timestamp slot) indices */
	u8 to_pt;
	u8 unit;			/* enum stacklat_unit, 0: ns */
};

/* A stage derived from two points: the pipeline's list of them. */
#define SL_REC_MAX	24
struct sl_rec_pair {
	u8 from_pt;
	u8 to_pt;
	u16 stage;
};

/*
 * A value stage: a histogram of a size or a number of things, not a time
 * between two points.  Its points are SL_PT_NONE, so sl_chain_record()
 * never derives it; the pipeline's callbacks record it with
 * sl_record_value().
 */
#define SL_PT_NONE	0xff
#define SL_VALUE_STAGE(n, from, to, u) \
	{ n, from, to, SL_PT_NONE, SL_PT_NONE, u }

/* What a slow event's object was: struct stacklat_event's tail. */
struct sl_ev_obj {
	u32 flags;			/* STACKLAT_EVENT_F_* */
	u32 dev;
	u16 sport, dport;
	u32 op;
	u64 sector;
	u32 bytes;
	char ifname[16];
	/* identity lines: the socket (STACKLAT_EVENT_F_ADDR, _F_TCP) */
	u16 family;
	u8 tcp_state;
	u8 saddr[16], daddr[16];
	u32 rto_us, srtt_us, cwnd, retrans;
	s32 result;			/* _F_RESULT */
	u32 qlen, qmax;			/* _F_QUEUE */
	u32 proto;			/* _F_PROTO */
	unsigned long where;		/* _F_WHERE: a kernel text address */
	u32 stack;			/* _F_STACK: an id in the pipeline's stacks */
	bool anon;			/* no process: tgid 0, comm "-" */
	/* the process is this one, not current's (comm may be NULL: "?") */
	bool task;
	u32 tgid, tid;
	const char *comm;
	u64 cgroup;			/* its cgroup v2 id (sl_task_cgroup_id()), 0: unknown */
};

/*
 * What the engine keeps of a pipeline while it runs (struct sl_pipeline's
 * priv): written by the engine only.  A pipeline reads what it needs of
 * it through the engine's accessors (sl_filter_of(), sl_events_thresh(),
 * sl_pipeline_keyed(), chain.h) and never names it (tests/layers.py).
 */
struct sl_pipe_priv {
	unsigned int id;
	bool enabled;			/* under sl_lock */
	bool gate;			/* handlers run: READ_ONCE in them */
	u8 start_pt;			/* the first SL_PF_FIRST point armed */
	/*
	 * The stages sl_chain_record() derives from two points, as a dense
	 * list of point pairs (a stage's own struct is most of a cache line
	 * of names), set on enable
	 */
	struct sl_rec_pair rec[SL_REC_MAX];
	unsigned int nrec;
	bool hists_live;		/* per-CPU histograms allocated */
	u64 generation;
	struct sl_filter filter;	/* fields READ_ONCE in handlers */
	struct sl_hist *hists;		/* max_stages */
	struct sl_losses __percpu *loss;
	/* sample PIPELINE N: follow one in @sample (0: all, uncounted) */
	u32 sample;			/* READ_ONCE in handlers */
	struct sl_sampling __percpu *smp;	/* if @sampling */
	struct sl_sample_auto *sample_auto;	/* sample.c's, auto only */
	u64 ev_thresh;			/* slow events above it, ns; 0 off */
	struct sl_keyed *keyed;		/* sl_pipeline_keyed_enable()'s */
	struct sl_stacks *stacks;	/* sl_pipeline_stacks_enable()'s */
	struct sl_cgdim *cg;		/* cgroup_totals' slots (cgdim.h) */
	/* @cg while the totals are kept, else NULL: READ_ONCE in handlers */
	struct sl_cgdim *cg_live;
	bool stacks_on;			/* stack_points asked for: READ_ONCE */
	/*
	 * The ftrace backends' address map: fips[i] is hooks[i]'s function
	 * while that point is on the ftrace_ops or the fprobe, 0 otherwise.
	 * Their handlers find the hook of an address by reading this dense
	 * array (a few cache lines) instead of every hook's state, and stop
	 * at the first match unless two points share an address (fip_dup).
	 * fip_cache maps a hash of an address to its point, checked against
	 * fips: a collision or a stale slot falls back to the scan.
	 */
	unsigned long *fips;
	bool fip_dup;
	u8 fip_cache[SL_FIP_CACHE];	/* by hash of address: index + 1 */
#ifdef SL_HAVE_FTRACE
	/* the ftrace backend: one ops for the pipeline's entry points */
	struct ftrace_ops ft_ops;
	unsigned int ft_n;		/* its functions (hooks armed on it) */
	bool ft_live;			/* registered */
#endif
#ifdef SL_HAVE_FPROBE
	/* the fprobe backend: one fprobe for the pipeline's return points */
	struct fprobe fp;
	unsigned int fp_n;		/* its functions */
	bool fp_live;			/* registered */
	u64 fp_nmissed_acc;		/* nmissed of earlier registrations */
#endif
};

struct sl_pipeline {
	const char *name;
	const char *desc;
	u32 key;			/* enum stacklat_key */
	u32 filter_caps;		/* SL_F_* this pipeline honours */
	struct sl_hook *hooks;
	unsigned int nhooks;
	struct sl_stage *stages;
	unsigned int nstages;		/* may change under sl_lock (func) */
	unsigned int max_stages;	/* histograms allocated */

	/* optional callbacks, all under sl_lock */
	int (*setup)(struct sl_pipeline *p);
	void (*teardown)(struct sl_pipeline *p);
	int (*on_enable)(struct sl_pipeline *p);
	void (*on_disable)(struct sl_pipeline *p);
	/* describe a live in-flight entry (debugfs "inflight"); optional */
	void (*flight_fmt)(const struct sl_pipeline *p,
			   const struct sl_flight_ent *e, u64 now, char *buf,
			   size_t len);

	/*
	 * Probe context, all optional.  start_ok: a chain is about to start
	 * for ev->ident; filters that need the object, before anything is
	 * inserted: returns SL_KEEP to go on, SL_FORGET or SL_FILTERED (then
	 * counted) not to.  on_start: a chain was just started (held), to
	 * fill in what it carries.  on_record: a chain ends, after its stages were recorded (stages
	 * the table cannot derive, such as per-interface totals).  on_drop:
	 * does the drop of this chain count?
	 */
	int (*start_ok)(struct sl_ev *ev);
	void (*on_start)(struct sl_ev *ev, struct sl_flight_ent *e);
	void (*on_record)(struct sl_pipeline *p, const struct sl_flight_ent *e);
	bool (*on_drop)(struct sl_pipeline *p, const struct sl_flight_ent *e);
	/* its own kretprobe handlers (SL_KRP_DEFINE), optional */
	const struct sl_krp_ops *krp;
	/*
	 * Process context, sl_lock held, optional: before the stages are
	 * read (debugfs, netlink), e.g. to name slots that need a lookup
	 * not allowed in a probe (%ps).
	 */
	void (*refresh)(struct sl_pipeline *p);
	/*
	 * What a slow event's chain was (ports, interface): probe context,
	 * only for a chain over the threshold; optional.
	 */
	void (*ev_obj)(const struct sl_pipeline *p,
		       const struct sl_flight_ent *e, struct sl_ev_obj *o);
	/*
	 * Its callbacks end the objects it follows (sl_chain_finish(),
	 * sl_chain_record(), sl_event_emit_one/_ts()): it has slow events.
	 * A pipeline with an END or a SPAN row has them without saying so;
	 * one with neither is refused a threshold (sl_events_possible()).
	 */
	bool own_events;
	/*
	 * Its callbacks write the lines of the chains they finish too (an
	 * identity line: what the entry does not hold): sl_chain_record()
	 * writes none.
	 */
	bool own_lines;
	/*
	 * It can follow one object in N ("sample PIPELINE N"): an object is
	 * chosen once, where its chain starts - where the engine starts
	 * chains (a START row, a SL_PF_FIRST MARK, a SPAN row's entry), or
	 * in the callback that starts it (sl_sample_take(): net_tx, storage,
	 * block) - so that every later point agrees (they only find chains).
	 */
	bool sampling;
	/*
	 * With @sampling: its callbacks choose and count its objects
	 * (sl_sample_choose(), sl_sample_count()), and the engine's starts
	 * follow every object: reqresp, whose START rows start a segment's
	 * and a thread's chains before the request they belong to is known.
	 */
	bool sample_own;
	/*
	 * The total of every object it ends (a SPAN row's call, an END's
	 * chain: last point minus first) is also kept per cgroup v2 of the
	 * task it ends in, current (cgdim.h): only for a pipeline whose
	 * objects end in their own task's context.
	 */
	bool cgroup_totals;
	/*
	 * Its points can take the kernel stack of each object they see, on
	 * request (control "stacks PIPELINE on", SET_PIPELINE's
	 * STACKLAT_A_STACKS): when sl_pipeline_stacks_on(), it captures it
	 * (sl_stack_capture()) into its stack table and puts the id in its
	 * lines (_F_STACK).
	 */
	bool stack_points;
	/*
	 * A keyed aggregation (keyed.h), optional: counters per key that
	 * the pipeline's callbacks keep (syscalls: per process and
	 * syscall).  Made by sl_pipeline_keyed_enable() (on its first
	 * enable, say), read with sl_pipeline_keyed(); reset with the
	 * pipeline, shown in status, in the pipeline's debugfs table after
	 * its stages (keyed_show: one row, @v NULL for the header line) and
	 * by GET_KEYED (keyed_put: a row's attributes, inside the
	 * STACKLAT_A_KEYED nest).  Process context.
	 */
	void (*keyed_show)(struct seq_file *m, u64 key, const u64 *v);
	int (*keyed_put)(struct sk_buff *skb, u64 key, const u64 *v);
	/*
	 * Rows a CPU buffer of its keyed table starts with (they grow, up
	 * to keyed_cpu_rows=): 0 for SL_KEYED_CPU_START.  A burst of new
	 * keys beyond them spills into the table's shared buffer until the
	 * next fold grows the CPU's (syscalls: a new process brings 25-40
	 * keys), so more is rarely worth its memory on every CPU.
	 */
	unsigned int keyed_cpu_start;
	/*
	 * Process context, optional: what stack @id of its stack table says
	 * (offcpu: the function the thread blocked in), written into @buf as
	 * a slow event's where[] when the event is read (_F_STACK without
	 * _F_WHERE).
	 */
	void (*stack_where)(struct sl_pipeline *p, u32 id, char *buf,
			    size_t len);
	/*
	 * Points added and removed while the module runs, named by @arg
	 * ("func add|del SYMBOL"): the pipeline picks the row and calls
	 * sl_point_add() or sl_point_del().  Process context, sl_lock held;
	 * optional.
	 */
	int (*point_add)(struct sl_pipeline *p, const char *arg,
			 struct netlink_ext_ack *extack);
	int (*point_del)(struct sl_pipeline *p, const char *arg,
			 struct netlink_ext_ack *extack);

	/* the engine's own: tests/layers.py keeps pipelines out of it */
	struct sl_pipe_priv priv;
};

#define SL_MAX_PIPELINES	32

#endif /* _STACKLAT_TYPES_H */
