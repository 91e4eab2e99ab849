// SPDX-License-Identifier: GPL-2.0
/*
 * irq: time spent in interrupt handlers.
 *
 *   "<irq>.<name>"  one hardirq handler (struct irqaction) on one IRQ line,
 *                   from irq_handler_entry to irq_handler_exit: e.g.
 *                   "24.virtio0-input.0".  SL_DIM_SLOTS handlers, in the
 *                   order they are first seen while enabled, then "other".
 *                   A shared line has one row per handler; its handlers
 *                   run one after the other, each is one sample.
 *   "NET_RX" ...    one softirq vector run, softirq_entry to softirq_exit,
 *                   named as in /proc/softirqs (compat.h).
 *
 * One sample is one handler run, so a row's count is the number of times
 * the handler ran: for a line with one handler the interrupts of that line
 * /proc/interrupts counts, for a vector the runs /proc/softirqs counts
 * (both count just before the entry tracepoint), while enabled
 * (tests/vm/scenarios/92-irq.sh compares them).  The time includes what
 * interrupted the handler: a softirq includes the hardirqs taken during it.
 *
 * The entry's stamp is kept per CPU and per context, one for hardirq and
 * one for softirq (a hardirq can interrupt a softirq, nothing nests within
 * its own context: handlers run with interrupts off, and a softirq never
 * runs inside another), in this CPU's struct sl_iq_stamp with this_cpu_*
 * operations: no allocation, no lock, no atomic, no in-flight table.  The
 * exit checks the stamp is its own (the same irqaction, the same vector)
 * and clears it; an exit without one is counted unmatched.  That is the
 * handler that was running, on each CPU, when the gate opened (at most one
 * hardirq and one softirq per CPU at each enable); a run whose exit comes
 * after the gate closed is simply not a sample.  The stamps are cleared
 * at enable, so an entry seen before the last disable is never paired
 * with an exit after the next enable.
 *
 * Slots are keyed by the irqaction (one handler on one line; its line and
 * name never change while it is registered) and named from it when first
 * seen.  They are not released: the kernel has no tracepoint for free_irq,
 * so a handler freed and another registered at the same address would go
 * on in the old one's row.  The cost of a hit: the dispatcher's gate and
 * hit count, one clock read, two per-CPU stores at entry; at exit two
 * per-CPU loads, a store, at most SL_DIM_SLOTS key loads to find the row
 * (a handler seen for the first time also names and claims its slot with
 * one cmpxchg, once) and the histogram's per-CPU update.
 */
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <trace/events/irq.h>

#include "sl.h"

enum {
	IQ_SOFT = 0,				/* NR_SOFTIRQS vectors */
	IQ_HARD = IQ_SOFT + NR_SOFTIRQS,	/* slots, then "other" */
	IQ_NSTAGES = IQ_HARD + SL_DIM_SLOTS + 1
};

static struct sl_stage sl_iq_stages[IQ_NSTAGES];
static struct sl_dim sl_iq_lines;
static const char * const sl_iq_suffix[1] = { "" };

/* The entry stamps of this CPU: 0 when none */
struct sl_iq_stamp {
	u64 hard_ts;
	unsigned long hard_action;
	u64 soft_ts;
	unsigned long soft_vec;
};

static DEFINE_PER_CPU(struct sl_iq_stamp, sl_iq_stamp);

/*
 * "<irq>.<name>" in @buf (STACKLAT_NAME_MAX): probe context, the name read
 * byte by byte, cut to fit.
 */
static void sl_iq_label(char *buf, unsigned int irq, const char *name)
{
	char digits[10];
	unsigned int n = 0, d = 0;

	do {
		digits[d++] = '0' + irq % 10;
		irq /= 10;
	} while (irq && d < sizeof(digits));
	while (d)
		buf[n++] = digits[--d];
	if (name) {
		buf[n++] = '.';
		while (n < STACKLAT_NAME_MAX - 1 && READ_ONCE(*name))
			buf[n++] = READ_ONCE(*name++);
	}
	buf[n] = '\0';
}

/* The row of handler @action of line @irq, claimed on first sight. */
static unsigned int sl_iq_row(unsigned int irq,
			      const struct irqaction *action)
{
	char label[STACKLAT_NAME_MAX];
	u64 key = (unsigned long)action;
	u32 tag = sl_dim_find(&sl_iq_lines, key);

	if (tag == SL_DIM_NONE) {
		sl_iq_label(label, irq, READ_ONCE(action->name));
		tag = sl_dim_tag(&sl_iq_lines, key, label);
	}
	return sl_dim_stage(&sl_iq_lines, tag);
}

/* Record @stage's sample that started at @start (and maybe an event). */
static __always_inline void sl_iq_record(struct sl_ev *ev, unsigned int stage,
					 u64 start)
{
	u64 now = sl_ev_now(ev);

	sl_record(ev->p, stage, (s64)(now - start));
	if (unlikely(sl_events_thresh(ev->p)))
		sl_event_emit_one(ev->p, stage, start, now);
}

/* irq_handler_entry(irq, action) */
static int sl_iq_hard_entry(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	this_cpu_write(sl_iq_stamp.hard_action, sl_ev_arg(ev, 1));
	this_cpu_write(sl_iq_stamp.hard_ts, sl_ev_now(ev));
	return SL_KEEP;
}

/* irq_handler_exit(irq, action, ret) */
static int sl_iq_hard_exit(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	u64 ts = this_cpu_read(sl_iq_stamp.hard_ts);
	unsigned long action = sl_ev_arg(ev, 1);

	if (!ts || this_cpu_read(sl_iq_stamp.hard_action) != action) {
		sl_loss(ev->p, SL_LOSS_UNMATCHED);
		return SL_KEEP;
	}
	this_cpu_write(sl_iq_stamp.hard_ts, 0);
	sl_iq_record(ev, sl_iq_row((unsigned int)sl_ev_arg(ev, 0),
				   (const struct irqaction *)action), ts);
	return SL_KEEP;
}

/* softirq_entry(vec_nr) */
static int sl_iq_soft_entry(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	this_cpu_write(sl_iq_stamp.soft_vec, sl_ev_arg(ev, 0));
	this_cpu_write(sl_iq_stamp.soft_ts, sl_ev_now(ev));
	return SL_KEEP;
}

/* softirq_exit(vec_nr) */
static int sl_iq_soft_exit(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	u64 ts = this_cpu_read(sl_iq_stamp.soft_ts);
	unsigned long vec = sl_ev_arg(ev, 0);

	if (!ts || this_cpu_read(sl_iq_stamp.soft_vec) != vec ||
	    vec >= NR_SOFTIRQS) {
		sl_loss(ev->p, SL_LOSS_UNMATCHED);
		return SL_KEEP;
	}
	this_cpu_write(sl_iq_stamp.soft_ts, 0);
	sl_iq_record(ev, IQ_SOFT + vec, ts);
	return SL_KEEP;
}

SL_TP_DEFINE(irq_handler_entry, (int irq, struct irqaction *action),
	     (unsigned long)irq, (unsigned long)action)
SL_TP_DEFINE(irq_handler_exit, (int irq, struct irqaction *action, int ret),
	     (unsigned long)irq, (unsigned long)action)
SL_TP_DEFINE(softirq_entry, (unsigned int vec_nr), (unsigned long)vec_nr)
SL_TP_DEFINE(softirq_exit, (unsigned int vec_nr), (unsigned long)vec_nr)

static const struct sl_cand sl_c_iq_hard_entry[] = {
	SL_TPD(irq_handler_entry) };
static const struct sl_cand sl_c_iq_hard_exit[] = {
	SL_TPD(irq_handler_exit) };
static const struct sl_cand sl_c_iq_soft_entry[] = { SL_TPD(softirq_entry) };
static const struct sl_cand sl_c_iq_soft_exit[] = { SL_TPD(softirq_exit) };

static struct sl_hook sl_iq_hooks[] = {
	SL_POINT("hardirq_entry", sl_c_iq_hard_entry, SL_ACT_NONE, 0, 0,
		 .post = sl_iq_hard_entry),
	SL_POINT("hardirq_exit", sl_c_iq_hard_exit, SL_ACT_NONE, 0, 0,
		 .post = sl_iq_hard_exit),
	SL_POINT("softirq_entry", sl_c_iq_soft_entry, SL_ACT_NONE, 0, 0,
		 .post = sl_iq_soft_entry),
	SL_POINT("softirq_exit", sl_c_iq_soft_exit, SL_ACT_NONE, 0, 0,
		 .post = sl_iq_soft_exit),
};

/*
 * Before the hooks are armed, the gate closed: no handler of this pipeline
 * runs (the last disable waited for them), so the stamps an entry left
 * before that disable are forgotten here.
 */
static int sl_iq_enable(struct sl_pipeline *p)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&sl_iq_stamp, cpu), 0,
		       sizeof(struct sl_iq_stamp));
	return 0;
}

static int sl_iq_setup(struct sl_pipeline *p)
{
	static const char * const names[NR_SOFTIRQS] = SL_COMPAT_SOFTIRQ_NAMES;
	static const char * const from[] = { "hardirq_entry" };
	static const char * const to[] = { "hardirq_exit" };
	unsigned int v;

	for (v = 0; v < NR_SOFTIRQS; v++) {
		struct sl_stage *st = &sl_iq_stages[IQ_SOFT + v];

		if (names[v])
			strscpy(st->name, names[v], sizeof(st->name));
		else
			snprintf(st->name, sizeof(st->name), "softirq%u", v);
		st->from = "softirq_entry";
		st->to = "softirq_exit";
		st->from_pt = SL_PT_NONE;
		st->to_pt = SL_PT_NONE;
	}
	sl_dim_init(&sl_iq_lines, sl_iq_stages, IQ_HARD, 1, sl_iq_suffix,
		    from, to);
	/* no suffix: the label may take all but "#<slot>" and the NUL */
	sl_iq_lines.name_max = STACKLAT_NAME_MAX - 3;
	return 0;
}

SL_PIPELINE(irq) = {
	.name = "irq",
	.desc = "time in hardirq handlers per IRQ line and handler, in softirqs per vector",
	.key = STACKLAT_KEY_NONE,
	.hooks = sl_iq_hooks,
	.nhooks = ARRAY_SIZE(sl_iq_hooks),
	.stages = sl_iq_stages,
	.nstages = ARRAY_SIZE(sl_iq_stages),
	.setup = sl_iq_setup,
	.on_enable = sl_iq_enable,
	.own_events = true,
};
