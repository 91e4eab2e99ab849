/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything a probe runs: reading an event's arguments, the tracepoint
 * probes (SL_TP_DEFINE, SL_TP_DEFINE_POST), the candidates and rows of a
 * pipeline's table (SL_TPD, SL_KPD, SL_KRPD, SL_POINT), the inline paths
 * of the dispatcher, return points (SL_KRP_DEFINE) and SPAN rows.  The
 * backends (hook_*.c) run them; they run chain.h's operations.
 */
#ifndef _STACKLAT_DISPATCH_H
#define _STACKLAT_DISPATCH_H

#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "types.h"
#include "clock.h"
#include "chain.h"
#include "filter.h"
#include "events.h"
#include "sample.h"

/* ---- events ----------------------------------------------------------- */

unsigned long sl_regs_arg_slow(struct pt_regs *regs, unsigned int n);

/*
 * Argument @n of the function a kprobe stopped at (@regs at its entry).
 * On x86-64 the first six are read from their registers here: inlined
 * into a handler, regs_get_kernel_argument() (any argument, any arch)
 * costs that handler a stack canary on every hit, so it is called out of
 * line for the rest.
 */
static __always_inline unsigned long sl_regs_arg(struct pt_regs *regs,
						 unsigned int n)
{
#ifdef CONFIG_X86_64
	switch (n) {
	case 0:
		return regs->di;
	case 1:
		return regs->si;
	case 2:
		return regs->dx;
	case 3:
		return regs->cx;
	case 4:
		return regs->r8;
	case 5:
		return regs->r9;
	}
#endif
	return sl_regs_arg_slow(regs, n);
}

static __always_inline unsigned long sl_ev_arg(const struct sl_ev *ev,
					       unsigned int n)
{
	if (ev->args)
		return ev->args[n];
	return sl_regs_arg(ev->regs, n + ev->argoff);
}

/*
 * The time of this hit.  The clock is read on first use only: a hit that
 * stamps nothing (an object not followed, a free, a filtered call) never
 * reads it.  Its cost is the clocksource's, and on machines whose
 * clocksource is not the TSC (HPET, or a hypervisor that traps it) one
 * read costs more than the whole rest of a point.
 */
static __always_inline u64 sl_ev_now(struct sl_ev *ev)
{
	if (!ev->now)
		ev->now = sl_now();
	return ev->now;
}

static __always_inline void *sl_ev_ptr(const struct sl_ev *ev, unsigned int n)
{
	return (void *)sl_ev_arg(ev, n);
}

/* The hook a probe handler runs for. */
static inline struct sl_hook *sl_hook_of_kp(struct kprobe *kp)
{
	return container_of(kp, struct sl_hook, priv.kp);
}

static __always_inline void sl_hook_hit(struct sl_hook *hk)
{
	this_cpu_inc(hk->priv.pc->hits);
}

/* @n hits at once: a point whose hits count what it found (SL_PF_NOHIT) */
static __always_inline void sl_hook_hit_n(struct sl_hook *hk, unsigned int n)
{
	this_cpu_add(hk->priv.pc->hits, n);
}

static __always_inline bool sl_hook_armed(const struct sl_hook *hk)
{
	return READ_ONCE(hk->priv.state) == STACKLAT_HOOK_ARMED;
}

/* ---- the dispatcher (dispatch.c) -------------------------------------- */

void sl_dispatch(struct sl_ev *ev);
void sl_dispatch_held(struct sl_ev *ev, struct sl_flight_ent *e);
u8 sl_hook_path(const struct sl_hook *hk);
size_t sl_krp_data_size(const struct sl_hook *hk);


/*
 * Every probe runs with preemption off, whatever attaches it: the engine's
 * per-CPU state assumes it (a held in-flight entry or bucket lock that
 * other CPUs wait for a bounded time, a histogram's min and max, a
 * pipeline's per-CPU frames, an RCU-sched read of kernel tables such as
 * the drop reasons).  kprobe and kretprobe handlers are called so; the
 * ftrace_ops and fprobe handlers run under ftrace's recursion lock, which
 * disables preemption (hook_ftrace.c, hook_fprobe.c); tracepoint probes
 * were called so up to 6.12, and since are not (compat.h): there the
 * probes SL_TP_DEFINE* make turn it off around their body themselves
 * (SL_TP_PREEMPTIBLE, or SL_TP_SYSCALL_PREEMPTIBLE for the syscall
 * tracepoints that may fault, SL_TP_DEFINE_FAULTABLE); elsewhere @on is a
 * constant 0 and this is compiled out.
 */
#define sl_tp_preempt_off(on)						\
	do { if (on) preempt_disable_notrace(); } while (0)
#define sl_tp_preempt_on(on)						\
	do { if (on) preempt_enable_notrace(); } while (0)

/*
 * A tracepoint probe for the dispatcher: SL_TP_DEFINE(name, (PROTO),
 * args...) defines sl_tp_<name> with the tracepoint's prototype, handing
 * the listed arguments on in that order, and type-checks it against the
 * kernel's own register_trace_<name>() so that a prototype that drifts is
 * a build error, never a crash.  SL_TP_DEFINE_FAULTABLE is the same for a
 * syscall tracepoint (sys_enter, sys_exit), which the kernel may call
 * preemptible where it calls the others with preemption off.
 */
#define SL_UNPAREN(...)	__VA_ARGS__
/* fn(d, the first four of the arguments given) */
#define SL_TP_CALL4(fn, d, a0, a1, a2, a3, ...)	fn(d, a0, a1, a2, a3)
#define SL_TP_CHECK(tpname)						\
static inline void __maybe_unused sl_tp_check_##tpname(void)		\
{									\
	BUILD_BUG_ON(sizeof(register_trace_##tpname(sl_tp_##tpname,	\
						    NULL)) != sizeof(int)); \
}
#define SL_TP_DEFINE_IN(tpname, preemptible, proto, ...)		\
static void sl_tp_##tpname(void *__data, SL_UNPAREN proto)		\
{									\
	sl_tp_preempt_off(preemptible);					\
	SL_TP_CALL4(sl_tp_dispatch, __data, __VA_ARGS__, 0, 0, 0, 0);	\
	sl_tp_preempt_on(preemptible);					\
}									\
SL_TP_CHECK(tpname)
#define SL_TP_DEFINE(tpname, proto, ...)				\
	SL_TP_DEFINE_IN(tpname, SL_TP_PREEMPTIBLE, proto, __VA_ARGS__)
#define SL_TP_DEFINE_FAULTABLE(tpname, proto, ...)			\
	SL_TP_DEFINE_IN(tpname, SL_TP_SYSCALL_PREEMPTIBLE, proto, __VA_ARGS__)

/*
 * A tracepoint probe for a NONE row (SL_PATH_NONE) that calls the row's
 * post callback @post directly, not through the table: the compiler can
 * inline it into the probe, and with the event and the argument array
 * then kept in registers the probe has no stack frame to zero, no stack
 * canary and no indirect call - what a hand-written tracepoint handler
 * costs.  The candidate (SL_TPD_POST) names @post too; the hook refuses
 * to arm the probe on a row whose post or path is another
 * (sl_hook_register()).  The post must not keep the event's address.
 */
#define SL_TP_DEFINE_POST(tpname, post, proto, ...)			\
static void sl_tp_##tpname(void *__data, SL_UNPAREN proto)		\
{									\
	const unsigned long __a[] = { __VA_ARGS__ };			\
									\
	sl_tp_preempt_off(SL_TP_PREEMPTIBLE);				\
	sl_tp_post(__data, __a, ARRAY_SIZE(__a), post);			\
	sl_tp_preempt_on(SL_TP_PREEMPTIBLE);				\
}									\
SL_TP_CHECK(tpname)

/*
 * The probe of a tracepoint named at run time (a span's "tp:NAME"), whose
 * prototype the module was not built with (compat.h, SL_TP_UNTYPED_OK):
 * the tracepoint's first four arguments as machine words, a pointer or a
 * long each (a narrower type's upper bits are not defined, and past the
 * tracepoint's last argument a word is whatever its register holds: an
 * object read there never matches; the thread is the key that needs
 * none).  SL_TPANY(name) is its candidate, @name kept by the caller.
 */
void sl_tp_any(void *data, unsigned long a0, unsigned long a1,
	       unsigned long a2, unsigned long a3);

/* candidates for the dispatcher */
#define SL_TPANY(name) \
	{ .kind = STACKLAT_HOOK_KIND_TRACEPOINT, .target = name, \
	  .tp_probe = sl_tp_any }
#define SL_TPD(name) \
	{ .kind = STACKLAT_HOOK_KIND_TRACEPOINT, .target = #name, \
	  .tp_probe = sl_tp_##name }
#define SL_TPD_POST(name, post) \
	{ .kind = STACKLAT_HOOK_KIND_TRACEPOINT, .target = #name, \
	  .tp_probe = sl_tp_##name, .tp_post = post }
#define SL_KPD(sym, off) \
	{ .kind = STACKLAT_HOOK_KIND_KPROBE, .target = sym, .argoff = off }
#define SL_KRPD(sym, off) \
	{ .kind = STACKLAT_HOOK_KIND_KRETPROBE, .target = sym, .argoff = off }
#define SL_KRPDF(sym, off, fl) \
	{ .kind = STACKLAT_HOOK_KIND_KRETPROBE, .target = sym, .argoff = off, \
	  .flavor = fl }

/* The candidate a hit came through (the hook is armed). */
static __always_inline const struct sl_cand *sl_ev_cand(const struct sl_ev *ev)
{
	return &ev->hk->cands[READ_ONCE(ev->hk->priv.cand)];
}

/* Which of its candidates @hk was resolved to (-1: none). */
static __always_inline int sl_hook_cand(const struct sl_hook *hk)
{
	return READ_ONCE(hk->priv.cand);
}

/*
 * The function whose entry a hit came through, at an entry point (a
 * kprobe, or the ftrace backend, whose address is its kprobe's): a
 * stack's anchor (sl_stack_capture()).  0 at a tracepoint.
 */
static __always_inline unsigned long sl_ev_func(const struct sl_ev *ev)
{
	return (unsigned long)READ_ONCE(ev->hk->priv.kp.addr);
}

/* Its flavor, copied into the hook when it was resolved. */
static __always_inline u8 sl_ev_flavor(const struct sl_ev *ev)
{
	return ev->hk->priv.flavor;
}

/* A row: SL_POINT(name, candidates, act, pt, obj) plus designated fields. */
#define SL_POINT(hname, c, a, p, o, ...) \
	{ .name = hname, .cands = c, .ncands = ARRAY_SIZE(c), .act = a, \
	  .pt = p, .obj = o, __VA_ARGS__ }

/* ---- the dispatcher's inline paths ---------------------------------- */

/* The gate: opened after every hook is armed, closed before disarming. */
static __always_inline bool sl_on(const struct sl_pipeline *p)
{
	return READ_ONCE(p->priv.gate);
}

/*
 * A hit of a NONE row without a pre callback (SL_PATH_NONE), whose post
 * callback does it all: what sl_dispatch() would do, inline in the probe
 * that got the hit (no call, no switch on the action).
 */
static __always_inline void sl_dispatch_none(struct sl_ev *ev)
{
	struct sl_hook *hk = ev->hk;

	if (!sl_on(hk->pipe))
		return;
	if (!(hk->flags & SL_PF_NOHIT))
		sl_hook_hit(hk);
	ev->p = hk->pipe;
	ev->act = SL_ACT_NONE;
	if (hk->obj == SL_OBJ_TASK)
		ev->ident = (unsigned long)current->pid;
	else
		ev->ident = sl_ev_arg(ev, hk->obj);
	hk->post(ev, NULL);
}

/*
 * The front half of an SL_PATH_LOOKUP row's hit, before any event: the
 * gate, the hit count and the chain of the object @ident, held; NULL if it
 * is not followed (or the gate is closed).
 */
static __always_inline struct sl_flight_ent *
sl_lookup_hit(struct sl_hook *hk, unsigned long ident)
{
	if (!sl_on(hk->pipe))
		return NULL;
	if (!(hk->flags & SL_PF_NOHIT))
		sl_hook_hit(hk);
	return sl_chain_get(hk->pipe, ident);
}

/* The object of row @hk, from argument @arg (unused for a task's row). */
#define SL_HOOK_IDENT(hk, arg)						\
	((hk)->obj == SL_OBJ_TASK ? (unsigned long)current->pid : (arg))

/*
 * A LOOKUP row that missed: whether it is the MARK the chain starts at
 * (SL_PF_FIRST, the first such point armed), which the generic path does.
 */
static __always_inline bool sl_lookup_starts(const struct sl_hook *hk)
{
	return (hk->flags & SL_PF_FIRST) &&
	       hk->pt == READ_ONCE(hk->pipe->priv.start_pt);
}

/*
 * What action @act does with the chain @e (held, stamped) that the row's
 * post callback, if any, kept: END records its stages, FORGET and DROP
 * remove it (DROP counted, unless the pipeline's on_drop says otherwise),
 * the others release it.
 */
static __always_inline void sl_act_kept(struct sl_pipeline *p,
					struct sl_flight_ent *e, u8 act)
{
	switch (act) {
	case SL_ACT_END:
		sl_chain_finish(p, e);
		break;
	case SL_ACT_FORGET:
		sl_chain_remove(p, e, SL_NO_LOSS);
		break;
	case SL_ACT_DROP:
		sl_chain_drop(p, e);
		break;
	default:
		sl_chain_put(e);
		break;
	}
}

/*
 * A LOOKUP row's hit on the chain @e (held) when the row has no post
 * callback: the stamp and the action need nothing but the chain, so they
 * run in the probe, with no event and no call into the dispatcher.
 */
static __always_inline void sl_held_bare(struct sl_hook *hk,
					 struct sl_flight_ent *e)
{
	switch (hk->act) {
	case SL_ACT_MARK:
		if (!e->ts[hk->pt])
			e->ts[hk->pt] = sl_now();
		break;
	case SL_ACT_END:
		e->ts[hk->pt] = sl_now();
		break;
	}
	sl_act_kept(hk->pipe, e, hk->act);
}

/*
 * A hit of a probe at an entry: a tracepoint's arguments @a, or a function
 * entry's registers @regs (a kprobe or the ftrace_ops handler); one of the
 * two is a constant NULL where this is inlined.  The event is initialised
 * where it is declared: the kernel's stack auto-init zeroes it once, and
 * an assignment from a compound literal would zero a second copy.
 */
static __always_inline void sl_probe_dispatch(struct sl_hook *hk,
					      const unsigned long *a,
					      struct pt_regs *regs)
{
	bool nohit = false;

	if (hk->priv.path == SL_PATH_LOOKUP) {
		unsigned long ident;
		struct sl_flight_ent *e;

		ident = SL_HOOK_IDENT(hk, a ? a[hk->obj] :
				      sl_regs_arg(regs,
						  hk->obj + hk->priv.argoff));
		e = sl_lookup_hit(hk, ident);
		if (e && !hk->post) {
			sl_held_bare(hk, e);
			return;
		}
		if (e) {
			struct sl_ev ev = {
				.hk = hk, .p = hk->pipe, .regs = regs,
				.args = a, .ident = ident,
				.argoff = hk->priv.argoff, .act = hk->act,
			};

			sl_dispatch_held(&ev, e);
			return;
		}
		if (likely(!sl_lookup_starts(hk)))
			return;
		nohit = true;	/* counted above */
	}
	{
		struct sl_ev ev = {
			.hk = hk, .regs = regs, .args = a,
			.argoff = hk->priv.argoff, .nohit = nohit,
		};

		if (hk->priv.path == SL_PATH_NONE)
			sl_dispatch_none(&ev);
		else
			sl_dispatch(&ev);
	}
}

/*
 * Argument @obj of those a tracepoint handed over (@a0..@a3, 0 past the
 * last), read with a constant index each: a variable index would keep
 * them in an array on the probe's stack.
 */
static __always_inline unsigned long
sl_tp_obj(u8 obj, unsigned long a0, unsigned long a1, unsigned long a2,
	  unsigned long a3)
{
	switch (obj) {
	case 0:
		return a0;
	case 1:
		return a1;
	case 2:
		return a2;
	case 3:
		return a3;
	case SL_OBJ_TASK:
		return (unsigned long)current->pid;
	}
	return 0;
}

/* The probe SL_TP_DEFINE_POST makes: sl_dispatch_none() calling @post. */
static __always_inline void
sl_tp_post(struct sl_hook *hk, const unsigned long *a, unsigned int n,
	   int (*post)(struct sl_ev *ev, struct sl_flight_ent *e))
{
	struct sl_pipeline *p = hk->pipe;

	if (!sl_on(p))
		return;
	if (!(hk->flags & SL_PF_NOHIT))
		sl_hook_hit(hk);
	{
		struct sl_ev ev = {
			.hk = hk, .p = p, .args = a, .argoff = hk->priv.argoff,
			.act = SL_ACT_NONE,
			.ident = sl_tp_obj(hk->obj, a[0], n > 1 ? a[1] : 0,
					   n > 2 ? a[2] : 0, n > 3 ? a[3] : 0),
		};

		post(&ev, NULL);
	}
}

void sl_tp_slow(struct sl_hook *hk, bool nohit, unsigned long a0,
		unsigned long a1, unsigned long a2, unsigned long a3);
void sl_tp_held(struct sl_hook *hk, struct sl_flight_ent *e,
		unsigned long ident, unsigned long a0, unsigned long a1,
		unsigned long a2, unsigned long a3);

/*
 * A tracepoint probe (SL_TP_DEFINE), with the point's arguments @a0..@a3
 * (0 past the last).  An SL_PATH_LOOKUP row's miss - a free of a packet
 * nobody follows - ends here, with the arguments in registers: no event,
 * no array, no frame to zero and no stack canary.  Everything else (a
 * hit, a start, the other paths) builds the event out of line.
 */
static __always_inline void sl_tp_dispatch(struct sl_hook *hk,
					   unsigned long a0, unsigned long a1,
					   unsigned long a2, unsigned long a3)
{
	if (hk->priv.path == SL_PATH_LOOKUP) {
		unsigned long ident = sl_tp_obj(hk->obj, a0, a1, a2, a3);
		struct sl_flight_ent *e = sl_lookup_hit(hk, ident);

		if (e && !hk->post) {
			sl_held_bare(hk, e);
			return;
		}
		if (e) {
			sl_tp_held(hk, e, ident, a0, a1, a2, a3);
			return;
		}
		if (likely(!sl_lookup_starts(hk)))
			return;
		sl_tp_slow(hk, true, a0, a1, a2, a3);	/* counted above */
		return;
	}
	sl_tp_slow(hk, false, a0, a1, a2, a3);
}

static __always_inline void sl_regs_dispatch(struct sl_hook *hk,
					     struct pt_regs *regs)
{
	sl_probe_dispatch(hk, NULL, regs);
}

/* ---- return points (inline in hook.c's handlers) --------------------- */

/*
 * A return point (a kretprobe, or an fprobe's entry and exit handlers):
 * its event lives in the instance's bytes @raw from entry to return, in
 * front of the saved arguments and the pipeline's own bytes, so neither
 * handler builds one on its stack (no zeroing, no stack canary) and what
 * the pre callback set (ident, act) is there at return.  Entry runs the
 * row's pre callback: skipping there (non-zero) means the return is not
 * followed (the instance goes back at once).  The row runs at return with
 * the return value and the saved arguments (none with SL_PF_NOARGS).
 * Both are inline in the backends' handlers (hook.c): no call on the way
 * in.
 */
struct sl_krp_data {
	struct sl_ev ev;
	unsigned long args[SL_EV_ARGS];
	u64 data[];
};

static __always_inline int
sl_ret_entry_dispatch(struct sl_hook *hk, void *raw, struct pt_regs *regs,
		      int (*pre)(struct sl_ev *ev))
{
	struct sl_krp_data *d = raw;
	struct sl_ev *ev = &d->ev;
	unsigned int i;

	if (!sl_on(hk->pipe))
		return 1;
	ev->hk = hk;
	ev->p = hk->pipe;
	ev->regs = regs;
	ev->args = NULL;
	ev->data = d->data;
	ev->now = 0;
	ev->argoff = hk->priv.argoff;
	ev->act = hk->act;
	ev->nohit = false;
	if (hk->obj == SL_OBJ_TASK)
		ev->ident = (unsigned long)current->pid;
	else
		ev->ident = sl_ev_arg(ev, hk->obj);
	if (pre && pre(ev) < 0)
		return 1;
	if (hk->flags & SL_PF_NOARGS)
		return 0;
	if (likely(!ev->argoff)) {
		/* constant indices: each a register's load */
		BUILD_BUG_ON(SL_EV_ARGS != 4);
		d->args[0] = sl_regs_arg(regs, 0);
		d->args[1] = sl_regs_arg(regs, 1);
		d->args[2] = sl_regs_arg(regs, 2);
		d->args[3] = sl_regs_arg(regs, 3);
	} else {
		for (i = 0; i < SL_EV_ARGS; i++)
			d->args[i] = sl_ev_arg(ev, i);
	}
	return 0;
}

static __always_inline void
sl_ret_exit_dispatch(struct sl_hook *hk, void *raw, unsigned long ret,
		     int (*post)(struct sl_ev *ev, struct sl_flight_ent *e))
{
	struct sl_krp_data *d = raw;
	struct sl_ev *ev = &d->ev;

	/* the entry's registers are gone: the saved arguments stand in */
	ev->regs = NULL;
	ev->args = d->args;
	ev->ret = ret;
	ev->now = 0;
	/* a row whose callbacks do it all: what sl_dispatch() would do */
	if (ev->act == SL_ACT_NONE && post) {
		if (!sl_on(ev->p))
			return;
		if (!(hk->flags & SL_PF_NOHIT))
			sl_hook_hit(hk);
		post(ev, NULL);
		return;
	}
	sl_dispatch(ev);
}

/*
 * A pipeline's own kretprobe handlers for its rows whose pre and post
 * callbacks are @pre and @post (struct sl_pipeline's @krp): the generic
 * ones (hook.c) with the two callbacks called directly, not through the
 * row, so that they inline - what a bespoke pair of handlers costs.
 * SL_KRP_DEFINE(name, pre, post) makes sl_krp_<name>; hook.c registers
 * them for a row only if its callbacks are these two.
 */
struct sl_krp_ops {
	kretprobe_handler_t entry;
	kretprobe_handler_t ret;
	int (*pre)(struct sl_ev *ev);
	int (*post)(struct sl_ev *ev, struct sl_flight_ent *e);
};

/*
 * The hook of a kretprobe instance, NULL while it is being unregistered
 * on kernels where that can be seen (SL_KRP_MAY_VANISH, compat.h): there
 * get_kretprobe(ri) reads ri->rph->rp, which unregister_kretprobe() sets
 * to NULL before its grace period ends, so an entry handler that started
 * just before, or a return handler the kernel called after checking the
 * pointer itself, can read NULL (the kernel's own kretprobe_dispatcher
 * checks for exactly this).  Disabling a pipeline under load would then
 * oops in container_of(NULL).  Elsewhere the check is compiled out:
 * sl_krp_gone() is a constant false.
 */
static __always_inline struct sl_hook *
sl_krp_hook(struct kretprobe_instance *ri)
{
	struct kretprobe *rp = sl_compat_kretprobe(ri);

	if (SL_KRP_MAY_VANISH && unlikely(!rp))
		return NULL;
	return container_of(rp, struct sl_hook, priv.krp);
}

/* sl_krp_hook() gave no hook: the kretprobe is being unregistered */
static __always_inline bool sl_krp_gone(const struct sl_hook *hk)
{
	return SL_KRP_MAY_VANISH && unlikely(!hk);
}

static __always_inline int
sl_krp_entry_with(struct kretprobe_instance *ri, struct pt_regs *regs,
		  int (*pre)(struct sl_ev *ev))
{
	struct sl_hook *hk = sl_krp_hook(ri);

	if (sl_krp_gone(hk))
		return 1;	/* being unregistered: no return handler */
	return sl_ret_entry_dispatch(hk, ri->data, regs, pre);
}

static __always_inline int
sl_krp_ret_with(struct kretprobe_instance *ri, struct pt_regs *regs,
		int (*post)(struct sl_ev *ev, struct sl_flight_ent *e))
{
	struct sl_hook *hk = sl_krp_hook(ri);

	if (!sl_krp_gone(hk))
		sl_ret_exit_dispatch(hk, ri->data, regs_return_value(regs),
				     post);
	return 0;
}

#define SL_KRP_DEFINE(name, pre_fn, post_fn)				\
static int sl_krpe_##name(struct kretprobe_instance *ri,		\
			  struct pt_regs *regs)				\
{									\
	return sl_krp_entry_with(ri, regs, pre_fn);			\
}									\
static int sl_krpr_##name(struct kretprobe_instance *ri,		\
			  struct pt_regs *regs)				\
{									\
	return sl_krp_ret_with(ri, regs, post_fn);			\
}									\
static const struct sl_krp_ops sl_krp_##name = {			\
	.entry = sl_krpe_##name, .ret = sl_krpr_##name,			\
	.pre = pre_fn, .post = post_fn,					\
}

/* ---- SPAN rows (inline in hook.c's handlers) ----------------------- */

/*
 * A SPAN row's return point, which the backends call instead of
 * sl_ret_entry_dispatch() and sl_ret_exit_dispatch(): the entry keeps only its time in the instance and the return
 * records the row's stage, with no event, table or callback in between
 * (what a bespoke pair of handlers would do, and no more).  Inline in
 * the backends' handlers (hook.c).
 */
static __always_inline int sl_span_entry(struct sl_hook *hk, void *raw)
{
	struct sl_pipeline *p = hk->pipe;

	if (!sl_on(p))
		return 1;
	if (!sl_task_ok(p)) {
		sl_loss(p, SL_LOSS_FILTERED);
		return 1;	/* the return is not followed */
	}
	if (!sl_sample_take(p))
		return 1;
	*(u64 *)raw = sl_now();
	return 0;
}

/*
 * No gate here: the entry passed it, and a call that began with the gate
 * open is measured to its end.  The histograms outlive every return
 * handler: a disable frees nothing before the return points are
 * unregistered and their handlers waited for.
 */
static __always_inline void sl_span_exit(struct sl_hook *hk, void *raw)
{
	struct sl_pipeline *p = hk->pipe;
	u64 start = *(u64 *)raw;
	u64 now;

	now = sl_now();
	sl_hook_hit(hk);
	sl_record(p, hk->pt, (s64)(now - start));
	sl_cgroup_record(p, (s64)(now - start));
	if (unlikely(READ_ONCE(p->priv.ev_thresh)))
		sl_event_emit_one(p, hk->pt, start, now);
}

#endif /* _STACKLAT_DISPATCH_H */
