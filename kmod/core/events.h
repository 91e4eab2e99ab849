/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slow events (events.c): written in probe context into per-CPU rings
 * when a chain or a call is over its pipeline's threshold, read (and so
 * consumed) by debugfs and netlink.
 */
#ifndef _STACKLAT_EVENTS_H
#define _STACKLAT_EVENTS_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/wait.h>

#include "types.h"

struct sl_flight_ent;
struct stacklat_event;
struct netlink_ext_ack;

struct sl_events_stats {
	u32 ring;			/* records a CPU's ring grows to */
	u32 ring_start;			/* and starts with */
	u32 ring_now;			/* of the largest ring now */
	u32 rings;			/* CPUs with a ring (online since) */
	u64 written, read, overruns_total;
	u64 bytes;			/* of the rings allocated */
};

void sl_event_emit(struct sl_pipeline *p, const struct sl_flight_ent *e);
void sl_event_emit_ts(struct sl_pipeline *p, const u64 *ts, unsigned int nts,
		      u64 born, const struct sl_ev_obj *o);
void sl_event_emit_one(struct sl_pipeline *p, unsigned int stage, u64 start,
		       u64 end);
void sl_event_emit_obj(struct sl_pipeline *p, unsigned int stage, u64 start,
		       u64 end, const struct sl_ev_obj *o);
void sl_event_emit_stages(struct sl_pipeline *p, const unsigned int *stage,
			  const u64 *ns, unsigned int n, u64 end,
			  const struct sl_ev_obj *o);
void sl_event_emit_line(struct sl_pipeline *p, unsigned int stage, u64 now,
			const struct sl_ev_obj *o);
bool sl_events_possible(const struct sl_pipeline *p);
extern unsigned int sl_events_rate;	/* main.c's event_rate= */
extern unsigned int sl_events_records;	/* main.c's event_records= */
extern unsigned int sl_events_start;	/* the rings' start (main.c) */
int sl_events_check_threshold(const struct sl_pipeline *p, u64 ns,
			      struct netlink_ext_ack *extack);
int sl_events_alloc(void);

/* The pipeline's threshold for slow events, ns; 0 when it has none. */
static __always_inline u64 sl_events_thresh(const struct sl_pipeline *p)
{
	return READ_ONCE(p->priv.ev_thresh);
}
bool sl_events_avail(void);
unsigned int sl_events_take(struct stacklat_event *out, unsigned int max);
void sl_events_lock(void);
int sl_events_lock_interruptible(void);
void sl_events_unlock(void);
void sl_events_stats(struct sl_events_stats *st);
u64 sl_events_overruns(unsigned int cpu);
void sl_events_reader_get(void);
void sl_events_reader_put(void);
wait_queue_head_t *sl_events_wq(void);
void sl_events_exit(void);

#endif /* _STACKLAT_EVENTS_H */
