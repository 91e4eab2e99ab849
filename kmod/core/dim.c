// SPDX-License-Identifier: GPL-2.0
/*
 * Breakdown dimensions: stages kept per interface, per disk (and later per
 * cgroup or port), in a fixed number of slots.  A slot is claimed from
 * probe context the first time its key (an interface, a disk) is seen and
 * named after it ("eth0.total", "vda.D2C"); it is released from process
 * context when the key goes away (the interface is unregistered), its
 * histograms emptied, and the next key takes it.  Keys beyond the slots
 * share "other".
 *
 * A chain remembers its slot as a tag (sl_dim_tag) carrying the slot's
 * generation: a chain that outlived its slot's release is recorded in
 * "other", never in the next owner's stages.  That holds through the
 * release itself (sl_dim_release()): a tag is only ever taken with the
 * generation its key had (sl_dim_find() checks the key again after
 * reading it), and a probe that checked a tag against the generation
 * before the release moved it on has recorded before the slot's stages
 * are emptied and the slot freed: the release waits for it (probes run
 * with preemption off).
 *
 * This file also compiles in userspace (-DSL_USERSPACE: tests/unit/
 * dim_shim.h stands in for the engine's headers), so that
 * tests/unit/test_dim.c runs a release at the instrumentation points
 * below (no-ops in the kernel).
 */
#ifdef SL_USERSPACE
#include "dim_shim.h"
#else
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "dim.h"
#include "flight.h"
#include "hist.h"

/*
 * Bumped on every reset, enable, disable, func change or slot released:
 * dumps compare it.  Defined here, in the lowest room that bumps it (the
 * engine's rooms that use a dimension are below pipeline.c).
 */
u32 sl_dump_seq = 1;
#endif

#ifdef SL_SHIM_TRACE
#define sl_dim_point(name, arg)	sl_shim_point(name, arg)
#else
#define sl_dim_point(name, arg)	do { } while (0)
#endif

/* Name slot @slot's stages "<name>[#slot]<suffix>", first byte last. */
static void sl_dim_name(struct sl_dim *d, unsigned int slot, const char *name,
			bool dup)
{
	unsigned int s, n, k;
	char first = READ_ONCE(name[0]);

	for (s = 0; s < d->nper; s++) {
		struct sl_stage *st = &d->stages[slot * d->nper + s];
		const char *suffix = d->suffix[s];

		n = 1;
		if (first) {
			while (n < d->name_max && READ_ONCE(name[n])) {
				WRITE_ONCE(st->name[n], READ_ONCE(name[n]));
				n++;
			}
		}
		if (dup) {
			WRITE_ONCE(st->name[n++], '#');
			WRITE_ONCE(st->name[n++], '0' + slot);
		}
		for (k = 0; suffix[k] && n + k < STACKLAT_NAME_MAX - 1; k++)
			WRITE_ONCE(st->name[n + k], suffix[k]);
		WRITE_ONCE(st->name[n + k], '\0');
		/* readers skip a stage whose name is empty */
		smp_wmb();
		WRITE_ONCE(st->name[0], first ? first : '?');
	}
}

/* Does a live slot other than @slot carry the name @name? */
static bool sl_dim_name_taken(struct sl_dim *d, unsigned int slot,
			      const char *name)
{
	unsigned int i, n;

	for (i = 0; i < SL_DIM_SLOTS; i++) {
		const char *have = d->stages[i * d->nper].name;
		u64 k = READ_ONCE(d->key[i]);

		if (i == slot || !k || k == SL_DIM_DYING)
			continue;
		for (n = 0; n < d->name_max; n++) {
			char c = READ_ONCE(have[n]), w = READ_ONCE(name[n]);

			if (!w) {
				if (n && (c == d->suffix[0][0] || c == '#'))
					return true;
				break;
			}
			if (c != w)
				break;
		}
	}
	return false;
}

/*
 * The tag of slot @i, found holding @key: its generation, then the key
 * once more.  A release marks the key dying before it moves the
 * generation on, so a key still there vouches for the generation read
 * (the key's own, never the next owner's); a key gone meanwhile is on
 * its way out, and its chains go to "other".
 */
static __always_inline u32 sl_dim_tag_of(const struct sl_dim *d,
					 unsigned int i, u64 key)
{
	u32 gen = READ_ONCE(d->gen[i]);

	smp_rmb();	/* the generation before the key: see above */
	return READ_ONCE(d->key[i]) == key ? i | gen << 8 : SL_DIM_OTHER;
}

/*
 * The tag of @key's slot if it has one, else SL_DIM_NONE (probe context:
 * loads only).  For a caller whose name costs something to make: it makes
 * it only when this misses, then calls sl_dim_tag().
 */
u32 sl_dim_find(const struct sl_dim *d, u64 key)
{
	unsigned int i;

	if (!key || key == SL_DIM_DYING)
		return SL_DIM_OTHER;
	for (i = 0; i < SL_DIM_SLOTS; i++) {
		if (READ_ONCE(d->key[i]) == key) {
			sl_dim_point("found", d);
			return sl_dim_tag_of(d, i, key);
		}
	}
	return SL_DIM_NONE;
}

/*
 * The tag of @key's slot, claiming a free one on first sight (probe
 * context: cmpxchg, byte stores).  @name names it; a name already in use
 * (the same interface name in two namespaces) gets "#<slot>" after it.
 */
u32 sl_dim_tag(struct sl_dim *d, u64 key, const char *name)
{
	unsigned int i;
	u32 tag;
	u64 k;

	tag = sl_dim_find(d, key);
	if (tag != SL_DIM_NONE)
		return tag;
	for (i = 0; i < SL_DIM_SLOTS; i++) {
		if (READ_ONCE(d->key[i]))
			continue;
		k = cmpxchg(&d->key[i], 0, key);
		if (!k)
			sl_dim_name(d, i, name, sl_dim_name_taken(d, i, name));
		if (!k || k == key)
			return sl_dim_tag_of(d, i, key);
	}
	return SL_DIM_OTHER;
}

/*
 * The first stage of the slot @tag names, or of "other" when the slot was
 * released since the tag was taken.
 */
unsigned int sl_dim_stage(const struct sl_dim *d, u32 tag)
{
	unsigned int slot = tag & 0xff;

	if (slot >= SL_DIM_SLOTS ||
	    READ_ONCE(d->gen[slot]) != (tag >> 8 & 0xffffff))
		slot = SL_DIM_SLOTS;
	sl_dim_point("checked", d);
	return d->first + slot * d->nper;
}

/*
 * The label of the slot @tag names (the interface or disk name, without a
 * stage's suffix) in @buf, or "other"; probe context: byte loads only (a
 * slot renamed meanwhile may give a mixed name, never an unterminated one).
 */
void sl_dim_label(const struct sl_dim *d, u32 tag, char *buf, size_t len)
{
	const char *name = d->stages[sl_dim_stage(d, tag) - d->first].name;
	char stop = d->suffix[0][0];
	size_t n;

	for (n = 0; n + 1 < len && n < STACKLAT_NAME_MAX; n++) {
		char c = READ_ONCE(name[n]);

		if (!c || (n && c == stop))
			break;
		buf[n] = c;
	}
	buf[n] = '\0';
}

/*
 * @key went away (process context, sl_lock held): its slot is emptied and
 * freed for the next key.  Handlers still holding its old tag record into
 * "other" from now on.  In order: the key is marked dying (no lookup
 * finds it, no claim takes the slot), then the generation moves on; once
 * every probe that may have checked a tag against the old generation has
 * ended, and recorded (synchronize_rcu(): probes run with preemption
 * off), the stages are emptied and the slot freed.
 */
void sl_dim_release(struct sl_pipeline *p, struct sl_dim *d, u64 key)
{
	unsigned int i, s;
	bool any = false;

	lockdep_assert_held(&sl_lock);
	/*
	 * Unregistering a notifier replays its events for every key: at
	 * unload that comes after the pipeline's histograms are gone.
	 */
	if (!p->priv.hists || !key)
		return;
	for (i = 0; i < SL_DIM_SLOTS; i++) {
		if (READ_ONCE(d->key[i]) != key)
			continue;
		WRITE_ONCE(d->key[i], SL_DIM_DYING);
		/* dying before the generation moves (sl_dim_find()) */
		smp_wmb();
		WRITE_ONCE(d->gen[i], (d->gen[i] + 1) & 0xffffff);
		any = true;
	}
	if (!any)
		return;
	synchronize_rcu();
	for (i = 0; i < SL_DIM_SLOTS; i++) {
		if (READ_ONCE(d->key[i]) != SL_DIM_DYING)
			continue;
		for (s = 0; s < d->nper; s++) {
			unsigned int st = d->first + i * d->nper + s;

			WRITE_ONCE(d->stages[i * d->nper + s].name[0], '\0');
			sl_hist_reset(&p->priv.hists[st]);
		}
		/* the name and histograms are empty before the slot is free */
		smp_wmb();
		WRITE_ONCE(d->key[i], 0);
	}
	sl_dump_seq++;
}

/*
 * Set up @d over the pipeline's stages from @first: SL_DIM_SLOTS slots of
 * @nper stages, then "other".  @from/@to name each stage's points.
 */
void sl_dim_init(struct sl_dim *d, struct sl_stage *stages, unsigned int first,
		 unsigned int nper, const char * const *suffix,
		 const char * const *from, const char * const *to)
{
	unsigned int i, s;

	d->stages = stages + first;
	d->first = first;
	d->nper = nper;
	d->suffix = suffix;
	d->name_max = STACKLAT_NAME_MAX - 12;
	for (i = 0; i <= SL_DIM_SLOTS; i++) {
		if (i < SL_DIM_SLOTS) {
			d->key[i] = 0;
			d->gen[i] = 0;
		}
		for (s = 0; s < nper; s++) {
			struct sl_stage *st = &d->stages[i * nper + s];

			st->from = from[s];
			st->to = to[s];
			st->from_pt = SL_FLIGHT_NTS;	/* not derived */
			st->to_pt = SL_FLIGHT_NTS;
			if (i < SL_DIM_SLOTS)
				st->name[0] = '\0';
			else
				snprintf(st->name, sizeof(st->name), "other%s",
					 suffix[s]);
		}
	}
}
